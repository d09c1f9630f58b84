//go:build js && wasm

package main

import (
	"fmt"
	"os"
	"testing"
)

// TestSweepFile is scripts/hostilesweep's driver of the core under Node: it opens the file
// NEFFSCOPE_SWEEP_FILE names as the page does (its defaults, the source deferred), then runs
// the calls the page makes after an open (indexSource, the JSON export) and one unrelated
// call, and prints one line the sweep reads ("sweep: open=ok index=ok json=N next=ok").
// The sweep reads the Node process's peak RSS. Without the variable there is nothing to open.
// The collector is tuned as main tunes it in the worker (a soft limit following what is
// live): at the test binary's GOGC 100 with no limit, the wasm memory grew to twice what an
// open left live.
func TestSweepFile(t *testing.T) {
	p := os.Getenv("NEFFSCOPE_SWEEP_FILE")
	if p == "" {
		t.Skip("NEFFSCOPE_SWEEP_FILE names no file (scripts/hostilesweep sets it)")
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	tuneCollector() // as the worker runs: the test binary does not run main
	c := core(t)
	res, perr := c.invoke("open", map[string]any{"file": u8(raw), "name": "sweep.neff", "deferSource": true}, nil)
	raw = nil
	if perr != nil {
		t.Fatalf("open: %s %s", perr.Code, perr.Message)
	}
	h := res.Get("handle").Int()
	index := "ok"
	if _, perr := c.invoke("indexSource", map[string]any{"handle": h}, nil); perr != nil {
		index = perr.Code
	}
	n := 0
	if v, perr := c.invoke("json", map[string]any{"handle": h}, nil); perr == nil {
		n = v.Get("json").Get("byteLength").Int()
	}
	c.must("close", map[string]any{"handle": h})
	c.must("contextArches", map[string]any{"size": 17638})
	fmt.Printf("sweep: open=ok index=%s json=%d next=ok\n", index, n)
}
