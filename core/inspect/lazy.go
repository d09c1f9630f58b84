package inspect

// The lazy document: the Document an open returns holds the structure a first view
// needs; a node too big to hold is a stub (doc.AttrMore = its child count, Ref saying how to
// build them), and its children are built on demand, by path, never kept. Every front end
// reaches nodes through the four calls below, so the page, the CLI's streaming writers, search
// and byte location see one tree, whether a node was held or built.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
)

// An expander builds the children [from, to) of a stub node and returns how many it has.
// Children it returns may themselves be stubs. It must be deterministic: the same stub gives
// the same children, so a path of keys names one node for the life of the open.
type expander func(f *File, stub *doc.Node, from, to int) ([]*doc.Node, int, error)

// expanders maps a stub's ref kind (the ref up to its first ':', e.g. doc.RefJSON) to what
// builds its children.
var expanders = map[doc.RefKind]expander{}

// IsStub reports whether n's children are built on demand.
func IsStub(n *doc.Node) bool { return n != nil && n.Attrs[doc.AttrMore] != "" }

// ChildCount is how many children n has, held or not.
func ChildCount(n *doc.Node) int {
	if IsStub(n) {
		c, _ := strconv.Atoi(n.Attrs[doc.AttrMore])
		return c
	}
	return len(n.Children)
}

// children returns n's children [from, to) (clamped) and their count.
func (f *File) children(n *doc.Node, from, to int) ([]*doc.Node, int, error) {
	if !IsStub(n) {
		total := len(n.Children)
		from, to = clampRange(from, to, total)
		return n.Children[from:to], total, nil
	}
	kind, _, _ := strings.Cut(n.Ref, ":")
	ex := expanders[doc.RefKind(kind)]
	if ex == nil {
		return nil, 0, fmt.Errorf("%w: no way to build the children of %q (ref %q)", ErrNotFound, n.PathKey(), n.Ref)
	}
	total := ChildCount(n)
	from, to = clampRange(from, to, total)
	return ex(f, n, from, to)
}

func clampRange(from, to, total int) (int, int) {
	from = max(0, min(from, total))
	to = max(from, min(to, total))
	return from, to
}

// ErrNotFound is wrapped by the errors of a path or ref that names nothing: the bridge
// matches it (errors.Is) to give its not-found code.
var ErrNotFound = errors.New("not found")

// childPage is how many children a walk builds at a time under a stub.
const childPage = 1024

// child returns n's child with path key key (held, or built page by page under a stub).
func (f *File) child(n *doc.Node, key string) (*doc.Node, error) {
	if !IsStub(n) {
		if c := n.Child(key); c != nil {
			return c, nil
		}
		return nil, fmt.Errorf("%w: %q has no child %q", ErrNotFound, n.PathKey(), key)
	}
	// JSON arrays key their elements by index: build just that one.
	total := ChildCount(n)
	if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < total {
		if kids, _, err := f.children(n, i, i+1); err == nil && len(kids) == 1 && kids[0].PathKey() == key {
			return kids[0], nil
		}
	}
	for from := 0; from < total; from += childPage {
		kids, _, err := f.children(n, from, from+childPage)
		if err != nil {
			return nil, err
		}
		for _, c := range kids {
			if c.PathKey() == key {
				return c, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: %q has no child %q", ErrNotFound, n.PathKey(), key)
}

// Node returns the node at path (its keys from the root; empty: the root), building stubs
// along the way. A stub is returned as a stub: ask Children for its children.
func (f *File) Node(path []string) (*doc.Node, error) {
	if f.Doc == nil || f.Doc.Root == nil {
		return nil, fmt.Errorf("%w: the file has no document", ErrNotFound)
	}
	n := f.Doc.Root
	for _, k := range path {
		c, err := f.child(n, k)
		if err != nil {
			return nil, err
		}
		n = c
	}
	return n, nil
}

// ChildrenOf returns the children [from, to) of n (a node of this file's document, held or
// built) and how many it has.
func (f *File) ChildrenOf(n *doc.Node, from, to int) ([]*doc.Node, int, error) {
	return f.children(n, from, to)
}

// Children returns the children [from, to) of the node at path and how many it has.
func (f *File) Children(path []string, from, to int) ([]*doc.Node, int, error) {
	n, err := f.Node(path)
	if err != nil {
		return nil, 0, err
	}
	return f.children(n, from, to)
}

// Walk visits every node in document order (a node, then its children), building stubs page by
// page, starting after the node at path after (nil: from the root itself). visit returns false
// to stop; Walk then returns the path of the last node visited, from which a later Walk
// resumes. It returns nil when the whole document was walked.
func (f *File) Walk(after []string, visit func(path []string, n *doc.Node) bool) ([]string, error) {
	if f.Doc == nil || f.Doc.Root == nil {
		return nil, nil
	}
	// Rebuild the chain of ancestors of after, with each one's child position, then continue
	// from there: resuming costs the depth of after, not the nodes before it.
	// Each frame keeps its own page of children, so coming back up from a child's subtree
	// does not build the parent's page again (with one page for the whole walk, every child
	// that had children cost a page of its siblings: quadratic in a lazy array's length).
	type frame struct {
		n        *doc.Node
		path     []string
		next     int // the next child to visit
		page     []*doc.Node
		pageFrom int
	}
	stack := []frame{{n: f.Doc.Root, path: []string{}}}
	if after == nil {
		if !visit(nil, f.Doc.Root) {
			return []string{}, nil
		}
	} else {
		for _, k := range after {
			top := &stack[len(stack)-1]
			c, i, err := f.childIndexOf(top.n, k)
			if err != nil {
				return nil, err
			}
			top.next = i + 1
			stack = append(stack, frame{n: c, path: appendPath(top.path, k)})
		}
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		total := ChildCount(top.n)
		if top.next >= total {
			stack = stack[:len(stack)-1]
			continue
		}
		// Fetch children a page at a time (held children are a slice: no cost).
		if top.page == nil || top.next < top.pageFrom || top.next >= top.pageFrom+len(top.page) {
			kids, _, err := f.children(top.n, top.next, top.next+childPage)
			if err != nil {
				return nil, err
			}
			if len(kids) == 0 {
				stack = stack[:len(stack)-1]
				continue
			}
			top.page, top.pageFrom = kids, top.next
		}
		c := top.page[top.next-top.pageFrom]
		top.next++
		p := appendPath(top.path, c.PathKey())
		if !visit(p, c) {
			return p, nil
		}
		if ChildCount(c) > 0 {
			stack = append(stack, frame{n: c, path: p})
		}
	}
	return nil, nil
}

func appendPath(p []string, k string) []string {
	q := make([]string, len(p)+1)
	copy(q, p)
	q[len(p)] = k
	return q
}

// childIndexOf returns n's child with key key and its position.
func (f *File) childIndexOf(n *doc.Node, key string) (*doc.Node, int, error) {
	if !IsStub(n) {
		for i, c := range n.Children {
			if c.PathKey() == key {
				return c, i, nil
			}
		}
		return nil, 0, fmt.Errorf("%w: %q has no child %q", ErrNotFound, n.PathKey(), key)
	}
	total := ChildCount(n)
	if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < total {
		if kids, _, err := f.children(n, i, i+1); err == nil && len(kids) == 1 && kids[0].PathKey() == key {
			return kids[0], i, nil
		}
	}
	for from := 0; from < total; from += childPage {
		kids, _, err := f.children(n, from, from+childPage)
		if err != nil {
			return nil, 0, err
		}
		for j, c := range kids {
			if c.PathKey() == key {
				return c, from + j, nil
			}
		}
	}
	return nil, 0, fmt.Errorf("%w: %q has no child %q", ErrNotFound, n.PathKey(), key)
}

// Search finds nodes whose key, label, value or detail contains q (ASCII case folded), in
// document order after the node at path after (nil: from the start). It stops after max hits
// (at most 1,000) or after visiting maxVisit nodes (0: no bound), and returns the hits' paths
// and where to resume (nil when the document was searched to its end).
func (f *File) Search(q string, after []string, max, maxVisit int) (hits [][]string, next []string, err error) {
	q = strings.ToLower(q)
	if q == "" {
		return nil, nil, nil
	}
	if max <= 0 || max > 1000 {
		max = 1000
	}
	visited := 0
	next, err = f.Walk(after, func(p []string, n *doc.Node) bool {
		visited++
		if Matches(n, q) {
			hits = append(hits, p)
			if len(hits) >= max {
				return false
			}
		}
		return maxVisit <= 0 || visited < maxVisit
	})
	return hits, next, err
}

// Matches is Search's rule: n's key, label, value or detail holds q, ASCII case folded (q in
// lower case). Front ends that stream hits as they walk use it too.
func Matches(n *doc.Node, q string) bool {
	for _, s := range [...]string{n.Key, n.Label, n.Value, n.Detail} {
		if s != "" && strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

// Locate returns the path of the smallest node whose span in source ("" for the file itself,
// or a member path) holds byte off: the instruction in a stream, the record in a table, the
// value in a JSON member, the field in a header. It builds only the stubs on the way down.
func (f *File) Locate(source string, off int64) ([]string, error) {
	if f.Doc == nil || f.Doc.Root == nil {
		return nil, fmt.Errorf("%w: the file has no document", ErrNotFound)
	}
	var best []string
	bestLen := int64(-1)
	var walk func(n *doc.Node, path []string, depth int) error
	walk = func(n *doc.Node, path []string, depth int) error {
		if depth > 4096 {
			return nil
		}
		if s := n.Span; s != nil && s.Source == source {
			if off < s.Offset || off >= s.Offset+max(s.Length, 1) {
				return nil // nothing below holds it either: children nest in their parent's bytes
			}
			if bestLen < 0 || s.Length <= bestLen {
				best, bestLen = path, s.Length
			}
		}
		if kind, rest := doc.ParseRef(n.Ref); kind == doc.RefMember && source != "" && rest != source {
			return nil // another member's content
		}
		if IsStub(n) && (n.Span == nil || n.Span.Source != source) {
			return nil // never build a stub that cannot hold the byte
		}
		total := ChildCount(n)
		if IsStub(n) && total > childPage && !locateLinear {
			if kind, _ := doc.ParseRef(n.Ref); kind == doc.RefJSON {
				c, ok, err := f.itemAt(n, total, source, off)
				if err != nil {
					return err
				}
				if ok {
					if c == nil {
						return nil
					}
					return walk(c, appendPath(path, c.PathKey()), depth+1)
				}
			}
		}
		for from := 0; from < total; from += childPage {
			kids, _, err := f.children(n, from, from+childPage)
			if err != nil {
				return err
			}
			for _, c := range kids {
				if err := walk(c, appendPath(path, c.PathKey()), depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(f.Doc.Root, []string{}, 0); err != nil {
		return nil, err
	}
	if best == nil {
		return nil, fmt.Errorf("%w: no node holds byte %d of %q", ErrNotFound, off, source)
	}
	return best, nil
}

// locateLinear makes Locate walk every page of a JSON stub (the tests' oracle for itemAt).
var locateLinear bool

// itemAt finds the item of a JSON stub n (total items) that can hold byte off of source: a
// JSON container's items lie in its bytes in order without overlapping, so it is the last
// one that starts at or before off, found by halving. Each probe builds one item (a lazy
// container parses from its nearest mark, not from its start), so a byte deep in 72,000
// vars costs ~17 items, not every page before it (a linear walk of def.json's vars was
// 0.4 s natively, seconds in the page). ok is false when an item has no span in source
// (the caller then walks the pages); c is nil when no item can hold the byte.
func (f *File) itemAt(n *doc.Node, total int, source string, off int64) (c *doc.Node, ok bool, err error) {
	start := func(i int) (*doc.Node, int64, bool, error) {
		kids, _, err := f.children(n, i, i+1)
		if err != nil || len(kids) != 1 {
			return nil, 0, false, err
		}
		k := kids[0]
		if k.Span == nil || k.Span.Source != source {
			return nil, 0, false, nil
		}
		return k, k.Span.Offset, true, nil
	}
	lo, hi := 0, total // the items before lo start at or before off; those from hi after it
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		_, at, ok, err := start(mid)
		if err != nil || !ok {
			return nil, false, err
		}
		if at <= off {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return nil, true, nil
	}
	k, _, ok, err := start(lo - 1)
	if err != nil || !ok {
		return nil, false, err
	}
	return k, true, nil
}
