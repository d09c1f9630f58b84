package gctune

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"
)

// TestFollowsLive: the limit is the rule's for what is live, after every collection, and for a
// rule changed through retune; stop leaves it alone.
func TestFollowsLive(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	runtime.GC()
	var extra atomic.Int64
	retune, stop := Follow(func(live int64) int64 { return max(80<<20, live+live/4+8<<20+extra.Load()) })
	if got := debug.SetMemoryLimit(-1); got != 80<<20 {
		t.Fatalf("with little live the limit is %d MiB, want the floor 80", got>>20)
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
	want("160 MiB live", 160<<20*5/4+8<<20, 170<<20*5/4+8<<20)
	extra.Store(100 << 20)
	retune()
	if got := debug.SetMemoryLimit(-1); got < 160<<20*5/4+108<<20 {
		t.Fatalf("after retune the limit is %d MiB, want the changed rule's", got>>20)
	}
	stop()
	debug.SetMemoryLimit(1 << 40)
	runtime.GC()
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Fatalf("after stop the limit was set again to %d MiB", got>>20)
	}
	runtime.KeepAlive(held)
}

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		live, goal int64
		want       int
	}{
		{0, 1 << 20, maxPercent},
		{10 << 20, 112 << 20, maxPercent},
		{100 << 20, 166 << 20, 66},
		{100 << 20, 100 << 20, minPercent},
		{100 << 20, 50 << 20, minPercent},
	} {
		if got := Percent(c.live, c.goal); got != c.want {
			t.Errorf("Percent(%d MiB, %d MiB) = %d, want %d", c.live>>20, c.goal>>20, got, c.want)
		}
	}
}

func TestLive(t *testing.T) {
	held := make([]byte, 32<<20)
	held[0] = 1
	runtime.GC()
	if got := Live(); got < 32<<20 {
		t.Errorf("Live() = %d MiB with 32 MiB held", got>>20)
	}
	runtime.KeepAlive(held)
}
