package isa

import (
	"math"
	"strconv"
)

// ImmediateText shows a 32-bit immediate in every reading side by side, as ImHex's data
// inspector does at the field's first byte: unsigned and signed int, hex, fp32, and bf16 and
// fp16 of its first two bytes (little-endian). The compiler writes eps = 1e-6 as 0x358637BD
// (fp32 1e-06) and a bf16 fill of 1.0 as 0x00003F80 (bf16 1).
func ImmediateText(bits uint32) string {
	b := make([]byte, 0, 96)
	b = append(b, "u32 "...)
	b = strconv.AppendUint(b, uint64(bits), 10)
	if int32(bits) < 0 {
		b = append(b, " · i32 "...)
		b = strconv.AppendInt(b, int64(int32(bits)), 10)
	}
	b = append(b, " · hex 0x"...)
	b = appendHexWidth(b, uint64(bits), 8)
	b = append(b, " · fp32 "...)
	b = appendF32(b, bits)
	b = append(b, " · bf16 "...)
	b = appendF32(b, uint32(bits&0xFFFF)<<16)
	b = append(b, " · fp16 "...)
	b = strconv.AppendFloat(b, float64(fp16(uint16(bits))), 'g', -1, 32)
	return string(b)
}

// fp16 converts IEEE binary16 bits to float32.
func fp16(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := int(h>>10) & 0x1F
	frac := uint32(h & 0x3FF)
	switch {
	case exp == 0x1F:
		return math.Float32frombits(sign | 0x7F800000 | frac<<13)
	case exp == 0:
		v := float32(frac) / 1024 / 16384 // subnormal: frac × 2^-24
		if sign != 0 {
			return -v
		}
		return v
	}
	return math.Float32frombits(sign | uint32(exp-15+127)<<23 | frac<<13)
}

// scaleFloatMinExp is the smallest biased fp32 exponent read as a float in Activate's
// "scale": 2^-95 (≈2.5e-29). Real scales are 1.0, -1.0, sqrt 2, 1/128; the address-shaped
// values the issue reports (0x810000, 0x817200, 0x37F00) have exponents 0 and 1, and would
// print as 1.2e-38 or 3.2e-40 (unknowns isa.activate-scale).
const scaleFloatMinExp = 32

// ScaleIsFloat says whether Activate's "scale" bits read as a float: zero, or a finite value
// whose exponent is not tiny.
func ScaleIsFloat(bits uint32) bool {
	exp := bits >> 23 & 0xFF
	return bits&0x7FFFFFFF == 0 || exp >= scaleFloatMinExp && exp != 0xFF
}

// appendScale renders Activate's "scale": the float, or the bits with what they look like when
// they cannot be a scale (never a wrong float).
func appendScale(dst []byte, bits uint32) []byte {
	if ScaleIsFloat(bits) {
		return appendF32(dst, bits)
	}
	dst = appendHex(dst, uint64(bits))
	return append(dst, " (address-shaped, not a float; its form is unknown)"...)
}

// Tag bits of a PseudoDmaDirect2d address (byte 7; unknowns isa.direct2d-addresses): the
// public struct's VAR_ID, ADDR_TBL and OFFSET_REG bits. Real words carry 0x10 and 0x20; 0x28
// (table | offset register) is counted on MoE NEFFs that are not in testdata-real.
const (
	DmaTagVar       = 0x10 // the id is a def.json var id (0 = SB: the offset is an SBUF address)
	DmaTagDGE       = 0x20 // the id is an index into the core's dge-table var (the DGE index)
	DmaTagOffsetReg = 0x08 // the low u32 is a register number: the offset is that register's value
	// DmaTagDGEReg (0x28) is a table index with a register offset: a 0xDA PseudoExtension
	// word follows (two-word instruction, neff.md §4.7).
	DmaTagDGEReg = DmaTagDGE | DmaTagOffsetReg
)

// DmaAddr is a PseudoDmaDirect2d address split into its parts.
type DmaAddr struct {
	Tag    uint8
	ID     uint32 // var id (tag bit 0x10) or DGE-table index (tag bit 0x20)
	Offset uint32 // a byte offset, or with tag bit 0x08 a register number (OffsetReg)
}

// SplitDmaAddr splits an 8-byte PseudoDmaDirect2d address: offset in bytes 0..3, id in
// bytes 4..6, tag in byte 7.
func SplitDmaAddr(v uint64) DmaAddr {
	return DmaAddr{Tag: uint8(v >> 56), ID: uint32(v>>32) & 0xFFFFFF, Offset: uint32(v)}
}

// Base is the tag without the offset-register bit: DmaTagVar, DmaTagDGE, or another value
// no table explains.
func (a DmaAddr) Base() uint8 { return a.Tag &^ DmaTagOffsetReg }

// OffsetReg is the register whose value is the offset, when the tag has bit 0x08.
func (a DmaAddr) OffsetReg() (uint32, bool) {
	return a.Offset, a.Tag&DmaTagOffsetReg != 0 && (a.Base() == DmaTagVar || a.Base() == DmaTagDGE)
}

func appendDmaAddr(dst []byte, v uint64) []byte {
	a := SplitDmaAddr(v)
	switch a.Base() {
	case DmaTagVar:
		if a.ID == 0 && a.Tag == DmaTagVar {
			dst = append(dst, "SB:"...)
			return appendHex(dst, uint64(a.Offset))
		}
		dst = append(dst, "var "...)
		dst = strconv.AppendUint(dst, uint64(a.ID), 10)
	case DmaTagDGE:
		dst = append(dst, "dge["...)
		dst = strconv.AppendUint(dst, uint64(a.ID), 10)
		dst = append(dst, ']')
	default:
		dst = append(dst, "tag "...)
		dst = append(dst, hex2(a.Tag)...)
		dst = append(dst, " id "...)
		dst = strconv.AppendUint(dst, uint64(a.ID), 10)
		dst = append(dst, '+')
		return appendHex(dst, uint64(a.Offset))
	}
	dst = append(dst, '+')
	if r, ok := a.OffsetReg(); ok {
		return appendRegister(dst, uint64(r))
	}
	return appendHex(dst, uint64(a.Offset))
}

// appendRegister renders a register number: R31; a number past R63 is shown raw.
func appendRegister(dst []byte, r uint64) []byte {
	if r > registerIDMax {
		dst = append(dst, "register "...)
		return appendHex(dst, r)
	}
	dst = append(dst, 'R')
	return strconv.AppendUint(dst, r, 10)
}

// boundRegEnabled is the enable bit of a PseudoDmaDirect2d bound-register byte (+0x26/+0x27):
// 0xBD is R61, enabled.
const boundRegEnabled = 0x80

// appendBoundReg renders a bound-register byte: "none" (0), R61 (0xBD), else raw.
func appendBoundReg(dst []byte, raw uint64) []byte {
	switch {
	case raw == 0:
		return append(dst, "none"...)
	case raw&boundRegEnabled != 0:
		return appendRegister(dst, raw&^boundRegEnabled)
	}
	dst = appendHex(dst, raw)
	return append(dst, " (enable bit clear)"...)
}

// accFlagNames are Matmul's accumulate bits (+0x2B, neff.md §8.1).
var accFlagNames = [3]string{"start", "stop", "accumulate"}

func appendAccFlags(dst []byte, raw uint64) []byte {
	if raw == 0 {
		return append(dst, "continue"...)
	}
	if raw > 7 {
		return appendHex(dst, raw)
	}
	sep := false
	for b, name := range accFlagNames {
		if raw&(1<<b) != 0 {
			if sep {
				dst = append(dst, '+')
			}
			dst, sep = append(dst, name...), true
		}
	}
	return dst
}

// appendQuadMask renders a PE row or column group (Matmul/Ldweights +0x2C/+0x2D): a mask of
// the array's four 32-row (32-column) quadrants; 0x0F is all four, an untiled matmul.
func appendQuadMask(dst []byte, raw uint64) []byte {
	dst = appendHex(dst, raw)
	switch {
	case raw == 0x0F:
		return append(dst, " (all quadrants, untiled)"...)
	case raw == 0 || raw > 0x0F:
		return dst
	}
	dst = append(dst, " (quadrant"...)
	if raw&(raw-1) != 0 {
		dst = append(dst, 's')
	}
	for q := range 4 {
		if raw&(1<<q) != 0 {
			dst = append(dst, ' ')
			dst = strconv.AppendInt(dst, int64(q), 10)
		}
	}
	return append(dst, ')')
}

// appendScaleSource renders Activate's scale source (+0x0D, neff.md §8.1).
func appendScaleSource(dst []byte, raw uint64) []byte {
	switch raw {
	case 0:
		return append(dst, "immediate"...)
	case 1:
		return append(dst, "SBUF pointer"...)
	}
	return appendHex(dst, raw)
}

// appendFill renders Memset's fill value (+0x28) in the word's dtype (+0x20): the compiler
// writes -1e9 as fp32 bits 0xCE6E6B28 and a bf16 1.0 as 0x3F80.
func appendFill(dst []byte, bits uint32, dtype uint8) []byte {
	switch dtype {
	case 6: // bf16
		return appendF32(dst, bits<<16)
	case 7: // fp16
		return strconv.AppendFloat(dst, float64(fp16(uint16(bits))), 'g', -1, 32)
	case 10: // fp32
		return appendF32(dst, bits)
	case 2: // int8
		return strconv.AppendInt(dst, int64(int8(bits)), 10)
	case 4: // int16
		return strconv.AppendInt(dst, int64(int16(bits)), 10)
	case 8: // int32
		return strconv.AppendInt(dst, int64(int32(bits)), 10)
	case 3: // uint8
		return strconv.AppendUint(dst, uint64(uint8(bits)), 10)
	case 5: // uint16
		return strconv.AppendUint(dst, uint64(uint16(bits)), 10)
	case 9: // uint32
		return strconv.AppendUint(dst, uint64(bits), 10)
	}
	dst = appendHex(dst, uint64(bits))
	return append(dst, " (bits; dtype not readable)"...)
}

// PseudoDmaDirect2d (0xD4) and its PseudoExtension (0xDA) read through their layout fields
// (direct2dFields), like the joins' accessors.
var (
	addr0Accessor        = newAccessor("addr0", 0xD4)
	addr1Accessor        = newAccessor("addr1", 0xD4)
	queueSemAccessor     = newAccessor("queue semaphore", 0xD4)
	semIncrementAccessor = newAccessor("sem increment", 0xD4)
	srcBoundRegAccessor  = newAccessor("src bound reg", 0xD4)
	dstBoundRegAccessor  = newAccessor("dst bound reg", 0xD4)
	boundSizeAccessor    = newAccessor("src bound size bytes", 0xDA)
	// direct2dSides are each side's access pattern: step_elem[2], num_elem[2], elem_size.
	direct2dSides = [2][5]*accessor{
		{newAccessor("src step elem[0]", 0xD4), newAccessor("src step elem[1]", 0xD4), newAccessor("src num elem[0]", 0xD4), newAccessor("src num elem[1]", 0xD4), newAccessor("src elem size", 0xD4)},
		{newAccessor("dst step elem[0]", 0xD4), newAccessor("dst step elem[1]", 0xD4), newAccessor("dst num elem[0]", 0xD4), newAccessor("dst num elem[1]", 0xD4), newAccessor("dst elem size", 0xD4)},
	}
)

// Direct2dAddrs reads a PseudoDmaDirect2d (0xD4) word's source and destination addresses.
func Direct2dAddrs(word []byte) (src, dst DmaAddr, ok bool) {
	a0, ok0 := addr0Accessor.read(word)
	a1, ok1 := addr1Accessor.read(word)
	if !ok0 || !ok1 {
		return DmaAddr{}, DmaAddr{}, false
	}
	return SplitDmaAddr(a0), SplitDmaAddr(a1), true
}

// Direct2dSemaphore reads a PseudoDmaDirect2d (0xD4) word's queue semaphore (+0x0D).
func Direct2dSemaphore(word []byte) (uint8, bool) {
	v, ok := queueSemAccessor.read(word)
	return uint8(v), ok
}

// Direct2dCompletion reads what a PseudoDmaDirect2d's completion does: it adds increment to
// semaphore sem (the queue semaphore +0x0D, sem_increment +0x0E).
func Direct2dCompletion(word []byte) (sem, increment uint8, ok bool) {
	s, ok1 := queueSemAccessor.read(word)
	inc, ok2 := semIncrementAccessor.read(word)
	return uint8(s), uint8(inc), ok1 && ok2
}

// Direct2dBoundRegs reads a PseudoDmaDirect2d word's bound-register bytes (+0x26 source,
// +0x27 destination): register number and whether the bound check is enabled (bit 7).
func Direct2dBoundRegs(word []byte) (src, dst uint8, srcOn, dstOn, ok bool) {
	s, ok1 := srcBoundRegAccessor.read(word)
	d, ok2 := dstBoundRegAccessor.read(word)
	if !ok1 || !ok2 {
		return 0, 0, false, false, false
	}
	return uint8(s) &^ boundRegEnabled, uint8(d) &^ boundRegEnabled, s&boundRegEnabled != 0, d&boundRegEnabled != 0, true
}

// DmaPattern is one side of a PseudoDmaDirect2d: the public struct's generic access pattern,
// in bytes (step_elem, elem_size) and counts (num_elem), outer dimension first.
type DmaPattern struct {
	StepElem [2]int32 // signed, as the operand descriptors' steps
	NumElem  [2]uint16
	ElemSize uint16
}

// Direct2dPatterns reads a PseudoDmaDirect2d word's two access patterns (source, destination).
func Direct2dPatterns(word []byte) (src, dst DmaPattern, ok bool) {
	var out [2]DmaPattern
	for k, side := range direct2dSides {
		var v [5]uint64
		for j, a := range side {
			if v[j], ok = a.read(word); !ok {
				return DmaPattern{}, DmaPattern{}, false
			}
		}
		out[k] = DmaPattern{StepElem: [2]int32{int32(uint32(v[0])), int32(uint32(v[1]))}, NumElem: [2]uint16{uint16(v[2]), uint16(v[3])}, ElemSize: uint16(v[4])}
	}
	return out[0], out[1], true
}

// Direct2dSrcBytes is the bytes a PseudoDmaDirect2d word reads at its source: num_elem[0] ×
// num_elem[1] × src_elem_size (+0x20, +0x22, +0x24; all in bytes but the counts). A step of 0
// (a broadcast) reads the same bytes again for each count.
func Direct2dSrcBytes(word []byte) (int64, bool) {
	src, _, ok := Direct2dPatterns(word)
	if !ok {
		return 0, false
	}
	return int64(src.NumElem[0]) * int64(src.NumElem[1]) * int64(src.ElemSize), true
}

// StartsTwoWord says whether a word is a 0xD4 whose addr0 tag (+0x17) is 0x28: the first word
// of a two-word 0xD4+0xDA instruction (neff.md §4.7).
func StartsTwoWord(word []byte) bool {
	a, ok := addr0Accessor.read(word)
	return ok && SplitDmaAddr(a).Tag == DmaTagDGEReg
}

// ExtensionBoundSize reads a 0xDA PseudoExtension word's src_bound_size_bytes (+0x0C): the
// size of the source var its 0xD4 reads through a register offset.
func ExtensionBoundSize(word []byte) (uint32, bool) {
	v, ok := boundSizeAccessor.read(word)
	return uint32(v), ok
}

// LayoutSpan is one field's place in its word, for `disasm --json`'s "layout": Field is the
// name as in the instruction's fields; a name starting with "unknown" marks bytes whose
// meaning is not known.
type LayoutSpan struct {
	Field string `json:"field"`
	Off   int    `json:"off"`
	Len   int    `json:"len"`
}

// Layout lists the byte span of every field of the instruction (a descriptor as one span),
// in field order.
func (in Instruction) Layout() []LayoutSpan {
	out := make([]LayoutSpan, 0, len(in.Fields))
	for _, f := range in.Fields {
		if f.Width > 0 {
			out = append(out, LayoutSpan{Field: f.Name, Off: f.Off, Len: f.Width})
		}
	}
	return out
}

// IsUnknownName says whether a field name marks bytes of unknown meaning.
func IsUnknownName(name string) bool { return len(name) >= 7 && name[:7] == "unknown" }
