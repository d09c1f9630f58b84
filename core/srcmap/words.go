package srcmap

import "github.com/neffscope/neffscope/core/manifest"

// The index as the analyses across files read it (core/fleet's source diff): each stream with
// debug info, and the kernel line each of its words maps to. The joins' own types stay inside;
// this is all the index shows of them.

// LineID names a kernel source line: the file as the debug info names it, the kernel
// (function) and the line number.
type LineID struct {
	File, Kernel string
	Line         int
}

// Words is one stream with debug info.
type Words struct {
	x *Index
	s *streamSources
}

// Streams lists the streams with debug info, in the index's order (nil on a nil index).
func (x *Index) Streams() []Words {
	if x == nil {
		return nil
	}
	out := make([]Words, len(x.order))
	for i, s := range x.order {
		out[i] = Words{x, s}
	}
	return out
}

// Stream is the program stream, as Map was given it.
func (w Words) Stream() *manifest.Stream { return w.s.ps }

// Len is how many of the stream's words its debug info covers.
func (w Words) Len() int { return w.s.words }

// Line is word i's kernel line; ok is false when the word maps to none. The strings of one
// line are the same for every word of it, so comparing them is cheap.
func (w Words) Line(i int) (id LineID, ok bool) {
	l := w.x.line(w.s, i)
	if l == nil {
		return LineID{}, false
	}
	return LineID{l.file, l.kernel, l.line}, true
}
