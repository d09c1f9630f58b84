package inspect

import (
	"github.com/neffscope/neffscope/core/doc"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// On every real NEFF the open's overview holds the sync card as a promise (on_demand), and the
// card SyncOverview fills in says every wait resolved, no lint, and one SBUF and one PSUM peak
// per core within capacity; the same counts as the model's.
func TestSyncOverviewOnRealFiles(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		f := openBytes(name, b)
		stub := f.Doc.Root.Find("overview", OverviewSync)
		if stub == nil || stub.Attrs[AttrOnDemand] != "true" || len(stub.Children) != 0 {
			t.Fatalf("%s: the open's sync card %+v, want the on-demand promise", name, stub)
		}
		quick := SyncOverview(f, f.Sched())
		if quick.Attrs[AttrPeaks] != "on demand" || quick.Attrs[AttrLints] != "0" || quick.Attrs[AttrWaits] != quick.Attrs[AttrResolved] || len(cardItems(quick)) != 0 {
			t.Errorf("%s: the card without the memory model: attrs %v, %d items", name, quick.Attrs, len(quick.Children))
		}
		m := f.Memmap()
		card := SyncOverview(f, m)
		if card.Attrs[AttrOnDemand] != "" || card.Attrs[AttrLints] != "0" || card.Attrs[AttrWaits] != card.Attrs[AttrResolved] {
			t.Errorf("%s: card attrs %v, want every wait resolved and no lint", name, card.Attrs)
		}
		waits := 0
		for _, c := range m.Cores {
			waits += len(c.Waits)
		}
		if card.Attrs[AttrWaits] != strconv.Itoa(waits) || waits == 0 {
			t.Errorf("%s: card says %s waits, the model has %d", name, card.Attrs[AttrWaits], waits)
		}
		if len(cardItems(card)) != 2*len(m.Cores) || card.Children[len(card.Children)-1].Key != OverviewVerdict {
			t.Fatalf("%s: %d card items, want an SBUF and a PSUM peak for each of %d cores, then the verdict", name, len(card.Children), len(m.Cores))
		}
		for _, n := range cardItems(card) {
			peak, _ := strconv.Atoi(n.Attrs[AttrPeak])
			capacity, _ := strconv.Atoi(n.Attrs[AttrCapacity])
			if n.Attrs[AttrCore] == "" || (n.Attrs[AttrSpace] != "SBUF" && n.Attrs[AttrSpace] != "PSUM") || capacity == 0 || peak > capacity {
				t.Errorf("%s: peak item %+v", name, n.Attrs)
			}
		}
	}
}

// cardItems are the card's lint and peak items (its last child is the verdict).
func cardItems(card *doc.Node) []*doc.Node {
	var out []*doc.Node
	for _, n := range card.Children {
		if n.Key != OverviewVerdict {
			out = append(out, n)
		}
	}
	return out
}
