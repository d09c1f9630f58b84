package timeline

import "encoding/binary"

// Where the cost model reads an instruction's size: the operand descriptor (ADDR4, then Rank
// i16 steps and Rank u16 counts, neff.md §4.4) whose counts give the free size (elements per
// partition), and the byte holding its dtype tag. These are the offsets core/isa's layout
// table names (TestShapeSlotsMatchISA holds the two together on real words).
type shapeSlot struct {
	Off, Rank   uint8
	DtypeOff    uint8
	DtypeNibble uint8 // 0 whole byte, 1 low nibble, 2 high nibble
}

var shapeSlots = [256]*shapeSlot{
	0x01: {0x10, 3, 0x20, 0}, // Ldweights: family A src, dtype +0x20
	0x02: {0x10, 3, 0x20, 0}, // Matmul: family A src (the moving tensor), dtype +0x20
	0x21: {0x10, 3, 0x20, 1}, // Activate: family A src, in dtype low nibble of +0x20
	0x41: {0x10, 3, 0x0C, 1}, // TensorTensorArithOp: in0 at +0x10, dtypes +0x0C
	0x42: {0x0C, 4, 0x20, 0}, // TensorReduceArithOp: family C in
	0x45: {0x0C, 4, 0x20, 0}, // Pool: family C in
	0x46: {0x0C, 4, 0x20, 0}, // Copy
	0x47: {0x0C, 4, 0x20, 0}, // Cast
	0x48: {0x0C, 4, 0x20, 0}, // Reciprocal
}

// outSlots is the output descriptor, for ShapeOut rows.
var outSlots = [256]*shapeSlot{
	0x49: {0x2C, 4, 0x20, 0}, // Memset: family C out, dtype +0x20
}

// dtypeBytes is each wire dtype tag's element size (neff.md §4.4); 0: not known.
var dtypeBytes = [16]uint8{1: 8, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 2, 8: 4, 9: 4, 10: 4, 11: 4, 12: 8, 13: 1, 14: 1, 15: 1}

// freeSize reads the free size (the product of the descriptor's counts) and the element
// size in bytes of a word's operand; ok is false when the opcode has no such slot.
func freeSize(w []byte, s *shapeSlot) (n int64, elem uint8, ok bool) {
	if s == nil || len(w) < 64 {
		return 0, 0, false
	}
	n = 1
	for d := 0; d < int(s.Rank); d++ {
		n *= int64(binary.LittleEndian.Uint16(w[int(s.Off)+4+2*int(s.Rank)+2*d:]))
	}
	t := w[s.DtypeOff]
	switch s.DtypeNibble {
	case 1:
		t &= 15
	case 2:
		t >>= 4
	}
	if t < 16 {
		elem = dtypeBytes[t]
	}
	return n, elem, true
}
