package timeline

import "github.com/neffscope/neffscope/core/isa"

// operandSize is the free size (elements per partition: the product of its access pattern's
// counts) and the element size in bytes of the operand a Shape names, read through core/isa's
// opcode table (isa.Operands): ShapeIn and ShapeMoving the first operand the engine reads
// through an access pattern, ShapeOut the first it writes. ok is false when the opcode's
// layout names no such operand (its Memory is not isa.MemOperands) or the word does not say
// whether the slot is one.
func operandSize(w []byte, shape Shape) (n int64, elem int, ok bool) {
	var buf [8]isa.Operand
	for _, o := range isa.Operands(buf[:0], w) {
		if o.Pointer || o.Undecided || o.Rank == 0 || o.Write != (shape == ShapeOut) {
			continue
		}
		n = 1
		for d := 0; d < o.Rank; d++ {
			n *= o.Counts[d]
		}
		return n, o.ElemBytes, true
	}
	return 0, 0, false
}
