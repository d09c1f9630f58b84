package pwp

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// vector is one row of spec §8: input bits, path, sim bits and fp32-Horner bits.
type vector struct {
	x      uint32
	path   string
	sim    uint32
	horner uint32 // 0xffffffff = the spec gives none
}

const noH = 0xffffffff

// The §8 tables, transcribed (paths in our token form: the bkt numbers are the spec's).
var specVectors = map[[2]string][]vector{
	{"exp_and_others", "exp_400p"}: {
		{0xc2c80000, "neg_large:bkt780", 0x00000000, 0x00000000},
		{0xc2c2999a, "neg_large:bkt780", 0x00000000, 0x00000000},
		{0xc2c20000, "neg:ctl25:sect132:bkt404", 0x00000216, 0x00000216},
		{0xc0400000, "neg:ctl20:sect4:bkt28", 0x3d4bed0b, 0x3d4bed0c},
		{0xb627c5ac, "neg:ctl0:sect0:bkt0", 0x3f7fffd6, 0x3f7fffd6},
		{0xb6000000, "neg_small:bkt778", 0x3f7fffe0, 0x3f7fffe0},
		{0xb3d6bf95, "neg_small:bkt778", 0x3f7ffffe, 0x3f7ffffe},
		{0x33d6bf95, "pos_small:bkt777", 0x3f800001, 0x3f800001},
		{0x36000000, "pos_small:bkt777", 0x3f800010, 0x3f800010},
		{0x3f000000, "pos:ctl44:sect0:bkt424", 0x3fd308b1, 0x3fd308b1},
		{0x3f800000, "pos:ctl45:sect0:bkt426", 0x402df7d4, 0x402df7d4},
		{0x40000000, "pos:ctl46:sect0:bkt430", 0x40ec7277, 0x40ec7277},
		{0x41200000, "pos:ctl48:sect8:bkt462", 0x46ac1470, 0x46ac1470},
		{0x42b10000, "pos:ctl51:sect98:bkt776", 0x7f4cdc2d, 0x7f4cdc2d},
		{0x42b17217, "pos:ctl51:sect98:bkt776", 0x7f7fff49, 0x7f7fff49},
		{0x42b17218, "pos_large:bkt779", 0x7f800000, 0x7f800000},
		{0x42b20000, "pos_large:bkt779", 0x7f800000, 0x7f800000},
		{0x00000000, "fzero", 0x3f800000, noH},
		{0x80000000, "fzero", 0x3f800000, noH},
		{0x7f800000, "fpinf", 0x7f800000, noH},
		{0xff800000, "fninf", 0x00000000, noH},
	},
	{"exp_and_others", "tanh_4p"}: {
		{0xc1000000, "pos_large:bkt919:fold", 0xbf800000, 0xbf800000},
		{0xc0000000, "pos:ctl79:sect0:bkt869:fold", 0xbf76ca83, 0xbf76ca83},
		{0xbf000000, "pos:ctl77:sect0:bkt837:fold", 0xbeec9a9e, 0xbeec9a9e},
		{0x3727c5ac, "pos_small:bkt917", 0x3727c5ac, 0x3727c5ac},
		{0xb727c5ac, "pos_small:bkt917:fold", 0xb727c5ac, 0xb727c5ac},
		{0x387ba882, "pos_small:bkt917", 0x387ba882, 0x387ba882},
		{0x3f800000, "pos:ctl78:sect0:bkt853", 0x3f42f7d5, 0x3f42f7d5},
		{0x40900000, "pos:ctl80:sect2:bkt903", 0x3f7fefd4, 0x3f7fefd4},
		{0x40fd3190, "pos:ctl80:sect15:bkt916", 0x3f7ffffb, 0x3f7ffffb},
		{0x41000000, "pos_large:bkt919", 0x3f800000, 0x3f800000},
	},
	{"natural_log_exp_and_others", "ln_400p"}: {
		{0x1e3ce508, "pos_small:bkt513", 0xc23609ba, 0xc23609ba},
		{0x2edbe6ff, "pos:ctl30:sect1:bkt103", 0xc1b834f2, 0xc1b834f2},
		{0x3f000000, "pos:ctl63:sect0:bkt212", 0xbf317218, 0xbf317218},
		{0x3f800001, "pos:ctl64:sect0:bkt244", 0x3400cf84, 0x34010000},
		{0x40000000, "pos:ctl65:sect0:bkt308", 0x3f31724c, 0x3f31724c},
		{0x41200000, "pos:ctl67:sect1:bkt321", 0x40135ddb, 0x40135ddb},
		{0x5f0ac723, "pos:ctl127:sect0:bkt510", 0x422eff1d, 0x422eff1d},
		{0x5f8ac723, "pos_large:bkt515", 0x4231c4b0, 0x4231c4b0},
		{0xbf800000, "neg_large:bkt516", 0x7fc00000, 0x7fc00000},
		{0x00000000, "fzero", 0xff800000, noH},
	},
	{"reciprocal_sqrt_and_small", "reciprocal_sqrt_40000p"}: {
		{0x0da24260, "pos_small:bkt1202", 0x7f7f0000, 0x7f7f0000},
		{0x14461206, "pos:ctl0:sect70:bkt70", 0x55115c92, 0x55115c92},
		{0x3e800000, "pos:ctl85:sect0:bkt644", 0x3ffffd24, 0x3ffffd24},
		{0x3f800000, "pos:ctl87:sect0:bkt652", 0x3f7ffd24, 0x3f7ffd24},
		{0x40000000, "pos:ctl88:sect0:bkt656", 0x3f3502ed, 0x3f3502ed},
		{0x501502f9, "pos:ctl120:sect0:bkt784", 0x3727c5a8, 0x3727c5a8},
		{0x5d1fdf43, "pos:ctl146:sect0:bkt902", 0x30a23ebb, 0x30a23ebb},
		{0x6fa18f08, "pos:ctl183:sect2:bkt1196", 0x2763e22d, 0x2763e22d},
		{0x70218f08, "pos_large:bkt1204", 0x32b504f3, 0x32b504f3},
		{0xbf800000, "neg_large:bkt1205", 0x7fc00000, 0x7fc00000},
		{0x00000000, "fzero", 0x7f7f0000, noH},
	},
}

// exp_400p in natural_log_exp_and_others is the same table at other indices: same bits.
func TestSpecExpVectorsInSecondSet(t *testing.T) {
	f := realFn(t, "natural_log_exp_and_others", "exp_400p")
	for _, v := range specVectors[[2]string{"exp_and_others", "exp_400p"}] {
		y, tr := f.Evaluate(math.Float32frombits(v.x))
		if bitsOf(y) != v.sim {
			t.Errorf("nl_exp exp(%08x) = %08x via %s, want %08x", v.x, bitsOf(y), tr, v.sim)
		}
		if tr.Bucket >= 0 && !strings.HasSuffix(v.path, ":bkt"+strconv.Itoa(int(tr.Bucket)-517)) {
			t.Errorf("nl_exp exp(%08x) used bkt %d, want %s shifted by 517", v.x, tr.Bucket, v.path)
		}
	}
}

func TestSpecVectorsBitExact(t *testing.T) {
	for key, vs := range specVectors {
		if !haveSet(t, key[0], "spec §8's vectors of "+key[1]) {
			continue
		}
		f := realFn(t, key[0], key[1])
		for _, v := range vs {
			x := math.Float32frombits(v.x)
			y, tr := f.Evaluate(x)
			if bitsOf(y) != v.sim || tr.String() != v.path {
				t.Errorf("%s(%08x = %g): sim %08x via %s, want %08x via %s", f.Name, v.x, x, bitsOf(y), tr, v.sim, v.path)
			}
			if v.horner == noH {
				continue
			}
			yh, trh := f.EvaluateWith(x, Options{Mode: ModeHorner})
			if bitsOf(yh) != v.horner || trh.String() != v.path {
				t.Errorf("%s(%08x): horner %08x via %s, want %08x", f.Name, v.x, bitsOf(yh), trh, v.horner)
			}
		}
	}
}

// residentVectors: spec §8's resident rows at x = −3, −1e−30, +0, −0, 1e−40, 0.5, 2, +inf, −inf
// (NaN separately). The spec's `0, 0` for ±0 are the fzero results.
var residentInputs = []float32{-3, -1e-30, 0, float32(math.Copysign(0, -1)), 1e-40, 0.5, 2, float32(math.Inf(1)), float32(math.Inf(-1))}

var residentWant = map[string][]float32{
	"identity":              {-3, -1e-30, 0, 0, 1e-40, 0.5, 2, inf32(1), inf32(-1)},
	"copy":                  {-3, -1e-30, 0, 0, 1e-40, 0.5, 2, inf32(1), inf32(-1)},
	"leaky_relu":            {-0.03, -1e-32, 0, 0, 1e-40, 0.5, 2, inf32(1), inf32(-1)},
	"abs":                   {3, 1e-30, 0, 0, 1e-40, 0.5, 2, inf32(1), inf32(1)},
	"sign":                  {-1, -1, 0, 0, 1, 1, 1, 1, -1},
	"relu":                  {0, 0, 0, 0, 1e-40, 0.5, 2, math.Float32frombits(0x7f7f0000), 0},
	"square":                {9, 0, 0, 0, 0, 0.25, 4, inf32(1), inf32(1)},
	"is_finite":             {1, 1, 1, 1, 1, 1, 1, 0, 0},
	"derivative_relu":       {0, 0, 1, 1, 1, 1, 1, 1, 0},
	"derivative_leaky_relu": {0.01, 0.01, 1, 1, 1, 1, 1, 1, 0.01},
	"derivative_identity":   {1, 1, 1, 1, 1, 1, 1, 1, 1},
	"memset_zero":           {0, 0, 0, 0, 0, 0, 0, 0, 0},
}

func inf32(sign int) float32 { return float32(math.Inf(sign)) }

func TestRealResidentsBehaveAsSpec(t *testing.T) {
	s := loadRealSet(t, "exp_and_others")
	for name, want := range residentWant {
		f := s.Function(name)
		if f == nil {
			t.Fatalf("no %s", name)
		}
		for i, x := range residentInputs {
			y, tr := f.Evaluate(x)
			w := want[i]
			// 1e-40 through identity is 9.99995e-41 (the denormal's own value); compare to 1e-3.
			ok := y == w || math.Abs(float64(y-w)) <= 1e-3*math.Abs(float64(w))
			if !ok || tr.Path == PathError {
				t.Errorf("%s(%g) = %g via %s, want %g", name, x, y, tr, w)
			}
		}
	}
	// NaN: table result by default (is_finite → 0, memset_zero → 0), NaN through in sim mode.
	nan := float32(math.NaN())
	for name, want := range map[string]uint32{"is_finite": 0, "memset_zero": 0, "identity": 0x7fc00000} {
		if y, _ := s.Function(name).Evaluate(nan); bitsOf(y) != want {
			t.Errorf("%s(NaN) = %08x, want fnan_result %08x", name, bitsOf(y), want)
		}
		if y, tr := s.Function(name).EvaluateWith(nan, Options{NaN: NaNSim}); !math.IsNaN(float64(y)) || tr.Path != PathClamp {
			t.Errorf("%s(NaN) in sim mode = %g via %s, want NaN through a clamp slot", name, y, tr)
		}
	}
	// identity(1e-40) is the exact denormal (spec: 9.99995e-41).
	if y, _ := s.Function("identity").Evaluate(1e-40); strconv.FormatFloat(float64(y), 'g', 6, 32) != "9.99995e-41" {
		t.Errorf("identity(1e-40) = %g", y)
	}
	// prelu: alpha·v below zero, v above.
	pr := s.Function("parametric_relu")
	for _, c := range []struct{ x, alpha, want float32 }{{-3, 0.2, -0.6}, {2, 0.2, 2}, {-1, 0, 0}} {
		if y, tr := pr.EvaluateWith(c.x, Options{Alpha: c.alpha}); y != c.want || tr.Path != PathPrelu {
			t.Errorf("prelu(%g, alpha %g) = %g via %s, want %g", c.x, c.alpha, y, tr, c.want)
		}
	}
}

func TestExpOctaveTableMatchesSpec(t *testing.T) {
	f := realFn(t, "exp_and_others", "exp")
	// §3.1: E −19..6, s = max(0, E+2) capped at 8; neg base 0…, pos base 406…
	if len(f.Octaves) != 52 {
		t.Fatalf("%d octaves", len(f.Octaves))
	}
	negBase, posBase := 0, 406
	for i, o := range f.Octaves {
		E := -19 + i%26
		s := max(0, E+2)
		base := &negBase
		if i >= 26 {
			base = &posBase
		}
		if o.Exp != E || o.Control.Size != s || o.Control.Base != *base || o.Control.Word != PackControl(*base, s) || o.CtrlIndex != i {
			t.Errorf("octave %d: %+v, want E %d s %d base %d", i, o, E, s, *base)
		}
		*base += o.Buckets
	}
	if f.Octaves[25].Buckets != 134 || f.Octaves[51].Buckets != 99 {
		t.Errorf("top octaves hold %d / %d buckets, want 134 / 99", f.Octaves[25].Buckets, f.Octaves[51].Buckets)
	}
}
