package isa

import (
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

func loadWord(set byte) []byte {
	w := make([]byte, WordSize)
	w[0], w[1] = 0x23, 0x10
	f := setIndexAccessor.spec[0x23]
	w[f.Off] = set
	return w
}

func loadsFindings(s *Stream) (n int, sev []string) {
	for _, f := range s.Findings() {
		if f.Code == doc.CodeISALoadsLimit {
			n++
			sev = append(sev, f.Severity)
		}
	}
	return n, sev
}

// TestTableLoadsThinned: past maxLoads only the loads that change the set are kept, every
// word's resident set stays exact, and an info finding says so.
func TestTableLoadsThinned(t *testing.T) {
	x := NewIndexer("sg00/Activation.bin")
	n := maxLoads + 1000
	for range n {
		x.Write(loadWord(2))
	}
	x.Write(loadWord(5))
	for range 10 {
		x.Write(loadWord(5))
	}
	s := x.finish()
	if len(s.loads) != maxLoads+1 {
		t.Fatalf("%d loads kept, want %d", len(s.loads), maxLoads+1)
	}
	if set, _, ok := s.ResidentSet(n - 1); !ok || set != 2 {
		t.Fatalf("word %d: set %d %v", n-1, set, ok)
	}
	if set, at, ok := s.ResidentSet(n + 5); !ok || set != 5 || at != n {
		t.Fatalf("word %d: set %d at %d %v", n+5, set, at, ok)
	}
	if c, sev := loadsFindings(s); c != 1 || sev[0] != doc.Info || !s.LoadsKnown(n+10) {
		t.Fatalf("findings %v", sev)
	}
}

// TestTableLoadsRefused: when the budget refuses the index more room, the loads after it are
// not kept, the words after them say so (LoadsKnown), and a warning names the limit.
func TestTableLoadsRefused(t *testing.T) {
	x := NewIndexer("sg00/Activation.bin")
	var granted int64
	x.Grow = func(n int64) bool {
		if granted+n > 1024 {
			return false
		}
		granted += n
		return true
	}
	for i := range 1000 {
		x.Write(loadWord(byte(i % 3)))
	}
	s := x.finish()
	if int64(cap(s.loads))*8 > 1024 || s.loadsCut < 0 {
		t.Fatalf("%d loads kept (cap %d), cut at %d", len(s.loads), cap(s.loads), s.loadsCut)
	}
	if !s.LoadsKnown(s.loadsCut) || s.LoadsKnown(s.loadsCut+1) {
		t.Fatal("LoadsKnown does not follow the cut")
	}
	if c, sev := loadsFindings(s); c != 1 || sev[0] != doc.Warning {
		t.Fatalf("findings %v", sev)
	}
}
