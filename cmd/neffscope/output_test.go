package main

import (
	"strings"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/doc"
)

// replaceInvalid is s with every byte that is not UTF-8 replaced by U+FFFD, as encoding/json
// decodes what it encoded.
func replaceInvalid(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += n
	}
	return b.String()
}

// rawEscapable returns the first rune of escapedRunes (or invalid byte, as U+FFFD) that s
// holds raw; layout keeps newline and tab allowed (text output's own).
func rawEscapable(s string, layout bool) (rune, bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if layout && (r == '\n' || r == '\t') {
			continue
		}
		if r == utf8.RuneError && n == 1 || doc.Escapes(r) {
			return r, true
		}
	}
	return 0, false
}
