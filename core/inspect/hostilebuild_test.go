package inspect

import (
	"sync"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// hostileBuilds memoises neffbuild's hostile classes by name and scale: building one (gzip of
// up to tens of MB) costs more than opening it, and several tests open the same class at the
// same scale (TestHostileClassesStayInBudget and TestEveryFindingHasACode all of them). The
// bytes are shared; Open only reads them.
var hostileBuilds sync.Map // hostileKey → *hostileBuild

type hostileKey struct {
	name  string
	scale float64
}

type hostileBuild struct {
	once sync.Once
	raw  []byte
}

// hostileRaw is the class name built at scale, built once per test binary.
func hostileRaw(t testing.TB, name string, scale float64) []byte {
	t.Helper()
	v, _ := hostileBuilds.LoadOrStore(hostileKey{name, scale}, &hostileBuild{})
	b := v.(*hostileBuild)
	b.once.Do(func() {
		for _, h := range neffbuild.HostileClasses() {
			if h.Name == name {
				b.raw = h.Build(scale)
			}
		}
	})
	if b.raw == nil {
		t.Fatalf("no hostile class %s", name)
	}
	return b.raw
}

// hostileScale is the scale the budget and code tests open a class at: small enough that
// make test-core stays quick, large enough that each class still reaches what it is about
// (its limit's finding, or, for the floods, thousands of entries past doc.RepeatsKept).
func hostileScale(name string) float64 {
	if s, ok := containerScale[name]; ok {
		return s
	}
	if s, ok := hostileTestScale[name]; ok {
		return s
	}
	return 1
}

// hostileTestScale: the issue-15 classes shrunk, and the .dbg and table-loads classes at the
// scales where they reach their own caps (dbg.names-limit, dbg.attrs-limit,
// isa.table-loads-limit; TestEveryFindingHasACode requires those codes). At scale 1 they were
// tens of MB that the small budget's inflate limit cut before any cap was reached.
var hostileTestScale = map[string]float64{
	"many-members": 0.2, "json-many": 0.1, "json-wide": 0.1, "json-deep": 1, "bomb": 0.25, "blob-flood": 0.25,
	"dbg-wiretype": 0.01, "dbg-kernel-paths": 0.07, "dbg-attrs": 0.04, "table-loads": 0.3,
}
