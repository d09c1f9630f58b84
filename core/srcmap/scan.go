package srcmap

// The .dbg members of a NEFF are scanned as they stream past the archive walk (dbg.Scanner):
// their bytes are not held for the joins, only what the joins need (dbg.Compact), charged to
// the open's memory budget as it grows. A member's own tree is built when asked, from its
// bytes (held when small, read back out of the archive otherwise): Index.View.

import (
	"context"
	"errors"
	"io"
	"path"
	"strconv"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pool"
)

// dbgScanCost is what a scan holds of a .dbg member, per byte of it, by kind, in per cent
// (measured on the real-shaped NEFFs of internal/bigneff, dbg.Compact.Held after the scan: an asm
// record, ~6.6 bytes a word, keeps its first parent and its length in packed columns, ~2.9
// bytes; a backend record, ~59 bytes, keeps its id, name, attributes, length, first parent and
// its place in the id lookup, ~7.5 bytes). The budget is charged what a scan really holds, as it
// grows; this is the estimate a member is admitted on.
var dbgScanCost = map[dbg.Kind]int64{dbg.KindAsm: 55, dbg.KindBackend: 15}

const dbgScanCostOther = 50

// dbgCost is the estimated cost of scanning and joining a member of size bytes.
func dbgCost(p string, size int64) int64 {
	kind, _, _ := dbg.Match(p)
	c, ok := dbgScanCost[kind]
	if !ok {
		c = dbgScanCostOther
	}
	return size * c / 100
}

// Scans runs the scans of one open. Most run in the open's one archive walk (Visit), on a
// goroutine of their own, so the scan overlaps the inflate on the other CPU core and no member
// is read twice; they may hold up to a quarter of the memory limit then (walkShare), the model
// resolved after the walk matters more than its source lines. A directory the walk did not
// admit whole is mapped once the model is resolved (Map), with half of what it leaves: from
// the members held, the others in one more pass over the archive.
type Scans struct {
	n   NEFF
	ctx context.Context
	r   io.ReaderAt // what the members not held are read back from (nil: n's reader)
	// skipped lists the members not mapped for the memory limit (archive order), and
	// skippedCost what mapping them would take.
	skipped     []string
	skippedCost int64

	// the walk's scans, by data offset in the tar, and what they were admitted on
	walk     map[int64]*walkScan
	admitted int64
	refused  map[string]bool // directories the walk stopped admitting
	jobs     chan dbgChunk
	free     chan []byte
	done     chan struct{}
	cur      *neff.Member // the member Visit is in, and its scan (nil: not scanned)
	curScan  *dbg.Scanner
	// pause, when set, is called between pieces of the mapping: in the page's worker the core
	// has one thread, and the page's calls are answered only there.
	pause func()
	// pool scans the members not held elsewhere (pooled.go); progress hears of each job done.
	pool     pool.Pool
	progress func(tarBytes int64)
}

// Options are a mapping's context and the reader it reads back through.
type Options struct {
	Context context.Context // nil: context.Background()
	// Reader is what the members not held are read back from (nil: the NEFF's own reader; a
	// caller mapping beside other calls on the file gives the mapping a reader of its own).
	Reader io.ReaderAt
	// Pause, when set, is called between pieces of the work: every 64 KiB of a .dbg member
	// scanned, every scan closed, every 4,096 words joined.
	Pause func()
	// Pool, when it has workers, scans the members not held (pooled.go); PoolDone is called
	// with the tar bytes each of its jobs read, as it ends.
	Pool     pool.Pool
	PoolDone func(tarBytes int64)
}

// yieldBytes and yieldWords are how much is scanned, and how many words joined, between two
// calls of pause: ~10 ms in the page's wasm, where a click waits for the next yield (the
// page's pause yields once its time slice has passed, so calling it often costs little).
const (
	yieldBytes = 64 << 10
	yieldWords = 4 << 10
)

// yield calls pause, if any (every yieldBytes scanned, every member's scan closed, every
// yieldWords words joined).
func (s *Scans) yield() {
	if s != nil && s.pause != nil {
		s.pause()
	}
}

// walkScan is a scan of the walk. Its estimated cost is taken from the budget when it is
// admitted, in archive order, and its growth is drawn from that first: the model is resolved
// while the scans finish, and what each gets of the budget does not depend on which runs first.
type walkScan struct {
	sc       *dbg.Scanner
	reserved int64 // what is left of the estimate taken
	charged  int64 // what the budget was charged for it in all
}

// walkShare is the part of the memory limit the walk's scans may be admitted on (1/walkShare).
const walkShare = 4

// dbgChunk is one chunk of a member's bytes on its way to the scan goroutine.
type dbgChunk struct {
	sc *dbg.Scanner
	b  []byte
}

// NewScans starts the scans of one open of n.
func NewScans(n NEFF, opt Options) *Scans {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	return &Scans{n: n, ctx: ctx, r: opt.Reader, pause: opt.Pause, pool: opt.Pool, progress: opt.PoolDone, walk: map[int64]*walkScan{}, refused: map[string]bool{}}
}

// Visit is the archive walk's Visit for .dbg members: it admits a member at its first chunk
// and hands a copy of each chunk to the scan goroutine (the walk reuses its buffers).
func (s *Scans) Visit(m *neff.Member, off int64, chunk []byte) {
	if s == nil {
		return
	}
	if m != s.cur {
		s.cur, s.curScan = m, nil
		if off == 0 {
			s.curScan = s.admit(m)
		}
	}
	sc := s.curScan
	if sc == nil {
		return
	}
	if s.jobs == nil {
		s.jobs, s.free, s.done = make(chan dbgChunk, 8), make(chan []byte, 10), make(chan struct{})
		for range cap(s.free) {
			s.free <- nil
		}
		go func() {
			defer close(s.done)
			for j := range s.jobs {
				j.sc.Write(j.b)
				s.free <- j.b
			}
		}()
	}
	b := <-s.free
	b = append(b[:0], chunk...)
	s.jobs <- dbgChunk{sc, b}
}

// admit starts the walk's scan of m, or says no (nil): not a .dbg member, its directory already
// refused, or past the walk's share of the memory limit (the directory is then left to run).
func (s *Scans) admit(m *neff.Member) *dbg.Scanner {
	if _, _, ok := dbg.Match(m.Path); !ok {
		return nil
	}
	d := path.Dir(m.Path)
	if s.refused[d] {
		return nil
	}
	b := s.n.Budget()
	cost := dbgCost(m.Path, m.Size)
	if b != nil && s.admitted+cost > b.Limit(budget.Memory)/walkShare || !b.Can(budget.Memory, cost) {
		s.refused[d] = true
		return nil
	}
	where := "debug info " + strconv.Quote(m.Path)
	b.Take(budget.Memory, cost, where)
	s.admitted += cost
	w := &walkScan{sc: dbg.NewScanner(m.Path, m.Size), reserved: cost, charged: cost}
	w.sc.Grow = func(n int64) bool {
		if n <= w.reserved {
			w.reserved -= n
			return true
		}
		more := n - w.reserved
		if !b.Take(budget.Memory, more, where) {
			return false
		}
		w.reserved = 0
		w.charged += more
		return true
	}
	s.walk[m.DataOffset] = w
	return w.sc
}

// Wait ends the walk's scans: every chunk handed over has been scanned when it returns.
func (s *Scans) Wait() {
	if s != nil && s.jobs != nil {
		close(s.jobs)
		<-s.done
		s.jobs = nil
	}
}

// run finishes the scans of the archive, a directory at a time (sgNN/, debug_info/): a
// directory's members are mapped together or not at all. The walk's scans of a directory it
// admitted whole are kept; the rest of a directory is scanned while its estimated cost fits in
// half of what the memory limit leaves (or the directory is dropped, the walk's scans with it).
// It returns the Compacts by path.
func (s *Scans) run() map[string]*dbg.Compact {
	out := map[string]*dbg.Compact{}
	if s == nil {
		return out
	}
	s.Wait()
	if ahead, ok := s.pool.(pool.Ahead); ok {
		defer ahead.Forget() // what was started ahead and not asked for (Prefetch)
	}
	a, b := s.n.Archive(), s.n.Budget()
	dirs, byDir := dbgDirs(a)
	room := b.Left(budget.Memory) / 2
	var admitted int64
	scans := map[int64]*dbg.Scanner{} // by data offset in the tar
	walked := map[*dbg.Scanner]*walkScan{}
	var later []*neff.Member // the members not held, to read again (in directory order)
	for _, d := range dirs {
		var cost int64
		for _, m := range byDir[d] {
			if s.walk[m.DataOffset] == nil {
				cost += dbgCost(m.Path, m.Size)
			}
		}
		if admitted+cost > room {
			for _, m := range byDir[d] {
				s.skipped = append(s.skipped, m.Path)
				s.skippedCost += dbgCost(m.Path, m.Size)
				if w := s.walk[m.DataOffset]; w != nil {
					b.Release(budget.Memory, w.charged)
				}
			}
			continue
		}
		admitted += cost
		for _, m := range byDir[d] {
			if w := s.walk[m.DataOffset]; w != nil {
				scans[m.DataOffset] = w.sc
				walked[w.sc] = w
				continue
			}
			sc := dbg.NewScanner(m.Path, m.Size)
			where := "debug info " + strconv.Quote(m.Path)
			sc.Grow = func(n int64) bool { return b.Take(budget.Memory, n, where) }
			scans[m.DataOffset] = sc
			if m.Data != nil {
				for off := 0; off < len(m.Data); off += yieldBytes {
					sc.Write(m.Data[off:min(off+yieldBytes, len(m.Data))])
					s.yield()
				}
			} else {
				later = append(later, m)
			}
		}
	}
	s.walk = nil
	var fromPool map[int64]*dbg.Compact
	if len(later) > 0 {
		rest, wait := s.viaPool(later)
		s.reread(rest, scans)
		fromPool, rest = wait()
		s.reread(rest, scans) // what the pool did not do
	}
	for _, d := range dirs {
		for _, m := range byDir[d] {
			if c := fromPool[m.DataOffset]; c != nil {
				s.yield()
				out[m.Path] = c
				continue
			}
			sc := scans[m.DataOffset]
			if sc == nil {
				continue
			}
			c := sc.Close()
			s.yield()
			held := sc.Charged() // what the budget holds for the scan (Close may have grown it)
			if w := walked[sc]; w != nil {
				held = w.charged
			}
			if c == nil {
				// refused by the budget midway (or the member did not come again whole)
				b.Release(budget.Memory, held)
				s.skipped = append(s.skipped, m.Path)
				s.skippedCost += dbgCost(m.Path, m.Size)
				continue
			}
			// Settle the charge on what the Compact holds (the scan's buffers are gone).
			if h := c.Held(); h < held {
				b.Release(budget.Memory, held-h)
			}
			out[m.Path] = c
		}
	}
	return out
}

// dbgDirs is the .dbg members of a (none truncated) by directory, the directories in the order
// their first members come.
func dbgDirs(a *neff.Archive) (dirs []string, byDir map[string][]*neff.Member) {
	byDir = map[string][]*neff.Member{}
	for _, m := range a.Members {
		if _, _, ok := dbg.Match(m.Path); !ok || m.Truncated {
			continue
		}
		d := path.Dir(m.Path)
		if byDir[d] == nil {
			dirs = append(dirs, d)
		}
		byDir[d] = append(byDir[d], m)
	}
	return dirs, byDir
}

// reread streams the archive once more and feeds the members not held to their scans; it stops
// after the last of them.
func (s *Scans) reread(ms []*neff.Member, scans map[int64]*dbg.Scanner) {
	if len(ms) == 0 {
		return
	}
	a, b := s.n.Archive(), s.n.Budget()
	r := s.r
	if r == nil {
		r, _ = s.n.Reader()
	}
	if a.CanSeek() {
		// Each from the seek index's checkpoint before it: a walk from the archive's start
		// inflated the whole 1.76 GB tar of the 256 MB real-shaped NEFF to reach its .dbg.
		for _, m := range ms {
			sc := scans[m.DataOffset]
			if sc == nil || s.ctx.Err() != nil {
				continue
			}
			a.ReadMember(r, m.Path, 0, m.Size, &scanWriter{s: s, sc: sc}, b.Limit(budget.Inflate))
			s.yield()
		}
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	last := ms[len(ms)-1].DataOffset
	want := map[int64]*dbg.Scanner{} // only these: the members held were scanned from memory
	for _, m := range ms {
		last = max(last, m.DataOffset)
		want[m.DataOffset] = scans[m.DataOffset]
	}
	_, size := s.n.Reader()
	neff.Open(r, size, neff.Options{
		Context:        ctx,
		MaxInflated:    b.Limit(budget.Inflate),
		NoMemberHashes: true, // only to feed the scans: no member's SHA-256, no payload hash
		NoPayloadHash:  true,
		Visit: func(m *neff.Member, off int64, chunk []byte) {
			sc := want[m.DataOffset]
			if sc == nil || sc.Failed() {
				return
			}
			sc.Write(chunk)
			if m.DataOffset == last && off+int64(len(chunk)) >= m.Size {
				cancel()
			}
		},
	})
}

// scanWriter feeds a member read back through the seek index to its scan, pausing every
// yieldBytes; it stops the read when the scan has failed or the mapping is cancelled.
type scanWriter struct {
	s     *Scans
	sc    *dbg.Scanner
	since int
}

func (w *scanWriter) Write(b []byte) (int, error) {
	if w.sc.Failed() {
		return 0, errScanFailed
	}
	w.sc.Write(b)
	if w.since += len(b); w.since >= yieldBytes {
		w.since = 0
		w.s.yield()
	}
	if err := w.s.ctx.Err(); err != nil {
		return 0, err
	}
	return len(b), nil
}

// errScanFailed stops a read back whose scan has failed.
var errScanFailed = errors.New("the scan failed")
