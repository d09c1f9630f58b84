package main

import (
	"encoding/csv"
	"io"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Every CSV the CLI writes (scan --csv, profile --csv) goes through one csvWriter, and the
// page's CSV (www/src/lib/csv.js) follows the same rule; testdata/csv-vectors.json is the one
// list of cases both test suites read, so the two cannot drift.
//
// The rule (OWASP's, widened): a cell that a spreadsheet could run as a formula gets a
// leading apostrophe, which makes it text. That is a cell whose first character is a tab or
// CR, or whose first character after any leading spaces, controls and invisible format
// characters (csvSkipped: a spreadsheet may trim or ignore them on import) is =, +, - or @, or
// their fullwidth forms (＝ ＋ － ＠), unless the whole cell
// is a plain decimal number ("-1", "-0.5e3"), which no spreadsheet runs. Every cell is treated
// so, whatever its column: names, paths and messages come from the file, which may be hostile.
// encoding/csv then quotes what RFC 4180 requires.

// csvFormulaStart is the runes that start a formula, in ASCII and fullwidth.
const csvFormulaStart = "=+-@＝＋－＠"

// csvSkipped reports the leading runes looked past for a formula start: white space, controls
// and format characters (zero-width, bidi, the BOM); the page's is /[\s\p{Cc}\p{Cf}]/u.
func csvSkipped(r rune) bool { return unicode.In(r, unicode.White_Space, unicode.Cc, unicode.Cf) }

// csvNumber is a plain decimal number: the one kind of cell that may start with -.
var csvNumber = regexp.MustCompile(`^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// csvNeutral returns the cell as written: with a leading apostrophe when a spreadsheet could
// run it as a formula.
func csvNeutral(s string) string {
	if s == "" || csvNumber.MatchString(s) {
		return s
	}
	if s[0] == '\t' || s[0] == '\r' {
		return "'" + s
	}
	t := strings.TrimLeftFunc(s, csvSkipped)
	if r, _ := utf8.DecodeRuneInString(t); t != "" && strings.ContainsRune(csvFormulaStart, r) {
		return "'" + s
	}
	return s
}

// csvWriter is encoding/csv's writer with every cell passed through csvNeutral.
type csvWriter struct {
	w   *csv.Writer
	row []string
}

func newCSVWriter(w io.Writer) *csvWriter { return &csvWriter{w: csv.NewWriter(w)} }

// Write writes one row; the caller's slice is not changed.
func (c *csvWriter) Write(row []string) error {
	c.row = c.row[:0]
	for _, s := range row {
		c.row = append(c.row, csvNeutral(s))
	}
	return c.w.Write(c.row)
}

// Flush flushes the rows written and returns the first error of a write or flush.
func (c *csvWriter) Flush() error {
	c.w.Flush()
	return c.w.Error()
}
