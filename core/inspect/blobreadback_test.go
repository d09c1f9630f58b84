package inspect

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pwp"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// withBlobHoldMax runs fn with the archive walk holding activation blobs and DVE tables up to
// max bytes.
func withBlobHoldMax(max int64, fn func()) {
	saved := blobHoldMax
	blobHoldMax = max
	defer func() { blobHoldMax = saved }()
	fn()
}

// TestBlobsReadBack opens every real NEFF holding its activation blobs and DVE tables, and
// with the hold limit at 0, so each is read back when a set or a DVE view uses it (what a
// NEFF of blobs over 1 MiB gets). The activation sets and the whole JSON document must be
// the same, and the open that reads them back holds none of their bytes.
func TestBlobsReadBack(t *testing.T) {
	paths := realfiles.NEFFs(t)
	sets := 0
	for _, p := range paths {
		held := openPath(t, p)
		var lazy *File
		withBlobHoldMax(0, func() { lazy = openPath(t, p) })
		for _, m := range lazy.Archive.Members {
			if k := memberKindOf(m.Path).name; (k == "activation-buckets" || k == "activation-control" || k == "dve-table") && m.Data != nil {
				t.Errorf("%s %s: %d bytes held", p, m.Path, len(m.Data))
			}
		}
		if (held.Program == nil) != (lazy.Program == nil) || (held.Program != nil && (held.Program.Act == nil) != (lazy.Program.Act == nil)) {
			t.Fatalf("%s: programs differ", p)
		}
		if held.Program != nil && held.Program.Act != nil {
			hs, ls := held.Program.Act.Sets, lazy.Program.Act.Sets
			if len(hs) != len(ls) {
				t.Fatalf("%s: %d sets held, %d read back", p, len(hs), len(ls))
			}
			for i := range hs {
				if !hs[i].HaveBkt || !ls[i].HaveBkt || !sameBuckets(hs[i].Buckets, ls[i].Buckets) || !reflect.DeepEqual(hs[i].Controls, ls[i].Controls) {
					t.Errorf("%s set %s: the blobs read back differ from the ones held", p, hs[i].Name)
				}
			}
			sets += len(hs)
		}
		var hj, lj bytes.Buffer
		_, err1 := held.WriteJSON(&hj)
		withBlobHoldMax(0, func() { _, _ = lazy.WriteJSON(&lj) })
		if err1 != nil || !bytes.Equal(hj.Bytes(), lj.Bytes()) {
			t.Errorf("%s: the JSON documents differ (%d and %d bytes, %v)", p, hj.Len(), lj.Len(), err1)
		}
	}
	if sets == 0 {
		t.Fatal("no real NEFF has an activation set")
	}
}

// TestBlobReadBackChargesTheBudget: a blob read back gives the bytes the walk held, and is
// charged to the budget before it is read: with one byte less left than its size it is
// refused with the memory limit's code, naming the member, and nothing is read.
func TestBlobReadBackChargesTheBudget(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	held := openPath(t, p)
	var f *File
	withBlobHoldMax(0, func() { f = openPath(t, p) })
	var m *neff.Member
	for _, x := range f.Archive.Members {
		if memberKindOf(x.Path).name == "activation-buckets" {
			m = x
			break
		}
	}
	if m == nil || m.Data != nil || held.Archive.Member(m.Path).Data == nil {
		t.Fatalf("no bucket blob held in one open and not in the other (%v)", m)
	}
	used := f.Budget.Used(budget.Memory)
	if b := f.blobBytes(m, false); !bytes.Equal(b, held.Archive.Member(m.Path).Data) {
		t.Fatalf("%s read back: %d bytes, not the %d held", m.Path, len(b), m.Size)
	}
	if got := f.Budget.Used(budget.Memory); got != used {
		t.Fatalf("a transient read back kept %d bytes of the budget", got-used)
	}
	if !f.Budget.Take(budget.Memory, f.Budget.Left(budget.Memory)-(m.Size-1), "test") {
		t.Fatal("the budget refused the test's take")
	}
	if b := f.blobBytes(m, true); b != nil {
		t.Fatalf("%s read back past the limit", m.Path)
	}
	e := f.Budget.First()
	if e == nil || e.Kind.Code() != doc.CodeBudgetMemory || !strings.Contains(e.Where, m.Path) {
		t.Fatalf("refusal %+v, want %s naming %s", e, doc.CodeBudgetMemory, m.Path)
	}
}

// sameBuckets compares bucket records bit for bit (real tables hold NaN payloads).
func sameBuckets(a, b []pwp.Bucket) bool {
	if len(a) != len(b) {
		return false
	}
	bits := math.Float32bits
	for i := range a {
		x, y := a[i], b[i]
		if bits(x.D0) != bits(y.D0) || bits(x.D1) != bits(y.D1) || bits(x.D2) != bits(y.D2) || bits(x.D3) != bits(y.D3) || bits(x.X) != bits(y.X) {
			return false
		}
	}
	return true
}
