package dbg

import (
	"runtime"
	"testing"
)

// heapOf is the Go heap fn's result holds (after a collection).
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

// TestScanCostOnReal measures, on every .dbg member of the real NEFFs, what the full decode
// (Decode: typed records and tree) and the scan (a Compact) hold on the heap, per byte of the
// member, and checks the scan is charged what it holds.
func TestScanCostOnReal(t *testing.T) {
	var bytes, full, compact, held int64
	for _, path := range realNEFFs(t) {
		for p, b := range dbgMembers(t, path) {
			if _, _, ok := Match(p); !ok {
				continue
			}
			bytes += int64(len(b))
			full += heapOf(func() any { return Decode(p, b) })
			var c *Compact
			compact += heapOf(func() any { c = Scan(p, b); return c })
			held += c.Held()
		}
	}
	t.Logf("%d .dbg bytes: full decode %d bytes of heap (%.2f a byte), scan %d (%.2f a byte; Held says %d)", bytes, full, float64(full)/float64(bytes), compact, float64(compact)/float64(bytes), held)
	if compact > full/2 {
		t.Errorf("the scan holds %d bytes, the full decode %d", compact, full)
	}
	if compact > held*3/2 || compact < held/2 {
		t.Errorf("the scans hold %d bytes of heap, Held says %d", compact, held)
	}
}
