package doc

import "testing"

// TestFlagRepeatedCollapses: past RepeatsKept findings of one code a node keeps one summary of
// that code, whatever the flood; another code on the same node is counted apart.
func TestFlagRepeatedCollapses(t *testing.T) {
	n := New(KindArchive, "members", "")
	for i := range 100_000 {
		n.FlagRepeated("test.flood", Warning, At(int64(i), 1), "entry %d", i)
	}
	n.FlagRepeated("test.other", Info, nil, "once")
	count := map[Code]int{}
	for _, f := range n.Findings {
		count[f.Code]++
	}
	if count["test.flood"] != RepeatsKept+1 || count["test.other"] != 1 {
		t.Fatalf("findings per code %v, want %d of test.flood and 1 of test.other", count, RepeatsKept+1)
	}
	// The first places are kept; the summary has none of its own.
	for i, f := range n.Findings[:RepeatsKept] {
		if f.Span == nil || f.Span.Offset != int64(i) {
			t.Fatalf("finding %d is at %v, want byte %d", i, f.Span, i)
		}
	}
	if s := n.Findings[RepeatsKept]; s.Span != nil || s.Message != MoreLikeThis("test.flood", 100_000-RepeatsKept) {
		t.Fatalf("summary %+v does not count the %d more", s, 100_000-RepeatsKept)
	}
}

// TestWalkDeepChain: a chain 50,000 nodes deep is walked with one shared path, each visit
// seeing its own depth and its parent's keys.
func TestWalkDeepChain(t *testing.T) {
	root := New(KindDir, "r", "")
	n := root
	const depth = 50_000
	for range depth {
		n = n.Add(New(KindDir, "d", ""))
	}
	visits := 0
	root.Walk(func(path []string, c *Node) bool {
		if len(path) != visits {
			t.Fatalf("visit %d has a path of %d keys", visits, len(path))
		}
		if len(path) > 0 && path[len(path)-1] != "d" {
			t.Fatalf("visit %d ends in %q", visits, path[len(path)-1])
		}
		visits++
		return true
	})
	if visits != depth+1 {
		t.Fatalf("%d visits, want %d", visits, depth+1)
	}
}
