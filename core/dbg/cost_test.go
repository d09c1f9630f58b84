package dbg

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// heapOf is the Go heap fn's result holds (after a collection): for benchmarks only (a heap
// delta flakes as a test on a loaded machine).
func heapOf(fn func() any) int64 {
	runtime.GC()
	var a, z runtime.MemStats
	runtime.ReadMemStats(&a)
	v := fn()
	runtime.GC()
	runtime.ReadMemStats(&z)
	runtime.KeepAlive(v)
	return int64(z.HeapAlloc) - int64(a.HeapAlloc)
}

// heldBound bounds what the scan of a real member of size bytes holds (Held: its columns,
// tables and strings, what the budget is charged). The real members are small and name nearly
// every record differently, so they hold more per byte than the big real-shaped NEFF of
// core/inspect's TestSourceBigUnderDefaultBudget (about a fifth): at most twice their size,
// plus the fixed part of a small member (a first block per column).
func heldBound(size int64) int64 { return 2*size + 16<<10 }

// TestScanHeldOnReal: on every .dbg member of the real NEFFs, the scan keeps every record and
// what it holds (Held, deterministic) stays under heldBound. What the heap really holds, beside
// Held, is BenchmarkScanHeap's.
func TestScanHeldOnReal(t *testing.T) {
	var bytes, held int64
	for _, path := range realfiles.NEFFs(t) {
		for p, b := range dbgMembers(t, path) {
			if _, _, ok := Match(p); !ok {
				continue
			}
			c := Scan(p, b)
			if c == nil || c.N != Decode(p, b).RecordCount() || c.Held() <= 0 {
				t.Fatalf("%s: scan %+v", p, c)
			}
			bytes += int64(len(b))
			held += c.Held()
			if c.Held() > heldBound(int64(len(b))) {
				t.Errorf("%s %s: the scan holds %d bytes for a member of %d", filepath.Base(path), p, c.Held(), len(b))
			}
		}
	}
	t.Logf("%d .dbg bytes: the scans hold %d (%.3f a byte)", bytes, held, float64(held)/float64(bytes))
}

// BenchmarkScanHeap measures, over every .dbg member of the real NEFFs, the heap the full
// decode (typed records and tree) and the scan (a Compact) hold per .dbg byte, beside what the
// scan says it holds (Held): heap-B/dbg-B and held-B/dbg-B should be close, and both well
// under full-B/dbg-B.
func BenchmarkScanHeap(b *testing.B) {
	type member struct {
		path string
		b    []byte
	}
	var ms []member
	for _, path := range realfiles.NEFFs(b) {
		for p, data := range dbgMembers(b, path) {
			if _, _, ok := Match(p); ok {
				ms = append(ms, member{p, data})
			}
		}
	}
	var bytes, full, scan, held int64
	for range b.N {
		for _, m := range ms {
			bytes += int64(len(m.b))
			full += heapOf(func() any { return Decode(m.path, m.b) })
			var c *Compact
			scan += heapOf(func() any { c = Scan(m.path, m.b); return c })
			held += c.Held()
		}
	}
	b.ReportMetric(float64(full)/float64(bytes), "full-B/dbg-B")
	b.ReportMetric(float64(scan)/float64(bytes), "heap-B/dbg-B")
	b.ReportMetric(float64(held)/float64(bytes), "held-B/dbg-B")
}
