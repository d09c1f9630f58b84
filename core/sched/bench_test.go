package sched_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/bigneff"
)

// BenchmarkSchedRealShaped builds the sync model of the 32 MiB real-shaped NEFF (internal/
// bigneff: 1.8 M words, its big streams read back through the seek index) and reports it
// against the open that info does (DeferSource) and the heap the model keeps.
func BenchmarkSchedRealShaped(b *testing.B) {
	p, err := bigneff.Cached("", 32, false)
	if err != nil {
		b.Skip(err)
	}
	fh, err := os.Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer fh.Close()
	st, _ := fh.Stat()
	var openT, schedT time.Duration
	var kept uint64
	for range b.N {
		start := time.Now()
		f := inspect.Open(filepath.Base(p), fh, st.Size(), inspect.Options{DeferSource: true})
		openT += time.Since(start)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		start = time.Now()
		m := f.Sched()
		schedT += time.Since(start)
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = after.HeapAlloc - min(before.HeapAlloc, after.HeapAlloc)
		if len(m.Cores) == 0 {
			b.Fatal("no cores")
		}
		runtime.KeepAlive(m)
	}
	b.ReportMetric(float64(openT.Milliseconds())/float64(b.N), "open-ms")
	b.ReportMetric(float64(schedT.Milliseconds())/float64(b.N), "sched-ms")
	b.ReportMetric(float64(kept)/(1<<20), "model-MiB")
}
