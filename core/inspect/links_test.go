package inspect

import (
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// linkNode follows a Link to its node in f's document.
func linkNode(t *testing.T, f *File, link string) *doc.Node {
	t.Helper()
	p, ok := doc.LinkPath(link)
	if !ok {
		t.Fatalf("link %q does not parse", link)
	}
	n := f.Doc.Root.Find(p...)
	if n == nil {
		t.Fatalf("link %q leads nowhere", link)
	}
	return n
}

// parseWords reads a line node's AttrWords: member → word indexes.
func parseWords(t *testing.T, s string) map[string][]int {
	t.Helper()
	out := map[string][]int{}
	for _, part := range strings.Split(s, ";") {
		member, ranges, ok := strings.Cut(part, ":")
		if !ok {
			t.Fatalf("words %q: part %q has no member", s, part)
		}
		for _, r := range strings.Split(ranges, ",") {
			a, b, isRange := strings.Cut(r, "-")
			lo, err1 := strconv.Atoi(a)
			hi := lo
			var err2 error
			if isRange {
				hi, err2 = strconv.Atoi(b)
			}
			if err1 != nil || err2 != nil || hi < lo {
				t.Fatalf("words %q: bad range %q", s, r)
			}
			for i := lo; i <= hi; i++ {
				out[member] = append(out[member], i)
			}
		}
	}
	return out
}

// Every kernel line is a node under model › source › lines whose words are exactly the words
// the source index maps to that line, and every instruction with a source line links to it.
func TestSourceLineNodes(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		f := openPath(t, p)
		lines := f.Doc.Root.Find("model", "source", SourceLines)
		if lines == nil {
			t.Fatalf("%s: no model › source › lines", p)
		}
		if len(lines.Children) != len(lines.Table.Rows) {
			t.Errorf("%s: %d line nodes for %d table rows", p, len(lines.Children), len(lines.Table.Rows))
		}
		want := f.Program.Source.Lines()
		for k, n := range lines.Children {
			if k >= len(want) {
				break
			}
			l := want[k]
			if n.Attrs[AttrSourceFile] != l.File || n.Attrs[AttrSourceLine] != strconv.Itoa(l.Line) {
				t.Errorf("%s: line node %s says %s:%s, want %s:%d", p, n.Key, n.Attrs[AttrSourceFile], n.Attrs[AttrSourceLine], l.File, l.Line)
			}
			got := parseWords(t, n.Attrs[AttrWords])
			for m, ws := range l.Words {
				if fmtIntsComma(got[m]) != fmtIntsComma(ws) {
					t.Errorf("%s: line %s in %s lists words %v, want %v", p, n.Key, m, got[m], ws)
				}
				// Each of its words links back to this node from the instruction's source field.
				s, _ := f.streamFor(doc.StreamRef(m))
				ins, err := f.Instruction(doc.StreamRef(m), ws[0])
				if err != nil || s == nil {
					t.Fatal(err)
				}
				src := ins.Child("source")
				if src == nil || src.Link == "" {
					t.Errorf("%s %s #%d: the source field has no link", p, m, ws[0])
					continue
				}
				if linkNode(t, f, src.Link) != n {
					t.Errorf("%s %s #%d: the source field links to %q, not line %s", p, m, ws[0], src.Link, n.Key)
				}
			}
		}
		ov := f.Doc.Root.Find("overview", OverviewSource)
		want1 := strconv.Itoa(len(lines.Children)) + " kernel line"
		if len(lines.Children) == 0 {
			want1 = "no kernel lines"
		}
		if ov == nil || ov.Link != "model/source" || !strings.Contains(ov.Value, want1) {
			t.Errorf("%s: the overview's source answer is %+v", p, ov)
		}
	}
}

func fmtIntsComma(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}

// A variable's node lists exactly the 0xD4 words whose source or destination names it, links to
// its def.json entry, and a 0xD4 instruction's var fields link back to it.
func TestVariableLinks(t *testing.T) {
	f := openReal(t, "nkipy/matmul_small.neff")
	total := 0
	for _, c := range f.Program.Model.Cores {
		vars := f.Doc.Root.Find("model", "cores", c.Name, "vars")
		if vars == nil || len(vars.Children) != len(c.Vars) {
			t.Fatalf("%s: vars node %v, want one child per var (%d)", c.Name, vars, len(c.Vars))
		}
		for _, v := range c.Vars {
			n := vars.Child(v.Name)
			if n.Span == nil || *n.Span != *v.Entry(c.DefPath) {
				t.Errorf("%s var %s: span %v, want the def.json entry %v", c.Name, v.Name, n.Span, v.Entry(c.DefPath))
			}
			entry := linkNode(t, f, n.Link)
			if entry.Span == nil || entry.Span.Source != c.DefPath {
				t.Errorf("%s var %s links to %q, not into %s", c.Name, v.Name, n.Link, c.DefPath)
			}
			// The instructions that name it, counted independently.
			var want []string
			for _, ps := range f.Program.Streams {
				if ps.Core != c {
					continue
				}
				for i := range ps.ISA.Len() {
					src, dst, ok := isa.Direct2dAddrs(ps.ISA.Word(i))
					if !ok {
						continue
					}
					for _, a := range []isa.DmaAddr{src, dst} {
						if id, ok := dmaVarID(c, a); ok && id == v.ID {
							want = append(want, ps.Member+"#"+strconv.Itoa(i))
						}
					}
				}
			}
			var got []string
			if n.Table != nil {
				for k, r := range n.Table.Rows {
					got = append(got, r[0]+"#"+r[1])
					sp := n.Table.RowSpans[k]
					if i, _ := strconv.Atoi(r[1]); sp.Source != r[0] || sp.Offset != int64(i)*64 || sp.Length != 64 {
						t.Errorf("%s var %s row %v: span %v is not the word", c.Name, v.Name, r, sp)
					}
					ins, err := f.Instruction(doc.StreamRef(r[0]), mustAtoi(r[1]))
					if err != nil {
						t.Fatal(err)
					}
					back := ins.Find("resolved", r[3]+" var")
					if back == nil || linkNode(t, f, back.Link) != n {
						t.Errorf("%s #%s: no %s var field linking back to %s", r[0], r[1], r[3], v.Name)
					}
				}
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("%s var %s: instructions %v, want %v", c.Name, v.Name, got, want)
			}
			total += len(got)
		}
	}
	if total == 0 {
		t.Error("no variable is named by any instruction in matmul_small (its 0xD4 words move x, y and output0)")
	}
}

func mustAtoi(s string) int {
	i, _ := strconv.Atoi(s)
	return i
}

// A byte of an activation _bkt.bin or _ctrl.bin lands on its record: every record is a node
// whose span is exactly its bytes, and Locate picks it (or a field inside it).
func TestActivationRecordsOwnTheirBytes(t *testing.T) {
	f := openReal(t, "nkipy/matmul_small.neff")
	act := f.Doc.Root.Child("activation")
	sets := 0
	for _, set := range act.Children {
		if set.Kind != doc.KindPWPSet {
			continue
		}
		sets++
		for _, key := range []string{"bkt", "ctrl"} {
			g := set.Child(key)
			if g == nil || !IsStub(g) {
				t.Fatalf("%s has no %s records stub", set.Key, key)
			}
			// The records are built on demand: as nodes (Children) and as rows (Rows), the
			// same ref, the same spans.
			setPath := []string{"activation", set.PathKey(), key}
			kids, total, err := f.Children(setPath, 0, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			rows, rtotal, err := f.Rows(g.Ref, 0, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if len(kids) != total || total != ChildCount(g) || rtotal != total || len(rows.Rows) != total || total == 0 {
				t.Fatalf("%s %s: %d of %d record nodes, %d of %d rows, stub says %d", set.Key, key, len(kids), total, len(rows.Rows), rtotal, ChildCount(g))
			}
			src := g.Span.Source
			stride := g.Span.Length / int64(total)
			for i, r := range kids {
				want := doc.Span{Source: src, Offset: int64(i) * stride, Length: stride}
				if r.Span == nil || *r.Span != want || *r.Span != rows.RowSpans[i] {
					t.Fatalf("%s %s record %d: span %v, want %v", set.Key, key, i, r.Span, want)
				}
			}
			// Locate: the last byte of a record in the middle, and the first of the last one.
			for _, i := range []int{total / 2, total - 1} {
				off := int64(i)*stride + stride - 1
				p, err := f.Locate(src, off)
				if err != nil {
					t.Fatal(err)
				}
				n, err := f.Node(p)
				if err != nil {
					t.Fatal(err)
				}
				if n == nil || n.Span == nil || n.Span.Length > stride || off < n.Span.Offset || off >= n.Span.Offset+n.Span.Length {
					t.Errorf("%s byte %d lands on %v (%v), not inside record %d", src, off, p, n.Span, i)
				}
				if n.Kind == doc.KindGroup {
					t.Errorf("%s byte %d lands on the whole table %v", src, off, p)
				}
			}
		}
	}
	if sets != 2 {
		t.Errorf("%d sets in matmul_small, want exp_and_others of sg00 and sg01", sets)
	}
}
