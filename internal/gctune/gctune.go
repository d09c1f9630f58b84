// Package gctune keeps the Go collector's soft memory limit just above what is live, for the
// CLI and the wasm core: a fixed limit either lets a small open's garbage grow the process
// (and a wasm heap never shrinks) or runs the collector back to back on a big open that holds
// what its budget allowed.
package gctune

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Follow sets the soft memory limit to limit(live) now and after every collection, live
// being the heap the last collection found live (0 before the first). retune sets it now (a
// caller whose rule changed); stop ends the tuning and leaves the limit where it is.
func Follow(limit func(live int64) int64) (retune, stop func()) {
	var (
		stopped atomic.Bool
		mu      sync.Mutex // set runs on the finalizer goroutine and in retune
		s       = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	)
	set := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped.Load() {
			return
		}
		metrics.Read(s)
		var live int64
		if s[0].Value.Kind() == metrics.KindUint64 {
			live = int64(s[0].Value.Uint64())
		}
		debug.SetMemoryLimit(limit(live))
	}
	set()
	// A finalizer runs once, after the collection that finds its object unreachable; re-armed
	// on a new object each time, it runs after every collection.
	type sentinel struct{ _ [16]byte }
	var arm func(*sentinel)
	arm = func(*sentinel) {
		if stopped.Load() {
			return
		}
		set()
		runtime.SetFinalizer(&sentinel{}, arm)
	}
	runtime.SetFinalizer(&sentinel{}, arm)
	return set, func() { stopped.Store(true) }
}
