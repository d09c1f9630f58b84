//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/hlo"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The real modules under the names a cache gives them.
const (
	hloEntryA = "cache/neuronxcc-2.23.6484.0+3b612583/MODULE_17825228117791364669+fad94d7c/"
	hloEntryB = "cache/neuronxcc-2.23.6484.0+3b612583/MODULE_5587948502373595816+fad94d7c/"
)

// realModules reads the module of attn_v6.neff and the one of the attn_v4 profile.
func realModules(t *testing.T) (a, b []byte) {
	t.Helper()
	return realfiles.Read(t, "nki-moe/hlo/MODULE_SyncTensorsGraph.42_17825228117791364669.hlo_module.pb"),
		realfiles.Read(t, "nki-moe/hlo/MODULE_SyncTensorsGraph.42_5587948502373595816.hlo_module.pb")
}

// named is a Uint8Array with a name, as the bridge reads a file argument's name.
func named(data []byte, name string) js.Value {
	v := u8(data)
	v.Set("name", name)
	return v
}

// nativeModule opens a module as the CLI does.
func nativeModule(name string, data []byte) *hlo.Module {
	m, _ := hlo.Open(path.Base(name), bytes.NewReader(data), int64(len(data)), hlo.Options{Budget: budget.New(budget.Page())})
	return m
}

// hloDiff is the CLI's comparison byte for byte: two modules alone, and two cache entries
// with their NEFFs (the same program compiled twice: a spurious recompile).
func TestHLODiffMatchesNative(t *testing.T) {
	a, b := realModules(t)
	neff := readFile(t, "nki-moe/attn_v6.neff")
	c := core(t)
	ha := openIn(t, c, "model.hlo_module.pb", a)
	hb := openIn(t, c, "other.hlo_module.pb", b)

	got := c.must("hloDiff", map[string]any{"a": ha, "b": hb})
	want, _ := fleet.DiffHLOEntries(fleet.HLOEntry{Module: nativeModule("model.hlo_module.pb", a), Name: "model.hlo_module.pb"},
		fleet.HLOEntry{Module: nativeModule("other.hlo_module.pb", b), Name: "other.hlo_module.pb"}).JSON()
	if j := jsBytes(got.Get("json")); !bytes.Equal(j, want) {
		t.Fatalf("modules alone: the bridge's JSON differs from the native:\n%s\nwant\n%s", j, want)
	}
	if got.Get("exit").Int() != 1 {
		t.Errorf("exit %d, want 1 (volatile differences)", got.Get("exit").Int())
	}

	got = c.must("hloDiff", map[string]any{"a": ha, "b": hb, "nameA": hloEntryA + "model.hlo_module.pb", "nameB": hloEntryB + "model.hlo_module.pb",
		"entries": true, "neffA": named(neff, "model.neff"), "neffB": named(neff, "model.neff")})
	side := func(dir string, m []byte) fleet.HLOEntry {
		f := inspect.Open(dir+"model.neff", bytes.NewReader(neff), int64(len(neff)), inspect.Options{Limits: budget.Page()})
		return fleet.HLOEntry{Module: nativeModule(dir+"model.hlo_module.pb", m), Name: dir + "model.hlo_module.pb", Entry: true, NEFF: f, NEFFName: dir + "model.neff"}
	}
	want, _ = fleet.DiffHLOEntries(side(hloEntryA, a), side(hloEntryB, b)).JSON()
	j := jsBytes(got.Get("json"))
	if !bytes.Equal(j, want) {
		t.Fatalf("entries: the bridge's JSON differs from the native:\n%s\nwant\n%s", j, want)
	}
	var d fleet.HLODiff
	if err := json.Unmarshal(j, &d); err != nil {
		t.Fatal(err)
	}
	if d.Verdict != doc.CodeHLOVolatileOnly || d.NEFF == nil || d.NEFF.Code != doc.CodeHLONEFFSame || len(d.Differences) != 1 || d.Differences[0].SpanA == nil || d.Differences[0].SpanB == nil {
		t.Errorf("entries with the same NEFF: %+v", d)
	}
	// A NEFF is not a module.
	hn := openIn(t, c, "model.neff", neff)
	c.fails("hloDiff", map[string]any{"a": ha, "b": hn}, "bad-request", "not an HLO module")
}

// scan with the entry's module: the record's graph and hlo are the CLI's; scanGraphs says of
// the records what neffscope scan says on stderr.
func TestScanGraphsMatchNative(t *testing.T) {
	a, b := realModules(t)
	neff := readFile(t, "nki-moe/attn_v6.neff")
	c := core(t)
	var recs []js.Value
	var native fleet.GraphGroups
	for _, x := range []struct {
		dir string
		m   []byte
	}{{hloEntryA, a}, {hloEntryB, b}} {
		siblings := []string{"model.done", "model.hlo_module.pb", "model.neff"}
		rec := c.must("scan", map[string]any{"file": u8(neff), "path": x.dir + "model.neff", "siblings": js.ValueOf([]any{siblings[0], siblings[1], siblings[2]}),
			"hlo": named(x.m, "model.hlo_module.pb"), "hloPath": x.dir + "model.hlo_module.pb"}).Get("record")
		n := fleet.NewScanRecord(inspect.Open(x.dir+"model.neff", bytes.NewReader(neff), int64(len(neff)), inspect.Options{Fingerprint: true}), x.dir+"model.neff", siblings)
		n.AddHLO(nativeModule(x.dir+"model.hlo_module.pb", x.m), x.dir+"model.hlo_module.pb")
		want, _ := json.Marshal(n)
		if got := js.Global().Get("JSON").Call("stringify", rec).String(); got != string(want) {
			t.Fatalf("scan with hlo:\n%s\nwant\n%s", got, want)
		}
		if rec.Get("graph").Type() != js.TypeString {
			t.Fatalf("no graph on the record")
		}
		recs = append(recs, rec)
		native.Add(n)
	}
	list := js.Global().Get("Array").New()
	for _, r := range recs {
		list.Call("push", r)
	}
	got := c.must("scanGraphs", map[string]any{"records": list})
	lines := native.Lines()
	if n := got.Get("lines").Length(); n != len(lines) {
		t.Fatalf("%d lines, want %d", n, len(lines))
	}
	for i, l := range lines {
		if s := got.Get("lines").Index(i).String(); s != l {
			t.Errorf("line %d: %q\nwant %q", i, s, l)
		}
	}
	g := got.Get("groups").Index(0)
	if got.Get("groups").Length() != 1 || !g.Get("never_hit").Bool() || g.Get("paths").Length() != 2 || !strings.Contains(g.Get("why").String(), "temporary path") {
		t.Errorf("groups: %s", js.Global().Get("JSON").Call("stringify", got.Get("groups")).String())
	}
}
