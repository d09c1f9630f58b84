package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// stateTree is a cache with one entry of each state: done (model.done), failed (model.log),
// in progress (neither, just changed), stale (neither, unchanged for a day), and a NEFF
// outside any cache entry.
func stateTree(t *testing.T) string {
	t.Helper()
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	root := t.TempDir()
	entry := func(mod string, sibling string) string {
		d := filepath.Join(root, "neuronxcc-2.23.6484.0+3b612583", mod)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "model.neff"), src, 0o644)
		if sibling != "" {
			os.WriteFile(filepath.Join(d, sibling), nil, 0o644)
		}
		return d
	}
	entry("MODULE_1+d41d8cd9", "model.done")
	entry("MODULE_2+d41d8cd9", "model.log")
	entry("MODULE_3+d41d8cd9", "")
	old := entry("MODULE_4+d41d8cd9", "")
	day := time.Now().Add(-24 * time.Hour)
	os.Chtimes(old, day, day)
	os.WriteFile(filepath.Join(root, "loose.neff"), src, 0o644)
	return root
}

// On a terminal, scan's table has a STATE column: done, failed, in progress, stale, and "-"
// outside a cache.
func TestScanTableState(t *testing.T) {
	root := stateTree(t)
	var out bytes.Buffer
	st, err := scan([]string{root}, scanOptions{jobs: 2, interval: time.Hour}, &tableSink{w: &out})
	if err != nil || st.records != 5 {
		t.Fatalf("%d records, %v", st.records, err)
	}
	state := map[string]string{}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if !strings.HasPrefix(lines[0], "PATH") || !strings.Contains(lines[0], "STATE") {
		t.Fatalf("header %q", lines[0])
	}
	col := strings.Index(lines[0], "STATE")
	for _, l := range lines[1:] {
		key := "loose.neff"
		if i := strings.Index(l, "MODULE_"); i >= 0 {
			key = l[i : i+len("MODULE_1")]
		}
		state[key] = strings.TrimSpace(string([]rune(l)[col : col+11]))
	}
	want := map[string]string{"MODULE_1": "done", "MODULE_2": "failed", "MODULE_3": "in progress", "MODULE_4": "stale", "loose.neff": "-"}
	for k, v := range want {
		if state[k] != v {
			t.Errorf("%s: state %q, want %q\n%s", k, state[k], v, out.String())
		}
	}
}

// The live progress line and the table share a terminal: every row starts on a line of its
// own, never after the progress text (a terminal shows what follows the last carriage return).
func TestScanProgressClearedBeforeRows(t *testing.T) {
	root := stateTree(t)
	var term bytes.Buffer
	opt := scanOptions{jobs: 1, progress: &term, live: true, interval: 0}
	if _, err := scan([]string{root}, opt, &tableSink{w: &term}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(term.String(), "scan: ") {
		t.Fatal("no progress line was drawn: the test does not reach the case")
	}
	rows := 0
	for _, l := range strings.Split(term.String(), "\n") {
		shown := l[strings.LastIndex(l, "\r")+1:]
		shown = strings.TrimPrefix(shown, "\x1b[K")
		if strings.Contains(shown, ".neff") || strings.HasPrefix(shown, "PATH") {
			rows++
		}
		if strings.Contains(shown, "scan: ") && strings.Contains(shown, "  ") {
			t.Errorf("a row shares its line with the progress text: %q", l)
		}
	}
	if rows != 6 {
		t.Errorf("%d rows on lines of their own, want 6:\n%q", rows, term.String())
	}
}
