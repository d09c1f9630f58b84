package sched_test

import (
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/sched"
)

// An instruction that waits, or comes after a wait, that nothing satisfies never runs: it has
// no step and takes part in no race. In matmul_small, Activation #4 waits S[5] >= 4 for PE #11
// and increments S[4], which Pool #5 waits for; Pool #6 waits for Pool #5's DMA.
func TestNeverRunTakesNoStepNorRace(t *testing.T) {
	for _, tc := range []struct {
		name   string
		member string
		edit   func(b []byte)
		lint   string
		never  []string // instructions of sg00 that never run
	}{
		// S[5] reaches 4: a wait for 5 hangs (sync.unreachable). Run as if it did not wait,
		// Activation #4 would read the PSUM PE #9 and #11 write, with nothing between.
		{"unreachable", "sg00/Activation.bin", func(b []byte) { word(b, 4)[8] = 5 },
			"sync.unreachable sg00 Activation #4", []string{"Activation #4", "Pool #5", "Pool #6"}},
		// A semaphore no instruction updates (sync.no-producer).
		{"no producer", "sg00/Activation.bin", func(b []byte) { word(b, 4)[5] = 30 },
			"sync.no-producer sg00 Activation #4", []string{"Activation #4", "Pool #5", "Pool #6"}},
		// Activation #3 waits for PE #9, which comes after PE #8's wait for Activation #3.
		{"deadlock", "sg00/Activation.bin", func(b []byte) { word(b, 3)[8] = 3 },
			"sync.cycle sg00 Activation #3", []string{"PE #8", "PE #9", "PE #10", "PE #11", "Activation #3", "Activation #4", "Pool #5", "Pool #6"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := mutated(t, func(path string, b []byte) []byte {
				if path == tc.member {
					tc.edit(b)
				}
				return b
			})
			m := f.Memmap()
			lints, _ := lintsOf(m)
			found := false
			for _, l := range lints {
				found = found || l.code+" "+l.at == tc.lint
			}
			if !found {
				t.Errorf("lints %v, want %s among them", lints, tc.lint)
			}
			c := m.Cores[0]
			var never []string
			for k := range c.Engines {
				for i := 0; i < c.Engines[k].Len; i++ {
					if c.Engines[k].Step(i) < 0 {
						never = append(never, c.Ref(sched.At{Engine: int16(k), Index: int32(i)}))
					}
				}
			}
			if strings.Join(never, ", ") != strings.Join(tc.never, ", ") {
				t.Errorf("never run: %v, want %v", never, tc.never)
			}
			if ml, _ := memFound(m); len(ml) != 0 {
				t.Errorf("memory lints %v: an instruction that never runs races with nothing", ml)
			}
		})
	}
}

// A wait the model cannot decide (an unconfirmed mode) gives it no edge, so an overlap with
// what comes after it is not a race the model can claim: it is mem.order-undecided, not a
// lint. Activation #4 of matmul_small, with its wait for PE #11 in mode 0x04, would
// otherwise be said to race with PE #9's PSUM write.
func TestUndecidedWaitGivesNoRaceLint(t *testing.T) {
	f := mutated(t, func(path string, b []byte) []byte {
		if path == "sg00/Activation.bin" {
			word(b, 4)[4] = 0x04
		}
		return b
	})
	lints, undecided := memFound(f.Memmap())
	found := false
	for _, u := range undecided {
		found = found || strings.HasPrefix(u, "sg00 mem.order-undecided ")
	}
	if len(lints) != 0 || !found {
		t.Errorf("lints %q, undecided %q", lints, undecided)
	}
}
