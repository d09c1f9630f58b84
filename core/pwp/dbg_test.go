package pwp

import "testing"

func TestDbg(t *testing.T) {
	for name := range realSetDirs {
		s := loadRealSet(t, name)
		t.Logf("%s: %d funcs %d bkt %d ctrl", name, len(s.Functions), len(s.Buckets), len(s.Controls))
		for _, f := range s.AllFindings() {
			t.Logf("  %s %s", f.Severity, f.Message)
		}
		for _, f := range s.Functions {
			t.Logf("  %s id%d bkt %d..%d lut %d ctl %d..%d oct %d sym %s", f.Name, f.ID, f.BktStart, f.BktEnd, f.LUTSize, f.CtrlStart, f.CtrlEnd, len(f.Octaves), f.Symmetry.Class())
		}
	}
}
