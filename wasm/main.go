//go:build js && wasm

// Command wasm is the neffscope core compiled to WebAssembly. It runs inside the page's Web
// Worker (www/worker.js), registers globalThis.neffscopeCore with synchronous entry points
// (open, bytes, close) and then waits for calls. See bridge.go for the calling convention.
package main

func main() {
	register()
	select {} // keep the Go runtime alive: the worker calls in through neffscopeCore
}
