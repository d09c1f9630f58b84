package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestMemoryLimitFollowsLive: the soft limit starts at the floor, follows what is live after
// each collection (the opens' rule: live × 5/4 + 8 MiB), gives a writer writeHeadroom, and
// goes back to the opens' rule when the writer is done.
func TestMemoryLimitFollowsLive(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	runtime.GC()
	stop := tuneMemoryLimit()
	defer stop()
	if got := debug.SetMemoryLimit(-1); got != softMemoryFloor {
		t.Fatalf("with little live the limit is %d MiB, want the floor %d", got>>20, softMemoryFloor>>20)
	}
	held := make([][]byte, 160) // 160 MiB live
	for i := range held {
		held[i] = make([]byte, 1<<20)
		held[i][0] = 1
	}
	want := func(what string, lo, hi int64) {
		t.Helper()
		var got int64
		for range 100 { // the finalizer runs on its own goroutine, soon after the collection
			runtime.GC()
			if got = debug.SetMemoryLimit(-1); got >= lo && got <= hi {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.Fatalf("%s: the limit is %d MiB, want %d-%d", what, got>>20, lo>>20, hi>>20)
	}
	want("160 MiB live, an open", 160<<20*5/4+8<<20, 170<<20*5/4+8<<20)
	restore := roomToWrite()
	want("160 MiB live, a writer", 160<<20+writeHeadroom, 170<<20+writeHeadroom)
	restore()
	want("160 MiB live, the writer done", 160<<20*5/4+8<<20, 170<<20*5/4+8<<20)
	runtime.KeepAlive(held)
}
