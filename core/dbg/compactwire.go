package dbg

// A Compact's wire form: the page scans .dbg members in a pool of workers, each a Go runtime
// of its own, and hands the Compact to the worker that holds the open as bytes. The encoding
// is protobuf wire fields (protowire, as the members themselves): every column as it is
// packed, so decoding copies bytes and never scans a record again.

import (
	"fmt"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/wirefields"
	"google.golang.org/protobuf/encoding/protowire"
)

// compactWireVersion is the encoding's first field: a reader refuses another.
const compactWireVersion = 1

// Field numbers of the encoding.
const (
	cwVersion protowire.Number = iota + 1
	cwMember
	cwKind
	cwEngine
	cwSize
	cwDescription
	cwPointsTo
	cwEngineCode
	cwHasEngine
	cwKernelFile
	cwKernelName
	cwStack
	cwCoverage
	cwRoot
	cwRootChildren
	cwN
	cwNumbered
	cwRenumbered
	cwCkpt
	cwGapAt
	cwGapLen
	cwPrevEnd
	cwArena
	cwTuple
	cwIDFirst
	cwIDLast
	cwTupleText
	cwTuplesCut
	cwNoTuple
	cwCol // a column: nested, its own number first
)

// The columns, by their number in a cwCol field.
func (c *Compact) cols() []*pcol {
	return []*pcol{&c.first, &c.ids, &c.names, &c.tuples, &c.lens, &c.ends, &c.byID, &c.idOrder}
}

// AppendBinary appends the wire form of a Compact that Scan or Scanner.Close returned.
func (c *Compact) AppendBinary(b []byte) ([]byte, error) {
	w := wirefields.Writer{B: b}
	w.Uint(cwVersion, compactWireVersion)
	w.Text(cwMember, c.Member)
	w.Text(cwKind, string(c.Kind))
	w.Text(cwEngine, c.Engine)
	w.Uint(cwSize, uint64(c.Size))
	w.Text(cwDescription, c.Description)
	w.Text(cwPointsTo, c.PointsTo)
	w.Uint(cwEngineCode, c.EngineCode)
	w.Flag(cwHasEngine, c.HasEngine)
	for _, s := range c.KernelFiles {
		w.Text(cwKernelFile, s)
	}
	for _, s := range c.KernelNames {
		w.Text(cwKernelName, s)
	}
	if c.Stack != nil {
		w.Bytes(cwStack, c.Stack.appendBinary(nil))
	}
	w.Packed(cwCoverage, []uint64{uint64(c.Coverage.Named), uint64(c.Coverage.Unknown), uint64(c.Coverage.Generic), uint64(c.Coverage.None)})
	if c.Root != nil {
		root, err := c.Root.MarshalMsg(nil)
		if err != nil {
			return nil, fmt.Errorf("encoding the root of %s: %w", c.Member, err)
		}
		w.Bytes(cwRoot, root)
	}
	w.Uint(cwRootChildren, uint64(c.RootChildren))
	w.Uint(cwN, uint64(c.N))
	w.Uint(cwNumbered, uint64(c.Numbered))
	w.Uint(cwRenumbered, uint64(c.Renumbered))
	w.Packed(cwCkpt, int64s(c.ckpt))
	w.Packed(cwGapAt, int32s(c.gapAt))
	w.Packed(cwGapLen, int64s(c.gapLen))
	w.Uint(cwPrevEnd, uint64(c.prevEnd))
	w.Bytes(cwArena, c.arena)
	for _, t := range c.Tuples {
		var tw wirefields.Writer
		tw.Text(1, t.File)
		tw.Text(2, t.Line)
		tw.Text(3, t.Kernel)
		tw.Uint(4, boolBits(t.HasFile, t.HasLine, t.HasKernel))
		w.Bytes(cwTuple, tw.B)
	}
	w.Packed(cwIDFirst, c.idFirst)
	w.Packed(cwIDLast, c.idLast)
	w.Uint(cwTupleText, uint64(c.tupleText))
	w.Uint(cwTuplesCut, uint64(c.tuplesCut))
	if c.haveNo {
		w.Uint(cwNoTuple, uint64(c.noTuple)+1)
	}
	for i, p := range c.cols() {
		var cw wirefields.Writer
		cw.Uint(1, uint64(i))
		cw.Uint(2, uint64(p.n))
		cw.Packed(3, uint32s(p.starts))
		cw.Packed(4, p.cur)
		for _, ch := range p.chunks {
			cw.Bytes(5, ch)
		}
		w.Bytes(cwCol, cw.B)
	}
	return w.B, nil
}

// ParseCompact reads the wire form AppendBinary wrote. The bytes come from the page's own
// pool, but they are checked all the same (every column's blocks in its chunks, every record's
// place in its columns, the tuples and names its columns point at): a bad encoding is an
// error, never a panic or a Compact that panics when read.
func ParseCompact(b []byte) (*Compact, error) {
	c := &Compact{}
	var version uint64
	var root []byte
	var cov []uint64
	r := wirefields.NewReader(b)
	for r.More() {
		num, v, s, err := r.Next()
		if err != nil {
			return nil, err
		}
		switch num {
		case cwVersion:
			version = v
		case cwMember:
			c.Member = string(s)
		case cwKind:
			c.Kind = Kind(s)
		case cwEngine:
			c.Engine = string(s)
		case cwSize:
			c.Size = int64(v)
		case cwDescription:
			c.Description = string(s)
		case cwPointsTo:
			c.PointsTo = string(s)
		case cwEngineCode:
			c.EngineCode = v
		case cwHasEngine:
			c.HasEngine = v != 0
		case cwKernelFile:
			c.KernelFiles = append(c.KernelFiles, string(s))
		case cwKernelName:
			c.KernelNames = append(c.KernelNames, string(s))
		case cwStack:
			if c.Stack, err = parseStackFrames(s); err != nil {
				return nil, err
			}
		case cwCoverage:
			cov, err = wirefields.Unpack(s)
		case cwRoot:
			root = s
		case cwRootChildren:
			c.RootChildren = int(v)
		case cwN:
			c.N = int(v)
		case cwNumbered:
			c.Numbered = int(v)
		case cwRenumbered:
			c.Renumbered = int(v)
		case cwCkpt:
			c.ckpt, err = unpackInt64s(s)
		case cwGapAt:
			var vs []uint64
			vs, err = wirefields.Unpack(s)
			for _, x := range vs {
				c.gapAt = append(c.gapAt, int32(x))
			}
		case cwGapLen:
			c.gapLen, err = unpackInt64s(s)
		case cwPrevEnd:
			c.prevEnd = int64(v)
		case cwArena:
			c.arena = append([]byte(nil), s...)
		case cwTuple:
			var t Tuple
			t, err = parseTuple(s)
			c.Tuples = append(c.Tuples, t)
		case cwIDFirst:
			c.idFirst, err = wirefields.Unpack(s)
		case cwIDLast:
			c.idLast, err = wirefields.Unpack(s)
		case cwTupleText:
			c.tupleText = int64(v)
		case cwTuplesCut:
			c.tuplesCut = int(v)
		case cwNoTuple:
			c.noTuple, c.haveNo = uint32(v-1), true
		case cwCol:
			err = c.parseCol(s)
		}
		if err != nil {
			return nil, fmt.Errorf("a .dbg Compact's field %d: %w", num, err)
		}
	}
	if version != compactWireVersion {
		return nil, fmt.Errorf("a .dbg Compact of version %d (this core reads %d)", version, compactWireVersion)
	}
	if len(cov) == 4 {
		c.Coverage = Coverage{Named: int64(cov[0]), Unknown: int64(cov[1]), Generic: int64(cov[2]), None: int64(cov[3])}
	}
	if root != nil {
		c.Root = &doc.Node{}
		if _, err := c.Root.UnmarshalMsg(root); err != nil {
			return nil, fmt.Errorf("the root of the .dbg Compact of %s: %w", c.Member, err)
		}
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	for _, p := range c.cols() {
		p.forget() // the blocks check decoded
	}
	return c, nil
}

// forget drops the decoded blocks the column caches.
func (c *pcol) forget() {
	for w := range c.ways {
		c.ways[w].Store(nil)
	}
}

// parseCol reads one column into its place.
func (c *Compact) parseCol(b []byte) error {
	r := wirefields.NewReader(b)
	p := &pcol{}
	which := -1
	for r.More() {
		num, v, s, err := r.Next()
		if err != nil {
			return err
		}
		switch num {
		case 1:
			which = int(v)
		case 2:
			p.n = int(v)
		case 3:
			vs, err := wirefields.Unpack(s)
			if err != nil {
				return err
			}
			for _, x := range vs {
				p.starts = append(p.starts, uint32(x))
			}
		case 4:
			if p.cur, err = wirefields.Unpack(s); err != nil {
				return err
			}
		case 5:
			p.chunks = append(p.chunks, append([]byte(nil), s...))
		}
	}
	cols := c.cols()
	if which < 0 || which >= len(cols) {
		return fmt.Errorf("column %d (there are %d)", which, len(cols))
	}
	if err := p.check(); err != nil {
		return fmt.Errorf("column %d: %w", which, err)
	}
	col := cols[which]
	col.chunks, col.starts, col.n, col.cur = p.chunks, p.starts, p.n, p.cur
	return nil
}

// check refuses a column whose blocks do not decode within its chunks.
func (p *pcol) check() error {
	switch {
	case p.n < 0 || len(p.cur) >= pblock:
		return fmt.Errorf("%d values, %d in the open block", p.n, len(p.cur))
	case len(p.starts)*pblock+len(p.cur) != p.n:
		return fmt.Errorf("%d blocks and %d values open, not %d values", len(p.starts), len(p.cur), p.n)
	}
	for b, s := range p.starts {
		k, off := int(s>>16), int(s&0xffff)
		if k >= len(p.chunks) || off+2 > len(p.chunks[k]) {
			return fmt.Errorf("block %d starts outside the chunks", b)
		}
		if !blockOK(p.chunks[k][off:]) {
			return fmt.Errorf("block %d does not decode", b)
		}
	}
	return nil
}

// blockOK says whether enc starts with a whole block of pblock values (as decode reads it).
func blockOK(enc []byte) bool {
	mode, n := enc[0], int(enc[1])
	if n != pblock {
		return false
	}
	_, k := protowire.ConsumeVarint(enc[2:])
	if k < 0 {
		return false
	}
	enc = enc[2+k:]
	switch mode {
	case 1:
		_, k := protowire.ConsumeVarint(enc)
		return k >= 0
	case 2:
		return len(enc) >= n/2
	case 0:
		for range n - 1 {
			_, k := protowire.ConsumeVarint(enc)
			if k < 0 {
				return false
			}
			enc = enc[k:]
		}
		return true
	}
	return false
}

// check refuses a Compact whose columns do not answer every record (First, ID, Name, Attrs,
// Span and Lookup read them for any record below N).
func (c *Compact) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("a bad .dbg Compact of %s: "+format, append([]any{c.Member}, args...)...)
	}
	if c.N < 0 || c.lens.n != c.N || len(c.ckpt) != (c.N+ckptEvery-1)/ckptEvery || len(c.gapAt) != len(c.gapLen) {
		return bad("%d records, %d lengths, %d checkpoints, %d/%d gaps", c.N, c.lens.n, len(c.ckpt), len(c.gapAt), len(c.gapLen))
	}
	if c.keepsFirst() && c.first.n != c.N {
		return bad("%d first parents for %d records", c.first.n, c.N)
	}
	if !c.keepsRecord() {
		return nil
	}
	if c.ids.n != c.N || c.names.n != c.N || c.tuples.n != c.N || c.byID.n != c.N || c.idOrder.n != c.N {
		return bad("columns of %d, %d, %d, %d, %d values for %d records", c.ids.n, c.names.n, c.tuples.n, c.byID.n, c.idOrder.n, c.N)
	}
	blocks := (c.N + pblock - 1) / pblock
	if len(c.idFirst) != blocks || len(c.idLast) != blocks {
		return bad("an id lookup of %d/%d blocks for %d records", len(c.idFirst), len(c.idLast), c.N)
	}
	var last uint64
	for i := range c.N {
		if c.tuples.at(i) >= uint64(len(c.Tuples)) || c.names.at(i) >= uint64(c.ends.n) || c.byID.at(i) >= uint64(c.N) {
			return bad("record %d points past its tuples, names or records", i)
		}
		if v := c.ends.at(int(min(c.names.at(i), uint64(c.ends.n-1)))); v > uint64(len(c.arena)) {
			return bad("a name past the arena")
		}
		if id := c.idOrder.at(i); id < last {
			return bad("the id lookup out of order at %d", i)
		} else {
			last = id
		}
	}
	for k := 1; k < c.ends.n; k++ {
		if c.ends.at(k) < c.ends.at(k-1) {
			return bad("names out of order at %d", k)
		}
	}
	return nil
}

// appendBinary is the stack frames' wire form.
func (s *StackFrames) appendBinary(b []byte) []byte {
	w := wirefields.Writer{B: b}
	for _, f := range s.Files {
		w.Text(1, f)
	}
	for _, f := range s.Functions {
		w.Text(2, f)
	}
	loc := make([]uint64, 0, 4*len(s.Locations))
	for _, l := range s.Locations {
		loc = append(loc, l.File, l.Function, l.Line, l.Column)
	}
	w.Packed(3, loc)
	fr := make([]uint64, 0, 2*len(s.Frames))
	for _, f := range s.Frames {
		fr = append(fr, f.Location, f.Parent)
	}
	w.Packed(4, fr)
	w.Flag(5, s.Cut)
	w.Uint(6, uint64(s.text))
	return w.B
}

func parseStackFrames(b []byte) (*StackFrames, error) {
	s := &StackFrames{}
	r := wirefields.NewReader(b)
	for r.More() {
		num, v, str, err := r.Next()
		if err != nil {
			return nil, err
		}
		switch num {
		case 1:
			s.Files = append(s.Files, string(str))
		case 2:
			s.Functions = append(s.Functions, string(str))
		case 3, 4:
			vs, err := wirefields.Unpack(str)
			if err != nil {
				return nil, err
			}
			if num == 3 {
				for i := 0; i+3 < len(vs); i += 4 {
					s.Locations = append(s.Locations, FileLocation{File: vs[i], Function: vs[i+1], Line: vs[i+2], Column: vs[i+3]})
				}
			} else {
				for i := 0; i+1 < len(vs); i += 2 {
					s.Frames = append(s.Frames, StackFrame{Location: vs[i], Parent: vs[i+1]})
				}
			}
		case 5:
			s.Cut = v != 0
		case 6:
			s.text = int64(v)
		}
	}
	return s, nil
}

func parseTuple(b []byte) (Tuple, error) {
	var t Tuple
	r := wirefields.NewReader(b)
	for r.More() {
		num, v, s, err := r.Next()
		if err != nil {
			return t, err
		}
		switch num {
		case 1:
			t.File = string(s)
		case 2:
			t.Line = string(s)
		case 3:
			t.Kernel = string(s)
		case 4:
			t.HasFile, t.HasLine, t.HasKernel = v&1 != 0, v&2 != 0, v&4 != 0
		}
	}
	return t, nil
}

func unpackInt64s(b []byte) ([]int64, error) {
	vs, err := wirefields.Unpack(b)
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = int64(v)
	}
	return out, err
}

func int64s(vs []int64) []uint64 {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		out[i] = uint64(v)
	}
	return out
}

func int32s(vs []int32) []uint64 {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		out[i] = uint64(uint32(v))
	}
	return out
}

func uint32s(vs []uint32) []uint64 {
	out := make([]uint64, len(vs))
	for i, v := range vs {
		out[i] = uint64(v)
	}
	return out
}

func boolBits(bs ...bool) uint64 {
	var v uint64
	for i, b := range bs {
		if b {
			v |= 1 << i
		}
	}
	return v
}
