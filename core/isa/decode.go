// Package isa owns the engine instruction streams of a NEFF (`sgNN/<Engine>.bin`): headerless
// runs of 64-byte words (neff.md §4). It names each opcode from one table (opcodes.go), reads
// the common header and sync band, the operand descriptors (ADDR4 + steps + counts, families
// A/B/C) and the field maps the spec documents (layouts.go), and serves a stream as a listing
// that a page can ask for by row range. Joins with the manifests (set names, function names,
// DMA queues) are core/inspect's job; this package offers typed accessors for them.
package isa

import (
	"encoding/binary"
	"math"
	"strconv"
	"sync"
)

// WordSize is the size of every modern engine instruction word (neff.md §4.1) [REAL].
const WordSize = 64

// Field groups.
const (
	GroupHeader       = "header"
	GroupSync         = "sync"
	GroupOperand      = "operand"
	GroupDescriptor   = "descriptor"
	GroupUndocumented = "undocumented"
)

// Field is one decoded field of a word: where it sits (byte offset within the word and width),
// its raw value and its display text. Raw is 0 for text fields; for undocumented byte runs it
// holds the first (up to) 8 bytes little-endian. A descriptor's Raw is its ADDR4 word and Parts
// holds the ADDR4, steps and counts.
type Field struct {
	Name  string
	Group string
	Off   int
	Width int
	Raw   uint64
	Text  string
	Parts []Field
	// Immediate, for a field holding a 32-bit immediate, is every reading of it side by side
	// (ImmediateText).
	Immediate string
}

// Instruction is one decoded word.
type Instruction struct {
	Index  int
	Offset int64 // byte offset of the word in its stream
	Opcode uint8
	Name   string
	Known  bool   // the name comes from a table (else it is op_0xNN)
	Family string // descriptor family A/B/C, or ""
	// Documented says the spec gives a field map for this opcode (beyond header and sync).
	Documented bool
	Fields     []Field
	Word       [WordSize]byte
	// Missing counts bytes absent when Decode was given fewer than 64 (read as zero).
	Missing int
	// PartOf is the index of the word this one continues (the 0xD4 of a two-word 0xD4+0xDA
	// instruction, neff.md §4.7), or -1.
	PartOf int
	// SecondWord is the index of this 0xD4's 0xDA word when the two make one instruction, or -1.
	SecondWord int
}

// Decode reads one word. A word shorter than 64 bytes is padded with zeros (Missing says how
// many); longer input is cut at 64. Decode never fails: anything the tables do not explain is
// shown as raw bytes.
func Decode(word []byte, index int) Instruction {
	in := Instruction{Index: index, Offset: int64(index) * WordSize, PartOf: -1, SecondWord: -1}
	n := copy(in.Word[:], word)
	in.Missing = WordSize - n
	w := &in.Word
	info := opcodeTable[w[0]]
	in.Opcode, in.Name, in.Known = w[0], info.Name, info.Known()
	lay := layoutIndex[w[0]]
	capacity := len(headerFields) + len(syncFields) + 2
	if lay != nil {
		capacity += len(lay.Fields) + len(lay.Descs)
	}
	in.Fields = make([]Field, 0, capacity)
	scratch := make([]byte, 0, 128) // one text buffer for every field of the word
	for i := range headerFields {
		in.Fields = append(in.Fields, decodeField(w, &headerFields[i], GroupHeader, &scratch))
	}
	for i := range syncFields {
		in.Fields = append(in.Fields, decodeField(w, &syncFields[i], GroupSync, &scratch))
	}
	covered := &genericCovered
	if lay != nil {
		in.Documented, in.Family, covered = true, lay.Family, &lay.covered
		for i := range lay.Fields {
			group := GroupOperand
			if lay.Fields[i].Kind == kUnknown {
				group = GroupUndocumented
			}
			in.Fields = append(in.Fields, decodeField(w, &lay.Fields[i], group, &scratch))
		}
		for i := range lay.Descs {
			in.Fields = append(in.Fields, decodeDescriptor(w, &lay.Descs[i], &scratch))
		}
	}
	in.Fields = appendUndocumented(in.Fields, w, covered)
	return in
}

// readRaw reads a field's raw value.
func readRaw(w *[WordSize]byte, f *fieldSpec) uint64 {
	off, width := int(f.Off), int(f.Width)
	if off >= WordSize {
		return 0
	}
	if off+width > WordSize {
		width = WordSize - off
	}
	switch f.Kind {
	case kASCII:
		return 0
	case kDtypeLo:
		return uint64(w[off] & 0x0F)
	case kDtypeHi:
		return uint64(w[off] >> 4)
	}
	return leUint(w[off:off+width], width)
}

func leUint(b []byte, width int) uint64 {
	if width > 8 {
		width = 8
	}
	var v uint64
	for i := width - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func decodeField(w *[WordSize]byte, f *fieldSpec, group string, scratch *[]byte) Field {
	raw := readRaw(w, f)
	*scratch = appendFieldText((*scratch)[:0], w, f, raw)
	out := Field{Name: f.Name, Group: group, Off: int(f.Off), Width: int(f.Width), Raw: raw, Text: string(*scratch)}
	if holdsImmediate(w, f, raw) {
		out.Immediate = ImmediateText(uint32(raw))
	}
	return out
}

// holdsImmediate says which fields carry a 32-bit constant whose every reading is worth
// showing: float immediates, fill values, and a scale that reads as a float.
func holdsImmediate(w *[WordSize]byte, f *fieldSpec, raw uint64) bool {
	if f.Width != 4 {
		return false
	}
	switch f.Kind {
	case kImm32, kF32, kFill:
		return true
	case kScale:
		return w[0x0D] != 1 && ScaleIsFloat(uint32(raw))
	case kImm0:
		return w[0x0F] == 1 // inline float32 (neff.md §4.5)
	}
	return false
}

// appendFieldText renders a field value. It is the one formatter behind Field.Text, listing
// rows and summaries.
func appendFieldText(dst []byte, w *[WordSize]byte, f *fieldSpec, raw uint64) []byte {
	switch f.Kind {
	case kU8, kU16, kU32, kU64:
		return strconv.AppendUint(dst, raw, 10)
	case kI32:
		return strconv.AppendInt(dst, int64(int32(uint32(raw))), 10)
	case kByteCount:
		dst = strconv.AppendUint(dst, raw, 10)
		if raw == 1 {
			return append(dst, " byte"...)
		}
		return append(dst, " bytes"...)
	case kHex:
		return appendHex(dst, raw)
	case kF32:
		return appendF32(dst, uint32(raw))
	case kASCII:
		return appendASCII(dst, w[f.Off:min(int(f.Off)+int(f.Width), WordSize)])
	case kDtype, kDtypeLo, kDtypeHi:
		return appendEnum(dst, dtypeIndex, raw, "dtype ")
	case kALU:
		return appendEnum(dst, aluIndex, raw, "alu ")
	case kAccCmd:
		return appendEnum(dst, accIndex, raw, "acc ")
	case kImm0Src:
		return appendEnum(dst, imm0Index, raw, "src ")
	case kCollect:
		return appendEnum(dst, collectiveIndex, raw, "kind ")
	case kActFunc:
		return appendActFunc(dst, raw)
	case kImm0:
		return appendImm0(dst, w, raw)
	case kWordLen:
		return appendWordLen(dst, w, raw)
	case kDebugCmd:
		return appendDebugCmd(dst, raw)
	case kWaitMode:
		return appendSyncMode(dst, &waitModeIndex, raw)
	case kUpdMode:
		return appendSyncMode(dst, &updateModeIndex, raw)
	case kOpcode:
		return appendOpcodeName(dst, raw)
	case kSyncBand:
		if raw == 0 {
			return append(dst, "none"...)
		}
		return appendSyncBand(dst, readBand(w, int(f.Off)))
	case kSemaphore:
		dst = append(dst, "S["...)
		dst = strconv.AppendUint(dst, raw, 10)
		return append(dst, ']')
	case kImm32:
		return strconv.AppendUint(dst, raw, 10)
	case kScale:
		return appendScaleField(dst, w, raw)
	case kDmaAddr:
		return appendDmaAddr(dst, raw)
	case kAccFlags:
		return appendAccFlags(dst, raw)
	case kRegister:
		return appendRegister(dst, raw)
	case kBoundReg:
		return appendBoundReg(dst, raw)
	case kQuadMask:
		return appendQuadMask(dst, raw)
	case kScaleSrc:
		return appendScaleSource(dst, raw)
	case kFill:
		return appendFill(dst, uint32(raw), w[0x20])
	case kUnknown, kBytes:
		return appendHexBytes(dst, w[f.Off:min(int(f.Off)+int(f.Width), WordSize)])
	}
	return appendHex(dst, raw)
}

// appendActFunc prints an activation function's code, after its name when the table knows
// it: names are hints (unknowns isa.act-func-names).
func appendActFunc(dst []byte, raw uint64) []byte {
	if name, ok := actFuncIndex.lookup(raw); ok {
		dst = append(dst, name...)
		dst = append(dst, '(')
		dst = strconv.AppendUint(dst, raw, 10)
		return append(dst, ')')
	}
	return strconv.AppendUint(dst, raw, 10)
}

// appendImm0 reads Activate's imm0 by its source byte (neff.md §4.5): a float, a register or
// an address.
func appendImm0(dst []byte, w *[WordSize]byte, raw uint64) []byte {
	switch w[0x0F] {
	case 1:
		return appendF32(dst, uint32(raw))
	case 2:
		dst = append(dst, 'R')
		return strconv.AppendUint(dst, raw, 10)
	case 0:
		return appendAddr4(dst, uint32(raw))
	}
	return appendHex(dst, raw)
}

// appendWordLen prints the word length, which is always 16 dwords (QuantizeMX's 0x11 also
// saturates, neff.md §4.2); any other value is shown as such.
func appendWordLen(dst []byte, w *[WordSize]byte, raw uint64) []byte {
	switch {
	case raw == 0x10:
		return append(dst, "16 dwords"...)
	case raw == 0x11 && w[0] == 0xE3:
		return append(dst, "16 dwords, saturate"...)
	}
	dst = appendHex(dst, raw)
	return append(dst, " (not 0x10)"...)
}

// appendDebugCmd prints the debug byte: off, or the trace kind, halt and any other bits.
func appendDebugCmd(dst []byte, raw uint64) []byte {
	if raw == 0 {
		return append(dst, "off"...)
	}
	dst = append(dst, "trace "...)
	dst = appendEnum(dst, traceIndex, raw&3, "")
	if raw&0x80 != 0 {
		dst = append(dst, ", halt"...)
	}
	if rest := raw &^ 0x83; rest != 0 {
		dst = append(dst, ", bits "...)
		dst = appendHex(dst, rest)
	}
	return dst
}

// appendSyncMode prints a wait or update mode by its name in idx, with its code.
func appendSyncMode(dst []byte, idx *[256]*modeRow, raw uint64) []byte {
	if m := idx[uint8(raw)]; m != nil {
		dst = append(dst, m.Name...)
		dst = append(dst, " ("...)
		dst = appendHex(dst, raw)
		return append(dst, ')')
	}
	dst = append(dst, "unknown "...)
	return appendHex(dst, raw)
}

// appendOpcodeName prints an opcode's name and its byte.
func appendOpcodeName(dst []byte, raw uint64) []byte {
	dst = append(dst, opcodeTable[uint8(raw)].Name...)
	dst = append(dst, " ("...)
	dst = appendHexWidth(append(dst, '0', 'x'), raw&0xFF, 2) // hex2, without its string
	return append(dst, ')')
}

// appendScaleField prints a scale, or the SBUF address of a scale tensor when the scale
// source byte says so (neff.md §8.1).
func appendScaleField(dst []byte, w *[WordSize]byte, raw uint64) []byte {
	if w[0x0D] == 1 {
		dst = append(dst, "pointer to a scale tensor at SBUF "...)
		return appendHex(dst, raw)
	}
	return appendScale(dst, uint32(raw))
}

func appendEnum(dst []byte, e *enumIndex, raw uint64, prefix string) []byte {
	if name, ok := e.lookup(raw); ok {
		return append(dst, name...)
	}
	dst = append(dst, prefix...)
	return appendHex(dst, raw)
}

func appendHex(dst []byte, v uint64) []byte {
	dst = append(dst, '0', 'x')
	return strconv.AppendUint(dst, v, 16)
}

func appendF32(dst []byte, bits uint32) []byte {
	return strconv.AppendFloat(dst, float64(math.Float32frombits(bits)), 'g', -1, 32)
}

// appendASCII quotes a NUL-terminated name; bytes outside printable ASCII are escaped.
func appendASCII(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	for _, c := range b {
		if c == 0 {
			break
		}
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c >= 0x20 && c < 0x7F:
			dst = append(dst, c)
		default:
			const hexdigits = "0123456789abcdef"
			dst = append(dst, '\\', 'x', hexdigits[c>>4], hexdigits[c&15])
		}
	}
	return append(dst, '"')
}

// cString returns the NUL-terminated text of b.
func cString(b []byte) string {
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// ADDR4 bits (neff.md §4.4) [OBS; REAL: Matmul dst 0x02000000 is PSUM].
const (
	addrMask      = 0x1FFFFFFF
	addrIndirect  = 1 << 29
	addrDynamic   = 1 << 30
	addrRegister  = 1 << 31
	psumBase      = 0x2000000
	psumLast      = 0x23FFFFF
	nonSBUFBits   = 0x1E000000 // bits 25..28: clear means SBUF (outside the PSUM window)
	registerIDMax = 63
)

// Space names where an ADDR4 points.
func addrSpace(a uint32) string {
	switch {
	case a&addrRegister != 0:
		return "register"
	case a&addrMask >= psumBase && a&addrMask <= psumLast:
		return "PSUM"
	case a&nonSBUFBits == 0:
		return "SBUF"
	}
	return "other"
}

// appendAddr4 renders an ADDR4: SBUF:0x2dc06, PSUM:0x100 (offset in the PSUM window), R5
// (isa.addr4-spaces).
func appendAddr4(dst []byte, a uint32) []byte {
	if a&addrRegister != 0 {
		dst = append(dst, 'R')
		dst = strconv.AppendUint(dst, uint64(a&0xFF), 10)
		// Register mode: byte 0 is a register id 0..63 and the other bits are 0 (neff.md §4.4).
		if a&^uint32(addrRegister|0xFF) != 0 || a&0xFF > registerIDMax {
			dst = append(dst, "(bits "...)
			dst = appendHex(dst, uint64(a))
			dst = append(dst, ')')
		}
		return dst
	}
	addr := a & addrMask
	switch addrSpace(a) {
	case "PSUM":
		dst = append(dst, "PSUM:"...)
		dst = appendHex(dst, uint64(addr-psumBase))
	case "SBUF":
		dst = append(dst, "SBUF:"...)
		dst = appendHex(dst, uint64(addr))
	default:
		dst = append(dst, "addr:"...)
		dst = appendHex(dst, uint64(addr))
	}
	if a&addrIndirect != 0 {
		dst = append(dst, "+ind"...)
	}
	if a&addrDynamic != 0 {
		dst = append(dst, "+dyn"...)
	}
	return dst
}

// descriptor geometry
func descBytes(d *descSpec) int { return 4 + 4*int(d.Rank) }

func descFits(d *descSpec) bool { return int(d.Off)+descBytes(d) <= WordSize }

func descZero(w *[WordSize]byte, d *descSpec) bool {
	for _, c := range w[d.Off : int(d.Off)+descBytes(d)] {
		if c != 0 {
			return false
		}
	}
	return true
}

// appendDescShort renders a descriptor for a listing row: address and the counts without
// trailing 1s, e.g. SBUF:0x2dc06[128,3]; "-" when all its bytes are zero (slot unused).
func appendDescShort(dst []byte, w *[WordSize]byte, d *descSpec) []byte {
	if !descFits(d) {
		return dst
	}
	if descZero(w, d) {
		return append(dst, '-')
	}
	off := int(d.Off)
	dst = appendAddr4(dst, binary.LittleEndian.Uint32(w[off:]))
	rank := int(d.Rank)
	counts := off + 4 + 2*rank
	last := 0
	for k := 0; k < rank; k++ {
		if binary.LittleEndian.Uint16(w[counts+2*k:]) != 1 {
			last = k
		}
	}
	dst = append(dst, '[')
	for k := 0; k <= last; k++ {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendUint(dst, uint64(binary.LittleEndian.Uint16(w[counts+2*k:])), 10)
	}
	return append(dst, ']')
}

// appendDescLong renders a descriptor in full: address, counts and steps, innermost first.
func appendDescLong(dst []byte, w *[WordSize]byte, d *descSpec) []byte {
	if !descFits(d) {
		return dst
	}
	if descZero(w, d) {
		return append(dst, "unused (all zero)"...)
	}
	off, rank := int(d.Off), int(d.Rank)
	dst = appendAddr4(dst, binary.LittleEndian.Uint32(w[off:]))
	dst = append(dst, " counts="...)
	for k := 0; k < rank; k++ {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendUint(dst, uint64(binary.LittleEndian.Uint16(w[off+4+2*rank+2*k:])), 10)
	}
	dst = append(dst, " steps="...)
	for k := 0; k < rank; k++ {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(int16(binary.LittleEndian.Uint16(w[off+4+2*k:]))), 10)
	}
	return dst
}

func decodeDescriptor(w *[WordSize]byte, d *descSpec, scratch *[]byte) Field {
	if !descFits(d) {
		return Field{Name: d.Name, Group: GroupDescriptor, Off: int(d.Off), Text: "(does not fit the word)"}
	}
	off, rank := int(d.Off), int(d.Rank)
	addr := binary.LittleEndian.Uint32(w[off:])
	f := Field{Name: d.Name, Group: GroupDescriptor, Off: off, Width: descBytes(d), Raw: uint64(addr),
		Text: string(appendDescLong((*scratch)[:0], w, d))}
	f.Parts = make([]Field, 0, 1+2*rank)
	f.Parts = append(f.Parts, Field{Name: "addr", Group: GroupDescriptor, Off: off, Width: 4, Raw: uint64(addr),
		Text: string(appendAddr4((*scratch)[:0], addr))})
	for k := 0; k < rank; k++ {
		o := off + 4 + 2*k
		v := int16(binary.LittleEndian.Uint16(w[o:]))
		f.Parts = append(f.Parts, Field{Name: "step[" + strconv.Itoa(k) + "]", Group: GroupDescriptor, Off: o, Width: 2,
			Raw: uint64(uint16(v)), Text: strconv.Itoa(int(v))})
	}
	for k := 0; k < rank; k++ {
		o := off + 4 + 2*rank + 2*k
		v := binary.LittleEndian.Uint16(w[o:])
		f.Parts = append(f.Parts, Field{Name: "count[" + strconv.Itoa(k) + "]", Group: GroupDescriptor, Off: o, Width: 2,
			Raw: uint64(v), Text: strconv.Itoa(int(v))})
	}
	return f
}

// appendUndocumented adds one field per run of non-zero bytes that no table explains, so
// every byte of a word is either decoded or shown raw.
func appendUndocumented(fields []Field, w *[WordSize]byte, covered *[64]bool) []Field {
	for i, j := nextUndocumented(w, covered, 0); i < WordSize; i, j = nextUndocumented(w, covered, j) {
		fields = append(fields, Field{Name: undocumentedName(i, j), Group: GroupUndocumented, Off: i, Width: j - i,
			Raw: leUint(w[i:j], j-i), Text: hexBytes(w[i:j])})
	}
	return fields
}

// nextUndocumented returns the first run [i, j) of non-zero bytes no table explains at or
// after from (runs separated only by undocumented zero bytes are joined); i is WordSize when
// there is none.
func nextUndocumented(w *[WordSize]byte, covered *[64]bool, from int) (int, int) {
	for i := from; i < WordSize; {
		if covered[i] || w[i] == 0 {
			i++
			continue
		}
		j := i
		for j < WordSize && !covered[j] && w[j] != 0 {
			j++
		}
		// Join runs separated only by zero bytes that are also undocumented.
		for {
			k := j
			for k < WordSize && !covered[k] && w[k] == 0 {
				k++
			}
			if k < WordSize && !covered[k] && k > j {
				for k < WordSize && !covered[k] && w[k] != 0 {
					k++
				}
				j = k
				continue
			}
			break
		}
		return i, j
	}
	return WordSize, WordSize
}

// undocumentedName is the name of the undocumented run [i, j): "unknown 0x0c..0x0f".
func undocumentedName(i, j int) string { return undocumentedNames()[i][j-1] }

// undocumentedNames holds every run name, built once, so naming a run allocates nothing.
var undocumentedNames = sync.OnceValue(func() *[WordSize][WordSize]string {
	var t [WordSize][WordSize]string
	for i := range WordSize {
		for j := i; j < WordSize; j++ {
			t[i][j] = "unknown " + hex2(uint8(i)) + ".." + hex2(uint8(j))
		}
	}
	return &t
})

func hexBytes(b []byte) string { return string(appendHexBytes(make([]byte, 0, 3*len(b)), b)) }

// appendHexBytes renders bytes as hex pairs, a space after every fourth byte.
func appendHexBytes(out []byte, b []byte) []byte {
	const hexdigits = "0123456789abcdef"
	for i, c := range b {
		if i > 0 && i%4 == 0 {
			out = append(out, ' ')
		}
		out = append(out, hexdigits[c>>4], hexdigits[c&15])
	}
	return out
}

// appendSync renders the sync band for a listing row, e.g. "wait S[8]>=16, inc S[4]".
// Unknown mode bytes are shown raw (unknowns isa.wait-mode-encoding, isa.update-mode-encoding).
func appendSync(dst []byte, w *[WordSize]byte) []byte {
	return appendSyncBand(dst, readBand(w, firstBand))
}

// appendSyncBand renders a band: wait mode, wait semaphore, update mode, update semaphore,
// u32 value.
func appendSyncBand(dst []byte, b Band) []byte {
	start := len(dst)
	value := b.Value
	if m := waitModeIndex[b.WaitMode]; m == nil {
		dst = append(dst, "wait?"...)
		dst = appendHex(dst, uint64(b.WaitMode))
		dst = append(dst, " S["...)
		dst = strconv.AppendUint(dst, uint64(b.WaitSem), 10)
		dst = append(dst, "] "...)
		dst = strconv.AppendUint(dst, uint64(value), 10)
	} else {
		switch m.Render {
		case syncGtZero:
			dst = appendSem(append(dst, "wait "...), b.WaitSem)
			dst = append(dst, ">0"...)
		case syncGeImm:
			dst = appendSem(append(dst, "wait "...), b.WaitSem)
			dst = append(dst, ">="...)
			dst = strconv.AppendUint(dst, uint64(value), 10)
		case syncGeReg:
			dst = appendSem(append(dst, "wait "...), b.WaitSem)
			dst = append(dst, ">=R"...)
			dst = strconv.AppendUint(dst, uint64(value), 10)
		}
	}
	sep := func() {
		if len(dst) > start {
			dst = append(dst, ", "...)
		}
	}
	if m := updateModeIndex[b.UpdateMode]; m == nil {
		sep()
		dst = append(dst, "update?"...)
		dst = appendHex(dst, uint64(b.UpdateMode))
		dst = appendSem(append(dst, ' '), b.UpdateSem)
	} else {
		switch {
		case m.Render == syncInc:
			sep()
			dst = appendSem(append(dst, "inc "...), b.UpdateSem)
		case m.Render == syncNone && b.UpdateSem != 0:
			// Raw 0 with a semaphore: the compiler wiki reads this as "set".
			sep()
			dst = appendSem(append(dst, "set? "...), b.UpdateSem)
		}
	}
	return dst
}

func appendSem(dst []byte, idx uint8) []byte {
	dst = append(dst, "S["...)
	dst = strconv.AppendUint(dst, uint64(idx), 10)
	return append(dst, ']')
}

// appendSummary renders the key operands of a word for a listing row.
func appendSummary(dst []byte, w *[WordSize]byte) []byte {
	lay := layoutIndex[w[0]]
	if lay == nil {
		return dst
	}
	for i, ref := range lay.summary {
		if i > 0 {
			dst = append(dst, ' ')
		}
		if ref.field != nil && ref.field.Kind == kSyncBand && readRaw(w, ref.field) == 0 {
			continue // an empty extra band says nothing in a listing row
		}
		dst = append(dst, ref.label...)
		dst = append(dst, '=')
		if ref.field != nil {
			dst = appendFieldText(dst, w, ref.field, readRaw(w, ref.field))
		} else {
			dst = appendDescShort(dst, w, ref.desc)
		}
	}
	return dst
}

// Summary is the key operands of an instruction in one line, for a listing row.
func Summary(in Instruction) string { return string(appendSummary(nil, &in.Word)) }

// SyncText is the sync band of an instruction in one line ("" when it neither waits nor
// updates).
func SyncText(in Instruction) string { return string(appendSync(nil, &in.Word)) }

// Field returns the decoded field with that name (descriptor parts excluded).
func (in Instruction) Field(name string) (Field, bool) {
	for _, f := range in.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

// FieldMap maps each field's name to its text (descriptors in full; undocumented runs by their
// "unknown 0xNN..0xMM" name), for JSON output such as `neffscope disasm --json`.
func (in Instruction) FieldMap() map[string]string {
	m := make(map[string]string, len(in.Fields))
	for _, f := range in.Fields {
		m[f.Name] = f.Text
	}
	return m
}

// Typed accessors for the joins in core/inspect. They read through the layout table, so a
// corrected offset is a change of data.

// accessor is a field of one opcode's layout, resolved once.
type accessor struct {
	opcodes []uint8
	name    string
	spec    [256]*fieldSpec
}

func newAccessor(name string, opcodes ...uint8) *accessor {
	a := &accessor{opcodes: opcodes, name: name}
	for _, op := range opcodes {
		if l := layoutIndex[op]; l != nil {
			for i := range l.Fields {
				if l.Fields[i].Name == name {
					a.spec[op] = &l.Fields[i]
				}
			}
		}
	}
	return a
}

func (a *accessor) read(word []byte) (uint64, bool) {
	if len(word) < WordSize {
		return 0, false
	}
	f := a.spec[word[0]]
	if f == nil {
		return 0, false
	}
	return readRaw((*[WordSize]byte)(word[:WordSize]), f), true
}

func (a *accessor) text(word []byte) (string, bool) {
	if len(word) < WordSize {
		return "", false
	}
	f := a.spec[word[0]]
	if f == nil {
		return "", false
	}
	return cString(word[f.Off:min(int(f.Off)+int(f.Width), WordSize)]), true
}

var (
	setIndexAccessor   = newAccessor("set index", 0x23)    // ActivationTableLoad
	funcCodeAccessor   = newAccessor("func", 0x21, 0x25)   // Activate, Activate2
	blockIDAccessor    = newAccessor("block id", 0xC1)     // PseudoDMATrigger
	queueAccessor      = newAccessor("queue", 0xC1)        // PseudoDMATrigger
	actSetNameAccessor = newAccessor("act set name", 0xC6) // PseudoLoadActFuncSet
	inputVarAccessor   = newAccessor("input var", 0xC8)    // PseudoTriggerCollective
	outputVarAccessor  = newAccessor("output var", 0xC8)   // PseudoTriggerCollective
	collectiveAccessor = newAccessor("collective", 0xC8)   // PseudoTriggerCollective
)

// SetIndexOf reads an ActivationTableLoad (0x23) word's set index: an index into this
// engine's Activation.json activation_function_sets (activation.md §1.1) [REAL].
func SetIndexOf(word []byte) (int, bool) {
	v, ok := setIndexAccessor.read(word)
	return int(v), ok
}

// FuncCodeOf reads an Activate (0x21) or Activate2 (0x25) word's function code, to be matched
// with the resident set's profile_meta_data func_id.
func FuncCodeOf(word []byte) (uint8, bool) {
	v, ok := funcCodeAccessor.read(word)
	return uint8(v), ok
}

// BlockIDOf reads a PseudoDMATrigger (0xC1) word's block id: the engine JSON dma[].id of the
// block on QueueOf's queue.
func BlockIDOf(word []byte) (uint32, bool) {
	v, ok := blockIDAccessor.read(word)
	return uint32(v), ok
}

// QueueOf reads a PseudoDMATrigger (0xC1) word's DMA queue name (def.json dma_queue key).
func QueueOf(word []byte) (string, bool) { return queueAccessor.text(word) }

// ActSetNameOf reads a PseudoLoadActFuncSet (0xC6) word's set name.
func ActSetNameOf(word []byte) (string, bool) { return actSetNameAccessor.text(word) }

// CollectiveVarsOf reads a PseudoTriggerCollective (0xC8) word's input and output var ids
// (def.json var table).
func CollectiveVarsOf(word []byte) (input, output uint32, ok bool) {
	i, ok1 := inputVarAccessor.read(word)
	o, ok2 := outputVarAccessor.read(word)
	return uint32(i), uint32(o), ok1 && ok2
}

// CollectiveKindOf reads a PseudoTriggerCollective (0xC8) word's collective kind and its
// name ("AllReduce", ...; "" when the code is not in the table).
func CollectiveKindOf(word []byte) (kind uint8, name string, ok bool) {
	v, ok := collectiveAccessor.read(word)
	name, _ = collectiveIndex.lookup(v)
	return uint8(v), name, ok
}

// SetIndex is SetIndexOf for a decoded instruction.
func (in Instruction) SetIndex() (int, bool) { return SetIndexOf(in.Word[:]) }

// FuncCode is FuncCodeOf for a decoded instruction.
func (in Instruction) FuncCode() (uint8, bool) { return FuncCodeOf(in.Word[:]) }

// BlockID is BlockIDOf for a decoded instruction.
func (in Instruction) BlockID() (uint32, bool) { return BlockIDOf(in.Word[:]) }

// Queue is QueueOf for a decoded instruction.
func (in Instruction) Queue() (string, bool) { return QueueOf(in.Word[:]) }
