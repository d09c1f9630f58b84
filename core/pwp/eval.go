package pwp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// Mode selects the polynomial arithmetic.
type Mode uint8

const (
	// ModeSim is the reference simulator's model (§7.2): d0 + d1·t in float32, the d2 and d3
	// terms in float64 (t³ as pow(t, 3)), rounded once to float32. The bit-exactness target.
	ModeSim Mode = iota
	// ModeHorner is fp32 Horner ((d3·t + d2)·t + d1)·t + d0, every step rounded to float32 —
	// the inferred hardware schedule (§7.6, unknown pwp.hw-numerics).
	ModeHorner
)

func (m Mode) String() string {
	if m == ModeHorner {
		return "horner"
	}
	return "sim"
}

// ParseMode reads "sim" or "horner".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "sim", "":
		return ModeSim, nil
	case "horner", "fp32horner", "h32":
		return ModeHorner, nil
	}
	return ModeSim, fmt.Errorf("unknown mode %q (sim or horner)", s)
}

// NaNPolicy selects what a NaN input gives (§7.5, unknown pwp.nan-policy).
type NaNPolicy uint8

const (
	// NaNTable substitutes the profile's fnan_result, as the hardware PROFILE's
	// func_rslt_for_nan suggests. The recommended default.
	NaNTable NaNPolicy = iota
	// NaNSim lets NaN fall through the model like the simulator (no NaN branch): it takes a
	// large clamp slot and the polynomial propagates it.
	NaNSim
)

// Options tune an evaluation. The zero value is the default: sim arithmetic, HW-like NaN,
// prelu alpha 0.
type Options struct {
	Mode  Mode
	NaN   NaNPolicy
	Alpha float32 // parametric_relu slope for v ≤ 0 (the Activation's second immediate)
}

// PathKind says which route an evaluation took.
type PathKind uint8

const (
	PathSpecial PathKind = iota // ±0, ±inf or NaN substitution from the profile
	PathClamp                   // one of the four saturation slots
	PathBucket                  // an octave's section
	PathPrelu                   // parametric_relu formula
	PathError                   // the table cannot be evaluated at this input
)

// Special values, for PathSpecial.
const (
	SpecialZero uint8 = iota
	SpecialPosInf
	SpecialNegInf
	SpecialNaN
)

var specialNames = [...]string{"fzero", "fpinf", "fninf", "fnan"}

// Trace says how an evaluation went: the path, and for clamp and bucket paths the absolute
// bucket index (so a page can highlight bytes BucketOffset()..+32 of the set's bkt blob).
type Trace struct {
	Path    PathKind
	Special uint8
	Slot    int8   // saturation slot for PathClamp, else -1
	Region  Region // region whose thresholds / octaves were used
	Folded  bool   // the symmetry fold changed the input (the result was reconstructed)
	Ctrl    int32  // ctrl word index for PathBucket, else -1
	Exp     int16  // unbiased exponent of the (folded) input for PathBucket
	Section int32  // section within the octave for PathBucket, else -1
	Bucket  int32  // absolute bkt index for PathClamp/PathBucket, else -1
	Err     error  // for PathError
}

// BucketOffset is the byte offset of the bucket record used, or -1.
func (t Trace) BucketOffset() int64 {
	if t.Bucket < 0 {
		return -1
	}
	return int64(t.Bucket) * BucketSize
}

// String renders the path as one token: fzero, pos_large:bkt779, pos:ctl44:sect0:bkt424,
// with ":fold" when the input was folded; prelu; error.
func (t Trace) String() string {
	var s string
	switch t.Path {
	case PathSpecial:
		return specialNames[t.Special&3]
	case PathPrelu:
		return "prelu"
	case PathError:
		return "error"
	case PathClamp:
		s = SlotName(int(t.Slot)) + ":bkt" + strconv.Itoa(int(t.Bucket))
	default:
		s = t.Region.String() + ":ctl" + strconv.Itoa(int(t.Ctrl)) + ":sect" + strconv.Itoa(int(t.Section)) + ":bkt" + strconv.Itoa(int(t.Bucket))
	}
	if t.Folded {
		s += ":fold"
	}
	return s
}

// evalTable is a function's profile reduced to what the hot path needs.
type evalTable struct {
	bad                          error
	zero, pinf, ninf, nan        float32
	symEn, symInv, symNeg        bool
	point                        float32
	prelu                        bool
	expOffset                    int32
	lpThr, lpMant, lnThr, lnMant int32
	spThr, snThr                 int32
	basePos, baseNeg             int32
	nPos, nNeg                   int32
	slots                        [SlotCount]int32
	lutLo, lutHi                 int32 // bucket indices a section may use: [lutLo, lutHi)
	buckets                      []Bucket
	ctrls                        []Control
}

var errNoTable = errors.New("the set's bucket or ctrl blob is missing")

func (s *Set) compile(f *Function) evalTable {
	m := f.Meta
	e := evalTable{
		zero: m.Float(FieldFZero), pinf: m.Float(FieldFPInf), ninf: m.Float(FieldFNInf), nan: m.Float(FieldFNaN),
		symEn: f.Symmetry.En, symInv: f.Symmetry.Invert, symNeg: f.Symmetry.UseNeg,
		point: math.Float32frombits(f.Symmetry.Point), prelu: f.Prelu,
		expOffset: clamp32(m.Int(FieldExpOffset)),
		lpThr:     clamp32(m.Int(FieldLargePosThr)), lpMant: clamp32(m.Int(FieldLargePosMant)),
		lnThr: clamp32(m.Int(FieldLargeNegThr)), lnMant: clamp32(m.Int(FieldLargeNegMant)),
		spThr: clamp32(m.Int(FieldSmallPosThr)), snThr: clamp32(m.Int(FieldSmallNegThr)),
		lutLo: int32(f.BktStart), lutHi: int32(min(f.Slots[0], len(s.Buckets))),
		buckets: s.Buckets, ctrls: s.Controls,
	}
	for k := range f.Slots {
		e.slots[k] = int32(f.Slots[k])
	}
	// The region blocks, as the octaves were joined (bounded by the ctrl table).
	for _, o := range f.Octaves {
		if o.Region == Neg {
			if e.nNeg == 0 {
				e.baseNeg = int32(o.CtrlIndex)
			}
			e.nNeg++
		} else {
			if e.nPos == 0 {
				e.basePos = int32(o.CtrlIndex)
			}
			e.nPos++
		}
	}
	if !s.HaveBkt {
		e.bad = errNoTable
	}
	return e
}

func clamp32(v int) int32 {
	return int32(max(math.MinInt32, min(math.MaxInt32, v)))
}

// Evaluate computes the function at x with the default options (sim arithmetic, HW-like NaN).
func (f *Function) Evaluate(x float32) (float32, Trace) { return f.EvaluateWith(x, Options{}) }

// EvaluateWith computes the function at x: the model of spec §7.2 with the reconstruction rule
// of §7.3. It never reads out of range: a bad table gives PathError (y = NaN) with Trace.Err.
func (f *Function) EvaluateWith(x float32, o Options) (float32, Trace) {
	e := &f.ev
	tr := Trace{Slot: -1, Ctrl: -1, Section: -1, Bucket: -1}
	xb := math.Float32bits(x)
	abs := xb &^ (1 << 31)
	// (1) special values.
	switch {
	case abs == 0:
		tr.Special = SpecialZero
		return e.zero, tr
	case abs == 0x7f800000:
		if xb>>31 == 0 {
			tr.Special = SpecialPosInf
			return e.pinf, tr
		}
		tr.Special = SpecialNegInf
		return e.ninf, tr
	case abs > 0x7f800000 && o.NaN == NaNTable: // unknown pwp.nan-policy
		tr.Special = SpecialNaN
		return e.nan, tr
	}
	if e.prelu { // unknown pwp.prelu-selectors
		tr.Path = PathPrelu
		if x > 0 {
			return x, tr
		}
		return x * o.Alpha, tr
	}
	if e.bad != nil {
		tr.Path, tr.Err = PathError, e.bad
		return float32(math.NaN()), tr
	}
	// (2) fold.
	sel := xb
	if e.symEn {
		if e.symNeg {
			sel = abs | 1<<31
		} else {
			sel = abs
		}
	}
	tr.Folded = sel != xb
	// (3)–(4) clamps, then octave and section.
	expo := int32(sel>>23) & 0xff
	mant := int32(sel & 0x7fffff)
	slot := -1
	var base, n int32
	if sel>>31 == 0 {
		tr.Region = Pos
		if e.lpThr < expo || (e.lpThr == expo && e.lpMant <= mant) {
			slot = SlotPosLarge
		} else if e.spThr > expo || (e.spThr == expo && mant == 0) { // unknown pwp.small-boundary
			slot = SlotPosSmall
		}
		base, n = e.basePos, e.nPos
	} else {
		tr.Region = Neg
		if e.lnThr < expo || (e.lnThr == expo && e.lnMant <= mant) {
			slot = SlotNegLarge
		} else if e.snThr > expo || (e.snThr == expo && mant == 0) {
			slot = SlotNegSmall
		}
		base, n = e.baseNeg, e.nNeg
	}
	var bi int32
	if slot >= 0 {
		tr.Path, tr.Slot = PathClamp, int8(slot)
		bi = e.slots[slot]
		if bi < 0 || int(bi) >= len(e.buckets) {
			return f.fail(tr, errSlotRange, int32(slot), bi, int32(len(e.buckets)))
		}
	} else {
		tr.Path = PathBucket
		rel := expo - 127 - e.expOffset
		tr.Exp = int16(expo - 127)
		if rel < 0 || rel >= n {
			if len(e.ctrls) == 0 {
				return f.fail(tr, errNoCtrl, 0, 0, 0)
			}
			return f.fail(tr, errOctave, expo-127, n, e.expOffset)
		}
		ci := base + rel
		if ci < 0 || int(ci) >= len(e.ctrls) {
			return f.fail(tr, errCtrlRange, ci, int32(len(e.ctrls)), 0)
		}
		w := e.ctrls[ci]
		if w.Size > 23 {
			return f.fail(tr, errSize, ci, int32(w.Size), 0)
		}
		sect := mant >> (23 - w.Size)
		bi = int32(w.Base) + sect
		tr.Ctrl, tr.Section = ci, sect
		if bi < e.lutLo || bi >= e.lutHi {
			tr.Bucket = bi
			return f.fail(tr, errLUTRange, bi, e.lutLo, e.lutHi-1)
		}
	}
	tr.Bucket = bi
	// (5) polynomial.
	b := &e.buckets[bi]
	v := math.Float32frombits(sel)
	var y float32
	if o.Mode == ModeHorner {
		y = horner(b, v)
	} else {
		y = simPoly(b, v)
	}
	// (6) reconstruct iff the fold changed the input (§7.3, unknown pwp.reconstruct-rule).
	if e.symEn && tr.Folded {
		if e.symInv {
			y = -y
		}
		y = y + e.point
	}
	return y, tr
}

// Evaluation errors are built off the hot path: the numbers are kept, the text is made when
// the error is read.
const (
	errSlotRange uint8 = iota
	errOctave
	errCtrlRange
	errSize
	errLUTRange
	errNoCtrl
)

// EvalError says why a table could not be evaluated at an input.
type EvalError struct {
	Func    string
	Region  Region
	Kind    uint8
	A, B, C int32
}

func (e *EvalError) Error() string {
	switch e.Kind {
	case errSlotRange:
		return fmt.Sprintf("%s: the %s slot points at bucket %d, outside the table of %d", e.Func, SlotName(int(e.A)), e.B, e.C)
	case errOctave:
		return fmt.Sprintf("%s: exponent %d is not among the %d declared %s octaves from %d, and no clamp catches it", e.Func, e.A, e.B, e.Region, e.C)
	case errCtrlRange:
		return fmt.Sprintf("%s: ctrl word %d is beyond the ctrl table (%d words)", e.Func, e.A, e.B)
	case errNoCtrl:
		return fmt.Sprintf("%s: the set's ctrl blob is missing, so no octave can be looked up", e.Func)
	case errSize:
		return fmt.Sprintf("%s: ctrl word %d has extract_size %d > 23", e.Func, e.A, e.B)
	}
	return fmt.Sprintf("%s: bucket %d is outside the function's LUT %d..%d", e.Func, e.A, e.B, e.C)
}

//go:noinline
func (f *Function) fail(tr Trace, kind uint8, a, b, c int32) (float32, Trace) {
	tr.Path = PathError
	tr.Err = &EvalError{Func: f.Name, Region: tr.Region, Kind: kind, A: a, B: b, C: c}
	return float32(math.NaN()), tr
}

// Affine is the operand step before the function (§7.1): in·scale + bias as two float32
// roundings, not a fused multiply-add (unknown pwp.affine).
func Affine(in, scale, bias float32) float32 { return float32(in*scale) + bias }

// simPoly is step (5) of §7.2 (t² in double: unknown pwp.t2-precision). Explicit conversions force each rounding (and forbid fused
// multiply-adds, which the Go spec would otherwise allow).
func simPoly(b *Bucket, v float32) float32 {
	t := v - b.X
	r := float64(float32(t*b.D1) + b.D0)
	td := float64(t)
	t2 := float64(td * td) // exact: 24-bit × 24-bit fits a double
	r = r + float64(t2*float64(b.D2))
	// pow(t, 3.0): t² is exact, so t²·t rounded once is the correctly rounded cube
	// (unknown pwp.pow-rounding).
	t3 := float64(t2 * td)
	r = float64(t3*float64(b.D3)) + r
	return float32(r)
}

// horner is fp32 Horner, every operation rounded to float32.
func horner(b *Bucket, v float32) float32 {
	t := v - b.X
	a := float32(b.D3*t) + b.D2
	a = float32(a*t) + b.D1
	return float32(a*t) + b.D0
}
