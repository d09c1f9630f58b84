package doc

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileStrings are names a forged file can hold: every control, DEL, NUL, bidi and
// zero-width format characters, a non-BMP tag (U+E0001), the line separators, invalid and
// truncated UTF-8, and what HTML and JSON quote.
var hostileStrings = []string{
	"", "sg00", "\x00", "a\x1b]0;title\x07b", "\x7f", "\u0085", "\u202eevil", "x\u2066y\u2069",
	"\u200b\u200d\ufeff", "\U000E0001tag", "line\u2028sep\u2029", "\xff\xfe", "\xe2\x80", "ok\xc3",
	`"quoted" \back\ <tag> &amp;`, "tab\tnl\ncr\r", "日本語 ü", "\U0001F600",
}

// replaceInvalid is s with each byte that is not UTF-8 as U+FFFD (what a JSON reader gets).
func replaceInvalid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

func TestAppendJSONString(t *testing.T) {
	for _, s := range hostileStrings {
		std := AppendJSONString(nil, s, JSONStd)
		want, _ := json.Marshal(s)
		if string(std) != string(want) {
			t.Errorf("JSONStd(%q) = %s, encoding/json %s", s, std, want)
		}
		for _, b := range [][]byte{AppendJSONString(nil, s, JSONSafe), AppendJSONString(nil, []byte(s), JSONSafe)} {
			var back string
			if err := json.Unmarshal(b, &back); err != nil || back != replaceInvalid(s) {
				t.Errorf("JSONSafe(%q) = %s parses to %q, %v", s, b, back, err)
			}
			if !utf8.Valid(b) {
				t.Errorf("JSONSafe(%q) = %q is not UTF-8", s, b)
			}
			for _, r := range string(b) {
				if Escapes(r) {
					t.Errorf("JSONSafe(%q) = %q holds %U raw", s, b, r)
				}
			}
		}
	}
}

func TestCleanString(t *testing.T) {
	seen := map[string]string{}
	for _, s := range hostileStrings {
		c := CleanString(s)
		if !utf8.ValidString(c) {
			t.Errorf("CleanString(%q) = %q is not UTF-8", s, c)
		}
		for _, r := range c {
			if Escapes(r) {
				t.Errorf("CleanString(%q) = %q holds %U", s, c, r)
			}
		}
		if prev, ok := seen[c]; ok && replaceInvalid(prev) != replaceInvalid(s) {
			t.Errorf("CleanString(%q) = CleanString(%q) = %q", s, prev, c)
		}
		seen[c] = s
		// What the JSON shows between its quotes, but for " and \.
		j := string(AppendJSONString(nil, s, JSONSafe))
		j = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\u003c`, "<", `\u003e`, ">", `\u0026`, "&", `\ufffd`, "\ufffd",
			`\t`, `\u0009`, `\n`, `\u000a`, `\r`, `\u000d`).Replace(j[1 : len(j)-1])
		if j != c {
			t.Errorf("CleanString(%q) = %q, the JSON shows %q", s, c, j)
		}
	}
	if s := "plain name.py:12"; CleanString(s) != s {
		t.Error("a plain string changed")
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range hostileStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b := AppendJSONString(nil, s, JSONSafe)
		var back string
		if err := json.Unmarshal(b, &back); err != nil || back != replaceInvalid(s) {
			t.Fatalf("%q: %s parses to %q, %v", s, b, back, err)
		}
		if std, _ := json.Marshal(s); string(AppendJSONString(nil, s, JSONStd)) != string(std) {
			t.Fatalf("%q: JSONStd differs from encoding/json", s)
		}
		if c := CleanString(s); !utf8.ValidString(c) || strings.ContainsFunc(c, Escapes) {
			t.Fatalf("%q: CleanString %q", s, c)
		}
	})
}
