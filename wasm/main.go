//go:build js && wasm

// Command wasm is the neffscope core compiled to WebAssembly. It runs inside the page's Web
// Worker (www/worker.js), registers globalThis.neffscopeCore (call(method, args, emit) →
// Promise, for every method of wasm/protocol) and then waits for calls. See bridge.go.
package main

import "runtime/debug"

func main() {
	// The open's budget bounds what is kept; this keeps garbage from growing the wasm heap
	// (which never shrinks) towards the runtime's out-of-memory abort.
	debug.SetMemoryLimit(256 << 20)
	// In wasm the collector runs on the one thread the open runs on: at GOGC 100 it was about
	// a third of a small NEFF's open (matmul_small warm 413 → 321 ms in all at 400; the wasm
	// memory 42 → 57 MiB). The limit above still bounds big opens, where it binds first.
	debug.SetGCPercent(400)
	register()
	select {} // keep the Go runtime alive: the worker calls in through neffscopeCore
}
