package sched_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
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

// BenchmarkSyncHostile builds the sync model of the sched-one-semaphore class (150,000 updates
// of one semaphore on two engines, 150,000 waits for it, 150,000 waits past another's reach)
// and asks every lint's message, as sync and the page do. The passes are linear (the code
// before scanned a semaphore's updates per wait: sync --json took 36.7 CPU-s on the class).
func BenchmarkSyncHostile(b *testing.B) {
	var data []byte
	for _, h := range neffbuild.HostileClasses() {
		if h.Name == "sched-one-semaphore" {
			data = h.Build(1)
		}
	}
	f := inspect.Open("sched-one-semaphore.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{DeferSource: true})
	for b.Loop() {
		m := f.Sched()
		for _, c := range m.Cores {
			for _, w := range c.Lints() {
				_ = c.Message(w)
			}
		}
	}
}
