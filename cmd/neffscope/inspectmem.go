package main

import (
	"sync/atomic"

	"github.com/neffscope/neffscope/internal/gctune"
)

// softMemoryFloor is the least the process's soft memory limit is set to (tuneMemoryLimit).
const softMemoryFloor = 80 << 20

// writeHeadroom is how far above what is live the collector lets a writer's garbage grow
// (roomToWrite).
const writeHeadroom = 64 << 20

// headroom is writeHeadroom while a writer walks what an open left live; 0 for the opens'
// tighter rule.
var headroom atomic.Int64

// cliMemoryLimit is the soft memory limit for what is live: softMemoryFloor while little is,
// else live × 5/4 + 8 MiB during an open and live + writeHeadroom during a writer. Measured on
// the real-shaped NEFFs (internal/bigneff) against the fixed limits before it (160 MiB, raised to the
// budget's 256 MiB for an open), peak RSS and wall time: info on 32 MB 109 → 89 MiB and on
// 256 MB 122 → 95-106 MiB in the same time, disasm --json on 32 MB 137 → 120 MiB. The opens'
// rule costs writers time (inspect --json on 32 MB 164 → 136 MiB but 12 → 17-19 s), so a
// writer keeps the headroom it had. A fixed 64 MiB gave info on 32 MB 77 MiB but 16% slower:
// the collector ran back to back while the 30 MB debug-info JSON was parsed beside 35 MB live.
func cliMemoryLimit(live int64) int64 {
	if h := headroom.Load(); h > 0 {
		return max(softMemoryFloor, live+h)
	}
	return max(softMemoryFloor, live+live/4+8<<20)
}

// retune sets the limit now (nil until tuneMemoryLimit: the tests run commands without it).
var retune func()

// tuneMemoryLimit makes the soft memory limit follow cliMemoryLimit after every collection.
func tuneMemoryLimit() (stop func()) {
	set, stop := gctune.Follow(cliMemoryLimit)
	retune = set
	return func() { stop(); retune = nil }
}

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
