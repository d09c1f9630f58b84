//go:build !js

package inspect

import (
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/internal/bigneff"
)

// walkCounter counts the archive walks over a file: every neff.Open (and so every
// neff.ReadMember) reads the 1024-byte header at offset 0 first.
type walkCounter struct {
	r     *os.File
	walks atomic.Int64
}

func (c *walkCounter) ReadAt(p []byte, off int64) (int, error) {
	if off == 0 && len(p) == neff.HeaderSize {
		c.walks.Add(1)
	}
	return c.r.ReadAt(p, off)
}

// openCounted opens a generated real-shaped NEFF whose .dbg members are too big to hold.
func openCounted(t *testing.T, p string) (*File, *walkCounter) {
	t.Helper()
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, _ := fh.Stat()
	c := &walkCounter{r: fh}
	return Open(filepath.Base(p), c, st.Size(), Options{}), c
}

// WriteJSON reads the .dbg members an open does not hold in a bounded number of archive walks
// (one per run of members in archive order, not one per member), holding at most the feed's
// window of them at a time, and its output is the fully expanded document's, each member read
// on its own.
func TestWriteJSONReadsDbgMembersInFewWalks(t *testing.T) {
	if testing.Short() {
		t.Skip("-short skips the slow tests; make test-core runs this one")
	}
	p := filepath.Join(t.TempDir(), "big.neff")
	if _, err := bigneff.Generate(p, bigneff.Options{Size: 12 << 20, DefJSON: 300_000, DebugJSON: 300_000}); err != nil {
		t.Fatal(err)
	}
	f, c := openCounted(t, p)
	feed := f.dbgFeed()
	order, chains := feed.Planned()
	feed.Stop()
	if len(order) < 6 {
		t.Fatalf("the file should have several .dbg members not held; the feed plans %d", len(order))
	}
	planned := len(order)
	var big int64
	for _, m := range order {
		big = max(big, m.Size)
	}
	// A window smaller than two members: the walk must wait for the writer.
	defer func(w int64) { dbgFeedWindow = w }(dbgFeedWindow)
	dbgFeedWindow = big + 1

	c.walks.Store(0)
	var got bytes.Buffer
	if _, err := f.WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	walks := c.walks.Load()
	t.Logf("%d .dbg members read back in %d chains; %d archive walks", planned, chains, walks)
	if chains > 2 || walks > int64(chains) {
		t.Errorf("%d archive walks (%d chains) for %d members: want at most 2", walks, chains, planned)
	}

	// The oracle: every stub expanded one at a time (each member read on its own).
	e, ce := openCounted(t, p)
	ce.walks.Store(0)
	expandAll(t, e, e.Doc.Root)
	// Each member on its own: a walk from the archive's start each, or none at all when the
	// open's seek index serves them (neff.Archive.ReadMember).
	if n := ce.walks.Load(); e.Archive.CanSeek() && n != 0 || !e.Archive.CanSeek() && n < int64(planned) {
		t.Errorf("the one-at-a-time expansion took %d walks for %d members (seek index: %v)", n, planned, e.Archive.CanSeek())
	}
	want := marshalDoc(t, e.Doc)
	if !bytes.Equal(got.Bytes(), want) {
		i := 0
		for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
			i++
		}
		t.Fatalf("WriteJSON differs from the expanded document at byte %d:\n got %q\nwant %q", i, got.Bytes()[max(0, i-200):min(got.Len(), i+200)], want[max(0, i-200):min(len(want), i+200)])
	}
}
