package neff

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
)

// HeaderSize is the size of the binary header every NEFF starts with (spec neff.md §1.1).
// libnrt always reads the payload at this offset, whatever header_size says.
const HeaderSize = 1024

// Header is the decoded 1024-byte header; field names follow the official struct (spec §1.1).
type Header struct {
	PkgVersion        uint64
	HeaderSize        uint64
	DataSize          uint64
	NeffVersionMajor  uint64
	NeffVersionMinor  uint64
	NeffBuildVersion  string
	NumTPB            uint32
	Hash              [32]byte
	UUID              [16]byte
	Name              string
	RequestedTPBCount uint32
	TPBPerNode        [64]byte
	FeatureBits       uint64
	LNCSize           uint32
	// Raw is the header as read (zero past Have).
	Raw [HeaderSize]byte
	// Have is how many header bytes the file holds (< 1024 for a truncated file); fields
	// that end past it are absent and left zero.
	Have int
}

// headerBlock is the header's bytes. Its accessors are the one place each field's offset and
// width are written (spec neff.md §1.1; little-endian), as archive/tar's format.go does for a
// tar header block: ParseHeader, the table below and the checks all read through them.
type headerBlock [HeaderSize]byte

func (b *headerBlock) pkgVersion() []byte        { return b[0x000:][:8] }
func (b *headerBlock) headerSize() []byte        { return b[0x008:][:8] }
func (b *headerBlock) dataSize() []byte          { return b[0x010:][:8] }
func (b *headerBlock) neffVersionMajor() []byte  { return b[0x018:][:8] }
func (b *headerBlock) neffVersionMinor() []byte  { return b[0x020:][:8] }
func (b *headerBlock) neffBuildVersion() []byte  { return b[0x028:][:128] }
func (b *headerBlock) numTPB() []byte            { return b[0x0A8:][:4] }
func (b *headerBlock) hash() []byte              { return b[0x0AC:][:32] }
func (b *headerBlock) uuid() []byte              { return b[0x0CC:][:16] }
func (b *headerBlock) name() []byte              { return b[0x0DC:][:256] }
func (b *headerBlock) requestedTPBCount() []byte { return b[0x1DC:][:4] }
func (b *headerBlock) tpbPerNode() []byte        { return b[0x1E0:][:64] }
func (b *headerBlock) featureBits() []byte       { return b[0x220:][:8] }
func (b *headerBlock) lncSize() []byte           { return b[0x228:][:4] }
func (b *headerBlock) pad() []byte               { return b[0x22C:][:468] }

// spanOf is where a field lies in the file: an accessor's slice starts HeaderSize − cap bytes
// into the block.
func spanOf(at func(*headerBlock) []byte) *doc.Span {
	var b headerBlock
	s := at(&b)
	return doc.At(int64(HeaderSize-cap(s)), int64(len(s)))
}

// fieldSpec is one header field: its official name, its bytes, what it means, how its node
// shows it and what is checked in it. This is the single table the decoder's checks, the
// document and the CLI all read.
type fieldSpec struct {
	Name    string
	at      func(*headerBlock) []byte
	Meaning string
	// show fills the field's node: its value, and a detail or children where there is more.
	show func(a *Archive, f *fieldSpec, n *doc.Node)
	// check reports a value a runtime would refuse or that looks wrong (nil: none).
	check func(a *Archive, f *fieldSpec)
}

// span is the field's bytes in the file.
func (f *fieldSpec) span() *doc.Span { return spanOf(f.at) }

// headerFields lists every field of spec neff.md §1.1 in order. Offsets are [REAL]/[DOC]
// (confirmed on every real file); see the unknowns table for lnc_size's width.
var headerFields = []fieldSpec{
	{"pkg_version", (*headerBlock).pkgVersion, "packaging format: 1 = plain tar + SHA-256, 2 = gzip'd tar + MD5", showPkgVersion, checkPkgVersion},
	{"header_size", (*headerBlock).headerSize, "header length; libnrt only checks header_size < file size and always reads the payload at 1024", showNumber(func(h *Header) uint64 { return h.HeaderSize }), checkHeaderSize},
	{"data_size", (*headerBlock).dataSize, "payload length as stored (gzip stream plus zero padding); must be ≤ file size − 1024", showDataSize, checkDataSize},
	{"neff_version_major", (*headerBlock).neffVersionMajor, "NEFF format major version; runtimes accept 0..2, and check feature_bits only when it is 2", showNumber(func(h *Header) uint64 { return h.NeffVersionMajor }), checkVersionMajor},
	{"neff_version_minor", (*headerBlock).neffVersionMinor, "NEFF format minor version; logged, never gated", showNumber(func(h *Header) uint64 { return h.NeffVersionMinor }), nil},
	{"neff_build_version", (*headerBlock).neffBuildVersion, "free text \"ver%branch@sha\" of the producer, NUL-padded; empty in modern files", showBuildVersion, nil},
	{"num_tpb", (*headerBlock).numTPB, "total number of TPBs (NeuronCores) required; equals info.json num_tpb", showNumber(func(h *Header) uint64 { return uint64(h.NumTPB) }), nil},
	{"hash", (*headerBlock).hash, "integrity digest of the payload bytes as stored (pkg 2: MD5 in the first 16 bytes; pkg 1: SHA-256)", showHash, checkHashTail},
	{"uuid", (*headerBlock).uuid, "NEFF identity; the runtime's cache key and the profiler's NEFF↔trace pairing key", showUUID, checkUUID},
	{"name", (*headerBlock).name, "model (network) name, NUL-terminated; equals info.json name", showName, nil},
	{"requested_tpb_count", (*headerBlock).requestedTPBCount, "TPBs requested at compile time; equals info.json num_tpb_requested", showNumber(func(h *Header) uint64 { return uint64(h.RequestedTPBCount) }), nil},
	{"tpb_per_node", (*headerBlock).tpbPerNode, "TPBs required per kelf node, one byte per node; equals info.json num_tpb_per_node", showTPBPerNode, nil},
	{"feature_bits", (*headerBlock).featureBits, "capability mask; a runtime rejects bits it does not know (only when major == 2)", showFeatureBits, checkFeatureBits},
	{"lnc_size", (*headerBlock).lncSize, "logical NeuronCore size (1, or 2 = two physical cores fused); libnrt calls it vnc_size", showNumber(func(h *Header) uint64 { return uint64(h.LNCSize) }), nil},
	{"pad", (*headerBlock).pad, "reserved, zero", showPad, checkPad},
}

// ParseHeader decodes the header from the first bytes of a file. b may be shorter than 1024
// bytes: fields that end past len(b) are left zero and Have records how much there was.
func ParseHeader(b []byte) Header {
	h := Header{}
	h.Have = copy(h.Raw[:], b)
	r := h.block()
	le := binary.LittleEndian
	h.PkgVersion = le.Uint64(r.pkgVersion())
	h.HeaderSize = le.Uint64(r.headerSize())
	h.DataSize = le.Uint64(r.dataSize())
	h.NeffVersionMajor = le.Uint64(r.neffVersionMajor())
	h.NeffVersionMinor = le.Uint64(r.neffVersionMinor())
	h.NeffBuildVersion = cString(r.neffBuildVersion())
	h.NumTPB = le.Uint32(r.numTPB())
	copy(h.Hash[:], r.hash())
	copy(h.UUID[:], r.uuid())
	h.Name = cString(r.name())
	h.RequestedTPBCount = le.Uint32(r.requestedTPBCount())
	copy(h.TPBPerNode[:], r.tpbPerNode())
	h.FeatureBits = le.Uint64(r.featureBits())
	h.LNCSize = le.Uint32(r.lncSize())
	return h
}

// HeaderFieldSpans is where each header field lies in the file, by its spec name: for packages
// that speak of header fields without reading the header (core/manifest's cross-checks).
func HeaderFieldSpans() map[string]*doc.Span {
	out := make(map[string]*doc.Span, len(headerFields))
	for i := range headerFields {
		out[headerFields[i].Name] = headerFields[i].span()
	}
	return out
}

// block is the header's bytes, read through its field accessors.
func (h *Header) block() *headerBlock { return (*headerBlock)(&h.Raw) }

// Pad is the reserved area after lnc_size (zero in every real NEFF).
func (h *Header) Pad() []byte { return h.block().pad() }

// has reports whether a field lies wholly inside the bytes the file has.
func (h *Header) has(f *fieldSpec) bool {
	s := f.span()
	return s.Offset+s.Length <= int64(h.Have)
}

func cString(b []byte) string {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// UUIDString is the canonical 8-4-4-4-12 form. Real files store RFC 4122 bytes in network
// order, so no byte swapping is applied (spec §1.1, [REAL]).
func (h *Header) UUIDString() string {
	u := h.UUID
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// UUIDVersion is the RFC 4122 version nibble and whether the variant is the RFC one.
func (h *Header) UUIDVersion() (version int, rfc4122 bool) {
	return int(h.UUID[6] >> 4), h.UUID[8]&0xC0 == 0x80
}

// StoredDigest is the stored hash as a hex digest the way md5sum/sha256sum print it, using the
// byte order real files use (see HashWordOrder). For pkg 1 it is all 32 bytes.
func (h *Header) StoredDigest() string {
	if h.PkgVersion == 1 {
		return hex.EncodeToString(h.Hash[:])
	}
	return hex.EncodeToString(md5FromStored(h.Hash[:16], HashWordOrder))
}

// md5FromStored turns the 16 stored bytes into the digest bytes under a word order.
func md5FromStored(stored []byte, order string) []byte {
	d := make([]byte, 16)
	copy(d, stored)
	if order == orderLEWords {
		for i := 0; i < 16; i += 4 {
			d[i], d[i+1], d[i+2], d[i+3] = d[i+3], d[i+2], d[i+1], d[i]
		}
	}
	return d
}

// TPBPerNodeInts returns the 64 per-node counts as ints (the info --json contract).
func (h *Header) TPBPerNodeInts() []int {
	out := make([]int, len(h.TPBPerNode))
	for i, b := range h.TPBPerNode {
		out[i] = int(b)
	}
	return out
}

// DigestMatches says whether sum, the payload's digest computed by a caller that streams it
// (MD5 for pkg 2, in either stored word order; SHA-256 for pkg 1), is the one the header stores.
func (h *Header) DigestMatches(sum []byte) bool {
	switch h.PkgVersion {
	case 1:
		return len(sum) == 32 && string(sum) == string(h.Hash[:])
	case 2:
		for _, order := range []string{HashWordOrder, otherOrder(HashWordOrder)} {
			if len(sum) == 16 && string(md5FromStored(h.Hash[:16], order)) == string(sum) {
				return true
			}
		}
	}
	return false
}
