//go:build js && wasm

// Command wasm is the neffscope core compiled to WebAssembly. It runs inside the page's Web
// Worker (www/worker.js), registers globalThis.neffscopeCore (call(method, args, emit) →
// Promise, for every method of wasm/protocol) and then waits for calls. See bridge.go.
package main

import (
	"runtime/debug"
	"sync"

	"github.com/neffscope/neffscope/internal/gctune"
)

// wasmMemoryFloor is the least heap the collector's goal is set to (wasmHeapGoal). The wasm
// heap never shrinks, so its peak is what the tab keeps. On the real-shaped 32 MB NEFF in
// Chromium (BenchmarkPageBig, two opens each): a fixed 256 MiB let the wasm memory grow to
// 161 MiB, 112 MiB held it at 130 MiB in the same time (5.4-6.3 s against 5.4-7.1), and 80
// MiB at 124 MiB but slower (6.0-8.5 s, the source lines 16-17 s against 13-14): the
// collector runs on the open's one thread.
const wasmMemoryFloor = 112 << 20

// wasmHeapGoal is the collector's next goal over what is live: five times live for a small
// heap (GOGC 400: in wasm the collector runs on the one thread the open runs on, and at GOGC
// 100 it was about a third of a small NEFF's open, matmul_small warm 413 → 321 ms at 400, the
// wasm memory 42 → 57 MiB), at most the floor or what GOGC 50 would allow (live × 1.5 + 16
// MiB), so a big open that holds what its budget allowed neither grows the heap five times
// nor runs the collector back to back. It is reached through GOGC, not a soft memory limit
// (gctune.FollowGoal says why).
func wasmHeapGoal(live int64) int64 {
	return min(5*live, max(wasmMemoryFloor, live+live/2+16<<20))
}

// wasmMemoryCeiling is a soft memory limit far above any goal: a heap past it is near the
// 4 GiB a wasm memory can have, where collecting back to back beats the runtime's abort.
const wasmMemoryCeiling = 2 << 30

// tuneCollector sets how the collector runs in the worker, and in the tests and benchmarks
// that measure the core as the worker runs it (the test binary does not run main); once per
// process, however often it is called.
var tuneCollector = sync.OnceFunc(func() {
	debug.SetMemoryLimit(wasmMemoryCeiling)
	gctune.FollowGoal(wasmHeapGoal)
})

func main() {
	tuneCollector()
	register()
	select {} // keep the Go runtime alive: the worker calls in through neffscopeCore
}
