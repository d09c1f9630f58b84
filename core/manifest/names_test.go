package manifest

import (
	"regexp"
	"testing"
)

// regexpEquivalents are the regular expressions the name patterns replaced (the matching
// used to be done with regexp). The tests hold every pattern to its regexp, so the switch
// to matchName changed no behaviour.
var regexpEquivalents = map[string]*regexp.Regexp{
	kelfPattern:      regexp.MustCompile(`^kelf-[^/]+\.json$`),
	defPattern:       regexp.MustCompile(`^(sg[0-9]+)/def\.json$`),
	tensorMapPattern: regexp.MustCompile(`^(sgLnk/)?sg[0-9]+/tensor_map\.json$`),
	klirPattern:      regexp.MustCompile(`\.klir\.debuginfo\.json$`),

	"neff.json":              regexp.MustCompile(`^neff\.json$`),
	"kelp.json":              regexp.MustCompile(`^kelp\.json$`),
	"info.json":              regexp.MustCompile(`^info\.json$`),
	"hlo_stats.json":         regexp.MustCompile(`^hlo_stats\.json$`),
	"metrics.json":           regexp.MustCompile(`^metrics\.json$`),
	"kernel_debug_info.json": regexp.MustCompile(`^kernel_debug_info\.json$`),
	"{hlo_metrics,global_metric_store,loop,icMetadata,ucode_lib}.json": regexp.MustCompile(`^(hlo_metrics|global_metric_store|loop|icMetadata|ucode_lib)\.json$`),
	"debug_info/**":             regexp.MustCompile(`^debug_info/`),
	"debug_info_pttf":           regexp.MustCompile(`^debug_info_pttf$`),
	"{,**/}wavegraph-bin.json":  regexp.MustCompile(`(^|/)wavegraph-bin\.json$`),
	"cpu.{so,params}":           regexp.MustCompile(`^cpu\.(so|params)$`),
	"a?c":                       regexp.MustCompile(`^a[^/]c$`),
	"x*y":                       regexp.MustCompile(`^x[^/]*y$`),
	"{a,ab}#{,1}b":              regexp.MustCompile(`^(a|ab)[0-9]+(|1)b$`),
	"{unclosed":                 regexp.MustCompile(`^\{unclosed$`),
	"**/*.npy":                  regexp.MustCompile(`(?s)^.*/[^/]*\.npy$`),
	"sg#/**":                    regexp.MustCompile(`^sg[0-9]+/`),
	"#":                         regexp.MustCompile(`^[0-9]+$`),
	"":                          regexp.MustCompile(`^$`),
	"*":                         regexp.MustCompile(`^[^/]*$`),
	"**":                        regexp.MustCompile(`^`),
	"sg#/def.json#":             regexp.MustCompile(`^sg[0-9]+/def\.json[0-9]+$`),
	"debug_info/**/x.pb":        regexp.MustCompile(`(?s)^debug_info/.*/x\.pb$`),
	"{sgLnk/,}sg##/x":           regexp.MustCompile(`^(sgLnk/)?sg[0-9]+[0-9]+/x$`),
	"**wavegraph-bin.json":      regexp.MustCompile(`wavegraph-bin\.json$`),
	"kelf-?*.json{,.bak}":       regexp.MustCompile(`^kelf-[^/]+\.json(|\.bak)$`),
	"{debug_info/,}*":           regexp.MustCompile(`^(debug_info/)?[^/]*$`),
	"{,sg#/}{pe,act}_instr.bin": regexp.MustCompile(`^(|sg[0-9]+/)(pe|act)_instr\.bin$`),
}

// memberNames are paths real NEFFs hold, and near misses of each pattern.
var memberNames = []string{
	"", "/", "neff.json", "kelp.json", "info.json", "hlo_stats.json", "metrics.json",
	"kernel_debug_info.json", "neff.json.bak", "xneff.json", "sg00/neff.json", "neff_json",
	"kelf-0.json", "kelf-.json", "kelf-.json.json", "kelf-a/b.json", "kelf-00.json/x", "kelf-1.jsonx",
	"sg00/def.json", "sg0/def.json", "sg/def.json", "sgLnk/sg00/def.json", "sg00/def.json0", "sg0x/def.json",
	"sg00/tensor_map.json", "sgLnk/sg01/tensor_map.json", "sgLnk/tensor_map.json", "sgLnk/sg/tensor_map.json",
	"sgLnksg00/tensor_map.json", "sgLnk/sgLnk/sg00/tensor_map.json", "sg12345678901234567890/tensor_map.json",
	"a.klir.debuginfo.json", ".klir.debuginfo.json", "sg00/k/attn.klir.debuginfo.json", "klir.debuginfo.json",
	"a.klir.debuginfo.json.gz", "hlo_metrics.json", "global_metric_store.json", "loop.json", "icMetadata.json",
	"ucode_lib.json", "ucode_lib.jsonx", "loops.json", "debug_info/", "debug_info/a.pb", "debug_info/x/x.pb",
	"debug_info", "debug_info_pttf", "debug_info_pttf/", "wavegraph-bin.json", "sg00/wavegraph-bin.json",
	"sg00/xwavegraph-bin.json", "/wavegraph-bin.json", "cpu.so", "cpu.params", "cpu.sox", "cpu.", "abc", "a/c",
	"ac", "xy", "x/y", "xay", "a1b", "ab1b", "a11b", "ab11b", "a1", "{unclosed", "unclosed", "x.npy",
	"sg00/w.npy", "sg00/x/w.npy", "123", "12a", "sg1/", "sg1", "sg00/def.json1", "debug_info//x.pb",
	"sg1/x", "sg12/x", "sgLnk/sg12/x", "kelf-0.json.bak", "debug_info/x/y", "pe_instr.bin",
	"sg00/act_instr.bin", "sg/pe_instr.bin", "é/neff.json", "kelf-\xff.json", "sg\xff/def.json", "a\x00c",
}

func TestMatchNameAsRegexp(t *testing.T) {
	for pattern, re := range regexpEquivalents {
		for _, name := range memberNames {
			if got, want := matchName(pattern, name), re.MatchString(name); got != want {
				t.Errorf("matchName(%q, %q) = %v; regexp %s says %v", pattern, name, got, re, want)
			}
		}
	}
}

// TestTablePatternsHaveRegexps keeps regexpEquivalents complete: every table row's pattern
// is checked against a regexp.
func TestTablePatternsHaveRegexps(t *testing.T) {
	for _, s := range KnownSidecars {
		if regexpEquivalents[s.Pattern] == nil {
			t.Errorf("sidecar pattern %q (%s) has no regexp in regexpEquivalents", s.Pattern, s.Role)
		}
	}
}

func TestSidecarRoles(t *testing.T) {
	for name, want := range map[string]string{
		"neff.json":                       "TVM graph: the model's inputs, outputs and device nodes (root of the chain)",
		"sgLnk/sg03/tensor_map.json":      "tensor map (framework ↔ simulator shapes)",
		"sg00/attn.klir.debuginfo.json":   "NKI source debug-info tree",
		"debug_info/sg00/debuginfo.pb":    "compiler debug information (protobuf)",
		"sg00/wavegraph-bin.json":         "debug wavegraph (dropped by the loader)",
		"cpu.params":                      "custom-op host library",
		"icMetadata.json":                 "producer metadata",
		"sg00/def.json":                   "",
		"debug_info_pttf.tar":             "",
		"sg00/tensor_map.json/extra.json": "",
	} {
		got, ok := sidecarRole(name)
		if got != want || ok != (want != "") {
			t.Errorf("sidecarRole(%q) = %q, %v; want %q", name, got, ok, want)
		}
	}
}

func FuzzMatchName(f *testing.F) {
	for _, name := range memberNames {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for pattern, re := range regexpEquivalents {
			if got, want := matchName(pattern, name), re.MatchString(name); got != want {
				t.Fatalf("matchName(%q, %q) = %v; regexp %s says %v", pattern, name, got, re, want)
			}
		}
	})
}
