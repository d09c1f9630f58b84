package sched_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/core/sched"
)

// hostile opens one of neffbuild's hostile classes at a scale, under the given memory limit
// (0: the native one).
func hostile(t *testing.T, name string, scale float64, memory int64) *inspect.File {
	t.Helper()
	for _, h := range neffbuild.HostileClasses() {
		if h.Name == name {
			b := h.Build(scale)
			return inspect.Open(name+".neff", bytes.NewReader(b), int64(len(b)), inspect.Options{DeferSource: true, Limits: budget.Limits{Memory: memory}})
		}
	}
	t.Fatalf("no hostile class %s", name)
	return nil
}

// memLimits lists a core's mem.limit entries.
func memLimits(c *sched.Core) []string {
	var out []string
	for _, u := range c.MemIssues {
		if u.Code == sched.MemLimit {
			out = append(out, u.What)
		}
	}
	return out
}

// 128 one-partition copies cut the SBUF into 128 partition bands; each whole-SBUF copy after
// them is then 128 bands' work. The sweep counts it so and stops at its work limit, saying how
// many accesses it left out of the peak, instead of holding segments and read chains for
// every band (at 200 copies the code before held 257 MiB, at 2,000 it ran out of memory).
func TestSweepChargesEveryBand(t *testing.T) {
	f := hostile(t, "sched-sweep-bands", 0.1, 0) // 200 whole copies
	m := f.Memmap()
	c := m.Cores[0]
	if lim := memLimits(c); len(lim) != 1 || !strings.Contains(lim[0], "SBUF sweep (its work)") {
		t.Fatalf("mem.limit entries %q, want the SBUF sweep's work", lim)
	}
	if c.SBUF.Unswept == 0 || c.SBUF.Unswept >= len(c.Accesses) {
		t.Errorf("%d of %d accesses left out of the sweep", c.SBUF.Unswept, len(c.Accesses))
	}
	if len(c.MemLints) != 0 {
		t.Errorf("lints %d: one engine's copies in program order do not race", len(c.MemLints))
	}
}

// 2,000 DMA queues each with a block that writes the state buffer and a trigger: the clocks
// would be 2,000 lanes for each of 2,000 transfers (16 MB). They are charged to the open's
// budget: under a small limit the model says the races were not checked, instead of holding
// them (at 20,000 queues the code before held 1.6 GiB).
func TestClocksAreCharged(t *testing.T) {
	f := hostile(t, "sched-dma-lanes", 0.1, 12<<20)
	m := f.Memmap()
	if m == nil {
		t.Fatalf("no model: %v", f.Budget.Message())
	}
	c := m.Cores[0]
	lim := memLimits(c)
	if len(lim) != 1 || !strings.Contains(lim[0], "happens-before clocks") {
		t.Fatalf("mem.limit entries %q, want the clocks'", lim)
	}
	if len(c.MemLints) != 0 {
		t.Errorf("%d lints without clocks", len(c.MemLints))
	}
	// Under the native limit the same file is checked whole: each block writes 64 bytes of
	// its own, so nothing races.
	m = hostile(t, "sched-dma-lanes", 0.1, 0).Memmap()
	if c := m.Cores[0]; len(memLimits(c)) != 0 || len(c.MemLints) != 0 || len(c.Accesses) != 2000 {
		t.Errorf("native limit: mem.limit %q, %d lints, %d accesses", memLimits(c), len(c.MemLints), len(c.Accesses))
	}
}

// 15,000 updates of one semaphore on DVE and one on Pool, 15,000 waits for it on Activation,
// 15,000 waits on PE past what 15,000 updates reach, and every lint's message asked for (as
// sync and the page do): the model's passes stay linear in the words, waits and updates. The
// code before scanned a semaphore's updates for each multi-producer wait and summed them for
// each unreachable one's message: `sync --json` took 36.7 CPU-s at 150,000 (BenchmarkSyncHostile
// has the figures).
func TestSyncModelStaysLinear(t *testing.T) {
	f := hostile(t, "sched-one-semaphore", 0.1, 0)
	m := f.Sched()
	c := m.Cores[0]
	counts := map[string]int{}
	for _, w := range c.Waits {
		counts[w.Code.String()]++
		if w.Code.Class() == sched.ClassLint {
			if msg := c.Message(w); !strings.Contains(msg, "S[") {
				t.Fatalf("message %q", msg)
			}
		}
	}
	if counts["sync.multi-producer"] != 15000 || counts["sync.unreachable"] != 15000 {
		t.Errorf("waits by code %v", counts)
	}
	words := 0
	for _, e := range c.Engines {
		words += e.Len
	}
	size := int64(words + len(c.Waits) + 15000*3)
	t.Logf("%d steps for %d words, waits and updates", sched.Work(c), size)
	if w := sched.Work(c); w > 40*size {
		t.Errorf("the model's passes took %d steps for %d words, waits and updates: not linear", w, size)
	}
}
