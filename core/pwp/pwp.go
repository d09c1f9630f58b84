// Package pwp owns the Activation engine's piecewise-polynomial (PWP) tables: the act_info.json
// roster, the per-set profile JSON (<set>.json), the <set>_bkt.bin bucket records and the
// <set>_ctrl.bin octave control words (spec/activation.md §1–§5), the join of the four into
// per-function tables with every structural invariant checked, and an evaluator bit-exact to
// the reference simulator's model (§7.2) with an fp32-Horner alternative (§7.6).
//
// It is pure: callers hand in bytes (and the names they came from) and get back Sets,
// Functions and doc trees whose spans point at those bytes.
package pwp

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
)

// Record sizes fixed by the format (§2, §3).
const (
	BucketSize        = 32 // bytes per <set>_bkt.bin record, both catalogs
	bucketPayload     = 20 // d0,d1,d2,d3,x; the remaining 12 bytes are zero padding
	SlotCount         = 4  // saturation slots per function block
	maxBlobRecords    = 1 << 20
	maxProfileEntries = 4096
)

// Slot names in the order the four saturation records follow the LUT (§2).
var slotNames = [SlotCount]string{"pos_small", "neg_small", "pos_large", "neg_large"}

// Slot indices.
const (
	SlotPosSmall = 0
	SlotNegSmall = 1
	SlotPosLarge = 2
	SlotNegLarge = 3
)

// SlotName names a saturation slot.
func SlotName(slot int) string {
	if slot < 0 || slot >= SlotCount {
		return "slot?"
	}
	return slotNames[slot]
}

// Bucket is one decoded <set>_bkt.bin record: f ≈ d0 + d1·t + d2·t² + d3·t³, t = v − X.
type Bucket struct {
	D0, D1, D2, D3, X float32
}

// Control is one decoded <set>_ctrl.bin word (§3).
type Control struct {
	Word       uint32
	Base       int // bits [10:0]: absolute bkt index of the octave's first bucket
	ExtractLSB int // bits [15:11]
	Size       int // bits [23:16]: mantissa bits used as the bucket index
	Reserved   int // bits [31:24], always 0
}

// DecodeControl splits a control word into its fields.
func DecodeControl(w uint32) Control {
	return Control{Word: w, Base: int(w & 0x7ff), ExtractLSB: int(w>>11) & 0x1f, Size: int(w>>16) & 0xff, Reserved: int(w >> 24)}
}

// Sentinel reports an empty-octave word (lsb = size = 0, only a base).
func (c Control) Sentinel() bool { return c.Size == 0 && c.ExtractLSB == 0 }

// PackControl builds a populated octave word: (size<<16) | ((23−size)<<11) | base (§3).
func PackControl(base, size int) uint32 {
	return uint32(size)<<16 | uint32(23-size)<<11 | uint32(base)&0x7ff
}

func le32(b []byte, off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }

// Hex8 formats raw bits as 8 lowercase hex digits.
func Hex8(bits uint32) string { return fmt.Sprintf("%08x", bits) }

// FormatFloat32 renders a float32 in its shortest round-trip form.
func FormatFloat32(f float32) string {
	switch {
	case math.IsNaN(float64(f)):
		return "NaN"
	case math.IsInf(float64(f), 1):
		return "+Inf"
	case math.IsInf(float64(f), -1):
		return "-Inf"
	}
	return strconv.FormatFloat(float64(f), 'g', -1, 32)
}

// BitsText shows a raw IEEE-754 pattern as hex and as the float it encodes.
func BitsText(bits uint32) string {
	return "0x" + Hex8(bits) + " = " + FormatFloat32(math.Float32frombits(bits))
}
