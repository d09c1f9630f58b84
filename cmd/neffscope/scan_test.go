package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// cacheTree builds a compile-cache-shaped tree in a temp dir from the real matmul_small and
// generated NEFFs: a done entry, a byte-identical duplicate, an incomplete entry whose NEFF
// names another module, a half-written NEFF, a failed entry with only model.log, a FIFO where a
// NEFF should be, a symlink loop and a dangling symlink. It returns the root and the version
// directory.
func cacheTree(t *testing.T) (string, string) {
	t.Helper()
	root := t.TempDir()
	ver := filepath.Join(root, "neuronxcc-2.23.6484.0+3b612583")
	real := realfiles.Read(t, "nkipy/matmul_small.neff")
	entry := func(name string, files map[string][]byte) string {
		d := filepath.Join(ver, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for n, b := range files {
			if err := os.WriteFile(filepath.Join(d, n), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	entry("MODULE_111+d41d8cd9", map[string][]byte{"model.neff": real, "model.done": nil, "model.hlo_module.pb": []byte("x")})
	entry("MODULE_222+d41d8cd9", map[string][]byte{"model.neff": real, "model.done": nil})
	// A generated NEFF compiled (says its info.json name) for another module.
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "info.json" {
			m.Data = []byte(`{"tool_version": "2.23.6484.0+3b612583", "name": "/tmp/w/model.MODULE_999+abcdef01.neff", "num_tpb": 1, "num_tpb_requested": 1, "num_tpb_per_node": [1, 0]}`)
		}
		ms = append(ms, m)
	}
	entry("MODULE_333+abcdef01", map[string][]byte{"model.neff": neffbuild.Bytes(ms, neffbuild.Options{})})
	entry("MODULE_444+abcdef01", map[string][]byte{"model.neff": real[:3000], "model.done": nil})
	entry("MODULE_555+abcdef01", map[string][]byte{"model.hlo_module.pb": []byte("x"), "model.log": []byte("ERROR")})
	fifo := entry("MODULE_666+abcdef01", nil)
	if err := syscall.Mkfifo(filepath.Join(fifo, "model.neff"), 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	if err := os.Symlink("..", filepath.Join(ver, "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere.neff", filepath.Join(root, "dangling.neff")); err != nil {
		t.Fatal(err)
	}
	return root, ver
}

func decodeJSONL(t *testing.T, out string) []fleet.ScanRecord {
	t.Helper()
	var recs []fleet.ScanRecord
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r fleet.ScanRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		recs = append(recs, r)
	}
	return recs
}

func TestScanCacheTree(t *testing.T) {
	root, ver := cacheTree(t)
	out, errs, rc := runCLI(t, "scan", "--jsonl", "-j", "2", root)
	if rc != 1 {
		t.Fatalf("rc %d (want 1: the half-written NEFF is an error); stderr:\n%s", rc, errs)
	}
	if !strings.Contains(errs, "scan: 7 NEFFs (2 with errors, 1 duplicates)") || !strings.Contains(errs, "2 symlinks not followed") {
		t.Errorf("stderr lacks the summary:\n%s", errs)
	}
	recs := decodeJSONL(t, out)
	byRel := map[string]fleet.ScanRecord{}
	var order []string
	for _, r := range recs {
		rel, _ := filepath.Rel(root, filepath.FromSlash(r.Path))
		byRel[filepath.ToSlash(rel)] = r
		order = append(order, filepath.ToSlash(rel))
	}
	wantOrder := []string{
		"dangling.neff",
		"neuronxcc-2.23.6484.0+3b612583/MODULE_111+d41d8cd9/model.neff",
		"neuronxcc-2.23.6484.0+3b612583/MODULE_222+d41d8cd9/model.neff",
		"neuronxcc-2.23.6484.0+3b612583/MODULE_333+abcdef01/model.neff",
		"neuronxcc-2.23.6484.0+3b612583/MODULE_444+abcdef01/model.neff",
		"neuronxcc-2.23.6484.0+3b612583/MODULE_555+abcdef01/model.neff",
		"neuronxcc-2.23.6484.0+3b612583/MODULE_666+abcdef01/model.neff",
	}
	if strings.Join(order, "\n") != strings.Join(wantOrder, "\n") {
		t.Fatalf("records in order:\n%s\nwant:\n%s", strings.Join(order, "\n"), strings.Join(wantOrder, "\n"))
	}
	_ = ver
	done := byRel[wantOrder[1]]
	if done.Cache == nil || done.Cache.Module != "MODULE_111" || done.Cache.FlagsHash != "d41d8cd9" || done.Cache.State != fleet.CacheDone || done.Cache.Flags != "no flags" {
		t.Errorf("done entry cache = %+v", done.Cache)
	}
	if done.Compiler != "2.23.6484.0+3b612583" || done.Target != "cayman" || done.Subgraphs != 2 || done.UUID == "" || len(done.SHA256) != 64 || done.DuplicateOf != nil {
		t.Errorf("done entry: %+v", done)
	}
	if len(done.Inputs) != 2 || done.Inputs[0].Name != "x" || len(done.Outputs) != 2 || done.Outputs[0].DType != "float16" {
		t.Errorf("done entry I/O: %+v %+v", done.Inputs, done.Outputs)
	}
	for _, e := range []string{"PE", "Activation", "Pool", "DVE", "SP"} {
		if done.Instructions[e] <= 0 {
			t.Errorf("instructions %s = %d (%v)", e, done.Instructions[e], done.Instructions)
		}
	}
	dup := byRel[wantOrder[2]]
	if dup.DuplicateOf == nil || *dup.DuplicateOf != done.Path {
		t.Errorf("duplicate_of = %v, want %s", dup.DuplicateOf, done.Path)
	}
	other := byRel[wantOrder[3]]
	if other.Cache == nil || other.Cache.State != fleet.CacheIncomplete || other.Findings["warning"] == 0 || !problemHas(other, doc.CodeScanCacheMismatch) {
		t.Errorf("entry with another module's NEFF: %+v", other)
	}
	half := byRel[wantOrder[4]]
	if half.Cache == nil || half.Cache.State != fleet.CacheFailed || half.Findings["error"] == 0 {
		t.Errorf("half-written NEFF: %+v", half)
	}
	missing := byRel[wantOrder[5]]
	if missing.Cache == nil || missing.Cache.State != fleet.CacheFailed || !problemHas(missing, doc.CodeScanNoModel) {
		t.Errorf("entry with model.log only: %+v", missing)
	}
	if r := byRel[wantOrder[6]]; !problemCode(r, fleet.CodeScanNotRegular) || r.Cache == nil || r.Cache.State != fleet.CacheFailed {
		t.Errorf("FIFO: %+v", r)
	}
	// Without --follow the symlinks are not followed: the loop is not entered, and the one
	// named like a NEFF is an info record.
	if r := byRel[wantOrder[0]]; !problemCode(r, fleet.CodeScanSymlink) || r.HasError() || r.Cache != nil {
		t.Errorf("dangling symlink: %+v", r)
	}
	// With --follow the loop leads to a directory walked already: walked once, no record.
	out, errs, _ = runCLI(t, "scan", "--jsonl", "--follow", "-j", "2", root)
	recs = decodeJSONL(t, out)
	if len(recs) != 7 || !problemCode(recs[0], doc.CodeScanBadSymlink) || !strings.Contains(errs, "1 symlinks led to directories already walked") {
		t.Errorf("--follow: %d records, first %+v; stderr %s", len(recs), recs[0], errs)
	}
}

func problemCode(r fleet.ScanRecord, c doc.Code) bool {
	for _, p := range r.Problems {
		if p.Code == c {
			return true
		}
	}
	return false
}

func problemHas(r fleet.ScanRecord, code doc.Code) bool {
	for _, p := range r.Problems {
		if p.Code == code {
			return true
		}
	}
	return false
}

// The real attn_v6 in an entry named after its own info.json name: no disagreement.
func TestScanRealModuleKeyAgrees(t *testing.T) {
	src, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "the module-key agreement check")
	if !ok {
		return
	}
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	for _, mod := range []string{"MODULE_17825228117791364669+fad94d7c", "MODULE_17825228117791364669+d41d8cd9"} {
		d := filepath.Join(root, "neuronxcc-2.23.6484.0+3b612583", mod)
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "model.neff"), b, 0o644)
		os.WriteFile(filepath.Join(d, "model.done"), nil, 0o644)
	}
	out, errs, rc := runCLI(t, "scan", "-q", root)
	if rc != 0 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	recs := decodeJSONL(t, out)
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	// +d41d8cd9 sorts first: the copy under the wrong flags hash, then the real entry.
	if !problemHas(recs[0], doc.CodeScanCacheMismatch) || recs[0].DuplicateOf != nil {
		t.Errorf("renamed entry: %+v", recs[0])
	}
	if recs[1].Findings["warning"] != 0 || recs[1].Cache.State != fleet.CacheDone || recs[1].DuplicateOf == nil || *recs[1].DuplicateOf != recs[0].Path {
		t.Errorf("agreeing entry: %+v", recs[1])
	}
}

func TestScanCSV(t *testing.T) {
	root, _ := cacheTree(t)
	out, _, _ := runCLI(t, "scan", "--csv", "-q", root)
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 8 || strings.Join(rows[0], ",") != strings.Join(flatColumns, ",") {
		t.Fatalf("%d rows, header %v", len(rows), rows[0])
	}
	col := map[string]int{}
	for i, c := range rows[0] {
		col[c] = i
	}
	if rows[2][col["cache_state"]] != "done" || rows[3][col["duplicate_of"]] != rows[2][0] || rows[2][col["graph"]] != "" {
		t.Errorf("rows 2, 3: %v / %v", rows[2], rows[3])
	}
}

// The Parquet file is read back by hyparquet (pure JavaScript, another implementation) under
// Node, and every row must equal the CSV row of the same record.
func TestScanParquetReadByHyparquet(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the Parquet file cannot be read back by hyparquet (CI has node)")
	}
	root, _ := cacheTree(t)
	pq := filepath.Join(t.TempDir(), "scan.parquet")
	if _, errs, rc := runCLI(t, "scan", "--parquet", pq, "-q", root); rc != 1 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	csvOut, _, _ := runCLI(t, "scan", "--csv", "-q", root)
	want, _ := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	repo, err := realfiles.RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	reader := filepath.Join(repo, "testdata", "hyparquet", "read-rows.mjs")
	cmd := exec.Command(node, reader, pq)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	js, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	var got []map[string]any
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatalf("%v: %s", err, js)
	}
	if len(got) != len(want)-1 {
		t.Fatalf("hyparquet read %d rows, want %d", len(got), len(want)-1)
	}
	for i, row := range got {
		for j, col := range flatColumns {
			v := row[col]
			s := ""
			switch x := v.(type) {
			case nil:
			case string:
				s = x
			case float64:
				s = strconv.FormatFloat(x, 'f', -1, 64)
			default:
				s = fmt.Sprint(x)
			}
			if s != want[i+1][j] {
				t.Errorf("row %d column %s: hyparquet %q, CSV %q", i, col, s, want[i+1][j])
			}
		}
	}
}

func TestScanUsage(t *testing.T) {
	if _, _, rc := runCLI(t, "scan"); rc != 2 {
		t.Errorf("no path: rc %d", rc)
	}
	if _, _, rc := runCLI(t, "scan", "--csv", "--jsonl", "."); rc != 2 {
		t.Errorf("two formats: rc %d", rc)
	}
}

// 100,000 directory entries, one in ten an empty file named *.neff: every NEFF-named file is a
// record (an error: shorter than the header), in path order, and the byte-identical ones point
// at the first.
func TestScanManyEntries(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: 100,000 files")
	}
	root := t.TempDir()
	for i := range 100 {
		d := filepath.Join(root, fmt.Sprintf("d%03d", i))
		os.Mkdir(d, 0o755)
		for j := range 1000 {
			name := fmt.Sprintf("f%04d.txt", j)
			if j%10 == 0 {
				name = fmt.Sprintf("f%04d.neff", j)
			}
			if err := os.WriteFile(filepath.Join(d, name), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, errs, rc := runCLI(t, "scan", "-q", root)
	if rc != 1 {
		t.Fatalf("rc %d: %s", rc, errs)
	}
	recs := decodeJSONL(t, out)
	if len(recs) != 10000 {
		t.Fatalf("%d records", len(recs))
	}
	for i, r := range recs {
		want := filepath.ToSlash(filepath.Join(root, fmt.Sprintf("d%03d", i/100), fmt.Sprintf("f%04d.neff", i%100*10)))
		if r.Path != want || !r.HasError() || (i > 0) != (r.DuplicateOf != nil) {
			t.Fatalf("record %d: %+v, want path %s", i, r, want)
		}
	}
}

// A NEFF and a directory without read permission are records with their error, and the scan
// goes on. Root reads them anyway, so the test needs another user.
func TestScanUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which reads files whatever their mode (TestScanCacheTree covers a FIFO and a dangling link instead)")
	}
	root := t.TempDir()
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	os.WriteFile(filepath.Join(root, "a.neff"), src, 0o000)
	os.Mkdir(filepath.Join(root, "b"), 0o000)
	os.WriteFile(filepath.Join(root, "c.neff"), src, 0o644)
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "b"), 0o755) })
	out, _, rc := runCLI(t, "scan", "-q", root)
	recs := decodeJSONL(t, out)
	if rc != 1 || len(recs) != 3 || !problemHas(recs[0], doc.CodeScanUnreadable) || !problemHas(recs[1], doc.CodeScanUnreadable) || recs[2].HasError() {
		t.Errorf("rc %d: %+v", rc, recs)
	}
}
