package inspect

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// A deferred open whose source lines are mapped afterwards ends with the Document an eager
// open gives, byte for byte: the model's source node, the .dbg members' content, the findings,
// the overview. Until then the overview says the answer is pending and nothing is mapped.
// (The real NEFFs of ../shared are used when present; matmul_small is in the repository.)
func TestDeferredSourceGivesTheSameDocument(t *testing.T) {
	paths := realfiles.NEFFs(t)
	// A NEFF without .dbg members: nothing to map, so the deferred open maps it at once (the
	// source node says there is no debug info) and is the eager open's.
	{
		b := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "nodebug.neff"})
		want := Open("nodebug.neff", bytes.NewReader(b), int64(len(b)), Options{})
		got := Open("nodebug.neff", bytes.NewReader(b), int64(len(b)), Options{DeferSource: true})
		wb, _ := want.Doc.MarshalMsg(nil)
		gb, _ := got.Doc.MarshalMsg(nil)
		if got.SourcePending() || !bytes.Equal(wb, gb) {
			t.Errorf("a NEFF without debug info: pending %v, the deferred open's Document differs from the eager one's: %v", got.SourcePending(), !bytes.Equal(wb, gb))
			diffFirst(t, want.Doc.Root, got.Doc.Root, nil)
		}
		if got.Doc.Root.Find("model", "source") == nil {
			t.Error("a NEFF without debug info: no source node (it says there is no debug info)")
		}
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		want := Open(name, bytes.NewReader(b), int64(len(b)), Options{})
		// Small debug info is mapped in the open after all (DeferSourceOver): the eager open's
		// Document, nothing pending; bigger debug info stays deferred.
		_, dbgBytes := DbgMembers(want.Archive)
		small := Open(name, bytes.NewReader(b), int64(len(b)), Options{DeferSource: true, DeferSourceOver: 64 << 10})
		if small.SourcePending() != (dbgBytes > 64<<10) {
			t.Errorf("%s (%d B of .dbg): pending %v with DeferSourceOver 64 KiB", name, dbgBytes, small.SourcePending())
		} else if !small.SourcePending() {
			wb, _ := want.Doc.MarshalMsg(nil)
			sb, _ := small.Doc.MarshalMsg(nil)
			if !bytes.Equal(wb, sb) {
				t.Errorf("%s: mapped in the open (DeferSourceOver), the Document differs from the eager one's", name)
				diffFirst(t, want.Doc.Root, small.Doc.Root, nil)
			}
		}
		got := Open(name, bytes.NewReader(b), int64(len(b)), Options{DeferSource: true})
		if !got.SourcePending() {
			t.Fatalf("%s: a deferred open says its source lines are mapped", name)
		}
		if got.Program.Source != nil || got.Doc.Root.Find("model", "source") != nil {
			t.Fatalf("%s: a deferred open mapped the source lines", name)
		}
		pending := got.Doc.Root.Find("overview", OverviewSource)
		if pending == nil || pending.Attrs[AttrPending] == "" {
			t.Fatalf("%s: the overview's source answer is not pending: %+v", name, pending)
		}
		m, err := got.IndexSource(context.Background(), nil)
		if err != nil {
			t.Fatalf("%s: IndexSource: %v", name, err)
		}
		got.ApplySource(m)
		if got.SourcePending() {
			t.Errorf("%s: still pending after ApplySource", name)
		}
		wb, _ := want.Doc.MarshalMsg(nil)
		gb, _ := got.Doc.MarshalMsg(nil)
		if !bytes.Equal(wb, gb) {
			t.Errorf("%s: the Document differs from an eager open's (%d vs %d bytes)", name, len(gb), len(wb))
			diffFirst(t, want.Doc.Root, got.Doc.Root, nil)
		}
		// The listing's source column and the instruction detail are the eager open's too.
		if ps := want.Program.Streams; len(ps) > 0 && want.Program.Source != nil {
			s := ps[0]
			for _, i := range []int{0, int(s.Size/64) - 1} {
				if a, b := want.Program.Source.Source(s.Member, i).Text(), got.Program.Source.Source(s.Member, i).Text(); a != b {
					t.Errorf("%s: %s word %d: source %q, eager %q", name, s.Member, i, b, a)
				}
			}
		}
	}
}

// A cancelled mapping changes nothing and gives its memory back; it can be run again.
func TestDeferredSourceCancelled(t *testing.T) {
	b := realfiles.Read(t, "nkipy/matmul_small.neff")
	// A limit small enough that no member is held: the mapping must read the archive again.
	f := Open("m.neff", bytes.NewReader(b), int64(len(b)), Options{DeferSource: true, Limits: budget.Limits{Memory: 64 << 20}})
	used := f.Budget.Used(budget.Memory)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.IndexSource(ctx, nil); err == nil {
		t.Fatal("a cancelled mapping gave no error")
	}
	if !f.SourcePending() || f.Budget.Used(budget.Memory) != used {
		t.Fatalf("after a cancelled mapping: pending %v, memory used %d (was %d)", f.SourcePending(), f.Budget.Used(budget.Memory), used)
	}
	m, err := f.IndexSource(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	f.ApplySource(m)
	if n := f.Doc.Root.Find("model", "source"); n == nil {
		t.Fatal("no source node after mapping again")
	}
	if _, err := f.IndexSource(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "nothing to map") {
		t.Fatalf("mapping twice: %v", err)
	}
}

// diffFirst reports the first node where two trees differ.
func diffFirst(t *testing.T, a, b *doc.Node, path []string) bool {
	t.Helper()
	ab, _ := a.MarshalMsg(nil)
	bb, _ := b.MarshalMsg(nil)
	if bytes.Equal(ab, bb) {
		return false
	}
	if len(a.Children) == len(b.Children) {
		for i := range a.Children {
			if diffFirst(t, a.Children[i], b.Children[i], append(path, a.Children[i].PathKey())) {
				return true
			}
		}
	}
	a2, b2 := *a, *b
	a2.Children, b2.Children = nil, nil
	t.Errorf("first difference at %v: eager %d children %+v\ndeferred %d children %+v", path, len(a.Children), a2, len(b.Children), b2)
	return true
}

// IndexSourceWith pauses between pieces of its work (the page's worker answers its other calls
// only there): at least once per .dbg member scanned, and the mapping is IndexSource's.
func TestIndexSourcePauses(t *testing.T) {
	b, err := os.ReadFile(realfiles.Path(t, "nkipy/matmul_small.neff"))
	if err != nil {
		t.Fatal(err)
	}
	want := Open("m.neff", bytes.NewReader(b), int64(len(b)), Options{})
	got := Open("m.neff", bytes.NewReader(b), int64(len(b)), Options{DeferSource: true})
	pauses := 0
	m, err := got.IndexSourceWith(context.Background(), nil, func() { pauses++ })
	if err != nil {
		t.Fatal(err)
	}
	got.ApplySource(m)
	if n, _ := DbgMembers(got.Archive); pauses < n {
		t.Errorf("%d pauses for %d .dbg members", pauses, n)
	}
	wb, _ := want.Doc.MarshalMsg(nil)
	gb, _ := got.Doc.MarshalMsg(nil)
	if !bytes.Equal(wb, gb) {
		t.Error("the paused mapping's Document differs from the eager open's")
	}
}
