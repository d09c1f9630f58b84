package inspect

import (
	"bytes"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// peakHeap runs f while sampling the live heap every millisecond and returns the highest
// HeapAlloc seen above the level before f.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > base && m.HeapAlloc-base > peak.Load() {
				peak.Store(m.HeapAlloc - base)
			}
		}
	}()
	f()
	close(done)
	return peak.Load()
}

// TestHostileClassesStayInBudget opens every first hostile class (scaled down so make test stays
// quick) under a small budget, and checks the budget's counters stay within their limits, the
// document stays shallow, and a finding names the limit where one was reached.
func TestHostileClassesStayInBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("-short skips the slow tests; make test-core runs this one")
	}
	lim := budget.Limits{Inflate: 64 << 20, Memory: 16 << 20, Values: 100_000, Members: 20_000, Rows: 100_000}
	want := map[string]doc.Code{ // class → a finding code it must carry
		"many-members": doc.CodeBudgetMemory,
		// json-many and json-wide reach no limit: their arrays are lazy once past 4,096 items
		// (jsonspan's lazyMaxItems), checked but not built, so they open whole.
		"json-deep":     doc.CodeJSONDeepNesting,
		"json-dupkeys":  doc.CodeJSONDuplicateKey,
		"huge-declared": doc.CodeTarBadSize,
		"bad-pax":       doc.CodeTarBadPax,
		"bomb":          doc.CodeNeffInflateLimit,
		// blob-flood reaches no limit: its blobs are over blobHoldMax and named by no set, so
		// nothing of them is held or read back (checked below).
		// The .dbg and table-loads classes, at hostileScale, reach their own caps.
		"dbg-wiretype":     doc.CodeDbgWireType,
		"dbg-kernel-paths": doc.CodeDbgNamesLimit,
		"dbg-attrs":        doc.CodeDbgAttrsLimit,
		"table-loads":      doc.CodeISALoadsLimit,
	}
	for _, h := range neffbuild.HostileClasses() {
		t.Run(h.Name, func(t *testing.T) {
			raw := hostileRaw(t, h.Name, hostileScale(h.Name))
			var f *File
			start := time.Now()
			peak := peakHeap(func() {
				f = Open(h.Name+".neff", bytes.NewReader(raw), int64(len(raw)), Options{Limits: lim})
			})
			took := time.Since(start)
			t.Logf("%s: %d bytes, %v, peak heap %.1f MiB, budget used: %d values, %d members, %.1f MiB",
				h.Name, len(raw), took.Round(time.Millisecond), float64(peak)/(1<<20), f.Budget.Used(budget.Values), f.Budget.Used(budget.Members), float64(f.Budget.Used(budget.Memory))/(1<<20))
			// The heap itself is a benchmark's figure (a heap delta flakes under load); the
			// test checks what the budget was charged, which is deterministic.
			for _, k := range []budget.Kind{budget.Memory, budget.Values, budget.Members, budget.Rows} {
				if f.Budget.Used(k) > f.Budget.Limit(k) {
					t.Errorf("%s: used %d of %d", k, f.Budget.Used(k), f.Budget.Limit(k))
				}
			}
			if h.Name == "blob-flood" {
				for _, m := range f.Archive.Members {
					if m.Data != nil {
						t.Errorf("%s: %d bytes held", m.Path, len(m.Data))
					}
				}
			}
			if w := want[h.Name]; w != "" && !hasFinding(f.Doc.Root, w) {
				t.Errorf("no finding has code %s", w)
			}
			// The document must stay shallow enough for common JSON readers.
			if d := depth(f.Doc.Root); d > 150 {
				t.Errorf("document is %d levels deep", d)
			}
		})
	}
}

func hasFinding(n *doc.Node, code doc.Code) bool {
	found := false
	n.Walk(func(_ []string, c *doc.Node) bool {
		for _, f := range c.Findings {
			if f.Code == code {
				found = true
			}
		}
		return !found
	})
	return found
}

func depth(n *doc.Node) int {
	d := 0
	for _, c := range n.Children {
		d = max(d, depth(c))
	}
	return d + 1
}

// TestOneBudgetFinding: a file whose members each stay under any per-member cap but together
// pass the budget gets exactly one finding naming the limit and the flag.
func TestOneBudgetFinding(t *testing.T) {
	raw := hostileRaw(t, "json-many", hostileScale("json-many")) // 50 × 20,000 values
	// The memory limit is raised so the values limit is the one reached. Each member's array
	// is lazy (its values checked, not built: one value charged), so 40 values is what 50
	// members pass.
	f := Open("many.neff", bytes.NewReader(raw), int64(len(raw)), Options{Limits: budget.Limits{Values: 40, Memory: 1 << 30}})
	n := 0
	f.Doc.Root.Walk(func(_ []string, c *doc.Node) bool {
		for _, fd := range c.Findings {
			if fd.Code == doc.CodeBudgetValues {
				n++
			}
		}
		return true
	})
	if n != 1 {
		t.Fatalf("%d findings name the limit, want 1", n)
	}
	if got := f.Budget.Used(budget.Values); got != 40 {
		t.Fatalf("values used %d, want the limit", got)
	}
}
