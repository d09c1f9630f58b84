package jsonspan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
)

// MaxStringShown bounds how much of one string a tree node carries; the bytes stay reachable
// through the node's span.
const MaxStringShown = 4096

// Tree renders v as a document tree whose spans index source (a member path, or "" for the
// opened file), holding at most budget nodes (<= 0: 200,000): past it containers are stubs
// (Forest). Without bytes to parse again, a stub's children come from the Values held.
func Tree(v *Value, label, source string, budget int) *doc.Node {
	return NewForest(source, nil, 0).Tree(v, label, budget)
}

func (t *treeMaker) root(v *Value, label string) *doc.Node {
	source := t.source
	n := t.node(v, label, "", -1)
	if n == nil {
		return nil
	}
	if t.flat > 0 {
		n.Warnf(doc.CodeJSONDeepNesting, doc.In(source, t.firstFlat.Start, t.firstFlat.Len64()), "%d arrays or objects are nested deeper than %d levels (the first at byte %d); they are shown flat, as one row with their bytes, so the document stays readable by common JSON readers", t.flat, DefaultMaxDepth, t.firstFlat.Start)
	}
	if t.dups > maxDupFindings {
		n.Warnf(doc.CodeJSONDuplicateKey, doc.In(source, v.Start, v.Len64()), "%d object keys repeat in all; the first %d are marked. JSON readers keep the last value of a repeated key", t.dups, maxDupFindings)
	}
	return n
}

// maxDupFindings bounds the findings on repeated keys (one per repeat up to it, then a count).
const maxDupFindings = 20

type treeMaker struct {
	source    string
	left      int
	flat      int
	firstFlat *Value
	dups      int
	// forest turns what does not fit into stubs (its children built on demand); path is the
	// key path of the node being made (for Detail).
	forest *Forest
	path   []string
	depth  int
}

func (t *treeMaker) node(v *Value, label, key string, keyStart int64) *doc.Node {
	if v == nil {
		return nil
	}
	return t.forestNode(v, label, key, keyStart)
}

// lastIndex returns a function giving the index of the last item with key k (i when the
// item at i is that last one); objects with many keys get a map, so wide objects stay linear.
func lastIndex(v *Value) func(k string, i int) int {
	if len(v.Keys) <= 16 {
		return func(k string, i int) int {
			for j := len(v.Keys) - 1; j > i; j-- {
				if v.Keys[j] == k {
					return j
				}
			}
			return i
		}
	}
	m := make(map[string]int, len(v.Keys))
	for j, k := range v.Keys {
		m[k] = j
	}
	return func(k string, i int) int { return m[k] }
}

// A Forest builds the document tree of one JSON input with stubs: a lazy
// container, and any container whose items do not fit in the nodes left, becomes a stub —
// doc.AttrMore is its item count and its Ref is json:<source>@<start> — whose children
// Children builds on demand, page by page, never kept. Nothing is cut: every value of the
// input is reachable. A Forest remembers the stubs it made (their Values), so a ref names
// one container for the life of the open.
type Forest struct {
	Source string
	// Detail, if set, says what the value at a key path means ("*" for array items), for
	// nodes built on demand as for held ones.
	Detail func(path []string) string
	// Notes are details set by a resolver on values whose node is not held, by value start.
	Notes map[int64]string
	stubs map[int64]stub
	// in is the input, for ValueAt; src (its parse's options) is what the containers ValueAt
	// finds lazy read their items from.
	in  *Input
	src *source
}

type stub struct {
	v     *Value
	path  []string
	depth int
}

// maxDetailDepth is the deepest key path Detail is asked about.
const maxDetailDepth = 64

// NewForest starts the tree of one input b (source: a member path, "" for the opened file),
// parsed with Options.LazyOver lazyOver.
func NewForest(source string, b []byte, lazyOver int64) *Forest {
	return NewForestOver(source, NewInput(b), lazyOver)
}

// NewForestOver is NewForest over an Input (the one its parse was given: Options.Input), so
// the bytes may be let go between the pages asked for.
func NewForestOver(name string, in *Input, lazyOver int64) *Forest {
	opt := Options{LazyOver: lazyOver, MaxDepth: DefaultMaxDepth, Input: in}
	if Eager {
		opt.LazyOver = 0
	}
	return &Forest{Source: name, stubs: map[int64]stub{}, in: in, src: &source{in: in, opt: opt}}
}

// Input is the bytes the forest reads again.
func (f *Forest) Input() *Input { return f.in }

// Ready reads the input again if it was let go, and says why it cannot be.
func (f *Forest) Ready() error {
	_, err := f.in.Bytes()
	if err != nil {
		return fmt.Errorf("reading %s again out of the archive: %w; if the file changed since it was opened, open it again", f.Source, err)
	}
	return nil
}

// ValueAt parses the value that starts at byte off of the input (as deep as depth in it),
// under the lazy rule of the first parse; nil when none starts there (or the input cannot be
// read again: Ready says why).
func (f *Forest) ValueAt(off int64, depth int) *Value {
	b, err := f.in.Bytes()
	if err != nil || off < 0 || off >= int64(len(b)) {
		return nil
	}
	p := &parser{b: b, pos: int(off), line: 1 + countLines(b[:off]), opt: f.src.opt, source: f.src}
	v := p.value(depth)
	if p.err != nil {
		return nil
	}
	return v
}

// Tree builds v's tree holding at most budget nodes (<= 0: 200,000); the rest are stubs.
func (f *Forest) Tree(v *Value, label string, budget int) *doc.Node {
	if budget <= 0 {
		budget = 200000
	}
	if Eager {
		budget = 1 << 40
	}
	t := &treeMaker{source: f.Source, left: budget, forest: f}
	return t.root(v, label)
}

// Ref is the ref of the stub at offset off.
func (f *Forest) Ref(off int64) string {
	return string(doc.RefJSON) + ":" + f.Source + "@" + strconv.FormatInt(off, 10)
}

// ParseRef splits a json ref into its source and offset.
func ParseRef(ref string) (source string, off int64, ok bool) {
	kind, rest := doc.ParseRef(ref)
	i := strings.LastIndexByte(rest, '@')
	if kind != doc.RefJSON || i < 0 {
		return "", 0, false
	}
	off, err := strconv.ParseInt(rest[i+1:], 10, 64)
	return rest[:i], off, err == nil
}

// Children builds the children [from, to) of the stub at offset off (at most budget nodes
// held below them; the rest stubs again) and returns how many it has.
func (f *Forest) Children(off int64, from, to, budget int) ([]*doc.Node, int, error) {
	s, ok := f.stubs[off]
	if !ok {
		return nil, 0, fmt.Errorf("no JSON container of %s is a stub at byte %d", f.Source, off)
	}
	if err := f.Ready(); err != nil {
		return nil, s.v.Len(), err
	}
	total := s.v.Len()
	if from >= to || from >= total {
		return nil, total, nil
	}
	t := &treeMaker{source: f.Source, left: max(budget, to-from), forest: f, depth: s.depth + 1}
	var kids []*doc.Node
	s.v.Each(from, func(it Item) bool {
		if it.Index >= to {
			return false
		}
		t.left--
		kids = append(kids, t.item(s.v, it, s.path))
		return true
	})
	return kids, total, nil
}

// item makes the node of one item of container v (whose key path is path).
func (t *treeMaker) item(v *Value, it Item, path []string) *doc.Node {
	seg, label, key := "*", strconv.Itoa(it.Index), strconv.Itoa(it.Index)
	if v.Kind == Object {
		seg, label, key = it.Key, it.Key, it.Key
		if it.Repeated {
			key = it.Key + "#" + strconv.Itoa(it.Index)
		}
	}
	saved := t.path
	if len(path) < maxDetailDepth {
		t.path = append(path[:len(path):len(path)], seg)
	} else {
		t.path = nil
	}
	t.depth++
	n := t.forestNode(it.V, label, key, it.KeyStart)
	t.depth--
	t.path = saved
	return n
}

// forestNode is node with stubs: a container is held when it is not lazy and its items fit
// in the nodes left, else it is a stub.
func (t *treeMaker) forestNode(v *Value, label, key string, keyStart int64) *doc.Node {
	start := v.Start
	if keyStart >= 0 {
		start = keyStart
	}
	n := &doc.Node{Kind: v.Kind.String(), Label: label, Span: doc.In(t.source, start, v.End-start)}
	if key != label {
		n.Key = key
	}
	f := t.forest
	if f.Detail != nil && t.path != nil {
		n.Detail = f.Detail(t.path)
	}
	if note, ok := f.Notes[v.Start]; ok {
		n.Detail = note
	}
	switch {
	case v.Flat:
		if t.flat == 0 {
			t.firstFlat = v
		}
		t.flat++
		n.Value = "{…}"
		if v.Kind == Array {
			n.Value = "[…]"
		}
		n.Detail = fmt.Sprintf("nested deeper than %d levels: shown flat (its bytes are in the hex view)", DefaultMaxDepth)
	case v.Kind == Object || v.Kind == Array:
		count := v.Len()
		if v.Kind == Object {
			n.Value = fmt.Sprintf("{%d}", count)
		} else {
			n.Value = fmt.Sprintf("[%d]", count)
		}
		if count == 0 {
			break
		}
		if v.IsLazy() || count > t.left {
			f.stubs[v.Start] = stub{v: v, path: t.path, depth: t.depth}
			n.Ref = f.Ref(v.Start)
			n.SetAttr(doc.AttrMore, strconv.Itoa(count))
			dups, ndup := v.Dups()
			for _, d := range dups {
				n.Warnf(doc.CodeJSONDuplicateKey, doc.In(t.source, d.KeyStart, int64(len(d.Key))+2), "key %s repeats in this object (again at byte %d); JSON readers keep the last value, so this one is ignored", doc.Quote(d.Key, 80), d.LastKeyStart)
			}
			if ndup > len(dups) {
				n.Warnf(doc.CodeJSONDuplicateKey, doc.In(t.source, v.Start, v.Len64()), "%d object keys repeat in this object in all; the first %d are marked. JSON readers keep the last value of a repeated key", ndup, len(dups))
			}
			break
		}
		t.left -= count
		var last func(string, int) int
		if v.Kind == Object {
			last = lastIndex(v)
		}
		for _, it := range v.Members() {
			c := t.item(v, it, t.path)
			if it.Repeated {
				if t.dups < maxDupFindings {
					c.Warnf(doc.CodeJSONDuplicateKey, c.Span, "key %s repeats in this object (again at byte %d); JSON readers keep the last value, so this one is ignored", doc.Quote(it.Key, 80), v.KeyStart[last(it.Key, it.Index)])
				}
				t.dups++
			}
			n.Children = append(n.Children, c)
		}
	default:
		n.Value = leafText(v)
	}
	return n
}

func leafText(v *Value) string {
	switch v.Kind {
	case String:
		return doc.Quote(v.Str, MaxStringShown)
	case Bool:
		return strconv.FormatBool(v.Bool)
	case Null:
		return "null"
	}
	return v.Str
}
