package neff

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
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

// fieldSpec describes one header field: where it is, its official name and what it means.
// This is the single table the decoder, the document and the CLI all read.
type fieldSpec struct {
	Name    string
	Off     int
	Size    int
	Meaning string
}

// headerFields lists every field of spec neff.md §1.1 in order. Offsets are [REAL]/[DOC]
// (confirmed on every real file); see the unknowns table for lnc_size's width.
var headerFields = []fieldSpec{
	{"pkg_version", 0x000, 8, "packaging format: 1 = plain tar + SHA-256, 2 = gzip'd tar + MD5"},
	{"header_size", 0x008, 8, "header length; libnrt only checks header_size < file size and always reads the payload at 1024"},
	{"data_size", 0x010, 8, "payload length as stored (gzip stream plus zero padding); must be ≤ file size − 1024"},
	{"neff_version_major", 0x018, 8, "NEFF format major version; runtimes accept 0..2, and check feature_bits only when it is 2"},
	{"neff_version_minor", 0x020, 8, "NEFF format minor version; logged, never gated"},
	{"neff_build_version", 0x028, 128, "free text \"ver%branch@sha\" of the producer, NUL-padded; empty in modern files"},
	{"num_tpb", 0x0A8, 4, "total number of TPBs (NeuronCores) required; equals info.json num_tpb"},
	{"hash", 0x0AC, 32, "integrity digest of the payload bytes as stored (pkg 2: MD5 in the first 16 bytes; pkg 1: SHA-256)"},
	{"uuid", 0x0CC, 16, "NEFF identity; the runtime's cache key and the profiler's NEFF↔trace pairing key"},
	{"name", 0x0DC, 256, "model (network) name, NUL-terminated; equals info.json name"},
	{"requested_tpb_count", 0x1DC, 4, "TPBs requested at compile time; equals info.json num_tpb_requested"},
	{"tpb_per_node", 0x1E0, 64, "TPBs required per kelf node, one byte per node; equals info.json num_tpb_per_node"},
	{"feature_bits", 0x220, 8, "capability mask; a runtime rejects bits it does not know (only when major == 2)"},
	{"lnc_size", 0x228, 4, "logical NeuronCore size (1, or 2 = two physical cores fused); libnrt calls it vnc_size"},
	{"pad", 0x22C, 468, "reserved, zero"},
}

// field returns the spec row by name.
func field(name string) fieldSpec {
	for _, f := range headerFields {
		if f.Name == name {
			return f
		}
	}
	panic("neff: no header field " + name) // programming error: names are constants
}

// ParseHeader decodes the header from the first bytes of a file. b may be shorter than 1024
// bytes: fields that end past len(b) are left zero and Have records how much there was.
func ParseHeader(b []byte) Header {
	var full [HeaderSize]byte
	n := copy(full[:], b)
	h := Header{Have: n, Raw: full}
	le := binary.LittleEndian
	h.PkgVersion = le.Uint64(full[0x000:])
	h.HeaderSize = le.Uint64(full[0x008:])
	h.DataSize = le.Uint64(full[0x010:])
	h.NeffVersionMajor = le.Uint64(full[0x018:])
	h.NeffVersionMinor = le.Uint64(full[0x020:])
	h.NeffBuildVersion = cString(full[0x028 : 0x028+128])
	h.NumTPB = le.Uint32(full[0x0A8:])
	copy(h.Hash[:], full[0x0AC:0x0AC+32])
	copy(h.UUID[:], full[0x0CC:0x0CC+16])
	h.Name = cString(full[0x0DC : 0x0DC+256])
	h.RequestedTPBCount = le.Uint32(full[0x1DC:])
	copy(h.TPBPerNode[:], full[0x1E0:0x1E0+64])
	h.FeatureBits = le.Uint64(full[0x220:])
	h.LNCSize = le.Uint32(full[0x228:])
	return h
}

// present reports whether the named field lies wholly inside the bytes the file has.
func (h *Header) present(name string) bool {
	f := field(name)
	return f.Off+f.Size <= h.Have
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
