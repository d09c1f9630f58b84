package dbg

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPcol: every form of block reads back what was added, in order and at random.
func TestPcol(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	gens := map[string]func(i int) uint64{
		"constant": func(int) uint64 { return 7 },
		"run":      func(i int) uint64 { return uint64(1000 + i) },
		"nibble":   func(i int) uint64 { return uint64(50 + i%9) },
		"random":   func(int) uint64 { return r.Uint64() },
		"small":    func(int) uint64 { return uint64(r.IntN(300)) },
		"edges":    func(i int) uint64 { return []uint64{0, math.MaxUint64, 1, math.MaxUint64 - 1}[i%4] },
	}
	for name, g := range gens {
		for _, n := range []int{0, 1, 2, 127, 128, 129, 1000, 70000} {
			var c pcol
			want := make([]uint64, n)
			for i := range want {
				want[i] = g(i)
				c.add(want[i])
			}
			for i, w := range want {
				if got := c.at(i); got != w {
					t.Fatalf("%s n=%d: at(%d) = %d, want %d", name, n, i, got, w)
				}
			}
			for range 200 {
				if n == 0 {
					break
				}
				i := r.IntN(n)
				if got := c.at(i); got != want[i] {
					t.Fatalf("%s n=%d: random at(%d) = %d, want %d", name, n, i, got, want[i])
				}
			}
			if name == "run" && n == 70000 && c.bytes() > 20000 {
				t.Errorf("a run of 70,000 values holds %d bytes", c.bytes())
			}
		}
	}
}
