package jsonspan

import (
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
)

// A million levels of balanced nesting parse without recursion and come back flat below the
// stated depth, with one finding; the tree is no deeper than the limit.
func TestDeepNestingFlattened(t *testing.T) {
	const n = 1_000_000
	b := []byte(strings.Repeat(`{"a":[`, n) + `1` + strings.Repeat(`]}`, n))
	v, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	tree := Tree(v, "deep", "m.json", 0)
	depth := 0
	for c := tree; len(c.Children) > 0; c = c.Children[0] {
		depth++
	}
	if depth > DefaultMaxDepth+1 {
		t.Fatalf("tree is %d levels deep, limit %d", depth, DefaultMaxDepth)
	}
	if len(tree.Findings) != 1 || tree.Findings[0].Code != doc.CodeJSONDeepNesting {
		t.Fatalf("findings: %+v", tree.Findings)
	}
}

// The budget stops a parse before it builds more values than allowed, and says so.
func TestParseBudget(t *testing.T) {
	b := budget.New(budget.Limits{Values: 1000})
	big := []byte(`[` + strings.Repeat(`0,`, 1_000_000) + `0]`)
	v, err := ParseWith(big, Options{Budget: b, Where: "sg00/x.json"})
	e, ok := err.(*Error)
	if !ok || !e.Limit {
		t.Fatalf("want a limit error, got %v", err)
	}
	if v == nil || v.Len() != 999 {
		t.Fatalf("partial tree: %d items", v.Len())
	}
	if got := b.Used(budget.Values); got != 1000 {
		t.Fatalf("values used %d", got)
	}
	if msg := b.Message(); !strings.Contains(msg, "--max-values") || !strings.Contains(msg, "sg00/x.json byte") {
		t.Fatalf("message: %s", msg)
	}
}

// Repeated keys get a finding each (bounded), and a wide object with unique keys stays linear.
func TestDuplicateKeysAndWideObjects(t *testing.T) {
	v, err := Parse([]byte(`{"a":1,"b":2,"a":3}`))
	if err != nil {
		t.Fatal(err)
	}
	tree := Tree(v, "o", "m.json", 0)
	if len(tree.Children[0].Findings) != 1 || tree.Children[0].Findings[0].Code != doc.CodeJSONDuplicateKey {
		t.Fatalf("duplicate key: %+v", tree.Children[0].Findings)
	}
	if tree.Children[0].Key != "a#0" && tree.Children[0].Key != "a" {
		t.Fatalf("key %q", tree.Children[0].Key)
	}
	tree = Tree(mustParse(t, wideObject(200_000)), "wide", "", 0)
	if n := countFindings(tree); n != 0 {
		t.Fatalf("%d repeated-key findings on unique keys", n)
	}
	if len(tree.Children) != 200_000 {
		t.Fatalf("%d children, want 200,000", len(tree.Children))
	}
}

// BenchmarkWideObject: the repeated-key check must keep a wide object linear (a quadratic check
// took minutes on 200,000 keys). Its figure belongs here, not in a timed test.
func BenchmarkWideObject(b *testing.B) {
	for _, n := range []int{20_000, 200_000} {
		data := wideObject(n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				v, err := Parse(data)
				if err != nil {
					b.Fatal(err)
				}
				Tree(v, "wide", "", 0)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
	}
}

func wideObject(n int) []byte {
	var sb strings.Builder
	sb.WriteString("{")
	for i := range n {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`"k` + strconv.Itoa(i) + `":0`)
	}
	sb.WriteString("}")
	return []byte(sb.String())
}

func mustParse(t *testing.T, data []byte) *Value {
	t.Helper()
	v, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func countFindings(n *doc.Node) int {
	c := 0
	for _, f := range n.Findings {
		if f.Code == doc.CodeJSONDuplicateKey {
			c++
		}
	}
	for _, ch := range n.Children {
		c += countFindings(ch)
	}
	return c
}
