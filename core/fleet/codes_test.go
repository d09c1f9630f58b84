package fleet

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestEveryFleetFindingHasACode: the analyses across files (diff, compare, the scan's
// records) over every real NEFF and a hostile class opened under a small budget give only
// findings whose code is a row of the one table.
func TestEveryFleetFindingHasACode(t *testing.T) {
	var reals []*inspect.File
	for _, p := range realfiles.Glob("*/*.neff") {
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { fh.Close() })
		st, _ := fh.Stat()
		reals = append(reals, inspect.Open(filepath.Base(p), fh, st.Size(), inspect.Options{}))
	}
	if len(reals) == 0 {
		t.Skip("no real NEFFs")
	}
	// The last hostile class, at the scale and under the limits inspect's code test opens it.
	lim := budget.Limits{Inflate: 64 << 20, Memory: 16 << 20, Values: 100_000, Members: 20_000, Rows: 100_000}
	scale := map[string]float64{"many-members": 0.2, "json-many": 0.1, "json-wide": 0.1, "json-deep": 1, "bomb": 0.25, "blob-flood": 0.25}
	classes := neffbuild.HostileClasses()
	h := classes[len(classes)-1]
	s := scale[h.Name]
	if s == 0 {
		s = 1
	}
	raw := h.Build(s)
	hostile := inspect.Open(h.Name+".neff", bytes.NewReader(raw), int64(len(raw)), inspect.Options{Limits: lim})

	seen := 0
	tree := func(where string, n *doc.Node) {
		n.Walk(func(_ []string, n *doc.Node) bool {
			for _, f := range n.Findings {
				seen++
				if _, ok := doc.Meaning(f.Code); !ok {
					t.Errorf("%s: code %q is not in doc.Codes (%q)", where, f.Code, f.Message)
				}
			}
			return true
		})
	}
	if len(reals) > 1 {
		tree("diff", Diff(reals[0], reals[1]))
	}
	tree("diff with a hostile file", Diff(reals[0], hostile))
	tree("compare", Compare(append(reals, hostile)))
	tree("compare of one", Compare(reals[:1]))
	for _, f := range append(reals, hostile) {
		for _, p := range NewScanRecord(f, "c/neuronxcc-2.21/MODULE_1+d41d8cd9/model.neff", nil).Problems {
			seen++
			if _, ok := doc.Meaning(p.Code); !ok {
				t.Errorf("%s: scan problem code %q is not in doc.Codes (%q)", f.Name, p.Code, p.Message)
			}
		}
	}
	if seen == 0 {
		t.Error("no finding was checked")
	}
}
