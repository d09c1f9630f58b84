package ncfw

import (
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

// TestReadBoundsHostileDump: a dump of more bare values than a real one holds is read up to
// maxDumpValues, its tree up to maxTreeNodes, and one coded finding names the limit.
func TestReadBoundsHostileDump(t *testing.T) {
	text := `{"ncfw_ctx_top_sp": {"x": [` + strings.Repeat("0,", 2*maxDumpValues) + `0]}}`
	d := Read([]byte(text), 0)
	n := 0
	for _, f := range d.Findings {
		if f.Code == doc.CodeNcfwReadLimit {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d findings coded %s", n, doc.CodeNcfwReadLimit)
	}
	nodes := 0
	d.Tree.Walk(func(_ []string, _ *doc.Node) bool { nodes++; return true })
	if nodes > maxTreeNodes+8 || d.Tree.Attrs[doc.AttrViewLimit] == "" {
		t.Fatalf("%d tree nodes, view limit %q", nodes, d.Tree.Attrs[doc.AttrViewLimit])
	}
}
