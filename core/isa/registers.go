package isa

import (
	"encoding/binary"
	"strconv"
)

// Register chains: a PseudoDmaDirect2d whose address tag has the offset-register
// bit (0x08) takes its offset from a register. The words before it on the same engine stream
// say what that register holds: a 0xCE PseudoTensorLoad loads it from an SBUF address (an
// expert id, known only at run time), 0xA8 AluOps multiply it by a slice size and add a base.
// RegisterValue follows that chain back; only mult and add are followed (the BIR names
// reg-mul and reg-add are the only AluOps seen, unknowns isa.register-chain).

// AluOp is a 0xA8 AluOp word: Dst = Src Op Imm, in DType.
type AluOp struct {
	Op, DType uint8
	Src, Dst  uint32 // register numbers
	Imm       uint32
}

// AluOpOf reads a 0xA8 word: +0x0C ALU op, +0x0D dtype, +0x10 source register, +0x14
// destination register, +0x18 immediate.
func AluOpOf(word []byte) (AluOp, bool) {
	if len(word) < WordSize || word[0] != 0xA8 {
		return AluOp{}, false
	}
	le := binary.LittleEndian
	return AluOp{Op: word[0x0C], DType: word[0x0D], Src: le.Uint32(word[0x10:]), Dst: le.Uint32(word[0x14:]), Imm: le.Uint32(word[0x18:])}, true
}

// TensorLoad is a 0xCE PseudoTensorLoad word: register Dst is loaded from SBUF address Addr.
type TensorLoad struct {
	DType uint8
	Addr  uint32 // SBUF address of the value
	Dst   uint32 // register number
}

// TensorLoadOf reads a 0xCE word: +0x0C dtype, +0x14 SBUF address, +0x20 destination register.
func TensorLoadOf(word []byte) (TensorLoad, bool) {
	if len(word) < WordSize || word[0] != 0xCE {
		return TensorLoad{}, false
	}
	le := binary.LittleEndian
	return TensorLoad{DType: word[0x0C], Addr: le.Uint32(word[0x14:]), Dst: le.Uint32(word[0x20:])}, true
}

// ALU op codes the chain follows (the enum of neff.md §4.4; AluOp's reg-mul words carry 6,
// reg-add words 4).
const (
	aluAdd  = 4
	aluMult = 6
)

// RegisterWindow is how many words before an instruction RegisterValue reads.
const RegisterWindow = 64

// clobbers are the opcodes after which no register value is trusted: words that may write a
// register in a way the chain does not follow (Move, TensorLoad, PseudoReadVarAddr, rank and
// gid loads, GetSequenceBounds) and control flow (a branch target or call may be entered with
// other values).
var clobbers = func() (c [256]bool) {
	for _, op := range []uint8{0xA7, 0xA9, 0xAA, 0xBE, 0xC9, 0xCC, 0xD1, 0xD2, 0xD3, 0xDB, 0xDC} {
		c[op] = true
	}
	return c
}()

// RegValue is what the words before an instruction say about one register:
// Base + Scale × (the value loaded from SBUF Load, or register From's value before the
// window), or with Static the constant Base.
type RegValue struct {
	Reg    uint32
	Known  bool // a followed chain wrote it (else nothing in the window did, or a clobber)
	Static bool // the chain makes it a constant: Base
	Base   uint64
	Scale  uint64
	// Loaded: the chain starts at a PseudoTensorLoad of SBUF address Load (word LoadAt);
	// else at register From, written before the window or by a word the chain does not follow.
	Loaded bool
	Load   uint32
	LoadAt int
	From   uint32
	// Writer is the index of the last word that wrote the register (-1: none in the window).
	Writer int
}

// RegisterValue follows register reg back from instruction i of a stream (word reads word
// j), at most RegisterWindow words.
func RegisterValue(word func(j int) []byte, i int, reg uint32) RegValue {
	start := max(0, i-RegisterWindow)
	type state struct {
		written, set   bool // written: by any word in the window; set: by a followed chain
		static, loaded bool
		base, scale    uint64
		load           uint32
		loadAt, writer int
		from           uint32
	}
	var regs [registerIDMax + 1]state
	for j := start; j < i; j++ {
		w := word(j)
		if len(w) < WordSize {
			continue
		}
		if clobbers[w[0]] {
			regs = [registerIDMax + 1]state{}
			continue
		}
		if t, ok := TensorLoadOf(w); ok && t.Dst <= registerIDMax {
			regs[t.Dst] = state{written: true, set: true, loaded: true, scale: 1, load: t.Addr, loadAt: j, writer: j}
			continue
		}
		a, ok := AluOpOf(w)
		if !ok || a.Dst > registerIDMax {
			continue
		}
		var src state
		if a.Src <= registerIDMax {
			src = regs[a.Src]
		}
		if !src.set {
			src = state{set: true, scale: 1, from: a.Src}
		}
		out := src
		out.written, out.writer = true, j
		switch a.Op {
		case aluMult:
			out.base, out.scale = src.base*uint64(a.Imm), src.scale*uint64(a.Imm)
		case aluAdd:
			out.base = src.base + uint64(a.Imm)
		default:
			out = state{written: true, writer: j} // by an op the chain does not follow
		}
		if out.set && a.DType == 9 { // uint32 arithmetic wraps
			out.base, out.scale = out.base&0xFFFFFFFF, out.scale&0xFFFFFFFF
		}
		out.static = out.set && (src.static || out.scale == 0)
		regs[a.Dst] = out
	}
	v := RegValue{Reg: reg, Writer: -1}
	if reg > registerIDMax {
		return v
	}
	s := regs[reg]
	if s.written {
		v.Writer = s.writer
	}
	if !s.set {
		return v
	}
	v.Known, v.Static, v.Base, v.Scale = true, s.static, s.base, s.scale
	v.Loaded, v.Load, v.LoadAt, v.From = s.loaded, s.load, s.loadAt, s.from
	return v
}

// String is the value: "0x1000" when static, else "0x100 + 0x800000 × SBUF[0x2000]" (or
// "× R5" for a register the window does not explain), or "R31 (not written in the 64 words
// before)".
func (v RegValue) String() string {
	var b []byte
	switch {
	case !v.Known:
		b = appendRegister(b, uint64(v.Reg))
		if v.Writer >= 0 {
			b = append(b, " (written at #"...)
			b = strconv.AppendInt(b, int64(v.Writer), 10)
			return string(append(b, " by an op not followed)"...))
		}
		return string(append(b, " (no AluOp or PseudoTensorLoad writes it in the 64 words before)"...))
	case v.Static:
		return string(appendHex(b, v.Base))
	}
	if v.Base != 0 {
		b = appendHex(b, v.Base)
		b = append(b, " + "...)
	}
	if v.Scale != 1 {
		b = appendHex(b, v.Scale)
		b = append(b, " × "...)
	}
	if v.Loaded {
		b = append(b, "SBUF["...)
		b = appendHex(b, uint64(v.Load))
		b = append(b, "] (loaded at #"...)
		b = strconv.AppendInt(b, int64(v.LoadAt), 10)
		return string(append(b, ')'))
	}
	return string(appendRegister(b, uint64(v.From)))
}
