package pwp

import (
	"math"
	"math/rand/v2"
	"testing"
)

const accuracyPoints = 100_000

func uniform(r *rand.Rand, lo, hi float64, n int) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(lo + (hi-lo)*r.Float64())
	}
	return xs
}

func logUniform(r *rand.Rand, lo, hi float64, n int) []float32 {
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(math.Exp2(math.Log2(lo) + (math.Log2(hi)-math.Log2(lo))*r.Float64()))
	}
	return xs
}

// TestRealHeroAccuracy checks spec §9's figures over ≥ 100,000 random inputs per function.
func TestRealHeroAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 9))
	cases := []struct {
		set, fn  string
		xs       []float32
		maxRel   float64
		maxAbs   float64 // 0 = not checked
		minWorst float64 // the worst error must reach at least this: a table that is "too good" is a wrong test
	}{
		{"exp_and_others", "exp", uniform(r, -87, 88.72, accuracyPoints), 1.2e-5, 0, 5e-6},
		{"natural_log_exp_and_others", "exp", uniform(r, -87, 88.72, accuracyPoints), 1.2e-5, 0, 5e-6},
		{"exp_and_others", "tanh", uniform(r, -10, 10, accuracyPoints), 3e-7, 0, 1e-7},
		{"natural_log_exp_and_others", "ln", append(logUniform(r, 0x1p-64, 0.5, accuracyPoints/2), logUniform(r, 2, 0x1p64, accuracyPoints/2)...), 3.5e-5, 0, 1e-5},
		{"natural_log_exp_and_others", "ln", uniform(r, 0.9, 1.1, accuracyPoints), 0, 9e-8, 1e-9},
		{"reciprocal_sqrt_and_small", "reciprocal_sqrt", uniform(r, 1, 4, accuracyPoints), 4.5e-5, 0, 3e-5},
		{"reciprocal_sqrt_and_small", "reciprocal_sqrt", logUniform(r, 0x1p-87, 0x1p97*0.999, accuracyPoints), 3.2e-3, 0, 1e-3},
	}
	for _, c := range cases {
		if !haveSet(t, c.set, c.set+"/"+c.fn+" accuracy") {
			continue
		}
		f := realFn(t, c.set, c.fn)
		st := f.ErrorsAt(c.xs, Options{})
		t.Logf("%s/%s: %s", c.set, f.Name, st)
		if st.N < accuracyPoints || st.Failed+st.Mismatched+st.Skipped > 0 {
			t.Errorf("%s: only %d comparable points (%s)", f.Name, st.N, st)
		}
		worst := st.MaxRel
		if c.maxRel > 0 && st.MaxRel > c.maxRel {
			t.Errorf("%s: max rel error %.3g at %g exceeds §9's %.3g", f.Name, st.MaxRel, st.AtRel, c.maxRel)
		}
		if c.maxAbs > 0 {
			worst = st.MaxAbs
			if st.MaxAbs > c.maxAbs {
				t.Errorf("%s: max abs error %.3g at %g exceeds §9's %.3g", f.Name, st.MaxAbs, st.AtAbs, c.maxAbs)
			}
		}
		if worst < c.minWorst {
			t.Errorf("%s: worst error %.3g is implausibly small (below %.3g)", f.Name, worst, c.minWorst)
		}
	}
}

// TestSimVersusHorner: §7.6 measured ≤ 1–2 ulp between the two schedules for exp and tanh.
func TestSimVersusHorner(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		fn     string
		xs     []float32
		maxULP float64
		set    string
	}{{"exp", uniform(r, -87, 88.7, 50000), 2, "exp_and_others"}, {"tanh", uniform(r, -8, 8, 50000), 2, "exp_and_others"},
		{"reciprocal_sqrt", logUniform(r, 0x1p-80, 0x1p90, 50000), 2, "reciprocal_sqrt_and_small"},
		// ln near 1 cancels: §7.6 measured thousands of ulp of the tiny results (but a tiny
		// absolute difference, checked below).
		{"ln", uniform(r, 0.999, 1.001, 50000), math.Inf(1), "natural_log_exp_and_others"}} {
		if !haveSet(t, c.set, c.set+"/"+c.fn+" sim against horner") {
			continue
		}
		f := realFn(t, c.set, c.fn)
		worst, worstAbs, differ := 0.0, 0.0, 0
		for _, x := range c.xs {
			a, _ := f.EvaluateWith(x, Options{Mode: ModeSim})
			b, _ := f.EvaluateWith(x, Options{Mode: ModeHorner})
			if a != b {
				differ++
				worstAbs = math.Max(worstAbs, math.Abs(float64(a-b)))
				worst = math.Max(worst, math.Abs(float64(a-b))/ULP32(float64(a)))
			}
		}
		t.Logf("%s: sim and horner differ on %d of %d inputs, by at most %.0f ulp", c.fn, differ, len(c.xs), worst)
		if worst > c.maxULP {
			t.Errorf("%s: sim vs horner differ by %.0f ulp", c.fn, worst)
		}
		if c.fn == "ln" && (worst < 1000 || worstAbs > 1e-7) {
			t.Errorf("ln near 1: sim vs horner differ by %.0f ulp, %.3g absolute; §7.6 measured thousands of ulp of tiny values", worst, worstAbs)
		}
	}
}

func TestSweepAndSample(t *testing.T) {
	f := realFn(t, "exp_and_others", "exp")
	st := f.Sweep(-2, 2, 4001, Options{})
	if st.N != 4001 || st.MaxRel <= 0 || st.MaxRel > 1.2e-5 || st.AtRel < -2 || st.AtRel > 2 {
		t.Errorf("sweep: %s", st)
	}
	p := f.Sample(-2, 2, 512, Options{})
	if len(p.Emulated.Y) != 512 || len(p.True.Y) != 512 || len(p.ULPErr.Y) != 512 {
		t.Fatalf("sample sizes %d %d %d", len(p.Emulated.Y), len(p.True.Y), len(p.ULPErr.Y))
	}
	// Octave lines at ±0.5, ±1 and ±2 (both regions of exp are stored).
	var octs []float64
	for _, b := range p.Boundaries {
		if b.Kind == "octave" && math.Abs(b.X) >= 0.5 {
			octs = append(octs, b.X)
		}
	}
	if len(octs) != 6 {
		t.Errorf("octave lines ≥ 0.5 in [-2,2]: %v", octs)
	}
	// Saturation: |x| ≤ 2^−19 takes the small slots.
	found := 0
	for _, iv := range p.Saturation {
		if (iv.Slot == "pos_small" && iv.Hi == 0x1p-19) || (iv.Slot == "neg_small" && iv.Lo == -0x1p-19) {
			found++
		}
	}
	if found != 2 {
		t.Errorf("saturation intervals %+v", p.Saturation)
	}
	// exp's pos_large starts at 88.72284 (42b17218): the interval must start exactly there.
	full := f.SaturationIntervals(-200, 200)
	for _, iv := range full {
		if iv.Slot == "pos_large" && float32(iv.Lo) != math.Float32frombits(0x42b17218) {
			t.Errorf("pos_large starts at %g", iv.Lo)
		}
	}
	// Sections of pos E1 (size 3) in [2, 4): starts at 2.25, 2.5, …, 3.75; E−1 neg sections mirror.
	var sects []float64
	for _, b := range f.Boundaries(2, 3.99) {
		if b.Kind == "section" {
			sects = append(sects, b.X)
		}
	}
	if len(sects) != 7 || sects[0] != 2.25 || sects[6] != 3.75 {
		t.Errorf("sections in [2,4): %v", sects)
	}
	if n := len(f.Boundaries(-0.75, -0.5)); n != 2 { // octave −0.5 and section −0.75 (E−1, size 1)
		t.Errorf("boundaries in [-0.75,-0.5]: %+v", f.Boundaries(-0.75, -0.5))
	}
	// tanh folds: its pos_large interval shows on both sides.
	th := realFn(t, "exp_and_others", "tanh")
	n := 0
	for _, iv := range th.SaturationIntervals(-20, 20) {
		if iv.Slot == "pos_large" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("tanh pos_large intervals: %+v", th.SaturationIntervals(-20, 20))
	}
}
