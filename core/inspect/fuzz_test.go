package inspect

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// fuzzLimits is the small budget FuzzOpenBudget runs the whole Open under: about five times
// what the seeds need (182 KB held, 244 JSON values, 16 members), so a seed opens whole and a
// mutation that inflates a bomb or multiplies members hits a limit after little work.
var fuzzLimits = budget.Limits{Inflate: 256 << 10, Memory: 1 << 20, Values: 4_000, Members: 256, Rows: 2_000}

// fuzzAllocCap bounds what one Open may allocate in all under fuzzLimits: the budget bounds
// what is held, this catches a decoder that allocates past it without asking.
const fuzzAllocCap = 96 << 20

// FuzzOpenBudget: the whole inspect.Open (container, manifests, JSON trees, streams, tables)
// on mutated NEFFs under a small budget: no panic, the budget's counters within their limits,
// and the bytes allocated bounded.
func FuzzOpenBudget(f *testing.F) {
	f.Add(neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{PadTo: -1}))
	f.Add(neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Plain: true, PkgVersion: 1, PadTo: -1}))
	f.Add(neffbuild.Bytes([]neffbuild.Member{{Path: "a.json", Data: []byte(`{"a":[1,2,{"b":[[[3]]]}],"a":0}`)}}, neffbuild.Options{Plain: true, PadTo: -1}))
	f.Fuzz(func(t *testing.T, b []byte) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		file := Open("fuzz.neff", bytes.NewReader(b), int64(len(b)), Options{Limits: fuzzLimits})
		runtime.ReadMemStats(&after)
		if file.Doc == nil || file.Doc.Root == nil {
			t.Fatal("no document")
		}
		for _, k := range []budget.Kind{budget.Memory, budget.Values, budget.Members, budget.Rows} {
			if file.Budget.Used(k) > file.Budget.Limit(k) {
				t.Fatalf("%s: used %d of %d", k, file.Budget.Used(k), file.Budget.Limit(k))
			}
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > fuzzAllocCap {
			t.Fatalf("one open allocated %d MiB (cap %d MiB) on %d input bytes", d>>20, fuzzAllocCap>>20, len(b))
		}
	})
}
