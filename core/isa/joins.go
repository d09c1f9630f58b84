package isa

// Join is what core/inspect joins an instruction word with (Program.Resolve). Every reader
// and writer of the joins (the listings, `disasm` and `disasm --json`, the overview, the
// stream's join check) asks JoinOf, so they agree on which words are joined. The opcode
// table's Join column (opcodes.go) says it for each opcode; each joined opcode has the
// accessor its join reads: SetIndexOf (0x23), FuncCodeOf (0x21, 0x25), BlockIDOf and QueueOf
// (0xC1), Direct2dAddrs (0xD4); TestJoinsMatchAccessors holds the two together.
type Join uint8

const (
	JoinNone Join = iota
	// JoinActivation: an activation set (ActivationTableLoad's set index) and, for a word
	// that calls a function (Activate, Activate2), the function of the resident set.
	JoinActivation
	// JoinDMA: a DMA queue and block (PseudoDMATrigger) or the source and destination vars
	// and dynamic queue of a PseudoDmaDirect2d.
	JoinDMA
)

// JoinOf says what a word with opcode op is joined with (JoinNone: nothing).
func JoinOf(op uint8) Join { return opcodeTable[op].Join }
