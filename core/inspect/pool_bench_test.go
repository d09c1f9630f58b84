package inspect

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/internal/bigneff"
)

// BenchmarkIndexSourcePool maps the source lines of the 32 MiB real-shaped NEFF after an open
// that deferred them (as the CLI's sync, memmap, check and export do), in this thread alone
// (workers=0) and in pools of goroutines; only the mapping is timed. Its figures say whether
// the split wins on the machine it runs on (the CLI maps on one thread until it does).
func BenchmarkIndexSourcePool(b *testing.B) {
	p, err := bigneff.Cached("", 32, false)
	if err != nil {
		b.Skip(err)
	}
	for _, n := range []int{0, 1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				fh, err := os.Open(p)
				if err != nil {
					b.Fatal(err)
				}
				st, _ := fh.Stat()
				f := Open("big.neff", fh, st.Size(), Options{DeferSource: true, Limits: budget.Native()})
				b.StartTimer()
				if _, err := f.IndexSourceIn(context.Background(), nil, nil, f.Goroutines(n), nil); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				fh.Close()
				b.StartTimer()
			}
		})
	}
}
