package pwp

// Built-in knowledge of the two shipped catalogs (spec §10). Everything here may be corrected
// later, so it is data: one table per fact, each saying where it comes from and how sure we are.

// Hero is a function with a real lookup table in a set, with its budget (the `_<N>p` suffix).
type Hero struct {
	Func   string
	Budget int
}

// CatalogSet is one row of a catalog's set table.
type CatalogSet struct {
	Index  int
	Name   string
	Heroes []Hero
	// Residents lists the budget-1 functions; nil means the catalog's universal resident list.
	Residents []string
	Funcs     int
	// Blob and profile sizes in bytes as the wiki gives them.
	BktBytes, CtrlBytes, JSONBytes int
}

// Catalog is one compiler-shipped family of sets.
type Catalog struct {
	Name       string
	CtrlStride int // bytes per <set>_ctrl.bin record in this catalog (§3)
	Residents  []string
	Sets       []CatalogSet
	Budgets    []int
	Confidence string
}

// BktEntries and CtrlEntries are the record counts the catalog sizes imply.
func (c *Catalog) BktEntries(s CatalogSet) int  { return s.BktBytes / BucketSize }
func (c *Catalog) CtrlEntries(s CatalogSet) int { return s.CtrlBytes / c.CtrlStride }

// trainiumResidents: the 13 budget-1 residents of every trainium set (§10.1 "U13"). [REAL]
var trainiumResidents = []string{"identity", "copy", "leaky_relu", "parametric_relu", "abs", "sign",
	"memset_zero", "relu", "derivative_relu", "derivative_leaky_relu", "derivative_identity", "is_finite", "square"}

// Trainium is pwp_bin_trainium, 21 sets (spec §10.1). Set names, heroes and order are REAL
// (roster aa8ea33a…); byte sizes are WIKI and match REAL for sets 0, 6, 14, 18.
var Trainium = &Catalog{
	Name:       "pwp_bin_trainium",
	CtrlStride: 32,
	Residents:  trainiumResidents,
	Budgets:    []int{1, 4, 32, 40, 400, 4096, 40000, 65536},
	Confidence: "high (real roster; sizes from the wiki, matched where real blobs exist)",
	Sets: []CatalogSet{
		{0, "exp_and_others", []Hero{{"exp", 400}, {"tanh", 4}}, nil, 15, 30112, 2848, 28093},
		{1, "softplus_and_others", []Hero{{"softplus", 40}}, nil, 14, 28288, 1952, 24207},
		{2, "sigmoid_and_others", []Hero{{"tanh", 4}, {"sigmoid", 40}, {"erf", 4}, {"arctan", 4}}, nil, 17, 38464, 2624, 31764},
		{3, "sqrt_and_others", []Hero{{"sqrt", 65536}}, nil, 14, 37408, 8128, 46870},
		{4, "small", nil, nil, 13, 1664, 640, 19534},
		{5, "natural_log", []Hero{{"ln", 40}}, nil, 14, 40800, 4736, 35257},
		{6, "natural_log_exp_and_others", []Hero{{"ln", 400}, {"exp", 400}}, nil, 15, 43200, 6400, 40548},
		{7, "sigmoid_derivative", []Hero{{"derivative_sigmoid", 40}}, nil, 14, 27296, 992, 22252},
		{8, "tanh_and_derivative", []Hero{{"tanh", 4}, {"derivative_tanh", 400}}, nil, 15, 17952, 1568, 25531},
		{9, "trig_and_small", []Hero{{"sin", 4}, {"arctan", 4}}, nil, 15, 9056, 1920, 26659},
		{10, "gelu_and_others", []Hero{{"gelu", 4}, {"derivative_gelu", 40}, {"tanh", 4}}, nil, 16, 25184, 2144, 28177},
		{11, "gelu_apprx_tanh_and_others", []Hero{{"gelu_apprx_tanh", 40}, {"tanh", 4}}, nil, 15, 35488, 1824, 25864},
		{12, "gelu_apprx_sigmoid_and_others", []Hero{{"gelu_apprx_sigmoid", 40}, {"tanh", 4}}, nil, 15, 38592, 1920, 26237},
		{13, "reciprocal_and_small", []Hero{{"reciprocal", 400}}, nil, 14, 34304, 3360, 30460},
		{14, "reciprocal_sqrt_and_small", []Hero{{"reciprocal_sqrt", 40000}}, nil, 14, 40256, 6560, 41653},
		{15, "abs_reciprocal_sqrt_and_small", []Hero{{"abs_reciprocal_sqrt", 40000}}, nil, 14, 40256, 6560, 41675},
		{16, "mish_and_others", []Hero{{"mish", 4}}, nil, 14, 36960, 1408, 23030},
		{17, "erf_derivative", []Hero{{"derivative_erf", 400}}, nil, 14, 16704, 960, 22120},
		{18, "silu_and_others", []Hero{{"silu", 32}, {"tanh", 4}, {"sin", 4}}, nil, 16, 36192, 2400, 29022},
		{19, "derivative_silu_and_others", []Hero{{"derivative_silu", 32}, {"tanh", 4}, {"sin", 4}}, nil, 16, 39392, 1984, 28457},
		{20, "derivative_gelu_apprx_sigmoid_and_others", []Hero{{"derivative_gelu_apprx_sigmoid", 4096}, {"tanh", 4}}, nil, 15, 46304, 1600, 25903},
	},
}

// with_ln resident groups (§10.2). [WIKI only; key order within the maps is unknown]
var (
	withLnSix   = []string{"identity", "leaky_relu", "parametric_relu", "relu", "abs", "sign"}
	withLnSmall = []string{"relu", "leaky_relu", "parametric_relu", "identity", "sign", "abs", "square"}
)

// WithLn is pwp_bin_with_ln, 14 sets (spec §10.2). WIKI only: no real files; ctrl stride 16.
var WithLn = &Catalog{
	Name:       "pwp_bin_with_ln",
	CtrlStride: 16, // unknown pwp.with-ln-stride
	Residents:  []string{"abs"},
	Budgets:    []int{1, 4, 40, 400, 40000, 65536},
	Confidence: "low (wiki only, no real files)",
	Sets: []CatalogSet{
		{0, "exp_and_others", []Hero{{"exp", 400}, {"tanh", 4}}, withLnSix, 8, 29216, 1248, 17539},
		{1, "sigmoid_and_others", []Hero{{"sigmoid", 40}, {"tanh", 4}}, withLnSix, 8, 29824, 592, 14797},
		{2, "softplus_tanh_and_others", []Hero{{"softplus", 40}, {"tanh", 4}}, withLnSix, 8, 30848, 1072, 16815},
		{3, "sqrt_and_others", []Hero{{"sqrt", 65536}}, []string{"identity", "leaky_relu", "parametric_relu", "relu", "sign", "abs", "square"}, 8, 36640, 3904, 37786},
		{4, "small", nil, withLnSmall, 7, 896, 160, 10474},
		{5, "natural_log", []Hero{{"ln", 40}}, []string{"abs"}, 2, 39264, 2080, 17249},
		{6, "gelu_and_others", []Hero{{"gelu", 4}, {"tanh", 4}}, withLnSix, 8, 20480, 752, 15249},
		{7, "gelu_apprx_tanh_and_others", []Hero{{"gelu_apprx_tanh", 40}, {"tanh", 4}}, withLnSix, 8, 34592, 736, 15264},
		{8, "gelu_apprx_sigmoid_and_others", []Hero{{"gelu_apprx_sigmoid", 40}, {"tanh", 4}}, withLnSix, 8, 37696, 784, 15637},
		{9, "mish_and_small", []Hero{{"mish", 4}}, withLnSix, 7, 36064, 528, 12428},
		{10, "reciprocal_and_small", []Hero{{"reciprocal", 400}}, []string{"parametric_relu", "sign", "abs", "square"}, 5, 33152, 1424, 16767},
		{11, "reciprocal_sqrt_and_small", []Hero{{"reciprocal_sqrt", 40000}}, []string{"identity", "square", "abs", "sign"}, 5, 39104, 3056, 28082},
		{12, "trig_and_small", []Hero{{"sin", 4}, {"arctan", 4}}, withLnSix, 8, 8160, 784, 16105},
		{13, "erf_and_others", []Hero{{"erf", 4}, {"tanh", 4}, {"sin", 4}}, []string{"relu", "abs", "leaky_relu", "parametric_relu", "identity", "sign", "square"}, 10, 8480, 752, 18573},
	},
}

// Catalogs lists the known catalogs, most likely first.
var Catalogs = []*Catalog{Trainium, WithLn}

// residentsOf returns the budget-1 functions of a catalog set.
func (c *Catalog) residentsOf(s CatalogSet) []string {
	if s.Residents != nil {
		return s.Residents
	}
	return c.Residents
}

// Set returns the catalog set of that name, or nil.
func (c *Catalog) Set(name string) *CatalogSet {
	for i := range c.Sets {
		if c.Sets[i].Name == name {
			return &c.Sets[i]
		}
	}
	return nil
}

// CatalogFunction is one function of the BIR ActivationFunctionType enum or of the rosters
// (spec §10.3 sizes, §10.4 codes).
type CatalogFunction struct {
	Name string // the pwp (roster) name
	BIR  string // bir::ActivationFunctionType name, "" when not in the enum
	Enum int    // enum value, -1 when not in the enum
	Code int    // silicon func code at Activation +0x23; -1 when unknown
	// LUT sizes by budget [DERIVED from blob sizes, §10.3]; 0 = LUT-less resident.
	LUT map[int]int
	// CtrlWords = declared octaves over both regions [DERIVED, §10.3].
	CtrlWords int
	// Domain is the input range the table is meant to be right on, with its evidence
	// (domain.go): the overview measures the error there, and the page and the CLI say
	// "outside the table's range" past it.
	Domain Domain
}

// Functions is the function catalog. Codes: WIKI .rodata remap, verified on real bundles for
// 1, 7, 29, 36, 128 and on real profiles for every resident (confidence high for those, medium
// otherwise). LUT sizes: DERIVED (high where a real blob exists: exp, tanh, ln 400, rsqrt).
var Functions = []CatalogFunction{
	{"identity", "Identity", 0, 1, map[int]int{1: 0}, 2, domainAll},
	{"square", "Square", 1, 30, map[int]int{1: 0}, 1, domainFolded},
	{"relu", "Relu", 2, 2, map[int]int{1: 0}, 2, domainAll},
	{"leaky_relu", "Lrelu", 3, 3, map[int]int{1: 0}, 2, domainAll},
	{"parametric_relu", "Prelu", 4, 4, map[int]int{1: 0}, 0, domainPrelu},
	{"sigmoid", "Sigmoid", 5, 5, map[int]int{40: 796}, 11, domainNoTable},
	{"tanh", "Tanh", 6, 6, map[int]int{4: 104}, 17, domainFolded},
	{"exp", "Exp", 7, 7, map[int]int{400: 777}, 52, domainAll},
	{"softplus", "Softplus", 8, 9, map[int]int{40: 828}, 41, domainNoTable},
	{"sqrt", "Sqrt", 9, 8, map[int]int{65536: 1113}, 234, domainNoTablePos},
	{"reciprocal_sqrt", "Rsqrt", 10, 29, map[int]int{40000: 1202}, 185, domainRsqrt},
	// ln: §10.3 [CONFLICT] resolved by the real natural_log_exp_and_others (ln_400p = 513).
	{"ln", "Ln", 11, 10, map[int]int{40: 1219, 400: 513}, 128, domainLn},
	{"erf", "Erf", 12, 21, map[int]int{4: 66}, 7, domainNoTable},
	{"sin", "Sin", 13, 19, map[int]int{4: 55}, 13, domainSin},
	{"arctan", "Arctan", 14, 28, map[int]int{4: 168}, 27, domainNoTable},
	{"sign", "Sign", 15, 31, map[int]int{1: 0}, 1, domainFolded},
	{"gelu", "Gelu", 16, 23, map[int]int{4: 504}, 21, domainNoTable},
	{"mish", "Mish", 17, 24, map[int]int{4: 1099}, 24, domainNoTable},
	{"gelu_apprx_tanh", "Gelu_apprx_tanh", 18, 25, map[int]int{40: 945}, 20, domainNoTable},
	{"gelu_apprx_sigmoid", "Gelu_apprx_sigmoid", 19, 26, map[int]int{40: 1042}, 23, domainNoTable},
	{"derivative_gelu_apprx_sigmoid", "Derivative_Gelu_apprx_sigmoid", 20, 38, map[int]int{4096: 1283}, 13, domainNoTable},
	{"derivative_gelu", "Derivative_Gelu", 21, 32, map[int]int{40: 115}, 9, domainNoTable},
	{"derivative_erf", "Derivative_Erf", 22, 22, map[int]int{400: 466}, 10, domainNoTable},
	{"copy", "Copy", 23, 128, map[int]int{1: 0}, 2, domainAll},
	{"abs", "Abs", 24, 33, map[int]int{1: 0}, 2, domainAll},
	{"reciprocal", "Reciprocal", 25, 129, map[int]int{400: 1016}, 85, domainNoTableRecip},
	{"abs_reciprocal_sqrt", "Abs_reciprocal_sqrt", 26, 34, map[int]int{40000: 1202}, 185, domainNoTableRecip},
	{"silu", "Silu", 27, 36, map[int]int{32: 908}, 25, domainNoTable},
	{"derivative_silu", "Derivative_silu", 28, 37, map[int]int{32: 1008}, 12, domainNoTable},
	{"is_finite", "Is_finite", 29, 35, map[int]int{1: 0}, 1, domainFolded},
	// Not in the BIR enum but in the rosters (codes REAL where given).
	{"memset_zero", "", -1, 130, map[int]int{1: 0}, 1, domainFolded},
	{"derivative_relu", "", -1, 12, map[int]int{1: 0}, 2, domainAll},
	{"derivative_leaky_relu", "", -1, 13, map[int]int{1: 0}, 2, domainAll},
	{"derivative_identity", "", -1, 11, map[int]int{1: 0}, 2, domainAll},
	{"derivative_sigmoid", "", -1, -1, map[int]int{40: 797}, 11, domainNoTable},
	{"derivative_tanh", "", -1, -1, map[int]int{400: 397}, 12, domainNoTable},
}

// CatalogFunctionNamed returns the catalog row of a bare function name, or nil.
func CatalogFunctionNamed(bare string) *CatalogFunction {
	for i := range Functions {
		if Functions[i].Name == bare {
			return &Functions[i]
		}
	}
	return nil
}

// preluFuncName: parametric_relu is evaluated as v>0 ? v : alpha·v, not from its table (§7.4).
// Detected by name or by fma_indirection_src_sel == 2 (unknown pwp.prelu-selectors).
const preluFuncName = "parametric_relu"
const preluIndirection = 2
