package inspect

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// containerScale shrinks the container and manifest hostile classes for tests: the floods keep
// thousands of entries (far past doc.RepeatsKept), the deep paths their full depth.
var containerScale = map[string]float64{
	"deep-longname": 1, "deep-pax": 1, "symlink-flood": 0.02, "zero-block-flood": 0.02, "pax-flood": 0.02,
	"act-missing": 0.1, "def-missing": 0.1, "many-cores": 0.5,
}

// TestContainerAndManifestClasses opens each hostile class of the container, member-tree
// and manifest side with the native budget, as `info --json` does: each open ends with the
// finding that names what was bounded, the document stays shallow, and no node keeps more
// than doc.RepeatsKept findings of one code plus its summary.
func TestContainerAndManifestClasses(t *testing.T) {
	want := map[string][]doc.Code{
		"deep-longname":    {doc.CodeTarPathDepth},
		"deep-pax":         {doc.CodeTarPathDepth},
		"symlink-flood":    {doc.CodeTarNotFile},
		"zero-block-flood": {doc.CodeTarLoneZeroBlock},
		"pax-flood":        {doc.CodeTarBadPax},
		"act-missing":      {doc.CodeManifestMissingMember},
		"def-missing":      {doc.CodeManifestMissingMember, doc.CodeManifestTooManyCores},
		"many-cores":       {doc.CodeManifestTooManyCores},
	}
	// The floods that land on one node: it keeps the first few and one summary.
	collapsed := map[string]doc.Code{"symlink-flood": doc.CodeTarNotFile, "zero-block-flood": doc.CodeTarLoneZeroBlock, "pax-flood": doc.CodeTarBadPax}
	for _, h := range neffbuild.HostileClasses() {
		s, ok := containerScale[h.Name]
		if !ok {
			continue
		}
		t.Run(h.Name, func(t *testing.T) {
			raw := h.Build(s)
			f := Open(h.Name+".neff", bytes.NewReader(raw), int64(len(raw)), Options{DeferSource: true})
			if f.Doc == nil || f.Doc.Root == nil {
				t.Fatal("no document")
			}
			codes := map[doc.Code]int{}
			nodes := 0
			f.Doc.Root.Walk(func(_ []string, n *doc.Node) bool {
				nodes++
				per := map[doc.Code]int{}
				for _, fd := range n.Findings {
					codes[fd.Code]++
					if per[fd.Code]++; per[fd.Code] > doc.RepeatsKept+1 {
						t.Fatalf("node %q holds more than %d findings of %s", n.PathKey(), doc.RepeatsKept+1, fd.Code)
					}
				}
				return true
			})
			for _, c := range want[h.Name] {
				if codes[c] == 0 {
					t.Errorf("no %s finding (codes: %v)", c, codes)
				}
			}
			if c := collapsed[h.Name]; c != "" && codes[c] != doc.RepeatsKept+1 {
				t.Errorf("%d findings of %s, want the first %d and one summary", codes[c], c, doc.RepeatsKept)
			}
			if d := depth(f.Doc.Root); d > neff.MaxPathDepth+16 {
				t.Errorf("document is %d levels deep", d)
			}
			if nodes > 2_000_000 {
				t.Errorf("document holds %d nodes", nodes)
			}
			if f.Program != nil && f.Program.Model != nil && h.Name == "def-missing" && len(f.Program.Model.Cores) >= int(float64(200_000)*s) {
				t.Errorf("%d cores resolved: none was refused", len(f.Program.Model.Cores))
			}
		})
	}
}

// TestDeepMemberListedFlat: a member past neff.MaxPathDepth levels is a child of the members
// node, its label cut, its span and ref the full path.
func TestDeepMemberListedFlat(t *testing.T) {
	var deep neffbuild.Hostile
	for _, h := range neffbuild.HostileClasses() {
		if h.Name == "deep-longname" {
			deep = h
		}
	}
	raw := deep.Build(1)
	f := Open("deep.neff", bytes.NewReader(raw), int64(len(raw)), Options{DeferSource: true})
	members := f.Doc.Root.Child("members")
	if members == nil || len(f.Archive.Members) != 1 {
		t.Fatalf("members node %v, %d members", members != nil, len(f.Archive.Members))
	}
	m := f.Archive.Members[0]
	var flat *doc.Node
	for _, c := range members.Children {
		if c.Kind == doc.KindMember {
			flat = c
		}
	}
	if flat == nil || flat.Ref != doc.MemberRef(m.Path) || flat.Span.Source != m.Path || len(flat.Label) > 200 {
		t.Fatalf("the deep member is not listed flat under members with its full path as ref and span")
	}
}
