package dbg

import (
	"sort"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// ownedByClass sums, per class, the bytes whose deepest span has that class (what coverage
// counts); gaps and overlaps between top-level spans are reported.
func ownedByClass(t *testing.T, name string, b []byte) map[Class]int64 {
	t.Helper()
	type span struct {
		off, end int64
		depth    int
		c        Class
	}
	var ss []span
	Spans(name, b, func(off, n int64, depth int, c Class) { ss = append(ss, span{off, off + n, depth, c}) })
	var at int64
	for _, s := range ss {
		if s.depth == 0 {
			if s.off != at {
				t.Errorf("%s: top-level field at byte %d, want %d (no gap, no overlap)", name, s.off, at)
			}
			at = s.end
		}
	}
	if at != int64(len(b)) {
		t.Errorf("%s: top-level fields end at byte %d of %d", name, at, len(b))
	}
	// Deepest owner per byte: later (deeper) spans overwrite earlier ones, as they nest.
	sort.SliceStable(ss, func(i, j int) bool { return ss[i].depth < ss[j].depth })
	owner := make([]Class, len(b))
	for _, s := range ss {
		for i := s.off; i < s.end; i++ {
			owner[i] = s.c
		}
	}
	out := map[Class]int64{}
	for _, c := range owner {
		out[c]++
	}
	return out
}

// TestSpansAgreeWithDecode: the span walk sees every field Decode reads, past the node budget
// too, and explains each byte the way Decode's own coverage count does.
func TestSpansAgreeWithDecode(t *testing.T) {
	n := 0
	for _, path := range realfiles.NEFFs(t) {
		for p, b := range dbgMembers(t, path) {
			if _, _, ok := Match(p); !ok {
				continue
			}
			n++
			got := ownedByClass(t, p, b)
			want := Decode(p, b).Coverage
			if got[ClassNamed] != want.Named || got[ClassUnknown] != want.Unknown || got[ClassGeneric] != want.Generic || got[ClassNone] != want.None {
				t.Errorf("%s %s: spans named/unknown/generic/none %d/%d/%d/%d, Decode counts %d/%d/%d/%d", path, p,
					got[ClassNamed], got[ClassUnknown], got[ClassGeneric], got[ClassNone], want.Named, want.Unknown, want.Generic, want.None)
			}
		}
	}
	if n == 0 {
		t.Fatal("no .dbg member in the real NEFFs")
	}
}

// TestSpansOfBrokenMember: bytes after a wire error are one ClassNone span, like Decode's
// hex node.
func TestSpansOfBrokenMember(t *testing.T) {
	b := []byte{0x0a, 0x02, 'h', 'i', 0x1a, 0x7f, 0x08} // description "hi", then a record cut short
	got := ownedByClass(t, "sg00/debug_info_asm_PE.dbg", b)
	if got[ClassNamed] != 4 || got[ClassNone] != 3 {
		t.Errorf("named %d, none %d; want 4 and 3", got[ClassNamed], got[ClassNone])
	}
}
