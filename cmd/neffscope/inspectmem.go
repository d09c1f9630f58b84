package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// softMemoryFloor is the least the process's soft memory limit is set to (tuneMemoryLimit).
const softMemoryFloor = 80 << 20

// writeHeadroom is how far above what is live the collector lets a writer's garbage grow
// (roomToWrite).
const writeHeadroom = 64 << 20

// headroom is writeHeadroom while a writer walks what an open left live; 0 for the opens'
// tighter rule.
var headroom atomic.Int64

// tuneMemoryLimit keeps the process's soft memory limit just above what is live, re-set after
// every collection: at softMemoryFloor while little is live, else live × 5/4 + 8 MiB during
// an open and live + writeHeadroom during a writer. Measured on the real-shaped NEFFs (issue
// 13) against the fixed limits before it (160 MiB, raised to the budget's 256 MiB for an
// open), peak RSS and wall time: info on 32 MB 109 → 89 MiB and on 256 MB 122 → 106 MiB in
// the same time. The opens' rule costs writers time: inspect --json on 32 MB 164 → 136 MiB
// but 12 → 17-19 s, disasm --json 137 → 108 MiB and 5-11% slower, so a writer gets
// the headroom it had (the same figures as before). A fixed 64 MiB limit gave info on 32 MB
// 77 MiB but 16% slower: the collector ran back to back while the 30 MB debug-info JSON was
// parsed beside 35 MB live. stop ends the tuning (the tests'; the CLI tunes until it exits).
func tuneMemoryLimit() (stop func()) {
	var stopped atomic.Bool
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var mu sync.Mutex // set runs on the finalizer goroutine and in roomToWrite
	set := func() {
		mu.Lock()
		defer mu.Unlock()
		if stopped.Load() {
			return
		}
		metrics.Read(s)
		limit := int64(softMemoryFloor)
		if s[0].Value.Kind() == metrics.KindUint64 {
			live := int64(s[0].Value.Uint64())
			if h := headroom.Load(); h > 0 {
				limit = max(limit, live+h)
			} else {
				limit = max(limit, live+live/4+8<<20)
			}
		}
		debug.SetMemoryLimit(limit)
	}
	set()
	retune = set
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
	return func() { stopped.Store(true); retune = nil }
}

// retune sets the limit now (nil until tuneMemoryLimit: the tests run commands without it).
var retune func()

// roomToWrite gives a writer that walks a document an open built (inspect --json, disasm)
// writeHeadroom above what is live until restore: with the opens' rule the collector ran
// every few MB of the writer's garbage. It returns what puts the opens' rule back.
func roomToWrite() (restore func()) {
	headroom.Store(writeHeadroom)
	if retune != nil {
		retune()
	}
	return func() { headroom.Store(0) }
}
