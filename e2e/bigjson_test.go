package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/bigneff"
)

// A real-shaped NEFF whose def.json holds thousands of variables and whose NKI debug info is
// a big tree (the lazy JSON): the page opens it with no error, pages the var table in
// the listing (rows from the core), expands def.json's var object (a stub) to its last var,
// and expands the klir source tree past what the open holds.
func TestBigJSONManifestsInThePage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bigjson.neff")
	if _, err := bigneff.Generate(path, bigneff.Options{Size: 2 << 20, DefJSON: 1_500_000, DebugJSON: 1_500_000}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The core as the page runs it (the page's limits).
	f := inspect.Open("bigjson.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{Limits: budget.Page()})
	if fs := f.Doc.Findings(); doc.Worst(fs) == doc.Error {
		for _, x := range fs {
			t.Log(x.Severity, x.Message)
		}
		t.Fatal("the native open has an error finding")
	}
	vars, err := f.Node([]string{"model", "cores", "sg00", "vars"})
	if err != nil || !inspect.IsStub(vars) || !strings.HasPrefix(vars.Ref, "records:") {
		t.Fatalf("native vars node: %v %+v", err, vars)
	}
	nvars := inspect.ChildCount(vars)
	defVar, err := f.Node([]string{"members", "sg00/", "def.json", "content", "var"})
	if err != nil || !inspect.IsStub(defVar) || inspect.ChildCount(defVar) != nvars {
		t.Fatalf("native def.json var: %v stub %v count %d, want %d", err, inspect.IsStub(defVar), inspect.ChildCount(defVar), nvars)
	}
	lastVars, _, err := f.Children([]string{"members", "sg00/", "def.json", "content", "var"}, nvars-1, nvars)
	if err != nil || len(lastVars) != 1 {
		t.Fatalf("last var: %v", err)
	}

	p := newPage(t, siteURL)
	p.openWithPicker(path)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview")
	if n := eval[int](p, `neffscope.state.doc.root.finds ? 0 : [...document.querySelectorAll('#findings-list .finding.error')].length`); n != 0 {
		t.Errorf("%d error findings in the page", n)
	}
	// The var table: the listing, every var a row, fetched by range.
	p.goPath("model/cores/sg00/vars")
	p.waitFor(`!document.getElementById('listing').hidden && document.getElementById('listing').getAttribute('aria-label').includes('Records of sg00/def.json, ' + (`+strconv.Itoa(nvars)+`).toLocaleString('en-US'))`, "the var table in the listing")
	if got := eval[string](p, `document.getElementById('listing-head').textContent`); !strings.Contains(got, "var_id") {
		t.Errorf("the listing's head %q has no var_id column", got)
	}
	// def.json's var object: a stub whose last var is reached by path (fetched on the way).
	last := lastVars[0].PathKey()
	p.goPath("members/sg00%2F/def.json/content/var/" + last)
	if got := eval[float64](p, `neffscope.state.selected.span.off`); int64(got) != lastVars[0].Span.Offset {
		t.Errorf("the last var's span starts at %v, want %d", got, lastVars[0].Span.Offset)
	}
	// The klir source tree: its first core's functions, past what the open held.
	src, err := f.Node([]string{"members", bigneff.KlirMember, "content", "source", "0"})
	if err != nil {
		t.Fatalf("native klir source: %v", err)
	}
	kids, total, err := f.Children([]string{"members", bigneff.KlirMember, "content", "source", "0"}, 0, 1<<20)
	if err != nil || total == 0 {
		t.Fatalf("klir core 0: %v, %d children (%+v)", err, total, src)
	}
	deep := []string{"members", bigneff.KlirMember, "content", "source", "0", kids[len(kids)-1].PathKey()}
	for n := kids[len(kids)-1]; inspect.ChildCount(n) > 0; {
		c, _, err := f.Children(deep, inspect.ChildCount(n)-1, inspect.ChildCount(n))
		if err != nil || len(c) == 0 {
			break
		}
		n = c[0]
		deep = append(deep, n.PathKey())
	}
	enc := make([]string, len(deep))
	for i, k := range deep {
		enc[i] = strings.ReplaceAll(k, "/", "%2F")
	}
	p.goPath(strings.Join(enc, "/"))
	shotThemes(p, t, "bigjson-klir")
}
