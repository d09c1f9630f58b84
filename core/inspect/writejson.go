package inspect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
	"github.com/neffscope/neffscope/core/srcmap"
)

// WriteJSON writes the Document as `neffscope inspect --json` prints it — encoding/json with a
// one-space indent and a final newline — as if every node were held: a stub's children are
// built a page at a time as the writer reaches them, written, and dropped, so the output of a
// member with millions of JSON values takes no more memory than one page of it. The nodes it
// builds are bounded by the values limit (budget.Values: a 60 KB file can hold a 60 MiB JSON
// array, 30 million nodes): past it, stubs are written as stubs (their "more" attribute
// counts their children), and WriteJSON returns how many were left so.
func (f *File) WriteJSON(w io.Writer) (stubs int, err error) {
	if f.Doc == nil {
		return 0, fmt.Errorf("the file has no document")
	}
	jw := &jsonWriter{f: f, w: bufio.NewWriterSize(w, 1<<20), left: f.Budget.Limit(budget.Values), feed: f.dbgFeed()}
	defer jw.feed.Stop()
	if jw.left <= 0 {
		jw.left = 1 << 62
	}
	d := *f.Doc
	d.Root = sentinel
	head, err := json.MarshalIndent(&d, "", " ")
	if err != nil {
		return 0, err
	}
	if err := jw.splice(head, func(prefix string) error {
		if f.Doc.Root == nil {
			_, err := jw.w.WriteString("null")
			return err
		}
		return jw.node(f.Doc.Root, prefix, 0)
	}); err != nil {
		return jw.stubs, err
	}
	jw.w.WriteByte('\n')
	return jw.stubs, jw.w.Flush()
}

type jsonWriter struct {
	f *File
	w *bufio.Writer
	// left is how many more nodes stubs may be expanded into; stubs counts those written
	// as stubs once it ran out.
	left  int64
	stubs int
	// feed reads the .dbg members not held in as few archive walks as the output allows.
	feed *srcmap.Feed
	// frames are the JSON stubs being written, outermost first; bases the stubs each
	// forest knew before the writer asked it for any (see sweep).
	frames []*jsonFrame
	bases  map[*jsonspan.Forest]jsonspan.StubSet
}

// sentinel stands for what the writer puts in its place (a node's children, the root).
var sentinel = &doc.Node{Kind: "\x00neffscope-splice\x00"}

var sentinelText = []byte(`"kind": "\u0000neffscope-splice\u0000"`)

// splice writes b (a marshalled value holding the sentinel once) with the sentinel object
// replaced by what fill writes; fill gets the indent of the sentinel's lines.
func (jw *jsonWriter) splice(b []byte, fill func(prefix string) error) error {
	at := bytes.Index(b, sentinelText)
	if at < 0 {
		_, err := jw.w.Write(b)
		return err
	}
	open := bytes.LastIndexByte(b[:at], '{')
	closing := at + bytes.IndexByte(b[at:], '}')
	nl := bytes.LastIndexByte(b[:open], '\n')
	line := b[nl+1 : open]
	prefix := string(line[:len(line)-len(bytes.TrimLeft(line, " "))]) // the line's indent
	if _, err := jw.w.Write(b[:open]); err != nil {
		return err
	}
	if err := fill(prefix); err != nil {
		return err
	}
	_, err := jw.w.Write(b[closing+1:])
	return err
}

// node writes n (at indent prefix), its children built when n is a stub.
func (jw *jsonWriter) node(n *doc.Node, prefix string, depth int) error {
	total := ChildCount(n)
	attrs, ref := n.Attrs, n.Ref
	if IsStub(n) && int64(total) > jw.left {
		jw.stubs++
		total = 0 // written as the stub it is
	} else if IsStub(n) {
		jw.left -= int64(total)
		// Written as the node would be if it were held.
		if len(attrs) == 1 {
			attrs = nil
		} else {
			attrs = maps.Clone(n.Attrs)
			delete(attrs, doc.AttrMore)
		}
		// A JSON or klir node has no ref when held.
		if kind, _ := doc.ParseRef(n.Ref); kind == doc.RefJSON || kind == doc.RefKlir {
			ref = ""
		}
	}
	ind := prefix + " "
	b := appendNodeHead(jw.w.AvailableBuffer(), n, attrs, ind)
	if total > 0 {
		b = appendKey(b, ind, "children", false)
		b = append(b, "[\n"...)
		b = append(b, ind...)
		b = append(b, ' ')
		if _, err := jw.w.Write(b); err != nil {
			return err
		}
		if err := jw.children(n, total, ind+" ", depth); err != nil {
			return err
		}
		b = append(jw.w.AvailableBuffer(), '\n')
		b = append(b, ind...)
		b = append(b, ']')
	}
	b, err := appendNodeTailFlushing(b, n, ref, prefix, ind, func(b []byte) ([]byte, error) {
		_, err := jw.w.Write(b)
		return jw.w.AvailableBuffer(), err
	})
	if err != nil {
		return err
	}
	_, err = jw.w.Write(b)
	return err
}

// children writes n's children (total of them, built a page at a time when n is a stub), each
// on its own line at indent kidPrefix (the first line is begun).
func (jw *jsonWriter) children(n *doc.Node, total int, kidPrefix string, depth int) error {
	jw.prime(n)
	fr := jw.pushJSON(n)
	defer jw.popJSON(fr)
	page := childPage
	if fr != nil {
		page = jsonWritePage
	}
	for from := 0; from < total; from += page {
		if fr != nil && from > 0 {
			jw.sweep(fr.fo)
		}
		kids, _, err := jw.f.children(n, from, from+page)
		if err != nil {
			return err
		}
		if fr != nil {
			fr.page = jsonStubsIn(kids, fr.page[:0])
		}
		for i, k := range kids {
			if from+i > 0 { // the first one's line is begun
				jw.w.WriteString(",\n")
				jw.w.WriteString(kidPrefix)
			}
			if err := jw.node(k, kidPrefix, depth+1); err != nil {
				return err
			}
		}
		if len(kids) == 0 {
			break
		}
	}
	return nil
}

// prime builds the tree of a .dbg member's content stub from the bytes the feed read, when
// they are not the tree built last (srcmap.Index.View then serves the stub's pages from it).
func (jw *jsonWriter) prime(n *doc.Node) {
	kind, member := doc.ParseRef(n.Ref)
	if kind != doc.RefDbg || !IsStub(n) || jw.feed == nil {
		return
	}
	x := jw.f.sourceIndex()
	if x == nil || x.Members[member] == nil || x.Viewing() == member {
		return
	}
	if b, ok := jw.feed.Take(member); ok {
		x.SetView(member, b)
		jw.feed.Release(int64(len(b)))
	}
}

// dbgFeedWindow bounds the bytes of .dbg members the feed's walks hold ahead of the writer (a
// member bigger than this is held alone).
var dbgFeedWindow int64 = 64 << 20

// dbgFeed plans the reads of the .dbg members not held whose trees the writer will write, in
// the order it will write them (srcmap.Feed; nil when there are none, and in the page).
func (f *File) dbgFeed() *srcmap.Feed {
	x := f.sourceIndex()
	if x == nil || f.Archive == nil || f.Doc == nil || f.Doc.Root == nil {
		return nil
	}
	var stubs []string
	var visit func(n *doc.Node)
	visit = func(n *doc.Node) {
		if kind, member := doc.ParseRef(n.Ref); kind == doc.RefDbg && IsStub(n) {
			stubs = append(stubs, member)
		}
		for _, c := range n.Children {
			visit(c)
		}
	}
	visit(f.Doc.Root)
	return srcmap.NewFeed(x.Index, stubs, dbgFeedWindow)
}

// A JSON forest remembers every stub its Children calls make (with their parsed values), so
// a ref names one container for the life of the open; the writer makes every nested stub of
// a member and asks for each once, which would leave the forest holding the whole member
// parsed (hundreds of MB for two 20 MB def.json). Between pages of a JSON stub it drops the
// stubs made since it started, but for those still to be written: the JSON stubs it is inside
// and the stubs among their current pages. What the forest knew before is kept.
type jsonFrame struct {
	fo   *jsonspan.Forest
	off  int64
	page []int64 // the stubs among the current page's nodes (at any depth)
}

// jsonWritePage is how many children of a JSON stub the writer builds at a time: each is
// parsed whole, and the ones past the page's node budget are stubs that hold their parsed
// values until the next sweep (a page of 1,024 items of the klir debug info held ~190 MB).
const jsonWritePage = 64

// sweepOver is how many stubs a forest may gain (over a quarter of what it knew before, or
// this) before the writer drops them.
var sweepOver = 64 // a var so tests can sweep small forests

func (jw *jsonWriter) pushJSON(n *doc.Node) *jsonFrame {
	source, off, ok := jsonspan.ParseRef(n.Ref)
	if !ok || !IsStub(n) {
		return nil
	}
	fo := jw.f.forest(source)
	if fo == nil {
		return nil
	}
	if jw.bases == nil {
		jw.bases = map[*jsonspan.Forest]jsonspan.StubSet{}
	}
	if jw.bases[fo] == nil {
		jw.bases[fo] = fo.Stubs()
	}
	fr := &jsonFrame{fo: fo, off: off}
	jw.frames = append(jw.frames, fr)
	return fr
}

func (jw *jsonWriter) popJSON(fr *jsonFrame) {
	if fr == nil {
		return
	}
	jw.frames = jw.frames[:len(jw.frames)-1]
	jw.sweep(fr.fo)
}

// sweep drops the stubs fo made since the writer began, but for those of the frames being
// written (the stubs they are, and the stubs among their current pages).
func (jw *jsonWriter) sweep(fo *jsonspan.Forest) {
	base := jw.bases[fo]
	pending := 0
	for _, g := range jw.frames {
		pending += 1 + len(g.page)
	}
	if fo.StubCount() <= len(base)+pending+max(sweepOver, len(base)/4) {
		return
	}
	var added []int64
	for _, g := range jw.frames {
		if g.fo != fo {
			continue
		}
		for _, off := range append(g.page, g.off) {
			if _, ok := base[off]; !ok {
				base[off] = struct{}{}
				added = append(added, off)
			}
		}
	}
	fo.ForgetExcept(base)
	for _, off := range added {
		delete(base, off)
	}
}

// jsonStubsIn appends the offsets of the JSON stubs among kids and their held descendants.
func jsonStubsIn(kids []*doc.Node, out []int64) []int64 {
	for _, k := range kids {
		if k == nil {
			continue
		}
		if IsStub(k) {
			if _, off, ok := jsonspan.ParseRef(k.Ref); ok {
				out = append(out, off)
			}
		}
		out = jsonStubsIn(k.Children, out)
	}
	return out
}

// forest is the forest that built the JSON of source (as expandJSON finds it).
func (f *File) forest(source string) *jsonspan.Forest {
	fo := f.forests[source]
	if fo == nil && f.Program != nil && f.Program.Model != nil {
		fo = f.Program.Model.Forests[source]
	}
	return fo
}
