package pwp

import (
	"math"
	"strconv"
)

// Domain is the input range a function's table is meant to be right on, with its evidence.
// Real profiles record it as lower_bound/upper_bound; with symmetry_opt_en the bounds are of
// |x| after the fold (0 .. upper), so the domain is [−upper, upper].
type Domain struct {
	Lo, Hi     float64
	Evidence   string
	Confidence string
}

// Contains says whether x is inside the domain.
func (d Domain) Contains(x float64) bool { return x >= d.Lo && x <= d.Hi }

// Window is the part of the domain the overview measures a function's error on and the page's
// plot opens on: the domain clipped to [−8, 8], or to [1/16, 16] when it holds no negative
// input (the functions of positive inputs change over octaves, not units).
func (d Domain) Window() (lo, hi float64) {
	if d.Lo >= 0 {
		return math.Max(d.Lo, 1.0/16), math.Min(d.Hi, 16)
	}
	return math.Max(d.Lo, -8), math.Min(d.Hi, 8)
}

// String is "[lo, hi]" with FLT_MAX written as such.
func (d Domain) String() string { return "[" + boundText(d.Lo) + ", " + boundText(d.Hi) + "]" }

// Attr is "lo,hi" (shortest decimals that read back), the page's domain attribute.
func (d Domain) Attr() string {
	return strconv.FormatFloat(d.Lo, 'g', -1, 64) + "," + strconv.FormatFloat(d.Hi, 'g', -1, 64)
}

func boundText(v float64) string {
	switch v {
	case math.MaxFloat32:
		return "FLT_MAX"
	case -math.MaxFloat32:
		return "−FLT_MAX"
	}
	return strconv.FormatFloat(v, 'g', 8, 64)
}

// The domains of the catalog (CatalogFunction.Domain). Evidence [REAL]: the lower_bound and
// upper_bound of every function of the real exp_and_others, natural_log_exp_and_others and
// reciprocal_sqrt_and_small profiles (a test reads them: TestCatalogDomainsOnRealProfiles),
// and activation.md §5 for sin. Functions with no real table get their reference's domain.
var (
	domainAll = Domain{-math.MaxFloat32, math.MaxFloat32,
		"profile bounds −FLT_MAX/FLT_MAX (0xff7fffff/0x7f7fffff) [REAL]", "high"}
	domainFolded = Domain{-math.MaxFloat32, math.MaxFloat32,
		"profile bounds 0/FLT_MAX with symmetry_opt_en: bounds of |x| after the fold [REAL]", "high"}
	domainPrelu = Domain{-math.MaxFloat32, math.MaxFloat32,
		"profile bounds 0/0: evaluated as v > 0 ? v : alpha·v, not from the table (spec §7.4) [REAL]", "medium"}
	domainLn = Domain{0x1p-64, 0x1p64,
		"profile bounds 0x1f800000/0x5f800000 (2^−64/2^64) of ln_400p [REAL, activation.md §5]", "high"}
	domainRsqrt = Domain{0x1p-87, 0x1p97,
		"profile bounds 0x14000000/0x70000000 (2^−87/2^97) of reciprocal_sqrt_40000p [REAL, activation.md §5]", "high"}
	domainSin = Domain{-float64(float32(math.Pi)), float64(float32(math.Pi)),
		"profile bounds 0/0x40490fdb (π) with the odd fold: [−π, π] [REAL, activation.md §5; §13 'sin valid only on [−π, π]']", "high"}
	// No real table (unknown pwp.domain-no-table): the float64 reference's domain.
	domainNoTable = Domain{-math.MaxFloat32, math.MaxFloat32,
		"no real table: the float64 reference's domain, all reals", "low"}
	domainNoTablePos = Domain{0, math.MaxFloat32,
		"no real table: the float64 reference's domain, x ≥ 0", "low"}
	domainNoTableRecip = Domain{0x1p-87, 0x1p97,
		"no real table: assumed positive like reciprocal_sqrt_40000p's real bounds (2^−87/2^97)", "low"}
)

// DomainOf is the catalog domain of a bare function name; ok is false for a function the
// catalog does not list.
func DomainOf(bare string) (Domain, bool) {
	if c := CatalogFunctionNamed(bare); c != nil {
		return c.Domain, true
	}
	return Domain{}, false
}

// Domain is f's catalog domain (ok false: not in the catalog).
func (f *Function) Domain() (Domain, bool) { return DomainOf(f.Bare) }
