package isa

import "strconv"

// Allocation-free field texts for bulk output (`neffscope disasm --json` writes every field of
// millions of words). AppendFields lists exactly what Decode's Fields hold (names, offsets,
// widths, texts, in the same order); append_test.go holds the two equal on every real word
// and on random ones.

// WordField is one field of a word as AppendFields lists it; its text is buf[Start:End] of the
// buffer AppendFields returned.
type WordField struct {
	Name       string
	Off, Width int
	Start, End int
}

// FixedFields is how many fields Decode gives every word with opcode op: the header, the sync
// band and the opcode's layout (its fields, then its descriptors). The undocumented runs, which
// depend on the word's bytes, follow them.
func FixedFields(op uint8) int {
	n := len(headerFields) + len(syncFields)
	if lay := layoutIndex[op]; lay != nil {
		n += len(lay.Fields) + len(lay.Descs)
	}
	return n
}

// AppendFields appends word w's fields to fs and their texts to buf, as Decode(w).Fields has
// them (a descriptor as one field, its full text; no Parts, Raw or Immediate). With fs and buf
// reused from call to call it allocates nothing.
func AppendFields(fs []WordField, buf []byte, w *[WordSize]byte) ([]WordField, []byte) {
	field := func(f *fieldSpec) {
		start := len(buf)
		buf = appendFieldText(buf, w, f, readRaw(w, f))
		fs = append(fs, WordField{Name: f.Name, Off: int(f.Off), Width: int(f.Width), Start: start, End: len(buf)})
	}
	for i := range headerFields {
		field(&headerFields[i])
	}
	for i := range syncFields {
		field(&syncFields[i])
	}
	covered := &genericCovered
	if lay := layoutIndex[w[0]]; lay != nil {
		covered = &lay.covered
		for i := range lay.Fields {
			field(&lay.Fields[i])
		}
		for i := range lay.Descs {
			d := &lay.Descs[i]
			if !descFits(d) {
				start := len(buf)
				buf = append(buf, "(does not fit the word)"...)
				fs = append(fs, WordField{Name: d.Name, Off: int(d.Off), Start: start, End: len(buf)})
				continue
			}
			start := len(buf)
			buf = appendDescLong(buf, w, d)
			fs = append(fs, WordField{Name: d.Name, Off: int(d.Off), Width: descBytes(d), Start: start, End: len(buf)})
		}
	}
	for i, j := nextUndocumented(w, covered, 0); i < WordSize; i, j = nextUndocumented(w, covered, j) {
		start := len(buf)
		buf = appendHexBytes(buf, w[i:j])
		fs = append(fs, WordField{Name: undocumentedName(i, j), Off: i, Width: j - i, Start: start, End: len(buf)})
	}
	return fs, buf
}

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
