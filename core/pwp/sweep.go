package pwp

import (
	"fmt"
	"math"
	"sync"

	"github.com/neffscope/neffscope/core/doc"
)

// ErrorStats summarises the emulated function against its float64 reference.
type ErrorStats struct {
	N          int // points compared
	Skipped    int // reference not finite (NaN, or an infinity the output could not match)
	Mismatched int // one side finite, the other not (after rounding the reference to f32)
	Failed     int // table errors (PathError)
	MaxAbs     float64
	AtAbs      float32
	MaxRel     float64
	AtRel      float32
	MaxULP     float64
	AtULP      float32
	// FirstMismatch is the first input whose finiteness disagreed (valid when Mismatched > 0).
	FirstMismatch float32
}

// String is the one-paragraph summary the CLI prints.
func (e ErrorStats) String() string {
	s := fmt.Sprintf("points %d  max abs %.4g at x=%s  max rel %.4g at x=%s  max ulp %.4g at x=%s",
		e.N, e.MaxAbs, FormatFloat32(e.AtAbs), e.MaxRel, FormatFloat32(e.AtRel), e.MaxULP, FormatFloat32(e.AtULP))
	if e.Skipped+e.Mismatched+e.Failed > 0 {
		s += fmt.Sprintf("  (skipped %d, finiteness mismatches %d", e.Skipped, e.Mismatched)
		if e.Mismatched > 0 {
			s += " first at x=" + FormatFloat32(e.FirstMismatch)
		}
		s += fmt.Sprintf(", table errors %d)", e.Failed)
	}
	return s
}

// ULP32 is the spacing of float32 values at |r| (the denormal spacing below 2^−126).
func ULP32(r float64) float64 {
	r = math.Abs(r)
	if r < 0x1p-126 {
		return 0x1p-149
	}
	_, e := math.Frexp(r) // r = m·2^e, m ∈ [0.5, 1)
	return math.Ldexp(1, e-1-23)
}

// pointError compares one output with the reference; ok is false when the point is not
// comparable (skipped or mismatched) and says which.
func pointError(y float32, ref float64) (abs, rel, ulp float64, skip, mismatch bool) {
	if math.IsNaN(ref) {
		return 0, 0, 0, true, false
	}
	r32 := float32(ref)
	yInf, rInf := math.IsInf(float64(y), 0) || math.IsNaN(float64(y)), math.IsInf(float64(r32), 0)
	switch {
	case yInf && rInf && y == r32:
		return 0, 0, 0, false, false
	case rInf && math.IsInf(ref, 0):
		return 0, 0, 0, true, false
	case yInf != rInf:
		return 0, 0, 0, false, true
	}
	if rInf { // reference beyond FLT_MAX but finite, and y finite: compare with FLT_MAX
		ref = math.Copysign(math.MaxFloat32, ref)
	}
	abs = math.Abs(float64(y) - ref)
	if ref != 0 {
		rel = abs / math.Abs(ref)
	}
	ulp = abs / ULP32(ref)
	return abs, rel, ulp, false, false
}

// ErrorsAt evaluates at every x and compares with the reference (alpha = o.Alpha).
func (f *Function) ErrorsAt(xs []float32, o Options) ErrorStats {
	var st ErrorStats
	ref := f.Reference()
	if ref == nil {
		return st
	}
	for _, x := range xs {
		y, tr := f.EvaluateWith(x, o)
		if tr.Path == PathError {
			st.Failed++
			continue
		}
		a, r, u, skip, mis := pointError(y, ref(float64(x), float64(o.Alpha)))
		switch {
		case skip:
			st.Skipped++
			continue
		case mis:
			if st.Mismatched == 0 {
				st.FirstMismatch = x
			}
			st.Mismatched++
			continue
		}
		st.N++
		if a > st.MaxAbs {
			st.MaxAbs, st.AtAbs = a, x
		}
		if r > st.MaxRel {
			st.MaxRel, st.AtRel = r, x
		}
		if u > st.MaxULP {
			st.MaxULP, st.AtULP = u, x
		}
	}
	return st
}

// Grid returns n float32 points evenly spread over [lo, hi] (both ends included).
func Grid(lo, hi float64, n int) []float32 {
	if n <= 0 {
		return nil
	}
	if n == 1 {
		return []float32{float32(lo)}
	}
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(lo + (hi-lo)*float64(i)/float64(n-1))
	}
	return xs
}

// Sweep compares the function with its reference on n evenly spread points of [lo, hi].
// n is capped at 1<<26.
// A sweep's result is remembered (sweepCache): the same sets ship in almost every NEFF.
func (f *Function) Sweep(lo, hi float64, n int, o Options) ErrorStats {
	n = min(n, MaxSweepPoints)
	var st ErrorStats
	ref := f.Reference()
	if ref == nil || n <= 0 {
		return st
	}
	var key sweepKey
	if f.Set != nil && n <= sweepCachedPoints {
		key = sweepKey{tables: f.Set.canonical(), meta: f.Meta.Index, name: f.Name, lo: lo, hi: hi, n: n, o: o}
		sweepCache.Lock()
		cached, ok := sweepCache.m[key]
		sweepCache.Unlock()
		if ok {
			return cached
		}
		defer func() {
			sweepCache.Lock()
			if len(sweepCache.m) >= sweepCacheMax {
				clear(sweepCache.m)
			}
			sweepCache.m[key] = st
			sweepCache.Unlock()
		}()
	}
	// Evaluate in chunks so a large n does not need n floats of memory.
	const chunk = 1 << 14
	for i := 0; i < n; i += chunk {
		m := min(chunk, n-i)
		xs := make([]float32, m)
		for j := range xs {
			k := i + j
			if n == 1 {
				xs[j] = float32(lo)
			} else {
				xs[j] = float32(lo + (hi-lo)*float64(k)/float64(n-1))
			}
		}
		merge(&st, f.ErrorsAt(xs, o))
	}
	return st
}

// sweepCache remembers Sweep's results by what they depend on: the bytes the set was decoded
// from, the function, the range, the points and the options. The compiler ships the same
// activation sets in almost every NEFF, and the overview sweeps every function of every set
// loaded (a tenth of a small NEFF's open in the page), so a page or a scan that opens many
// files sweeps each table once.
var sweepCache = struct {
	sync.Mutex
	m map[sweepKey]ErrorStats
}{m: map[sweepKey]ErrorStats{}}

type sweepKey struct {
	tables *[3][]byte // Set.canonical: the bytes the function's set was decoded from
	meta   int
	name   string
	lo, hi float64
	n      int
	o      Options
}

const (
	sweepCacheMax     = 1 << 12 // entries; the map starts afresh when full
	sweepCachedPoints = 1 << 16 // larger sweeps are asked for once, by a person
)

// MaxSweepPoints bounds the points one Sweep evaluates (a larger n is cut to it).
const MaxSweepPoints = 1 << 26

func merge(st *ErrorStats, c ErrorStats) {
	if c.Mismatched > 0 && st.Mismatched == 0 {
		st.FirstMismatch = c.FirstMismatch
	}
	st.N += c.N
	st.Skipped += c.Skipped
	st.Mismatched += c.Mismatched
	st.Failed += c.Failed
	if c.MaxAbs > st.MaxAbs {
		st.MaxAbs, st.AtAbs = c.MaxAbs, c.AtAbs
	}
	if c.MaxRel > st.MaxRel {
		st.MaxRel, st.AtRel = c.MaxRel, c.AtRel
	}
	if c.MaxULP > st.MaxULP {
		st.MaxULP, st.AtULP = c.MaxULP, c.AtULP
	}
}

// Boundary is a vertical line on a plot: an octave start or a section start.
type Boundary struct {
	X     float64
	Kind  string // "octave" or "section"
	Label string // e.g. "pos E3 (ctl 29)"
}

// Interval is an input range that takes one saturation slot.
type Interval struct {
	Lo, Hi float64
	Slot   string
}

// Plot is what a function view draws: curves and the table's structure over [lo, hi].
type Plot struct {
	Emulated, True         doc.Series
	AbsErr, RelErr, ULPErr doc.Series
	Boundaries             []Boundary
	Saturation             []Interval
	Failed                 int // points where the table gave an error (y = NaN)
}

// Series returns the five curves, for a doc.Node.
func (p *Plot) Series() []doc.Series {
	return []doc.Series{p.Emulated, p.True, p.AbsErr, p.RelErr, p.ULPErr}
}

// maxBoundaries caps the vertical lines of one plot; section lines are dropped first.
const maxBoundaries = 2048

// Sample evaluates n points evenly spread over [lo, hi] (n capped at 1<<20) and returns the
// curves (emulated, true, abs/rel/ulp error; error curves are NaN where not comparable or
// outside the function's Domain),
// the octave and section boundaries inside [lo, hi] and the saturation intervals.
func (f *Function) Sample(lo, hi float64, n int, o Options) *Plot {
	n = max(0, min(n, 1<<20))
	if hi < lo {
		lo, hi = hi, lo
	}
	p := &Plot{
		Emulated: doc.Series{Name: f.Name + " (" + o.Mode.String() + ")"}, True: doc.Series{Name: f.Bare + " (float64)"},
		AbsErr: doc.Series{Name: "abs error"}, RelErr: doc.Series{Name: "rel error"}, ULPErr: doc.Series{Name: "ulp error"},
	}
	for _, s := range []*doc.Series{&p.Emulated, &p.True, &p.AbsErr, &p.RelErr, &p.ULPErr} {
		s.X, s.Y = make([]float64, 0, n), make([]float64, 0, n)
	}
	ref := f.Reference()
	dom, known := f.Domain()
	for _, x := range Grid(lo, hi, n) {
		xf := float64(x)
		y, tr := f.EvaluateWith(x, o)
		if tr.Path == PathError {
			p.Failed++
		}
		p.Emulated.X, p.Emulated.Y = append(p.Emulated.X, xf), append(p.Emulated.Y, float64(y))
		r, a, rl, u := math.NaN(), math.NaN(), math.NaN(), math.NaN()
		if ref != nil {
			r = ref(xf, float64(o.Alpha))
			// No error figure outside the table's range: the table is not meant to be right there.
			if ea, er, eu, skip, mis := pointError(y, r); !skip && !mis && tr.Path != PathError && (!known || dom.Contains(xf)) {
				a, rl, u = ea, er, eu
			}
		}
		p.True.X, p.True.Y = append(p.True.X, xf), append(p.True.Y, r)
		for _, s := range []struct {
			s *doc.Series
			v float64
		}{{&p.AbsErr, a}, {&p.RelErr, rl}, {&p.ULPErr, u}} {
			s.s.X, s.s.Y = append(s.s.X, xf), append(s.s.Y, s.v)
		}
	}
	p.Boundaries = f.Boundaries(lo, hi)
	p.Saturation = f.SaturationIntervals(lo, hi)
	return p
}

// inputSigns says which input signs reach a stored region after the fold.
func (f *Function) inputSigns(r Region) (pos, neg bool) {
	s := f.Symmetry
	if r == Pos {
		return !(s.En && s.UseNeg), s.En && !s.UseNeg
	}
	return s.En && s.UseNeg, !(s.En && !s.UseNeg)
}

// Boundaries lists octave starts (and section starts while they fit) inside [lo, hi], as
// input values (a folded region shows on both sides).
func (f *Function) Boundaries(lo, hi float64) []Boundary {
	var oct, sect []Boundary
	for _, o := range f.Octaves {
		if o.Empty() || o.Control.Size > 23 {
			continue
		}
		pos, neg := f.inputSigns(o.Region)
		for _, sign := range []float64{1, -1} {
			if (sign > 0 && !pos) || (sign < 0 && !neg) {
				continue
			}
			x := sign * math.Ldexp(1, o.Exp)
			if x >= lo && x <= hi {
				oct = append(oct, Boundary{x, "octave", fmt.Sprintf("%s E%d (ctl %d)", o.Region, o.Exp, o.CtrlIndex)})
			}
			// Section k starts at sign·2^E·(1 + k/2^size); only the k inside [lo, hi] are visited.
			per := float64(int(1) << o.Control.Size)
			a, b := lo*sign, hi*sign
			if sign < 0 {
				a, b = b, a
			}
			kLo := max(1, math.Ceil((a/math.Ldexp(1, o.Exp)-1)*per))
			kHi := min(float64(o.Buckets-1), math.Floor((b/math.Ldexp(1, o.Exp)-1)*per))
			for k := kLo; k <= kHi && len(sect) <= maxBoundaries; k++ {
				xs := sign * math.Ldexp(1+k/per, o.Exp)
				sect = append(sect, Boundary{xs, "section", fmt.Sprintf("%s E%d sect %d (bkt %d)", o.Region, o.Exp, int(k), o.Control.Base+int(k))})
			}
		}
	}
	if len(oct)+len(sect) > maxBoundaries {
		sect = nil
	}
	if len(oct) > maxBoundaries {
		oct = oct[:maxBoundaries]
	}
	return append(oct, sect...)
}

// threshold value of a biased exponent + mantissa as a magnitude.
func thresholdValue(thr, mant int) float64 {
	switch {
	case thr <= 0:
		return float64(max(mant, 0)) * 0x1p-149
	case thr >= 255:
		return math.Inf(1)
	}
	return math.Ldexp(1+float64(mant)/(1<<23), thr-127)
}

// SaturationIntervals lists the input ranges inside [lo, hi] that take each clamp slot
// (from the thresholds, as the evaluator applies them; the large check wins on overlap).
func (f *Function) SaturationIntervals(lo, hi float64) []Interval {
	if f.Prelu {
		return nil
	}
	m := f.Meta
	var out []Interval
	for _, r := range []Region{Pos, Neg} {
		smallThr, largeThr, largeMant := m.Int(FieldSmallPosThr), m.Int(FieldLargePosThr), m.Int(FieldLargePosMant)
		smallSlot, largeSlot := SlotPosSmall, SlotPosLarge
		if r == Neg {
			smallThr, largeThr, largeMant = m.Int(FieldSmallNegThr), m.Int(FieldLargeNegThr), m.Int(FieldLargeNegMant)
			smallSlot, largeSlot = SlotNegSmall, SlotNegLarge
		}
		large := thresholdValue(largeThr, largeMant)
		small := 0.0
		if smallThr >= 1 {
			small = math.Min(thresholdValue(smallThr, 0), large)
		}
		pos, neg := f.inputSigns(r)
		for _, iv := range []struct {
			a, b float64
			slot int
		}{{0, small, smallSlot}, {large, math.Inf(1), largeSlot}} {
			if !(iv.b > iv.a) && !(iv.slot == largeSlot && !math.IsInf(large, 1)) {
				continue
			}
			if pos {
				if a, b := math.Max(iv.a, lo), math.Min(iv.b, hi); a <= b && b > 0 {
					out = append(out, Interval{a, b, slotNames[iv.slot]})
				}
			}
			if neg {
				if a, b := math.Max(-iv.b, lo), math.Min(-iv.a, hi); a <= b && a < 0 {
					out = append(out, Interval{a, b, slotNames[iv.slot]})
				}
			}
		}
	}
	return out
}
