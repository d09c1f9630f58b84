package inspect

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// checkLinks asserts every Link and RowLink under n names a node of root.
func checkLinks(t *testing.T, root, n *doc.Node) int {
	t.Helper()
	count := 0
	resolve := func(where, l string) {
		if l == "" {
			return
		}
		count++
		p, ok := doc.LinkPath(l)
		if !ok || root.Find(p...) == nil {
			t.Errorf("%s links to %q, which names no node", where, l)
		}
	}
	n.Walk(func(path []string, c *doc.Node) bool {
		resolve(c.PathKey(), c.Link)
		if c.Table != nil {
			if len(c.Table.RowLinks) != 0 && len(c.Table.RowLinks) != len(c.Table.Rows) {
				t.Errorf("%s: %d row links for %d rows", c.PathKey(), len(c.Table.RowLinks), len(c.Table.Rows))
			}
			for _, l := range c.Table.RowLinks {
				resolve(c.PathKey()+" row", l)
			}
		}
		return true
	})
	return count
}

func TestOverviewOfMatmul(t *testing.T) {
	f := openRealBytes(t, "nkipy/matmul_small.neff")
	root := f.Doc.Root
	ov := root.Children[0]
	if ov.Kind != doc.KindOverview || ov.Key != "overview" {
		t.Fatalf("first child %s %q, want the overview", ov.Kind, ov.Key)
	}
	target := ov.Find(OverviewModel, "target")
	if target == nil || target.Attrs[doc.AttrTarget] != "cayman" || target.Attrs[AttrInstances] != "trn2" || target.Value != "AWS Trainium2 (NeuronCore-v3)" {
		t.Errorf("target %+v", target)
	}
	if c := ov.Find(OverviewModel, "compiler"); c == nil || c.Value != "neuronx-cc 2.23.6484.0+3b612583" {
		t.Errorf("compiler %+v", c)
	}
	io := ov.Child(OverviewIO).Table
	want := [][]string{
		{"in", "x", "float16", "[128, 256]", "65536"},
		{"in", "y", "float16", "[256, 128]", "65536"},
		{"out", "output0", "float16", "[128, 128]", "32768"},
		{"out", "output0", "float16", "[128, 128]", "32768"},
	}
	for i, w := range want {
		if i >= len(io.Rows) || !equalRow(io.Rows[i], w) {
			t.Errorf("io row %d = %v, want %v", i, io.Rows, w)
		}
	}
	// The grid: each cell's count is its stream's word count, its mix sums to it.
	cells := 0
	for _, c := range ov.Child(OverviewEngines).Children {
		ps := f.Program.Stream(c.Span.Source)
		if ps == nil || ps.ISA == nil {
			t.Fatalf("cell %s names no stream", c.Key)
		}
		cells++
		if c.Attrs[AttrCount] != strconv.Itoa(ps.ISA.Len()) {
			t.Errorf("%s: count %s, stream has %d words", c.Key, c.Attrs[AttrCount], ps.ISA.Len())
		}
		if c.Link != doc.NodeLink("members", ps.Core.Name+"/", ps.Engine.Name+".bin") {
			t.Errorf("%s links to %q", c.Key, c.Link)
		}
	}
	if cells != 10 {
		t.Errorf("%d engine cells, want 2 cores × 5 engines", cells)
	}
	// Each core loads exp_and_others once; its 15 functions are listed with an error figure,
	// and the links reach each core's own copy of the set.
	act := ov.Child(OverviewActivation)
	if len(act.Children) != 2 {
		t.Fatalf("%d set rows, want one per core", len(act.Children))
	}
	for _, set := range act.Children {
		core := set.Attrs[AttrCore]
		if set.Attrs[AttrSet] != "exp_and_others" || set.Link != doc.NodeLink("activation", "exp_and_others "+core) {
			t.Errorf("set row %s: %v link %q", set.Key, set.Attrs, set.Link)
		}
		if len(set.Children) != 15 {
			t.Errorf("%s: %d functions, want 15", core, len(set.Children))
		}
		for _, fn := range set.Children {
			if fn.Attrs[AttrFunction] == "exp_400p" {
				ulp, err := strconv.ParseFloat(fn.Attrs[AttrMaxULP], 64)
				if err != nil || ulp <= 0 || ulp > 1000 {
					t.Errorf("exp_400p max ulp %q: want a small positive figure", fn.Attrs[AttrMaxULP])
				}
				if fn.Link != doc.NodeLink("activation", "exp_and_others "+core, "functions", "exp_400p") {
					t.Errorf("exp_400p of %s links to %q", core, fn.Link)
				}
			}
		}
	}
	if v := ov.Children[0]; v.Key != OverviewVerdict || v.Attrs[AttrVerdict] != VerdictOpen || v.Child(CheckHash).Value != "ok" || v.Child(CheckRuntime).Value != "accepted" {
		t.Errorf("verdict %+v", v)
	}
	fs := ov.Child(OverviewFindings)
	if fs.Attrs[AttrCause] != "" || len(fs.Children) != 1 || fs.Children[0].Key != CauseOther || len(fs.Children[0].Table.Rows) != len(f.Doc.Findings()) {
		t.Errorf("findings of a sound file: %+v", fs)
	}
	// An engine's stream field (Model › cores › sg00 › engines › PE › stream) leads to the member.
	if s := root.Find("model", "cores", "sg00", "engines", "PE", "stream"); s == nil || s.Link != doc.NodeLink("members", "sg00/", "PE.bin") {
		t.Errorf("the PE stream field: %+v", s)
	}
	checkLinks(t, root, root.Child("model"))
	if n := checkLinks(t, root, ov); n < 40 {
		t.Errorf("only %d links in the overview", n)
	}
}

// Listing rows lead somewhere: an ActivationTableLoad to its core's set, a DMA trigger to the
// core's queues, and (attn_v6) an Activate to its function.
func TestListingRowLinks(t *testing.T) {
	f := openRealBytes(t, "nkipy/matmul_small.neff")
	tab, _, err := f.Rows("stream:sg01/Activation.bin", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.RowLinks) != len(tab.Rows) || tab.RowLinks[2] != doc.NodeLink("activation", "exp_and_others sg01") {
		t.Errorf("sg01 Activation row links %q", tab.RowLinks)
	}
	tab, _, _ = f.Rows("stream:sg00/Pool.bin", 0, 100)
	dma := 0
	for _, l := range tab.RowLinks {
		if l == doc.NodeLink("model", "cores", "sg00", "dma_queues", "qPoolDynamic") { // the queue's own row (rowlinks.go)
			dma++
		}
	}
	if dma != 4 {
		t.Errorf("%d Pool rows link to sg00's queue qPoolDynamic, want its 4 PseudoDmaDirect2d words", dma)
	}
	checkLinks(t, f.Doc.Root, &doc.Node{Table: tab})

	// Activate rows: matmul_small calls no function; attn_v6 (in ../shared) calls 136.
	if _, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "Activate rows linking to their function"); !ok {
		return
	}
	g := openRealBytes(t, "nki-moe/attn_v6.neff")
	fns := 0
	for _, ps := range g.Program.Streams {
		if ps.ISA == nil || ps.Engine.Name != "Activation" {
			continue
		}
		tab, _, err := g.Rows(doc.StreamRef(ps.Member), 0, ps.ISA.Len())
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range tab.RowLinks {
			if ps.ISA.Word(i)[0] == 0x21 && l != "" {
				fns++
				if p, _ := doc.LinkPath(l); g.Doc.Root.Find(p...) == nil || g.Doc.Root.Find(p...).Kind != doc.KindPWPFunction {
					t.Errorf("Activate row %d links to %q, not a function", i, l)
				}
			}
		}
	}
	if fns != 136 {
		t.Errorf("%d Activate rows link to their function, want attn_v6's 136", fns)
	}
}

func equalRow(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// One root cause is named first and explains the findings it causes.
func TestOverviewRootCause(t *testing.T) {
	good := realfiles.Read(t, "nkipy/matmul_small.neff")
	bad := bytes.Clone(good)
	bad[len(bad)-1] ^= 0xff // a padding byte: the MD5 over bytes 1024..EOF no longer matches
	png := []byte("\x89PNG\r\n\x1a\n" + string(make([]byte, 2000)))
	for _, c := range []struct {
		name  string
		data  []byte
		cause string
	}{
		{"cut.neff", good[:5000], CauseTruncated},
		{"bad-hash.neff", bad, CauseHash},
		{"picture.neff", png, CauseNotNEFF},
	} {
		t.Run(c.cause, func(t *testing.T) {
			f := openBytes(c.name, c.data)
			ov := f.Doc.Root.Child("overview")
			if ov == nil {
				t.Fatal("no overview")
			}
			fs := ov.Child(OverviewFindings)
			if fs.Attrs[AttrCause] != c.cause || len(fs.Children) == 0 || fs.Children[0].Key != c.cause {
				t.Fatalf("cause %q, groups %d, want %s first", fs.Attrs[AttrCause], len(fs.Children), c.cause)
			}
			g := fs.Children[0]
			if g.Detail == "" || len(g.Table.Rows) == 0 {
				t.Errorf("the %s group explains nothing: %+v", c.cause, g)
			}
			errs := 0
			for _, r := range g.Table.Rows {
				if r[0] == doc.Error {
					errs++
				}
			}
			if errs == 0 {
				t.Errorf("no error under the root cause %s", c.cause)
			}
			checkLinks(t, f.Doc.Root, ov)
			if c.cause == CauseNotNEFF && f.Doc.Root.Attrs[doc.AttrLooksLike] != "png" {
				t.Errorf("a PNG named .neff: looks_like %q", f.Doc.Root.Attrs[doc.AttrLooksLike])
			}
		})
	}
}

// BenchmarkOverview: building the overview node, against a whole open of the same file (it
// must stay a small part of it), on every real NEFF at hand.
func BenchmarkOverview(b *testing.B) {
	for _, p := range realfiles.Glob("*/*.neff") {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(p), func(b *testing.B) {
			t0 := time.Now()
			f := openBytes(p, data)
			open := time.Since(t0)
			root := &doc.Node{Children: f.Doc.Root.Children[1:]}
			b.ResetTimer()
			for b.Loop() {
				Overview(f, root)
			}
			b.ReportMetric(float64(open.Microseconds())/1000, "open-ms")
		})
	}
}

// The hottest-source-lines answer says how many instruction words have no kernel source
// line; counted here again from every stream's listing (a row whose source cell names no
// "file:line" with a line above 0, or a stream without a source column).
func TestOverviewCountsWordsWithoutLine(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	checked := 0
	for _, p := range paths {
		rel := filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
		t.Run(rel, func(t *testing.T) {
			f := openPath(t, p)
			hot := f.Doc.Root.Children[0].Child(OverviewHotLines)
			if hot == nil {
				t.Skip("no kernel lines")
			}
			var want, words int
			for _, ps := range f.Program.Streams {
				tab, total, err := f.Rows(doc.StreamRef(ps.Member), 0, int(ps.Count))
				if err != nil {
					t.Fatal(err)
				}
				words += total
				si := col(tab, "source")
				for _, r := range tab.Rows {
					if si < 0 || !hasLine(r[si]) {
						want++
					}
				}
			}
			if got := hot.Attrs[doc.AttrNoLine]; got != strconv.Itoa(want) {
				t.Errorf("no_line %q, the listings have %d of %d words without a kernel line", got, want, words)
			}
			t.Logf("%d of %d instruction words have no kernel line", want, words)
			checked++
		})
	}
	if checked == 0 {
		t.Error("no real NEFF has kernel lines")
	}
}

// hasLine says whether a listing's source cell ("conv2d.py:107 BIR-name") names a line above 0.
func hasLine(cell string) bool {
	first, _, _ := strings.Cut(cell, " ")
	i := strings.LastIndexByte(first, ':')
	if i < 0 {
		return false
	}
	n, err := strconv.Atoi(first[i+1:])
	return err == nil && n > 0
}
