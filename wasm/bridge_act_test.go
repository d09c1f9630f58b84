//go:build js && wasm

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/ncfw"
)

const (
	attnNEFF  = "../../shared/testdata-real/nki-moe/attn_v6.neff"
	attnLoose = "../../shared/testdata-real/nki-moe/attn_v6/sg00"
	// exp(0.5) as the exp_400p tables compute it (spec activation.md §8).
	exp05Bits = "3fd308b1"
)

func decodeNode(t *testing.T, v js.Value) *doc.Node {
	t.Helper()
	checkNoError(t, v)
	var n doc.Node
	if _, err := n.UnmarshalMsg(jsBytes(v)); err != nil {
		t.Fatalf("msgpack node does not decode: %v", err)
	}
	return &n
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("real test data absent (%v)", err)
	}
	return b
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
func checkExp05(t *testing.T, c, h js.Value, ref string) *doc.Node {
	t.Helper()
	var first *doc.Node
	for _, x := range []any{"0.5", "0x3f000000", 0.5} {
		n := decodeNode(t, c.Call("evaluate", h, ref, x, ""))
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
	file := readFile(t, attnNEFF)
	c := core(t)
	calls := 0
	res := c.Call("open", sliceReader(t, file, &calls), len(file), "attn_v6.neff")
	checkNoError(t, res)
	d := decodeDoc(t, res.Get("doc"))
	fn := findFunction(d.Root, "exp_400p")
	if fn == nil || !strings.HasPrefix(fn.Ref, "pwp:") {
		t.Fatalf("no exp_400p function node with a pwp: ref in attn_v6.neff: %+v", fn)
	}
	h := res.Get("handle")
	n := checkExp05(t, c, h, fn.Ref)
	// The bucket's bytes are served by bytes(): the record's d0 is the float32 the node shows.
	rec := jsBytes(c.Call("bytes", h, n.Span.Source, n.Span.Offset, 32))
	if len(rec) != 32 {
		t.Fatalf("bucket record: %d bytes", len(rec))
	}

	plot := decodeNode(t, c.Call("plot", h, fn.Ref, -10.0, 10.0, 4096, ""))
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

	for _, bad := range [][]any{
		{h, "pwp:nope#exp_400p", "0.5", ""},
		{h, fn.Ref, "zebra", ""},
		{h, fn.Ref, "0x123456789", ""},
		{h, fn.Ref, "0.5", "fast"},
	} {
		if v := c.Call("evaluate", bad...); v.Get("error").Type() != js.TypeString {
			t.Errorf("evaluate%v: no error", bad[1:])
		}
	}
	for _, bad := range [][]any{{h, fn.Ref, 1.0, 1.0, 100, ""}, {h, fn.Ref, 0.0, 1.0, 1, ""}, {h, fn.Ref, 0.0, 1.0, 1 << 20, ""}} {
		if v := c.Call("plot", bad...); v.Get("error").Type() != js.TypeString {
			t.Errorf("plot%v: no error", bad[2:])
		}
	}
}

func TestOpenGroupJoinsLooseActivationFiles(t *testing.T) {
	if _, err := os.Stat(attnLoose); err != nil {
		t.Skipf("real test data absent (%v)", err)
	}
	c := core(t)
	list := js.Global().Get("Array").New()
	calls := 0
	add := func(name string, data []byte) {
		e := js.Global().Get("Object").New()
		e.Set("readSlice", sliceReader(t, data, &calls))
		e.Set("size", len(data))
		e.Set("name", name)
		list.Call("push", e)
	}
	set := "natural_log_exp_and_others"
	for _, name := range []string{"act_info.json", set + ".json", set + "_bkt.bin", set + "_ctrl.bin"} {
		add(name, readFile(t, filepath.Join(attnLoose, name)))
	}
	other := bytes.Repeat([]byte{0xde, 0xad}, 100)
	add("other.bin", other)

	res := c.Call("openGroup", list)
	checkNoError(t, res)
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
	want := readFile(t, filepath.Join(attnLoose, set+"_bkt.bin"))[n.Span.Offset : n.Span.Offset+32]
	if got := jsBytes(c.Call("bytes", h, n.Span.Source, n.Span.Offset, 32)); !bytes.Equal(got, want) {
		t.Errorf("bytes of the bucket record % x, want % x", got, want)
	}
	if h.Int() == res.Index(1).Get("handle").Int() {
		t.Error("two documents share a handle")
	}
	if v := c.Call("openGroup", js.Global().Get("Array").New()); v.Get("error").Type() != js.TypeString {
		t.Error("openGroup([]) gave no error")
	}
}

func TestOpenContextAndSwitchArch(t *testing.T) {
	c := core(t)
	ctx := ncfw.SampleContext(12, "patterned")
	calls := 0
	res := c.Call("openContext", sliceReader(t, ctx, &calls), len(ctx), "ctx.bin", 12, "")
	checkNoError(t, res)
	d := decodeDoc(t, res.Get("doc"))
	if d.Kind != doc.KindNCFWContext || d.Root.Value != "arch 12 (cayman), rc 0" {
		t.Fatalf("context doc %s %q", d.Kind, d.Root.Value)
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
	readsBefore := calls

	for _, tc := range []struct {
		arch  uint32
		value string
	}{{5, "arch 5 (sunda), rc 0"}, {7, "rc 22"}, {12, "arch 12 (cayman), rc 0"}} {
		r := c.Call("recontext", h, tc.arch, "model-x")
		checkNoError(t, r)
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
	if calls != readsBefore {
		t.Errorf("recontext read the file again (%d JS reads)", calls-readsBefore)
	}
	// The bytes behind the context are the file's.
	if got := jsBytes(c.Call("bytes", h, "", 24, 8)); !bytes.Equal(got, ctx[24:32]) {
		t.Errorf("bytes 24..32 % x, want % x", got, ctx[24:32])
	}

	arches := decodeNode(t, c.Call("contextArches", len(ctx)))
	guess := ""
	for _, r := range arches.Table.Rows {
		if r[4] == "true" {
			guess = r[0]
		}
	}
	if len(arches.Table.Rows) != 4 || guess != "12" {
		t.Errorf("contextArches(%d): %v, guess %q", len(ctx), arches.Table.Rows, guess)
	}
	c.Call("close", h)
	if v := c.Call("recontext", h, 5, ""); v.Get("error").Type() != js.TypeString {
		t.Error("recontext after close gave no error")
	}
}
