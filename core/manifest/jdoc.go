package manifest

import (
	"fmt"
	"strconv"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// jdoc is one parsed JSON member: its values, its document tree, and the node of each value
// so findings land on the field they are about.
type jdoc struct {
	path  string
	kind  string
	v     *jsonspan.Value
	tree  *doc.Node
	nodes map[*jsonspan.Value]*doc.Node
	noted bool // the kind has key notes, so paths are tracked while indexing
	// budget is the open's; once it has refused something, the checks' errors and warnings
	// are held back (held counts them): what looks missing may be in what was not read.
	budget *budget.Budget
	held   int
}

// maxNoteDepth is the deepest key path the meaning table is matched at (klir trees nest).
const maxNoteDepth = 64

// treeBudget bounds the rows one member's tree makes (jsonspan summarises past it); the
// whole file's values are bounded by the open's budget, which the parse is charged to.
const treeBudget = 200000

// ResolveWith is Resolve with the open's budget charged for every JSON value parsed; past it,
// members are resolved as far as they were parsed and the budget's finding says which limit.
func ResolveWith(members Members, facts HeaderFacts, b *budget.Budget) *Model {
	return resolve(members, facts, b)
}

func newJDoc(path, kind string, b []byte, size int64, bud *budget.Budget) *jdoc {
	d := &jdoc{path: path, kind: kind, budget: bud}
	before := bud.Used(budget.Values)
	v, err := jsonspan.ParseWith(b, jsonspan.Options{Budget: bud, Where: path, MaxMemory: bud.Left(budget.Memory) / 2})
	d.v = v
	d.nodes = make(map[*jsonspan.Value]*doc.Node, min(bud.Used(budget.Values)-before, treeBudget)) // sized once: no regrowth
	if v != nil {
		d.tree = jsonspan.Tree(v, path, path, treeBudget)
		d.noted = hasMeanings(kind)
		d.index(v, d.tree, nil)
		if m := meaningOf(kind, nil); m != nil && d.tree != nil && d.tree.Detail == "" {
			d.tree.Detail = m.detail()
		}
	}
	if d.tree == nil {
		d.tree = &doc.Node{Kind: doc.KindMember, Label: path, Span: doc.In(path, 0, int64(len(b)))}
	}
	d.tree.Kind = doc.KindManifest
	d.tree.Key = path
	if e, ok := err.(*jsonspan.Error); ok && e.Limit {
		// One finding on the file names the limit; each member cut by it only says where.
		d.tree.Infof(doc.In(path, e.Offset, int64(len(b))-e.Offset), "%s is decoded up to byte %d only (the %s limit is reached, see the file's finding); the rest is in the hex view", path, e.Offset, bud.First().Kind)
	} else if err != nil {
		off, line := int64(0), 0
		if e, ok := err.(*jsonspan.Error); ok {
			off, line = e.Offset, e.Line
		}
		d.tree.Errorf(doc.In(path, off, 1), "%s is not valid JSON at byte %d (line %d): %v; what could be read before that point is shown, the rest of the member is ignored by the runtime too (it would refuse the NEFF)", path, off, line, err)
	}
	if int64(len(b)) < size {
		d.tree.Warnf(doc.In(path, int64(len(b)), size-int64(len(b))), "only the first %d of %d bytes of %s were handed to the manifest reader; the JSON is read as far as it goes", len(b), size, path)
	}
	return d
}

// index pairs every value with its tree node and names the values the table of key meanings
// (meanings.go) knows: their node's Detail says what they mean.
func (d *jdoc) index(v *jsonspan.Value, n *doc.Node, path []string) {
	if v == nil || n == nil {
		return
	}
	d.nodes[v] = n
	if d.noted && len(path) > 0 && n.Detail == "" {
		if m := meaningOf(d.kind, path); m != nil {
			n.Detail = m.detail()
		}
	}
	for i, it := range v.Items {
		if i >= len(n.Children) {
			break // past the tree budget
		}
		var sub []string
		if d.noted && len(path) < maxNoteDepth {
			seg := "*"
			if v.Kind == jsonspan.Object {
				seg = v.Keys[i]
			}
			sub = append(path[:len(path):len(path)], seg)
		}
		d.index(it, n.Children[i], sub)
	}
}

// node is the tree node of v (the member root when v is not in the tree).
func (d *jdoc) node(v *jsonspan.Value) *doc.Node {
	if n := d.nodes[v]; n != nil {
		return n
	}
	return d.tree
}

// span is the bytes of v.
func (d *jdoc) span(v *jsonspan.Value) *doc.Span {
	if v == nil {
		return doc.In(d.path, 0, 0)
	}
	return doc.In(d.path, v.Start, v.Len64())
}

// keySpan is the bytes of obj's member key: from the key to the end of its value.
func (d *jdoc) keySpan(obj *jsonspan.Value, key string) *doc.Span {
	if obj == nil || obj.Kind != jsonspan.Object {
		return d.span(obj)
	}
	for i := len(obj.Keys) - 1; i >= 0; i-- {
		if obj.Keys[i] == key {
			return doc.In(d.path, obj.KeyStart[i], obj.Items[i].End-obj.KeyStart[i])
		}
	}
	return d.span(obj)
}

func (d *jdoc) errorf(v *jsonspan.Value, format string, args ...any) {
	if !d.holdBack() {
		d.node(v).Errorf(d.span(v), format, args...)
	}
}
func (d *jdoc) warnf(v *jsonspan.Value, format string, args ...any) {
	if !d.holdBack() {
		d.node(v).Warnf(d.span(v), format, args...)
	}
}

// holdBack says whether a check's finding is held back because a limit cut what was read (a
// variable past the cut would look missing: never a false alarm); the first one held says so.
func (d *jdoc) holdBack() bool {
	e := d.budget.First()
	if e == nil {
		return false
	}
	if d.held++; d.held == 1 {
		d.tree.Infof(doc.In(d.path, 0, 0), "the checks of %s are not reported: the %s limit was reached (the file's finding says how to raise it), so what looks missing or inconsistent may be in what was not read", d.path, e.Kind)
	}
	return true
}
func (d *jdoc) infof(v *jsonspan.Value, format string, args ...any) {
	d.node(v).Infof(d.span(v), format, args...)
}

// explain sets the Detail of v's node.
func (d *jdoc) explain(v *jsonspan.Value, format string, args ...any) {
	if n := d.nodes[v]; n != nil {
		n.Detail = fmt.Sprintf(format, args...)
	}
}

// str reads a string field; "" when absent or not a string.
func str(v *jsonspan.Value) string {
	s, _ := v.Text()
	return s
}

// intOr reads an integer field (TVM attrs may be strings) or returns def.
func intOr(v *jsonspan.Value, def int64) int64 {
	if n, ok := v.Int(); ok {
		return n
	}
	return def
}

// maxListItems bounds the integer lists read into the model (shapes, id lists); the tree still
// shows every item.
const maxListItems = 1 << 16

// ints reads an array of integers; ok is false if any item is not an integer.
func ints(v *jsonspan.Value) ([]int64, bool) {
	if v == nil || v.Kind != jsonspan.Array {
		return nil, false
	}
	n := min(len(v.Items), maxListItems)
	out := make([]int64, 0, n)
	ok := true
	for _, it := range v.Items[:n] {
		x, good := it.Int()
		if !good {
			ok = false
			continue
		}
		out = append(out, x)
	}
	return out, ok
}

// strs reads an array of strings (non-strings are skipped).
func strs(v *jsonspan.Value) []string {
	if v == nil || v.Kind != jsonspan.Array {
		return nil
	}
	var out []string
	for _, it := range v.Items {
		if s, ok := it.Text(); ok {
			out = append(out, s)
		}
	}
	return out
}

func fmtShape(s []int64) string {
	b := []byte{'['}
	for i, x := range s {
		if i > 0 {
			b = append(b, ',', ' ')
		}
		b = strconv.AppendInt(b, x, 10)
	}
	return string(append(b, ']'))
}

func fmtInt(n int64) string {
	if n < 0 {
		return "?"
	}
	return strconv.FormatInt(n, 10)
}

// items is v's items, nil-safe.
func items(v *jsonspan.Value) []*jsonspan.Value {
	if v == nil {
		return nil
	}
	return v.Items
}
