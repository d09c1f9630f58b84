package inspect

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// On real NEFFs the hot lines count exactly the words mapped to a kernel line, per line and
// per engine (srcmap.Index.Lines walks every word), most first; the overview's answer lists the
// top five, each linking to its line node.
func TestHotLinesCountMappedWords(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		f := openBytes(name, b)
		x := f.Program.Source
		h := HotLinesOf(f)
		if h.Pending || h.Refused != "" || (len(h.Lines) == 0) != (x.WithLine == 0) {
			t.Fatalf("%s: hot lines %+v", name, h)
		}
		if x.WithLine == 0 {
			// No kernel lines (the debug info names BIR instructions only): no answer.
			if hot := f.Doc.Root.Find("overview", OverviewHotLines); hot != nil {
				t.Errorf("%s: a hot-lines answer without kernel lines: %+v", name, hot)
			}
			continue
		}
		if h.Words != int64(x.WithLine) {
			t.Errorf("%s: hot lines count %d words, the source index %d with a line", name, h.Words, x.WithLine)
		}
		// The same counts from the word walk, keyed by the line nodes' keys.
		keys := map[LineID]string{}
		for _, n := range f.Doc.Root.Find("model", "source", SourceLines).Children {
			line, _ := strconv.Atoi(n.Attrs[AttrSourceLine])
			keys[LineID{File: n.Attrs[AttrSourceFile], Kernel: n.Attrs[AttrKernel], Line: line}] = n.Key
		}
		want := map[string]map[string]int{} // line node key → engine → words
		for _, l := range x.Lines() {
			m := map[string]int{}
			for member, ws := range l.Words {
				m[f.Program.Stream(member).Engine.Name] += len(ws)
			}
			want[keys[LineID{File: l.File, Kernel: l.Kernel, Line: l.Line}]] = m
		}
		if len(want) != len(h.Lines) {
			t.Errorf("%s: %d hot lines, %d kernel lines", name, len(h.Lines), len(want))
		}
		for i, l := range h.Lines {
			if i > 0 && l.Total > h.Lines[i-1].Total {
				t.Errorf("%s: line %s (%d) after %s (%d)", name, l.Name(), l.Total, h.Lines[i-1].Name(), h.Lines[i-1].Total)
			}
			sum := int32(0)
			for e, c := range l.PerEngine {
				sum += c
				if int(c) != want[l.Key][h.Engines[e]] {
					t.Errorf("%s %s %s: %d words, the walk %d", name, l.Key, h.Engines[e], c, want[l.Key][h.Engines[e]])
				}
			}
			if sum != l.Total {
				t.Errorf("%s %s: total %d, engines sum to %d", name, l.Key, l.Total, sum)
			}
		}
		hot := f.Doc.Root.Find("overview", OverviewHotLines)
		if hot == nil || hot.Table == nil {
			t.Fatalf("%s: no hottest source lines answer", name)
		}
		if n := min(5, len(h.Lines)); len(hot.Table.Rows) != n || len(hot.Children) != n {
			t.Errorf("%s: the answer lists %d rows, %d nodes, want %d", name, len(hot.Table.Rows), len(hot.Children), n)
		}
		for i, c := range hot.Children {
			line := linkNode(t, f, c.Link)
			if line.Attrs[AttrSourceLine] != strconv.Itoa(h.Lines[i].Line) || line.Attrs[AttrSourceFile] != h.Lines[i].File || hot.Table.RowLinks[i] != c.Link {
				t.Errorf("%s: row %d (%s) links to %+v", name, i, c.Label, line.Attrs)
			}
			if c.Attrs[AttrCount] != strconv.Itoa(int(h.Lines[i].Total)) {
				t.Errorf("%s: row %d count %q, want %d", name, i, c.Attrs[AttrCount], h.Lines[i].Total)
			}
		}
	}
}

// While the source lines are deferred the answer says pending, as the kernel source answer
// does; once mapped it lists the lines.
func TestHotLinesPending(t *testing.T) {
	b := realfiles.Read(t, "nkipy/matmul_small.neff")
	f := Open("matmul_small.neff", bytes.NewReader(b), int64(len(b)), Options{DeferSource: true})
	if !f.SourcePending() {
		t.Fatal("the deferred open mapped the source lines")
	}
	if h := HotLinesOf(f); !h.Pending || len(h.Lines) != 0 {
		t.Errorf("pending open: hot lines %+v", h)
	}
	hot := f.Doc.Root.Find("overview", OverviewHotLines)
	if hot == nil || hot.Attrs[AttrPending] == "" || hot.Table != nil {
		t.Fatalf("pending open: hot lines answer %+v", hot)
	}
	m, err := f.IndexSource(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	f.ApplySource(m)
	hot = f.Doc.Root.Find("overview", OverviewHotLines)
	if hot == nil || hot.Attrs[AttrPending] != "" || hot.Table == nil || len(hot.Table.Rows) != 1 {
		t.Fatalf("mapped: hot lines answer %+v", hot)
	}
	if got := hot.Children[0].Attrs[AttrCount]; got != "20" {
		t.Errorf("matmul_small's one kernel line: %s words, want 20", got)
	}
}
