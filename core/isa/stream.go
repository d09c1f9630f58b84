package isa

import (
	"encoding/binary"
	"io"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/neffscope/neffscope/core/doc"
)

// Stream is one engine instruction stream, decoded on demand, so a listing of a million words
// costs one pass of opcode counting up front and a few hundred decodes per screen. Its bytes
// are either held whole (NewStream) or read from a WordSource when asked for (Indexer.Stream):
// a stream an open keeps compressed in memory (neff.Packed), or one larger than it holds,
// read from the file again, is indexed as it streams past and never held whole.
type Stream struct {
	Member string // tar member path (e.g. "sg00/Activation.bin"); "" for a loose file
	data   []byte // the words when held whole; nil when they are read from src
	src    WordSource
	size   int64 // bytes in the stream
	n      int
	counts [256]int
	first  [256]int // index of the first word with each opcode
	loads  []tableLoad
	// loadsThin is the word from which only the loads that change the set are kept (maxLoads),
	// loadsCut the word from which none is (maxLoadRuns or the budget); -1: not reached.
	loadsThin, loadsCut int
	finds               []doc.Finding
	// seconds has bit i set when word i is a 0xDA that continues the 0xD4 before it (neff.md
	// §4.7), up to the last such word: a bit per word, not an index per pair (a 1 GB NEFF's
	// 5.3 M pairs took 42 MB as a list of ints).
	seconds []uint64

	resolveColumn string
	resolve       Resolver

	mu      sync.Mutex // guards the read window of a stream that is not held whole
	win     []byte
	winOff  int64
	readErr error
}

// WordSource serves the bytes of a stream that is not held whole. One whose InMemory method
// says true (neff.Packed) makes the stream Held.
type WordSource interface {
	// ReadAt reads the stream's bytes at off, as io.ReaderAt does.
	ReadAt(p []byte, off int64) (int, error)
	// Scan hands the stream's bytes from offset 0 to fn in order, chunk by chunk, in one pass;
	// fn returning false stops it.
	Scan(fn func(chunk []byte) bool) error
}

// readWindow is how much of a stream that is not held one read fetches: a screen of the
// listing and its neighbours cost one read.
const readWindow = 1 << 20

// memoryWindow is the window of a stream held compressed: a decode costs little, so a random
// word decodes a block or two, not a megabyte.
const memoryWindow = 64 << 10

// tableLoad is an ActivationTableLoad (0x23) seen in the stream: 8 bytes (a word index fits in
// 32 bits, the set index is a byte), as a 1 GB NEFF's streams hold 2.6 M of them (42 MB as two
// ints each).
type tableLoad struct {
	index int32
	set   int32
}

// maxLoads bounds the table loads a stream keeps one by one; past it only the loads that change
// the set are kept, so every word's resident set stays exact (ResidentSet's load index is then
// the first load of a run of one set). Past maxLoadRuns kept, or the budget, none are: the words
// after the last one kept have no known resident set (LoadsKnown).
const (
	maxLoads    = 1 << 18
	maxLoadRuns = 1 << 22
)

// Resolver supplies an extra listing column for a word (core/inspect uses it for the resolved
// activation set and function, or the DMA queue and block).
type Resolver func(index int, word []byte) string

// OpcodeCount is how often one opcode occurs in a stream.
type OpcodeCount struct {
	Opcode uint8
	Name   string
	Known  bool
	Count  int
	First  int // index of its first word
}

// Listing columns of Rows.
var ListingColumns = []string{"index", "offset", "opcode", "name", "operands", "sync"}

// NewStream indexes a stream held in b. The Stream keeps b (no copy); the caller must not
// modify it. A size that is not a multiple of 64 gives an error finding naming the member and
// the trailing byte count; the whole words still decode.
func NewStream(member string, b []byte) *Stream {
	x := NewIndexer(member)
	x.Write(b)
	s := x.finish()
	s.data = b
	return s
}

// Indexer indexes a stream from its bytes in order, chunk by chunk (as an archive walk hands
// them over), without holding them: opcode counts, table loads and two-word instructions.
type Indexer struct {
	// Grow, if set, is asked before the index holds n more bytes (its table loads); when it
	// says no, no more loads are kept.
	Grow                func(n int64) bool
	s                   *Stream
	split               wordSplitter
	prevStarts          bool // the previous word starts a two-word instruction
	badLen, firstBadLen int
}

// wordSplitter cuts bytes that arrive in chunks of any size into whole 64-byte words,
// carrying a word split across chunks over to the next.
type wordSplitter struct {
	carry [WordSize]byte
	nc    int
}

// feed hands each whole word of b (after the carried bytes) to fn, in order, until fn
// returns false; it reports whether fn always returned true. A word's slice is valid only
// during fn.
func (w *wordSplitter) feed(b []byte, fn func(word []byte) bool) bool {
	if w.nc > 0 {
		k := copy(w.carry[w.nc:], b)
		w.nc += k
		b = b[k:]
		if w.nc < WordSize {
			return true
		}
		w.nc = 0
		if !fn(w.carry[:]) {
			return false
		}
	}
	for ; len(b) >= WordSize; b = b[WordSize:] {
		if !fn(b[:WordSize:WordSize]) {
			return false
		}
	}
	w.nc = copy(w.carry[:], b)
	return true
}

// NewIndexer starts indexing member's stream.
func NewIndexer(member string) *Indexer {
	s := &Stream{Member: member, loadsThin: -1, loadsCut: -1}
	for i := range s.first {
		s.first[i] = -1
	}
	return &Indexer{s: s, firstBadLen: -1}
}

// Write indexes the next bytes of the stream; it never fails.
func (x *Indexer) Write(b []byte) (int, error) {
	x.s.size += int64(len(b))
	x.split.feed(b, x.word)
	return len(b), nil
}

func (x *Indexer) word(w []byte) bool {
	s := x.s
	i := s.n
	s.n++
	op := w[0]
	if s.counts[op] == 0 {
		s.first[op] = i
	}
	s.counts[op]++
	if set, ok := SetIndexOf(w); ok && s.loadsCut < 0 {
		x.load(i, set)
	}
	second := op == 0xDA && x.prevStarts
	x.prevStarts = StartsTwoWord(w)
	if second {
		for len(s.seconds) <= i>>6 { // a valid second word: its +0x01 is not a word length
			s.seconds = append(s.seconds, 0)
		}
		s.seconds[i>>6] |= 1 << (i & 63)
		return true
	}
	if w[1] != 0x10 && !(op == 0xE3 && w[1] == 0x11) {
		if x.badLen == 0 {
			x.firstBadLen = i
		}
		x.badLen++
	}
	return true
}

// load keeps table load i (of set), within maxLoads, maxLoadRuns and the budget.
func (x *Indexer) load(i, set int) {
	s := x.s
	n := len(s.loads)
	if n >= maxLoads {
		if s.loadsThin < 0 {
			s.loadsThin = i
		}
		if s.loads[n-1].set == int32(set) {
			return
		}
	}
	if n == cap(s.loads) {
		more := min(max(64, n), maxLoadRuns-n)
		if more <= 0 || x.Grow != nil && !x.Grow(int64(more)*8) {
			s.loadsCut = i
			return
		}
		s.loads = slices.Grow(s.loads, more)
	}
	s.loads = append(s.loads, tableLoad{index: int32(i), set: int32(set)})
}

// LoadsKnown says whether the table loads before word i were all indexed (ResidentSet's answer
// for i is the stream's).
func (s *Stream) LoadsKnown(i int) bool { return s.loadsCut < 0 || i <= s.loadsCut }

// Stream finishes the index: the stream's words are read from src when asked for.
func (x *Indexer) Stream(src WordSource) *Stream {
	s := x.finish()
	s.src = src
	return s
}

func (x *Indexer) finish() *Stream {
	s := x.s
	if tail := s.size % WordSize; tail != 0 {
		s.finds = append(s.finds, doc.Finding{Code: doc.CodeISAStreamSize, Severity: doc.Error, Span: s.span(int64(s.n)*WordSize, tail),
			Message: s.where() + " is " + strconv.FormatInt(s.size, 10) + " bytes, not a multiple of the 64-byte instruction word: " +
				"the last " + strconv.FormatInt(tail, 10) + " bytes (from offset " + strconv.Itoa(s.n*WordSize) +
				") are not a whole instruction and are ignored, as the runtime counts size/64 = " + strconv.Itoa(s.n) +
				" instructions. The member may be truncated or corrupted; re-extract it or recompile."})
	}
	if x.badLen > 0 {
		s.finds = append(s.finds, doc.Finding{Code: doc.CodeISAWordLength, Severity: doc.Warning, Span: s.span(int64(x.firstBadLen)*WordSize+1, 1),
			Message: s.where() + ": " + strconv.Itoa(x.badLen) + " of " + strconv.Itoa(s.n) +
				" words do not have the word-length byte 0x10 at +0x01 (first at index " + strconv.Itoa(x.firstBadLen) +
				"); every 64-byte engine word has it (neff.md §4.2), so this may not be a modern instruction stream " +
				"(a legacy Tonga SP stream uses 8-byte words, neff.md §4.6, and is not decoded), or it is corrupt."})
	}
	if s.loadsThin >= 0 {
		s.finds = append(s.finds, doc.Finding{Code: doc.CodeISALoadsLimit, Severity: doc.Info, Span: s.span(int64(s.loadsThin)*WordSize, WordSize),
			Message: s.where() + " has " + strconv.Itoa(s.counts[0x23]) + " ActivationTableLoad words: past the first " + strconv.Itoa(maxLoads) +
				" (from word " + strconv.Itoa(s.loadsThin) + " on) only those that change the set are indexed; every word's resident set is still known."})
	}
	if s.loadsCut >= 0 {
		s.finds = append(s.finds, doc.Finding{Code: doc.CodeISALoadsLimit, Severity: doc.Warning, Span: s.span(int64(s.loadsCut)*WordSize, WordSize),
			Message: s.where() + ": the ActivationTableLoad words from word " + strconv.Itoa(s.loadsCut) + " on are not indexed (more than " +
				strconv.Itoa(maxLoadRuns) + " changes of set, or the memory limit): the Activate words after it have no known resident set."})
	}
	for op := 0; op < 256; op++ {
		if s.counts[op] > 0 && !opcodeTable[op].Known() {
			s.finds = append(s.finds, doc.Finding{Code: doc.CodeISAUnknownOpcode, Severity: doc.Info, Span: s.span(int64(s.first[op])*WordSize, WordSize),
				Message: s.where() + ": opcode " + hex2(uint8(op)) + " (" + strconv.Itoa(s.counts[op]) +
					" words, first at index " + strconv.Itoa(s.first[op]) + ") is in no opcode table (neff.md §4.3); " +
					"shown raw as " + opcodeTable[op].Name + "."})
		}
	}
	return s
}

// Held says whether the stream's bytes are in memory, whole or compressed (a pass over every
// word is then cheap; otherwise each pass reads the stream again).
func (s *Stream) Held() bool { return s.InPlace() || s.inMemory() }

// InPlace says whether the stream's words are slices of one buffer held whole: any goroutine
// may read any word without a decode (a compressed source serves a pass best through Words).
func (s *Stream) InPlace() bool { return s.data != nil || s.src == nil }

// inMemory says the source serves its bytes from memory (neff.Packed), not from the file.
func (s *Stream) inMemory() bool {
	m, ok := s.src.(interface{ InMemory() bool })
	return ok && m.InMemory()
}

// Err is the first error reading a stream that is not held (its words read as zeros after it).
func (s *Stream) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readErr
}

// fetch returns word i of a stream that is not held whole, through a cached window.
func (s *Stream) fetch(i int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	off := int64(i) * WordSize
	if s.win == nil || off < s.winOff || off+WordSize > s.winOff+int64(len(s.win)) {
		window := int64(readWindow)
		if s.inMemory() {
			window = memoryWindow
		}
		start := max(0, off-window/4) / WordSize * WordSize
		buf := make([]byte, min(window, s.size-start))
		n, err := s.src.ReadAt(buf, start)
		if n < len(buf) && s.readErr == nil {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			s.readErr = err
		}
		clear(buf[n:]) // unread words decode as zeros; Err says why
		s.win, s.winOff = buf, start
	}
	return s.win[off-s.winOff : off-s.winOff+WordSize : off-s.winOff+WordSize]
}

// Words iterates over every word in order: the slices of a stream held whole, or one pass
// over its source (the slice is valid only until the next step).
func (s *Stream) Words() iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		if s.InPlace() {
			for i := 0; i < s.n; i++ {
				if !yield(i, s.data[i*WordSize:(i+1)*WordSize:(i+1)*WordSize]) {
					return
				}
			}
			return
		}
		var split wordSplitter
		i := 0
		err := s.src.Scan(func(b []byte) bool {
			return split.feed(b, func(w []byte) bool {
				if i >= s.n || !yield(i, w) {
					return false
				}
				i++
				return true
			})
		})
		if err != nil {
			s.mu.Lock()
			if s.readErr == nil {
				s.readErr = err
			}
			s.mu.Unlock()
		}
	}
}

func (s *Stream) where() string {
	if s.Member == "" {
		return "the stream"
	}
	return "member " + s.Member
}

func (s *Stream) span(off, length int64) *doc.Span {
	if s.Member == "" {
		return doc.At(off, length)
	}
	return doc.In(s.Member, off, length)
}

// Len is the number of whole instructions.
func (s *Stream) Len() int { return s.n }

// Trailing is the number of bytes after the last whole word.
func (s *Stream) Trailing() int { return int(s.size - int64(s.n)*WordSize) }

// Findings are the stream-level findings (trailing bytes, bad word lengths, unknown opcodes).
func (s *Stream) Findings() []doc.Finding { return s.finds }

// Word returns the bytes of instruction i (nil when out of range).
func (s *Stream) Word(i int) []byte {
	if i < 0 || i >= s.n {
		return nil
	}
	if s.data == nil {
		return s.fetch(i)
	}
	return s.data[i*WordSize : (i+1)*WordSize : (i+1)*WordSize]
}

// Instruction decodes word i (the zero Instruction with Missing = 64 when out of range).
func (s *Stream) Instruction(i int) Instruction {
	if i < 0 || i >= s.n {
		return Instruction{Index: i, Missing: WordSize, PartOf: -1, SecondWord: -1}
	}
	return s.instruction(s.Word(i), i)
}

func (s *Stream) instruction(w []byte, i int) Instruction {
	in := Decode(w, i)
	if s.PartOf(i+1) == i {
		in.SecondWord = i + 1
	}
	if in.PartOf = s.PartOf(i); in.PartOf >= 0 {
		for k := range in.Fields {
			if in.Fields[k].Name == "word length" {
				in.Fields[k].Text = string(appendSecondWordLength(nil, in.PartOf))
			}
		}
	}
	return in
}

// InstructionOf decodes w as word i of the stream (a word from Words, without fetching it again).
func (s *Stream) InstructionOf(w []byte, i int) Instruction { return s.instruction(w, i) }

// PartOf is the index of the 0xD4 word that word i continues (two-word 0xD4+0xDA, neff.md
// §4.7), or -1 when word i is an instruction of its own.
func (s *Stream) PartOf(i int) int {
	if i >= 0 && i>>6 < len(s.seconds) && s.seconds[i>>6]&(1<<(i&63)) != 0 {
		return i - 1
	}
	return -1
}

// All iterates over the decoded instructions in order.
func (s *Stream) All() iter.Seq2[int, Instruction] {
	return func(yield func(int, Instruction) bool) {
		for i, w := range s.Words() {
			if !yield(i, s.instruction(w, i)) {
				return
			}
		}
	}
}

// Count is how many words carry opcode op.
func (s *Stream) Count(op uint8) int { return s.counts[op] }

// Counts lists the opcodes present, by opcode.
func (s *Stream) Counts() []OpcodeCount {
	var out []OpcodeCount
	for op := 0; op < 256; op++ {
		if s.counts[op] > 0 {
			o := opcodeTable[op]
			out = append(out, OpcodeCount{Opcode: uint8(op), Name: o.Name, Known: o.Known(), Count: s.counts[op], First: s.first[op]})
		}
	}
	return out
}

// ResidentSet is the activation-table set index loaded by the last ActivationTableLoad (0x23)
// before word i, and that load's index; ok is false when no load precedes i.
func (s *Stream) ResidentSet(i int) (set, loadIndex int, ok bool) {
	lo, hi := 0, len(s.loads) // first load with index >= i
	for lo < hi {
		m := (lo + hi) / 2
		if int(s.loads[m].index) < i {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return 0, -1, false
	}
	l := s.loads[lo-1]
	return int(l.set), int(l.index), true
}

// SetResolver adds a listing column filled by r (nil removes it).
func (s *Stream) SetResolver(column string, r Resolver) {
	s.resolveColumn, s.resolve = column, r
}

// Rows returns listing rows [from, to) (clamped to the stream), one per word, with each row's
// span the word's 64 bytes.
func (s *Stream) Rows(from, to int) *doc.Table {
	from, to = max(from, 0), min(to, s.n)
	cols := ListingColumns
	if s.resolve != nil {
		cols = append(cols[:len(cols):len(cols)], s.resolveColumn)
	}
	t := &doc.Table{Columns: cols}
	if from >= to {
		return t
	}
	t.Rows = make([][]string, 0, to-from)
	t.RowSpans = make([]doc.Span, 0, to-from)
	var buf []byte
	for i := from; i < to; i++ {
		w := (*[WordSize]byte)(s.Word(i))
		row := make([]string, len(cols))
		row[0] = strconv.Itoa(i)
		row[1] = "0x" + strconv.FormatUint(uint64(i*WordSize), 16)
		row[2] = hex2(w[0])
		row[3] = opcodeTable[w[0]].Name
		buf = appendSummary(buf[:0], w)
		if p := s.PartOf(i); p >= 0 {
			buf = append(append(buf, "part_of=#"...), strconv.Itoa(p)...)
		}
		row[4] = string(buf)
		buf = appendSync(buf[:0], w)
		row[5] = string(buf)
		if s.resolve != nil {
			row[6] = s.resolve(i, w[:])
		}
		t.Rows = append(t.Rows, row)
		t.RowSpans = append(t.RowSpans, doc.Span{Source: s.Member, Offset: int64(i) * WordSize, Length: WordSize})
	}
	return t
}

// AppendRow appends the text listing line of word i (no newline):
// index, offset, opcode, name, operands, then "; " and the sync band when there is one.
func (s *Stream) AppendRow(dst []byte, i int) []byte {
	if i < 0 || i >= s.n {
		return dst
	}
	return s.appendRow(dst, i, (*[WordSize]byte)(s.Word(i)))
}

func (s *Stream) appendRow(dst []byte, i int, w *[WordSize]byte) []byte {
	var num [20]byte
	dst = appendPadded(dst, strconv.AppendUint(num[:0], uint64(i), 10), 7, true)
	dst = append(dst, "  "...)
	dst = appendHexWidth(dst, uint64(i*WordSize), 8)
	dst = append(dst, "  "...)
	dst = appendHexWidth(dst, uint64(w[0]), 2)
	dst = append(dst, ' ', ' ')
	name := opcodeTable[w[0]].Name
	dst = append(dst, name...)
	for k := len(name); k < 24; k++ {
		dst = append(dst, ' ')
	}
	dst = append(dst, ' ')
	n := len(dst)
	dst = appendSummary(dst, w)
	if p := s.PartOf(i); p >= 0 {
		dst = append(append(dst, "part_of=#"...), strconv.Itoa(p)...)
	}
	if len(dst) == n {
		dst = dst[:n-1] // no operands: no dangling space
	}
	mark := len(dst)
	dst = append(dst, " ; "...)
	n = len(dst)
	if dst = appendSync(dst, w); len(dst) == n {
		return dst[:mark]
	}
	return dst
}

func appendPadded(dst, field []byte, width int, right bool) []byte {
	if right {
		for k := len(field); k < width; k++ {
			dst = append(dst, ' ')
		}
		return append(dst, field...)
	}
	dst = append(dst, field...)
	for k := len(field); k < width; k++ {
		dst = append(dst, ' ')
	}
	return dst
}

func appendHexWidth(dst []byte, v uint64, width int) []byte {
	const hexdigits = "0123456789abcdef"
	for k := width - 1; k >= 0; k-- {
		dst = append(dst, hexdigits[(v>>(4*uint(k)))&15])
	}
	return dst
}

// WriteText writes the whole listing, one line per instruction, then one line per stream
// finding prefixed with "# ".
func (s *Stream) WriteText(w io.Writer) error {
	buf := make([]byte, 0, 64<<10)
	for i, word := range s.Words() {
		buf = s.appendRow(buf, i, (*[WordSize]byte)(word))
		buf = append(buf, '\n')
		if len(buf) > 60<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	for _, f := range s.finds {
		buf = append(buf, "# "...)
		buf = append(buf, f.Severity...)
		buf = append(buf, ": "...)
		buf = append(buf, f.Message...)
		buf = append(buf, '\n')
	}
	_, err := w.Write(buf)
	return err
}

// Node is instruction i's full field tree with spans (nil when out of range).
func (s *Stream) Node(i int) *doc.Node {
	if i < 0 || i >= s.n {
		return nil
	}
	in := s.Instruction(i)
	return in.Node(s.Member)
}

// Summary is the stream's overview node: instruction count, per-opcode counts table, and the
// stream findings. The listing itself is fetched by range with Rows.
func (s *Stream) Summary() *doc.Node {
	n := &doc.Node{Kind: doc.KindInstructions, Label: "instructions", Value: strconv.Itoa(s.n),
		Span: s.span(0, s.size), Findings: s.finds}
	n.Detail = strconv.Itoa(s.n) + " words of 64 bytes"
	if t := s.Trailing(); t > 0 {
		n.Detail += " + " + strconv.Itoa(t) + " trailing bytes"
	}
	t := &doc.Table{Columns: []string{"opcode", "name", "count", "first index", "source"}}
	for _, c := range s.Counts() {
		t.Rows = append(t.Rows, []string{hex2(c.Opcode), c.Name, strconv.Itoa(c.Count), strconv.Itoa(c.First),
			sourceText(opcodeTable[c.Opcode].Source)})
		t.RowSpans = append(t.RowSpans, doc.Span{Source: s.Member, Offset: int64(c.First) * WordSize, Length: WordSize})
	}
	n.Add(&doc.Node{Kind: doc.KindTable, Label: "opcodes", Value: strconv.Itoa(len(t.Rows)), Table: t})
	return n
}

func sourceText(src string) string {
	switch src {
	case SourceModern:
		return "modern table"
	case SourceTonga:
		return "Tonga table"
	}
	return "unknown"
}

// Node renders an instruction as a document node: header, sync band, operands (descriptors
// with their ADDR4, steps and counts), and any undocumented non-zero bytes, each with its span
// inside member ("" for a loose file).
func (in Instruction) Node(member string) *doc.Node {
	span := func(off, length int) *doc.Span {
		if member == "" {
			return doc.At(in.Offset+int64(off), int64(length))
		}
		return doc.In(member, in.Offset+int64(off), int64(length))
	}
	n := &doc.Node{Kind: doc.KindInstruction, Key: strconv.Itoa(in.Index),
		Label: "#" + strconv.Itoa(in.Index) + " " + in.Name, Value: hex2(in.Opcode), Span: span(0, WordSize)}
	n.Detail = Summary(in)
	if st := SyncText(in); st != "" {
		if n.Detail != "" {
			n.Detail += " ; "
		}
		n.Detail += st
	}
	groups := map[string]*doc.Node{}
	group := func(name string) *doc.Node {
		g := groups[name]
		if g == nil {
			g = &doc.Node{Kind: doc.KindGroup, Label: name}
			groups[name] = g
			n.Add(g)
		}
		return g
	}
	for _, f := range in.Fields {
		switch f.Group {
		case GroupDescriptor:
			d := &doc.Node{Kind: doc.KindDescriptor, Label: f.Name, Value: f.Text, Span: span(f.Off, f.Width)}
			for _, p := range f.Parts {
				d.Field(p.Name, p.Text, span(p.Off, p.Width)).Explain("raw %s", hexWord(p.Raw, p.Width))
			}
			if f.Width > 0 {
				addr := uint32(f.Raw)
				d.Detail = "ADDR4 " + hexWord(f.Raw, 4) + " (" + addrSpace(addr) + "); steps in elements, innermost first"
				checkDescriptor(d, &in.Word, f, span)
			}
			group(GroupOperand).Add(d)
		case GroupUndocumented:
			c := &doc.Node{Kind: doc.KindBytes, Label: f.Name, Value: f.Text, Span: span(f.Off, f.Width)}
			c.Detail = "meaning not known (no field map names these bytes for this opcode); shown raw"
			group(GroupUndocumented).Add(c)
		default:
			c := group(f.Group).Field(f.Name, f.Text, span(f.Off, f.Width))
			c.Detail = "raw " + hexWord(f.Raw, f.Width) + " at +" + hex2(uint8(f.Off))
			if f.Immediate != "" {
				c.Detail += "; as an immediate: " + f.Immediate
			}
		}
	}
	// A group's span is the extent of its children, so selecting it highlights its bytes.
	for _, g := range n.Children {
		lo, hi := int64(-1), int64(-1)
		for _, c := range g.Children {
			if c.Span == nil {
				continue
			}
			if lo < 0 || c.Span.Offset < lo {
				lo = c.Span.Offset
			}
			hi = max(hi, c.Span.Offset+c.Span.Length)
		}
		if lo >= 0 {
			g.Span = &doc.Span{Source: member, Offset: lo, Length: hi - lo}
		}
	}
	if in.SecondWord >= 0 {
		n.Field("second word", "#"+strconv.Itoa(in.SecondWord), span(WordSize, WordSize)).Detail =
			"this PseudoDmaDirect2d continues in the 0xDA word at index " + strconv.Itoa(in.SecondWord) +
				": one instruction of two words (addr0 tag 0x28; neff.md §4.7)"
	}
	if in.PartOf >= 0 {
		n.Field("part of", "#"+strconv.Itoa(in.PartOf), span(0, WordSize)).Detail =
			"the second word of the two-word PseudoDmaDirect2d at index " + strconv.Itoa(in.PartOf) +
				" (its addr0 tag is 0x28; neff.md §4.7)"
	}
	in.check(n, span)
	return n
}

func hexWord(v uint64, width int) string {
	if width <= 0 || width > 8 {
		width = 8
	}
	return "0x" + string(appendHexWidth(nil, v, 2*width))
}

// checkDescriptor reports counts of 0, which the spec calls illegal (neff.md §4.4).
func checkDescriptor(d *doc.Node, w *[WordSize]byte, f Field, span func(int, int) *doc.Span) {
	rank := (f.Width - 4) / 4
	for k := 0; k < rank; k++ {
		o := f.Off + 4 + 2*rank + 2*k
		if binary.LittleEndian.Uint16(w[o:]) == 0 {
			d.Warnf(doc.CodeISAZeroCount, span(o, 2), "%s count[%d] is 0; counts are 1..65535 and 0 is illegal (neff.md §4.4), so this slot may not hold a descriptor in this opcode", f.Name, k)
		}
	}
}

// check adds word-level findings to an instruction node.
func (in Instruction) check(n *doc.Node, span func(int, int) *doc.Span) {
	w := &in.Word
	if in.Missing > 0 {
		n.Errorf(doc.CodeISAShortWord, span(WordSize-in.Missing, in.Missing), "the word has only %d of 64 bytes; the missing bytes read as zero", WordSize-in.Missing)
	}
	if !in.Known {
		n.Infof(doc.CodeISAUnknownOpcode, span(0, 1), "opcode %s is in no opcode table (neff.md §4.3); the word is shown as raw bytes", hex2(in.Opcode))
	}
	if w[1] != 0x10 && !(w[0] == 0xE3 && w[1] == 0x11) && in.PartOf < 0 {
		n.Warnf(doc.CodeISAWordLength, span(1, 1), "word length byte is %s, but every engine word has 0x10 (16 dwords, neff.md §4.2); the stream may be misaligned or corrupt", hex2(w[1]))
	}
	if waitModeIndex[w[4]] == nil {
		n.Infof(doc.CodeISAUnknownMode, span(4, 1), "wait mode %s is not in the mode table (neff.md §4.2, §7.12); shown raw", hex2(w[4]))
	}
	if updateModeIndex[w[6]] == nil {
		n.Infof(doc.CodeISAUnknownMode, span(6, 1), "update mode %s is not in the mode table (neff.md §4.2, §7.12); shown raw", hex2(w[6]))
	}
	if lay := layoutIndex[w[0]]; lay != nil && lay.Complete {
		for _, f := range in.Fields {
			if f.Group == GroupUndocumented {
				n.Warnf(doc.CodeISAReservedNonzero, span(f.Off, f.Width), "bytes %s are not zero, but the spec documents every byte of %s (%s); a newer compiler may use them",
					strings.TrimPrefix(f.Name, "unknown "), in.Name, lay.Source)
			}
		}
	}
}
