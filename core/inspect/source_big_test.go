package inspect

import (
	"bytes"
	"context"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/internal/bigneff"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestSourceBigUnderDefaultBudget: on a real-shaped NEFF (internal/bigneff: matmul_small's
// streams and .dbg members repeated, ~17 MB of debug info, manifests small enough for the
// model to fit), the source mapping under the default 64 MiB budget is complete: no member
// skipped, and every word has the source an open without limits gives it. The source index is
// charged under a third of the .dbg bytes (its heap: BenchmarkSourceIndexHeap).
func TestSourceBigUnderDefaultBudget(t *testing.T) {
	if !realfiles.Has(bigneff.Source) {
		t.Skip(realfiles.Missing(bigneff.Source))
	}
	if testing.Short() {
		t.Skip("generates a 12 MiB NEFF")
	}
	p := filepath.Join(t.TempDir(), "big.neff")
	st, err := bigneff.Generate(p, bigneff.Options{Size: 12 << 20, DefJSON: 100_000, DebugJSON: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(st)
	r, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	f := Open("big.neff", r, st.FileSize, Options{})
	var dbgBytes int64
	for _, m := range f.Archive.Members {
		if strings.Contains(m.Path, ".dbg") {
			dbgBytes += m.Size
		}
	}
	for _, fd := range f.Doc.Findings() {
		if strings.HasPrefix(string(fd.Code), "budget.") { // a limit refused something
			t.Errorf("finding under the default budget: %s", fd.Message)
		}
	}
	x := f.Program.Source
	if x == nil || len(x.Members) == 0 || x.WithSource == 0 {
		t.Fatal("no source mapped")
	}
	var held int64
	for m, c := range x.Members {
		held += c.Held()
		// Each scan read its member once, whole: the records its full decode reads.
		b, err := f.memberBytes(m, 1<<30)
		if err != nil {
			t.Fatal(err)
		}
		if d := dbg.DecodeView(m, b); c.N != d.RecordCount() || c.Coverage != d.Coverage {
			t.Errorf("%s: the scan read %d records (%+v), the member has %d (%+v)", m, c.N, c.Coverage, d.RecordCount(), d.Coverage)
		}
	}
	for _, s := range x.Streams() {
		ps := s.Stream()
		asm := x.Members[path.Join(path.Dir(ps.Member), "debug_info_asm_"+ps.Engine.Name+".dbg")]
		if asm == nil || asm.N != s.Len() {
			t.Errorf("%s: asm records %v for %d words", ps.Member, asm, s.Len())
		}
	}
	// The same mapping as without limits.
	r2, _ := os.Open(p)
	defer r2.Close()
	lim := budget.Native()
	lim.Memory, lim.Values, lim.Rows = 4<<30, 50_000_000, 50_000_000
	g := Open("big.neff", r2, st.FileSize, Options{Limits: lim})
	y := g.Program.Source
	if x.Words != y.Words || x.WithSource != y.WithSource || x.WithLine != y.WithLine || len(x.Members) != len(y.Members) {
		t.Fatalf("default budget: %d/%d/%d words, %d members; unlimited: %d/%d/%d, %d", x.Words, x.WithSource, x.WithLine, len(x.Members), y.Words, y.WithSource, y.WithLine, len(y.Members))
	}
	for _, s := range f.Program.Streams {
		for i := 0; i < int(s.Size/64); i += 7 {
			a, b := x.Source(s.Member, i), y.Source(s.Member, i)
			if (a == nil) != (b == nil) || a != nil && *a != *b {
				t.Fatalf("%s #%d: %+v, unlimited %+v", s.Member, i, a, b)
			}
		}
	}
	if x.Node.Value != y.Node.Value {
		t.Errorf("source node %q, unlimited %q", x.Node.Value, y.Node.Value)
	}
	// Mapped after a deferred open (the members not held read back out of the archive, through
	// a reader of its own): the same Document.
	r3, _ := os.Open(p)
	defer r3.Close()
	d := Open("big.neff", r, st.FileSize, Options{DeferSource: true})
	ms, err := d.IndexSource(context.Background(), r3)
	if err != nil {
		t.Fatal(err)
	}
	d.ApplySource(ms)
	fb, _ := f.Doc.MarshalMsg(nil)
	db, _ := d.Doc.MarshalMsg(nil)
	if !bytes.Equal(fb, db) {
		t.Errorf("mapped after a deferred open, the Document differs from an eager open's")
		diffFirst(t, f.Doc.Root, d.Doc.Root, nil)
	}
	// What the index is charged (Held, deterministic) is a fraction of the .dbg bytes; the heap
	// it really holds is BenchmarkSourceIndexHeap's.
	t.Logf("%d .dbg bytes; the source index is charged %d (%.3f a byte)", dbgBytes, held, float64(held)/float64(dbgBytes))
	if held > dbgBytes/3 {
		t.Errorf("the source index is charged %d bytes for %d .dbg bytes: more than a third", held, dbgBytes)
	}
}

// BenchmarkSourceIndexHeap measures, on the real-shaped NEFF of TestSourceBigUnderDefaultBudget,
// the heap the source index holds per .dbg byte (the open with it, then without it) beside what
// it is charged (Held): heap-B/dbg-B and held-B/dbg-B should be close.
func BenchmarkSourceIndexHeap(b *testing.B) {
	if !realfiles.Has(bigneff.Source) {
		b.Skip(realfiles.Missing(bigneff.Source))
	}
	p := filepath.Join(b.TempDir(), "big.neff")
	st, err := bigneff.Generate(p, bigneff.Options{Size: 12 << 20, DefJSON: 100_000, DebugJSON: 100_000})
	if err != nil {
		b.Fatal(err)
	}
	var dbgBytes, heap, held int64
	for range b.N {
		r, err := os.Open(p)
		if err != nil {
			b.Fatal(err)
		}
		f := Open("big.neff", r, st.FileSize, Options{})
		r.Close()
		x := f.Program.Source
		for _, m := range f.Archive.Members {
			if strings.Contains(m.Path, ".dbg") {
				dbgBytes += m.Size
			}
		}
		for _, c := range x.Members {
			held += c.Held()
		}
		runtime.GC()
		var with, without runtime.MemStats
		runtime.ReadMemStats(&with)
		x, f.Program.Source = nil, nil
		runtime.GC()
		runtime.ReadMemStats(&without)
		heap += int64(with.HeapAlloc) - int64(without.HeapAlloc)
		runtime.KeepAlive(f)
	}
	b.ReportMetric(float64(heap)/float64(dbgBytes), "heap-B/dbg-B")
	b.ReportMetric(float64(held)/float64(dbgBytes), "held-B/dbg-B")
}
