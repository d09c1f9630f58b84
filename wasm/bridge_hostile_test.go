//go:build js && wasm

package main

import (
	"runtime"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// TestHostileClassesSurvive opens every first hostile class in the core under Node with
// the worker's budget (the page's defaults, scaled-down files so the test stays quick): each
// open answers (a document, never an abort), the wasm heap stays bounded, and the core still
// answers the next call.
func TestHostileClassesSurvive(t *testing.T) {
	c := core(t)
	scale := map[string]float64{"many-members": 0.05, "json-many": 0.1, "json-wide": 0.1, "bomb": 0.05, "blob-flood": 0.02,
		// the later container and manifest classes
		"symlink-flood": 0.02, "zero-block-flood": 0.02, "pax-flood": 0.02, "act-missing": 0.1, "def-missing": 0.1, "many-cores": 0.1,
		// the sync and memory model's classes (TestSchedHostileClassesAnswer runs them whole):
		// 20,000 queues allocate 220 MiB in the open's overview alone
		"sched-dma-lanes": 0.1}
	for _, h := range neffbuild.HostileClasses() {
		s := scale[h.Name]
		if s == 0 {
			s = 1
		}
		raw := h.Build(s)
		// A small budget through the open's arguments, as the page passes its own.
		res, perr := c.invoke("open", map[string]any{"file": u8(raw), "name": h.Name + ".neff", "fingerprint": false,
			"maxMemory": 8 << 20, "maxValues": 50_000, "maxMembers": 10_000, "maxInflated": 32 << 20}, nil)
		if perr != nil {
			t.Fatalf("%s: open failed: %s %s", h.Name, perr.Code, perr.Message)
		}
		d := decodeDoc(t, res.Get("doc"))
		if d.Root == nil {
			t.Fatalf("%s: no document", h.Name)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("%s: %d bytes, heap in use %d MiB, sys %d MiB", h.Name, len(raw), ms.HeapInuse>>20, ms.Sys>>20)
		if ms.HeapInuse > 256<<20 {
			t.Errorf("%s: wasm heap in use %d MiB", h.Name, ms.HeapInuse>>20)
		}
		// json-many's arrays are lazy past 4,096 items (checked, not built): they open whole
		// within this small budget, as stubs, and no limit is reached.
		if h.Name == "json-many" && (hasLimitFinding(d.Root) || !hasStub(d.Root)) {
			t.Errorf("%s: a limit was reached, or its arrays are not stubs", h.Name)
		}
		c.must("close", map[string]any{"handle": res.Get("handle").Int()})
		// The core still answers.
		c.must("contextArches", map[string]any{"size": 17638})
	}
}

func hasStub(n *doc.Node) bool {
	stub := false
	n.Walk(func(_ []string, c *doc.Node) bool {
		stub = stub || c.Attrs[doc.AttrMore] != ""
		return !stub
	})
	return stub
}

// hasLimitFinding says whether a limit refused something: a finding of a budget.* code.
func hasLimitFinding(n *doc.Node) bool {
	found := false
	n.Walk(func(_ []string, c *doc.Node) bool {
		for _, f := range c.Findings {
			found = found || strings.HasPrefix(string(f.Code), "budget.")
		}
		return !found
	})
	return found
}

// TestBigJSONClassesWithPageDefaults: the two reported files that killed the core under
// Node (50 members × 200,000 JSON values; one 60 MiB [0,0,…] member), at full size, opened
// with no limits passed: the heap stays bounded, and nothing is cut.
func TestBigJSONClassesWithPageDefaults(t *testing.T) {
	c := core(t)
	for _, h := range neffbuild.HostileClasses() {
		if h.Name != "json-many" && h.Name != "json-wide" {
			continue
		}
		raw := h.Build(1)
		res, perr := c.invoke("open", map[string]any{"file": u8(raw), "name": h.Name + ".neff", "fingerprint": false}, nil)
		if perr != nil {
			t.Fatalf("%s: open failed: %s %s", h.Name, perr.Code, perr.Message)
		}
		d := decodeDoc(t, res.Get("doc"))
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t.Logf("%s (%d bytes): heap in use %d MiB, sys %d MiB", h.Name, len(raw), ms.HeapInuse>>20, ms.Sys>>20)
		if ms.Sys > 512<<20 {
			t.Errorf("%s: wasm memory %d MiB", h.Name, ms.Sys>>20)
		}
		// The JSON is lazy: its values are checked, not built, so the files open
		// whole within the budget and their big arrays are stubs (children on demand), not cut.
		if hasLimitFinding(d.Root) {
			t.Errorf("%s: a limit was reached: the lazy JSON should fit", h.Name)
		}
		if !hasStub(d.Root) {
			t.Errorf("%s: no JSON stub: the big arrays are held or cut", h.Name)
		}
		c.must("close", map[string]any{"handle": res.Get("handle").Int()})
		c.must("contextArches", map[string]any{"size": 17638})
	}
}

// The sync and memory model's hostile classes at full size, with the page's default budget:
// schedule and memory answer (the sweep's bands, the clocks and resolve are charged and
// bounded), the wasm heap stays bounded, and no call ends in an internal error. The memory
// call on sched-sweep-bands aborted the core before.
func TestSchedHostileClassesAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the model of three hostile classes")
	}
	c := core(t)
	for _, class := range neffbuild.HostileClasses() {
		if !strings.HasPrefix(class.Name, "sched-") {
			continue
		}
		h := c.openBytes(class.Name+".neff", class.Build(1)).Get("handle")
		for _, call := range []string{"schedule", "memory"} {
			if _, perr := c.invoke(call, map[string]any{"handle": h}, nil); perr != nil {
				t.Errorf("%s: %s failed: %s %s", class.Name, call, perr.Code, perr.Message)
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			t.Logf("%s %s: heap in use %d MiB, sys %d MiB", class.Name, call, ms.HeapInuse>>20, ms.Sys>>20)
			if ms.HeapInuse > 512<<20 {
				t.Errorf("%s %s: wasm heap in use %d MiB", class.Name, call, ms.HeapInuse>>20)
			}
		}
		c.must("close", map[string]any{"handle": h.Int()})
	}
}
