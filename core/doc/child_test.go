package doc_test

import (
	"strconv"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

// TestChildIndex: Child on a node with many children finds the first child with a key, sees
// children appended, replaced in place or removed, and misses keys that are not there.
func TestChildIndex(t *testing.T) {
	n := &doc.Node{}
	for i := range 1000 {
		n.Add(&doc.Node{Label: "k" + strconv.Itoa(i)})
	}
	n.Add(&doc.Node{Label: "k5", Value: "second"})
	if c := n.Child("k5"); c == nil || c.Value != "" {
		t.Fatalf("first k5: %+v", c)
	}
	if n.Child("nope") != nil {
		t.Fatal("a missing key was found")
	}
	n.Add(&doc.Node{Label: "late"})
	if n.Child("late") == nil {
		t.Fatal("an appended child is not found")
	}
	n.Children[7] = &doc.Node{Label: "swapped"}
	if n.Child("swapped") == nil || n.Child("k7") != nil {
		t.Fatal("a child replaced in place is not seen")
	}
	n.Children = n.Children[:500]
	if n.Child("k600") != nil || n.Child("k499") == nil {
		t.Fatal("the index outlived a shorter Children")
	}
}
