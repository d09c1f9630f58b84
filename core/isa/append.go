package isa

import (
	"encoding/binary"
	"math/bits"
	"strconv"
)

// Allocation-free field texts for bulk output (`neffscope disasm --json` writes every field of
// millions of words). A word's fields, as Decode lists them, are its opcode's fixed fields
// (FixedFieldsOf: header, sync band, field map, descriptors) then its undocumented runs
// (AppendUndocumentedRuns), which depend on its bytes; AppendFixedText and AppendHexBytes
// render their texts. append_test.go holds them equal to Decode on every real word and on
// random ones.

// FixedField is a field every word of an opcode has.
type FixedField struct {
	Name       string
	Off, Width int // Width 0: a descriptor that does not fit the word
	// ByteOnly says the field's text is a function of the byte at Off alone, so a caller may
	// keep the 256 texts of each; TextID (0 ≤ TextID < TextIDs()) is then the same for every
	// such field of any opcode with the same name and the same texts (the header's and sync
	// band's fields are one per name for all 256 opcodes).
	ByteOnly bool
	TextID   int
	spec     *fieldSpec
	desc     *descSpec
}

// textIDs numbers the one-byte field specs, in the order fixedIndex meets them.
var textIDs = map[*fieldSpec]int{}

// fixedIndex lists each opcode's fixed fields in Decode's order.
var fixedIndex = func() (index [256][]FixedField) {
	field := func(f *fieldSpec) FixedField {
		ff := FixedField{Name: f.Name, Off: int(f.Off), Width: int(f.Width), ByteOnly: byteOnly(f), spec: f}
		if ff.ByteOnly {
			id, ok := textIDs[f]
			if !ok {
				id = len(textIDs)
				textIDs[f] = id
			}
			ff.TextID = id
		}
		return ff
	}
	var generic []FixedField
	for i := range headerFields {
		generic = append(generic, field(&headerFields[i]))
	}
	for i := range syncFields {
		generic = append(generic, field(&syncFields[i]))
	}
	for op := range 256 {
		lay := layoutIndex[op]
		if lay == nil {
			index[op] = generic
			continue
		}
		fs := append(generic[:len(generic):len(generic)], make([]FixedField, 0, len(lay.Fields)+len(lay.Descs))...)
		for i := range lay.Fields {
			fs = append(fs, field(&lay.Fields[i]))
		}
		for i := range lay.Descs {
			d := &lay.Descs[i]
			w := 0
			if descFits(d) {
				w = descBytes(d)
			}
			fs = append(fs, FixedField{Name: d.Name, Off: int(d.Off), Width: w, desc: d})
		}
		index[op] = fs
	}
	return index
}()

// byteOnly: a one-byte field whose text (appendFieldText) reads no other byte of the word
// than its own (kWordLen also reads the opcode; kImm0, which reads +0x0F, is 4 bytes wide, but
// is excluded all the same). TestByteOnlyFields checks it.
func byteOnly(f *fieldSpec) bool {
	return f.Width == 1 && f.Off < WordSize && f.Kind != kWordLen && f.Kind != kImm0 && f.Kind != kASCII && f.Kind != kSyncBand
}

// TextIDs is how many FixedField.TextID there are.
func TextIDs() int { return len(textIDs) }

// coveredMask has bit i set where byte i of a word of the opcode is documented.
var coveredMask = func() (m [256]uint64) {
	for op := range 256 {
		covered := &genericCovered
		if lay := layoutIndex[op]; lay != nil {
			covered = &lay.covered
		}
		for i, c := range covered {
			if c {
				m[op] |= 1 << i
			}
		}
	}
	return m
}()

// FixedFieldsOf lists the fields every word with opcode op has, in Decode's order (the
// caller must not modify the slice).
func FixedFieldsOf(op uint8) []FixedField { return fixedIndex[op] }

// FixedFields is how many fields Decode gives every word with opcode op.
func FixedFields(op uint8) int { return len(fixedIndex[op]) }

// AppendFixedText appends the text Decode gives fixed field k of word w (FixedFieldsOf(w[0])[k]).
func AppendFixedText(dst []byte, w *[WordSize]byte, k int) []byte {
	f := &fixedIndex[w[0]][k]
	if f.spec != nil {
		return appendFieldText(dst, w, f.spec, readRaw(w, f.spec))
	}
	if f.Width == 0 {
		return append(dst, "(does not fit the word)"...)
	}
	return appendDescLong(dst, w, f.desc)
}

// Run is an undocumented run of a word: bytes [Off, End), named RunName(Off, End), its text
// AppendHexBytes of those bytes.
type Run struct{ Off, End int }

// RunName is the field name Decode gives the undocumented run [off, end): "unknown 0x0c..0x0f".
func RunName(off, end int) string { return undocumentedName(off, end) }

// AppendUndocumentedRuns appends word w's undocumented runs, in order: in each stretch of
// bytes no table explains, from its first non-zero byte to its last.
func AppendUndocumentedRuns(runs []Run, w *[WordSize]byte) []Run {
	cov := coveredMask[w[0]]
	var nz uint64
	for c := 0; c < WordSize; c += 8 {
		x := binary.LittleEndian.Uint64(w[c:])
		if x == 0 {
			continue
		}
		for b := range 8 {
			if x>>(8*b)&0xFF != 0 {
				nz |= 1 << (c + b)
			}
		}
	}
	m := nz &^ cov
	for m != 0 {
		i := bits.TrailingZeros64(m)
		end := WordSize // the stretch ends at the next documented byte
		if c := cov >> i; c != 0 {
			end = i + bits.TrailingZeros64(c)
		}
		below := ^uint64(0) >> (WordSize - end)
		last := WordSize - 1 - bits.LeadingZeros64(m&below)
		runs = append(runs, Run{Off: i, End: last + 1})
		m &^= below
	}
	return runs
}

// AppendHexBytes appends bytes as Decode shows raw bytes: hex pairs, a space after every
// fourth.
func AppendHexBytes(dst, b []byte) []byte { return appendHexBytes(dst, b) }

// AppendSecondWordLength appends the text Stream.Instruction gives the "word length" field of
// the second word of a two-word instruction whose first word is at index first.
func AppendSecondWordLength(dst []byte, first int) []byte { return appendSecondWordLength(dst, first) }

func appendSecondWordLength(dst []byte, first int) []byte {
	dst = append(dst, "not a word length: second word of the two-word instruction at #"...)
	return strconv.AppendInt(dst, int64(first), 10)
}

// AppendSummary appends Summary's text for word w.
func AppendSummary(dst []byte, w *[WordSize]byte) []byte { return appendSummary(dst, w) }

// AppendSyncText appends SyncText's text for word w.
func AppendSyncText(dst []byte, w *[WordSize]byte) []byte { return appendSync(dst, w) }
