package inspect

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

// A test expander: a stub "n:<count>" has count children keyed by index, each a leaf whose
// span is one byte of member "m" at its index.
func init() {
	expanders["test"] = func(f *File, stub *doc.Node, from, to int) ([]*doc.Node, int, error) {
		total := ChildCount(stub)
		var kids []*doc.Node
		for i := from; i < to; i++ {
			kids = append(kids, &doc.Node{Kind: "number", Key: strconv.Itoa(i), Label: fmt.Sprintf("[%d]", i), Value: strconv.Itoa(i * 7), Span: doc.In("m", int64(i), 1)})
		}
		return kids, total, nil
	}
}

func lazyFile(count int) *File {
	stub := &doc.Node{Kind: "array", Label: "big", Ref: "test:x", Span: doc.In("m", 0, int64(count))}
	stub.SetAttr(doc.AttrMore, strconv.Itoa(count))
	root := &doc.Node{Kind: "neff", Label: "root"}
	m := &doc.Node{Kind: "member", Label: "m", Ref: doc.MemberRef("m")}
	m.Add(stub)
	root.Add(&doc.Node{Kind: "field", Label: "first", Value: "seven"}, m)
	return &File{Doc: &doc.Document{Root: root}}
}

func TestLazyNodeChildrenWalk(t *testing.T) {
	f := lazyFile(5000)
	n, err := f.Node([]string{"m", "big", "4321"})
	if err != nil || n.Value != strconv.Itoa(4321*7) {
		t.Fatalf("Node: %v %+v", err, n)
	}
	kids, total, err := f.Children([]string{"m", "big"}, 4998, 9000)
	if err != nil || total != 5000 || len(kids) != 2 || kids[1].Key != "4999" {
		t.Fatalf("Children: %v total %d kids %d", err, total, len(kids))
	}
	if _, err := f.Node([]string{"m", "nope"}); err == nil {
		t.Fatal("a missing key must fail")
	}
	// Walk the whole tree in pages of 100 visits and check it resumes without loss.
	var seen int
	var after []string
	for pages := 0; ; pages++ {
		count := 0
		next, err := f.Walk(after, func(p []string, n *doc.Node) bool { seen++; count++; return count < 100 })
		if err != nil {
			t.Fatal(err)
		}
		if next == nil {
			break
		}
		after = next
		if pages > 100 {
			t.Fatal("walk does not end")
		}
	}
	if seen != 5000+4 { // root, first, m, big, and the elements
		t.Fatalf("walked %d nodes", seen)
	}
}

func TestLazySearchAndLocate(t *testing.T) {
	f := lazyFile(3000)
	hits, next, err := f.Search("2002", nil, 10, 0) // element 286's value (286×7) comes first, then [2002]'s label
	if err != nil || len(hits) != 4 || next != nil || !slices.Equal(hits[0], []string{"m", "big", "286"}) || !slices.Equal(hits[1], []string{"m", "big", "2002"}) {
		t.Fatalf("hits %v next %v err %v", hits, next, err)
	}
	hits, next, err = f.Search("[", nil, 10, 0)
	if err != nil || len(hits) != 10 || next == nil {
		t.Fatalf("capped search: %d hits, next %v, err %v", len(hits), next, err)
	}
	hits, _, _ = f.Search("[", next, 10, 0)
	if len(hits) != 10 || hits[0][2] != "10" {
		t.Fatalf("resumed search starts at %v", hits[0])
	}
	p, err := f.Locate("m", 2999)
	if err != nil || !slices.Equal(p, []string{"m", "big", "2999"}) {
		t.Fatalf("Locate: %v %v", p, err)
	}
	if _, err := f.Locate("other", 1); err == nil {
		t.Fatal("a byte no node holds must fail")
	}
}
