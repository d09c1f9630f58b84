package manifest

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
	// Instance is the device family a user knows the target by (AWS instance names).
	Instance string
}

// Targets maps kelf-N.json `target` to the arch. Anything else is rejected by libnrt with
// "Invalid target" (status 2).
var Targets = []Target{
	{"sunda", 2, "sunda: Trn1 / Inf2", "Trn1/Inf2"},
	{"v2", 2, "sunda: Trn1 / Inf2", "Trn1/Inf2"},
	{"cayman", 3, "cayman: Trn2", "Trn2"},
	{"v3", 3, "cayman: Trn2", "Trn2"},
	{"mariana", 4, "mariana: gen-4", "gen-4"},
	{"v4", 4, "mariana: gen-4", "gen-4"},
	{"*", 0, "any: whatever device loads it", "any"},
	{"", 2, "sunda (an empty target defaults to sunda)", "Trn1/Inf2"},
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
