package dbg

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
)

// realNEFFs lists the real NEFFs the tests read in place (one helper, so the lead can point it
// at testdata/real or internal/realfiles at merge).
func realNEFFs(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"../../testdata/real", "../../../shared/testdata-real"} {
		got, _ := filepath.Glob(filepath.Join(dir, "*.neff"))
		files = append(files, got...)
		got, _ = filepath.Glob(filepath.Join(dir, "*", "*.neff"))
		files = append(files, got...)
	}
	if len(files) == 0 {
		t.Skip("no real NEFFs (testdata/real, ../shared/testdata-real): the shared test data is absent in a fresh clone")
	}
	sort.Strings(files)
	return files
}

// dbgMembers returns the .dbg and .bin members of a NEFF.
func dbgMembers(t testing.TB, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	m, err := neff.ReadMembers(f, st.Size(), func(p string, _ int64) bool {
		_, _, ok := Match(p)
		return ok || strings.HasSuffix(p, ".bin")
	})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// TestRealMembers decodes every .dbg member of the real NEFFs: no warning or error, every byte
// under a node, records where the kind has them, and the asm record count equal to the words
// of the engine stream beside it.
func TestRealMembers(t *testing.T) {
	total := map[Kind]*Coverage{}
	for _, path := range realNEFFs(t) {
		members := dbgMembers(t, path)
		for p, b := range members {
			kind, engine, ok := Match(p)
			if !ok {
				continue
			}
			f := Decode(p, b)
			for _, fd := range f.Findings {
				if fd.Severity != doc.Info {
					t.Errorf("%s %s: %s finding on a valid file: %s", filepath.Base(path), p, fd.Severity, fd.Message)
				}
			}
			c := f.Coverage
			if sum := c.Named + c.Unknown + c.Generic + c.None; sum != int64(len(b)) {
				t.Errorf("%s %s: coverage sums to %d of %d bytes", filepath.Base(path), p, sum, len(b))
			}
			if c.None != 0 || c.Generic != 0 {
				t.Errorf("%s %s: %d bytes generic, %d unread on a valid file", filepath.Base(path), p, c.Generic, c.None)
			}
			if f.Description == "" {
				t.Errorf("%s %s: no description (field 1)", filepath.Base(path), p)
			}
			if kind == KindAsm || kind == KindBackend {
				if !f.HasEngine || EngineName(f.EngineCode) != engine {
					t.Errorf("%s %s: engine code %d (%q), member engine %s", filepath.Base(path), p, f.EngineCode, EngineName(f.EngineCode), engine)
				}
			}
			if kind == KindAsm {
				bin := filepath.Dir(p) + "/" + engine + ".bin"
				if words := len(members[bin]) / 64; words != len(f.Records) {
					t.Errorf("%s %s: %d records, %s has %d words", filepath.Base(path), p, len(f.Records), bin, words)
				}
			}
			if total[kind] == nil {
				total[kind] = &Coverage{}
			}
			total[kind].Add(c)
		}
	}
	for _, k := range Kinds {
		if c := total[k]; c != nil {
			t.Logf("%-18s named %8d  unknown-named %7d  generic %d  unread %d", k, c.Named, c.Unknown, c.Generic, c.None)
		}
	}
}

// TestMatmulSmallByHand checks facts read by hand with a protowire dump of matmul_small.neff.
func TestMatmulSmallByHand(t *testing.T) {
	var path string
	for _, p := range realNEFFs(t) {
		if filepath.Base(p) == "matmul_small.neff" {
			path = p
		}
	}
	if path == "" {
		t.Skip("matmul_small.neff absent")
	}
	m := dbgMembers(t, path)
	asm := Decode("sg00/debug_info_asm_PE.dbg", m["sg00/debug_info_asm_PE.dbg"])
	be := Decode("sg00/debug_info_backend_PE.dbg", m["sg00/debug_info_backend_PE.dbg"])
	if asm.PointsTo != "debug_info_backend_PE.dbg" || be.PointsTo != "debug_info_penguin.dbg" {
		t.Fatalf("points_to %q / %q", asm.PointsTo, be.PointsTo)
	}
	// Word 2 of PE.bin → backend 154 "I-87-0-wait-0" (no kernel line); word 7 → backend 155
	// "I-72-0-wait-0", kernel_file 0, line 58 (bytes 316.. of the backend member); field 5 is
	// the test file.
	if len(asm.Records) != 12 || len(asm.Records[0].Parents) != 0 || asm.Records[2].Parents[0] != 154 || asm.Records[7].Parents[0] != 155 {
		t.Fatalf("asm records %+v", asm.Records)
	}
	if r := be.ByID(154); r == nil || r.Name != "I-87-0-wait-0" || len(r.Attrs) != 0 {
		t.Fatalf("backend 154 = %+v", r)
	}
	r := be.ByID(155)
	if r == nil || r.Name != "I-72-0-wait-0" || r.Off != 316 {
		t.Fatalf("backend 155 = %+v", r)
	}
	if v, _ := r.Attr("kernel_line"); v != "58" {
		t.Errorf("kernel_line %q", v)
	}
	if len(be.KernelFiles) != 1 || !strings.HasSuffix(be.KernelFiles[0], "/test_spike_async.py") {
		t.Errorf("kernel files %q", be.KernelFiles)
	}
	// The tree names the field at its bytes: record 3's name (tag, length, 13 bytes) at 321.
	n := be.Root.Find("instruction[3]", "name")
	if n == nil || n.Span.Offset != 321 || n.Span.Length != 15 || n.Value != `"I-72-0-wait-0"` {
		t.Errorf("record 3 name node %+v", n)
	}
}
