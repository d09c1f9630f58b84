package inspect

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

func manyMembers(n int) []byte {
	ms := make([]neffbuild.Member, n)
	for i := range ms {
		ms[i] = neffbuild.Member{Path: "m/" + strconv.Itoa(i), Data: []byte{'x'}}
	}
	return neffbuild.Bytes(ms, neffbuild.Options{})
}

// BenchmarkOpenManyMembers opens NEFFs of one-byte members: the cost per member must stay
// flat from 10k to 1M.
func BenchmarkOpenManyMembers(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
	}{{"10k", 10_000}, {"100k", 100_000}, {"1M", 1_000_000}} {
		b.Run(c.name, func(b *testing.B) {
			raw := manyMembers(c.n)
			b.ResetTimer()
			for range b.N {
				f := Open("many.neff", bytes.NewReader(raw), int64(len(raw)), Options{Limits: budget.Limits{Members: int64(c.n), Memory: 4 << 30}})
				if got := len(f.Archive.Members); got != c.n {
					b.Fatalf("%d members listed, want %d", got, c.n)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(c.n), "ns/member")
		})
	}
}

// BenchmarkContainerClasses opens the container and manifest hostile classes at full size
// with the native budget, as `info` does: time and bytes allocated per open (-benchmem). Deep
// paths and floods of tar entries, missing members and cores must stay linear.
func BenchmarkContainerClasses(b *testing.B) {
	for _, h := range neffbuild.HostileClasses() {
		if _, ok := containerScale[h.Name]; !ok {
			continue
		}
		b.Run(h.Name, func(b *testing.B) {
			raw := h.Build(1)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				f := Open(h.Name+".neff", bytes.NewReader(raw), int64(len(raw)), Options{DeferSource: true})
				if f.Doc == nil {
					b.Fatal("no document")
				}
			}
		})
	}
}
