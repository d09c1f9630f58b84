package main

import (
	"io"
	"testing"
	"time"

	"github.com/neffscope/neffscope/internal/bigneff"
)

// BenchmarkSyncMemmapRealShaped runs info, sync --json and memmap --json back to back on the
// 32 MiB real-shaped NEFF (internal/bigneff: 1.8 M words) and reports each command's wall time
// and the ratios issue 28 bounds (sync and memmap each at most 3× info).
func BenchmarkSyncMemmapRealShaped(b *testing.B) {
	p, err := bigneff.Cached("", 32, false)
	if err != nil {
		b.Skip(err)
	}
	run := func(f func([]string, io.Writer, io.Writer) int, args ...string) time.Duration {
		start := time.Now()
		if code := f(append(args, p), io.Discard, io.Discard); code == 2 {
			b.Fatalf("%v: exit 2", args)
		}
		return time.Since(start)
	}
	var info, syncT, mem time.Duration
	for range b.N {
		info += run(runInfo)
		syncT += run(runSync, "--json")
		mem += run(runMemmap, "--json")
	}
	n := float64(b.N)
	b.ReportMetric(float64(info.Milliseconds())/n, "info-ms")
	b.ReportMetric(float64(syncT.Milliseconds())/n, "sync-ms")
	b.ReportMetric(float64(mem.Milliseconds())/n, "memmap-ms")
	b.ReportMetric(float64(syncT)/float64(info), "sync/info")
	b.ReportMetric(float64(mem)/float64(info), "memmap/info")
}
