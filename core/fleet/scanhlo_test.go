package fleet

import (
	"strings"
	"testing"
)

// Groups: one graph whose keys differ only by the temporary path can never be hit; one whose
// masked digests differ says to diff two of them; a single entry has no why; the largest
// group comes first, and Lines says the same as the groups' lines.
func TestGraphGroups(t *testing.T) {
	rec := func(p, graph, module, masked string, temp bool) *ScanRecord {
		return &ScanRecord{Path: p, Graph: &graph, Cache: &CacheInfo{Module: module, FlagsHash: "fad94d7c", Compiler: "2.23"},
			HLO: &ScanHLO{Kernels: []string{"k"}, TemporaryPaths: temp, Masked: masked}}
	}
	var g GraphGroups
	g.Add(rec("a/1", "g1", "MODULE_1", "m", true))
	g.Add(rec("b/1", "g2", "MODULE_5", "x", true))
	g.Add(rec("b/2", "g2", "MODULE_6", "y", true))
	g.Add(rec("a/2", "g1", "MODULE_2", "m", true))
	g.Add(rec("a/3", "g1", "MODULE_3", "m", true))
	g.Add(rec("c/1", "g3", "MODULE_7", "z", false))
	g.Add(&ScanRecord{Path: "d/1", Cache: &CacheInfo{Module: "MODULE_8"}})
	groups := g.Groups()
	if len(groups) != 3 || groups[0].Graph != "g1" || groups[1].Graph != "g2" || groups[2].Graph != "g3" {
		t.Fatalf("groups %+v", groups)
	}
	if x := groups[0]; !x.NeverHit || x.Keys != 3 || strings.Join(x.Paths, ",") != "a/1,a/2,a/3" || !strings.Contains(x.Why, "only by the kernel's temporary path") || !strings.Contains(x.Why, "prune") {
		t.Errorf("g1: %+v", x)
	}
	if x := groups[1]; x.NeverHit || !strings.Contains(x.Why, "diff two of them") {
		t.Errorf("g2: %+v", x)
	}
	if x := groups[2]; x.NeverHit || x.Why != "" || x.Line != "" || x.TemporaryPaths {
		t.Errorf("g3: %+v", x)
	}
	lines := g.Lines()
	if len(lines) != 3 || lines[0] != "6 entries with an HLO module: 3 graphs (1 entries without one)" || lines[1] != groups[0].Line || lines[2] != groups[1].Line {
		t.Errorf("lines %q", lines)
	}
}
