package doc

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// The one way a string from a file becomes JSON (the document's JSON, disasm --json, sync
// --trace, the CLI's relayed findings) and a Parquet string: AppendJSONString and
// CleanString, over the one table of runes that output escapes (EscapedRunes).

// EscapedRunes is the one table of the runes output escapes in anything that came from a
// file, text and JSON alike: the C0 and C1 controls and DEL (Cc); the format characters (Cf:
// bidi overrides, embeddings and isolates U+202A–202E and U+2066–2069, the marks U+200E,
// U+200F and U+061C, the zero-width U+200B–200D and U+2060, the BOM U+FEFF, the soft hyphen,
// the tags U+E0001–E007F); and the line and paragraph separators U+2028 and U+2029 (Zl, Zp),
// which JavaScript and some terminals take as line ends. A terminal acts on the first kind;
// the others reorder, hide or break lines, so a name can forge what is printed around it.
var EscapedRunes = []*unicode.RangeTable{unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp}

// Escapes reports whether output escapes r (EscapedRunes).
func Escapes(r rune) bool {
	if r < utf8.RuneSelf {
		return r < 0x20 || r == 0x7f
	}
	return unicode.IsOneOf(EscapedRunes, r)
}

// JSONMode is how AppendJSONString escapes.
type JSONMode uint8

const (
	// JSONStd is encoding/json's own string encoding (what Marshal writes): ", \ and the C0
	// controls escaped, <, > and & as \u00XX, invalid UTF-8 as \ufffd, U+2028 and U+2029
	// escaped. The document's JSON is held to it byte for byte.
	JSONStd JSONMode = iota
	// JSONSafe is JSONStd with every rune of EscapedRunes (DEL, the C1 controls, the format
	// characters) as \u escapes too (a surrogate pair past U+FFFF): the string parses to the
	// same value, and the bytes are safe on a terminal. For JSON written straight to a file
	// or stdout.
	JSONSafe
)

// jsonPlain[mode][c] marks the ASCII bytes AppendJSONString copies as they are.
var jsonPlain = func() (t [2][256]bool) {
	for c := 0x20; c < 0x7F; c++ {
		t[JSONStd][c], t[JSONSafe][c] = true, true
	}
	t[JSONStd][0x7F] = true // encoding/json writes DEL as it is
	for _, c := range `"\<>&` {
		t[JSONStd][c], t[JSONSafe][c] = false, false
	}
	return t
}()

// Plain reports whether AppendJSONString in mode m copies the byte c as it is.
func (m JSONMode) Plain(c byte) bool { return jsonPlain[m&1][c] }

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as a quoted JSON string, escaped as mode says.
func AppendJSONString[S string | []byte](b []byte, s S, mode JSONMode) []byte {
	plain := &jsonPlain[mode&1]
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		if c < utf8.RuneSelf {
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029' || mode == JSONSafe && Escapes(r):
			b = AppendJSONRune(b, r)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// AppendJSONRune appends r as a JSON string escape: \u and four hex digits, a surrogate
// pair past U+FFFF.
func AppendJSONRune(b []byte, r rune) []byte {
	u := func(b []byte, v rune) []byte {
		return append(b, '\\', 'u', hexDigits[v>>12&15], hexDigits[v>>8&15], hexDigits[v>>4&15], hexDigits[v&15])
	}
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		return u(u(b, hi), lo)
	}
	return u(b, r)
}

// CleanString is s as a table (Parquet) carries a string from a file: what its JSON string
// (JSONSafe) shows between the quotes, but for " and \, which stay as they are. Invalid UTF-8
// is U+FFFD, as in the JSON, and each rune of EscapedRunes is its \u escape as text, so the
// value is valid UTF-8 and prints safely, and two names that differ stay different.
func CleanString(s string) string {
	clean := true
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7F {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || Escapes(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = utf8.AppendRune(b, utf8.RuneError)
		case Escapes(r):
			b = AppendJSONRune(b, r)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}
