// coverage is a CLI yardstick (`neffscope coverage`); the page does not need it, so the wasm
// build leaves it out.

//go:build !js

package inspect

import (
	"container/heap"
	"path"
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
)

// Coverage is how much of a NEFF's member bytes the Document explains: `neffscope coverage`,
// the project's yardstick (issue 11). Each significant byte of a member is owned by the
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
		if f.Program != nil {
			if ps := f.Program.Stream(m.Path); ps != nil && ps.ISA != nil {
				// The words as the page shows them, deeper than the stream's summary node.
				for i := range ps.ISA.Len() {
					walkDepth := 1000
					var add func(n *doc.Node, depth int)
					add = func(n *doc.Node, depth int) {
						if n.Span != nil && n.Span.Length > 0 {
							order++
							ss = append(ss, covSpan{n.Span.Offset, n.Span.Offset + n.Span.Length, depth, order, classify(n)})
						}
						for _, ch := range n.Children {
							add(ch, depth+1)
						}
					}
					add(ps.ISA.Node(i), walkDepth)
					in := ps.ISA.Instruction(i)
					named, nonzero := namedNonZero(in)
					k.Words++
					k.InstrNamed += int64(named)
					k.InstrNonZero += int64(nonzero)
				}
			}
		}
		if _, _, ok := dbg.Match(m.Path); ok {
			ss = f.dbgSpans(m.Path, m.Size, ss, &order)
		}
		f.countMember(k, m.Path, m.Size, strings.HasSuffix(strings.ToLower(m.Path), ".json"), ss)
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
	}
	return c
}

// dbgSpans adds every field of a .dbg member as its decoder reads it (dbg.Spans), deeper than
// the member's tree: the tree stops at a node budget and the page reaches the other records by
// range (rows of "records:<member>"), so fields past the budget are explained all the same.
func (f *File) dbgSpans(member string, size int64, ss []covSpan, order *int) []covSpan {
	if size <= 0 || size > maxDbgFile {
		return ss
	}
	b, err := f.Bytes(member, 0, size)
	if err != nil || int64(len(b)) != size {
		return ss
	}
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
		*order++
		ss = append(ss, covSpan{off, off + n, 1000 + depth, *order, class})
	})
	return ss
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

// countMember sweeps a member's bytes once: between consecutive span boundaries one span owns
// every byte, and the bytes are read to tell significant ones.
func (f *File) countMember(k *CoverageKind, member string, size int64, isJSON bool, ss []covSpan) {
	sort.Slice(ss, func(i, j int) bool { return ss[i].start < ss[j].start })
	bounds := []int64{0, size}
	for _, s := range ss {
		bounds = append(bounds, min(max(s.start, 0), size), min(max(s.end, 0), size))
	}
	sort.Slice(bounds, func(i, j int) bool { return bounds[i] < bounds[j] })
	h := &spanHeap{}
	next := 0
	r := memberReader{f: f, member: member}
	for bi := 0; bi+1 < len(bounds); bi++ {
		a, b := bounds[bi], bounds[bi+1]
		if a == b {
			continue
		}
		for next < len(ss) && ss[next].start <= a {
			heap.Push(h, &ss[next])
			next++
		}
		h.drop(a)
		class := covHex
		if !h.empty() {
			class = h.top().class
		}
		n := r.significant(a, b, isJSON)
		k.Significant += n
		switch class {
		case covNamed:
			k.Named += n
		case covJSON:
			k.JSON += n
		case covUnknown:
			k.Unknown += n
		default:
			k.Hex += n
		}
	}
}

// memberReader counts significant bytes of a member, reading it in windows.
type memberReader struct {
	f      *File
	member string
	off    int64
	buf    []byte
}

func (r *memberReader) significant(a, b int64, isJSON bool) int64 {
	var n int64
	for a < b {
		if a < r.off || a >= r.off+int64(len(r.buf)) {
			data, err := r.f.Bytes(r.member, a, max(b-a, 1<<20))
			if err != nil || len(data) == 0 {
				return n
			}
			r.off, r.buf = a, data
		}
		end := min(b, r.off+int64(len(r.buf)))
		for _, c := range r.buf[a-r.off : end-r.off] {
			switch {
			case c == 0:
			case isJSON && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			default:
				n++
			}
		}
		a = end
	}
	return n
}

// memberKind names what a member is, with its subgraph, engine and activation-set names
// replaced by placeholders so the NEFFs of a corpus add up.
func (f *File) memberKind(p string) string {
	kind := normalizeSG(p)
	dir, base := path.Split(kind)
	if f.Program != nil {
		if ps := f.Program.Stream(p); ps != nil {
			return dir + "<Engine>.bin"
		}
		for _, c := range f.Program.Model.Cores {
			for _, e := range c.Engines {
				if e.JSONPath == p {
					return dir + "<Engine>.json"
				}
				for _, s := range e.ActivationSets {
					switch base {
					case s.Name + ".json":
						return dir + "<set>.json"
					case s.Name + "_bkt.bin":
						return dir + "<set>_bkt.bin"
					case s.Name + "_ctrl.bin":
						return dir + "<set>_ctrl.bin"
					}
				}
			}
		}
	}
	for _, eng := range []string{"Activation", "Pool", "PE", "DVE", "SP", "DMA"} {
		if strings.HasSuffix(base, "_"+eng+".dbg") {
			return dir + strings.TrimSuffix(base, eng+".dbg") + "<Engine>.dbg"
		}
	}
	if strings.HasSuffix(base, ".npy") {
		return dir + "*.npy"
	}
	return kind
}

// normalizeSG replaces every "sg" followed by digits with "sgNN".
func normalizeSG(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == 's' && i+2 < len(p) && p[i+1] == 'g' && p[i+2] >= '0' && p[i+2] <= '9' {
			b.WriteString("sgNN")
			i += 2
			for i+1 < len(p) && p[i+1] >= '0' && p[i+1] <= '9' {
				i++
			}
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
