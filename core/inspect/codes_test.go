package inspect

import (
	"bytes"
	"errors"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// codeChecker checks that every finding it is shown carries a code of doc.Codes, and counts
// the codes seen.
type codeChecker struct {
	t    *testing.T
	seen map[doc.Code]int
}

func (c *codeChecker) node(where string, n *doc.Node) {
	for _, f := range n.Findings {
		c.seen[f.Code]++
		if f.Code == "" {
			c.t.Errorf("%s: a finding has no code: %s %q", where, f.Severity, f.Message)
		} else if _, ok := doc.Meaning(f.Code); !ok {
			c.t.Errorf("%s: code %q is not in doc.Codes (%q)", where, f.Code, f.Message)
		}
	}
}

// tree checks a held tree.
func (c *codeChecker) tree(where string, n *doc.Node) {
	n.Walk(func(_ []string, n *doc.Node) bool { c.node(where, n); return true })
}

// file checks the document of an open file, with what its stubs build (up to max nodes), and
// each stream's instructions' nodes (up to maxWords a stream).
func (c *codeChecker) file(f *File, max, maxWords int) {
	nodes := 0
	if _, err := f.Walk(nil, func(_ []string, n *doc.Node) bool {
		c.node(f.Name, n)
		nodes++
		return nodes < max
	}); err != nil {
		c.t.Errorf("%s: walk: %v", f.Name, err)
	}
	if f.Program == nil {
		return
	}
	for _, s := range f.Program.Streams {
		if s.ISA == nil {
			continue
		}
		for i := range min(s.ISA.Len(), maxWords) {
			n, err := f.Instruction(doc.StreamRef(s.Member), i)
			if err != nil {
				c.t.Errorf("%s %s %d: %v", f.Name, s.Member, i, err)
				break
			}
			c.tree(f.Name+" "+s.Member, n)
		}
	}
}

// TestEveryFindingHasACode opens every real NEFF and every hostile class (under a small
// budget, so the limits' findings appear too) and checks that every finding they carry has a
// code of the one table (core/fleet checks the analyses across files).
func TestEveryFindingHasACode(t *testing.T) {
	c := &codeChecker{t: t, seen: map[doc.Code]int{}}
	reals := 0
	for _, p := range realfiles.Glob("*/*.neff") {
		f := openPath(t, p)
		c.file(f, 1<<30, 1<<30)
		c.tree(p+" profile", Profile(f))
		reals++
	}
	if reals == 0 {
		t.Skip("no real NEFFs")
	}
	if testing.Short() {
		t.Logf("%d codes seen on the real files; -short leaves the hostile classes to make test-core", len(c.seen))
		return
	}
	lim := budget.Limits{Inflate: 64 << 20, Memory: 16 << 20, Values: 100_000, Members: 20_000, Rows: 100_000}
	for _, h := range neffbuild.HostileClasses() {
		raw := hostileRaw(t, h.Name, hostileScale(h.Name))
		f := Open(h.Name+".neff", bytes.NewReader(raw), int64(len(raw)), Options{Limits: lim})
		// Every node up to 200,000, but each stream's first 4,096 words only: a hostile
		// stream is one word repeated (table-loads) or the sample's few, so later words
		// carry no code the first did not.
		c.file(f, 200_000, 4096)
	}
	// A limit's own finding and the hostile classes' must be among what was checked.
	for _, want := range []doc.Code{doc.CodeBudgetMemory, doc.CodeNeffInflateLimit, doc.CodeJSONDuplicateKey, doc.CodeTarBadPax,
		doc.CodeDbgAttrsLimit, doc.CodeDbgNamesLimit, doc.CodeISALoadsLimit} {
		if c.seen[want] == 0 {
			t.Errorf("no finding with code %s was seen", want)
		}
	}
	t.Logf("%d codes seen: %v", len(c.seen), c.seen)
}

// TestNotFoundIsASentinel: a path or byte that names nothing fails with an error that wraps
// ErrNotFound, so the bridge gives it the not-found code by identity, not by its text.
func TestNotFoundIsASentinel(t *testing.T) {
	f := openPath(t, realfiles.Path(t, "nkipy/matmul_small.neff"))
	_, err1 := f.Node([]string{"no such child"})
	_, _, err2 := f.Children([]string{"members", "no such member"}, 0, 10)
	_, err3 := f.Locate("no such source", 0)
	for i, err := range []error{err1, err2, err3} {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("call %d: %v does not wrap ErrNotFound", i+1, err)
		}
	}
}
