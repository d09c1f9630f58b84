package main

import (
	"runtime/debug"
	"runtime/metrics"
)

// roomToHold raises the process's soft memory limit (main's 160 MiB) to the memory an open's
// budget lets it hold (--max-memory, 256 MiB by default): below that, an open holding what it
// was allowed to ran the collector back to back (info on the 32 MB real-shaped NEFF: 33
// collections and 3.2 s of CPU at 160 MiB, 8 and 1.9 s at 256 MiB, for a peak RSS of 172 →
// 241 MiB).
func roomToHold(limit int64) {
	if prev := debug.SetMemoryLimit(-1); limit > prev {
		debug.SetMemoryLimit(limit)
	}
}

// writeHeadroom is how far above the heap an open left live the collector lets a streaming
// writer's garbage grow before it works harder.
const writeHeadroom = 64 << 20

// roomToWrite raises the process's soft memory limit (main's, for the opens) to what is live
// now plus writeHeadroom, for a writer that walks a document an open built (inspect --json):
// the open of a big NEFF leaves more live than that limit, and the collector would otherwise
// run without a pause for the whole write (half the CPU). The writer holds a bounded window
// over what is live, so the process's peak stays the open's. disasm's writers do the same. It returns what puts the limit
// back.
func roomToWrite() (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		if live := int64(s[0].Value.Uint64()); live+writeHeadroom > prev {
			debug.SetMemoryLimit(live + writeHeadroom)
		}
	}
	return func() { debug.SetMemoryLimit(prev) }
}
