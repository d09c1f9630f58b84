package pwp

import (
	"math"
	"testing"

	"github.com/neffscope/neffscope/core/pwp/tablegen"
)

// TestCatalogDomainsOnRealProfiles holds the catalog's Domain column to the lower_bound and
// upper_bound every real profile records (of |x| after the fold when symmetry_opt_en is set),
// for every function of every real set.
func TestCatalogDomainsOnRealProfiles(t *testing.T) {
	checked := 0
	for name := range realSetDirs {
		if !haveSet(t, name, "the catalog domains of "+name) {
			continue
		}
		s := loadRealSet(t, name)
		for _, f := range s.Functions {
			d, ok := f.Domain()
			if !ok {
				t.Errorf("%s/%s: the catalog has no domain for %q", name, f.Name, f.Bare)
				continue
			}
			lo := float64(math.Float32frombits(f.Meta.Bits(FieldLowerBound)))
			hi := float64(math.Float32frombits(f.Meta.Bits(FieldUpperBound)))
			switch {
			case f.Prelu:
				if lo != 0 || hi != 0 || d.Lo != -math.MaxFloat32 || d.Hi != math.MaxFloat32 {
					t.Errorf("%s/%s: bounds %g/%g, catalog %s; want 0/0 and all reals", name, f.Name, lo, hi, d)
				}
			case f.Symmetry.En:
				if lo != 0 || d.Lo != -hi || d.Hi != hi {
					t.Errorf("%s/%s (folded): bounds %g/%g, catalog %s; want 0/hi and [−hi, hi]", name, f.Name, lo, hi, d)
				}
			default:
				if d.Lo != lo || d.Hi != hi {
					t.Errorf("%s/%s: bounds %g/%g, catalog %s", name, f.Name, lo, hi, d)
				}
			}
			if wlo, whi := d.Window(); !(d.Contains(wlo) && d.Contains(whi) && wlo < whi) {
				t.Errorf("%s/%s: window [%g, %g] is not inside the domain %s", name, f.Name, wlo, whi, d)
			}
			checked++
		}
	}
	t.Logf("%d real functions agree with the catalog's domains", checked)
}

// TestEveryCatalogFunctionHasADomain: a Domain with its evidence on every row, and a window
// inside it.
func TestEveryCatalogFunctionHasADomain(t *testing.T) {
	for _, c := range Functions {
		d := c.Domain
		if d.Evidence == "" || d.Confidence == "" || !(d.Lo < d.Hi) {
			t.Errorf("%s: domain %+v", c.Name, d)
		}
		if wlo, whi := d.Window(); !(d.Contains(wlo) && d.Contains(whi) && wlo < whi) {
			t.Errorf("%s: window [%g, %g] is not inside the domain %s", c.Name, wlo, whi, d)
		}
	}
}

// sinTable is a sin_4p-shaped table: odd fold, octaves up to [2, 4), the large slot from π
// on (real sin_4p: small threshold 116, large 128, upper_bound π; activation.md §5). Its large
// slot is sin's cubic at float32(π), so the domain's end point is right; past it, it is not sin.
const pi32Sin = -8.742278e-08 // sin(float32(π))

func sinTable(t *testing.T) *Function {
	t.Helper()
	sin := tablegen.Func{
		Name: "sin", Budget: 4, ID: 19, F: math.Sin, SymEn: true, SymInvert: true,
		ExpOffset: -11, Pos: []int{0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 5, 5}, // E−11..1
		PosTop: float32(math.Pi),
		Slots:  [4]tablegen.Poly{{D1: 1, D3: -1.0 / 6}, {}, {D0: pi32Sin, D1: -1, D3: 1.0 / 6, X: float32(math.Pi)}, {}},
		Zero:   0, PInf: float32(math.NaN()), NInf: float32(math.NaN()), NaN: float32(math.NaN()),
		Upper: float32(math.Pi),
	}
	res, err := tablegen.Generate("trig_and_small", 32, []tablegen.Func{sin, tablegen.Identity()})
	if err != nil {
		t.Fatal(err)
	}
	f := NewSet(SetFiles{Name: "trig_and_small", ProfilePath: "trig_and_small.json", Profile: res.Profile, BktPath: "trig_and_small_bkt.bin", Bkt: res.Bkt, CtrlPath: "trig_and_small_ctrl.bin", Ctrl: res.Ctrl}).Function("sin")
	if f == nil {
		t.Fatal("the generated set has no sin")
	}
	return f
}

// TestSinErrorOnItsDomain: on [−8, 8] a sin table clamped past π is "wrong" by ~10^10 ulp
// (what the overview showed); on its own domain [−π, π] its worst error is a few ulp.
func TestSinErrorOnItsDomain(t *testing.T) {
	f := sinTable(t)
	d, ok := f.Domain()
	if !ok {
		t.Fatal("sin has no catalog domain")
	}
	lo, hi := d.Window()
	if lo != -float64(float32(math.Pi)) || hi != float64(float32(math.Pi)) {
		t.Fatalf("sin's window is [%g, %g], want [−π, π]", lo, hi)
	}
	o := Options{Mode: ModeSim, NaN: NaNTable}
	on := f.Sweep(lo, hi, 1025, o)
	off := f.Sweep(-8, 8, 1025, o)
	t.Logf("sin on its domain: %s", on)
	t.Logf("sin on [−8, 8]: %s", off)
	if on.N != 1025 || on.MaxULP > 64 {
		t.Errorf("sin on [−π, π]: %d points, %.3g ulp; want 1025 and a few ulp", on.N, on.MaxULP)
	}
	if off.MaxULP < 1e6 {
		t.Errorf("sin on [−8, 8]: %.3g ulp; the clamp past π should be far off sin there", off.MaxULP)
	}
	// Past the domain the plot draws no error.
	p := f.Sample(3, 4, 101, o)
	for i, x := range p.ULPErr.X {
		if x > hi && !math.IsNaN(p.ULPErr.Y[i]) {
			t.Fatalf("the plot's ulp error at x=%g (outside %s) is %g, want none", x, d, p.ULPErr.Y[i])
		}
	}
}
