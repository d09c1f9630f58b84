package manifest

import "github.com/neffscope/neffscope/core/doc"

// Unknowns are the points the spec leaves open that this package's code relies on. The code
// that depends on one names its ID in a comment.
var Unknowns = []doc.Unknown{
	{ID: "manifest.kelf-node-discriminator", Spec: "neff.md §3.2, §7.9",
		Question:   "libnrt tests attrs.func_name == \"__kelf\"; the compiler wiki writes op \"__kelf\" with func_name \"0\".",
		Assumption: "A node with either marks a device node; its attrs.kelf names the KELF member.",
		Confidence: "high"},
	{ID: "manifest.instr-source", Spec: "neff.md §3.5, §7.8",
		Question:   "Whether the engine JSON `instr` or def.json `<eng>_instr` wins when they differ (never seen).",
		Assumption: "The engine JSON's instr (what libnrt reads); def.json's is the fallback and a disagreement is a warning.",
		Confidence: "medium"},
	{ID: "manifest.dma-block-id-scope", Spec: "neff.md §3.5, §4.5 (0xC1)",
		Question:   "Whether dma[].id is unique per engine or per queue.",
		Assumption: "Per queue: real SP.json files and the fixture pool.json reuse id 0 on two queues; Engine.Block takes (queue, id) and BlocksWithID lists the candidates.",
		Confidence: "high"},
	{ID: "manifest.outputs-per-core", Spec: "neff.md §3.2",
		Question:   "Why LNC=2 graphs list the same output name twice (heads [[n,0,0],[n,1,0]], output_names [\"output0\",\"output0\"]).",
		Assumption: "Each head is reported as its own output; a repeated name is an info finding, not an error.",
		Confidence: "medium"},
	{ID: "manifest.signature-outputs", Spec: "neff.md §3.2",
		Question:   "metadata.signatures.default.outputs is {} in every real file.",
		Assumption: "Outputs come from heads; signature outputs are compared only when present.",
		Confidence: "high"},
	{ID: "manifest.sidecar-roster", Spec: "neff.md §2.4 B, §3.6",
		Question:   "Which members the tools find by name rather than by reference (tensor_map, debug_info/*, info/hlo_stats/metrics, kernel_debug_info).",
		Assumption: "KnownSidecars lists them; any other member nothing refers to is a warning.",
		Confidence: "medium"},
	{ID: "manifest.statebuffer-reservation", Spec: "neff.md §3.4",
		Question:   "runtime_statebuffer_reservation is required on cayman per the libnrt wiki; other arches unknown.",
		Assumption: "Missing on target cayman/v3 is an error; elsewhere it is not checked.",
		Confidence: "medium"},
	{ID: "manifest.subgraph-relative-paths", Spec: "neff.md §2.4 D",
		Question:   "Whether names inside def.json and engine JSONs could ever be archive-absolute.",
		Assumption: "Always joined to the def.json's directory, as the loader and the third-party reader do.",
		Confidence: "high"},
}
