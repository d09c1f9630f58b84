package repack

import (
	"bytes"

	"github.com/neffscope/neffscope/core/inspect"
)

// LineWord is one instruction word of a kernel line: the line (as the hot-lines table names
// it), the stream member that holds the word, its index there, and how many of the line's
// words that stream holds.
type LineWord struct {
	Line   inspect.HotLine
	Member string
	Index  int
	Words  int
}

// QuietLine picks the kernel line of f with the fewest words in its first stream (so a change
// to it is not the hottest line's by chance) and returns that line's first word there. False
// when f maps no instruction to a source line.
func QuietLine(f *inspect.File) (LineWord, bool) {
	if f.Program == nil || f.Program.Source == nil {
		return LineWord{}, false
	}
	// Each line's first stream (in the index's order): its first word and its count there.
	first := map[inspect.LineID]*LineWord{}
	for _, s := range f.Program.Source.Streams() {
		for i := range s.Len() {
			id, ok := s.Line(i)
			if !ok {
				continue
			}
			if w := first[id]; w == nil {
				first[id] = &LineWord{Member: s.Stream().Member, Index: i, Words: 1}
			} else if w.Member == s.Stream().Member {
				w.Words++
			}
		}
	}
	var pick *LineWord
	hot := inspect.HotLinesOf(f).Lines
	for _, l := range hot {
		w := first[inspect.LineID{File: l.File, Kernel: l.Kernel, Line: l.Line}]
		if w != nil && (pick == nil || w.Words < pick.Words) {
			pick = w
			pick.Line = l
		}
	}
	if pick == nil {
		return LineWord{}, false
	}
	return *pick, true
}

// EditWord returns src repacked with word index of member passed through edit (64 bytes, edited
// in place), every other byte of every member as it was.
func EditWord(src []byte, member string, index int, edit func(word []byte)) []byte {
	return NEFF(src, func(p string, data []byte) ([]byte, bool) {
		if p != member {
			return data, true
		}
		d := bytes.Clone(data)
		edit(d[index*64 : index*64+64])
		return d, true
	})
}
