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

// wasmMemoryFloor is the least the soft memory limit is set to (wasmMemoryLimit). The wasm
// heap never shrinks, so its peak is what the tab keeps. On the real-shaped 32 MB NEFF in
// Chromium (BenchmarkPageBig, two opens each): a fixed 256 MiB let the wasm memory grow to
// 161 MiB, 112 MiB held it at 130 MiB in the same time (5.4-6.3 s against 5.4-7.1), and 80
// MiB at 124 MiB but slower (6.0-8.5 s, the source lines 16-17 s against 13-14): the
// collector runs on the open's one thread.
const wasmMemoryFloor = 112 << 20

// wasmMemoryLimit is the soft memory limit for what is live: the floor, or what GOGC 50 would
// allow (live × 1.5 + 16 MiB) once more is live, so a big open that holds what its budget
// allowed does not run the collector back to back (the runtime's out-of-memory abort is what
// the limit keeps away).
func wasmMemoryLimit(live int64) int64 { return max(wasmMemoryFloor, live+live/2+16<<20) }

// tuneCollector sets how the collector runs in the worker, and in the tests and benchmarks
// that measure the core as the worker runs it (the test binary does not run main); once per
// process, however often it is called.
var tuneCollector = sync.OnceFunc(func() {
	gctune.Follow(wasmMemoryLimit)
	// In wasm the collector runs on the one thread the open runs on: at GOGC 100 it was about
	// a third of a small NEFF's open (matmul_small warm 413 → 321 ms in all at 400; the wasm
	// memory 42 → 57 MiB). The limit above still bounds big opens, where it binds first.
	debug.SetGCPercent(400)
})

func main() {
	tuneCollector()
	register()
	select {} // keep the Go runtime alive: the worker calls in through neffscopeCore
}
