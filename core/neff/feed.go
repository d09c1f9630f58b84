package neff

import (
	"context"
	"errors"
	"io"
	"sync"
)

// A Feed reads members back out of the archive for a reader that takes them in an order it
// knows before it starts (a listing's streams, a JSON writer's .dbg members): in as few walks
// of the archive as that order allows. The order is cut into chains whose members come later
// and later in the archive; one walk (Open with a Visit hook, holding and hashing nothing)
// serves each chain, begun when the reader asks for it (Start). With FeedOptions.Seek and the
// open's seek index (CanSeek), each member is read on its own instead (ReadMember: about one
// index spacing plus the member). Both `disasm` and `inspect --json` read through one.
type Feed struct {
	a       *Archive
	r       io.ReaderAt
	opt     FeedOptions
	sink    FeedSink
	order   []*Member
	chains  [][]int // indexes into order; each chain in output order and archive order
	chainOf []int
	started []bool
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

// FeedOptions say how a Feed reads.
type FeedOptions struct {
	// MaxInflated bounds the bytes each read inflates (0: DefaultMaxInflated).
	MaxInflated int64
	// Seek reads each member on its own through the seek index when the archive has one.
	Seek bool
}

// FeedSink takes what a Feed reads. Its calls for one chain come from that chain's goroutine,
// in the chain's order; for each member of a chain begun, End is called once, after its bytes.
type FeedSink interface {
	// Chunk takes the next bytes of order[k], off bytes into the member; false stops the feed
	// of the chain (its members left are ended not whole).
	Chunk(k int, off int64, b []byte) bool
	// End says order[k] is over; whole when every byte of it was handed to Chunk.
	End(k int, whole bool)
}

// Feed plans the reads of order (members of a, in the order the reader takes them) from r,
// the file a was opened from. Nothing is read until Start.
func (a *Archive) Feed(r io.ReaderAt, order []*Member, opt FeedOptions, sink FeedSink) *Feed {
	f := &Feed{a: a, r: r, opt: opt, sink: sink, order: order, chainOf: make([]int, len(order))}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	at := make(map[*Member]int, len(a.Members))
	for i, m := range a.Members {
		at[m] = i
	}
	var last []int // archive index of each chain's last member
	for k, m := range order {
		pos := at[m]
		best := -1 // the chain ending latest before pos: chains stay few
		for c, l := range last {
			if l < pos && (best < 0 || l > last[best]) {
				best = c
			}
		}
		if best < 0 {
			best = len(f.chains)
			f.chains, last = append(f.chains, nil), append(last, 0)
		}
		f.chains[best], last[best] = append(f.chains[best], k), pos
		f.chainOf[k] = best
	}
	f.started = make([]bool, len(f.chains))
	return f
}

// Chains is how many chains the order was cut into: the walks a Feed without seeking takes.
func (f *Feed) Chains() int { return len(f.chains) }

// Chain is the chain of order[k].
func (f *Feed) Chain(k int) int { return f.chainOf[k] }

// Start begins the read of order[k]'s chain, unless it is begun already. It is for the one
// goroutine that takes the members.
func (f *Feed) Start(k int) {
	c := f.chainOf[k]
	if f.started[c] {
		return
	}
	f.started[c] = true
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		ctx, cancel := context.WithCancel(f.ctx)
		defer cancel()
		if f.opt.Seek && f.a.CanSeek() {
			f.seek(ctx, f.chains[c])
		} else {
			f.walk(ctx, cancel, f.chains[c])
		}
	}()
}

// Stop ends the reads still running and waits for them (the sink's calls have ended).
func (f *Feed) Stop() {
	f.cancel()
	f.wg.Wait()
}

// errFeedStopped is what a seek read's writer returns when the sink stops the chain.
var errFeedStopped = errors.New("feed stopped")

// feedWriter hands a member read by ReadMember to the sink.
type feedWriter struct {
	f   *Feed
	k   int
	off int64
}

func (w *feedWriter) Write(b []byte) (int, error) {
	if w.off+int64(len(b)) > w.f.order[w.k].Size || !w.f.sink.Chunk(w.k, w.off, b) {
		return 0, errFeedStopped
	}
	w.off += int64(len(b))
	return len(b), nil
}

// seek reads the chain's members one by one through the seek index.
func (f *Feed) seek(ctx context.Context, chain []int) {
	stopped := false
	for _, k := range chain {
		m := f.order[k]
		if stopped || ctx.Err() != nil {
			f.sink.End(k, false)
			continue
		}
		w := &feedWriter{f: f, k: k}
		err := f.a.ReadMember(f.r, m.Path, 0, m.Size, w, f.opt.MaxInflated)
		stopped = errors.Is(err, errFeedStopped)
		f.sink.End(k, err == nil && w.off == m.Size)
	}
}

// walk reads the archive once for the chain, stopping after its last member.
func (f *Feed) walk(ctx context.Context, cancel context.CancelFunc, chain []int) {
	next := 0     // the chain's member being read
	var got int64 // its bytes handed over
	bad := false  // it was not read from its start, or in order: it ends not whole
	// skipEmpty ends the members of no bytes at next: whole, with nothing to read.
	skipEmpty := func() {
		for next < len(chain) && f.order[chain[next]].Size == 0 {
			f.sink.End(chain[next], true)
			next++
		}
		if next == len(chain) {
			cancel() // the rest of the archive is not needed
		}
	}
	end := func(whole bool) {
		f.sink.End(chain[next], whole)
		next, got, bad = next+1, 0, false
		skipEmpty()
	}
	skipEmpty()
	if next < len(chain) {
		Open(f.r, f.a.FileSize, Options{
			MaxInflated: f.opt.MaxInflated,
			Context:     ctx,
			// The open checked the payload and hashed the members: this walk only feeds them.
			NoPayloadHash:  true,
			NoMemberHashes: true,
			Visit: func(m *Member, off int64, chunk []byte) {
				for next < len(chain) && ctx.Err() == nil {
					want := f.order[chain[next]]
					if m.DataOffset < want.DataOffset {
						return
					}
					if m.DataOffset > want.DataOffset || m.Path != want.Path {
						end(false) // passed it without reading it whole
						continue
					}
					if bad {
						return
					}
					if off != got || got+int64(len(chunk)) > want.Size {
						bad = true
						return
					}
					if !f.sink.Chunk(chain[next], off, chunk) {
						for next < len(chain) {
							end(false)
						}
						return
					}
					if got += int64(len(chunk)); got == want.Size {
						end(true)
					}
					return
				}
			},
		})
	}
	for next < len(chain) { // the archive ended first (truncated), or a stop
		end(false)
	}
}
