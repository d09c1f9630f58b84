package pwp

import (
	"math"
	"testing"

	"github.com/neffscope/neffscope/core/pwp/tablegen"
)

// smallSet is a compact generated set (a resident, an odd hero and prelu) so that fuzz
// inputs stay small and every execution is fast.
func smallSet(t testing.TB, stride int) *tablegen.Result {
	t.Helper()
	res, err := tablegen.Generate("gen_set", stride, []tablegen.Func{tablegen.Identity(), tablegen.Tanh(), tablegen.Prelu()})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func FuzzProfile(f *testing.F) {
	res := smallSet(f, 32)
	f.Add(res.Profile)
	f.Add(res.Roster)
	f.Add([]byte(`{"profile_meta_data":[{"func_name":"exp_400p","exp_offset":-999999999}],"bkt_entry_cnt":1e9}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := NewSet(SetFiles{ProfilePath: "p.json", Profile: b, Bkt: res.Bkt, Ctrl: res.Ctrl})
		SetNode(s)
		for _, fn := range s.Functions {
			for _, x := range []float32{0, 1, -1, 1e-30, -1e30, 88, float32(math.NaN())} {
				fn.Evaluate(x)
			}
		}
		RosterNode(DecodeRoster("r.json", b))
	})
}

func FuzzBlobs(f *testing.F) {
	res := smallSet(f, 32)
	f.Add(res.Bkt, res.Ctrl, float32(1.5))
	f.Add(res.Bkt[:100], res.Ctrl[:40], float32(-3))
	f.Add([]byte{}, []byte{1, 2, 3}, float32(0.25))
	f.Fuzz(func(t *testing.T, bkt, ctrl []byte, x float32) {
		s := NewSet(SetFiles{ProfilePath: "p.json", Profile: res.Profile, BktPath: "b", Bkt: bkt, CtrlPath: "c", Ctrl: ctrl})
		SetNode(s)
		for _, fn := range s.Functions {
			for _, o := range []Options{{}, {Mode: ModeHorner, NaN: NaNSim}} {
				y, tr := fn.EvaluateWith(x, o)
				if tr.Path == PathError && tr.Err == nil {
					t.Fatalf("error path without an error")
				}
				TraceNode(fn, x, y, tr)
			}
			fn.Sample(-4, 4, 16, Options{})
		}
	})
}

func FuzzOpenFiles(f *testing.F) {
	res := smallSet(f, 16)
	f.Add(res.Roster, res.Profile, res.Bkt, res.Ctrl)
	f.Fuzz(func(t *testing.T, roster, profile, bkt, ctrl []byte) {
		b := OpenFiles(map[string][]byte{"act_info.json": roster, "gen_set.json": profile, "gen_set_bkt.bin": bkt, "gen_set_ctrl.bin": ctrl})
		BundleNode(b)
		for _, s := range b.Sets {
			for _, fn := range s.Functions {
				fn.Evaluate(2.5)
			}
		}
	})
}
