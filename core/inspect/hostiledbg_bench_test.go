//go:build !js

package inspect

// Apart from hostile_bench_test.go because it runs Coverage, which the wasm build leaves out.

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// BenchmarkDbgAndTableLoadClasses opens the later hostile classes at full size and, for the table-load
// stream, measures coverage too: what each open holds (budget memory used) and its peak heap
// are the figures; time and memory must stay flat as the classes grow (run with -benchmem).
func BenchmarkDbgAndTableLoadClasses(b *testing.B) {
	for _, h := range neffbuild.HostileClasses() {
		switch h.Name {
		case "dbg-wiretype", "dbg-kernel-paths", "dbg-attrs", "table-loads":
		default:
			continue
		}
		b.Run(h.Name, func(b *testing.B) {
			raw := h.Build(1)
			b.ResetTimer()
			var peak uint64
			for range b.N {
				peak = max(peak, peakHeap(func() {
					f := Open(h.Name+".neff", bytes.NewReader(raw), int64(len(raw)), Options{})
					if h.Name == "table-loads" {
						f.Coverage()
					}
					b.ReportMetric(float64(f.Budget.Used(budget.Memory))/(1<<20), "MiB-charged")
				}))
			}
			b.ReportMetric(float64(peak)/(1<<20), "MiB-peak-heap")
		})
	}
}
