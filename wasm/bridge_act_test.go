//go:build js && wasm

package main

import (
	"bytes"
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/ncfw"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// exp(0.5) as the exp_400p tables compute it (spec activation.md §8).
const exp05Bits = "3fd308b1"

// readFile reads a real file by its name under testdata-real (internal/realfiles finds it).
func readFile(t *testing.T, rel string) []byte {
	t.Helper()
	return realfiles.Read(t, rel)
}

// findFunction returns the first node labelled name of kind pwp-function.
func findFunction(root *doc.Node, name string) *doc.Node {
	var found *doc.Node
	root.Walk(func(_ []string, n *doc.Node) bool {
		if found == nil && n.Kind == doc.KindPWPFunction && n.Label == name {
			found = n
		}
		return found == nil
	})
	return found
}

func field(n *doc.Node, label string) string {
	for _, c := range n.Children {
		if c.Label == label {
			return c.Value
		}
	}
	return ""
}

// checkExp05 evaluates exp_400p at 0.5 (as a decimal and as bits) and checks the bits, the
// path and the bucket record's span (32 bytes in the bkt blob).
func checkExp05(t *testing.T, c *testCore, h js.Value, ref string) *doc.Node {
	t.Helper()
	var first *doc.Node
	for _, x := range []any{"0.5", "0x3f000000", 0.5} {
		n := decodeNode(t, c.must("evaluate", map[string]any{"handle": h, "ref": ref, "x": x, "mode": ""}).Get("node"))
		if n.Kind != doc.KindPWPEval || !strings.Contains(n.Value, "0x"+exp05Bits) {
			t.Fatalf("evaluate(%v) = %s %q, want a pwp-eval with 0x%s", x, n.Kind, n.Value, exp05Bits)
		}
		if n.Span == nil || n.Span.Length != 32 || !strings.HasSuffix(n.Span.Source, "_bkt.bin") || n.Span.Offset%32 != 0 {
			t.Fatalf("evaluate(%v) bucket span %+v, want 32 aligned bytes of a _bkt.bin", x, n.Span)
		}
		if p := field(n, "path"); !strings.Contains(p, "bkt") {
			t.Errorf("path %q names no bucket", p)
		}
		if first == nil {
			first = n
		} else if *first.Span != *n.Span {
			t.Errorf("evaluate(%v) used bucket %+v, the decimal input %+v", x, n.Span, first.Span)
		}
	}
	return first
}

func TestEvaluateAndPlotRealNEFF(t *testing.T) {
	file := readFile(t, "nkipy/matmul_small.neff")
	c := core(t)
	res := c.openBytes("matmul_small.neff", file)
	d := decodeDoc(t, res.Get("doc"))
	fn := findFunction(d.Root, "exp_400p")
	if k, _ := doc.ParseRef(fn.Ref); fn == nil || k != doc.RefPWP {
		t.Fatalf("no exp_400p function node with a pwp: ref in matmul_small.neff: %+v", fn)
	}
	h := res.Get("handle")
	n := checkExp05(t, c, h, fn.Ref)
	// The bucket's bytes are served by bytes(): the record's d0 is the float32 the node shows.
	rec := jsBytes(c.must("bytes", map[string]any{"handle": h, "source": n.Span.Source, "off": n.Span.Offset, "n": 32}).Get("bytes"))
	if len(rec) != 32 {
		t.Fatalf("bucket record: %d bytes", len(rec))
	}

	pr := c.must("plot", map[string]any{"handle": h, "ref": fn.Ref, "lo": -10.0, "hi": 10.0, "n": 4096, "mode": ""})
	if pr.Get("ms").Type() != js.TypeNumber {
		t.Error("plot gave no ms")
	}
	plot := decodeNode(t, pr.Get("node"))
	if plot.Kind != doc.KindPWPPlot || len(plot.Series) < 5 {
		t.Fatalf("plot: kind %s with %d series", plot.Kind, len(plot.Series))
	}
	names := []string{}
	for _, s := range plot.Series {
		names = append(names, s.Name)
		if len(s.X) != 4096 || len(s.Y) != 4096 || s.X[0] != -10 || s.X[4095] != 10 {
			t.Errorf("series %s: %d/%d points from %g to %g", s.Name, len(s.X), len(s.Y), s.X[0], s.X[len(s.X)-1])
		}
	}
	// The emulated and true curves agree to exp_400p's accuracy (spec §9: rel error ≤ 1.2e-5).
	emu, ref := plot.Series[0].Y, plot.Series[1].Y
	for i := range emu {
		if d := (emu[i] - ref[i]) / ref[i]; d > 1.2e-5 || d < -1.2e-5 {
			t.Fatalf("series %v: at x=%g emulated %g vs true %g", names, plot.Series[0].X[i], emu[i], ref[i])
		}
	}
	kinds := map[string]int{}
	for _, r := range plot.Table.Rows {
		kinds[r[0]]++
	}
	if kinds["octave"] == 0 || kinds["section"] == 0 {
		t.Errorf("plot boundaries: %v", kinds)
	}
	t.Logf("plot series %v, boundaries %v", names, kinds)

	ev := func(ref, x, mode string) map[string]any {
		return map[string]any{"handle": h, "ref": ref, "x": x, "mode": mode}
	}
	c.fails("evaluate", ev(doc.PWPRef("nope", "exp_400p"), "0.5", ""), protocol.NotFound, "nope")
	c.fails("evaluate", ev(fn.Ref, "zebra", ""), protocol.BadRequest, "zebra")
	c.fails("evaluate", ev(fn.Ref, "0x123456789", ""), protocol.BadRequest, "8 hex digits")
	c.fails("evaluate", ev(fn.Ref, "0.5", "fast"), protocol.NotFound, "fast")
	pl := func(lo, hi float64, n int) map[string]any {
		return map[string]any{"handle": h, "ref": fn.Ref, "lo": lo, "hi": hi, "n": n}
	}
	if _, err := c.invoke("plot", pl(1, 1, 100), nil); err == nil {
		t.Error("plot over an empty range: no error")
	}
	c.fails("plot", pl(0, 1, 1), protocol.Limit, "between 2 and")
	c.fails("plot", pl(0, 1, 1<<20), protocol.Limit, "between 2 and")
}

func TestOpenGroupJoinsLooseActivationFiles(t *testing.T) {
	c := core(t)
	var list []any
	add := func(name string, data []byte) {
		e := u8(data)
		e.Set("name", name) // as the page fallback names a File's bytes
		list = append(list, e)
	}
	const loose = "nkipy/matmul_small/sg00/"
	set := "exp_and_others"
	for _, name := range []string{"act_info.json", set + ".json", set + "_bkt.bin", set + "_ctrl.bin"} {
		add(name, readFile(t, loose+name))
	}
	other := bytes.Repeat([]byte{0xde, 0xad}, 100)
	add("other.bin", other)

	out := c.must("openGroup", map[string]any{"files": list})
	res := out.Get("docs")
	if res.Length() != 2 {
		t.Fatalf("openGroup gave %d documents, want 2 (the joined set and other.bin)", res.Length())
	}
	joined := decodeDoc(t, res.Index(0).Get("doc"))
	if joined.Kind != doc.KindPWP {
		t.Fatalf("first document is %q, want pwp", joined.Kind)
	}
	if d := decodeDoc(t, res.Index(1).Get("doc")); d.File != "other.bin" || d.Size != int64(len(other)) {
		t.Errorf("second document %s (%d bytes), want other.bin", d.File, d.Size)
	}
	fn := findFunction(joined.Root, "exp_400p")
	if fn == nil {
		t.Fatal("no exp_400p in the joined loose files")
	}
	h := res.Index(0).Get("handle")
	n := checkExp05(t, c, h, fn.Ref)
	if n.Span.Source != set+"_bkt.bin" {
		t.Errorf("bucket source %q, want the dropped %s_bkt.bin", n.Span.Source, set)
	}
	want := readFile(t, loose+set+"_bkt.bin")[n.Span.Offset : n.Span.Offset+32]
	if got := jsBytes(c.must("bytes", map[string]any{"handle": h, "source": n.Span.Source, "off": n.Span.Offset, "n": 32}).Get("bytes")); !bytes.Equal(got, want) {
		t.Errorf("bytes of the bucket record % x, want % x", got, want)
	}
	if h.Int() == res.Index(1).Get("handle").Int() {
		t.Error("two documents share a handle")
	}
	c.fails("openGroup", map[string]any{"files": []any{}}, protocol.Limit, "between 1 and 1000")
}

func TestOpenContextAndSwitchArch(t *testing.T) {
	c := core(t)
	ctx := ncfw.SampleContext(12, "patterned")
	res := c.must("openContext", map[string]any{"file": u8(ctx), "name": "ctx.bin", "arch": 12, "model": ""})
	d := decodeDoc(t, res.Get("doc"))
	if d.Kind != doc.KindNCFWContext || d.Root.Value != "arch 12 (cayman), rc 0" || d.Root.Attrs[doc.AttrArch] != "12" || d.Root.Attrs[doc.AttrRC] != "0" {
		t.Fatalf("context doc %s %q, attrs %v", d.Kind, d.Root.Value, d.Root.Attrs)
	}
	text := d.Root.Child("text")
	want, rc := ncfw.Emit(ctx, "", 12)
	if text == nil || text.Value != string(want) || rc != 0 {
		t.Fatalf("text differs from ncfw.Emit (rc %d, %d vs %d bytes)", rc, len(text.Value), len(want))
	}
	if text.Table == nil || len(text.Table.RowSpans) != len(text.Table.Rows) || len(text.Table.Rows) < 100 {
		t.Fatalf("field map missing or without spans")
	}
	h := res.Get("handle")

	for _, tc := range []struct {
		arch  uint32
		value string
	}{{5, "arch 5 (sunda), rc 0"}, {7, "rc 22"}, {12, "arch 12 (cayman), rc 0"}} {
		r := c.must("recontext", map[string]any{"handle": h, "arch": tc.arch, "model": "model-x"})
		if r.Get("handle").Int() != h.Int() {
			t.Errorf("recontext changed the handle %d → %d", h.Int(), r.Get("handle").Int())
		}
		d := decodeDoc(t, r.Get("doc"))
		if !strings.Contains(d.Root.Value, tc.value) {
			t.Errorf("arch %d: root %q, want %q", tc.arch, d.Root.Value, tc.value)
		}
		if tc.arch == 7 {
			if tx := d.Root.Child("text"); tx != nil && tx.Value != "" {
				t.Errorf("arch 7 (unknown) printed %d bytes", len(tx.Value))
			}
			continue
		}
		want, _ := ncfw.Emit(ctx, "model-x", tc.arch)
		if got := d.Root.Child("text").Value; got != string(want) {
			t.Errorf("arch %d: text differs from ncfw.Emit", tc.arch)
		}
	}
	// The bytes behind the context are the file's.
	if got := jsBytes(c.must("bytes", map[string]any{"handle": h, "source": "", "off": 24, "n": 8}).Get("bytes")); !bytes.Equal(got, ctx[24:32]) {
		t.Errorf("bytes 24..32 % x, want % x", got, ctx[24:32])
	}

	arches := decodeNode(t, c.must("contextArches", map[string]any{"size": len(ctx)}).Get("node"))
	guess := ""
	for _, r := range arches.Table.Rows {
		if r[4] == "true" {
			guess = r[0]
		}
	}
	if len(arches.Table.Rows) != 4 || guess != "12" {
		t.Errorf("contextArches(%d): %v, guess %q", len(ctx), arches.Table.Rows, guess)
	}
	c.must("close", map[string]any{"handle": h})
	c.fails("recontext", map[string]any{"handle": h, "arch": 5}, protocol.NotFound, "not an open libncfw context")
	c.fails("openContext", map[string]any{"file": u8(make([]byte, maxContext+1))}, protocol.Limit, "at most")
}
