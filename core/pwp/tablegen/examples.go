package tablegen

import "math"

// Example functions covering the three symmetry layouts of real tables plus residents.

// Exp is asymmetric: both regions stored, E −12..6, the pos top truncated at ln(FLT_MAX)
// like the real exp_400p (spec §3.1).
func Exp() Func {
	sizes := make([]int, 19)
	for i := range sizes {
		sizes[i] = max(0, min(7, i-12+3)) // E−12..6 → sizes growing to 7 like the real exp
	}
	return Func{
		Name: "exp", Budget: 400, ID: 7, F: math.Exp, ExpOffset: -12, Neg: sizes, Pos: sizes,
		PosTop: float32(88.72283), NegTop: float32(87.3),
		Slots: [4]Poly{{1, 1, 0.5, 1.0 / 6, 0}, {1, 1, 0.5, 1.0 / 6, 0}, {float32(math.Inf(1)), 0, 0, 0, 0}, {}},
		Zero:  1, PInf: float32(math.Inf(1)), NInf: 0, NaN: float32(math.NaN()),
		Lower: -math.MaxFloat32, Upper: math.MaxFloat32,
	}
}

// Tanh is odd-symmetric: only the pos half stored, folded results negated (like tanh_4p).
func Tanh() Func {
	return Func{
		Name: "tanh", Budget: 4, ID: 6, F: math.Tanh, SymEn: true, SymInvert: true,
		ExpOffset: -10, Pos: []int{0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 4, 5, 4}, // E−10..2
		PosTop: 7.9,
		Slots:  [4]Poly{{0, 1, 0, -1.0 / 3, 0}, {}, {1, 0, 0, 0, 0}, {}},
		Zero:   0, PInf: 1, NInf: -1, NaN: float32(math.NaN()), Upper: math.MaxFloat32,
	}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Sigmoid is point-symmetric with the neg half stored (store-neg): sigmoid(v) = 1 − T(−v).
// A leading empty octave exercises the sentinel path.
func Sigmoid() Func {
	return Func{
		Name: "sigmoid", Budget: 40, ID: 5, F: sigmoid, SymEn: true, SymInvert: true, SymUseNeg: true, SymPoint: 1,
		ExpOffset: -7, Neg: []int{-1, 2, 3, 3, 4, 4, 5, 5, 5, 5, 4}, // E−7 (empty) .. 3
		Slots: [4]Poly{{}, {0.5, 0.25, 0, -1.0 / 48, 0}, {}, {}},
		Zero:  0.5, PInf: 1, NInf: 0, NaN: float32(math.NaN()), Upper: math.MaxFloat32,
	}
}

// Identity is a LUT-less resident: two sentinel octaves, all-zero thresholds, every input
// takes a large slot holding {0, 1, 0, 0}.
func Identity() Func {
	one := Poly{0, 1, 0, 0, 0}
	return Func{
		Name: "identity", Budget: 1, ID: 1, F: func(x float64) float64 { return x }, ExpOffset: -127,
		Neg: []int{-1}, Pos: []int{-1}, Thresholds: &[6]int{},
		Slots: [4]Poly{one, one, one, one}, PInf: float32(math.Inf(1)), NInf: float32(math.Inf(-1)), NaN: float32(math.NaN()),
		Upper: math.MaxFloat32,
	}
}

// Prelu mirrors parametric_relu_1p: no ctrl words, exp_offset 128, selector bits in the slots.
func Prelu() Func {
	sel := func(b uint32) float32 { return math.Float32frombits(b) }
	return Func{
		Name: "parametric_relu", Budget: 1, ID: 4, F: func(x float64) float64 { return x }, ExpOffset: 128,
		Thresholds: &[6]int{}, FmaConst0: 0x3f800000, FmaIndirect: 2,
		Slots: [4]Poly{{0, sel(4), 0, 0, 0}, {0, sel(8), 0, 0, 0}, {0, sel(4), 0, 0, 0}, {0, sel(8), 0, 0, 0}},
		PInf:  float32(math.Inf(1)), NInf: float32(math.Inf(-1)), NaN: float32(math.NaN()),
	}
}

// Standard is the example set: an asymmetric, an odd and a store-neg point-symmetric hero plus
// two residents.
func Standard() []Func { return []Func{Exp(), Identity(), Prelu(), Tanh(), Sigmoid()} }
