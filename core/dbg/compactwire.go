package dbg

// A Compact's wire form: the page scans .dbg members in a pool of workers, each a Go runtime
// of its own, and hands the Compact to the worker that holds the open as bytes. The encoding
// is protobuf wire fields (protowire, as the members themselves): every column as it is
// packed, so decoding copies bytes and never scans a record again.

import (
	"fmt"

	"github.com/neffscope/neffscope/core/doc"
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
	w := wire{b: b}
	w.uint(cwVersion, compactWireVersion)
	w.str(cwMember, c.Member)
	w.str(cwKind, string(c.Kind))
	w.str(cwEngine, c.Engine)
	w.uint(cwSize, uint64(c.Size))
	w.str(cwDescription, c.Description)
	w.str(cwPointsTo, c.PointsTo)
	w.uint(cwEngineCode, c.EngineCode)
	w.flag(cwHasEngine, c.HasEngine)
	for _, s := range c.KernelFiles {
		w.str(cwKernelFile, s)
	}
	for _, s := range c.KernelNames {
		w.str(cwKernelName, s)
	}
	if c.Stack != nil {
		w.bytes(cwStack, c.Stack.appendBinary(nil))
	}
	w.packed(cwCoverage, []uint64{uint64(c.Coverage.Named), uint64(c.Coverage.Unknown), uint64(c.Coverage.Generic), uint64(c.Coverage.None)})
	if c.Root != nil {
		root, err := c.Root.MarshalMsg(nil)
		if err != nil {
			return nil, fmt.Errorf("encoding the root of %s: %w", c.Member, err)
		}
		w.bytes(cwRoot, root)
	}
	w.uint(cwRootChildren, uint64(c.RootChildren))
	w.uint(cwN, uint64(c.N))
	w.uint(cwNumbered, uint64(c.Numbered))
	w.uint(cwRenumbered, uint64(c.Renumbered))
	w.packed(cwCkpt, int64s(c.ckpt))
	w.packed(cwGapAt, int32s(c.gapAt))
	w.packed(cwGapLen, int64s(c.gapLen))
	w.uint(cwPrevEnd, uint64(c.prevEnd))
	w.bytes(cwArena, c.arena)
	for _, t := range c.Tuples {
		var tw wire
		tw.str(1, t.File)
		tw.str(2, t.Line)
		tw.str(3, t.Kernel)
		tw.uint(4, boolBits(t.HasFile, t.HasLine, t.HasKernel))
		w.bytes(cwTuple, tw.b)
	}
	w.packed(cwIDFirst, c.idFirst)
	w.packed(cwIDLast, c.idLast)
	w.uint(cwTupleText, uint64(c.tupleText))
	w.uint(cwTuplesCut, uint64(c.tuplesCut))
	if c.haveNo {
		w.uint(cwNoTuple, uint64(c.noTuple)+1)
	}
	for i, p := range c.cols() {
		var cw wire
		cw.uint(1, uint64(i))
		cw.uint(2, uint64(p.n))
		cw.packed(3, uint32s(p.starts))
		cw.packed(4, p.cur)
		for _, ch := range p.chunks {
			cw.bytes(5, ch)
		}
		w.bytes(cwCol, cw.b)
	}
	return w.b, nil
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
	r := wireReader{b: b}
	for r.more() {
		num, v, s, err := r.next()
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
			cov, err = unpack(s)
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
			vs, err = unpack(s)
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
			c.idFirst, err = unpack(s)
		case cwIDLast:
			c.idLast, err = unpack(s)
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
	r := wireReader{b: b}
	p := &pcol{}
	which := -1
	for r.more() {
		num, v, s, err := r.next()
		if err != nil {
			return err
		}
		switch num {
		case 1:
			which = int(v)
		case 2:
			p.n = int(v)
		case 3:
			vs, err := unpack(s)
			if err != nil {
				return err
			}
			for _, x := range vs {
				p.starts = append(p.starts, uint32(x))
			}
		case 4:
			if p.cur, err = unpack(s); err != nil {
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
	w := wire{b: b}
	for _, f := range s.Files {
		w.str(1, f)
	}
	for _, f := range s.Functions {
		w.str(2, f)
	}
	loc := make([]uint64, 0, 4*len(s.Locations))
	for _, l := range s.Locations {
		loc = append(loc, l.File, l.Function, l.Line, l.Column)
	}
	w.packed(3, loc)
	fr := make([]uint64, 0, 2*len(s.Frames))
	for _, f := range s.Frames {
		fr = append(fr, f.Location, f.Parent)
	}
	w.packed(4, fr)
	w.flag(5, s.Cut)
	w.uint(6, uint64(s.text))
	return w.b
}

func parseStackFrames(b []byte) (*StackFrames, error) {
	s := &StackFrames{}
	r := wireReader{b: b}
	for r.more() {
		num, v, str, err := r.next()
		if err != nil {
			return nil, err
		}
		switch num {
		case 1:
			s.Files = append(s.Files, string(str))
		case 2:
			s.Functions = append(s.Functions, string(str))
		case 3, 4:
			vs, err := unpack(str)
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
	r := wireReader{b: b}
	for r.more() {
		num, v, s, err := r.next()
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

// wire appends protobuf wire fields.
type wire struct{ b []byte }

func (w *wire) uint(num protowire.Number, v uint64) {
	w.b = protowire.AppendTag(w.b, num, protowire.VarintType)
	w.b = protowire.AppendVarint(w.b, v)
}

func (w *wire) flag(num protowire.Number, v bool) {
	if v {
		w.uint(num, 1)
	}
}

func (w *wire) str(num protowire.Number, s string) {
	w.b = protowire.AppendTag(w.b, num, protowire.BytesType)
	w.b = protowire.AppendString(w.b, s)
}

func (w *wire) bytes(num protowire.Number, v []byte) {
	w.b = protowire.AppendTag(w.b, num, protowire.BytesType)
	w.b = protowire.AppendBytes(w.b, v)
}

// packed appends vs as one field of varints.
func (w *wire) packed(num protowire.Number, vs []uint64) {
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, v)
	}
	w.bytes(num, p)
}

// wireReader reads the fields wire wrote: a varint's value, or a bytes field's bytes.
type wireReader struct{ b []byte }

func (r *wireReader) more() bool { return len(r.b) > 0 }

func (r *wireReader) next() (protowire.Number, uint64, []byte, error) {
	num, typ, n := protowire.ConsumeTag(r.b)
	if n < 0 {
		return 0, 0, nil, protowire.ParseError(n)
	}
	r.b = r.b[n:]
	switch typ {
	case protowire.VarintType:
		v, m := protowire.ConsumeVarint(r.b)
		if m < 0 {
			return 0, 0, nil, protowire.ParseError(m)
		}
		r.b = r.b[m:]
		return num, v, nil, nil
	case protowire.BytesType:
		v, m := protowire.ConsumeBytes(r.b)
		if m < 0 {
			return 0, 0, nil, protowire.ParseError(m)
		}
		r.b = r.b[m:]
		return num, 0, v, nil
	}
	return 0, 0, nil, fmt.Errorf("field %d has wire type %d", num, typ)
}

// unpack reads a packed field of varints.
func unpack(b []byte) ([]uint64, error) {
	n := 0
	for _, c := range b {
		if c < 0x80 {
			n++
		}
	}
	out := make([]uint64, 0, n)
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		out = append(out, v)
		b = b[n:]
	}
	return out, nil
}

func unpackInt64s(b []byte) ([]int64, error) {
	vs, err := unpack(b)
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
