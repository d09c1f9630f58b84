//go:build !js

package srcmap

// A writer of the whole document (inspect's WriteJSON) writes the tree of every .dbg member (a
// dbg: stub), and the members that are not held would each be read again out of the archive
// by neff.ReadMemberLimit: one inflate of the payload from its start per member, dozens of
// them over a tar of hundreds of MB. A Feed reads them in as few walks as the output order
// allows instead: the writer's order of dbg: stubs is known before it starts (they are held
// nodes: a member's content), cut into chains whose members come later and later in the
// archive, and one walk serves each chain (neff.Feed, which disasm reads its streams through
// too), started when the writer reaches its first member. A walk holds what it has read of the
// members the writer has not used yet up to a window of bytes (one member, when a member is
// bigger), and waits past that: memory stays bounded whatever the number of members. Whatever the feed cannot serve (a member read
// differently than predicted, a walk that ended early) is read as before, one member at a
// time, so the output is the same either way. When the open kept a seek index into the payload
// (neff.Archive.CanSeek), the feed reads the members one by one through it instead of walking
// the archive: each costs about one index spacing plus the member.

import (
	"context"
	"sync"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/neff"
)

// Feed reads back the scanned members a writer will ask the trees of, in its order.
type Feed struct {
	x      *Index
	window int64          // bytes of members the walks may hold ahead of the writer
	order  []*neff.Member // the members to read back, in output order
	feed   *neff.Feed
	out    []chan fedMember // per chain
	bufs   [][]byte         // per order entry: its bytes so far (nil: not begun, or charged no more)
	next   int              // the next order entry the writer should ask for

	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	cond   *sync.Cond
	ahead  int64 // bytes read by walks and not yet released by the writer
}

type fedMember struct {
	b []byte // nil: the walk did not read it whole
}

// NewFeed plans the reads of the members whose trees a writer will build, named in the order
// it will ask for them (stubs: the dbg: stubs' members; a member the index did not scan, and a
// repeat of the one before, is skipped): those View would read back out of the archive. A
// walk holds at most window bytes of them ahead of the writer (a member bigger than that is
// held alone). Nil when there is nothing to read back.
func NewFeed(x *Index, stubs []string, window int64) *Feed {
	if x == nil {
		return nil
	}
	a := x.src.Archive()
	count := map[string]int{}
	for _, m := range a.Members {
		count[m.Path]++
	}
	var order []*neff.Member
	last := x.view.member // View keeps the last tree built: asked again, it is not read
	for _, member := range stubs {
		if x.Members[member] == nil || member == last {
			continue
		}
		last = member
		m := a.Member(member)
		// Only what MemberBytes would read out of the archive, and only where the path names
		// one member (ReadMember reads the first of a repeated path).
		if m != nil && m.Data == nil && !m.Truncated && m.Size > 0 && m.Size <= MaxView && count[member] == 1 {
			order = append(order, m)
		}
	}
	if len(order) == 0 {
		return nil
	}
	d := &Feed{x: x, window: window, order: order, bufs: make([][]byte, len(order))}
	d.cond = sync.NewCond(&d.mu)
	d.ctx, d.cancel = context.WithCancel(context.Background())
	r, _ := x.src.Reader()
	d.feed = a.Feed(r, order, neff.FeedOptions{MaxInflated: x.src.Budget().Limit(budget.Inflate), Seek: true}, d)
	d.out = make([]chan fedMember, d.feed.Chains())
	for c := range d.out {
		d.out[c] = make(chan fedMember)
	}
	return d
}

// Planned is the members the feed reads back, in output order, and in how many chains (one
// walk each, or one seek-index read per member).
func (d *Feed) Planned() ([]*neff.Member, int) {
	if d == nil {
		return nil, 0
	}
	return d.order, d.feed.Chains()
}

// Take returns the bytes of member, read by a feed's walk, and whether it had them; the
// writer gives them back with Release(len(b)) once it is done with them.
func (d *Feed) Take(member string) ([]byte, bool) {
	if d == nil {
		return nil, false
	}
	at := -1
	for k := d.next; k < len(d.order); k++ {
		if d.order[k].Path == member {
			at = k
			break
		}
	}
	if at < 0 {
		return nil, false // not predicted (or passed already): read as before
	}
	// Members predicted before it and not asked for are dropped as their walks deliver them.
	for ; d.next <= at; d.next++ {
		d.feed.Start(d.next)
		fm := <-d.out[d.feed.Chain(d.next)]
		switch {
		case d.next < at:
			d.Release(int64(len(fm.b)))
		case fm.b != nil:
			d.next++
			return fm.b, true
		}
	}
	return nil, false
}

// Release gives back n bytes taken from a walk.
func (d *Feed) Release(n int64) {
	d.mu.Lock()
	d.ahead -= n
	d.cond.Broadcast()
	d.mu.Unlock()
}

// hold waits until n more bytes may be held ahead of the writer; false when the feed stopped.
func (d *Feed) hold(n int64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.ahead > 0 && d.ahead+n > d.window && d.ctx.Err() == nil {
		d.cond.Wait()
	}
	if d.ctx.Err() != nil {
		return false
	}
	d.ahead += n
	return true
}

// Chunk collects member k's bytes (neff.FeedSink), charging the window its whole size when
// it begins.
func (d *Feed) Chunk(k int, off int64, b []byte) bool {
	if off == 0 {
		if !d.hold(d.order[k].Size) {
			return false
		}
		d.bufs[k] = make([]byte, 0, d.order[k].Size)
	}
	d.bufs[k] = append(d.bufs[k], b...)
	return true
}

// End hands member k over to the writer (nil bytes when it was not read whole: read again
// by MemberBytes, which says why it fails); the writer then owns its charge.
func (d *Feed) End(k int, whole bool) {
	b := d.bufs[k]
	d.bufs[k] = nil
	if b != nil && !whole {
		d.Release(d.order[k].Size)
		b = nil
	}
	select {
	case d.out[d.feed.Chain(k)] <- fedMember{b: b}:
	case <-d.ctx.Done():
		d.Release(int64(len(b)))
	}
}

// Stop ends the walks still running and waits for them.
func (d *Feed) Stop() {
	if d == nil {
		return
	}
	d.cancel()
	d.mu.Lock()
	d.cond.Broadcast()
	d.mu.Unlock()
	d.feed.Stop()
}
