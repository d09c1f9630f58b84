package inspect

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// partialFacts are the facts a partial overview shares with the overview.
type partialFacts struct {
	Value                    string
	Target, Compiler, Cores  string
	TargetAttrs              map[string]string
	IO                       [][]string
	Engines                  [][]string // core, engine, count, member
	EnginesValue, ModelValue string
}

func factsOf(ov *doc.Node, withIO bool) partialFacts {
	var f partialFacts
	f.Value = ov.Value
	if m := ov.Child(OverviewModel); m != nil {
		f.ModelValue = m.Value
		if t := m.Child("target"); t != nil {
			f.Target, f.TargetAttrs = t.Value, t.Attrs
		}
		if c := m.Child("compiler"); c != nil {
			f.Compiler = c.Value
		}
		if c := m.Child("cores"); c != nil {
			f.Cores = c.Value
		}
	}
	if io := ov.Child(OverviewIO); withIO && io != nil && io.Table != nil {
		f.IO = io.Table.Rows
	}
	if e := ov.Child(OverviewEngines); e != nil {
		f.EnginesValue = e.Value
		for _, c := range e.Children {
			f.Engines = append(f.Engines, []string{c.Attrs[AttrCore], c.Attrs[AttrEngine], c.Attrs[AttrCount], c.Detail, c.Span.String()})
		}
	}
	return f
}

// TestPartialOverviewAgrees: on every real NEFF, the partial overview built from the whole
// archive says what the overview says on every fact they share (chip, compiler, cores, the
// inputs and outputs, each stream's instruction count), and the open's OnPartial calls come
// right after the header and then with more members each time.
func TestPartialOverviewAgrees(t *testing.T) {
	paths := realfiles.NEFFs(t)
	if realfiles.SharedDir() == "" {
		t.Logf("only the repository's real NEFFs are checked: ../shared/testdata-real/ is not beside the clone")
	}
	for _, p := range paths {
		t.Run(filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), func(t *testing.T) {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var partials []*doc.Node
			headerSeen := false
			f := Open(filepath.Base(p), bytes.NewReader(b), int64(len(b)), Options{
				OnHeader:     func(*doc.Document) { headerSeen = true },
				OnPartial:    func(n *doc.Node) { partials = append(partials, n) },
				PartialEvery: -1, // as often as the walk calls: every chunk
			})
			if !headerSeen || len(partials) < 2 {
				t.Fatalf("%d partial overviews (header seen %v), want one after the header and one at the walk's end", len(partials), headerSeen)
			}
			first := partials[0]
			if first.Attrs[AttrPartial] != "true" || first.Child(OverviewReading).Attrs[AttrMembers] != "0" {
				t.Errorf("the first partial overview is not the header's: %v", first.Child(OverviewReading).Attrs)
			}
			if first.Find(OverviewModel, "target").Attrs[AttrPending] == "" {
				t.Errorf("the header's partial overview names a target before kelf-0.json is read: %+v", first.Find(OverviewModel, "target"))
			}
			last := partials[len(partials)-1]
			if got := last.Child(OverviewReading).Attrs[AttrMembers]; got != strconv.Itoa(len(f.Archive.Members)) {
				t.Errorf("the last partial overview lists %s members, the archive %d", got, len(f.Archive.Members))
			}
			ov := f.Doc.Root.Children[0]
			want := factsOf(ov, true)
			for _, n := range []*doc.Node{last, PartialOverview(f.Archive, Progress{Phase: "done"})} {
				got := factsOf(n, true)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("partial overview\n  %+v\nthe overview\n  %+v", got, want)
				}
			}
			// Each partial overview on the way agrees with the overview on the streams it lists.
			wantCells := map[string][]string{}
			for _, c := range want.Engines {
				wantCells[c[3]] = c
			}
			for i, n := range partials {
				for _, c := range factsOf(n, false).Engines {
					if w := wantCells[c[3]]; !reflect.DeepEqual(c, w) {
						t.Errorf("partial %d: engine cell %v, the overview's %v", i, c, w)
					}
				}
			}
			t.Logf("%d partial overviews; the overview: %s", len(partials), ov.Value)
		})
	}
}

// TestPartialOverviewManyMembers: an archive of many members, each one an engine stream by its
// path, costs a partial overview its bounded grid, not one cell per member.
func TestPartialOverviewManyMembers(t *testing.T) {
	var ms []neffbuild.Member
	for i := range 3000 {
		ms = append(ms, neffbuild.Member{Path: fmt.Sprintf("sg%04d/PE.bin", i), Data: make([]byte, 64)})
	}
	data := neffbuild.Bytes(ms, neffbuild.Options{Name: "many.neff"})
	var last *doc.Node
	n := 0
	Open("many.neff", bytes.NewReader(data), int64(len(data)), Options{OnPartial: func(ov *doc.Node) { last = ov; n++ }})
	if last == nil {
		t.Fatal("no partial overview")
	}
	eng := last.Child(OverviewEngines)
	if len(eng.Children) != partialCellsMax || len(eng.Findings) != 0 || eng.Attrs[doc.AttrViewLimit] == "" {
		t.Errorf("%d engine cells, findings %v, attrs %v; want %d and a view limit saying so (not a finding)", len(eng.Children), eng.Findings, eng.Attrs, partialCellsMax)
	}
	if got := last.Child(OverviewReading).Attrs[AttrMembers]; got != "3000" {
		t.Errorf("the last partial overview lists %s members, want 3000", got)
	}
	t.Logf("%d partial overviews", n)
}
