package sched_test

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// On every real NEFF (they ran on devices) the memory model places every operand of the
// opcodes it knows, gives no memory lint, and each space's peak fits its capacity.
func TestRealNEFFsMemory(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	var accesses, dma int
	for _, p := range paths {
		rel := filepath.Base(p)
		m := openPath(t, p).Memmap()
		for _, c := range m.Cores {
			for _, l := range c.MemLints {
				t.Errorf("%s %s: %s: %s", rel, c.Name, l.Code, c.MemMessage(l))
			}
			for _, u := range c.MemIssues {
				// attn_v6's two TensorScalarAffineSelect (0x92) words: no operand row.
				if !strings.Contains(u.What, "TensorScalarAffineSelect") {
					t.Errorf("%s %s: undecided %s", rel, c.Name, c.IssueMessage(u))
				}
			}
			if c.SBUF.PartitionBytes == 0 || c.SBUF.PeakBytes > uint64(c.SBUF.PartitionBytes) || c.PSUM.PeakBytes > uint64(c.PSUM.PartitionBytes) {
				t.Errorf("%s %s: SBUF %+v PSUM %+v", rel, c.Name, c.SBUF, c.PSUM)
			}
			// The buffers live at a peak add up to it, and the access that reached it wrote
			// one of them.
			for _, u := range []sched.Usage{c.SBUF, c.PSUM} {
				var sum uint64
				reached := false
				for _, l := range u.Live {
					sum += l.Bytes
					reached = reached || l.Write == u.PeakAt
				}
				if sum != u.PeakBytes || u.PeakAt >= 0 && !reached || u.Unswept != 0 {
					t.Errorf("%s %s: peak %d at %d, live buffers %d B (reached %v), unswept %d", rel, c.Name, u.PeakBytes, u.PeakAt, sum, reached, u.Unswept)
				}
			}
			for _, a := range c.Accesses {
				accesses++
				if a.DMA {
					dma++
				}
				if a.BoxTo <= a.BoxFrom {
					t.Errorf("%s %s: %s: no box", rel, c.Name, c.Ref(a.At))
				}
			}
		}
	}
	t.Logf("%d accesses (%d by DMA transfers), no memory lint", accesses, dma)
}

// Activation #4 of matmul_small copies out the PSUM that PE #9 and #11 accumulate, after its
// wait for PE #11 (S[5] >= 4). With that wait removed, nothing orders it after PE #9's write:
// one mem.unsync names the two, and the sync model still has no lint.
func TestRemovedWaitGivesUnsync(t *testing.T) {
	f := mutated(t, func(path string, b []byte) []byte {
		if path == "sg00/Activation.bin" {
			word(b, 4)[4] = 0 // no wait
		}
		return b
	})
	m := f.Memmap()
	var got []string
	for _, c := range m.Cores {
		for _, l := range c.MemLints {
			pair := []string{c.Ref(c.Accesses[l.Access].At), c.Ref(c.Accesses[l.Other].At)}
			sort.Strings(pair)
			got = append(got, c.Name+" "+l.Code.String()+" "+strings.Join(pair, " / ")+" "+c.Accesses[l.Access].Space.String())
		}
		if ls := c.Lints(); len(ls) != 0 {
			t.Errorf("sync lints %v", ls)
		}
	}
	want := []string{"sg00 mem.unsync Activation #4 / PE #9 PSUM"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("memory lints:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A Memset raised to 200 partitions gives mem.out-of-bounds at it.
func TestOutOfBounds(t *testing.T) {
	f := openPath(t, realfiles.Path(t, "nki-moe/attn_v6.neff"))
	var member string
	var index int
	for _, ps := range f.Program.Streams {
		if ps.Core.Name != "sg00" || member != "" {
			continue
		}
		for i, w := range ps.ISA.Words() {
			if w[0] == 0x49 {
				member, index = ps.Member, i
				break
			}
		}
	}
	if member == "" {
		t.Skip("no Memset in attn_v6")
	}
	g := mutatedFrom(t, "nki-moe/attn_v6.neff", func(path string, b []byte) []byte {
		if path == member {
			word(b, index)[0x22] = 200
		}
		return b
	})
	var got []string
	for _, c := range g.Memmap().Cores {
		for _, l := range c.MemLints {
			got = append(got, c.Name+" "+l.Code.String()+" "+c.Ref(c.Accesses[l.Access].At))
		}
	}
	eng := strings.TrimSuffix(filepath.Base(member), ".bin")
	if want := "sg00 mem.out-of-bounds " + eng + " #" + itoa(index); len(got) != 1 || got[0] != want {
		t.Errorf("lints %v, want [%s]", got, want)
	}
	_ = sched.MemOutOfBounds
}
