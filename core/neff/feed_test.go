package neff

import (
	"bytes"
	"io"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// headerCounter counts the walks over a file: every Open (and every ReadMemberLimit) reads
// the header at offset 0 first.
type headerCounter struct {
	r     io.ReaderAt
	walks atomic.Int64
}

func (c *headerCounter) ReadAt(p []byte, off int64) (int, error) {
	if off == 0 && len(p) == HeaderSize {
		c.walks.Add(1)
	}
	return c.r.ReadAt(p, off)
}

// feedCollector is a FeedSink that keeps what it is fed, and can stop a chain at one entry.
type feedCollector struct {
	mu     sync.Mutex
	got    map[int][]byte
	whole  map[int]bool
	ends   sync.WaitGroup
	stopAt int // Chunk refuses this entry (-1: none)
}

func (c *feedCollector) Chunk(k int, off int64, b []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if k == c.stopAt {
		return false
	}
	if int64(len(c.got[k])) != off {
		panic("chunks out of order")
	}
	c.got[k] = append(c.got[k], b...)
	return true
}

func (c *feedCollector) End(k int, whole bool) {
	c.mu.Lock()
	c.whole[k] = whole
	c.mu.Unlock()
	c.ends.Done()
}

// A Feed hands each member over whole, in chunks in order, in as few walks as the order
// allows (none with the seek index); a sink that stops a chain ends the rest of it not whole.
func TestFeed(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var ms []neffbuild.Member
	for i, size := range []int{300 << 10, 5_000, 0, 1 << 20, 70_000, 123} {
		b := make([]byte, size)
		for j := range b {
			b[j] = byte(rnd.Uint32() % 7) // compressible, so the payload holds many blocks
		}
		ms = append(ms, neffbuild.Member{Path: string(rune('a'+i)) + ".bin", Data: b})
	}
	data := map[string][]byte{}
	for _, m := range ms {
		data[m.Path] = m.Data
	}
	raw := neffbuild.Bytes(ms, neffbuild.Options{})
	a := Open(bytes.NewReader(raw), int64(len(raw)), Options{})
	if !a.CanSeek() {
		t.Fatal("the open made no seek index")
	}
	// Archive positions: e b d a f c, as the members of the archive name them.
	var order []*Member
	for _, p := range []string{"e.bin", "b.bin", "d.bin", "a.bin", "f.bin", "c.bin"} {
		order = append(order, a.Member(p))
	}
	for _, tc := range []struct {
		name   string
		seek   bool
		stopAt int
		walks  int64
	}{
		{"walks", false, -1, 3},
		{"seek", true, -1, 0},
		{"walks, stopped", false, 1, 3},
		{"seek, stopped", true, 1, 0},
	} {
		r := &headerCounter{r: bytes.NewReader(raw)}
		c := &feedCollector{got: map[int][]byte{}, whole: map[int]bool{}, stopAt: tc.stopAt}
		f := a.Feed(r, order, FeedOptions{Seek: tc.seek}, c)
		if f.Chains() != 3 {
			t.Fatalf("%s: %d chains, want 3 (e f, b d, a c)", tc.name, f.Chains())
		}
		c.ends.Add(len(order))
		for k := range order {
			f.Start(k)
		}
		c.ends.Wait()
		f.Stop()
		if n := r.walks.Load(); n != tc.walks {
			t.Errorf("%s: %d walks, want %d", tc.name, n, tc.walks)
		}
		for k, m := range order {
			// The stopped entry is b.bin; d.bin comes after it in its chain.
			stopped := tc.stopAt >= 0 && (k == 1 || k == 2)
			if c.whole[k] == stopped {
				t.Errorf("%s: %s whole %v", tc.name, m.Path, c.whole[k])
			}
			if !stopped && !bytes.Equal(c.got[k], data[m.Path]) {
				t.Errorf("%s: %s: %d bytes of %d, or other bytes", tc.name, m.Path, len(c.got[k]), m.Size)
			}
		}
	}
}
