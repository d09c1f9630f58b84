package pwp

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

const realRoot = "../../../shared/testdata-real"

// realSetDirs: where each real set's three files were extracted.
var realSetDirs = map[string]string{
	"exp_and_others":             "nkipy/matmul_small/sg00",
	"natural_log_exp_and_others": "nki-moe/attn_v6/sg00",
	"reciprocal_sqrt_and_small":  "nki-moe/attn_v6/sg00",
}

func loadRealSet(t testing.TB, name string) *Set {
	t.Helper()
	dir := filepath.Join(realRoot, realSetDirs[name])
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("real test data absent (%v): the real-set tests need ../shared/testdata-real", err)
	}
	read := func(f string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	roster := DecodeRoster("sg00/act_info.json", read("act_info.json"))
	return NewSet(SetFiles{
		ProfilePath: "sg00/" + name + ".json", Profile: read(name + ".json"),
		BktPath: "sg00/" + name + "_bkt.bin", Bkt: read(name + "_bkt.bin"),
		CtrlPath: "sg00/" + name + "_ctrl.bin", Ctrl: read(name + "_ctrl.bin"),
		Roster: roster.Set(name),
	})
}

func realFn(t testing.TB, set, fn string) *Function {
	t.Helper()
	s := loadRealSet(t, set)
	f := s.Function(fn)
	if f == nil {
		t.Fatalf("%s has no %s", set, fn)
	}
	return f
}

func TestRealSetsInvariantsHold(t *testing.T) {
	for name := range realSetDirs {
		s := loadRealSet(t, name)
		for _, f := range s.AllFindings() {
			if f.Severity != doc.Info {
				t.Errorf("%s: %s: %s (%s)", name, f.Severity, f.Message, f.Span)
			}
		}
		if s.CtrlStride != 32 {
			t.Errorf("%s: ctrl stride %d, want 32", name, s.CtrlStride)
		}
	}
}

func bitsOf(y float32) uint32 { return math.Float32bits(y) }
