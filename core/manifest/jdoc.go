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
	// forest builds the nodes the tree does not hold (stubs) on demand; it outlives the
	// resolve (Model.Forests).
	forest *jsonspan.Forest
	noted  bool // the kind has key notes, so paths are tracked while indexing
	// budget is the open's; once it has refused something, the checks' errors and warnings
	// are held back (held counts them): what looks missing may be in what was not read.
	budget *budget.Budget
	held   int
}

// maxNoteDepth is the deepest key path the meaning table is matched at (klir trees nest).
const maxNoteDepth = 64

// treeBudget bounds the nodes one member's tree holds; past it, and for every lazy
// container, the tree has stubs whose children are built on demand (nothing is cut). The
// values built are bounded by the open's budget, which the parse is charged to.
const treeBudget = 2000

// treeBudgetOf is the nodes a member kind's tree holds. The activation tables' JSON (the
// roster and each set's profile) holds fewer: their meaning is shown decoded under the
// document's activation node, and their raw trees were half the nodes of a small NEFF's
// document (the rest of each is a stub, one click away).
func treeBudgetOf(kind string) int64 {
	switch kind {
	case "act_info", "act_profile":
		return 256
	}
	return treeBudget
}

// lazyOver is the size past which a JSON container of more than 64 items is parsed on demand
// (jsonspan.Options.LazyOver): a def.json's var object of tens of MB is checked in one pass
// and read item by item, never held as a tree.
const lazyOver = 64 << 10

// maxNotes bounds the details kept for values whose node is not held.
const maxNotes = 100000

// ResolveWith is Resolve with the open's budget charged for every JSON value parsed; past it,
// members are resolved as far as they were parsed and the budget's finding says which limit.
func ResolveWith(members Members, facts HeaderFacts, b *budget.Budget) *Model {
	return resolve(members, facts, b)
}

// newJDoc parses member path (b its bytes; in, if not nil, the reloadable Input holding them).
func newJDoc(path, kind string, b []byte, in *jsonspan.Input, size int64, bud *budget.Budget) *jdoc {
	d := &jdoc{path: path, kind: kind, budget: bud}
	if in == nil {
		in = jsonspan.NewInput(b)
	}
	before := bud.Used(budget.Values)
	v, err := jsonspan.ParseWith(b, jsonspan.Options{Budget: bud, Where: path, MaxMemory: bud.Left(budget.Memory) / 2, LazyOver: lazyOver, Input: in})
	d.v = v
	d.nodes = make(map[*jsonspan.Value]*doc.Node, min(bud.Used(budget.Values)-before, treeBudgetOf(kind))) // sized once: no regrowth
	d.forest = jsonspan.NewForestOver(path, in, lazyOver)
	if v != nil {
		d.noted = hasMeanings(kind)
		if d.noted {
			d.forest.Detail = func(p []string) string {
				if m := meaningOf(kind, p); m != nil {
					return m.detail()
				}
				return ""
			}
		}
		d.tree = d.forest.Tree(v, path, int(treeBudgetOf(kind)))
		d.index(v, d.tree)
		bud.Take(budget.Memory, int64(len(d.nodes))*budget.NodeCost, path)
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
		d.tree.Infof(doc.CodeBudgetSkipped, doc.In(path, e.Offset, int64(len(b))-e.Offset), "%s is decoded up to byte %d only (the %s limit is reached, see the file's finding); the rest is in the hex view", path, e.Offset, bud.First().Kind)
	} else if err != nil {
		off, line := int64(0), 0
		if e, ok := err.(*jsonspan.Error); ok {
			off, line = e.Offset, e.Line
		}
		d.tree.Errorf(doc.CodeJSONSyntax, doc.In(path, off, 1), "%s is not valid JSON at byte %d (line %d): %v; what could be read before that point is shown, the rest of the member is ignored by the runtime too (it would refuse the NEFF)", path, off, line, err)
	}
	if int64(len(b)) < size {
		d.tree.Warnf(doc.CodeManifestPartialRead, doc.In(path, int64(len(b)), size-int64(len(b))), "only the first %d of %d bytes of %s were handed to the manifest reader; the JSON is read as far as it goes", len(b), size, path)
	}
	return d
}

// index pairs every held value with its tree node (the forest has named what the table of
// key meanings knows), so findings and details land on the field they are about.
func (d *jdoc) index(v *jsonspan.Value, n *doc.Node) {
	if v == nil || n == nil {
		return
	}
	d.nodes[v] = n
	if v.IsLazy() || len(n.Children) == 0 {
		return // a leaf, or a stub: its values are built on demand
	}
	for i, it := range v.Items {
		if i >= len(n.Children) {
			break
		}
		d.index(it, n.Children[i])
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

func (d *jdoc) errorf(code doc.Code, v *jsonspan.Value, format string, args ...any) {
	if !d.holdBack() {
		d.node(v).Errorf(code, d.span(v), format, args...)
	}
}
func (d *jdoc) warnf(code doc.Code, v *jsonspan.Value, format string, args ...any) {
	if !d.holdBack() {
		d.node(v).Warnf(code, d.span(v), format, args...)
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
		d.tree.Infof(doc.CodeBudgetSkipped, doc.In(d.path, 0, 0), "the checks of %s are not reported: the %s limit was reached (the file's finding says how to raise it), so what looks missing or inconsistent may be in what was not read", d.path, e.Kind)
	}
	return true
}
func (d *jdoc) infof(code doc.Code, v *jsonspan.Value, format string, args ...any) {
	d.node(v).Infof(code, d.span(v), format, args...)
}

// explain sets the Detail of v's node, or keeps it for when the node is built on demand.
func (d *jdoc) explain(v *jsonspan.Value, format string, args ...any) {
	if n := d.nodes[v]; n != nil {
		n.Detail = fmt.Sprintf(format, args...)
	} else if v != nil && len(d.forest.Notes) < maxNotes {
		if d.forest.Notes == nil {
			d.forest.Notes = map[int64]string{}
		}
		d.forest.Notes[v.Start] = fmt.Sprintf(format, args...)
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
	n := min(v.Len(), maxListItems)
	out := make([]int64, 0, n)
	ok := true
	for i, it := range items(v) {
		if i >= n {
			break
		}
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
	for _, it := range items(v) {
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

// items is v's items, nil-safe; a lazy container's are built (jsonspan.Value.List): the one
// container too big for that, def.json's var object, is read with Each.
func items(v *jsonspan.Value) []*jsonspan.Value { return v.List() }
