package manifest

import "strings"

// EngineKey is one engine slot of def.json.
type EngineKey struct {
	Token   string // def.json key: "pe", "act", ...
	Name    string // the name real members use: "PE", "Activation", ...
	Also    string // other names the engine goes by
	Runtime int    // libnrt engine index
}

// EngineKeys are def.json's engine keys in the fixed order libnrt reads them (spec neff.md
// §3.4, §4.1) [OBS; REAL for the names].
var EngineKeys = []EngineKey{
	{"pe", "PE", "Tensor engine", 0},
	{"act", "Activation", "Scalar engine (ACT)", 1},
	{"pool", "Pool", "GPSIMD engine (POOL)", 2},
	{"dve", "DVE", "Vector engine", 3},
	{"sp", "SP", "Sync engine (sequencer)", 4},
}

func engineKey(token string) (EngineKey, bool) {
	for _, e := range EngineKeys {
		if e.Token == token {
			return e, true
		}
	}
	return EngineKey{}, false
}

// Target is one kelf `target` string and the arch libnrt maps it to (spec neff.md §3.3) [OBS].
type Target struct {
	Target  string
	Arch    int
	Devices string
}

// Targets maps kelf-N.json `target` to the arch. Anything else is rejected by libnrt with
// "Invalid target" (status 2).
var Targets = []Target{
	{"sunda", 2, "sunda: Trn1 / Inf2"},
	{"v2", 2, "sunda: Trn1 / Inf2"},
	{"cayman", 3, "cayman: Trn2"},
	{"v3", 3, "cayman: Trn2"},
	{"mariana", 4, "mariana: gen-4"},
	{"v4", 4, "mariana: gen-4"},
	{"*", 0, "any: whatever device loads it"},
	{"", 2, "sunda (an empty target defaults to sunda)"},
}

func lookupTarget(s string) (Target, bool) {
	for _, t := range Targets {
		if t.Target == s {
			return t, true
		}
	}
	return Target{}, false
}

// DType is one dtype string of neff.json `attrs.dltype` (spec neff.md §3.2) [OBS].
type DType struct {
	Name  string
	Bytes int64
	NRT   int // libnrt nrt_dtype id
}

// DTypes are the dtype strings libnrt knows; anything else becomes UNKNOWN (0) with a warning.
var DTypes = []DType{
	{"float32", 4, 10}, {"float16", 2, 7}, {"bfloat16", 2, 6},
	{"int8", 1, 2}, {"int16", 2, 4}, {"int32", 4, 8}, {"int64", 8, 12},
	{"uint8", 1, 3}, {"uint16", 2, 5}, {"uint32", 4, 9}, {"uint64", 8, 1},
}

func lookupDType(s string) (DType, bool) {
	for _, d := range DTypes {
		if d.Name == s {
			return d, true
		}
	}
	return DType{}, false
}

// Sidecar is a member that the runtime or the tools find by name, so it is legitimately
// referred to by no manifest (spec neff.md §2.4 B, §3.6).
type Sidecar struct {
	Pattern string // member path, in the glob language of matchName (names.go)
	Role    string
}

// KnownSidecars lists members found by name, not through a reference [REAL roster, §2.4 B].
// Unknown-ID: manifest.sidecar-roster.
var KnownSidecars = []Sidecar{
	{"neff.json", "TVM graph: the model's inputs, outputs and device nodes (root of the chain)"},
	{"kelp.json", "legacy graph JSON read when neff.json is absent"},
	{"info.json", "compiler info mirrored in the header"},
	{"hlo_stats.json", "HLO statistics (the runtime reads the MAC count)"},
	{"metrics.json", "compiler metrics"},
	{"kernel_debug_info.json", "NKI debug-info index (NKI_DEBUG_INFO)"},
	{klirPattern, "NKI source debug-info tree"},
	{"{hlo_metrics,global_metric_store,loop,icMetadata,ucode_lib}.json", "producer metadata"},
	{"debug_info/**", "compiler debug information (protobuf)"},
	{"debug_info_pttf", "perf-sim debug tarball"},
	{tensorMapPattern, "tensor map (framework ↔ simulator shapes)"},
	{"{,**/}wavegraph-bin.json", "debug wavegraph (dropped by the loader)"},
	{"cpu.{so,params}", "custom-op host library"},
}

func sidecarRole(p string) (string, bool) {
	for _, s := range KnownSidecars {
		if matchName(s.Pattern, p) {
			return s.Role, true
		}
	}
	return "", false
}

// note is an explanation of a JSON key, matched by path pattern ("*" = any one segment).
type note struct {
	path string
	text string
}

// keyNotes explain JSON keys per member kind; the page shows them as Detail text. Sources are
// the spec sections named per block; a key not listed here is shown raw.
var keyNotes = map[string][]note{
	"neff.json": { // spec neff.md §3.2
		{"nodes", "TVM graph nodes: op \"null\" = a model input; the device node has attrs.func_name \"__kelf\""},
		{"nodes/*/attrs/kelf", "the KELF descriptor member this device node runs"},
		{"nodes/*/attrs/func_name", "\"__kelf\" marks the device node libnrt looks for"},
		{"nodes/*/attrs/num_inputs", "number of tensors into the device node (TVM attrs are strings)"},
		{"nodes/*/attrs/num_outputs", "number of tensors out of the device node"},
		{"nodes/*/inputs", "[node, output index, version] triples feeding this node"},
		{"nodes/*/output_names", "names of the node's outputs, by output index"},
		{"arg_nodes", "node ids of the model inputs, in input order"},
		{"heads", "model outputs as [node, output index, version]"},
		{"node_row_ptr", "entry id of a node's first output: EID = node_row_ptr[node] + output index"},
		{"attrs/dltype", "dtype of every entry, indexed by EID"},
		{"attrs/shape", "shape of every entry, indexed by EID"},
		{"attrs/storage_id", "storage slot of every entry, indexed by EID"},
		{"metadata/signatures", "the framework-facing signature: inputs and outputs by name"},
	},
	"kelf": { // spec neff.md §3.3
		{"graphs", "one per core: the def.json of each subgraph"},
		{"graphs/*/definition", "member path of this core's def.json"},
		{"graphs/*/name", "subgraph (core) name"},
		{"version", "KELF version, logged by the runtime, not checked"},
		{"target", "the arch the NEFF was compiled for; libnrt refuses a NEFF for another arch"},
	},
	"def.json": { // spec neff.md §3.4
		{"var", "variables (tensors and buffers) of this core, keyed by name"},
		{"var/*/type", "memory kind: input, output, state-buffer, file, virtual, dge-table, ..."},
		{"var/*/var_id", "dense id 0..N-1 that instructions and DGE tables use"},
		{"var/*/size", "bytes"},
		{"var/*/file_name", "member in this subgraph directory holding the variable's initial bytes"},
		{"var/*/alignment", "required alignment in bytes (a power of 2)"},
		{"var/*/list", "var_ids this table lists"},
		{"var/*/backing_variable_off", "byte offset inside the backing variable"},
		{"dma_queue", "DMA queues, keyed by name; engine JSON dma blocks name them"},
		{"dma_queue/*/owner", "engine that triggers this queue"},
		{"dma_queue/*/num_queues", "hardware rings behind the name (at most 16)"},
		{"dma_queue/*/semaphore_set", "semaphores the queue's rings signal"},
		{"dma_queue/*/type", "in, out, data, dynamic, embedding_update, act_load"},
		{"neff_features", "feature names; the header's feature_bits mask is authoritative"},
		{"pe", "PE (Tensor engine) JSON member"},
		{"act", "Activation (Scalar engine) JSON member"},
		{"pool", "Pool (GPSIMD engine) JSON member"},
		{"dve", "DVE (Vector engine) JSON member"},
		{"sp", "SP (Sync engine) JSON member"},
		{"pe_instr", "PE instruction stream member"},
		{"act_instr", "Activation instruction stream member"},
		{"pool_instr", "Pool instruction stream member"},
		{"dve_instr", "DVE instruction stream member"},
		{"sp_instr", "SP instruction stream member"},
		{"cc_streams", "collective-communication streams"},
		{"replica_groups", "collective replica groups (3-D list of ranks)"},
		{"src_target_pairs", "collective permute pairs"},
		{"#rank_world_size", "collective world size hint"},
		{"runtime_statebuffer_reservation", "state-buffer ranges the runtime reserves (required on cayman)"},
		{"runtime_event_count", "events the runtime reserves"},
		{"runtime_semaphore_count", "semaphores the runtime reserves"},
		{"fp8_conversion_config", "FP8 conversion settings"},
		{"ucode_lib", "GPSIMD custom-op µcode libraries"},
		{"version", "def.json schema version"},
	},
	"engine": { // spec neff.md §3.5
		{"instr", "instruction stream member (64-byte words)"},
		{"dma", "DMA blocks; an instruction triggers a block by queue and id"},
		{"dma/*/id", "block id, unique per queue; the trigger instruction carries it"},
		{"dma/*/queue", "def.json dma_queue this block runs on"},
		{"dma/*/semaphore", "semaphore signalled when the block completes"},
		{"dma/*/desc", "descriptors: what moves from where to where"},
		{"dma/*/desc/*/from", "source variable (def.json var)"},
		{"dma/*/desc/*/to", "destination variable (def.json var)"},
		{"dma/*/desc/*/from_sizes", "bytes per dimension, innermost first"},
		{"dma/*/desc/*/from_steps", "stride per dimension in bytes, innermost first"},
		{"dma/*/desc/*/to_sizes", "bytes per dimension, innermost first"},
		{"dma/*/desc/*/to_steps", "stride per dimension in bytes, innermost first"},
		{"dma/*/desc/*/from_off", "byte offset into the source variable"},
		{"dma/*/desc/*/to_off", "byte offset into the destination variable"},
		{"activation_function_sets", "activation table sets this core may load; index = ActivationTableLoad (0x23) set index"},
		{"act_info", "the activation-set roster member"},
		{"act_semaphore", "semaphore the activation-table loads use"},
		{"dve_tables", "DVE microcode tables (members)"},
	},
	"info.json": { // spec neff.md §3.6
		{"tool_version", "neuronx-cc version that compiled the NEFF"},
		{"name", "network name, mirrored at header offset 0xDC"},
		{"num_tpb", "NeuronCores required, mirrored at header offset 0xA8"},
		{"num_tpb_requested", "NeuronCores requested, mirrored at header offset 0x1DC"},
		{"num_tpb_per_node", "cores per kelf node, mirrored at header offset 0x1E0"},
	},
	"hlo_stats.json": { // spec neff.md §3.6
		{"HloMacCount", "multiply-accumulates in the HLO graph (the value the runtime most likely reads)"},
		{"ArithmeticIntensity", "MACs per byte of traffic"},
		{"Traffic", "bytes moved"},
	},
}

// matchNote finds the explanation for a key path in a member kind. Array positions arrive
// as "*"; "*" in a note matches any one segment.
func matchNote(kind string, path []string) string {
	for _, n := range keyNotes[kind] {
		if segmentsMatch(n.path, path) {
			return n.text
		}
	}
	return ""
}

func segmentsMatch(pattern string, path []string) bool {
	for i, p := range path {
		seg, rest, more := strings.Cut(pattern, "/")
		if seg != "*" && seg != p {
			return false
		}
		if more != (i < len(path)-1) {
			return false
		}
		pattern = rest
	}
	return true
}
