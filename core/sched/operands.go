package sched

import "encoding/binary"

// Where each opcode's operands are and what they touch: the descriptor slots of neff.md §4.4
// (core/isa/layouts.go names the same offsets; a test holds the two to each other), whether
// the engine reads or writes through each, the wire dtype tag that sizes its elements, and the
// byte that says how many partitions it spans. Opcodes without a row have operands the model
// does not know: a core that holds them is modelled without their accesses (mem.unknown-operands).
type operandSlot struct {
	Name  string
	Off   uint8
	Rank  uint8
	Write bool
	// Dtype: the byte holding the tag, and which nibble (0 whole byte, 1 low, 2 high);
	// DtypeFixed, when non-zero, is the tag itself, unless the byte at PassOff is 1: then the
	// tag at DtypeOff passes through.
	DtypeOff, DtypeNibble, DtypeFixed, PassOff uint8
}

type operandRow struct {
	Opcode     uint8
	Slots      []operandSlot
	PartsOff   uint8 // the byte holding the partition count
	Source     string
	Confidence string
}

const dtypeFP32 = 10

var operandRows = []operandRow{
	{0x01, []operandSlot{{"src", 0x10, 3, false, 0x20, 0, 0, 0}}, 0x26,
		"Ldweights: family A src, dtype +0x20, rows +0x26 (isa.pe-control-band); reads rows backwards (negative steps) [INF from REAL: 20,533 words within their partitions]", "medium"},
	// A transposing matmul (+0x22 = 1, isa.pe-control-band) writes its input dtype: in
	// matmul_small two transposes write PSUM 0x800 and 0x900 and one Copy reads 0x800..0x9ff
	// as int32; the others accumulate fp32 (the Copy after them reads fp32).
	{0x02, []operandSlot{{"src", 0x10, 3, false, 0x20, 0, 0, 0}, {"dst", 0x30, 3, true, 0x20, 0, dtypeFP32, 0x22}}, 0x26,
		"Matmul: family A; PSUM dst fp32, or the input dtype when transposing [INF from REAL: 20,538 words within PSUM's 16 KiB; the copies after them]; an accumulating matmul also reads dst, on its own engine", "medium"},
	{0x21, []operandSlot{{"src", 0x10, 3, false, 0x20, 1, 0, 0}, {"dst", 0x30, 3, true, 0x21, 0, 0, 0}}, 0x22,
		"Activate: neff.md §4.5 (in dtype low nibble +0x20, out dtype +0x21, active channels +0x22) [OBS, REAL]", "high"},
	// neff.md §4.4 puts family B's dst at +0x10 and its inputs at +0x20 and +0x30; the data
	// flow of the real files says otherwise: in stream_256k_fd1k (Trn1 and Trn2) the DMAs
	// write a_vec and b_vec where +0x10 and +0x20 point, and the output DMA reads where +0x30
	// points; every TensorTensor of the real files reads so without a race.
	{0x41, []operandSlot{{"in0", 0x10, 3, false, 0x0C, 1, 0, 0}, {"in1", 0x20, 3, false, 0x0C, 2, 0, 0}, {"dst", 0x30, 3, true, 0x0D, 0, 0, 0}}, 0x0F,
		"TensorTensor: family B slots with dst at +0x30, not +0x10 as neff.md §4.4 says [INF from REAL data flow]; dtype nibbles isa.familyB-dtype-nibbles", "medium"},
	{0x42, []operandSlot{{"in", 0x0C, 4, false, 0x20, 0, 0, 0}, {"out", 0x2C, 4, true, 0x21, 0, 0, 0}}, 0x22,
		"Reduce: family C (isa.familyC-control-band) [INF from REAL]", "medium"},
	{0x46, []operandSlot{{"in", 0x0C, 4, false, 0x20, 0, 0, 0}, {"out", 0x2C, 4, true, 0x21, 0, 0, 0}}, 0x22,
		"Copy: family C [OBS, REAL]", "high"},
	{0x47, []operandSlot{{"in", 0x0C, 4, false, 0x20, 0, 0, 0}, {"out", 0x2C, 4, true, 0x21, 0, 0, 0}}, 0x22,
		"Cast: family C (isa.cast-reciprocal-family) [INF from REAL]", "medium"},
	{0x49, []operandSlot{{"out", 0x2C, 4, true, 0x20, 0, 0, 0}}, 0x22,
		"Memset: family C out, dtype +0x20 (isa.memset-out-rank) [OBS, REAL]", "medium"},
}

var operandIndex [256]*operandRow

func init() {
	for i := range operandRows {
		operandIndex[operandRows[i].Opcode] = &operandRows[i]
	}
}

// elemBytes is each wire dtype tag's element size (neff.md §4.4); 0: not known.
var elemBytes = [256]uint8{1: 8, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 2, 8: 4, 9: 4, 10: 4, 11: 4, 12: 8, 13: 1, 14: 1, 15: 1}

func (s *operandSlot) dtype(w []byte) uint8 {
	switch {
	case s.DtypeFixed != 0 && (s.PassOff == 0 || w[s.PassOff] != 1):
		return s.DtypeFixed
	case s.DtypeNibble == 1:
		return w[s.DtypeOff] & 15
	case s.DtypeNibble == 2:
		return w[s.DtypeOff] >> 4
	}
	return w[s.DtypeOff]
}

// Space is a memory the model places accesses in.
type Space uint8

const (
	SBUF Space = iota
	PSUM
)

func (s Space) String() string {
	if s == PSUM {
		return "PSUM"
	}
	return "SBUF"
}

// Address spaces (neff.md §4.4, §8.4): an ADDR4 in the PSUM window is an offset in every
// partition's 16 KiB; one with bits 25..31 clear is SBUF, start partition << 18 | byte offset
// (checked on every operand of the real files, sbuf_test.go); anything else (a register, an
// indirect or dynamic address) is not placed.
const (
	psumBase   = 0x2000000
	psumEnd    = 0x2400000
	sbufBits   = 0xFE000000
	addrMask   = 0x1FFFFFFF
	partShift  = 18
	partOffset = 1<<partShift - 1
)

// Capacities: partitions, and bytes per partition by target. Sunda (Trn1): 192 KiB, every
// real offset below it; cayman (Trn2): 224 KiB, where the evtaccel range its def.json reserves
// (runtime_statebuffer_reservation: offset 229,368, size 8) ends. PSUM: 16 KiB (neff.md §8.4).
const (
	Partitions    = 128
	psumPartBytes = 16 << 10
)

var sbufPartBytes = map[string]uint32{"sunda": 192 << 10, "cayman": 224 << 10}

// Box is bytes of a run of partitions: [Offset, Offset+Bytes) in each of partitions
// [Partition, Partition+Partitions), repeated Count times Stride bytes apart (Count >= 1).
type Box struct {
	Offset, Bytes, Stride uint32
	Count                 uint32
	Partition, Parts      uint16
}

// end is one past the box's last byte.
func (b Box) end() uint32 { return b.Offset + (b.Count-1)*b.Stride + b.Bytes }

// patternBoxes appends the boxes of an access pattern: element steps (signed) and counts,
// innermost first, from byte offset off, elements es bytes. ok is false when the pattern
// cannot be placed exactly within limit boxes (a count of 0, bytes before 0).
func patternBoxes(dst []Box, part, parts uint16, off int64, steps []int64, counts []int64, es int64, limit int) ([]Box, bool) {
	// The innermost dimension with a count > 1 becomes a run or a stride; the next one the
	// box's repeat; the others are enumerated.
	type dim struct{ step, count int64 }
	var dims []dim
	for k := range steps {
		if counts[k] <= 0 {
			return dst, false
		}
		if counts[k] > 1 && steps[k] != 0 {
			dims = append(dims, dim{steps[k] * es, counts[k]})
		}
	}
	bytes, stride, count := es, int64(0), int64(1)
	rest := dims
	if len(rest) > 0 && rest[0].step == es {
		bytes, rest = es*rest[0].count, rest[1:]
	}
	if len(rest) > 0 {
		stride, count, rest = rest[0].step, rest[0].count, rest[1:]
	}
	if stride < 0 {
		off += (count - 1) * stride
		stride = -stride
	}
	if count > 1 && stride <= bytes { // runs that touch or overlap: one run
		bytes, stride, count = (count-1)*stride+bytes, 0, 1
	}
	n := 1
	for _, d := range rest {
		n *= int(d.count)
		if n > limit {
			return dst, false
		}
	}
	idx := make([]int64, len(rest))
	for {
		o := off
		for k, d := range rest {
			o += idx[k] * d.step
		}
		if o < 0 || o+(count-1)*stride+bytes > 1<<32-1 {
			return dst, false
		}
		dst = append(dst, Box{Offset: uint32(o), Bytes: uint32(bytes), Stride: uint32(stride), Count: uint32(count), Partition: part, Parts: parts})
		k := 0
		for ; k < len(rest); k++ {
			idx[k]++
			if idx[k] < rest[k].count {
				break
			}
			idx[k] = 0
		}
		if k == len(rest) {
			return dst, true
		}
	}
}

// descriptorBoxes places one operand descriptor of word w: ADDR4 at slot.Off, then Rank i16
// element steps and Rank u16 counts (neff.md §4.4).
func descriptorBoxes(dst []Box, w []byte, s *operandSlot, parts uint16) (Space, []Box, bool) {
	a := binary.LittleEndian.Uint32(w[s.Off:])
	es := int64(elemBytes[s.dtype(w)])
	if es == 0 || parts == 0 {
		return 0, dst, false
	}
	var steps, counts [4]int64
	for d := 0; d < int(s.Rank); d++ {
		steps[d] = int64(int16(binary.LittleEndian.Uint16(w[int(s.Off)+4+2*d:])))
		counts[d] = int64(binary.LittleEndian.Uint16(w[int(s.Off)+4+2*int(s.Rank)+2*d:]))
	}
	r := int(s.Rank)
	switch {
	case a&addrMask >= psumBase && a&addrMask < psumEnd && a&^addrMask == 0:
		out, ok := patternBoxes(dst, 0, parts, int64(a-psumBase), steps[:r], counts[:r], es, maxBoxes)
		return PSUM, out, ok
	case a&sbufBits == 0:
		out, ok := patternBoxes(dst, uint16(a>>partShift), parts, int64(a&partOffset), steps[:r], counts[:r], es, maxBoxes)
		return SBUF, out, ok
	}
	return 0, dst, false
}

// maxBoxes is the most boxes one access is enumerated into.
const maxBoxes = 4096
