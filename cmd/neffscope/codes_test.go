package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

func TestCodesCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"codes", "--json"}, &out, &errb); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errb.String())
	}
	var rows []codeRow
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, r := range rows {
		if prev, ok := seen[r.Code]; ok {
			t.Errorf("code %s is listed twice (%s, %s)", r.Code, prev, r.From)
		}
		seen[r.Code] = r.From
		if r.Meaning == "" {
			t.Errorf("code %s has no meaning", r.Code)
		}
	}
	for code, from := range map[string]string{"neff.truncated": "finding", "budget.memory": "finding", "sync.cycle": "sync lint", "sync.unread": "sync undecided"} {
		if seen[code] != from {
			t.Errorf("code %s: from %q, want %q", code, seen[code], from)
		}
	}
	if len(rows) < len(doc.Codes) {
		t.Errorf("%d rows, fewer than the %d of doc.Codes", len(rows), len(doc.Codes))
	}

	out.Reset()
	if rc := run([]string{"codes"}, &out, &errb); rc != 0 {
		t.Fatalf("rc %d", rc)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if len(lines) != len(rows) {
		t.Fatalf("%d text lines, %d JSON rows", len(lines), len(rows))
	}
	for i, l := range lines {
		if f := strings.Fields(l); len(f) < 2 || f[0] != rows[i].Code {
			t.Errorf("line %d %q does not start with code %s", i, l, rows[i].Code)
		}
	}
	if rc := run([]string{"codes", "--bogus"}, &out, &errb); rc != 2 {
		t.Errorf("an unknown flag gave rc %d, want 2", rc)
	}
}

// TestInfoJSONCarriesCodes: info --json's findings carry the code of each finding (a real
// NEFF cut in half, so it has some).
func TestInfoJSONCarriesCodes(t *testing.T) {
	b := realfiles.Read(t, "nkipy/matmul_small.neff")
	p := filepath.Join(t.TempDir(), "cut.neff")
	if err := os.WriteFile(p, b[:len(b)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	run([]string{"info", "--json", p}, &out, &errb)
	var info InfoJSON
	if err := json.Unmarshal(out.Bytes(), &info); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	codes := map[doc.Code]bool{}
	for _, f := range info.Findings {
		codes[f.Code] = true
		if _, ok := doc.Meaning(f.Code); !ok {
			t.Errorf("finding %q has code %q, not in doc.Codes", f.Message, f.Code)
		}
	}
	if !codes[doc.CodeNeffTruncated] {
		t.Errorf("the cut file's findings have no %s: %v", doc.CodeNeffTruncated, codes)
	}
}
