//go:build js && wasm

// Command wasm is the neffscope core compiled to WebAssembly. It runs inside the page's Web
// Worker (www/worker.js), registers globalThis.neffscopeCore (call(method, args, emit) →
// Promise, for every method of wasm/protocol) and then waits for calls. See bridge.go.
package main

import (
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/neffscope/neffscope/internal/gctune"
)

// wasmMemoryFloor is the least the soft memory limit is set to (softLimit). The wasm
// heap never shrinks, so its peak is what the tab keeps. On the real-shaped 32 MB NEFF in
// Chromium (BenchmarkPageBig, two opens each): a fixed 256 MiB let the wasm memory grow to
// 161 MiB, 112 MiB held it at 130 MiB in the same time (5.4-6.3 s against 5.4-7.1), and 80
// MiB at 124 MiB but slower (6.0-8.5 s, the source lines 16-17 s against 13-14): the
// collector runs on the open's one thread.
const wasmMemoryFloor = 112 << 20

// softLimit is the soft memory limit for what is live: the floor, or what GOGC 50 would allow
// (live × 1.5 + 16 MiB) once more is live, so a big open that holds what its budget allowed
// does not run the collector back to back (the runtime's out-of-memory abort is what the limit
// keeps away).
func softLimit(live int64) int64 { return max(wasmMemoryFloor, live+live/2+16<<20) }

// wasmMemoryLimit is the soft limit gctune.Follow keeps: softLimit, except through a sync call
// (duringSync), which has none.
func wasmMemoryLimit(live int64) int64 {
	if inSync.Load() {
		return wasmMemoryCeiling
	}
	return softLimit(live)
}

// wasmMemoryCeiling is the soft limit through a sync call: far above any goal, a heap past it
// is near the 4 GiB a wasm memory can have, where collecting back to back beats the abort.
const wasmMemoryCeiling = 2 << 30

// wasmPercent is GOGC outside a sync call: in wasm the collector runs on the one thread the
// open runs on, and at GOGC 100 it was about a third of a small NEFF's open (matmul_small warm
// 413 → 321 ms in all at 400; the wasm memory 42 → 57 MiB). The limit above binds first on
// big opens.
const wasmPercent = 400

var (
	// retuneLimit sets the soft limit from what is live now (nil until tuneCollector).
	retuneLimit func()
	inSync      atomic.Bool
)

// tuneCollector sets how the collector runs in the worker, and in the tests and benchmarks
// that measure the core as the worker runs it (the test binary does not run main); once per
// process, however often it is called.
var tuneCollector = sync.OnceFunc(func() {
	retuneLimit, _ = gctune.Follow(wasmMemoryLimit)
	debug.SetGCPercent(wasmPercent)
})

// duringSync runs a sync call with the collector paced by GOGC alone, to the goal the soft
// limit would give at its start (live × 1.5 + 16 MiB, at least the floor). The finalizer that
// retunes the limit runs only when a call blocks, and a sync call never does: a limit left
// below a live heap that grew meanwhile ran the collector back to back (a 1,000-core NEFF's
// estimate took minutes in Chromium instead of 4 s), while a percentage goes up with the heap.
func duringSync(run func()) {
	if retuneLimit == nil { // a test that does not tune the collector
		run()
		return
	}
	live := gctune.Live()
	inSync.Store(true)
	debug.SetMemoryLimit(wasmMemoryCeiling)
	debug.SetGCPercent(gctune.Percent(live, min(5*live, softLimit(live))))
	defer func() {
		inSync.Store(false)
		debug.SetGCPercent(wasmPercent)
		retuneLimit()
	}()
	run()
}

func main() {
	tuneCollector()
	register()
	select {} // keep the Go runtime alive: the worker calls in through neffscopeCore
}
