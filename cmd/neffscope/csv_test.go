package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/fleet"
)

// csvVectors is testdata/csv-vectors.json, the cases the page's CSV test reads too.
func csvVectors(t testing.TB) []struct{ In, Out string } {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "csv-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Cells []struct{ In, Out string }
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v.Cells
}

// live reports whether a cell as written could run as a formula: it starts with a tab or CR,
// or its first rune past csvSkipped starts a formula, and it is not a plain number.
func live(cell string) bool {
	if cell == "" || csvNumber.MatchString(cell) {
		return false
	}
	if cell[0] == '\t' || cell[0] == '\r' {
		return true
	}
	t := strings.TrimLeftFunc(cell, csvSkipped)
	r, _ := utf8.DecodeRuneInString(t)
	return t != "" && strings.ContainsRune(csvFormulaStart, r)
}

// checkCSVRow writes row through csvWriter and reads it back with encoding/csv: one record,
// each cell csvNeutral of the one given, none live.
func checkCSVRow(t *testing.T, row []string) {
	t.Helper()
	var b bytes.Buffer
	w := newCSVWriter(&b)
	if err := w.Write(row); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(&b)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil || len(recs) != 1 || len(recs[0]) != len(row) {
		t.Fatalf("%q: read back %q, %v", row, recs, err)
	}
	for i, got := range recs[0] {
		// encoding/csv reads CRLF inside a quoted cell as LF.
		if want := strings.ReplaceAll(csvNeutral(row[i]), "\r\n", "\n"); got != want {
			t.Fatalf("%q cell %d: read back %q, want %q", row, i, got, want)
		}
		if live(got) && !strings.HasPrefix(got, "'") {
			t.Fatalf("%q cell %d: %q is a live formula", row, i, got)
		}
	}
}

// TestCSVVectors: the shared cases, each cell as the rule says and whole rows read back.
func TestCSVVectors(t *testing.T) {
	cells := csvVectors(t)
	var row []string
	for _, c := range cells {
		if got := csvNeutral(c.In); got != c.Out {
			t.Errorf("csvNeutral(%q) = %q, want %q", c.In, got, c.Out)
		}
		if c.In != "" && c.In[0] != '\r' {
			row = append(row, c.In)
		}
	}
	checkCSVRow(t, row)
}

// FuzzCSV: whatever the cells, the row reads back through encoding/csv as csvNeutral made it,
// and no cell starts with a live formula.
func FuzzCSV(f *testing.F) {
	for _, c := range csvVectors(f) {
		f.Add(c.In, "x")
	}
	f.Add("=1", "-2+3+cmd|' /C calc'!A0")
	f.Fuzz(func(t *testing.T, a, b string) {
		// encoding/csv cannot carry invalid UTF-8 or a lone CR faithfully; the CLI's cells
		// come from Go strings that went through its printers.
		a, b = strings.ToValidUTF8(a, "\uFFFD"), strings.ToValidUTF8(b, "\uFFFD")
		if strings.Contains(a+b, "\r") || a == "" && b == "" {
			return
		}
		checkCSVRow(t, []string{a, b})
	})
}

// TestScanCSVWritesWholeRows: scan --csv writes each row with one Write of a whole row, as it
// comes (a scan killed at any moment leaves whole rows), even when a cell holds a newline.
func TestScanCSVWritesWholeRows(t *testing.T) {
	var log writeLog
	s := newCSVSink(&log)
	recs := []*fleet.ScanRecord{{Path: "a/model.neff"}, {Path: "b/two\nlines=cmd.neff"}}
	for i, r := range recs {
		if err := s.Write(r); err != nil {
			t.Fatal(err)
		}
		if len(log.writes) != i+2 { // the header, then one Write per record, before Close
			t.Fatalf("after record %d: %d writes", i+1, len(log.writes))
		}
	}
	s.Close()
	if len(log.writes) != 3 {
		t.Fatalf("%d writes, want the header and 2 rows", len(log.writes))
	}
	for _, w := range log.writes {
		rows, err := csv.NewReader(bytes.NewReader(w)).ReadAll()
		if err != nil || len(rows) != 1 || len(rows[0]) != len(flatColumns) {
			t.Errorf("a write is not one whole row: %q (%v)", w, err)
		}
	}
}
