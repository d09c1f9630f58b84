package hlo

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// BackendConfig is an instruction's backend_config (field 43): kept as a digest, and decoded
// when it is JSON or base64 JSON (the Neuron NKI custom call's is base64 JSON).
type BackendConfig struct {
	Raw Blob
	// Encoding is how it was read: "base64 JSON", "JSON", or "bytes" (not decoded).
	Encoding string
	// Leaves are the decoded JSON's values by path ("klir_binary.binary", "grid[0]"), in
	// document order; an empty array or object is one leaf ("[]", "{}").
	Leaves []Leaf
	// NKI is the NKI kernel call's fields, when the JSON has the NKI shape.
	NKI *NKIConfig
}

// Leaf is one JSON value of a decoded backend_config.
type Leaf struct {
	Path, Value string
	// Span is where the value lies in the file: for base64 JSON, the base64 characters that
	// hold its bytes.
	Span doc.Span
}

// NKIConfig is the backend_config of an AwsNeuronCustomNativeKernel custom call (an NKI
// kernel): the fields the table nkiFields names.
type NKIConfig struct {
	FuncName          string
	Binary            string // klir_binary.binary: the compiled kernel's path
	VersionIdentifier string
	KernelVersion     string
	PlatformTarget    string
	Grid              string
	HasCollectives    string
}

// Limits of a backend_config's decode: past maxBackendDecode bytes it is kept as a digest only
// (a 1 GB config decodes nothing), past maxLeaves its values are counted.
const (
	maxBackendDecode = 4 << 20
	maxLeaves        = 4096
	maxLeafText      = 512
)

// nkiFields is what each NKI backend_config key means. Evidence: the eight real modules of
// shared/testdata-real/nki-moe/hlo (spec ntff.md §8), whose custom call names target
// AwsNeuronCustomNativeKernel and whose attn_v6 NEFF embeds the klir file the path names.
var nkiFields = []struct {
	Path, Meaning, Confidence string
}{
	{"func_name", "the NKI kernel's Python function name", "high"},
	{"klir_binary.binary", "the path of the kernel's compiled KLIR file when the graph was traced (a temporary file: its directory and name carry random characters)", "high"},
	{"klir_binary.version_identifier", "a version string of the KLIR binary (7 hex digits, like a short git hash of the NKI compiler)", "low"},
	{"klir_binary.input_names", "the kernel's parameter names, in operand order", "high"},
	{"klir_binary.output_names", "the kernel's output names", "high"},
	{"kernel_version", "the version of this backend_config's layout", "low"},
	{"grid", "the kernel's launch grid (empty: one instance)", "medium"},
	{"has_collectives", "whether the kernel issues collective operations", "medium"},
	{"platform_target", "the target the kernel was compiled for (\"3\" on a Trn2 compile)", "low"},
}

// decodeBackend reads a backend_config's bytes b, which lie at file offset off of src.
func decodeBackend(b []byte, off int64, src string, bud *budget.Budget, node *doc.Node) *BackendConfig {
	bc := &BackendConfig{Raw: blob(b, off, src), Encoding: "bytes"}
	if len(b) == 0 {
		return bc
	}
	if len(b) > maxBackendDecode {
		node.Flag(doc.CodeHLOBackendBig, doc.Info, span(src, off, int64(len(b))), "backend_config is %d B, more than the %d B decoded: it is compared by its digest only", len(b), maxBackendDecode)
		return bc
	}
	text, enc := b, "JSON"
	trim := strings.TrimSpace(string(b))
	if !strings.HasPrefix(trim, "{") && !strings.HasPrefix(trim, "[") {
		dec, err := base64.StdEncoding.DecodeString(trim)
		if err != nil || len(dec) == 0 || (dec[0] != '{' && dec[0] != '[') {
			return bc
		}
		text, enc = dec, "base64 JSON"
	}
	if !bud.Take(budget.Memory, int64(len(text))*2, "backend_config") {
		return bc
	}
	v, err := jsonspan.ParseWith(text, jsonspan.Options{Budget: bud, Where: "backend_config"})
	if err != nil || v == nil {
		node.Flag(doc.CodeHLOBackendJSON, doc.Warning, span(src, off, int64(len(b))), "backend_config reads as %s but does not parse: %v; it is compared by its digest only", enc, err)
		return bc
	}
	bc.Encoding = enc
	base64Span := func(s, e int64) doc.Span {
		if enc == "JSON" {
			return doc.Span{Source: src, Offset: off + s, Length: e - s}
		}
		lo, hi := off+4*(s/3), off+min(int64(len(b)), 4*((e+2)/3))
		return doc.Span{Source: src, Offset: lo, Length: hi - lo}
	}
	var cut int
	var walk func(v *jsonspan.Value, path string)
	walk = func(v *jsonspan.Value, path string) {
		if len(bc.Leaves) >= maxLeaves {
			cut++
			return
		}
		switch v.Kind {
		case jsonspan.Object:
			if len(v.Items) == 0 {
				bc.Leaves = append(bc.Leaves, Leaf{path, "{}", base64Span(v.Start, v.End)})
			}
			for i, it := range v.Items {
				walk(it, joinPath(path, v.Keys[i]))
			}
		case jsonspan.Array:
			if len(v.Items) == 0 {
				bc.Leaves = append(bc.Leaves, Leaf{path, "[]", base64Span(v.Start, v.End)})
			}
			for i, it := range v.Items {
				walk(it, path+"["+strconv.Itoa(i)+"]")
			}
		default:
			bc.Leaves = append(bc.Leaves, Leaf{path, clip(string(text[v.Start:v.End]), maxLeafText), base64Span(v.Start, v.End)})
		}
	}
	walk(v, "")
	if cut > 0 {
		node.Flag(doc.CodeHLOBackendJSON, doc.Info, span(src, off, int64(len(b))), "backend_config holds more than %d values; the first %d are compared one by one, the rest by the config's digest", maxLeaves, maxLeaves)
	}
	bc.NKI = nkiOf(v)
	return bc
}

func joinPath(p, k string) string {
	if p == "" {
		return k
	}
	return p + "." + k
}

// nkiOf reads the NKI fields of a backend_config's JSON (nil when it has not the NKI shape:
// a func_name and a klir_binary object).
func nkiOf(v *jsonspan.Value) *NKIConfig {
	if v.Kind != jsonspan.Object {
		return nil
	}
	fn, kb := v.Get("func_name"), v.Get("klir_binary")
	if fn == nil || kb == nil || kb.Kind != jsonspan.Object {
		return nil
	}
	str := func(x *jsonspan.Value) string {
		if x == nil {
			return ""
		}
		if s, ok := x.Text(); ok && x.Kind == jsonspan.String {
			return s
		}
		return x.Str
	}
	raw := func(x *jsonspan.Value) string {
		if x == nil {
			return ""
		}
		if x.Kind == jsonspan.Array {
			var parts []string
			for _, it := range x.Items {
				parts = append(parts, str(it))
			}
			return "[" + strings.Join(parts, ", ") + "]"
		}
		if x.Kind == jsonspan.Bool {
			return strconv.FormatBool(x.Bool)
		}
		return str(x)
	}
	return &NKIConfig{FuncName: str(fn), Binary: str(kb.Get("binary")), VersionIdentifier: str(kb.Get("version_identifier")),
		KernelVersion: raw(v.Get("kernel_version")), PlatformTarget: raw(v.Get("platform_target")), Grid: raw(v.Get("grid")),
		HasCollectives: raw(v.Get("has_collectives"))}
}

// clip shortens s to n bytes (at a rune boundary) with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && (s[i]&0xC0) == 0x80 {
		i--
	}
	return s[:i] + "…"
}
