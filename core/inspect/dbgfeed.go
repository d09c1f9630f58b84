//go:build !js

package inspect

// WriteJSON writes the tree of every .dbg member (a dbg: stub), and the members that are not
// held would each be read again out of the archive by neff.ReadMemberLimit: one inflate of
// the payload from its start per member, dozens of them over a tar of hundreds of MB. A
// dbgFeed reads them in as few walks as the output order allows instead: the writer's order
// of dbg: stubs is known before it starts (they are held nodes: a member's content), cut into
// chains whose members come later and later in the archive, and one walk (neff.Open with a
// Visit hook, hashing nothing) serves each chain, started when the writer reaches its first
// member. A walk holds what it has read of the members the writer has not used yet up to
// dbgFeedWindow bytes (one member, when a member is bigger), and waits past that: memory stays
// bounded whatever the number of members. Whatever the feed cannot serve (a member read
// differently than predicted, a walk that ended early) is read as before, one member at a
// time, so the output is the same either way. When the open kept a seek index into the payload
// (neff.Archive.CanSeek), a chain's goroutine reads its members one by one through it instead
// of walking the archive: each costs about one index spacing plus the member.

import (
	"context"
	"sync"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
)

// dbgFeedWindow bounds the bytes of members a feed's walk holds ahead of the writer (a member
// bigger than this is held alone).
var dbgFeedWindow int64 = 64 << 20

// dbgFeedWalks counts the archive walks feeds started (tests).
var dbgFeedWalks int64

type dbgFeed struct {
	f      *File
	order  []*neff.Member // the members to read back, in output order
	chain  []int          // per order entry: its chain
	chains []*feedWalk
	next   int // the next order entry the writer should ask for
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	cond  *sync.Cond
	ahead int64 // bytes read by walks and not yet released by the writer
}

type feedWalk struct {
	members []*neff.Member // in archive order
	out     chan fedMember
	started bool
}

type fedMember struct {
	m *neff.Member
	b []byte // nil: the walk did not read it whole
}

// newDbgFeed plans the reads of the .dbg members not held whose trees WriteJSON will write,
// in the order it will write them; nil when there are none.
func newDbgFeed(f *File) *dbgFeed {
	x := f.sourceIndex()
	if x == nil || f.Archive == nil || f.Doc == nil || f.Doc.Root == nil {
		return nil
	}
	count := map[string]int{}
	index := map[*neff.Member]int{}
	for i, m := range f.Archive.Members {
		count[m.Path]++
		index[m] = i
	}
	var order []*neff.Member
	last := x.view.member // dbgView keeps the last tree built: asked again, it is not read
	var visit func(n *doc.Node)
	visit = func(n *doc.Node) {
		if kind, member := doc.ParseRef(n.Ref); kind == doc.RefDbg && IsStub(n) && x.Members[member] != nil {
			if member != last {
				last = member
				m := f.Archive.Member(member)
				// Only what memberBytes would read out of the archive, and only where the path
				// names one member (ReadMember reads the first of a repeated path).
				if m != nil && m.Data == nil && !m.Truncated && m.Size > 0 && m.Size <= maxDbgView && count[member] == 1 {
					order = append(order, m)
				}
			}
		}
		for _, c := range n.Children {
			visit(c)
		}
	}
	visit(f.Doc.Root)
	if len(order) == 0 {
		return nil
	}
	d := &dbgFeed{f: f, order: order, chain: make([]int, len(order))}
	d.cond = sync.NewCond(&d.mu)
	d.ctx, d.cancel = context.WithCancel(context.Background())
	for k, m := range order {
		var w *feedWalk
		if len(d.chains) > 0 {
			w = d.chains[len(d.chains)-1]
			if index[w.members[len(w.members)-1]] >= index[m] {
				w = nil
			}
		}
		if w == nil {
			w = &feedWalk{out: make(chan fedMember)}
			d.chains = append(d.chains, w)
		}
		w.members = append(w.members, m)
		d.chain[k] = len(d.chains) - 1
	}
	return d
}

// take returns the bytes of member, read by a feed's walk, and whether it had them; the
// writer gives them back with release(len(b)) once it is done with them.
func (d *dbgFeed) take(member string) ([]byte, bool) {
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
		w := d.chains[d.chain[d.next]]
		if !w.started {
			w.started = true
			d.start(w)
		}
		fm, ok := <-w.out
		switch {
		case d.next < at:
			d.release(int64(len(fm.b)))
		case ok && fm.b != nil:
			d.next++
			return fm.b, true
		}
	}
	return nil, false
}

// release gives back n bytes taken from a walk.
func (d *dbgFeed) release(n int64) {
	d.mu.Lock()
	d.ahead -= n
	d.cond.Broadcast()
	d.mu.Unlock()
}

// hold waits until n more bytes may be held ahead of the writer; false when the feed stopped.
func (d *dbgFeed) hold(n int64) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for d.ahead > 0 && d.ahead+n > dbgFeedWindow && d.ctx.Err() == nil {
		d.cond.Wait()
	}
	if d.ctx.Err() != nil {
		return false
	}
	d.ahead += n
	return true
}

// start runs w's walk: one pass over the archive, each of w's members collected whole and
// handed over in archive order (nil bytes for one it could not read whole); it ends after the
// last.
func (d *dbgFeed) start(w *feedWalk) {
	dbgFeedWalks++
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		defer close(w.out)
		ctx, cancel := context.WithCancel(d.ctx)
		defer cancel()
		k := 0            // the next of w.members
		var cur []byte    // its bytes so far (nil: not begun, or given up)
		var charged int64 // what cur holds of the window
		drop := func() {
			d.release(charged)
			cur, charged = nil, 0
		}
		// deliver hands member k over (b nil: not read whole) and moves to the next.
		deliver := func(b []byte) bool {
			fm := fedMember{m: w.members[k], b: b}
			k++
			select {
			case w.out <- fm: // the writer now owns b's charge
				return true
			case <-ctx.Done():
				d.release(int64(len(b)))
				return false
			}
		}
		if d.f.Archive.CanSeek() {
			// The open's seek index: each member is read on its own, the inflate resuming at
			// the checkpoint before it (about one spacing plus the member), not from the
			// archive's start.
			for k < len(w.members) && ctx.Err() == nil {
				want := w.members[k]
				if !d.hold(want.Size) {
					return
				}
				buf := limitedBuffer{max: want.Size, b: make([]byte, 0, want.Size)}
				err := d.f.Archive.ReadMember(d.f.r, want.Path, 0, want.Size, &buf, d.f.Budget.Limit(budget.Inflate))
				b := buf.b
				if err != nil || int64(len(b)) != want.Size {
					d.release(want.Size)
					b = nil // read again by memberBytes, which says why it fails
				}
				if !deliver(b) {
					return
				}
			}
			return
		}
		d.f.feedWalk(ctx, func(m *neff.Member, off int64, chunk []byte) {
			for k < len(w.members) && ctx.Err() == nil {
				want := w.members[k]
				if m.DataOffset < want.DataOffset {
					return
				}
				if m.DataOffset > want.DataOffset || m.Path != want.Path {
					// passed it without reading it whole
					if cur != nil {
						drop()
					}
					if !deliver(nil) {
						cancel()
						return
					}
					continue
				}
				if off == 0 && cur == nil {
					if !d.hold(want.Size) {
						cancel()
						return
					}
					cur, charged = make([]byte, 0, want.Size), want.Size
				}
				if cur == nil || off != int64(len(cur)) || int64(len(cur)+len(chunk)) > want.Size {
					if cur != nil {
						drop()
					}
					return // not read from its start, or longer than listed: delivered as nil when passed
				}
				cur = append(cur, chunk...)
				if int64(len(cur)) == want.Size {
					b := cur
					cur, charged = nil, 0
					if !deliver(b) || k == len(w.members) {
						cancel()
					}
				}
				return
			}
		})
		if cur != nil {
			drop()
		}
	}()
}

// stop ends the walks still running and waits for them.
func (d *dbgFeed) stop() {
	if d == nil {
		return
	}
	d.cancel()
	d.mu.Lock()
	d.cond.Broadcast()
	d.mu.Unlock()
	for _, w := range d.chains {
		if w.started {
			for fm := range w.out {
				d.release(int64(len(fm.b)))
			}
		}
	}
	d.wg.Wait()
}
