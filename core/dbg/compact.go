package dbg

import (
	"errors"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

// A Compact is what the source joins need of one .dbg member, read in one pass as the member
// streams past (Scanner), without its bytes or its tree: per record its first
// parent id (asm: the backend record a word came from), and for backend and penguin records
// the id, the BIR name (interned) and the kernel attributes (interned: a member names few
// files, lines and kernels), plus each record's length and a checkpoint of offsets, so any
// record's span is known and its bytes can be read back. The member's own view (every field
// as a node) is built on demand from its bytes (DecodeView). Columns are held in fixed blocks,
// so what a Compact holds is what it costs (Held), charged as it grows.
type Compact struct {
	Member      string
	Kind        Kind
	Engine      string
	Size        int64
	Description string
	PointsTo    string
	EngineCode  uint64
	HasEngine   bool
	KernelFiles []string
	KernelNames []string
	// Stack is the stack-frame member's frames (nil for other kinds).
	Stack    *StackFrames
	Coverage Coverage
	// Root is the member's content node without its children (value, detail, span, and every
	// finding of its tree, which the children built on demand do not repeat); RootChildren is
	// how many children DecodeView gives it.
	Root         *doc.Node
	RootChildren int
	// N is the number of records of field 3 (every one: a Compact keeps no cap but its budget).
	N int
	// Numbered counts the backend records named I-<n>-… that have a parent, and Renumbered
	// those of them whose first parent is not n: the penguin fallback holds only where every
	// one's parent is its own number (core/srcmap, unknowns dbg.penguin-fallback).
	Numbered, Renumbered int

	first  pcol // first parent id + 1 (0: no parent)
	ids    pcol // record id
	names  pcol // index of the record's name (ends)
	tuples pcol // index of the record's kernel attributes (Tuples)
	lens   pcol // record length
	ckpt   []int64
	// gapAt lists the records (by number, past each block's first) that do not start where
	// the one before ended, and gapLen how far past it they start: a top-level field other
	// than a record lay between them (none in the real members; a hostile one may have many).
	gapAt   []int32
	gapLen  []int64
	prevEnd int64
	arena   []byte
	ends    pcol
	Tuples  []Tuple
	// the id lookup (backend and penguin): record numbers in id order, the ids in that order,
	// and the first and last id of each of their blocks
	byID    pcol
	idOrder pcol
	idFirst []uint64
	idLast  []uint64
	// build state: interning tables (dropped at the end of the scan)
	nameIdx  nameSet
	tupleIdx tupleSet
	// lastTuple is the index of the last record's tuple (haveLast once set). Only the index
	// is kept: a copy of the tuple (three strings) stored for every record went through the
	// collector's bulk write barrier, ~0.3 s of the 32 MB real-shaped NEFF's source lines in wasm.
	lastTuple uint32
	haveLast  bool
	// prevTuple is the tuple before the last one (havePrev once set), tried second.
	prevTuple uint32
	havePrev  bool
	// tupleText is the bytes of the Tuples' strings; tuplesCut counts the records whose
	// attributes were past maxTuples (given noTuple, the empty set: no source line).
	tupleText int64
	tuplesCut int
	noTuple   uint32
	haveNo    bool
}

// Tuple is a record's kernel attributes as written (kernel_file and kernel_name are indexes into
// the member's fields 5 and 7; Has… says whether the record has the attribute at all).
type Tuple struct {
	File, Line, Kernel          string
	HasFile, HasLine, HasKernel bool
}

const (
	ckptEvery = 64
	// maxInterned bounds the distinct names looked up for sharing (past it a new name is
	// stored again, not looked up: the lookup table would cost more than it saves).
	maxInterned = 1 << 16
	mapEntry    = 64 // bytes a map entry costs, about
	// maxTuples bounds the distinct kernel attribute sets kept per member (a kernel line is
	// one; the real members name at most a few thousand): a record past it has none.
	maxTuples = 1 << 16
)

// Held is the bytes the Compact holds (its columns, tables and strings).
func (c *Compact) Held() int64 {
	n := c.first.bytes() + c.ids.bytes() + c.names.bytes() + c.tuples.bytes() + c.lens.bytes() + c.ends.bytes() + c.byID.bytes() + c.idOrder.bytes()
	n += int64(cap(c.ckpt))*8 + int64(cap(c.gapAt))*4 + int64(cap(c.gapLen))*8 + int64(cap(c.idFirst)+cap(c.idLast))*8 + int64(cap(c.arena)) + int64(c.nameIdx.n+c.tupleIdx.n)*mapEntry
	n += int64(cap(c.Tuples))*64 + c.tupleText
	for _, s := range c.KernelFiles {
		n += int64(len(s)) + 16
	}
	for _, s := range c.KernelNames {
		n += int64(len(s)) + 16
	}
	return n + c.Stack.held() + 512
}

// keeps says which columns a kind needs.
func (c *Compact) keepsFirst() bool  { return c.Kind == KindAsm || c.Kind == KindBackend }
func (c *Compact) keepsRecord() bool { return c.Kind == KindBackend || c.Kind == KindPenguin }

// recordFacts is what a Compact keeps of one record: its span, first parent, id, name and
// kernel attributes. The scan's fast path (fastscan.go) fills it from the record's bytes with no
// Record between; its strings point into the bytes being scanned.
type recordFacts struct {
	off, len int64
	first    uint64 // the first parent id (hasFirst)
	hasFirst bool
	id       uint64
	name     string
	tuple    Tuple
}

// record keeps what the joins need of a record the decoder read.
func (c *Compact) record(r *Record) {
	x := recordFacts{off: r.Off, len: r.Len, id: r.ID, name: r.Name}
	if len(r.Parents) > 0 {
		x.first, x.hasFirst = r.Parents[0], true
	}
	if c.keepsRecord() {
		for _, a := range r.Attrs {
			switch {
			case a.Key == "kernel_file" && !x.tuple.HasFile:
				x.tuple.File, x.tuple.HasFile = a.Value, true
			case a.Key == "kernel_line" && !x.tuple.HasLine:
				x.tuple.Line, x.tuple.HasLine = a.Value, true
			case a.Key == "kernel_name" && !x.tuple.HasKernel:
				x.tuple.Kernel, x.tuple.HasKernel = a.Value, true
			}
		}
	}
	c.add(&x)
}

// add keeps the facts of the next record.
func (c *Compact) add(r *recordFacts) {
	i := c.N
	c.N++
	if i%ckptEvery == 0 {
		c.ckpt = append(c.ckpt, r.off)
	} else if r.off != c.prevEnd {
		c.gapAt, c.gapLen = append(c.gapAt, int32(i)), append(c.gapLen, r.off-c.prevEnd)
	}
	c.prevEnd = r.off + r.len
	c.lens.add(uint64(r.len))
	if c.keepsFirst() {
		if !r.hasFirst {
			c.first.add(0)
		} else {
			c.first.add(r.first + 1) // a parent id of 2^64-1 reads as none (hostile only)
		}
	}
	if !c.keepsRecord() {
		return
	}
	if n, ok := birNumber(r.name); ok && c.Kind == KindBackend && r.hasFirst {
		c.Numbered++
		if r.first != n {
			c.Renumbered++
		}
	}
	c.ids.add(r.id)
	c.names.add(uint64(c.intern(r.name)))
	// The record's strings point into the scan's bytes: a new tuple is copied. Runs of
	// records share a tuple (one kernel line, many words), so the last one is tried first.
	t := &r.tuple
	k, ok := c.lastTuple, c.haveLast && *t == c.Tuples[c.lastTuple]
	if !ok && c.havePrev && *t == c.Tuples[c.prevTuple] {
		k, ok = c.prevTuple, true // two lines in turn (a loop's body)
	}
	if !ok {
		_, k, ok = c.tupleIdx.find(tupleHash(t), t, c.Tuples)
	}
	if !ok && len(c.Tuples) >= maxTuples {
		c.tuplesCut++
		if !c.haveNo {
			c.noTuple, c.haveNo = c.newTuple(Tuple{}), true
		}
		c.tuples.add(uint64(c.noTuple))
		return
	}
	if !ok {
		k = c.newTuple(*t)
	}
	if k != c.lastTuple && c.haveLast {
		c.prevTuple, c.havePrev = c.lastTuple, true
	}
	c.lastTuple, c.haveLast = k, true
	c.tuples.add(uint64(k))
}

// newTuple keeps a copy of t (its strings point into the scan's bytes) and returns its index.
func (c *Compact) newTuple(t Tuple) uint32 {
	t = Tuple{File: strings.Clone(t.File), Line: strings.Clone(t.Line), Kernel: strings.Clone(t.Kernel), HasFile: t.HasFile, HasLine: t.HasLine, HasKernel: t.HasKernel}
	k := uint32(len(c.Tuples))
	c.Tuples = append(c.Tuples, t)
	c.tupleIdx.set(tupleHash(&t), &t, k, c.Tuples)
	c.tupleText += int64(len(t.File) + len(t.Line) + len(t.Kernel))
	return k
}

// birNumber is n of a BIR name "I-<n>" or "I-<n>-…" (the penguin instruction it was lowered
// from, where the compiler numbers them so: 2.18/2.21 cs149, nkipy).
func birNumber(name string) (uint64, bool) {
	if len(name) < 3 || name[0] != 'I' || name[1] != '-' {
		return 0, false
	}
	// strconv.ParseUint(digits, 10, 64) of the digits up to the next '-', by hand: it was
	// most of a backend record's cost in the wasm after the maps.
	var n uint64
	i := 2
	for ; i < len(name) && name[i] != '-'; i++ {
		d := uint64(name[i] - '0')
		if d > 9 || n > (math.MaxUint64-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, i > 2
}

func (c *Compact) intern(name string) uint32 {
	h := fnvText(fnvOffset, name)
	if k, ok := c.nameIdx.find(h, name, c.arena); ok {
		return k
	}
	lo := len(c.arena)
	c.arena = append(c.arena, name...)
	k := uint32(c.ends.n)
	c.ends.add(uint64(len(c.arena)))
	if c.nameIdx.n < maxInterned {
		c.nameIdx.add(h, k, lo, len(c.arena))
	}
	return k
}

// First is record i's first parent id (asm: the backend record of word i), ok false when the
// record names none.
func (c *Compact) First(i int) (uint64, bool) {
	if i < 0 || i >= c.first.n {
		return 0, false
	}
	v := c.first.at(i)
	return v - 1, v != 0
}

// ID is record i's id (backend and penguin members).
func (c *Compact) ID(i int) uint64 { return c.ids.at(i) }

// Name is record i's name (backend members: the BIR instruction; penguin: the tensor).
func (c *Compact) Name(i int) string {
	k := int(c.names.at(i))
	lo := uint64(0)
	if k > 0 {
		lo = c.ends.at(k - 1)
	}
	return string(c.arena[lo:c.ends.at(k)])
}

// Attrs is record i's kernel attributes (backend and penguin members).
func (c *Compact) Attrs(i int) *Tuple { return &c.Tuples[c.tuples.at(i)] }

// TupleIndex is the index of record i's kernel attributes in Tuples.
func (c *Compact) TupleIndex(i int) int { return int(c.tuples.at(i)) }

// Span is record i's bytes in the member.
func (c *Compact) Span(i int) (off, n int64) {
	if i < 0 || i >= c.N {
		return 0, 0
	}
	first := i / ckptEvery * ckptEvery
	off = c.ckpt[i/ckptEvery]
	for at := first; at < i; at++ {
		off += int64(c.lens.at(at))
	}
	for k := sort.Search(len(c.gapAt), func(k int) bool { return int(c.gapAt[k]) > first }); k < len(c.gapAt) && int(c.gapAt[k]) <= i; k++ {
		off += c.gapLen[k]
	}
	return off, int64(c.lens.at(i))
}

// Lookup finds the first record (in member order) with id (backend and penguin members).
func (c *Compact) Lookup(id uint64) (int, bool) {
	n := len(c.idLast)
	if n == 0 || id < c.idFirst[0] || id > c.idLast[n-1] {
		return 0, false
	}
	// The ids are sorted: id's first occurrence is in the first block whose last id is ≥ id.
	// Only that block is decoded, so a run of lookups of nearby ids (a stream's words, in
	// order) decodes each block once (the column caches one): deciding between this block and
	// the one before by decoding both alternated the cache, two decodes per lookup.
	k := sort.Search(n, func(b int) bool { return c.idLast[b] >= id })
	switch {
	case c.idFirst[k] == id:
		return int(c.byID.at(k * pblock)), true
	case c.idFirst[k] > id:
		return 0, false
	}
	vs := c.idOrder.view(k)
	if j := sort.Search(len(vs), func(j int) bool { return vs[j] >= id }); j < len(vs) && vs[j] == id {
		return int(c.byID.at(k*pblock + j)), true
	}
	return 0, false
}

// buildLookup sorts the record numbers by id (first in member order among equal ids); its
// transient cost is what grow is asked for first.
func (c *Compact) buildLookup(grow func(int64) bool) bool {
	if !c.keepsRecord() || c.N == 0 {
		return true
	}
	if grow != nil && !grow(int64(c.N)*12) {
		return false
	}
	ids := make([]uint64, c.N)
	c.ids.values(ids)
	perm := make([]uint32, c.N)
	for i := range perm {
		perm[i] = uint32(i)
	}
	sortByID(ids, perm)
	for k, i := range perm {
		if k%pblock == 0 {
			c.idFirst = append(c.idFirst, ids[k])
		}
		if k%pblock == pblock-1 || k == len(perm)-1 {
			c.idLast = append(c.idLast, ids[k])
		}
		c.idOrder.add(ids[k])
		c.byID.add(uint64(i))
	}
	return true
}

// sortByID orders the record numbers perm (in order at first) and their ids, in tandem, by
// id and then by number. A member's ids come nearly in order (a record a few places early or
// late): an insertion sort orders them in about one pass, with no comparison function (in the
// wasm the comparisons of a sort were a third of the real-shaped NEFF's scan). Past a budget
// of moves it leaves the rest to sort.Sort.
func sortByID(ids []uint64, perm []uint32) {
	moves, budget := 0, 8*len(ids)+64
	for i := 1; i < len(ids); i++ {
		v, p := ids[i], perm[i]
		j := i
		for j > 0 && ids[j-1] > v { // strictly: equal ids stay in record order
			ids[j], perm[j] = ids[j-1], perm[j-1]
			j--
		}
		ids[j], perm[j] = v, p
		if moves += i - j; moves > budget {
			sortPacked(ids, perm)
			return
		}
	}
}

// sortPacked sorts ids and perm in tandem: when every id fits in 32 bits, as each id and its
// record number packed in one uint64 (one sort of plain integers, in place: no comparison
// function, no interface), else by sort.Sort.
func sortPacked(ids []uint64, perm []uint32) {
	for _, id := range ids {
		if id > math.MaxUint32 {
			sort.Sort(byIDs{ids, perm})
			return
		}
	}
	for k := range ids {
		ids[k] = ids[k]<<32 | uint64(perm[k])
	}
	slices.Sort(ids)
	for k := range ids {
		ids[k], perm[k] = ids[k]>>32, uint32(ids[k])
	}
}

// byIDs sorts record numbers and their ids in tandem, by id and then by number.
type byIDs struct {
	ids  []uint64
	perm []uint32
}

func (s byIDs) Len() int { return len(s.ids) }
func (s byIDs) Less(a, b int) bool {
	return s.ids[a] < s.ids[b] || s.ids[a] == s.ids[b] && s.perm[a] < s.perm[b]
}
func (s byIDs) Swap(a, b int) {
	s.ids[a], s.ids[b] = s.ids[b], s.ids[a]
	s.perm[a], s.perm[b] = s.perm[b], s.perm[a]
}

// A Scanner builds a member's Compact from its bytes as they stream past, in order (Write),
// with the same decoder as Decode: the same records, coverage and findings (past the tree's
// node budget a record in the common form is read by the fast path, fastscan.go, which
// gives what the decoder gives, byte for byte: TestFastPathSameAsWalk). It holds one
// top-level field at a time (a record: tens of bytes), and the first fields' tree while it
// counts the root's children (at most maxNodes nodes, with no text: see decoder.bare).
type Scanner struct {
	d      *decoder
	c      *Compact
	buf    []byte
	bufOff int64 // member offset of buf[0]
	got    int64
	broken bool // a top-level wire error: the decoder has accounted for the rest of the member
	// Grow, if set, is asked before the scan holds n more bytes; when it says no, the scan
	// stops and Close returns nil.
	Grow    func(n int64) bool
	charged int64
	failed  bool
	fast    *fastScan // the fast path's tables (nil: the member's kind has no records)
}

// NewScanner starts the scan of a member of size bytes.
func NewScanner(member string, size int64) *Scanner {
	d := newDecoder(member, member, size, 0)
	d.b = nil
	c := &Compact{Member: member, Kind: d.f.Kind, Engine: d.f.Engine, Size: size}
	d.onRecord, d.bare = c.record, true
	return &Scanner{d: d, c: c, fast: newFastScan(shape(kindShape(d.f.Kind)))}
}

// Scan builds the Compact of a member held in memory.
func Scan(member string, b []byte) *Compact {
	s := NewScanner(member, int64(len(b)))
	s.Write(b)
	return s.Close()
}

// Charged is what the scan has asked Grow for so far.
func (s *Scanner) Charged() int64 { return s.charged }

// Failed says whether Grow refused the scan.
func (s *Scanner) Failed() bool { return s.failed }

// Write takes the member's next bytes.
func (s *Scanner) Write(p []byte) {
	if s.failed {
		return
	}
	p = p[:min(int64(len(p)), max(0, s.c.Size-s.got))] // never past the member's size
	s.got += int64(len(p))
	if s.broken {
		return
	}
	if len(s.buf) == 0 {
		// Parse straight out of p; keep only the unfinished field.
		s.drain(p, false)
	} else {
		s.buf = append(s.buf, p...)
		s.drain(s.buf, false)
	}
	s.charge()
}

// drain reads every complete top-level field of b (which starts at s.bufOff) and keeps the
// rest in s.buf.
func (s *Scanner) drain(b []byte, final bool) {
	size := s.c.Size
	shp := shape(kindShape(s.c.Kind))
	more := !final && s.bufOff+int64(len(b)) < size
	for len(b) > 0 && !s.broken {
		if s.fast != nil && s.d.cut >= 0 && len(b) > 2 && b[0] == 3<<3|2 {
			// Past the node budget (cut set: no field gets a node again), a record whose
			// bytes are all here is tried by the fast path.
			var l uint64
			k := 2
			if l = uint64(b[1]); l >= 0x80 {
				l, k = uvarint(b, 1)
			}
			if k > 0 && l <= uint64(len(b)-k) {
				if n := k + int(l); s.d.fastRecord(s.fast, s.c, b[:n], k, s.bufOff) {
					b = b[n:]
					s.bufOff += int64(n)
					continue
				}
			}
		}
		num, typ, n := protowire.ConsumeTag(b)
		end := int64(-1)
		wait := false
		if n < 0 {
			wait = more && truncated(n)
		} else if m := protowire.ConsumeFieldValue(num, typ, b[n:]); m >= 0 {
			end = s.bufOff + int64(n+m)
		} else if more && truncated(m) {
			wait = true
			if typ == protowire.BytesType {
				// A length that runs past the member will never be met: an error now.
				if l, k := protowire.ConsumeVarint(b[n:]); k > 0 && l > uint64(size-s.bufOff-int64(n+k)) {
					wait = false
				}
			}
		}
		if wait {
			break
		}
		s.d.b, s.d.base = b, s.bufOff
		if end < 0 {
			// A wire error: the decoder reports it and accounts for the rest of the member.
			s.d.message(s.d.f.Root, shp, s.bufOff, size, 0, nil)
			s.broken = true
			b = nil
			break
		}
		s.d.message(s.d.f.Root, shp, s.bufOff, end, 0, nil)
		b = b[end-s.bufOff:]
		s.bufOff = end
	}
	s.d.b = nil
	if len(b) == 0 {
		s.buf = s.buf[:0]
		if cap(s.buf) > 1<<20 {
			s.buf = nil // after one big field
		}
		return
	}
	if len(s.buf) > 0 && &b[0] == &s.buf[0] {
		return
	}
	s.buf = append(s.buf[:0], b...)
}

func truncated(n int) bool { return errors.Is(protowire.ParseError(n), io.ErrUnexpectedEOF) }

func (s *Scanner) charge() {
	held := s.c.Held() + s.d.f.Stack.held() + int64(cap(s.buf)) + int64(s.d.nodes)*400 + s.d.textHeld
	if held <= s.charged {
		return
	}
	if s.Grow != nil && !s.Grow(held-s.charged) {
		s.failed = true
		s.c, s.buf, s.d = nil, nil, nil
		return
	}
	s.charged = held
}

// Close ends the scan and returns the Compact: nil when Grow refused it or the member's bytes
// did not all come.
func (s *Scanner) Close() *Compact {
	if s.failed || s.got < s.c.Size {
		return nil
	}
	if !s.broken && len(s.buf) > 0 {
		s.drain(s.buf, true)
	}
	d, c := s.d, s.c
	f := d.f
	root := f.Root
	if d.cut >= 0 {
		root.SetAttr(doc.AttrViewLimit, cutNote(d.cut))
	}
	d.stackCut()
	d.closeRepeats()
	if c.tuplesCut > 0 {
		root.Flag(doc.CodeDbgAttrsLimit, doc.Warning, root.Span, "%s: its records carry more than %d distinct sets of kernel attributes (file, line, kernel); %d records past the limit are kept without them and have no source line.", c.Member, maxTuples, c.tuplesCut)
	}
	c.RootChildren = len(root.Children)
	if d.nrec > 0 {
		c.RootChildren++
	}
	if f.Stack.shown() {
		c.RootChildren++
	}
	grow := func(n int64) bool {
		if s.Grow != nil && !s.Grow(n) {
			return false
		}
		s.charged += n
		return true
	}
	if !c.buildLookup(grow) {
		s.failed = true
		return nil
	}
	c.Root = &doc.Node{Kind: root.Kind, Label: root.Label, Value: root.Value, Detail: root.Detail, Span: root.Span, Findings: collect(root), Attrs: maps.Clone(root.Attrs)}
	c.Description, c.PointsTo, c.EngineCode, c.HasEngine = f.Description, f.PointsTo, f.EngineCode, f.HasEngine
	c.KernelFiles, c.KernelNames, c.Coverage, c.Stack = f.KernelFiles, f.KernelNames, f.Coverage, f.Stack
	c.nameIdx, c.tupleIdx = nameSet{}, tupleSet{}
	s.buf, s.d = nil, nil
	return c
}

// RecordsIn decodes the records of field 3 that lie in b, the bytes of member at offset off
// (from a record's start), as Decode reads them: the records table's rows served by range.
func RecordsIn(member string, b []byte, off int64, want int) []Record {
	d := newDecoder(member, member, off+int64(len(b)), want)
	d.b, d.base = b, off
	d.records = true
	d.message(nil, shape(kindShape(d.f.Kind)), off, off+int64(len(b)), 0, nil)
	return d.f.Records
}

// RecordRowsAt is the records table's rows for records recs of a member, the first of them
// record first (st: the NEFF's stack frames, for an hlo member's; nil when none).
func RecordRowsAt(kind Kind, member string, recs []Record, first int, st *StackFrames) *doc.Table {
	return recordRows(kind, member, recs, first, st)
}
