package tablegen_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/pwp"
	"github.com/neffscope/neffscope/core/pwp/tablegen"
)

// TestRoundTrip: generate → decode → evaluate stays within the generator's own bound, for the
// trainium (32 B) and with_ln (16 B) ctrl strides and every symmetry layout.
func TestRoundTrip(t *testing.T) {
	for _, stride := range []int{32, 16} {
		res, err := tablegen.Generate("gen_set", stride, tablegen.Standard())
		if err != nil {
			t.Fatal(err)
		}
		b := pwp.OpenFiles(res.Files("gen_set"))
		s := b.Set("gen_set")
		if s == nil {
			t.Fatalf("stride %d: set not found; findings %v", stride, b.Findings)
		}
		for _, f := range append(b.Findings, s.AllFindings()...) {
			if f.Severity != doc.Info {
				t.Errorf("stride %d: %s: %s", stride, f.Severity, f.Message)
			}
		}
		if s.CtrlStride != stride {
			t.Errorf("stride decoded as %d, want %d", s.CtrlStride, stride)
		}
		r := rand.New(rand.NewPCG(uint64(stride), 7))
		for _, c := range []struct {
			fn     string
			lo, hi float64
			ref    func(float64) float64
		}{
			{"exp", -87, 88.7, math.Exp},
			{"tanh", -7.8, 7.8, math.Tanh},
			{"sigmoid", -15.9, 15.9, func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }},
		} {
			f := s.Function(c.fn)
			checked, worst := 0, 0.0
			for i := 0; i < 100_000; i++ {
				x := float32(c.lo + (c.hi-c.lo)*r.Float64())
				y, tr := f.Evaluate(x)
				if tr.Path != pwp.PathBucket {
					continue
				}
				bound, ok := res.Bound[int(tr.Bucket)]
				if !ok {
					t.Fatalf("%s(%g) used bucket %d that the generator did not fit", c.fn, x, tr.Bucket)
				}
				err := math.Abs(float64(y) - c.ref(float64(x)))
				worst = math.Max(worst, err/bound)
				if err > bound {
					t.Errorf("stride %d %s(%g) = %g via %s: error %.3g exceeds the generator bound %.3g", stride, c.fn, x, y, tr, err, bound)
					break
				}
				checked++
			}
			if checked < 90_000 {
				t.Errorf("%s: only %d of 100000 inputs went through a section", c.fn, checked)
			}
			t.Logf("stride %d %s: %d points, worst error = %.2f of the bound", stride, c.fn, checked, worst)
		}
		// The symmetry layouts reconstruct the other half.
		sg := s.Function("sigmoid")
		if y, tr := sg.Evaluate(3); math.Abs(float64(y)-0.9525741268) > 1e-6 || !tr.Folded || tr.Region != pwp.Neg {
			t.Errorf("sigmoid(3) = %g via %s", y, tr)
		}
		if y, tr := sg.Evaluate(1e-3); math.Abs(float64(y)-0.50025) > 1e-7 || tr.Path != pwp.PathClamp || tr.Slot != pwp.SlotNegSmall {
			t.Errorf("sigmoid(1e-3) = %g via %s", y, tr)
		}
		if y, tr := sg.Evaluate(-0x1p-7); tr.Path != pwp.PathClamp || math.Abs(float64(y)-0.498046875) > 1e-6 {
			t.Errorf("sigmoid(-2^-7) = %g via %s (E−7 is an empty octave: the small clamp must catch it)", y, tr)
		}
		th := s.Function("tanh")
		if y, _ := th.Evaluate(-2); y != -func() float32 { v, _ := th.Evaluate(2); return v }() {
			t.Errorf("tanh is not odd: tanh(-2) = %g", y)
		}
		if y, tr := s.Function("exp").Evaluate(88.72284); !math.IsInf(float64(y), 1) || tr.Slot != pwp.SlotPosLarge {
			t.Errorf("exp(88.72284) = %g via %s", y, tr)
		}
		if y, tr := s.Function("identity").Evaluate(-3.5); y != -3.5 || tr.Slot != pwp.SlotNegLarge {
			t.Errorf("identity(-3.5) = %g via %s", y, tr)
		}
	}
}
