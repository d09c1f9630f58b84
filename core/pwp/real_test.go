package pwp

import (
	"math"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// realSetDirs: the folder (under testdata-real) of each real set's files. exp_and_others is
// in the repository's matmul_small.neff; the other two only in the shared folder.
var realSetDirs = map[string]string{
	"exp_and_others":             "nkipy/matmul_small/sg00",
	"natural_log_exp_and_others": "nki-moe/attn_v6/sg00",
	"reciprocal_sqrt_and_small":  "nki-moe/attn_v6/sg00",
}

func loadRealSet(t testing.TB, name string) *Set {
	t.Helper()
	return NewSet(setFilesOf(t, name))
}

// setFilesOf is what NewSet decodes a real set from.
func setFilesOf(t testing.TB, name string) SetFiles {
	t.Helper()
	dir := realSetDirs[name]
	read := func(f string) []byte { return realfiles.Read(t, dir+"/"+f) }
	roster := DecodeRoster("sg00/act_info.json", read("act_info.json"))
	return SetFiles{
		ProfilePath: "sg00/" + name + ".json", Profile: read(name + ".json"),
		BktPath: "sg00/" + name + "_bkt.bin", Bkt: read(name + "_bkt.bin"),
		CtrlPath: "sg00/" + name + "_ctrl.bin", Ctrl: read(name + "_ctrl.bin"),
		Roster: roster.Set(name),
	}
}

// haveSet reports whether a real set's files can be found, logging the check that needs it
// when they cannot.
func haveSet(t testing.TB, name, check string) bool {
	t.Helper()
	_, ok := realfiles.Optional(t, realSetDirs[name]+"/"+name+".json", check)
	return ok
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
		if !haveSet(t, name, "the invariants of "+name) {
			continue
		}
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

func TestRealSaturationSlotsAndSharedBlocks(t *testing.T) {
	exp := realFn(t, "exp_and_others", "exp")
	want := [4][5]uint32{
		{0x3f800000, 0x3f800000, 0x3f000000, 0x3e2aaaab, 0},
		{0x3f800000, 0x3f800000, 0x3f000000, 0x3e2aaaab, 0},
		{0x7f800000, 0, 0, 0, 0},
		{0, 0, 0, 0, 0},
	}
	for k, bi := range exp.Slots {
		b := exp.Set.Buckets[bi]
		got := [5]uint32{bitsOf(b.D0), bitsOf(b.D1), bitsOf(b.D2), bitsOf(b.D3), bitsOf(b.X)}
		if got != want[k] || bi != 777+k {
			t.Errorf("exp %s slot at %d: %08x, want %08x (spec §5.2)", SlotName(k), bi, got, want[k])
		}
	}
	// The same function is byte-identical across sets (spec §1): exp and every shared resident.
	if haveSet(t, "natural_log_exp_and_others", "functions shared with natural_log_exp_and_others") {
		other := loadRealSet(t, "natural_log_exp_and_others")
		shared := 0
		for _, f := range exp.Set.Functions {
			g := other.Function(f.Name)
			if g == nil {
				continue
			}
			shared++
			if d := CompareFunctions(f, g); len(d) != 0 {
				t.Errorf("%s differs across sets: %v", f.Name, d)
			}
		}
		if shared != 14 {
			t.Errorf("%d functions shared between exp_and_others and natural_log_exp_and_others, want 14", shared)
		}
	}
	// The same set in sg00 and sg01 of matmul_small: every function identical.
	sg01 := func(f string) []byte { return realfiles.Read(t, "nkipy/matmul_small/sg01/"+f) }
	twin := NewSet(SetFiles{Name: "exp_and_others", ProfilePath: "sg01/exp_and_others.json", Profile: sg01("exp_and_others.json"),
		BktPath: "sg01/exp_and_others_bkt.bin", Bkt: sg01("exp_and_others_bkt.bin"), CtrlPath: "sg01/exp_and_others_ctrl.bin", Ctrl: sg01("exp_and_others_ctrl.bin")})
	for _, f := range exp.Set.Functions {
		if d := CompareFunctions(f, twin.Function(f.Name)); len(d) != 0 {
			t.Errorf("%s differs between sg00 and sg01: %v", f.Name, d)
		}
	}
	// A changed coefficient is reported.
	res := genSet(t, 32)
	a := setFrom(res, res.Profile, res.Bkt, res.Ctrl)
	bkt := clone(res.Bkt)
	bkt[32*5] ^= 1
	b := setFrom(res, res.Profile, bkt, res.Ctrl)
	if d := CompareFunctions(a.Function("exp"), b.Function("exp")); len(d) != 1 || !strings.Contains(d[0], "record 5") {
		t.Errorf("CompareFunctions: %v", d)
	}
}
