// Package ncfw owns the libncfw 2.31 collective-context serializer: an emulator that prints a
// raw CC context exactly as libncfw_ctx_log would (spec ncfw.md), the map from every printed
// value to the struct bytes behind it, and a lenient reader of such dumps that maps them back.
//
// The serializer's shape is data: the families of spec §5 are defined once in schema.go, the
// per-arch parameters of §2 in this file, and every fragment text and §8 default in rules.go /
// unknowns.go. The emitter in emit.go only interprets those tables.
package ncfw

import "fmt"

// Return codes of libncfw_ctx_log (spec §1). H.
const (
	RCOK         = 0
	RCInvalid    = 22 // EINVAL: unknown arch, or ctx/out/model NULL; the buffer is not touched
	RCBufferFull = 28 // the 1 MiB buffer filled: the text is cut at MaxText bytes
)

// BufferSize is the output buffer libncfw fills (memset to 0 first); MaxText is the longest
// text it can hold before the terminating NUL (spec §1). H.
const (
	BufferSize = 0x100000
	MaxText    = BufferSize - 1
)

// Arch is one of the four arch clones of the serializer (spec §2). Everything else in the
// output is identical across arches (U-17).
type Arch struct {
	ID       uint32 `json:"id"`       // the arch_id argument of libncfw_ctx_log
	Name     string `json:"name"`     // the clone's prefix: sunda, cayman, mariana, mariana_plus
	Gen      string `json:"gen"`      // v2, v3, v4, v4+
	NeffCtx  int64  `json:"neff_ctx"` // runtime neff ctx, from ctx
	AlgoCtx  int64  `json:"algo_ctx"` // runtime algo ctx, from ctx
	CfgNeff  int64  `json:"cfg_neff"` // static neff configs, from ctx (= algo cfg size)
	CfgDev   int64  `json:"cfg_dev"`  // static dev configs
	CfgHier  int64  `json:"cfg_hier"` // the hierarchical u64 inside the algo cfg
	MeshN    int    `json:"mesh_n"`   // mesh events printed (passed in r8d)
	MinSize  int64  `json:"min_size"` // bytes the serializer reads at least (last field end)
	Padded   int64  `json:"padded"`   // MinSize rounded up to the struct alignment
	KeyBand  int64  `json:"key_band"` // .rodata key band of this clone (evidence only)
	Latch    int64  `json:"latch"`    // .bss latch byte of this clone (evidence only)
	Codename string `json:"codename"` // e.g. "sunda (v2)"
}

// arches is spec §2's table; all other output is the same for every clone (ncfw.clone-identity). H: the offsets are lea immediates diffed across the four clones;
// mariana and mariana_plus repeat cayman's numbers.
var arches = []Arch{
	{ID: 5, Name: "sunda", Gen: "v2", NeffCtx: 0x3060, AlgoCtx: 0x30C0, CfgNeff: 0x2228, CfgDev: 0x3030, CfgHier: 0x2220, MeshN: 50, MinSize: 0x32C6, Padded: 0x32C8, KeyBand: 0x65000, Latch: 0x95029},
	{ID: 12, Name: "cayman", Gen: "v3", NeffCtx: 0x4280, AlgoCtx: 0x42E0, CfgNeff: 0x3448, CfgDev: 0x4250, CfgHier: 0x3440, MeshN: 108, MinSize: 0x44E6, Padded: 0x44E8, KeyBand: 0x65000 + 1*0x695, Latch: 0x9502a},
	{ID: 20, Name: "mariana", Gen: "v4", NeffCtx: 0x4280, AlgoCtx: 0x42E0, CfgNeff: 0x3448, CfgDev: 0x4250, CfgHier: 0x3440, MeshN: 108, MinSize: 0x44E6, Padded: 0x44E8, KeyBand: 0x65000 + 2*0x695, Latch: 0x9502b},
	{ID: 28, Name: "mariana_plus", Gen: "v4+", NeffCtx: 0x4280, AlgoCtx: 0x42E0, CfgNeff: 0x3448, CfgDev: 0x4250, CfgHier: 0x3440, MeshN: 108, MinSize: 0x44E6, Padded: 0x44E8, KeyBand: 0x65000 + 3*0x695, Latch: 0x9502c},
}

func init() {
	for i := range arches {
		arches[i].Codename = fmt.Sprintf("%s (%s)", arches[i].Name, arches[i].Gen)
	}
}

// Arches lists the arch ids libncfw_ctx_log accepts, with their names and minimum sizes, in
// dispatch order (5, 12, 20, 28).
func Arches() []Arch { return append([]Arch(nil), arches...) }

// ArchByID returns the arch for an arch_id; ok is false for every id the dispatcher rejects
// with 22 (including 36, maverick).
func ArchByID(id uint32) (Arch, bool) {
	for _, a := range arches {
		if a.ID == id {
			return a, true
		}
	}
	return Arch{}, false
}

// FittingArches lists the arches whose minimum context size a raw context of size bytes
// reaches, for the page's arch chooser. A smaller context is still accepted by Emit (the
// missing bytes read as zero, U-15), so a chooser may offer every arch and mark these.
func FittingArches(size int64) []Arch {
	var out []Arch
	for _, a := range arches {
		if size >= a.MinSize {
			out = append(out, a)
		}
	}
	return out
}

// GuessArch picks the arch a raw context of size bytes most likely belongs to: the arch whose
// padded size it equals, else the largest arch it fits, else sunda. It is a default for a
// chooser, never a fact.
func GuessArch(size int64) Arch {
	for _, a := range arches {
		if size == a.Padded || size == a.MinSize {
			return a
		}
	}
	best := arches[0]
	for _, a := range FittingArches(size) {
		if a.MinSize > best.MinSize {
			best = a
		}
	}
	return best
}
