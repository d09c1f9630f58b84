package isa

import "encoding/binary"

// Memory is how an opcode's operands reach SBUF and PSUM: the opcode table's Memory column.
type Memory uint8

const (
	// MemUnknown: which operands touch SBUF or PSUM is not known (the default).
	MemUnknown Memory = iota
	// MemNone: no operand touches SBUF or PSUM (tables, sync, registers, labels) [REAL: the
	// words of the opcodes so marked, in every real file].
	MemNone
	// MemOperands: its layout row's Operands say where each operand is (Operands).
	MemOperands
	// MemDMA: it starts a DMA, whose sides are the engine JSON's block (0xC1) or the word's
	// own addresses and access patterns (0xD4: Direct2dAddrs, Direct2dPatterns).
	MemDMA
)

// MemoryOf is the opcode table's Memory column for op.
func MemoryOf(op uint8) Memory { return opcodeTable[op].Memory }

// operandSpec is one operand slot of a layout that the memory model places: a descriptor of the
// layout (an access pattern: ADDR4, steps, counts) or a pointer field (an ADDR4 naming one
// element in each partition, as Activate's bias and scale), whether the engine reads or writes
// through it, and the layout fields that hold its dtype tag and its partition count.
type operandSpec struct {
	Slot  string
	Write bool
	Dtype string
	// FP32Unless: the elements are fp32 (what a PSUM accumulation holds) unless this field
	// is 1; then they are Dtype's.
	FP32Unless string
	Parts      string
	// When is the field that says whether the slot is a memory operand at all: it is one
	// when When holds Is, none (an inline immediate, a register) when it holds one of Not,
	// and for any other value the word does not say (Operand.Undecided).
	When string
	Is   uint8
	Not  []uint8
}

// operandSlot is an operandSpec resolved against its layout (buildOperandIndex).
type operandSlot struct {
	spec                       *operandSpec
	desc                       *descSpec
	pointer, dtype, fp32Unless *fieldSpec
	parts, when                *fieldSpec
}

// operandIndex holds each opcode's resolved operand slots; a name that resolves to nothing
// leaves its part nil, which TestOpcodeTableMatchesLayouts reports.
var operandIndex = buildOperandIndex()

func buildOperandIndex() (t [256][]operandSlot) {
	for op, l := range layoutIndex {
		if l == nil {
			continue
		}
		for i := range l.Operands {
			s := &l.Operands[i]
			o := operandSlot{spec: s, dtype: l.field(s.Dtype), fp32Unless: l.field(s.FP32Unless), parts: l.field(s.Parts), when: l.field(s.When)}
			for j := range l.Descs {
				if l.Descs[j].Name == s.Slot {
					o.desc = &l.Descs[j]
				}
			}
			if o.desc == nil {
				o.pointer = l.field(s.Slot)
			}
			t[op] = append(t[op], o)
		}
	}
	return t
}

// field is the layout's field named name (nil: none, or name is "").
func (l *compiledLayout) field(name string) *fieldSpec {
	if name == "" {
		return nil
	}
	for i := range l.Fields {
		if l.Fields[i].Name == name {
			return &l.Fields[i]
		}
	}
	return nil
}

// OperandSlots is how many operand slots opcode op's layout names (what Operands returns at
// most for one word).
func OperandSlots(op uint8) int { return len(operandIndex[op]) }

// Operand is one memory operand of a word, read through its layout's operand slot.
type Operand struct {
	Name  string // the slot's name in the layout (a descriptor or a field)
	Write bool
	// Pointer: Addr names one element in each partition (no pattern: Rank 0).
	Pointer bool
	// Undecided: the word does not say whether the slot is a memory operand (its When field
	// holds a value the table does not know); nothing else is read.
	Undecided bool
	Addr      uint32 // ADDR4 (neff.md §4.4)
	// Rank dimensions of signed element steps and counts, innermost first.
	Rank          int
	Steps, Counts [4]int64
	Dtype         uint8 // the wire dtype tag of its elements
	ElemBytes     int   // their size; 0 when the tag's size is not known
	Partitions    int
}

// Operands appends the memory operands of word w to dst: one per operand slot of its layout
// whose When (if any) does not say it is an immediate or a register. Opcodes whose Memory is
// not MemOperands have none.
func Operands(dst []Operand, w []byte) []Operand {
	if len(w) < WordSize {
		return dst
	}
	word := (*[WordSize]byte)(w[:WordSize])
	for k := range operandIndex[w[0]] {
		o := &operandIndex[w[0]][k]
		s := o.spec
		out := Operand{Name: s.Slot, Write: s.Write}
		if o.when != nil {
			v := uint8(readRaw(word, o.when))
			if v != s.Is {
				not := false
				for _, n := range s.Not {
					not = not || v == n
				}
				if not {
					continue
				}
				out.Undecided = true
				dst = append(dst, out)
				continue
			}
		}
		if o.desc != nil {
			out.Addr, out.Rank = binary.LittleEndian.Uint32(word[o.desc.Off:]), int(o.desc.Rank)
			for d := 0; d < out.Rank; d++ {
				out.Steps[d] = int64(int16(binary.LittleEndian.Uint16(word[int(o.desc.Off)+4+2*d:])))
				out.Counts[d] = int64(binary.LittleEndian.Uint16(word[int(o.desc.Off)+4+2*out.Rank+2*d:]))
			}
		} else if o.pointer != nil {
			out.Addr, out.Pointer = uint32(readRaw(word, o.pointer)), true
		}
		switch {
		case o.fp32Unless != nil && readRaw(word, o.fp32Unless) != 1:
			out.Dtype = dtypeFP32
		case o.dtype != nil:
			out.Dtype = uint8(readRaw(word, o.dtype))
		}
		out.ElemBytes = DtypeBytes(out.Dtype)
		if o.parts != nil {
			out.Partitions = int(readRaw(word, o.parts))
		}
		dst = append(dst, out)
	}
	return dst
}

// dtypeFP32 is the wire tag of fp32 (neff.md §4.4).
const dtypeFP32 = 10

// DtypeBytes is the size of one element of wire dtype tag tag (0: not known, or not a whole
// number of bytes).
func DtypeBytes(tag uint8) int { return int(dtypeBytes[tag]) }

var dtypeBytes = func() (t [256]uint8) {
	for _, r := range dtypeTags {
		t[r.Code] = r.Bytes
	}
	return t
}()
