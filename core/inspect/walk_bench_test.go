package inspect

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// BenchmarkWalkLazyArray walks the whole Document of def-missing at the hostile scale: a kelf
// whose lazy array holds 20,000 objects, each with children. Walk keeps a page of children per
// level; with one page for the whole walk, every item that had children rebuilt a page of
// 1,024 siblings on the way back up (3.1 s for 26,283 nodes, against 22 ms since).
func BenchmarkWalkLazyArray(b *testing.B) {
	var h neffbuild.Hostile
	for _, c := range neffbuild.HostileClasses() {
		if c.Name == "def-missing" {
			h = c
		}
	}
	raw := h.Build(containerScale["def-missing"])
	lim := budget.Limits{Inflate: 64 << 20, Memory: 256 << 20, Values: 1_000_000, Members: 20_000, Rows: 100_000}
	f := Open(h.Name+".neff", bytes.NewReader(raw), int64(len(raw)), Options{Limits: lim})
	b.ResetTimer()
	for range b.N {
		nodes := 0
		if _, err := f.Walk(nil, func(_ []string, _ *doc.Node) bool { nodes++; return true }); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(nodes), "nodes")
	}
}
