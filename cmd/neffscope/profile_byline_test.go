package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
)

// `profile --by-line` counts, per kernel line and engine, exactly the words `disasm --json`
// maps to that line; the lines come most first, --top cuts them, --csv is the same table.
func TestProfileByLineCountsMappedWords(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		name := filepath.Base(p)
		out, errs, rc := runCLI(t, "profile", "--by-line", "--json", "--top", "0", p)
		if rc != 0 {
			t.Fatalf("%s: rc %d: %s", name, rc, errs)
		}
		var got struct {
			AllLines int      `json:"lines_in_all"`
			Engines  []string `json:"engines"`
			Words    int      `json:"words"`
			Lines    []struct {
				File      string  `json:"file"`
				Line      int     `json:"line"`
				PerEngine []int32 `json:"per_engine"`
				Total     int     `json:"total"`
			} `json:"lines"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		dis, errs, rc := runCLI(t, "disasm", "--json", p)
		if rc != 0 {
			t.Fatalf("%s: disasm rc %d: %s", name, rc, errs)
		}
		var listing struct {
			Streams []struct {
				Engine       string
				Instructions []struct {
					Source *struct {
						File *string `json:"file"`
						Line *int    `json:"line"`
					} `json:"source"`
				}
			}
		}
		if err := json.Unmarshal([]byte(dis), &listing); err != nil {
			t.Fatal(err)
		}
		want := map[string]int{} // "file:line engine" → words
		mapped := 0
		for _, s := range listing.Streams {
			for _, in := range s.Instructions {
				if in.Source != nil && in.Source.Line != nil && *in.Source.Line > 0 {
					mapped++
					want[*in.Source.File+":"+strconv.Itoa(*in.Source.Line)+" "+s.Engine]++
				}
			}
		}
		if got.Words != mapped || got.AllLines != len(got.Lines) {
			t.Errorf("%s: %d words on %d lines (%d listed), disasm maps %d words", name, got.Words, got.AllLines, len(got.Lines), mapped)
		}
		sum := 0
		for i, l := range got.Lines {
			if i > 0 && l.Total > got.Lines[i-1].Total {
				t.Errorf("%s: line %d not sorted by total", name, i)
			}
			for e, c := range l.PerEngine {
				if k := l.File + ":" + strconv.Itoa(l.Line) + " " + got.Engines[e]; int(c) != want[k] {
					t.Errorf("%s: %s: %d words, disasm %d", name, k, c, want[k])
				}
			}
			sum += l.Total
		}
		if sum != mapped {
			t.Errorf("%s: totals sum to %d, disasm maps %d", name, sum, mapped)
		}
		// --csv (default --top 30): the header, then the same rows in the same order.
		csvOut, _, rc := runCLI(t, "profile", "--by-line", "--csv", p)
		recs, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
		if rc != 0 || err != nil {
			t.Fatalf("%s: --csv rc %d: %v", name, rc, err)
		}
		if n := min(30, len(got.Lines)); len(recs) != n+1 || recs[0][3] != "total" {
			t.Fatalf("%s: --csv %d records, want %d", name, len(recs), n+1)
		}
		for i, r := range recs[1:] {
			if r[3] != strconv.Itoa(got.Lines[i].Total) {
				t.Errorf("%s: --csv row %d total %s, want %d", name, i, r[3], got.Lines[i].Total)
			}
		}
		text, _, _ := runCLI(t, "profile", "--by-line", "--top", "2", p)
		rows := strings.Split(strings.TrimSpace(text), "\n")
		if len(got.Lines) > 0 && len(rows) != 2+min(2, len(got.Lines)) {
			t.Errorf("%s: --top 2 printed %d lines:\n%s", name, len(rows), text)
		}
	}
}

// `diff` of a real NEFF with itself prints no source lines; with one byte of one word of a
// kernel line changed it prints that line first, and the summary says so.
func TestDiffPrintsSourceLineFirst(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	out, _, rc := runCLI(t, "diff", p, p)
	if rc != 0 || strings.Contains(out, "source lines") {
		t.Fatalf("with itself: rc %d:\n%s", rc, out)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// sg00/PE.bin word 9 (a Matmul) comes from matmul_small's one kernel line (disasm shows it).
	changed := filepath.Join(t.TempDir(), "changed.neff")
	if err := os.WriteFile(changed, repackWord(t, b, "sg00/PE.bin", 9, 63), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, rc := runCLI(t, "diff", p, changed)
	if rc != 1 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[1], "source: 1 kernel line differs (first test_spike_async.py:58)") {
		t.Errorf("summary %q", lines[1])
	}
	i := strings.Index(out, "\nsource lines (1 changed")
	if i < 0 || i > strings.Index(out, "\nmembers") {
		t.Fatalf("no source lines section before the members:\n%s", out)
	}
	rows := strings.Split(out[i+1:], "\n")
	if f := strings.Fields(rows[2]); len(f) == 0 || f[0] != "test_spike_async.py:58" || f[len(f)-1] != "operands" {
		t.Errorf("first source row %q", rows[2])
	}
	if !strings.Contains(out, "- sg00/PE.bin #9: ") || !strings.Contains(out, "+ sg00/PE.bin #9: ") {
		t.Errorf("the differing word is not listed:\n%s", out)
	}
}

// repackWord is a real NEFF repacked with bit 0 of byte off of word i of member flipped.
func repackWord(t *testing.T, src []byte, member string, i, off int) []byte {
	t.Helper()
	return repack.NEFF(src, func(p string, data []byte) ([]byte, bool) {
		if p == member {
			data = bytes.Clone(data)
			data[i*64+off] ^= 0x01
		}
		return data, true
	})
}
