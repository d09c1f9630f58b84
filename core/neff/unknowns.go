package neff

import (
	"github.com/neffscope/neffscope/core/doc"
)

// Byte orders of the stored MD5 (spec neff.md §1.1, §7.3).
const (
	orderLEWords = "four little-endian u32 words"
	orderPlain   = "plain digest bytes"
)

// HashWordOrder is the byte order modern files store the MD5 in. Unknown-ID: neff.hash-word-order.
// The other order is tried too, and the match reports which one held.
const HashWordOrder = orderLEWords

// DefaultMaxInflated bounds how many decompressed bytes one open may produce, so a gzip bomb
// ends with a finding instead of running for ever. Memory does not grow with it (the walk
// streams), time does: about a second per GiB natively, nine in wasm.
const DefaultMaxInflated = 8 << 30

// Unknowns are the points of spec neff.md §1–§2, §7 that the container decoder relies on.
var Unknowns = []doc.Unknown{
	{ID: "neff.hash-word-order", Spec: "neff.md §1.1, §7.3", Confidence: "high for modern files",
		Question:   "In which byte order is the MD5 stored? Modern files use four little-endian u32 words; the old fixture is reported in plain order.",
		Assumption: "Compare both orders; report the digest in the little-endian-words reading and say which order matched."},
	{ID: "neff.hash-tail", Spec: "neff.md §1.1, §7.3", Confidence: "medium",
		Question:   "What are hash bytes 16..31 for pkg 2? Zero in modern files, ASCII '0' in the fixture.",
		Assumption: "Ignore them for pkg 2; zero or ASCII '0' are shown without a finding, anything else as info."},
	{ID: "neff.uncompressed-pkg", Spec: "neff.md §2.1, §7.2", Confidence: "low",
		Question:   "Do uncompressed NEFFs use pkg 1 + SHA-256 or stay pkg 2 + MD5?",
		Assumption: "Sniff the payload (gzip magic vs ustar block) instead of trusting pkg_version; hash by pkg_version."},
	{ID: "neff.feature-names", Spec: "neff.md §1.4, §7.4", Confidence: "medium",
		Question:   "Bits 0, 18, 19, 23 and 26 are unnamed; bit 0 = bin-weights is inferred; names of 0x1000, 0x8000, 0x200000 come from the wiki only.",
		Assumption: "Name the bits of the one catalogue (core/featurebits); show any other bit as 'bit N' with a finding; the header mask is authoritative over def.json neff_features."},
	{ID: "neff.lnc-size-width", Spec: "neff.md §1.1, §7.15", Confidence: "medium",
		Question:   "Is the word at 0x228 a u32 or a u64, and is it the LNC size or an arch mode?",
		Assumption: "Read a u32 named lnc_size; bytes 0x22C..0x22F belong to the zero pad and are checked there."},
	{ID: "neff.numbered-streams", Spec: "neff.md §2.4 B′, §7.1", Confidence: "medium",
		Question:   "Do numbered secondary engine streams (<Engine>1.bin) occur?",
		Assumption: "Member names are taken from the manifests, never assumed; any name is accepted."},
	{ID: "neff.padding", Spec: "neff.md §2.1", Confidence: "high",
		Question:   "Is the zero padding after the gzip stream always zero and always inside data_size?",
		Assumption: "Bytes after the gzip stream up to data_size are padding; non-zero bytes there are reported."},
}
