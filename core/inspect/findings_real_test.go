package inspect

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/pwp"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// maxRealFindings: a valid file gets at most this many findings in its whole Document:
// what the views leave out is said in the view (doc.AttrViewLimit), not there.
const maxRealFindings = 5

// TestFindingsOfRealNEFFs walks every real NEFF's whole Document (stubs built on demand, as
// inspect --json writes it), counts its findings and prints them: at most maxRealFindings a
// file, and none on a node whose view is limited (the limit is that node's attr, not a finding).
func TestFindingsOfRealNEFFs(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		rel := filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
		f := openPath(t, p)
		var all []string
		limits := 0
		if _, err := f.Walk(nil, func(path []string, n *doc.Node) bool {
			where := strings.Join(path, " › ")
			for _, fd := range n.Findings {
				all = append(all, fd.Severity+" at "+where+": "+fd.Message)
			}
			if n.Attrs[doc.AttrViewLimit] != "" {
				limits++
				if len(n.Findings) > 0 {
					t.Errorf("%s: %s has a view limit and findings %v", rel, where, n.Findings)
				}
			}
			return true
		}); err != nil {
			t.Fatalf("%s: walk: %v", rel, err)
		}
		t.Logf("%s: %d findings, %d views with a limit", rel, len(all), limits)
		for _, s := range all {
			t.Logf("  %s", s)
		}
		if len(all) > maxRealFindings {
			t.Errorf("%s: %d findings, want at most %d", rel, len(all), maxRealFindings)
		}
	}
}

// TestActivationDomainsOnRealNEFFs: every activation function of every real NEFF has its
// catalog domain on its node, and the overview measures its error on that domain's window.
func TestActivationDomainsOnRealNEFFs(t *testing.T) {
	rows := 0
	for _, p := range realfiles.NEFFs(t) {
		rel := filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
		f := openPath(t, p)
		act := f.Doc.Root.Child("overview").Child(OverviewActivation)
		if act == nil {
			continue
		}
		for _, set := range act.Children {
			for _, fn := range set.Children {
				name := fn.Attrs[AttrFunction]
				bare, _, _ := pwp.BareName(name)
				d, ok := pwp.DomainOf(bare)
				if !ok {
					t.Errorf("%s: %s is not in the catalog", rel, name)
					continue
				}
				lo, hi := d.Window()
				if fn.Attrs[doc.AttrDomain] != d.Attr() || fn.Attrs[AttrRange] != fmtFloat(lo)+","+fmtFloat(hi) || fn.Attrs[AttrMaxULP] == "" {
					t.Errorf("%s: %s domain %q range %q ulp %q; want %q, window [%g, %g]", rel, fn.Key, fn.Attrs[doc.AttrDomain], fn.Attrs[AttrRange], fn.Attrs[AttrMaxULP], d.Attr(), lo, hi)
				}
				rows++
			}
		}
		f.Doc.Root.Child("activation").Walk(func(_ []string, n *doc.Node) bool {
			if n.Kind == pwp.KindFunction && n.Attrs[doc.AttrDomain] == "" {
				t.Errorf("%s: function node %s has no domain", rel, n.Label)
			}
			return n.Kind != pwp.KindFunction
		})
	}
	t.Logf("%d activation rows measured on their domain", rows)
}

// TestEvaluateOutsideTheDomain: an evaluation past the table's range says so (a domain field
// with the range attr) and gives no error figure; inside it, the relative error is there.
func TestEvaluateOutsideTheDomain(t *testing.T) {
	p, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "ln_400p's domain in Evaluate")
	if !ok {
		return
	}
	f := openPath(t, p)
	ref := doc.PWPRef("sg00/natural_log_exp_and_others.json", "ln_400p")
	for _, c := range []struct {
		x       float32
		outside bool
	}{{-1, true}, {0.5, false}} {
		n, err := f.Evaluate(ref, c.x, "")
		if err != nil {
			t.Fatal(err)
		}
		dom, rel := n.Child("domain"), n.Child("relative error")
		if c.outside != (dom != nil && dom.Attrs[doc.AttrDomain] != "") || c.outside != (rel == nil) {
			t.Errorf("ln(%g): domain field %+v, relative error %+v", c.x, dom, rel)
		}
	}
}

// TestVarUsesCapIsAViewLimit: a var named by more instructions than its node lists says so on
// the node (view_limit, naming the core), not as a finding. matmul_small's uses of one var,
// repeated past the cap.
func TestVarUsesCapIsAViewLimit(t *testing.T) {
	f := openRealBytes(t, "nkipy/matmul_small.neff")
	c := f.Program.Model.Core("sg00")
	uses := f.Program.VarUses(c)
	for id, us := range uses {
		if len(us) == 0 {
			continue
		}
		v := c.VarByID(id)
		many := map[int64][]VarUse{id: nil}
		for len(many[id]) <= maxVarUses {
			many[id] = append(many[id], us...)
		}
		n := varNode(c, v, many, func(...string) bool { return false })
		if n.Table == nil || len(n.Table.Rows) != maxVarUses || len(n.Findings) != 0 || !strings.Contains(n.Attrs[doc.AttrViewLimit], c.Name) {
			t.Errorf("var %s with %d uses: %d rows, findings %v, attrs %v", v.Name, len(many[id]), len(n.Table.Rows), n.Findings, n.Attrs)
		}
		return
	}
	t.Fatal("no var of matmul_small's sg00 is named by an instruction")
}
