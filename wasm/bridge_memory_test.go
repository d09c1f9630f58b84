//go:build js && wasm

package main

import (
	"bytes"
	"path"
	"strconv"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/sched"
)

// memory says what its peaks leave out and what is live at them, as the native model has it:
// per core the operands it could not place, per space the accesses a limit left out and the
// buffers live at the peak with the kernel lines of their write and last read; and how a peak
// is counted.
func TestMemoryTellsWhatThePeakLeftOut(t *testing.T) {
	c := core(t)
	data := readFile(t, "nkipy/matmul_small.neff")
	h := c.openBytes("matmul_small.neff", data).Get("handle")
	c.must("indexSource", map[string]any{"handle": h})
	native := inspect.Open("matmul_small.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{Fingerprint: true})
	m := native.Memmap()
	mem := c.must("memory", map[string]any{"handle": h})
	if got := mem.Get("peak").String(); got != sched.PeakConvention {
		t.Errorf("peak convention %q", got)
	}
	lines := 0
	for k, nc := range m.Cores {
		jc := mem.Get("cores").Index(k)
		if got := jc.Get("unplaced").Int(); got != nc.Unplaced() {
			t.Errorf("%s: unplaced %d, native %d", nc.Name, got, nc.Unplaced())
		}
		if got := jc.Get("undecided").Length(); got != len(nc.MemIssues) {
			t.Errorf("%s: %d undecided kinds, native %d", nc.Name, got, len(nc.MemIssues))
		}
		for _, sp := range []struct {
			key string
			u   sched.Usage
		}{{"sbuf", nc.SBUF}, {"psum", nc.PSUM}} {
			ju := jc.Get(sp.key)
			if got := ju.Get("unswept").Int(); got != sp.u.Unswept {
				t.Errorf("%s %s: unswept %d, native %d", nc.Name, sp.key, got, sp.u.Unswept)
			}
			live := ju.Get("live")
			if live.Length() != len(sp.u.Live) {
				t.Fatalf("%s %s: %d live buffers, native %d", nc.Name, sp.key, live.Length(), len(sp.u.Live))
			}
			for i, l := range sp.u.Live {
				jl := live.Index(i)
				if jl.Get("write").Int() != int(l.Write) || jl.Get("lastRead").Int() != int(l.LastRead) || jl.Get("bytes").Int() != int(l.Bytes) {
					t.Errorf("%s %s live %d: write %d read %d bytes %d, native %+v", nc.Name, sp.key, i, jl.Get("write").Int(), jl.Get("lastRead").Int(), jl.Get("bytes").Int(), l)
				}
				at := nc.Accesses[l.Write].At
				want := ""
				if src := native.Program.Source.Source(nc.Engines[at.Engine].Member, int(at.Index)); src != nil && src.Line > 0 {
					want = path.Base(src.File) + ":" + strconv.Itoa(src.Line)
				}
				if got := jl.Get("writeLine").String(); got != want {
					t.Errorf("%s %s live %d: write line %q, native %q", nc.Name, sp.key, i, got, want)
				}
				if want != "" {
					lines++
				}
			}
		}
	}
	if lines == 0 {
		t.Errorf("no live buffer at a peak names its kernel line")
	}
}
