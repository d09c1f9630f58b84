package pwp

import "math"

// RefFunc is a float64 reference ("true") function; alpha is used by parametric_relu only.
type RefFunc func(x, alpha float64) float64

func sigmoid(x float64) float64 { return 1 / (math.Exp(-x) + 1) }
func softplus(x float64) float64 {
	return math.Log1p(math.Exp(-math.Abs(x))) + math.Max(x, 0)
}
func step(cond bool, a, b float64) float64 {
	if cond {
		return a
	}
	return b
}

// References holds the float64 reference of every function of the catalog (spec §10.4 gives
// the simulator's exact fallbacks; derivatives not listed there are the textbook ones). At 0
// the step functions follow the tables' own fzero_result convention (derivative_relu(0) = 1).
var References = map[string]RefFunc{
	"identity":        func(x, _ float64) float64 { return x },
	"copy":            func(x, _ float64) float64 { return x },
	"square":          func(x, _ float64) float64 { return x * x },
	"relu":            func(x, _ float64) float64 { return step(x > 0, x, 0) },
	"leaky_relu":      func(x, _ float64) float64 { return step(x <= 0, 0.01*x, x) },
	"parametric_relu": func(x, a float64) float64 { return step(x <= 0, a*x, x) },
	"abs":             func(x, _ float64) float64 { return math.Abs(x) },
	"sign":            func(x, _ float64) float64 { return step(x > 0, 1, 0) - step(x < 0, 1, 0) },
	"memset_zero":     func(x, _ float64) float64 { return 0 },
	"is_finite": func(x, _ float64) float64 {
		return step(math.IsInf(x, 0) || math.IsNaN(x), 0, 1)
	},
	"derivative_relu":       func(x, _ float64) float64 { return step(x >= 0, 1, 0) },
	"derivative_leaky_relu": func(x, _ float64) float64 { return step(x >= 0, 1, 0.01) },
	"derivative_identity":   func(x, _ float64) float64 { return 1 },
	"exp":                   func(x, _ float64) float64 { return math.Exp(x) },
	"ln":                    func(x, _ float64) float64 { return math.Log(x) },
	"sqrt":                  func(x, _ float64) float64 { return math.Sqrt(x) },
	"reciprocal":            func(x, _ float64) float64 { return 1 / x },
	"reciprocal_sqrt":       func(x, _ float64) float64 { return 1 / math.Sqrt(x) },
	"abs_reciprocal_sqrt":   func(x, _ float64) float64 { return 1 / math.Sqrt(math.Abs(x)) },
	"tanh":                  func(x, _ float64) float64 { return math.Tanh(x) },
	"sigmoid":               func(x, _ float64) float64 { return sigmoid(x) },
	"softplus":              func(x, _ float64) float64 { return softplus(x) },
	"erf":                   func(x, _ float64) float64 { return math.Erf(x) },
	"sin":                   func(x, _ float64) float64 { return math.Sin(x) },
	"arctan":                func(x, _ float64) float64 { return math.Atan(x) },
	"gelu": func(x, _ float64) float64 {
		return 0.5 * x * (math.Erf(x/1.414213562373095) + 1)
	},
	"gelu_apprx_tanh": func(x, _ float64) float64 {
		return 0.5 * x * (math.Tanh((0.044715*x*x*x+x)*0.7978845608028654) + 1)
	},
	"gelu_apprx_sigmoid": func(x, _ float64) float64 { return x * sigmoid(1.702*x) },
	"derivative_gelu_apprx_sigmoid": func(x, _ float64) float64 {
		u := 1.702 * x
		if u > 700 {
			return 1
		}
		eu := math.Exp(u)
		return (u + eu + 1) * eu / ((eu + 1) * (eu + 1))
	},
	"derivative_gelu": func(x, _ float64) float64 {
		return 0.5*(math.Erf(x*0.7071067811865476)+1) + x*0.3989422804014327*math.Exp(-x*x/2)
	},
	"derivative_erf": func(x, _ float64) float64 { return math.Exp(-x*x) * 1.1283791670955126 },
	"mish":           func(x, _ float64) float64 { return x * math.Tanh(softplus(x)) },
	"silu":           func(x, _ float64) float64 { return x * sigmoid(x) },
	"derivative_silu": func(x, _ float64) float64 {
		s := sigmoid(x)
		return s * (1 + x*(1-s))
	},
	"derivative_sigmoid": func(x, _ float64) float64 { s := sigmoid(x); return s * (1 - s) },
	"derivative_tanh":    func(x, _ float64) float64 { t := math.Tanh(x); return 1 - t*t },
}

// Reference returns the function's float64 reference, or nil when the catalog has none.
func (f *Function) Reference() RefFunc { return References[f.Bare] }
