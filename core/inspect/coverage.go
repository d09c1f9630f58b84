// coverage is a CLI yardstick (`neffscope coverage`); the page does not need it, so the wasm
// build leaves it out.

//go:build !js

package inspect

import (
	"container/heap"
	"fmt"
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
)

// Coverage is how much of a NEFF's member bytes the Document explains: `neffscope coverage`,
// the project's yardstick. Each significant byte of a member is owned by the
// deepest Document node whose span holds it (instruction streams are expanded word by word,
// as the page asks for them) and counted as:
//   - Named: a decoder's own leaf (a field, a descriptor part, a table row set), or a JSON value
//     that carries a meaning — its node has a Detail, which core/manifest's table of key
//     meanings (meanings.go) gives every key path it knows and a resolver gives a value it
//     joined — or an item of such an array. A member's key bytes go with its value;
//   - JSON: a JSON value with no meaning attached, or a protobuf field the .dbg shape table
//     does not know (a generic tree);
//   - Unknown: a field whose name starts with "unknown" (its meaning is not known);
//   - Hex: bytes no node but a member, a bytes node or a container holds (hex only).
//
// A byte is significant unless it is 0x00, or JSON whitespace (space, tab, CR, LF) in a .json
// member: padding and pretty-printing explain nothing.
type Coverage struct {
	Kinds []*CoverageKind
	Total CoverageKind
	// Findings say what the measure left out (coverage.word-limit).
	Findings []doc.Finding
}

// Coverage expands instruction words one by one, and a word's nodes cost far more than its
// bytes: past these many words of a file (or these many words whose nodes were built, the
// others repeat a word seen before) the rest of its streams is counted as unmeasured, with
// a finding, so a 2 GiB stream ends in seconds, not minutes.
// Members not held are read back from the file, which costs their inflated size: past
// CoverageReadLimit bytes read back, the rest is unmeasured too (40 activation tables of
// 60 MiB zeros took 45 s).
var (
	CoverageWordLimit  = 4 << 20
	CoverageBuiltLimit = 1 << 17
	CoverageReadLimit  = int64(512 << 20)
)

// coverBudget is what is left of a file's limits.
type coverBudget struct {
	words, built int
	read         int64
}

// CoverageKind is the coverage of one member kind (member paths with sgNN, engine and
// activation-set names replaced by placeholders).
type CoverageKind struct {
	Kind        string `json:"kind"`
	Members     int    `json:"members"`
	Bytes       int64  `json:"bytes"`
	Significant int64  `json:"significant"`
	Named       int64  `json:"named"`
	JSON        int64  `json:"json"`
	Unknown     int64  `json:"unknown"`
	Hex         int64  `json:"hex"`
	// Instruction streams: words, and their non-zero bytes under a named (not unknown…)
	// field of the layout against all their non-zero bytes.
	Words        int   `json:"words,omitempty"`
	InstrNonZero int64 `json:"instr_nonzero,omitempty"`
	InstrNamed   int64 `json:"instr_named,omitempty"`
	// Unmeasured is the bytes of stream words past the word limits: not read, so neither
	// significant nor in any column.
	Unmeasured int64 `json:"unmeasured,omitempty"`
}

// Byte classes, in the order of the columns.
const (
	covHex uint8 = iota
	covJSON
	covUnknown
	covNamed
)

var jsonKinds = map[string]bool{"object": true, "array": true, "string": true, "number": true, "bool": true, "null": true, "manifest": true}

// classify says what a node makes of the bytes it owns itself (those no child holds).
func classify(n *doc.Node) uint8 {
	switch {
	case isa.IsUnknownName(n.Label):
		return covUnknown
	case jsonKinds[n.Kind]:
		if n.Detail != "" {
			return covNamed
		}
		return covJSON
	case n.Kind == doc.KindProtobuf && len(n.Children) == 0:
		return covJSON // a protobuf field the .dbg shape table does not know: a generic tree
	case n.Kind == doc.KindBytes || n.Kind == doc.KindMember || n.Kind == doc.KindInstructions:
		return covHex
	case len(n.Children) > 0:
		return covHex // a container: bytes none of its children names are bare
	}
	return covNamed
}

// covSpan is one node's bytes in a member.
type covSpan struct {
	start, end int64
	depth      int
	order      int
	class      uint8
}

// Coverage measures the Document against the member bytes. It reads members not held in
// memory back from the file.
func (f *File) Coverage() *Coverage {
	c := &Coverage{Total: CoverageKind{Kind: "all members"}}
	if f.Archive == nil || f.Doc == nil {
		return c
	}
	spans := map[string][]covSpan{}
	order := 0
	var walk func(n *doc.Node, depth int, inherited bool)
	walk = func(n *doc.Node, depth int, inherited bool) {
		class := classify(n)
		if class == covJSON && inherited {
			class = covNamed
		}
		if n.Span != nil && n.Span.Source != "" && n.Span.Length > 0 {
			order++
			spans[n.Span.Source] = append(spans[n.Span.Source], covSpan{n.Span.Offset, n.Span.Offset + n.Span.Length, depth, order, class})
		}
		// An array's items are positions, not keys: a named array names them (attrs/shape
		// names every shape). An object's keys are named one by one.
		pass := n.Kind == "array" && class == covNamed
		for _, ch := range n.Children {
			walk(ch, depth+1, pass)
		}
	}
	walk(f.Doc.Root, 0, false)
	byKind := map[string]*CoverageKind{}
	budget := &coverBudget{CoverageWordLimit, CoverageBuiltLimit, CoverageReadLimit}
	for _, m := range f.Archive.Members {
		kind := f.memberKind(m.Path)
		k := byKind[kind]
		if k == nil {
			k = &CoverageKind{Kind: kind}
			byKind[kind] = k
			c.Kinds = append(c.Kinds, k)
		}
		k.Members++
		k.Bytes += m.Size
		ss := spans[m.Path]
		sort.Slice(ss, func(i, j int) bool { return ss[i].start < ss[j].start })
		w := &sweep{k: k, r: memberReader{f: f, member: m.Path, left: &budget.read}, json: strings.HasSuffix(strings.ToLower(m.Path), ".json")}
		if f.Program != nil {
			if ps := f.Program.Stream(m.Path); ps != nil && ps.ISA != nil {
				// The words as the page shows them, deeper than the stream's summary node: a
				// word's node spans its 64 bytes, so its own nodes own them, one word at a time.
				w.at = coverWords(k, m.Path, ps.ISA, budget)
			}
		}
		if _, _, ok := dbg.Match(m.Path); ok {
			f.dbgSpans(m.Path, m.Size, ss, w)
		} else {
			for _, s := range ss {
				w.push(s)
			}
		}
		w.to(m.Size)
	}
	sort.Slice(c.Kinds, func(i, j int) bool { return c.Kinds[i].Kind < c.Kinds[j].Kind })
	for _, k := range c.Kinds {
		t := &c.Total
		t.Members += k.Members
		t.Bytes += k.Bytes
		t.Significant += k.Significant
		t.Named += k.Named
		t.JSON += k.JSON
		t.Unknown += k.Unknown
		t.Hex += k.Hex
		t.Words += k.Words
		t.InstrNonZero += k.InstrNonZero
		t.InstrNamed += k.InstrNamed
		t.Unmeasured += k.Unmeasured
	}
	if t := c.Total; t.Unmeasured > 0 {
		// Where: the member kinds the limits cut; what to do: read the figures as partial.
		var cut []string
		for _, k := range c.Kinds {
			if k.Unmeasured > 0 {
				cut = append(cut, fmt.Sprintf("%s %d B", k.Kind, k.Unmeasured))
			}
		}
		c.Findings = append(c.Findings, doc.Finding{Code: doc.CodeCoverageWordLimit, Severity: doc.Warning,
			Message: fmt.Sprintf("coverage left %d bytes unmeasured (%s), past its limits (%d instruction words, %d of them distinct, %d bytes read back from the file): the percentages are of the bytes measured only (coverage --json gives each kind's unmeasured bytes)",
				t.Unmeasured, strings.Join(cut, ", "), CoverageWordLimit, CoverageBuiltLimit, CoverageReadLimit)})
	}
	return c
}

// coverWords counts every word of a stream (its nodes as the page shows them, in one pass over
// the words, holding one word's nodes at a time) within the budget, and returns the bytes the
// words cover; the words past the budget are counted unmeasured.
func coverWords(k *CoverageKind, member string, s *isa.Stream, budget *coverBudget) int64 {
	var ws []covSpan
	// A word's counts depend only on its bytes and whether it continues a pair: streams repeat
	// words, and building a word's nodes is most of the pass.
	type wordKey struct {
		w    [isa.WordSize]byte
		part bool
	}
	seen := map[wordKey]CoverageKind{}
	for i, raw := range s.Words() {
		key := wordKey{part: s.PartOf(i) >= 0}
		copy(key.w[:], raw)
		c, ok := seen[key]
		if budget.words <= 0 || !ok && budget.built <= 0 {
			k.Unmeasured += int64(s.Len()-i) * isa.WordSize
			break
		}
		budget.words--
		if ok {
			addCounts(k, &c)
			continue
		}
		budget.built--
		in := s.InstructionOf(raw, i)
		ws = ws[:0]
		order := 0
		var add func(n *doc.Node, depth int)
		add = func(n *doc.Node, depth int) {
			if n.Span != nil && n.Span.Length > 0 {
				order++
				ws = append(ws, covSpan{n.Span.Offset, n.Span.Offset + n.Span.Length, depth, order, classify(n)})
			}
			for _, ch := range n.Children {
				add(ch, depth+1)
			}
		}
		add(in.Node(member), 1000)
		sort.Slice(ws, func(a, b int) bool { return ws[a].start < ws[b].start })
		base := int64(i) * isa.WordSize
		word := in.Word
		c = CoverageKind{}
		w := &sweep{k: &c, at: base, sig: func(a, b int64) int64 { return significantIn(word[a-base:b-base], false) }}
		for _, s := range ws {
			w.push(s)
		}
		w.to(base + isa.WordSize)
		named, nonzero := namedNonZero(in)
		c.Words = 1
		c.InstrNamed, c.InstrNonZero = int64(named), int64(nonzero)
		if len(seen) < 1<<14 {
			seen[key] = c
		}
		addCounts(k, &c)
	}
	return int64(s.Len()) * isa.WordSize
}

// addCounts adds c's byte and word counts to k.
func addCounts(k, c *CoverageKind) {
	k.Significant += c.Significant
	k.Named += c.Named
	k.JSON += c.JSON
	k.Unknown += c.Unknown
	k.Hex += c.Hex
	k.Words += c.Words
	k.InstrNamed += c.InstrNamed
	k.InstrNonZero += c.InstrNonZero
	k.Unmeasured += c.Unmeasured
}

// sweep counts a member's bytes by their owner, the deepest span holding them (then the last
// in document order), as spans are pushed in the order they start: it holds only the spans
// open at the point it has reached, whatever the member's number of spans.
type sweep struct {
	k    *CoverageKind
	h    spanHeap
	at   int64
	r    memberReader
	json bool
	sig  func(a, b int64) int64 // significant bytes of [a, b) (nil: read through r)
}

// push adds s, which starts at or after every span pushed before it.
func (w *sweep) push(s covSpan) {
	w.to(s.start)
	// The spans that end here go now: under a later sibling on top they would never be
	// popped, and a member of millions of sibling fields would hold them all.
	w.h.drop(w.at)
	heap.Push(&w.h, &s)
}

// to counts the bytes up to end.
func (w *sweep) to(end int64) {
	for w.at < end {
		w.h.drop(w.at)
		next, class := end, covHex
		if !w.h.empty() {
			next, class = min(end, w.h.top().end), w.h.top().class
		}
		var n int64
		if w.sig == nil && w.r.left != nil && *w.r.left <= 0 {
			w.k.Unmeasured += next - w.at
			w.at = next
			continue
		}
		if w.sig != nil {
			n = w.sig(w.at, next)
		} else {
			n = w.r.significant(w.at, next, w.json)
		}
		w.k.Significant += n
		switch class {
		case covNamed:
			w.k.Named += n
		case covJSON:
			w.k.JSON += n
		case covUnknown:
			w.k.Unknown += n
		default:
			w.k.Hex += n
		}
		w.at = next
	}
}

// dbgSpans counts a .dbg member with every field as its decoder reads it (dbg.Spans, in the
// order they start), deeper than the member's tree (ss, sorted by start): the tree stops at a
// node budget and the page reaches the other records by range (rows of "records:<member>"),
// so fields past the budget are explained all the same.
func (f *File) dbgSpans(member string, size int64, ss []covSpan, w *sweep) {
	next := 0
	defer func() {
		for _, s := range ss[next:] {
			w.push(s)
		}
	}()
	if size <= 0 || size > maxDbgFile {
		return
	}
	b, err := f.Bytes(member, 0, size)
	if err != nil || int64(len(b)) != size {
		return
	}
	order := 0
	w.sig = func(a, z int64) int64 { return significantIn(b[a:z], false) }
	dbg.Spans(member, b, func(off, n int64, depth int, c dbg.Class) {
		class := covHex
		switch c {
		case dbg.ClassNamed:
			class = covNamed
		case dbg.ClassUnknown:
			class = covUnknown
		case dbg.ClassGeneric:
			class = covJSON
		}
		for next < len(ss) && ss[next].start <= off {
			w.push(ss[next])
			next++
		}
		order++
		w.push(covSpan{max(off, w.at), off + n, 1000 + depth, len(ss) + order, class})
	})
	for _, s := range ss[next:] {
		w.push(s)
	}
	next = len(ss)
	w.to(size)
	w.sig = nil
}

// namedNonZero counts a word's non-zero bytes under a field that names them (not an
// undocumented run, not an unknown… field), and all its non-zero bytes.
func namedNonZero(in isa.Instruction) (named, nonzero int) {
	var covered [isa.WordSize]bool
	for _, fl := range in.Fields {
		if fl.Group == isa.GroupUndocumented || isa.IsUnknownName(fl.Name) {
			continue
		}
		for b := fl.Off; b < fl.Off+fl.Width && b < isa.WordSize; b++ {
			covered[b] = true
		}
	}
	for b, v := range in.Word {
		if v != 0 {
			nonzero++
			if covered[b] {
				named++
			}
		}
	}
	return named, nonzero
}

// spanHeap orders the spans holding a point by depth, then document order: the top owns it.
type spanHeap []*covSpan

func (h spanHeap) Len() int { return len(h) }
func (h spanHeap) Less(i, j int) bool {
	if h[i].depth != h[j].depth {
		return h[i].depth > h[j].depth
	}
	return h[i].order > h[j].order
}
func (h spanHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *spanHeap) Push(x any)   { *h = append(*h, x.(*covSpan)) }
func (h *spanHeap) Pop() any     { old := *h; x := old[len(old)-1]; *h = old[:len(old)-1]; return x }
func (h spanHeap) top() *covSpan { return h[0] }
func (h spanHeap) empty() bool   { return len(h) == 0 }
func (h *spanHeap) drop(at int64) {
	for !h.empty() && h.top().end <= at {
		heap.Pop(h)
	}
}

// countMember sweeps a member's bytes once, with the spans ss (any order): the bytes are read
// to tell significant ones.
func (f *File) countMember(k *CoverageKind, member string, size int64, isJSON bool, ss []covSpan) {
	sort.Slice(ss, func(i, j int) bool { return ss[i].start < ss[j].start })
	w := &sweep{k: k, r: memberReader{f: f, member: member}, json: isJSON}
	for _, s := range ss {
		w.push(s)
	}
	w.to(size)
}

// significantIn counts b's significant bytes: not 0x00, nor JSON whitespace in a .json member.
func significantIn(b []byte, isJSON bool) int64 {
	var n int64
	for _, c := range b {
		switch {
		case c == 0:
		case isJSON && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
		default:
			n++
		}
	}
	return n
}

// memberReader counts significant bytes of a member, reading it in windows.
type memberReader struct {
	f      *File
	member string
	off    int64
	buf    []byte
	left   *int64 // bytes the file's coverage may still read back (nil: no limit)
}

func (r *memberReader) significant(a, b int64, isJSON bool) int64 {
	var n int64
	for a < b {
		if a < r.off || a >= r.off+int64(len(r.buf)) {
			// One window at a time, whatever the span: a span may be a whole 1 GiB member.
			data, err := r.f.Bytes(r.member, a, 1<<20)
			if err != nil || len(data) == 0 {
				return n
			}
			if r.left != nil {
				*r.left -= int64(len(data))
			}
			r.off, r.buf = a, data
		}
		end := min(b, r.off+int64(len(r.buf)))
		n += significantIn(r.buf[a-r.off:end-r.off], isJSON)
		a = end
	}
	return n
}

// memberKind names what a member is: its kind's coverage class (memberkinds.go).
func (f *File) memberKind(p string) string {
	if k := kindIn(f.Program, p); k.coverage != nil {
		return k.coverage(f, p)
	}
	return normalizeSG(p)
}
