// Package srcmap maps a NEFF's instruction words to the kernel source lines they came from,
// through the compiler's .dbg debug info (spec neff.md §4.7): asm record i of a stream → its
// first backend id → that BIR instruction's kernel_file / kernel_line / kernel_name. Scans
// reads the .dbg members as the open's archive walk streams them past (or back out of the
// archive after it), Map joins them once into an Index (the kernel lines, the source node),
// and the Index answers a word's source, a line's words, the hot lines and a .dbg member's own
// tree when asked.
//
// It reads an open NEFF only through the NEFF interface (core/inspect's File gives it), and
// knows the program only as the manifests' streams.
package srcmap

import (
	"io"
	"maps"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
)

// NEFF is what the source mapping reads of one open NEFF.
type NEFF interface {
	// Archive is the container as the open's walk read it: the member list (which .dbg members
	// there are, where each lies in the tar, which the walk held) and its seek index. It is
	// asked for only once the walk is over.
	Archive() *neff.Archive
	// Reader is the file the members not held are read back from, and its size.
	Reader() (io.ReaderAt, int64)
	// MemberBytes returns a whole member's bytes, held or read back out of the archive,
	// refusing one over most bytes.
	MemberBytes(member string, most int64) ([]byte, error)
	// Bytes returns n bytes of a member at off (fewer at its end), held or read back.
	Bytes(member string, off, n int64) ([]byte, error)
	// Budget is the open's budget: what the mapping holds is charged to it.
	Budget() *budget.Budget
}

// Source is where one instruction word came from, by the compiler's debug info (spec neff.md
// §4.7): asm record i of the stream → its first backend id → that BIR instruction's name and
// kernel_file / kernel_line / kernel_name attributes.
type Source struct {
	BIR    string `json:"bir"`
	File   string `json:"file,omitempty"` // "" when the record names no kernel file
	Line   int    `json:"line,omitempty"` // 0 when it names no line
	Kernel string `json:"kernel,omitempty"`
	// Via is "penguin" when the file and line come from the backend record's penguin parent
	// (unknowns dbg.penguin-fallback), "" when from the backend record itself.
	Via     string `json:"via,omitempty"`
	Backend uint64 `json:"backend_id"`
	// backend is the record's member and span (the bytes behind the BIR name).
	backend string
	rec     int
}

// Record is the backend record the word was joined to: the member that holds it and its
// index there.
func (s *Source) Record() (member string, index int) { return s.backend, s.rec }

// Text is the listing form: "file.py:42 inst.329-wait-0" (the file's base name).
func (s *Source) Text() string {
	if s == nil {
		return ""
	}
	if s.File == "" && s.Line == 0 {
		return s.BIR
	}
	f := path.Base(s.File)
	if s.File == "" {
		f = "?"
	}
	return f + ":" + strconv.Itoa(s.Line) + " " + s.BIR
}

// Index answers (stream, word) → source and (file, line) → words, for one NEFF. It holds
// what the joins need and no more: each .dbg member's Compact (dbg.Scan: packed
// columns of first parent ids, ids, interned names and kernel attributes, record lengths, and
// an id lookup), and per kernel line its counts per stream and its words as ranges. A word's
// source is joined when asked (asm record → first parent → backend lookup), so nothing is
// held per word beyond its asm record's packed columns; the aggregates are one pass at open.
type Index struct {
	// Members are the scanned .dbg members by path.
	Members map[string]*dbg.Compact
	streams map[string]*streamSources
	order   []*streamSources
	// Words, WithSource and WithLine count instruction words over every stream with debug info.
	Words, WithSource, WithLine int
	// PenguinFallback says whether a backend record without a line takes its penguin parent's
	// (decided per file: penguinFallback).
	PenguinFallback bool
	Node            *doc.Node
	// attrCache holds resolved kernel attributes by (member, attribute tuple), for the records
	// whose line needs no penguin parent (the others are resolved each time: cheap). It is
	// read without a lock (a sync.Map: written once per key, then only read), as disasm's
	// encoders ask once per word on every core; mu guards its writes, attrCached, and the
	// findings attrsOf adds.
	mu         sync.Mutex
	attrCache  sync.Map // attrKey → srcAttrs
	attrCached int
	lines      []*lineAgg // kernel lines, in the order the words first name them
	sorted     []*lineAgg // by file, line, kernel
	lineOf     map[lineID]*lineAgg
	// view caches the last member tree built on demand (View).
	view struct {
		member string
		kids   []*doc.Node
	}
	// src is what View and Rows read the members' bytes through.
	src NEFF
	// skipped lists the members the memory limit left unmapped (archive order), and
	// skippedCost what mapping them would take (WarnSkipped).
	skipped     []string
	skippedCost int64
}

// streamSources is one stream with its asm debug info and the backend members its ids name.
type streamSources struct {
	ps      *manifest.Stream
	asm     *dbg.Compact
	set     *backendSet
	penguin *dbg.Compact
	pos     int // index in Index.order
	words   int
}

// backendSet is one subgraph directory's backend members, in path order (asm ids may point
// into any of them: ids are unique across them; the first member holding one wins).
type backendSet struct {
	members []*dbg.Compact
}

func (b *backendSet) lookup(id uint64) (*dbg.Compact, int, bool) {
	for _, c := range b.members {
		if r, ok := c.Lookup(id); ok {
			return c, r, true
		}
	}
	return nil, 0, false
}

// rec is word i's backend record (its member and record number), ok false when it has none.
func (s *streamSources) rec(i int) (*dbg.Compact, int, bool) {
	if i < 0 || i >= s.words {
		return nil, 0, false
	}
	id, ok := s.asm.First(i)
	if !ok {
		return nil, 0, false
	}
	return s.set.lookup(id)
}

// tupleAttrs is a tuple's attributes, once known (join).
type tupleAttrs struct {
	at srcAttrs
	ok bool
}

type attrKey struct {
	c     *dbg.Compact
	tuple int
}

// srcAttrs is a backend record's resolved file, line and kernel.
type srcAttrs struct {
	File, Kernel, Via string
	Line              int
}

type lineID struct {
	file, kernel string
	line         int
}

// lineAgg is one kernel line: its words per stream, counted, and the first maxLineWords of
// them (in stream order) as ranges (AttrWords).
type lineAgg struct {
	lineID
	per    []*lineStream
	listed int
	cut    bool
	// the first word not listed (its stream's position and index; pos -1: all listed)
	offPos, offWord int
	key             string // the line node's key
	skip            bool   // the current stream's words are not listed (the line was full before it)
}

type lineStream struct {
	s               *streamSources
	count, first    int
	ranges          strings.Builder
	runFrom, runTo  int
	runs, listedNow int
}

func (l *lineAgg) add(s *streamSources, w int) {
	var ls *lineStream
	if n := len(l.per); n > 0 && l.per[n-1].s == s {
		ls = l.per[n-1]
	} else {
		ls = &lineStream{s: s, first: w, runFrom: -1}
		l.per = append(l.per, ls)
		l.skip = l.listed >= maxLineWords
	}
	ls.count++
	if l.skip || l.offPos >= 0 {
		return
	}
	if l.listed >= maxLineWords {
		l.cut = true
		l.offPos, l.offWord = s.pos, w
		return
	}
	l.listed++
	ls.listedNow++
	if ls.runFrom >= 0 && w == ls.runTo+1 {
		ls.runTo = w
		return
	}
	ls.flush()
	ls.runFrom, ls.runTo = w, w
}

func (ls *lineStream) flush() {
	if ls.runFrom < 0 {
		return
	}
	if ls.runs > 0 {
		ls.ranges.WriteByte(',')
	}
	ls.runs++
	ls.ranges.WriteString(strconv.Itoa(ls.runFrom))
	if ls.runTo > ls.runFrom {
		ls.ranges.WriteByte('-')
		ls.ranges.WriteString(strconv.Itoa(ls.runTo))
	}
	ls.runFrom = -1
}

// listedWord says whether word w of stream s is among the words a line node lists.
func (l *lineAgg) listedWord(s *streamSources, w int) bool {
	if l.offPos < 0 {
		// every word up to the cap, and none of a stream that began after the line was full
		for _, ls := range l.per {
			if ls.s == s {
				return ls.listedNow > 0
			}
		}
		return false
	}
	for _, ls := range l.per {
		if ls.s == s && ls.listedNow == 0 {
			return false
		}
	}
	return s.pos < l.offPos || s.pos == l.offPos && w < l.offWord
}

// Line is one kernel source line and the words it produced.
type Line struct {
	File   string
	Line   int
	Kernel string
	// Words lists word indexes by stream member.
	Words map[string][]int
}

// Source returns the source of word i of a stream (nil when the NEFF has no debug info for it).
func (x *Index) Source(member string, i int) *Source {
	src, ok := x.SourceOf(member, i)
	if !ok {
		return nil
	}
	return &src
}

// SourceOf is Source as a value, for a caller that asks once per word of a big stream
// (disasm --json's encoders): no allocation but the BIR name's.
func (x *Index) SourceOf(member string, i int) (Source, bool) {
	if x == nil {
		return Source{}, false
	}
	s := x.streams[member]
	c, r, a, ok := x.word(s, i)
	if !ok {
		return Source{}, false
	}
	return Source{BIR: c.Name(r), Backend: c.ID(r), File: a.File, Line: a.Line, Kernel: a.Kernel, Via: a.Via, backend: c.Member, rec: r}, true
}

// word joins word i of a stream to its backend record and that record's kernel attributes.
func (x *Index) word(s *streamSources, i int) (*dbg.Compact, int, srcAttrs, bool) {
	if s == nil {
		return nil, 0, srcAttrs{}, false
	}
	c, r, ok := s.rec(i)
	if !ok {
		return nil, 0, srcAttrs{}, false
	}
	return c, r, x.attrsOf(s, c, r), true
}

// line returns the kernel line of word i of a stream (nil: none).
func (x *Index) line(s *streamSources, i int) *lineAgg {
	_, _, a, ok := x.word(s, i)
	if !ok || a.Line == 0 {
		return nil
	}
	return x.lineOf[lineID{a.File, a.Kernel, a.Line}]
}

// attrsOf resolves backend record r's kernel attributes, with the penguin fallback (findings
// about them go on the source node, once per member).
func (x *Index) attrsOf(s *streamSources, c *dbg.Compact, r int) srcAttrs {
	k := attrKey{c, c.TupleIndex(r)}
	if a, ok := x.attrCache.Load(k); ok {
		return a.(srcAttrs)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if a, ok := x.attrCache.Load(k); ok { // resolved by another encoder meanwhile
		return a.(srcAttrs)
	}
	file, line, kernel := kernelAttrs(c, r, x.Node)
	a := srcAttrs{File: file, Line: line, Kernel: kernel}
	if line > 0 || s.penguin == nil {
		if x.attrCached < 1<<16 {
			x.attrCache.Store(k, a)
			x.attrCached++
		}
		return a
	}
	if p, ok := c.First(r); ok {
		if pr, ok := s.penguin.Lookup(p); ok {
			if pf, pl, _ := kernelAttrs(s.penguin, pr, x.Node); pl > 0 {
				a.File, a.Line, a.Via = pf, pl, "penguin"
			}
		}
	}
	return a
}

// asmRecord returns the span of asm record i of a stream's debug info.
func (x *Index) asmRecord(member string, i int) *doc.Span {
	s := x.streams[member]
	if s == nil || s.asm == nil || i < 0 || i >= s.asm.N {
		return nil
	}
	off, n := s.asm.Span(i)
	return doc.In(s.asm.Member, off, n)
}

// Lines lists every kernel source line with its words per stream, by file then line. It walks
// every word (the index keeps counts and ranges, not lists): for tests and tools, not opens.
func (x *Index) Lines() []*Line {
	if x == nil {
		return nil
	}
	by := map[*lineAgg]*Line{}
	for _, s := range x.order {
		for i := range s.words {
			if l := x.line(s, i); l != nil {
				sl := by[l]
				if sl == nil {
					sl = &Line{File: l.file, Line: l.line, Kernel: l.kernel, Words: map[string][]int{}}
					by[l] = sl
				}
				sl.Words[s.ps.Member] = append(sl.Words[s.ps.Member], i)
			}
		}
	}
	out := make([]*Line, 0, len(x.sorted))
	for _, l := range x.sorted {
		out = append(out, by[l])
	}
	return out
}

// WordsAt lists the words a kernel line produced, by stream member.
func (x *Index) WordsAt(file string, line int) map[string][]int {
	out := map[string][]int{}
	for _, l := range x.Lines() {
		if l.File == file && l.Line == line {
			for m, ws := range l.Words {
				out[m] = append(out[m], ws...)
			}
		}
	}
	return out
}

// Map finishes the scans and joins them with the program's streams (in program order): one
// pass over every word counts the words with a source and a line and builds the kernel lines.
func (s *Scans) Map(streams []*manifest.Stream) *Index {
	x := &Index{streams: map[string]*streamSources{}, lineOf: map[lineID]*lineAgg{}, src: s.n}
	x.Members = s.run()
	x.skipped, x.skippedCost = s.skipped, s.skippedCost
	penguins, sets := x.byKind()
	x.Node = &doc.Node{Kind: doc.KindSource, Label: "source", Detail: "kernel source lines and the instructions each produced, per engine (from the compiler's .dbg debug info)"}
	var lineSource, lineSourceWhy string
	x.PenguinFallback, lineSource, lineSourceWhy = penguinFallback(x.Members, len(penguins) > 0)
	if !x.PenguinFallback {
		penguins = nil
	}
	for _, ps := range streams {
		x.join(ps, sets, penguins, s)
	}
	x.sortLines()
	x.fillNode(lineSource, lineSourceWhy)
	return x
}

// byKind sorts the scanned members into the penguin members and, per subgraph directory, the
// backend members (each in path order).
func (x *Index) byKind() (penguins []*dbg.Compact, sets map[string]*backendSet) {
	var paths []string
	for mp := range x.Members {
		paths = append(paths, mp)
	}
	sort.Strings(paths)
	sets = map[string]*backendSet{}
	for _, mp := range paths {
		switch c := x.Members[mp]; c.Kind {
		case dbg.KindPenguin:
			penguins = append(penguins, c)
		case dbg.KindBackend:
			dir := path.Dir(mp)
			if sets[dir] == nil {
				sets[dir] = &backendSet{}
			}
			sets[dir].members = append(sets[dir].members, c)
		}
	}
	return penguins, sets
}

// join maps every word of one stream with asm debug info to its backend record and kernel
// line, adding the word to its line.
func (x *Index) join(ps *manifest.Stream, sets map[string]*backendSet, penguins []*dbg.Compact, scans *Scans) {
	asmPath := path.Join(path.Dir(ps.Member), "debug_info_asm_"+ps.Engine.Name+".dbg")
	asm := x.Members[asmPath]
	if asm == nil {
		return
	}
	words := int(ps.Size / isa.WordSize)
	set := sets[path.Dir(asmPath)]
	if set == nil {
		set = &backendSet{} // no backend member: every word's id is missing
	}
	s := &streamSources{ps: ps, asm: asm, set: set, penguin: penguinFor(penguins, ps.Core.Name), pos: len(x.order), words: words}
	x.streams[ps.Member] = s
	x.order = append(x.order, s)
	if asm.N != words {
		x.Node.Warnf(doc.CodeSourceWordCount, doc.In(asmPath, 0, 0), "%s has %d records but %s has %d words: the asm debug info has one record per 64-byte word (neff.md §4.7), so the two do not belong together; words past the shorter one have no source.", asmPath, asm.N, ps.Member, words)
	}
	missing, firstMissing := 0, -1
	var last *lineAgg
	// A word's attributes by its record's tuple, in a table per backend member (the last one
	// used kept at hand): attrsOf's sync.Map, which the encoders share, hashes an interface
	// per word, over half of the join in wasm.
	tables := map[*dbg.Compact][]tupleAttrs{}
	var tabC *dbg.Compact
	var tab []tupleAttrs
	for i := range min(words, asm.N) {
		if i%yieldWords == 0 && i > 0 {
			scans.yield()
		}
		id, ok := asm.First(i)
		if !ok {
			continue
		}
		c, r, ok := set.lookup(id)
		if !ok {
			if missing == 0 {
				firstMissing = i
			}
			missing++
			continue
		}
		x.WithSource++
		if c != tabC {
			if tab = tables[c]; tab == nil {
				tab = make([]tupleAttrs, len(c.Tuples))
				tables[c] = tab
			}
			tabC = c
		}
		var at srcAttrs
		if t := c.TupleIndex(r); t < len(tab) && tab[t].ok {
			at = tab[t].at
		} else {
			at = x.attrsOf(s, c, r)
			// The tuple's own attributes are the same for every record of it; a line found
			// through the penguin member (Via) is the record's own.
			if t < len(tab) && at.Via == "" && (at.Line > 0 || s.penguin == nil) {
				tab[t] = tupleAttrs{at, true}
			}
		}
		if at.Line > 0 {
			x.WithLine++
			// Runs of words share a line: the last one is tried before the map (whose
			// hash of two strings a word was a tenth of the join in wasm).
			id := lineID{at.File, at.Kernel, at.Line}
			l := last
			if l == nil || l.lineID != id {
				if l = x.lineOf[id]; l == nil {
					l = &lineAgg{lineID: id, offPos: -1}
					x.lineOf[id] = l
					x.lines = append(x.lines, l)
				}
				last = l
			}
			l.add(s, i)
		}
	}
	x.Words += words
	if missing > 0 {
		off, n := asm.Span(firstMissing)
		x.Node.Warnf(doc.CodeSourceMissingBackend, doc.In(asmPath, off, n), "%s: %d words (first: word %d) name a backend id that no debug_info_backend_*.dbg of %s holds; they have no source.", asmPath, missing, firstMissing, path.Dir(asmPath))
	}
}

// sortLines closes the lines' word ranges and orders them by file, line and kernel.
func (x *Index) sortLines() {
	for _, l := range x.lines {
		for _, ls := range l.per {
			ls.flush()
		}
	}
	x.sorted = append([]*lineAgg(nil), x.lines...)
	sort.SliceStable(x.sorted, func(i, j int) bool {
		a, b := x.sorted[i], x.sorted[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.kernel < b.kernel
	})
}

// penguinFallback decides, for one NEFF, whether a backend record that names no line takes its
// penguin parent's (unknowns dbg.penguin-fallback): only where every backend record named
// I-<n>-… has penguin parent n, i.e. the penguin record is that instruction's own (2.18/2.21
// cs149, nkipy). torch-xla NEFFs name theirs inst.<n> under one penguin record for the whole
// custom-call: its line is the call's, not the kernel's. It also says which source the lines
// come from, and why, for the source node.
func penguinFallback(members map[string]*dbg.Compact, havePenguin bool) (ok bool, value, why string) {
	numbered, renumbered := 0, 0
	for _, c := range members {
		numbered += c.Numbered
		renumbered += c.Renumbered
	}
	const own = "the backend records' kernel_line"
	switch {
	case !havePenguin:
		return false, own, "no penguin member to fall back on"
	case numbered == 0:
		return false, own + " only", "the penguin fallback is not used: no backend record is named I-<n>-…, so no penguin parent can be checked to be the instruction's own (torch-xla NEFFs hang every instruction under one penguin record)"
	case renumbered > 0:
		return false, own + " only", "the penguin fallback is not used: " + strconv.Itoa(renumbered) + " of the " + strconv.Itoa(numbered) + " backend records named I-<n>-… have a penguin parent other than n"
	}
	return true, own + ", else the penguin parent's", "where a backend record names no line, its penguin parent's is used (marked via penguin): each of the " + strconv.Itoa(numbered) + " backend records named I-<n>-… has penguin parent n"
}

// penguinFor picks the penguin member for a subgraph (unknowns dbg.penguin-subgraph-suffix).
func penguinFor(ps []*dbg.Compact, core string) *dbg.Compact {
	if len(ps) == 1 {
		return ps[0]
	}
	n := strings.TrimLeft(strings.TrimPrefix(core, "sg"), "0")
	for _, p := range ps {
		_, suffix, _ := strings.Cut(path.Base(p.Member), ".dbg_sg")
		if strings.TrimLeft(suffix, "0") == n {
			return p
		}
	}
	return nil
}

// kernelAttrs resolves kernel_file / kernel_line / kernel_name of record r through its member's
// own lists (fields 5 and 7; unknowns dbg.kernel-file-index).
func kernelAttrs(c *dbg.Compact, r int, report *doc.Node) (file string, line int, kernel string) {
	t := c.Attrs(r)
	if t.HasLine {
		line, _ = strconv.Atoi(t.Line)
	}
	index := func(key, v string, has bool, list []string) string {
		if !has {
			return ""
		}
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= len(list) {
			// One finding per member: a bad table would otherwise give one per record.
			for _, fd := range report.Findings {
				if strings.HasPrefix(fd.Message, c.Member+": record ") {
					return v
				}
			}
			off, n := c.Span(r)
			report.Infof(doc.CodeDbgBadIndex, doc.In(c.Member, off, n), "%s: record %d (%s) has %s %q, which is not an index of its %d entries; shown raw.", c.Member, c.ID(r), recordName(c, r), key, v, len(list))
			return v
		}
		return list[i]
	}
	return index("kernel_file", t.File, t.HasFile, c.KernelFiles), line, index("kernel_name", t.Kernel, t.HasKernel, c.KernelNames)
}

func recordName(c *dbg.Compact, r int) string {
	if c.Kind == dbg.KindBackend {
		return c.Name(r)
	}
	return ""
}

// fillNode builds the "source" node: coverage, where the lines come from, then one row per
// kernel line with the words it produced per engine.
func (x *Index) fillNode(lineSource, lineSourceWhy string) {
	n := x.Node
	if len(x.Members) == 0 {
		n.Value = "no debug info"
		n.Infof(doc.CodeSourceNoDebugInfo, nil, "This NEFF carries no .dbg debug info (sgNN/debug_info_asm_<Engine>.dbg and debug_info_backend_<Engine>.dbg), so instructions cannot be traced to source lines. The compiler writes it by default; it is missing when the NEFF was stripped (neuron-packager optimize).")
		return
	}
	n.Value = strconv.Itoa(x.WithLine) + " of " + strconv.Itoa(x.Words) + " words with a source line"
	n.Field("words with a BIR instruction", strconv.Itoa(x.WithSource)+" of "+strconv.Itoa(x.Words), nil)
	n.Field("words with a kernel line", strconv.Itoa(x.WithLine)+" of "+strconv.Itoa(x.Words), nil)
	n.Field(SourceLineFrom, lineSource, nil).Explain("%s", lineSourceWhy)
	var engines []string
	seen := map[string]bool{}
	for _, s := range x.order {
		if !seen[s.ps.Engine.Name] {
			seen[s.ps.Engine.Name] = true
			engines = append(engines, s.ps.Engine.Name)
		}
	}
	t := &doc.Table{Columns: []string{"file", "line", "kernel"}}
	var lineNodes []*doc.Node
	for _, e := range engines {
		t.Columns = append(t.Columns, e)
	}
	for _, e := range engines {
		t.Columns = append(t.Columns, e+" first")
	}
	keys := map[string]int{}
	for _, l := range x.sorted {
		row := []string{l.file, strconv.Itoa(l.line), l.kernel}
		counts := make([]int, len(engines))
		firsts := make([]string, len(engines))
		var span doc.Span
		first := -1
		for _, ls := range l.per {
			s := ls.s
			e := indexOf(engines, s.ps.Engine.Name)
			counts[e] += ls.count
			if firsts[e] == "" {
				firsts[e] = s.ps.Core.Name + " #" + strconv.Itoa(ls.first)
			}
			if first < 0 {
				first = ls.first
				span = doc.Span{Source: s.ps.Member, Offset: int64(ls.first) * isa.WordSize, Length: isa.WordSize}
			}
		}
		for _, c := range counts {
			row = append(row, strconv.Itoa(c))
		}
		row = append(row, firsts...)
		t.Rows = append(t.Rows, row)
		t.RowSpans = append(t.RowSpans, span)
		lineNodes = append(lineNodes, x.lineNode(l, keys, engines, counts))
	}
	lines := &doc.Node{Kind: doc.KindTable, Key: SourceLines, Label: SourceLines, Value: strconv.Itoa(len(t.Rows)), Table: t,
		Detail: "each kernel source line, the instruction words it produced per engine, and the first of them (sgNN #index)"}
	lines.Children = lineNodes
	n.Add(lines)
}

// Keys and attrs of the source node's lines (model › source › lines › <file:line>).
const (
	SourceLines    = "lines"
	SourceLineFrom = "line source" // which records the lines come from (penguinFallback)
	AttrSourceFile = "file"        // a line node: the kernel file path as the debug info names it
	AttrSourceLine = "line"        // a line node: the line number
	AttrKernel     = "kernel"      // a line node: the kernel (function) name
	// AttrWords lists a line's instruction words per stream: "member:ranges;member:ranges",
	// ranges "a-b,c" of word indexes in stream order (at most maxLineWords words in all).
	AttrWords = "words"
	// AttrWordsCut is set ("true") when a line has more words than AttrWords lists.
	AttrWordsCut = "words_cut"
)

// maxLineWords bounds the word indexes one line node lists (the Document stays bounded on a
// kernel line that unrolls into a huge loop); the table's counts stay exact.
const maxLineWords = 1 << 16

// lineNode is one kernel line as a node: its words per stream (AttrWords) for the page's
// source view, and the key an instruction's source field links to.
func (x *Index) lineNode(l *lineAgg, keys map[string]int, engines []string, counts []int) *doc.Node {
	key := path.Base(l.file) + ":" + strconv.Itoa(l.line)
	if l.file == "" {
		key = "?:" + strconv.Itoa(l.line)
	}
	if keys[key]++; keys[key] > 1 {
		key += " (" + strconv.Itoa(keys[key]) + ")"
	}
	l.key = key
	n := &doc.Node{Kind: doc.KindField, Key: key, Label: key}
	var parts []string
	for i, e := range engines {
		if counts[i] > 0 {
			parts = append(parts, e+" "+strconv.Itoa(counts[i]))
		}
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	n.Value = instructions(total)
	if len(parts) > 0 {
		n.Value += ": " + strings.Join(parts, ", ")
	}
	n.Detail = l.file + " line " + strconv.Itoa(l.line)
	if l.kernel != "" {
		n.Detail += " (kernel " + l.kernel + ")"
	}
	n.SetAttr(AttrSourceFile, l.file).SetAttr(AttrSourceLine, strconv.Itoa(l.line)).SetAttr(AttrKernel, l.kernel)
	if l.cut {
		n.SetAttr(AttrWordsCut, "true")
	}
	var b strings.Builder
	for _, ls := range l.per {
		if ls.listedNow == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(';')
		}
		b.WriteString(ls.s.ps.Member)
		b.WriteByte(':')
		b.WriteString(ls.ranges.String())
		ls.ranges = strings.Builder{}
	}
	n.SetAttr(AttrWords, b.String())
	return n
}

// instructions is "1 instruction", "2 instructions".
func instructions(n int) string {
	if n == 1 {
		return "1 instruction"
	}
	return strconv.Itoa(n) + " instructions"
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// Has says whether a stream (by member path) has debug info.
func (x *Index) Has(member string) bool { return x != nil && x.streams[member] != nil }

// AddColumn appends the "source" column to rows [from, …) of a stream's listing.
func (x *Index) AddColumn(member string, t *doc.Table, from int) {
	if !x.Has(member) {
		return
	}
	t.Columns = append(t.Columns[:len(t.Columns):len(t.Columns)], "source")
	for k := range t.Rows {
		t.Rows[k] = append(t.Rows[k], x.Source(member, from+k).Text())
	}
}

// WordNode is an instruction's "source" field (nil when word i of the stream has none): the
// asm record's bytes, with the BIR instruction, file, line and kernel under it.
func (x *Index) WordNode(member string, i int) *doc.Node {
	src := x.Source(member, i)
	if src == nil {
		return nil
	}
	n := &doc.Node{Kind: doc.KindField, Label: "source", Value: src.Text(), Span: x.asmRecord(member, i)}
	if ss := x.streams[member]; ss != nil {
		if l := x.line(ss, i); l != nil && l.key != "" && l.listedWord(ss, i) {
			// The line's row in the source view, with every instruction it produced.
			n.Link = doc.NodeLink("model", "source", SourceLines, l.key)
		}
	}
	n.Detail = "from the compiler's debug info: asm record " + strconv.Itoa(i) + " → backend record " + strconv.FormatUint(src.Backend, 10)
	var bir *doc.Span
	if c := x.Members[src.backend]; c != nil {
		bir = doc.In(src.backend, 0, 0)
		bir.Offset, bir.Length = c.Span(src.rec)
	}
	n.Field("bir", src.BIR, bir).Explain("the BIR instruction this word was generated from")
	if src.File != "" {
		n.Field("file", src.File, nil)
	}
	if src.Line > 0 {
		f := n.Field("line", strconv.Itoa(src.Line), nil)
		if src.Via != "" {
			f.Detail = "from the backend record's penguin parent (the backend record names no line)"
		}
	}
	if src.Kernel != "" {
		n.Field("kernel", src.Kernel, nil)
	}
	return n
}

// MemberContent is the content node of a scanned .dbg member (nil when the member was not
// scanned): a stub whose children (the member's tree, every field as a node) are built from
// its bytes when asked (View).
func (x *Index) MemberContent(member string) *doc.Node {
	if x == nil {
		return nil
	}
	c := x.Members[member]
	if c == nil {
		return nil
	}
	n := *c.Root
	n.Attrs = maps.Clone(n.Attrs) // the Compact's root is shared: set attrs on a copy
	n.Label = "content"
	n.Ref = doc.MemberRef(member)
	if c.RootChildren > 0 {
		n.Ref = doc.DbgRef(member)
		n.SetAttr(doc.AttrMore, strconv.Itoa(c.RootChildren))
	}
	return &n
}

// WarnSkipped says, on root, which .dbg members the memory limit left unmapped.
func (x *Index) WarnSkipped(root *doc.Node) {
	if x == nil || len(x.skipped) == 0 {
		return
	}
	a, b := x.src.Archive(), x.src.Budget()
	var total, first int64
	for i, p := range x.skipped {
		if m := a.Member(p); m != nil {
			total += m.Size
			if i == 0 {
				first = m.Size
			}
		}
	}
	root.Warnf(doc.CodeBudgetMemory, doc.In(x.skipped[0], 0, first), "source lines are not mapped from %s (and %d more debug-info members, %s in all): mapping them takes about %s (a fifth of their size), more than half of what the memory limit (%s) leaves after the model; they are shown as bytes. To map them, raise it: neffscope %s N", x.skipped[0], len(x.skipped)-1, neff.HumanSize(total), neff.HumanSize(x.skippedCost), neff.HumanSize(b.Limit(budget.Memory)), budget.Memory.Flag())
}
