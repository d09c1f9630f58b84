// Package gctune keeps the Go collector's next goal just above what is live, for the CLI (a
// soft memory limit, Follow) and the wasm core (GOGC, FollowGoal): a fixed setting either lets
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
	return follow(func(live int64) { debug.SetMemoryLimit(limit(live)) })
}

// Bounds of the percentage FollowGoal sets.
const (
	minPercent = 20
	maxPercent = 400
)

// FollowGoal sets GOGC, now and after every collection, so that the collector's next goal is
// about goal(live) (between minPercent and maxPercent over live; maxPercent before the first
// collection). It is for one thread that may run a long call without blocking, as the wasm
// core does: the finalizer that retunes runs only when that call blocks, and a soft limit left
// below a live heap that grew meanwhile runs the collector back to back (a 1,000-core NEFF's
// estimate in Chromium: minutes of collection instead of 5 s), while a percentage left stale
// only lets the heap grow by it before the next collection.
func FollowGoal(goal func(live int64) int64) (retune, stop func()) {
	return follow(func(live int64) { debug.SetGCPercent(Percent(live, goal(live))) })
}

// Percent is the GOGC that makes goal the next goal over live, within its bounds.
func Percent(live, goal int64) int {
	if live <= 0 {
		return maxPercent
	}
	return int(min(maxPercent, max(minPercent, (goal-live)*100/live)))
}

// follow calls apply(live) now and after every collection.
func follow(apply func(live int64)) (retune, stop func()) {
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
		apply(live)
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
