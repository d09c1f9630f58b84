// Package gctune keeps the Go collector's next goal just above what is live, for the CLI and
// the wasm core (a soft memory limit, Follow; GOGC, Percent): a fixed setting either lets
// a small open's garbage grow the process (and a wasm heap never shrinks) or runs the
// collector back to back on a big open that holds what its budget allowed.
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
	)
	set := func() {
		mu.Lock()
		defer mu.Unlock()
		if !stopped.Load() {
			debug.SetMemoryLimit(limit(Live()))
		}
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

// Bounds of the percentage Percent gives.
const (
	minPercent = 20
	maxPercent = 400
)

// Percent is the GOGC that makes goal the next goal over live, within its bounds.
func Percent(live, goal int64) int {
	if live <= 0 {
		return maxPercent
	}
	return int(min(maxPercent, max(minPercent, (goal-live)*100/live)))
}

// Live is the heap the last collection found live (0 before the first).
func Live() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		return int64(s[0].Value.Uint64())
	}
	return 0
}
