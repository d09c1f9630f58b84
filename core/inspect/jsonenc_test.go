package inspect

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// encodeLeaf is the append encoder's output for n without its children.
func encodeLeaf(t *testing.T, n *doc.Node, prefix string) []byte {
	t.Helper()
	b := appendNodeHead(nil, n, n.Attrs, prefix+" ")
	b, err := appendNodeTail(b, n, n.Ref, prefix, prefix+" ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func checkLeaf(t *testing.T, n *doc.Node, prefix string) {
	t.Helper()
	c := *n
	c.Children = nil
	want, err := json.MarshalIndent(&c, prefix, " ")
	if err != nil {
		t.Fatal(err)
	}
	if got := encodeLeaf(t, &c, prefix); !bytes.Equal(got, want) {
		t.Fatalf("node %q:\n got %s\nwant %s", n.PathKey(), got, want)
	}
	if c.Table != nil && len(c.Table.Rows) > 0 {
		// The writer's way: the rows handed over as they are encoded, here after every row.
		var out bytes.Buffer
		saved := tableFlushAt
		tableFlushAt = 1
		b := appendNodeHead(nil, &c, c.Attrs, prefix+" ")
		b, err := appendNodeTailFlushing(b, &c, c.Ref, prefix, prefix+" ", func(b []byte) ([]byte, error) {
			out.Write(b)
			return nil, nil
		})
		tableFlushAt = saved
		if err != nil {
			t.Fatal(err)
		}
		out.Write(b)
		if !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("node %q flushed by rows:\n got %s\nwant %s", n.PathKey(), out.Bytes(), want)
		}
	}
}

// The append encoder prints what encoding/json's MarshalIndent prints, on every node of the
// real NEFFs (stubs expanded) and on strings of every escape class.
func TestNodeEncoderEqualsMarshalIndent(t *testing.T) {
	weird := []string{"", "plain", `q"uote\back`, "<a href='x'>&amp;</a>", "\b\f\n\r\t\x00\x01\x1f\x7f",
		"caf\u00e9 \u2028\u2029 \U0001F600", "bad \xff\xfe utf8 \xe2\x82", strings.Repeat("é", 300)}
	for i, s := range weird {
		n := &doc.Node{Kind: s, Key: s, Label: s, Value: s, Detail: s, Ref: s, Link: s, Span: doc.In(s, int64(i), -1)}
		n.SetAttr(s, s).SetAttr("z"+s, "")
		n.Findings = []doc.Finding{{Severity: s, Message: s, Span: doc.At(1, 2)}, {Severity: "info", Message: s}}
		n.Table = &doc.Table{Columns: []string{s, ""}, Rows: [][]string{{s}, nil, {}}, RowSpans: []doc.Span{{Source: s, Offset: 3}}, RowLinks: []string{s, ""}}
		n.Series = []doc.Series{{Name: s, X: []float64{0, 1e-7, 1e21, -2.5}, Y: []float64{1, 123456789}}}
		checkLeaf(t, n, "")
		checkLeaf(t, n, strings.Repeat(" ", i))
	}
	for _, tb := range []*doc.Table{{}, {Columns: []string{}, Rows: [][]string{}}, {Rows: [][]string{{"a", "b"}}}} {
		checkLeaf(t, &doc.Node{Kind: "k", Table: tb, Attrs: doc.Attrs{}}, "  ")
	}
	paths := append(realfiles.Glob("*/*.neff"), realfiles.Glob("*/*.json")...)
	for _, p := range paths {
		f := openPath(t, p)
		expandAll(t, f, f.Doc.Root)
		nodes := 0
		f.Doc.Root.Walk(func(_ []string, n *doc.Node) bool {
			nodes++
			checkLeaf(t, n, "   ")
			return true
		})
		t.Logf("%s: %d nodes", p, nodes)
	}
}
