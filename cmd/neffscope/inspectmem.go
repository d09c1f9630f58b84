package main

import (
	"runtime/debug"
	"runtime/metrics"
)

// writeHeadroom is how far above the heap an open left live the collector lets a streaming
// writer's garbage grow before it works harder.
const writeHeadroom = 64 << 20

// roomToWrite raises the process's soft memory limit (main's, for the opens) to what is live
// now plus writeHeadroom, for a writer that walks a document an open built (inspect --json):
// the open of a big NEFF leaves more live than that limit, and the collector would otherwise
// run without a pause for the whole write (half the CPU). The writer holds a bounded window
// over what is live, so the process's peak stays the open's. It returns what puts the limit
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
