// Package tablegen is neffscope's own generator of activation tables: it fits a cubic per
// bucket and writes a roster, profile JSON and bkt/ctrl blobs in the real layout (spec §1–§5),
// with either ctrl stride (32 B trainium, 16 B with_ln). Tests use it to round-trip the
// decoder and evaluator against a known error bound, and to make fuzz seeds and fixtures.
package tablegen

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
)

// Poly is one bucket record: d0 + d1·t + d2·t² + d3·t³ with t = v − X.
type Poly struct{ D0, D1, D2, D3, X float32 }

// Func describes one function to generate.
type Func struct {
	Name   string // bare name, e.g. "exp"
	Budget int    // the _<N>p suffix; 1 = resident
	ID     int    // func_id
	F      func(float64) float64

	// Symmetry (spec §5 group C). With En the table stores one half: the pos half, or the
	// neg half with UseNeg; Invert negates the folded result and Point is added after.
	SymEn, SymInvert, SymUseNeg bool
	SymPoint                    float32

	// ExpOffset is the first declared octave of both regions (unbiased exponent).
	ExpOffset int
	// Neg and Pos give the extract_size of each declared octave from ExpOffset upward;
	// -1 declares an empty octave (sentinel word). nil = the region is absent.
	Neg, Pos []int
	// NegTop / PosTop, when non-zero, is the magnitude from which the large clamp applies,
	// truncating the region's top octave (large threshold = that value's exponent and
	// mantissa); otherwise the clamp starts at the octave above the last one.
	NegTop, PosTop float32
	// Thresholds, when set, replaces the derived ones: small pos/neg, large pos (mant), large neg (mant).
	Thresholds *[6]int

	Slots                  [4]Poly // pos_small, neg_small, pos_large, neg_large
	Zero, PInf, NInf, NaN  float32
	ImmBias                int
	FmaConst0, FmaIndirect int
	Lower, Upper           float32
}

// Result is the generated set.
type Result struct {
	Roster, Profile, Bkt, Ctrl []byte
	Stride                     int
	// Bound maps an absolute bucket index of a LUT section to the generator's own bound on
	// |emulated − F| for inputs that use it (fit error measured on a dense grid with a safety
	// factor, plus float32 evaluation rounding).
	Bound map[int]float64
	// MaxBound is the largest Bound.
	MaxBound float64
}

// SetName, file names.
func bktName(set string) string  { return set + "_bkt.bin" }
func ctrlName(set string) string { return set + "_ctrl.bin" }

type octave struct {
	neg        bool
	exp, size  int // size -1 = sentinel
	ctrl, base int
	sections   int
}

type placed struct {
	f                 *Func
	octs              []octave
	bktStart, lutEnd  int
	ctlStart, basePos int
	thr               [6]int
	negOct, posOct    int
}

func ulp32(r float64) float64 {
	r = math.Abs(r)
	if r < 0x1p-126 {
		return 0x1p-149
	}
	_, e := math.Frexp(r)
	return math.Ldexp(1, e-24)
}

// fit returns the cubic interpolating f at 4 Chebyshev nodes of [a, b], about x = midpoint
// (rounded to f32), with coefficients rounded to f32, and the bound on its error.
func fit(f func(float64) float64, a, b float64, foldPoint float64) (Poly, float64) {
	x := float64(float32((a + b) / 2))
	var A [4][5]float64
	for i := 0; i < 4; i++ {
		node := (a+b)/2 + (b-a)/2*math.Cos(math.Pi*(2*float64(i)+1)/8)
		t := node - x
		A[i] = [5]float64{1, t, t * t, t * t * t, f(node)}
	}
	// Gaussian elimination with partial pivoting on the 4×4 Vandermonde system.
	for c := 0; c < 4; c++ {
		p := c
		for r := c + 1; r < 4; r++ {
			if math.Abs(A[r][c]) > math.Abs(A[p][c]) {
				p = r
			}
		}
		A[c], A[p] = A[p], A[c]
		for r := 0; r < 4; r++ {
			if r != c && A[c][c] != 0 {
				k := A[r][c] / A[c][c]
				for j := c; j < 5; j++ {
					A[r][j] -= k * A[c][j]
				}
			}
		}
	}
	var d [4]float64
	for i := range d {
		if A[i][i] != 0 {
			d[i] = A[i][4] / A[i][i]
		}
	}
	p := Poly{float32(d[0]), float32(d[1]), float32(d[2]), float32(d[3]), float32(x)}
	// Measure the rounded cubic on a dense grid (ends included).
	const dense = 64
	worst, mag := 0.0, 0.0
	for i := 0; i <= dense; i++ {
		v := a + (b-a)*float64(i)/dense
		t := v - x
		y := float64(p.D0) + float64(p.D1)*t + float64(p.D2)*t*t + float64(p.D3)*t*t*t
		worst = math.Max(worst, math.Abs(y-f(v)))
		mag = math.Max(mag, math.Max(math.Abs(y), math.Max(math.Abs(float64(p.D0)), math.Abs(float64(p.D1)*t))))
	}
	// Safety for the grid (×1.5), the float32 schedule (t and d0 + d1·t rounded, final
	// rounding: 4 ulp of the largest magnitude involved) and the reconstruction add.
	bound := 1.5*worst + 4*ulp32(mag)
	if foldPoint != 0 {
		bound += 2 * ulp32(math.Abs(foldPoint)+mag)
	}
	return p, bound
}

// Generate lays the functions out in order in one set named set, with the given ctrl stride
// (32 or 16; 16 ≥ 4 bytes of word + zero padding).
func Generate(set string, stride int, funcs []Func) (*Result, error) {
	if stride < 4 {
		return nil, fmt.Errorf("ctrl stride %d < 4", stride)
	}
	res := &Result{Stride: stride, Bound: map[int]float64{}}
	var buckets []Poly
	var ctrls []uint32
	var ps []placed
	for fi := range funcs {
		f := &funcs[fi]
		pl := placed{f: f, bktStart: len(buckets), ctlStart: len(ctrls)}
		for _, reg := range []struct {
			neg   bool
			sizes []int
			top   float32
		}{{true, f.Neg, f.NegTop}, {false, f.Pos, f.PosTop}} {
			if !reg.neg {
				pl.basePos = len(ctrls)
			}
			topExp, topMant := 1000, 0
			if reg.top != 0 {
				bits := math.Float32bits(reg.top)
				topExp, topMant = int(bits>>23&0xff)-127, int(bits&0x7fffff)
			}
			for k, sz := range reg.sizes {
				o := octave{neg: reg.neg, exp: f.ExpOffset + k, size: sz, ctrl: len(ctrls), base: len(buckets)}
				if sz < 0 {
					ctrls = append(ctrls, uint32(o.base))
					pl.octs = append(pl.octs, o)
					continue
				}
				if sz > 23 {
					return nil, fmt.Errorf("%s: extract size %d > 23", f.Name, sz)
				}
				o.sections = 1 << sz
				if o.exp == topExp {
					o.sections = min(o.sections, topMant>>(23-sz)+1)
				} else if o.exp > topExp {
					return nil, fmt.Errorf("%s: octave %d lies above the top %g", f.Name, o.exp, reg.top)
				}
				ctrls = append(ctrls, uint32(sz)<<16|uint32(23-sz)<<11|uint32(o.base))
				for s := 0; s < o.sections; s++ {
					lo := math.Ldexp(1+float64(s)/float64(int(1)<<sz), o.exp)
					hi := math.Ldexp(1+float64(s+1)/float64(int(1)<<sz), o.exp)
					// A truncated top section keeps its full width: x stays the midpoint (as in real tables).
					if reg.neg {
						lo, hi = -hi, -lo
					}
					point := 0.0
					if f.SymEn {
						point = float64(f.SymPoint)
					}
					p, bnd := fit(f.F, lo, hi, point)
					res.Bound[len(buckets)] = bnd
					res.MaxBound = math.Max(res.MaxBound, bnd)
					buckets = append(buckets, p)
				}
				pl.octs = append(pl.octs, o)
			}
			if reg.neg {
				pl.negOct = len(reg.sizes)
			} else {
				pl.posOct = len(reg.sizes)
			}
		}
		pl.lutEnd = len(buckets)
		buckets = append(buckets, f.Slots[:]...)
		// Thresholds: small = 127 + first populated octave, large = the top or the octave above.
		for r, reg := range []struct {
			neg bool
			top float32
		}{{false, f.PosTop}, {true, f.NegTop}} {
			first, last := 1000, -1000
			for _, o := range pl.octs {
				if o.neg == reg.neg {
					last = max(last, o.exp)
					if o.size >= 0 {
						first = min(first, o.exp)
					}
				}
			}
			if first == 1000 {
				continue // region absent: thresholds 0, every input of this sign takes the large slot
			}
			pl.thr[r*3] = 127 + first
			if reg.top != 0 {
				bits := math.Float32bits(reg.top)
				pl.thr[r*3+1], pl.thr[r*3+2] = int(bits>>23&0xff), int(bits&0x7fffff)
			} else {
				pl.thr[r*3+1] = 127 + last + 1
			}
		}
		if f.Thresholds != nil {
			t := f.Thresholds
			pl.thr = [6]int{t[0], t[2], t[3], t[1], t[4], t[5]}
		}
		ps = append(ps, pl)
	}
	// Blobs.
	var bkt bytes.Buffer
	for _, p := range buckets {
		for _, v := range []float32{p.D0, p.D1, p.D2, p.D3, p.X} {
			binary.Write(&bkt, binary.LittleEndian, math.Float32bits(v))
		}
		bkt.Write(make([]byte, 12))
	}
	ctrl := make([]byte, len(ctrls)*stride)
	for i, w := range ctrls {
		binary.LittleEndian.PutUint32(ctrl[i*stride:], w)
	}
	res.Bkt, res.Ctrl = bkt.Bytes(), ctrl
	res.Profile = profileJSON(set, ps, len(buckets), len(ctrls))
	res.Roster = rosterJSON(set, funcs)
	return res, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func bits(f float32) string { return strconv.FormatUint(uint64(math.Float32bits(f)), 10) }

func fullName(f *Func) string { return f.Name + "_" + strconv.Itoa(f.Budget) + "p" }

func profileJSON(set string, ps []placed, nb, nc int) []byte {
	var w bytes.Buffer
	fmt.Fprintf(&w, "{\n    \"bkt_bin\": %q,\n    \"ctl_bin\": %q,\n    \"profile_meta_data\": [", bktName(set), ctrlName(set))
	for i, p := range ps {
		f := p.f
		if i > 0 {
			w.WriteString(",")
		}
		slot := p.lutEnd
		fields := []struct {
			k string
			v string
		}{
			{"func_name", strconv.Quote(fullName(f))}, {"func_id", strconv.Itoa(f.ID)},
			{"symmetry_point", bits(f.SymPoint)}, {"sym_invert_sign_point", strconv.Itoa(b2i(f.SymInvert))},
			{"symmetry_opt_en", strconv.Itoa(b2i(f.SymEn))}, {"symmetry_opt_use_neg_region", strconv.Itoa(b2i(f.SymUseNeg))},
			{"imm_bias", strconv.Itoa(f.ImmBias)}, {"exp_offset", strconv.Itoa(f.ExpOffset)},
			{"pwl_control_base_pos", strconv.Itoa(p.basePos)}, {"pwl_control_base_neg", strconv.Itoa(p.ctlStart)},
			{"small_pos_signal_exp_threshold", strconv.Itoa(p.thr[0])}, {"pos_small_signal_pwl_control", strconv.Itoa(slot)},
			{"small_neg_signal_exp_threshold", strconv.Itoa(p.thr[3])}, {"neg_small_signal_pwl_control", strconv.Itoa(slot + 1)},
			{"large_pos_signal_exp_threshold", strconv.Itoa(p.thr[1])}, {"large_pos_signal_mantissa_threshold", strconv.Itoa(p.thr[2])},
			{"pos_large_signal_pwl_control", strconv.Itoa(slot + 2)},
			{"large_neg_signal_exp_threshold", strconv.Itoa(p.thr[4])}, {"large_neg_signal_mantissa_threshold", strconv.Itoa(p.thr[5])},
			{"neg_large_signal_pwl_control", strconv.Itoa(slot + 3)},
			{"fnan_result", bits(f.NaN)}, {"fpinf_result", bits(f.PInf)}, {"fninf_result", bits(f.NInf)}, {"fzero_result", bits(f.Zero)},
			{"fma_const_0", strconv.Itoa(f.FmaConst0)}, {"fma_const_1", "0"}, {"fma_indirection_src_sel", strconv.Itoa(f.FmaIndirect)},
			{"use_multipass", "false"}, {"lower_bound", bits(f.Lower)}, {"upper_bound", bits(f.Upper)},
		}
		w.WriteString("\n        {")
		for j, kv := range fields {
			if j > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(&w, "\n            %q: %s", kv.k, kv.v)
		}
		w.WriteString("\n        }")
	}
	fmt.Fprintf(&w, "\n    ],\n    \"bkt_entry_cnt\": %d,\n    \"ctl_entry_cnt\": %d", nb, nc)
	named := func(key string, val func(p placed) int) {
		fmt.Fprintf(&w, ",\n    %q: {", key)
		for i, p := range ps {
			if i > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(&w, "\n        %q: %d", p.f.Name, val(p))
		}
		w.WriteString("\n    }")
	}
	named("func_to_bkt_start_idx", func(p placed) int { return p.bktStart })
	named("func_to_ctl_start_idx", func(p placed) int { return p.ctlStart })
	expMap := func(key string, val func(o octave) int) {
		fmt.Fprintf(&w, ",\n    %q: {", key)
		for i, p := range ps {
			if i > 0 {
				w.WriteString(",")
			}
			fmt.Fprintf(&w, "\n        %q: {", p.f.Name)
			// Keys ascending; per key the declaring regions in [neg, pos] order.
			byExp := map[int][]int{}
			lo, hi := 1<<30, -(1 << 30)
			for _, o := range p.octs { // neg octaves come first
				byExp[o.exp] = append(byExp[o.exp], val(o))
				lo, hi = min(lo, o.exp), max(hi, o.exp)
			}
			first := true
			for e := lo; e <= hi; e++ {
				v, ok := byExp[e]
				if !ok {
					continue
				}
				if !first {
					w.WriteString(",")
				}
				first = false
				fmt.Fprintf(&w, "\n            \"%d\": [", e)
				for k, x := range v {
					if k > 0 {
						w.WriteString(", ")
					}
					w.WriteString(strconv.Itoa(x))
				}
				w.WriteString("]")
			}
			w.WriteString("\n        }")
		}
		w.WriteString("\n    }")
	}
	expMap("func_exp_to_bkt_start_idx", func(o octave) int { return o.base })
	expMap("func_exp_to_ctl_start_idx", func(o octave) int { return o.ctrl })
	w.WriteString("\n}\n")
	return w.Bytes()
}

func rosterJSON(set string, funcs []Func) []byte {
	var w bytes.Buffer
	fmt.Fprintf(&w, "{\n    \"pwp_file_keys\": [\"bkt_bin\", \"ctrl_bin\", \"profile_json\"],\n    \"act_func_sets\": [\n        {\n")
	fmt.Fprintf(&w, "            \"name\": %q,\n            \"bkt_bin\": %q,\n            \"ctrl_bin\": %q,\n            \"profile_json\": %q,\n            \"act\": {", set, bktName(set), ctrlName(set), set+".json")
	for i, f := range funcs {
		if i > 0 {
			w.WriteString(",")
		}
		fmt.Fprintf(&w, "\n                %q: %d", f.Name, f.Budget)
	}
	w.WriteString("\n            }\n        }\n    ]\n}\n")
	return w.Bytes()
}

// Files returns the generated set as loose files (roster, profile, blobs) keyed by name.
func (r *Result) Files(set string) map[string][]byte {
	return map[string][]byte{"act_info.json": r.Roster, set + ".json": r.Profile, bktName(set): r.Bkt, ctrlName(set): r.Ctrl}
}
