package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parquet-go/parquet-go"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// duckdbKeywords are the words DuckDB (v1.5.6, `select keyword_name from duckdb_keywords()
// where keyword_category in ('reserved', 'type_function')`) will not take as a bare column
// name: a column so named must be quoted in every query.
var duckdbKeywords = strings.Fields(`all analyse analyze and anti any array as asc asof asymmetric at
authorization binary both by case cast check collate collation column columns concurrently
constraint create cross default deferrable desc describe distinct do else end except false fetch
for foreign freeze from full generated glob grant group having ilike in initially inner intersect
into is isnull join lambda lateral leading left like limit map natural not notnull null offset on
only or order outer overlaps pivot pivot_longer pivot_wider placing positional primary qualify
references returning right select semi show similar some struct summarize symmetric table
tablesample then to trailing true try_cast union unique unpack unpivot using variadic verbose when
where window with`)

// No column of export's tables or scan's Parquet is an SQL reserved word.
func TestParquetColumnsNeedNoQuoting(t *testing.T) {
	reserved := map[string]bool{}
	for _, k := range duckdbKeywords {
		reserved[k] = true
	}
	cols := append([]string(nil), flatColumns...)
	for _, c := range exportColumns {
		cols = append(cols, c.Column)
	}
	for _, c := range cols {
		if reserved[strings.ToLower(c)] {
			t.Errorf("column %q is a reserved word: every query must quote it", c)
		}
	}
}

// readTable reads every row of one exported table.
func readTable[T any](t *testing.T, dir, name string) []T {
	t.Helper()
	rows, err := parquet.ReadFile[T](filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// Two copies of one NEFF share its UUID: each row names its file, so no key repeats.
func TestExportTwoCopiesKeyedByPath(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	in := t.TempDir()
	a, b := filepath.Join(in, "a.neff"), filepath.Join(in, "b.neff")
	os.WriteFile(a, src, 0o644)
	os.WriteFile(b, src, 0o644)
	dir := t.TempDir()
	if _, errs, rc := runCmd(t, "export", "--parquet", dir, a, b); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	type key struct {
		path, core, engine string
		index              int32
	}
	seen := map[key]bool{}
	perFile := map[string]int{}
	for _, r := range readTable[exportInstRow](t, dir, exportInstructions) {
		k := key{r.NeffPath, r.Core, r.Engine, r.InstructionIndex}
		if seen[k] {
			t.Fatalf("key %v twice", k)
		}
		seen[k] = true
		perFile[r.NeffPath]++
	}
	if len(perFile) != 2 || perFile[a] == 0 || perFile[a] != perFile[b] {
		t.Errorf("rows per file %v", perFile)
	}
}

// deadlockNEFF is matmul_small with Activation #3 made to wait for PE #9, which comes after
// PE #8's wait for Activation #3 (TestSyncDeadlock's file).
func deadlockNEFF(t *testing.T) string {
	t.Helper()
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	members, err := neff.ReadMembers(bytes.NewReader(src), int64(len(src)), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := neff.Open(bytes.NewReader(src), int64(len(src)), neff.Options{})
	var ms []neffbuild.Member
	for _, m := range a.Members {
		b := append([]byte(nil), members[m.Path]...)
		if m.Path == "sg00/Activation.bin" {
			b[3*64+8] = 3 // wait S[5] >= 3
		}
		ms = append(ms, neffbuild.Member{Path: m.Path, Data: b})
	}
	p := filepath.Join(t.TempDir(), "deadlock.neff")
	os.WriteFile(p, neffbuild.Bytes(ms, neffbuild.Options{FeatureBits: a.Header.FeatureBits, LNCSize: a.Header.LNCSize, Name: a.Header.Name}), 0o644)
	return p
}

// The lints table holds the model's lints with their codes and both instructions (the
// deadlock's two waits), and lints are no failure of the export.
func TestExportLintsTable(t *testing.T) {
	p := deadlockNEFF(t)
	dir := t.TempDir()
	if _, errs, rc := runCmd(t, "export", "--parquet", dir, p); rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	var got []string
	for _, r := range readTable[exportLintRow](t, dir, exportLints) {
		if r.Class != "lint" || r.Model != "sync" {
			continue
		}
		if r.Engine == nil || r.OtherEngine == nil || r.Message == "" || r.Model != "sync" || r.NeffPath != p {
			t.Fatalf("row %+v", r)
		}
		got = append(got, r.Core+" "+r.Code+" "+*r.Engine+"#"+itoaTest(int(*r.InstructionIndex))+" <- "+*r.OtherEngine+"#"+itoaTest(int(*r.OtherIndex)))
	}
	want := "sg00 sync.cycle PE#8 <- Activation#3,sg00 sync.cycle Activation#3 <- PE#9"
	if len(got) != 2 || !strings.Contains(want, got[0]) || !strings.Contains(want, got[1]) {
		t.Errorf("lint rows %q, want %s", got, want)
	}
}

// stringsOf lists every string (and *string) field of a row.
func stringsOf(row any) []string {
	var out []string
	v := reflect.ValueOf(row)
	for i := range v.NumField() {
		f := v.Field(i)
		switch {
		case f.Kind() == reflect.String:
			out = append(out, f.String())
		case f.Kind() == reflect.Pointer && !f.IsNil() && f.Elem().Kind() == reflect.String:
			out = append(out, f.Elem().String())
		}
	}
	return out
}

// cleanParquet fails when a string is not UTF-8 or holds a rune output escapes.
func cleanParquet(t *testing.T, where string, ss []string) {
	t.Helper()
	for _, s := range ss {
		if !utf8.ValidString(s) || strings.ContainsFunc(s, doc.Escapes) {
			t.Fatalf("%s: string %q is not clean", where, s)
		}
	}
}

// Names with NUL, ESC, DEL, C1, bidi, separators, a non-BMP format character and invalid
// UTF-8 (a core, a DMA queue, a kernel file, a BIR name, the network, a member) reach the
// Parquet tables as valid UTF-8 with no such rune raw: as their JSON shows them.
func TestParquetStringsAreClean(t *testing.T) {
	in := t.TempDir()
	core, forged := hostileCoreNEFF(t, in), forgedNEFF(t, in, "forged.neff")
	dir := t.TempDir()
	// A forged file may carry error findings of its own (exit 1); the tables are written.
	if _, errs, rc := runCmd(t, "export", "--parquet", dir, core, forged); rc == 2 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	var cores, sources int
	for _, r := range readTable[exportInstRow](t, dir, exportInstructions) {
		cleanParquet(t, "instructions", stringsOf(r))
		if strings.HasPrefix(r.Core, `sg\u0000`) {
			cores++
		}
		if r.BIRName != nil && strings.Contains(*r.BIRName, `\u001b[2J`) {
			sources++
		}
	}
	if cores == 0 || sources == 0 {
		t.Errorf("the hostile names are not in the rows as escapes (%d cores, %d BIR names)", cores, sources)
	}
	for _, r := range readTable[exportSyncRow](t, dir, exportSyncEdges) {
		cleanParquet(t, "sync_edges", stringsOf(r))
	}
	for _, r := range readTable[exportLintRow](t, dir, exportLints) {
		cleanParquet(t, "lints", stringsOf(r))
	}
	pq := filepath.Join(t.TempDir(), "scan.parquet")
	if _, errs, rc := runCmd(t, "scan", "-q", "--parquet", pq, in); rc == 2 {
		t.Fatalf("scan rc %d: %s", rc, errs)
	}
	rows, err := parquet.ReadFile[flatRecord](pq)
	if err != nil || len(rows) != 2 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	for _, r := range rows {
		cleanParquet(t, "scan", stringsOf(r))
	}
}

// When the budget stops the model (a sync.limit or mem.limit row), export says so on stderr
// with its code and exits 1: the sync_edges and mem_accesses rows past it are not there.
func TestExportSaysWhenRowsAreCut(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	cut := 0
	for _, limit := range []string{"600000", "800000", "1200000", "1600000", "2400000"} {
		dir := t.TempDir()
		_, errs, rc := runCmd(t, "export", "--max-memory", limit, "--parquet", dir, p)
		if rc == 2 {
			t.Fatalf("--max-memory %s: rc 2: %s", limit, errs)
		}
		limited := false
		for _, r := range readTable[exportLintRow](t, dir, exportLints) {
			limited = limited || r.Code == "sync.limit" || r.Code == "mem.limit"
		}
		if !limited {
			continue
		}
		cut++
		if rc != 1 || !strings.Contains(errs, "[export.rows-cut]") {
			t.Errorf("--max-memory %s: the model was cut, but rc %d: %s", limit, rc, errs)
		}
	}
	if cut == 0 {
		t.Fatal("no limit of the ladder cut the model: the test no longer reaches the case")
	}
}
