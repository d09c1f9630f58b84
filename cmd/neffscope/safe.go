package main

import (
	"flag"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// Strings that come from a file (member names, JSON strings, model names) go to a terminal
// only through safe or safeMsg, so a forged name cannot retitle, clear or overwrite it; and
// every text command writes through a termWriter, which escapes what a printer missed.

// safe returns s as is when it is plain printable text, else quoted as strconv.Quote does.
func safe(s string) string {
	if plain(s) {
		return s
	}
	return strconv.Quote(s)
}

// safeMsg escapes control characters inside s (no quotes added): for finding messages, which
// quote file strings inside a sentence.
func safeMsg(s string) string {
	if plain(s) {
		return s
	}
	q := strconv.Quote(s)
	return strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
}

// plain: valid UTF-8 with no control or format characters (C0, DEL, C1, bidi overrides).
func plain(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) && r != 0xFEFF {
			return false
		}
		i += n
	}
	return true
}

// termWriter escapes every control byte but newline and tab, C1 controls and invalid UTF-8
// in text output, keeping an incomplete UTF-8 sequence at the end of a write for the next.
type termWriter struct {
	w    io.Writer
	tail []byte
}

func (t *termWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(t.tail) > 0 {
		p = append(t.tail, p...)
		t.tail = nil
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				out = append(out, strconv.QuoteRune(rune(c))[1:len(strconv.QuoteRune(rune(c)))-1]...)
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		if !utf8.FullRune(p[i:]) && len(p)-i < utf8.UTFMax {
			t.tail = append([]byte(nil), p[i:]...)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\x`...)
			out = append(out, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		case unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) && r != 0xFEFF && r != 0x200D:
			q := strconv.QuoteRuneToASCII(r)
			out = append(out, q[1:len(q)-1]...)
		default:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes a dangling incomplete sequence, escaped.
func (t *termWriter) Flush() {
	if len(t.tail) > 0 {
		tail := t.tail
		t.tail = nil
		var b strings.Builder
		for _, c := range tail {
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(c)|0x100, 16)[1:])
		}
		t.w.Write([]byte(b.String()))
	}
}

// rawOutput names the commands whose stdout is bytes (a member, a NEFF), never escaped.
var rawOutput = map[string]bool{"extract": true, "extract-neff": true}

// cliLimits are the budget flags of the last command parsed (commonFlags registers them);
// openFile applies them when the caller set no limits of its own.
var cliLimits budget.Limits

func budgetFlags(fs *flag.FlagSet) {
	def := budget.Native()
	fs.Int64Var(&cliLimits.Memory, "max-memory", def.Memory, "bytes an open may hold: kept members plus decoded structure (estimated); past it, the rest is shown as bytes")
	fs.Int64Var(&cliLimits.Values, "max-values", def.Values, "JSON values indexed over the whole file; past it, JSON is shown as bytes")
	fs.Int64Var(&cliLimits.Members, "max-members", def.Members, "archive members listed; past it, listing stops")
	fs.Int64Var(&cliLimits.Rows, "max-rows", def.Rows, "instruction rows one request may materialise")
}

// exitFor is 1 when an error finding was printed for f, else 0.
func exitFor(f *inspect.File) int {
	if f != nil && f.Doc != nil && doc.Worst(f.Doc.Findings()) == doc.Error {
		return 1
	}
	return 0
}
