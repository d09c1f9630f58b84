package isa

// Value tables for enumerated instruction bytes. Each is data, one fact per table, with its
// source; a code not in a table is shown raw.

type enumRow struct {
	Code uint32
	Name string
}

// dtypeTags are the wire dtype tags and the bytes of one element (neff.md §4.4, activation.md
// §11.2) [OBS; REAL for 6, 7, 10 seen in real Activate/Copy/Cast words]. 3 is also e8m0 and 5
// was fp4x4 before gen-4 (unknowns: isa.dtype-tag-overlap); fp4x4 packs four values in a
// 16-bit word, so its size per element is not a whole byte (0: not known).
var dtypeTags = []dtypeRow{
	{1, "uint64", 8},
	{2, "int8", 1},
	{3, "uint8", 1}, // also e8m0 (gen-4 MX scale)
	{4, "int16", 2},
	{5, "uint16", 2}, // fp4x4 before gen-4
	{6, "bf16", 2},
	{7, "fp16", 2},
	{8, "int32", 4},
	{9, "uint32", 4},
	{10, "fp32", 4},
	{11, "fp32r", 4},
	{12, "int64", 8},
	{13, "fp8e3", 1},
	{14, "fp8e4", 1},
	{15, "fp8e5", 1},
	{16, "fp4x4", 0}, // gen-4
}

// dtypeRow is a dtype tag, its name and its element size.
type dtypeRow struct {
	Code  uint8
	Name  string
	Bytes uint8
}

// aluOps are the ALU op bytes (neff.md §4.4) [OBS]; fixture 0xC8 carries ADD = 4 [OBS].
var aluOps = []enumRow{
	{0, "bypass"}, {1, "not"}, {2, "shl"}, {3, "shr"}, {4, "add"}, {5, "sub"}, {6, "mult"},
	{7, "div"}, {8, "max"}, {9, "min"}, {10, "and"}, {11, "or"}, {12, "xor"}, {13, "land"},
	{14, "lor"}, {15, "lxor"}, {16, "lsl"}, {17, "lsr"}, {18, "is_equal"},
	{0x13, "is_gt"}, {0x14, "is_ge"}, {0x15, "is_le"}, {0x16, "is_lt"}, {0x18, "not_equal"},
	{0x19, "abs"}, {0x1A, "pow"}, {0x1B, "mod"}, {0x1D, "rsqrt"}, {0x20, "abs_max"},
	{0x21, "abs_min"}, {0xC8, "mod_int"},
}

// accumulatorCommands are Activate's +0x0E wire values (neff.md §4.5) [OBS]. Real 2.18/2.23
// words carry 0 (activation.md §11.2) [REAL].
var accumulatorCommands = []enumRow{
	{0, "idle"}, {1, "zero"}, {2, "add-accumulate"}, {3, "load"}, {4, "load-accumulate"},
}

// imm0Sources are Activate's +0x0F values (neff.md §4.5) [OBS].
var imm0Sources = []enumRow{
	{0, "pointer"}, // SBUF/PSUM pointer
	{1, "float"},   // inline float32
	{2, "register"},
}

// collectiveKinds are PseudoTriggerCollective's +0x20 values (neff.md §4.5) [OBS; fixture 1].
var collectiveKinds = []enumRow{
	{1, "AllReduce"}, {2, "ReduceScatter"}, {3, "AllGather"}, {4, "AllToAll"}, {5, "Permute"},
	{6, "PermuteReduce"}, {7, "PermuteImplicit"}, {8, "PermuteReduceImplicit"}, {9, "AllToAllV"},
}

// traceModes are debug_cmd bits[1:0] (neff.md §4.2) [OBS].
var traceModes = []enumRow{{0, "off"}, {1, "on start"}, {2, "on end"}, {3, "on start and end"}}

// actFuncHints name activation function codes through the compiler's .rodata remap table
// (activation.md §10.4, verified against the real profiles' func_id) [REAL for 1, 7, 10, 29,
// 36, 128; WIKI for the rest]. These are hints only: the authoritative name is the resident
// set's profile_meta_data entry with that func_id (joined in core/inspect; unknowns:
// isa.act-func-names).
var actFuncHints = []enumRow{
	{1, "identity"}, {30, "square"}, {2, "relu"}, {3, "leaky_relu"}, {4, "parametric_relu"},
	{5, "sigmoid"}, {6, "tanh"}, {7, "exp"}, {9, "softplus"}, {8, "sqrt"},
	{29, "reciprocal_sqrt"}, {10, "ln"}, {21, "erf"}, {19, "sin"}, {28, "arctan"},
	{31, "sign"}, {23, "gelu"}, {24, "mish"}, {25, "gelu_apprx_tanh"},
	{26, "gelu_apprx_sigmoid"}, {38, "derivative_gelu_apprx_sigmoid"},
	{32, "derivative_gelu"}, {22, "derivative_erf"}, {128, "copy"}, {33, "abs"},
	{129, "reciprocal"}, {34, "abs_reciprocal_sqrt"}, {36, "silu"}, {37, "derivative_silu"},
	{35, "is_finite"},
	// Not in the BIR enum but in rosters with real func_ids (activation.md §10.4) [REAL].
	{130, "memset_zero"}, {12, "derivative_relu"}, {13, "derivative_leaky_relu"},
	{11, "derivative_identity"},
}

// Render kinds of a sync-band mode.
const (
	syncNone     = iota // nothing to show (no wait / no update)
	syncGtZero          // S[n] > 0
	syncGeImm           // S[n] >= value
	syncGeReg           // S[n] >= R<value>
	syncInc             // increment S[n]
	syncSetMaybe        // raw 0 with a semaphore: the compiler wiki's "set"
)

type modeRow struct {
	Code   uint8
	Name   string
	Render int
}

// waitModes decode +0x04 (neff.md §4.2, §7.12; unknowns: isa.wait-mode-encoding).
var waitModes = []modeRow{
	{0x00, "none", syncNone},         // real words with no dependency carry 0 [REAL]
	{0x04, "S>0", syncGtZero},        // fixture "$S[11]>0" [OBS]
	{0x05, "S>=imm", syncGeImm},      // compiler table, real 2.18–2.23 words [REAL]
	{0x85, "S>=register", syncGeReg}, // compiler wiki only [OBS]
}

// updateModes decode +0x06 (neff.md §4.2, §7.12; unknowns: isa.update-mode-encoding).
var updateModes = []modeRow{
	{0x00, "none", syncNone},     // real: 0 with update semaphore 0 [REAL]; compiler wiki: raw 0 = set
	{0x01, "increment", syncInc}, // compiler wiki raw 1 [OBS]
	{0x13, "increment", syncInc}, // "increment on completion": fixture and real 2.18–2.23 [REAL]
}

type enumIndex struct {
	names [256]string
	known [256]bool
}

func indexEnum(rows []enumRow) *enumIndex {
	e := &enumIndex{}
	for _, r := range rows {
		if r.Code < 256 {
			e.names[r.Code], e.known[r.Code] = r.Name, true
		}
	}
	return e
}

func (e *enumIndex) lookup(v uint64) (string, bool) {
	if v < 256 && e.known[v] {
		return e.names[v], true
	}
	return "", false
}

var (
	dtypeIndex = indexEnum(func() (rows []enumRow) {
		for _, r := range dtypeTags {
			rows = append(rows, enumRow{uint32(r.Code), r.Name})
		}
		return rows
	}())
	aluIndex        = indexEnum(aluOps)
	accIndex        = indexEnum(accumulatorCommands)
	imm0Index       = indexEnum(imm0Sources)
	collectiveIndex = indexEnum(collectiveKinds)
	traceIndex      = indexEnum(traceModes)
	actFuncIndex    = indexEnum(actFuncHints)
	waitModeIndex   [256]*modeRow
	updateModeIndex [256]*modeRow
)

func init() {
	for i := range waitModes {
		waitModeIndex[waitModes[i].Code] = &waitModes[i]
	}
	for i := range updateModes {
		updateModeIndex[updateModes[i].Code] = &updateModes[i]
	}
}

// ActFuncHint names an activation function code from the compiler's remap table. It is a
// hint: resolve through the resident set's func_id where the set is known.
func ActFuncHint(code uint8) (string, bool) { return actFuncIndex.lookup(uint64(code)) }

// DtypeName names a wire dtype tag.
func DtypeName(tag uint8) (string, bool) { return dtypeIndex.lookup(uint64(tag)) }
