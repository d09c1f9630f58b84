package manifest

import "strings"

// KeyMeaning is one row of the table of JSON key meanings: a key path pattern of one member
// kind, what its value means, how sure that is, and where it is documented. A JSON value whose
// path a row matches is a named field (its node's Detail says what it means; the coverage
// report counts it as named); a value no row matches stays a generic JSON value.
//
// Path segments are keys; "*" matches any one segment (an array position or a key that is data,
// such as a variable name), "**" any number of segments (recursive trees). "" is the member
// itself. Rows are matched in order; the first match wins.
type KeyMeaning struct {
	Kind       string // member kind, as the resolver loads it: neff.json, kelf, def.json, engine, ...
	Path       string
	Meaning    string
	Confidence string // high / medium / low; below high the Detail says so
	Spec       string // spec section, or the evidence the row rests on
	Unknown    string // the unknowns row a guess is recorded as
}

const (
	specNeff   = "neff.md §3.2"
	specKelf   = "neff.md §3.3"
	specDef    = "neff.md §3.4"
	specEngine = "neff.md §3.5"
	specSide   = "neff.md §3.6"
	specRoster = "activation.md §1"
	specProf   = "activation.md §4"
	specPMD    = "activation.md §5"
)

// KeyMeanings is the data table. (A slice, not a map: laid out as data, no init code in the wasm.)
var KeyMeanings = [...]KeyMeaning{
	// neff.json: the TVM graph (spec neff.md §3.2)
	{"neff.json", "", "TVM graph of the model: inputs, outputs, and the device nodes that run a KELF", "high", specNeff, ""},
	{"neff.json", "nodes", "TVM graph nodes: op \"null\" = a model input; the device node has attrs.func_name \"__kelf\"", "high", specNeff, ""},
	{"neff.json", "nodes/*", "one graph node", "high", specNeff, ""},
	{"neff.json", "nodes/*/op", "node operator: \"null\" = a model input, \"tvm_op\" = a device node", "high", specNeff, ""},
	{"neff.json", "nodes/*/name", "node name: an input's name, or the device node's (sg_coreV10 = core 0)", "high", specNeff, ""},
	{"neff.json", "nodes/*/is_param", "TVM parameter flag of an input node (\"0\" = a runtime input; \"0\" in every real file)", "medium", specNeff, ""},
	{"neff.json", "nodes/*/attrs", "TVM node attributes (all values are strings)", "high", specNeff, ""},
	{"neff.json", "nodes/*/attrs/kelf", "the KELF descriptor member this device node runs", "high", specNeff, ""},
	{"neff.json", "nodes/*/attrs/func_name", "\"__kelf\" marks the device node libnrt looks for", "high", specNeff, ""},
	{"neff.json", "nodes/*/attrs/num_inputs", "number of tensors into the device node (TVM attrs are strings)", "high", specNeff, ""},
	{"neff.json", "nodes/*/attrs/num_outputs", "number of tensors out of the device node", "high", specNeff, ""},
	{"neff.json", "nodes/*/attrs/flatten_data", "TVM flag: flatten the inputs before the call (\"0\" in every real file)", "medium", specNeff, ""},
	{"neff.json", "nodes/*/inputs", "[node, output index, version] triples feeding this node", "high", specNeff, ""},
	{"neff.json", "nodes/*/output_names", "names of the node's outputs, by output index", "high", specNeff, ""},
	{"neff.json", "arg_nodes", "node ids of the model inputs, in input order", "high", specNeff, ""},
	{"neff.json", "heads", "model outputs as [node, output index, version]", "high", specNeff, ""},
	{"neff.json", "node_row_ptr", "entry id of a node's first output: EID = node_row_ptr[node] + output index", "high", specNeff, ""},
	{"neff.json", "attrs", "per-entry attributes, each [\"list_<type>\", values by EID]", "high", specNeff, ""},
	{"neff.json", "attrs/dltype", "dtype of every entry, indexed by EID", "high", specNeff, ""},
	{"neff.json", "attrs/shape", "shape of every entry, indexed by EID", "high", specNeff, ""},
	{"neff.json", "attrs/storage_id", "storage slot of every entry, indexed by EID", "high", specNeff, ""},
	{"neff.json", "metadata", "framework-facing metadata", "high", specNeff, ""},
	{"neff.json", "metadata/signatures", "the framework-facing signatures: inputs and outputs by name", "high", specNeff, ""},
	{"neff.json", "metadata/signatures/*", "one signature (\"default\")", "high", specNeff, ""},
	{"neff.json", "metadata/signatures/*/inputs", "the signature's inputs, by name", "high", specNeff, ""},
	{"neff.json", "metadata/signatures/*/outputs", "the signature's outputs, by name ({} in every real file: outputs come from heads)", "high", specNeff, "manifest.signature-outputs"},
	{"neff.json", "metadata/signatures/*/*/*", "one input or output of the signature", "high", specNeff, ""},
	{"neff.json", "metadata/signatures/*/*/*/id", "its position among the model's inputs", "high", specNeff, ""},
	{"neff.json", "metadata/signatures/*/*/*/dtype", "its dtype", "high", specNeff, ""},
	{"neff.json", "metadata/signatures/*/*/*/shape", "its shape", "high", specNeff, ""},

	// kelf-N.json (§3.3)
	{"kelf", "", "KELF descriptor: the target arch and one def.json per core", "high", specKelf, ""},
	{"kelf", "graphs", "one per core: the def.json of each subgraph", "high", specKelf, ""},
	{"kelf", "graphs/*", "one core's subgraph", "high", specKelf, ""},
	{"kelf", "graphs/*/definition", "member path of this core's def.json", "high", specKelf, ""},
	{"kelf", "graphs/*/name", "subgraph (core) name", "high", specKelf, ""},
	{"kelf", "version", "KELF version, logged by the runtime, not checked", "high", specKelf, ""},
	{"kelf", "target", "the arch the NEFF was compiled for; libnrt refuses a NEFF for another arch", "high", specKelf, ""},

	// sgNN/def.json (§3.4)
	{"def.json", "", "one core's definition: variables, DMA queues, engine members", "high", specDef, ""},
	{"def.json", "var", "variables (tensors and buffers) of this core, keyed by name", "high", specDef, ""},
	{"def.json", "var/*", "one variable", "high", specDef, ""},
	{"def.json", "var/*/type", "memory kind: input, output, state-buffer, file, virtual, dge-table, ...", "high", specDef, ""},
	{"def.json", "var/*/var_id", "dense id 0..N-1 that instructions and DGE tables use", "high", specDef, ""},
	{"def.json", "var/*/size", "bytes", "high", specDef, ""},
	{"def.json", "var/*/file_name", "member in this subgraph directory holding the variable's initial bytes", "high", specDef, ""},
	{"def.json", "var/*/alignment", "required alignment in bytes (a power of 2)", "high", specDef, ""},
	{"def.json", "var/*/list", "var_ids this table lists", "high", specDef, ""},
	{"def.json", "var/*/backing_variable_off", "byte offset inside the backing variable", "high", specDef, ""},
	{"def.json", "var/*/fabric_path", "memory path the variable is reached by (main / alt)", "high", specDef, ""},
	{"def.json", "var/*/ops", "operations on the variable ([] in every real file)", "low", specDef, "manifest.json-key-guesses"},
	{"def.json", "dma_queue", "DMA queues, keyed by name; engine JSON dma blocks name them", "high", specDef, ""},
	{"def.json", "dma_queue/*", "one DMA queue", "high", specDef, ""},
	{"def.json", "dma_queue/*/owner", "engine that triggers this queue", "high", specDef, ""},
	{"def.json", "dma_queue/*/num_queues", "hardware rings behind the name (at most 16)", "high", specDef, ""},
	{"def.json", "dma_queue/*/semaphore_set", "semaphores the queue's rings signal", "high", specDef, ""},
	{"def.json", "dma_queue/*/type", "in, out, data, dynamic, embedding_update, act_load", "high", specDef, ""},
	{"def.json", "dma_queue/*/fabric_path", "memory path the queue moves data over (main / alt)", "high", specDef, ""},
	{"def.json", "dma_queue/*/dynamic_dma", "settings of a dynamic (DGE) queue", "high", specDef, ""},
	{"def.json", "dma_queue/*/dynamic_dma/SB_scratch_partition_offset", "byte offset of the state-buffer scratch area per partition the dynamic queue uses", "medium", specDef, "manifest.json-key-guesses"},
	{"def.json", "dma_queue/*/dynamic_dma/SB_scratch_partition_size", "bytes of that scratch area per partition", "medium", specDef, "manifest.json-key-guesses"},
	{"def.json", "neff_features", "feature names; the header's feature_bits mask is authoritative", "high", specDef, ""},
	{"def.json", "pe", "PE (Tensor engine) JSON member", "high", specDef, ""},
	{"def.json", "act", "Activation (Scalar engine) JSON member", "high", specDef, ""},
	{"def.json", "pool", "Pool (GPSIMD engine) JSON member", "high", specDef, ""},
	{"def.json", "dve", "DVE (Vector engine) JSON member", "high", specDef, ""},
	{"def.json", "sp", "SP (Sync engine) JSON member", "high", specDef, ""},
	{"def.json", "pe_instr", "PE instruction stream member", "high", specDef, ""},
	{"def.json", "act_instr", "Activation instruction stream member", "high", specDef, ""},
	{"def.json", "pool_instr", "Pool instruction stream member", "high", specDef, ""},
	{"def.json", "dve_instr", "DVE instruction stream member", "high", specDef, ""},
	{"def.json", "sp_instr", "SP instruction stream member", "high", specDef, ""},
	{"def.json", "*_asm_dbg", "the engine's asm debug-info members (debug_info_asm_<Engine>.dbg, one record per instruction word)", "high", specDef + "; every real def.json", ""},
	{"def.json", "*_dbg", "the engine's backend debug-info members (debug_info_backend_<Engine>.dbg; dma_dbg: the DMA one)", "high", specDef + "; every real def.json", ""},
	{"def.json", "debug_info", "debug-info members ({wavegraph: …} in old files; {} in every real file)", "high", specDef, ""},
	{"def.json", "cc_streams", "collective-communication streams", "high", specDef, ""},
	{"def.json", "cc_streams/num_streams", "number of collective-communication streams (0 in every real file)", "high", specDef, ""},
	{"def.json", "replica_groups", "collective replica groups (3-D list of ranks)", "high", specDef, ""},
	{"def.json", "src_target_pairs", "collective permute pairs", "high", specDef, ""},
	{"def.json", "#rank_world_size", "collective world size hint", "high", specDef, ""},
	{"def.json", "runtime_statebuffer_reservation", "state-buffer ranges the runtime reserves (required on cayman)", "high", specDef, ""},
	{"def.json", "runtime_statebuffer_reservation/*", "one reserved range", "high", specDef, ""},
	{"def.json", "runtime_statebuffer_reservation/*/type", "what the range is for (only \"evtaccel\" seen)", "high", specDef, ""},
	{"def.json", "runtime_statebuffer_reservation/*/offset", "byte offset in each partition", "high", specDef, ""},
	{"def.json", "runtime_statebuffer_reservation/*/size", "bytes per partition", "high", specDef, ""},
	{"def.json", "runtime_statebuffer_reservation/*/base_partition", "first partition", "high", specDef, ""},
	{"def.json", "runtime_statebuffer_reservation/*/partitions", "number of partitions", "high", specDef, ""},
	{"def.json", "runtime_event_count", "events the runtime reserves", "high", specDef, ""},
	{"def.json", "runtime_semaphore_count", "semaphores the runtime reserves", "high", specDef, ""},
	{"def.json", "fp8_conversion_config", "FP8 conversion settings", "high", specDef, ""},
	{"def.json", "fp8_conversion_config/fp8_range_extension", "FP8 range extension on", "high", specDef, ""},
	{"def.json", "fp8_conversion_config/emax_fp8_e4m3", "largest exponent of the FP8 E4M3 format", "high", specDef, ""},
	{"def.json", "fp8_conversion_config/emax_fp8_e5m2", "largest exponent of the FP8 E5M2 format", "high", specDef, ""},
	{"def.json", "fp8_conversion_config/ocp_sat", "saturate as the OCP FP8 specification says", "high", specDef, ""},
	{"def.json", "fp8_conversion_config/fp8_sis", "FP8 conversion flag \"sis\" (false in every real file)", "low", specDef, "manifest.json-key-guesses"},
	{"def.json", "fp8_conversion_config/fp8_sns", "FP8 conversion flag \"sns\" (false in every real file)", "low", specDef, "manifest.json-key-guesses"},
	{"def.json", "ucode_lib", "GPSIMD custom-op µcode libraries", "high", specDef, ""},
	{"def.json", "name", "\"definition\"", "high", specDef, ""},
	{"def.json", "version", "def.json schema version", "high", specDef, ""},

	// engine JSONs (§3.5)
	{"engine", "", "one engine's member: its instruction stream, DMA blocks and tables", "high", specEngine, ""},
	{"engine", "name", "the member's own file name", "high", specEngine, ""},
	{"engine", "instr", "instruction stream member (64-byte words)", "high", specEngine, ""},
	{"engine", "dma", "DMA blocks; an instruction triggers a block by queue and id", "high", specEngine, ""},
	{"engine", "dma/*", "one DMA block", "high", specEngine, ""},
	{"engine", "dma/*/id", "block id, unique per queue; the trigger instruction carries it", "high", specEngine, ""},
	{"engine", "dma/*/queue", "def.json dma_queue this block runs on", "high", specEngine, ""},
	{"engine", "dma/*/semaphore", "semaphore signalled when the block completes", "high", specEngine, ""},
	{"engine", "dma/*/#comment", "the compiler's comment on the block (a hint, not read by the runtime)", "high", specEngine, ""},
	{"engine", "dma/*/desc", "descriptors: what moves from where to where", "high", specEngine, ""},
	{"engine", "dma/*/desc/*", "one descriptor", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/op", "operation: copy (default), fma, cast, add, min, max, transpose", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/from", "source variable (def.json var)", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/to", "destination variable (def.json var)", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/from_dtype", "element type read from the source", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/to_dtype", "element type written to the destination", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/num_tiling_dimensions", "dimensions the descriptor tiles over", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/from_sizes", "bytes per dimension, innermost first", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/from_steps", "stride per dimension in bytes, innermost first", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/to_sizes", "bytes per dimension, innermost first", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/to_steps", "stride per dimension in bytes, innermost first", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/from_off", "byte offset into the source variable", "high", specEngine, ""},
	{"engine", "dma/*/desc/*/to_off", "byte offset into the destination variable", "high", specEngine, ""},
	{"engine", "activation_function_sets", "activation table sets this core may load; index = ActivationTableLoad (0x23) set index", "high", specEngine, ""},
	{"engine", "act_info", "the activation-set roster member", "high", specEngine, ""},
	{"engine", "act_semaphore", "semaphore the activation-table loads use", "high", specEngine, ""},
	{"engine", "dve_tables", "DVE microcode tables (members)", "high", specEngine, ""},
	{"engine", "dve_tables/*", "one set of DVE tables", "high", specEngine, ""},
	{"engine", "dve_tables/*/*", "a DVE table member (control, control_fast, control_slow, datapath, opcode)", "high", specEngine, ""},

	// act_info.json, the activation-set roster (activation.md §1)
	{"act_info", "", "activation-set roster: every set of the compiler's catalogue with its members and functions", "high", specRoster, ""},
	{"act_info", "pwp_file_keys", "the keys of a set entry that name its files: bkt_bin, ctrl_bin, profile_json", "high", specRoster, ""},
	{"act_info", "act_func_sets", "the catalogue's activation-function sets", "high", specRoster, ""},
	{"act_info", "act_func_sets/*", "one set", "high", specRoster, ""},
	{"act_info", "act_func_sets/*/name", "the set's name (what Activation.json activation_function_sets lists)", "high", specRoster, ""},
	{"act_info", "act_func_sets/*/bkt_bin", "the set's bucket member (<set>_bkt.bin)", "high", specRoster, ""},
	{"act_info", "act_func_sets/*/ctrl_bin", "the set's control member (<set>_ctrl.bin)", "high", specRoster, ""},
	{"act_info", "act_func_sets/*/profile_json", "the set's profile member (<set>.json)", "high", specRoster, ""},
	{"act_info", "act_func_sets/*/act", "the set's functions in table order, each with its budget (1 = LUT-less resident, > 1 = a table)", "high", specRoster, ""},
	{"act_info", "act_func_sets/*/act/*", "a function's budget", "high", specRoster, ""},

	// <set>.json, the per-set profile (activation.md §4, §5)
	{"act_profile", "", "an activation set's profile: where each function's table blocks start and its 30 evaluation fields", "high", specProf, ""},
	{"act_profile", "bkt_bin", "the set's bucket member", "high", specProf, ""},
	{"act_profile", "ctl_bin", "the set's control member", "high", specProf, ""},
	{"act_profile", "bkt_entry_cnt", "records in the bucket member", "high", specProf, ""},
	{"act_profile", "ctl_entry_cnt", "words in the control member", "high", specProf, ""},
	{"act_profile", "func_to_bkt_start_idx", "start of each function's bucket block", "high", specProf, ""},
	{"act_profile", "func_to_bkt_start_idx/*", "the function's first bucket record", "high", specProf, ""},
	{"act_profile", "func_to_ctl_start_idx", "start of each function's control block (= its pwl_control_base_neg)", "high", specProf, ""},
	{"act_profile", "func_to_ctl_start_idx/*", "the function's first control word", "high", specProf, ""},
	{"act_profile", "func_exp_to_bkt_start_idx", "per function and octave: bucket bases, [neg, pos] regions that declare it", "high", specProf, ""},
	{"act_profile", "func_exp_to_bkt_start_idx/*", "one function's octaves (unbiased exponents, ascending)", "high", specProf, ""},
	{"act_profile", "func_exp_to_bkt_start_idx/*/*", "the octave's bucket bases", "high", specProf, ""},
	{"act_profile", "func_exp_to_ctl_start_idx", "per function and octave: control-word indexes, [neg, pos] regions that declare it", "high", specProf, ""},
	{"act_profile", "func_exp_to_ctl_start_idx/*", "one function's octaves (unbiased exponents, ascending)", "high", specProf, ""},
	{"act_profile", "func_exp_to_ctl_start_idx/*/*", "the octave's control-word indexes", "high", specProf, ""},
	{"act_profile", "profile_meta_data", "one 30-field record per function, in roster order", "high", specProf, ""},
	{"act_profile", "profile_meta_data/*", "one function's evaluation fields", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/func_name", "<func>_<budget>p", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/func_id", "silicon LUT code Activate (0x21) names at +0x23", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/symmetry_point", "f32 bits added after reconstruction of a folded input", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/sym_invert_sign_point", "1: negate the folded result (odd function)", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/symmetry_opt_en", "1: fold the input to one half", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/symmetry_opt_use_neg_region", "1: fold to -|v| (the table holds the negative half)", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/imm_bias", "1 only for reciprocal, copy, memset_zero, is_finite; meaning unknown", "low", specPMD, "manifest.json-key-guesses"},
	{"act_profile", "profile_meta_data/*/exp_offset", "lowest declared octave (unbiased); -127 for LUT-less residents", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/pwl_control_base_pos", "control index of the positive octave block", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/pwl_control_base_neg", "control index of the negative octave block", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/small_pos_signal_exp_threshold", "biased exponent below which a positive input takes the small slot", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/pos_small_signal_pwl_control", "bucket index of the positive small slot", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/small_neg_signal_exp_threshold", "biased exponent below which a negative input takes the small slot", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/neg_small_signal_pwl_control", "bucket index of the negative small slot", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/large_pos_signal_exp_threshold", "biased exponent above which a positive input takes the large slot", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/large_pos_signal_mantissa_threshold", "23-bit mantissa tie-break at that exponent", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/pos_large_signal_pwl_control", "bucket index of the positive large slot", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/large_neg_signal_exp_threshold", "biased exponent above which a negative input takes the large slot", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/large_neg_signal_mantissa_threshold", "23-bit mantissa tie-break at that exponent", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/neg_large_signal_pwl_control", "bucket index of the negative large slot", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/fnan_result", "f32 bits of the result for a NaN input", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/fpinf_result", "f32 bits of the result for +inf", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/fninf_result", "f32 bits of the result for -inf", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/fzero_result", "f32 bits of the result for ±0", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/fma_const_0", "f32 bits of an FMA constant (1.0 only for parametric_relu)", "medium", specPMD, ""},
	{"act_profile", "profile_meta_data/*/fma_const_1", "f32 bits of a second FMA constant (0 everywhere seen)", "medium", specPMD, ""},
	{"act_profile", "profile_meta_data/*/fma_indirection_src_sel", "FMA operand source select (2 only for parametric_relu)", "medium", specPMD, ""},
	{"act_profile", "profile_meta_data/*/use_multipass", "multi-pass evaluation (false in every shipped set)", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/lower_bound", "f32 bits of the table's input domain low end (metadata)", "high", specPMD, ""},
	{"act_profile", "profile_meta_data/*/upper_bound", "f32 bits of the table's input domain high end (metadata)", "high", specPMD, ""},

	// info.json (§3.6)
	{"info.json", "", "compiler info, mirrored in the NEFF header", "high", specSide, ""},
	{"info.json", "tool_version", "neuronx-cc version that compiled the NEFF", "high", specSide, ""},
	{"info.json", "kelp_version", "the graph format's version tag (\"Dynamic\" in every real file)", "high", specSide, ""},
	{"info.json", "name", "network name, mirrored at header offset 0xDC", "high", specSide, ""},
	{"info.json", "num_tpb", "NeuronCores required, mirrored at header offset 0xA8", "high", specSide, ""},
	{"info.json", "num_tpb_requested", "NeuronCores requested, mirrored at header offset 0x1DC", "high", specSide, ""},
	{"info.json", "num_tpb_per_node", "cores per kelf node, mirrored at header offset 0x1E0", "high", specSide, ""},

	// hlo_stats.json (§3.6): the spec names the keys; meanings past HloMacCount are read off the
	// real files and the names (matmul_small: 128×256 @ 256×128).
	{"hlo_stats.json", "", "statistics of the HLO graph the NEFF was compiled from", "high", specSide, ""},
	{"hlo_stats.json", "HloMacCount", "multiply-accumulates in the HLO graph (the value the runtime most likely reads)", "high", specSide + "; matmul_small: 128·256·128 = 4,194,304", ""},
	{"hlo_stats.json", "ArithmeticIntensity", "FLOPs (2 × HloMacCount) per byte of Traffic", "high", specSide + "; matmul_small: 2 × 4,194,304 / 262,144 = 32.0", ""},
	{"hlo_stats.json", "Traffic", "bytes the HLO graph moves (matmul_small: 262,144, more than its 163,840 bytes of inputs and output)", "medium", specSide, "manifest.hlo-stats-keys"},
	{"hlo_stats.json", "HloInputCount", "inputs of the HLO graph; -1 = not computed (-1 in every real file)", "low", specSide, "manifest.hlo-stats-keys"},
	{"hlo_stats.json", "HloOutputCount", "outputs of the HLO graph; -1 = not computed (-1 in every real file)", "low", specSide, "manifest.hlo-stats-keys"},
	{"hlo_stats.json", "OutputsReadFromCount", "outputs the graph also reads; -1 = not computed (-1 in every real file)", "low", specSide, "manifest.hlo-stats-keys"},
	{"hlo_stats.json", "PassthroughTensorsCount", "inputs passed straight to outputs; -1 = not computed (-1 in every real file)", "low", specSide, "manifest.hlo-stats-keys"},
	{"hlo_stats.json", "RedundantOutputCount", "outputs that duplicate another; -1 = not computed (-1 in every real file)", "low", specSide, "manifest.hlo-stats-keys"},
	{"hlo_stats.json", "AliasedOutputSize", "bytes of outputs aliased to inputs (0 in every real file, which alias none)", "low", specSide, "manifest.hlo-stats-keys"},
	{"hlo_stats.json", "ConstantSize", "bytes of constants in the HLO graph (0 even where def.json has a 16 KiB constant)", "low", specSide, "manifest.hlo-stats-keys"},
	{"hlo_stats.json", "IfmapSize", "bytes of input feature maps (0 in every real file)", "low", specSide, "manifest.hlo-stats-keys"},
	{"hlo_stats.json", "OfmapSize", "bytes of output feature maps (0 in every real file)", "low", specSide, "manifest.hlo-stats-keys"},

	// metrics.json (§3.6)
	{"metrics.json", "", "compiler metrics (neuronx-cc 2.18)", "high", specSide, ""},
	{"metrics.json", "*", "one metric", "high", specSide, ""},
	{"metrics.json", "*/MetricName", "TPBCount, EstimatedLowerBoundLatency, EstimatedUpperBoundThroughput or InferentiaDRAMUsage", "high", specSide, ""},
	{"metrics.json", "*/Value", "the metric's value, in Unit", "high", specSide, ""},
	{"metrics.json", "*/Unit", "the value's unit (Count, Milliseconds, Count/Second, Bytes)", "high", specSide, ""},

	// sgNN/tensor_map.json (§3.6)
	{"tensor_map", "", "tensor map: each tensor's framework (tf) and simulator (sim) shape and file, by name", "high", specSide, ""},
	{"tensor_map", "*", "one tensor, by name", "high", specSide, ""},
	{"tensor_map", "*/dtype", "element type", "high", specSide, ""},
	{"tensor_map", "*/kind", "input, output, ...", "high", specSide, ""},
	{"tensor_map", "*/is_const", "true for a constant (weights)", "high", specSide, ""},
	{"tensor_map", "*/layer_name", "the framework layer the tensor belongs to", "high", specSide, ""},
	{"tensor_map", "*/sim_format", "dimension order in the simulator (NC, NCHW, ...)", "high", specSide, ""},
	{"tensor_map", "*/sim_shape", "shape in the simulator", "high", specSide, ""},
	{"tensor_map", "*/tf_file", "file of the framework-side values (value_<name>.npy)", "high", specSide, ""},
	{"tensor_map", "*/tf_format", "dimension order in the framework", "high", specSide, ""},
	{"tensor_map", "*/tf_shape", "shape in the framework", "high", specSide, ""},
	{"tensor_map", "*/split_axis", "axis along which the tensor is split into parts", "high", specSide, ""},
	{"tensor_map", "*/split_indices_or_sections", "where it is split (numpy.split's argument)", "medium", specSide, "manifest.json-key-guesses"},
	{"tensor_map", "*/split_npys", "the .npy files of the parts", "medium", specSide, "manifest.json-key-guesses"},

	// kernel_debug_info.json (written with NKI_DEBUG_INFO; read off the one real file)
	{"kernel_debug_info", "", "index of NKI kernel debug-info files", "high", specSide + "; attn_v6", ""},
	{"kernel_debug_info", "debug_info_files", "one entry per kernel", "high", specSide + "; attn_v6", ""},
	{"kernel_debug_info", "debug_info_files/*", "one kernel's debug info", "high", specSide + "; attn_v6", ""},
	{"kernel_debug_info", "debug_info_files/*/file_name", "the kernel's <kernel>.klir.debuginfo.json member", "high", "attn_v6: names the klir member it carries", ""},
	{"kernel_debug_info", "debug_info_files/*/kernel_name", "the kernel function's qualified name", "high", "attn_v6: equals the backend .dbg kernel_names entry", ""},
	{"kernel_debug_info", "debug_info_files/*/parent_tensorizer_id", "id of the tensorizer (Penguin) instruction that calls the kernel", "low", "attn_v6: 14", "manifest.json-key-guesses"},

	// <kernel>.klir.debuginfo.json: NKI instruction → source line tree (schema inferred from the
	// real file: 1,558 inst, 93 func, 312 iter nodes)
	{"klir", "", "NKI kernel debug info: the kernel's instructions in a tree of functions and loop iterations, each with its source line", "high", specSide + "; attn_v6", ""},
	{"klir", "*", "one logical core's tree", "high", specSide, ""},
	{"klir", "*/lnc", "the logical NeuronCore count the kernel was compiled for", "medium", specSide + "; attn_v6: 1", "manifest.json-key-guesses"},
	{"klir", "*/info", "the top level of the tree", "high", specSide, ""},
	{"klir", "**/inst", "an NKI instruction", "high", specSide, ""},
	{"klir", "**/inst/name", "its name (inst.N), the prefix of the backend .dbg BIR names", "high", "attn_v6: 1,593 backend records inst.N… agree with their line", ""},
	{"klir", "**/inst/line", "its kernel source line", "high", "attn_v6: equals the backend kernel_line in all 1,593 records", ""},
	{"klir", "**/func", "a kernel function (call)", "high", specSide, ""},
	{"klir", "**/func/name", "the function's qualified name", "high", specSide, ""},
	{"klir", "**/func/line", "the line it is defined (or called) at", "medium", specSide, "manifest.json-key-guesses"},
	{"klir", "**/func/file", "its source file", "high", specSide, ""},
	{"klir", "**/iter", "one iteration of an unrolled loop", "high", "attn_v6: var h_t, val 0..n at one line", ""},
	{"klir", "**/iter/var", "the loop variable", "high", "attn_v6", ""},
	{"klir", "**/iter/val", "its value in this iteration", "high", "attn_v6", ""},
	{"klir", "**/iter/line", "the loop's source line", "high", "attn_v6", ""},
	{"klir", "**/children", "what the function or iteration contains", "high", specSide, ""},
	{"klir", "**/children/*", "one child", "high", specSide, ""},
	{"klir", "*/info/*", "one top-level entry", "high", specSide, ""},
}

// hasMeanings reports whether the table has rows for a member kind.
func hasMeanings(kind string) bool {
	for i := range KeyMeanings {
		if KeyMeanings[i].Kind == kind {
			return true
		}
	}
	return false
}

// meaningOf finds the row for a key path in a member kind (nil when none). Array positions
// arrive as "*".
func meaningOf(kind string, path []string) *KeyMeaning {
	idx := meaningIndex[kind]
	if idx == nil {
		return nil
	}
	last := ""
	if len(path) > 0 {
		last = path[len(path)-1]
	}
	// The rows whose pattern ends in this literal key and the rows that end in a wildcard,
	// merged in table order: the first that matches wins, as in a scan of the whole table.
	lit, wild := idx.byLast[last], idx.wild
	for len(lit) > 0 || len(wild) > 0 {
		var i int
		if len(wild) == 0 || len(lit) > 0 && lit[0] < wild[0] {
			i, lit = lit[0], lit[1:]
		} else {
			i, wild = wild[0], wild[1:]
		}
		if segsMatch(meaningSegs[i], path) {
			return &KeyMeanings[i]
		}
	}
	return nil
}

// kindMeanings indexes a member kind's rows of KeyMeanings, in table order, by the last segment
// of their pattern ("" for the member itself) when it is a literal key, the others in wild:
// every held JSON node is looked up, and trying each of the kind's rows in turn was a tenth
// of a small NEFF's open in the page.
type kindMeanings struct {
	byLast map[string][]int
	wild   []int
}

var meaningIndex = func() map[string]*kindMeanings {
	by := map[string]*kindMeanings{}
	for i, m := range KeyMeanings {
		k := by[m.Kind]
		if k == nil {
			k = &kindMeanings{byLast: map[string][]int{}}
			by[m.Kind] = k
		}
		last := ""
		if m.Path != "" {
			last = m.Path[strings.LastIndexByte(m.Path, '/')+1:]
		}
		if strings.HasPrefix(last, "*") {
			k.wild = append(k.wild, i)
		} else {
			k.byLast[last] = append(k.byLast[last], i)
		}
	}
	return by
}()

// meaningSegs holds each KeyMeanings pattern split once ("" → no segments: the member itself).
// Every JSON value of every manifest is looked up, so the lookup must not split patterns: it
// doubled the manifest chain's time when it did.
var meaningSegs = func() [][]string {
	segs := make([][]string, len(KeyMeanings))
	for i, m := range KeyMeanings {
		if m.Path != "" {
			segs[i] = strings.Split(m.Path, "/")
		}
	}
	return segs
}()

// detail is the text a matched node shows: the meaning, and how sure it is below high.
func (m *KeyMeaning) detail() string {
	if m.Confidence == "high" {
		return m.Meaning
	}
	return m.Meaning + " [" + m.Confidence + " confidence]"
}

// pathMatch matches a key path against a pattern of segments ("*": any one, "**": any run).
func pathMatch(pattern string, path []string) bool {
	if pattern == "" {
		return len(path) == 0
	}
	return segsMatch(strings.Split(pattern, "/"), path)
}

func segsMatch(pat, path []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(path); i++ {
				if segsMatch(pat[1:], path[i:]) {
					return true
				}
			}
			return false
		}
		if len(path) == 0 {
			return false
		}
		if pat[0] != "*" && pat[0] != path[0] {
			// "*_dbg"-style: a star prefix matches a key suffix
			if !(strings.HasPrefix(pat[0], "*") && len(pat[0]) > 1 && strings.HasSuffix(path[0], pat[0][1:])) {
				return false
			}
		}
		pat, path = pat[1:], path[1:]
	}
	return len(path) == 0
}
