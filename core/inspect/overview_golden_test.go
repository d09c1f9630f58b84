package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/golden"
)

// TestOverviewGolden pins Overview's whole answer on every real NEFF: the overview node and
// the links it leaves for listing rows, after a full open and after a deferred open (source
// pending), then once the deferred source is applied.
func TestOverviewGolden(t *testing.T) {
	var sums golden.Sums
	for _, p := range golden.SharedNEFFs(t) {
		rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(p)), filepath.Base(p)))
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := fh.Stat()
		for _, deferred := range []bool{false, true} {
			f := Open(filepath.Base(p), fh, st.Size(), Options{DeferSource: deferred})
			writeOverview(t, &sums, fmt.Sprintf("%s deferred=%v", rel, deferred), f)
			if deferred && f.SourcePending() {
				s, err := f.IndexSource(context.Background(), fh)
				if err != nil {
					t.Fatal(err)
				}
				f.ApplySource(s)
				writeOverview(t, &sums, rel+" applied", f)
			}
		}
		fh.Close()
	}
	sums.Check(t, "testdata/overview.sha256")
}

// writeOverview adds the overview of f and the links it leaves for listing rows.
func writeOverview(t *testing.T, sums *golden.Sums, title string, f *File) {
	t.Helper()
	var buf bytes.Buffer
	var ov *doc.Node
	if f.Doc != nil && f.Doc.Root != nil && len(f.Doc.Root.Children) > 0 {
		ov = f.Doc.Root.Children[0]
	}
	j, err := json.MarshalIndent(ov, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	buf.Write(j)
	buf.WriteByte('\n')
	keys := make([]string, 0, len(f.links))
	for k := range f.links {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&buf, "link %s -> %s\n", k, f.links[k])
	}
	sums.Add(title, buf.Bytes())
}
