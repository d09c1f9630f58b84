package sched

import "github.com/neffscope/neffscope/core/isa"

// Where each operand is and what it touches comes from the opcode table (core/isa: the
// Memory column and each layout's operand slots, read through isa.Operands); this file places
// them: an ADDR4 and its access pattern become exact boxes of SBUF or PSUM.

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

// operandBoxes places one memory operand: an access pattern from its ADDR4, or a pointer's one
// element in each partition (neff.md §4.4). ok is false when it cannot be placed exactly.
func operandBoxes(dst []Box, o *isa.Operand) (Space, []Box, bool) {
	es := int64(o.ElemBytes)
	parts := uint16(o.Partitions)
	if es == 0 || parts == 0 || o.Undecided || o.Partitions > 0xFFFF {
		return 0, dst, false
	}
	a := o.Addr
	steps, counts := o.Steps[:o.Rank], o.Counts[:o.Rank]
	switch {
	case a&addrMask >= psumBase && a&addrMask < psumEnd && a&^addrMask == 0:
		out, ok := patternBoxes(dst, 0, parts, int64(a-psumBase), steps, counts, es, maxBoxes)
		return PSUM, out, ok
	case a&sbufBits == 0:
		out, ok := patternBoxes(dst, uint16(a>>partShift), parts, int64(a&partOffset), steps, counts, es, maxBoxes)
		return SBUF, out, ok
	}
	return 0, dst, false
}

// maxBoxes is the most boxes one access is enumerated into.
const maxBoxes = 4096
