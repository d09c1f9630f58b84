package main

import "testing"

// TestCLIMemoryLimit: the CLI's rule — the floor while little is live, live × 5/4 + 8 MiB in
// an open, live + writeHeadroom while a writer runs, and the open's rule again after it.
func TestCLIMemoryLimit(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, want int64
		writing    bool
	}{
		{10 * mib, softMemoryFloor, false},
		{10 * mib, softMemoryFloor, true},
		{160 * mib, 208 * mib, false},
		{160 * mib, 224 * mib, true},
	} {
		restore := func() {}
		if c.writing {
			restore = roomToWrite()
		}
		if got := cliMemoryLimit(c.live); got != c.want {
			t.Errorf("live %d MiB, writing %v: limit %d MiB, want %d", c.live/mib, c.writing, got/mib, c.want/mib)
		}
		restore()
	}
}
