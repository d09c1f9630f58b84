// Package pool splits the work that follows an open into jobs other threads run: the page's
// pool workers (each a Go runtime of its own with the File, wasm/pool.go) or goroutines
// (Goroutines). The gzip stream is inflated in order once, by the open; every job after it
// reads its own stretch of the archive again from the seek index (neff.SpanPlan) and answers
// with bytes: a .dbg member's Compact (its source-line columns), a member's SHA-256. A job is
// bytes in and bytes out, run by Run wherever it runs, so what it computes does not depend on
// where; the caller (core/srcmap, core/inspect) takes each answer into the one open's state
// and budget as if it had computed it itself.
package pool

import (
	"context"
	"errors"
	"fmt"
	"github.com/neffscope/neffscope/core/wirefields"
	"io"
	"sync"
	"sync/atomic"

	"github.com/neffscope/neffscope/core/neff"
	"google.golang.org/protobuf/encoding/protowire"
)

// Job is one piece of work: its kind (KindScan, KindHash), its encoding, and the tar bytes it
// reads (for progress).
type Job struct {
	Kind  string
	Data  []byte
	Bytes int64
}

// The kinds of job.
const (
	KindScan = "dbg-scan"
	KindHash = "member-hashes"
)

// Pool runs jobs. Size is how many run at once (0: none; the caller does the work itself);
// Run runs one and returns its answer, or an error when it could not run it (ctx ended, the
// worker died, the file could not be read): the caller then does that work itself.
type Pool interface {
	Size() int
	Run(ctx context.Context, j Job) ([]byte, error)
}

// Ahead is a pool that can start jobs before anyone asks for them: Ahead queues them (ending
// any it queued before and nobody asked for). An open starts its source lines' scans this way
// while its thread resolves the model. Claim says whether a job queued ahead has begun (a
// worker has it, or has answered): a Run of the same job (its kind and bytes) then answers with
// its answer. A job still waiting for a worker is taken out of the queue, so whoever claims it
// may run it anywhere (the calling thread, With). Forget lets go what nobody claimed.
type Ahead interface {
	Ahead(ctx context.Context, jobs []Job)
	Claim(j Job) bool
	Forget()
}

// Run runs a job on the file r: the pool worker's side of Pool.Run.
func Run(ctx context.Context, kind string, data []byte, r io.ReaderAt) ([]byte, error) {
	return run(ctx, kind, data, r, nil)
}

// run runs a job, calling pause (when set) after each pauseEvery bytes of the stretch read.
func run(ctx context.Context, kind string, data []byte, r io.ReaderAt, pause func()) ([]byte, error) {
	switch kind {
	case KindScan:
		return runScan(ctx, data, r, pause)
	case KindHash:
		return runHash(ctx, data, r, pause)
	}
	return nil, fmt.Errorf("no pool job of kind %q (there are %s and %s)", kind, KindScan, KindHash)
}

// pauseEvery is how much of its stretch a job on the calling thread (Local) reads between
// pauses, as core/srcmap scans between its own (the page's pause yields only once its time
// slice has passed; a variable for the tests).
var pauseEvery = 64 << 10

// Goroutines is a pool of n goroutines running jobs on r, an Ahead: the CLI's split of the
// same work, and the tests that compare it with one thread's.
func Goroutines(n int, r io.ReaderAt) Pool {
	return &goroutines{sem: make(chan struct{}, max(n, 0)), r: r}
}

type goroutines struct {
	sem   chan struct{}
	r     io.ReaderAt
	mu    sync.Mutex
	ahead map[string]*started // by the job's kind and bytes (aheadKey)
}

// started is a job queued ahead: done closes when answer and err are set; state is queued,
// begun (a goroutine runs it) or dropped (claimed before it began: it never runs).
type started struct {
	done   chan struct{}
	state  atomic.Int32
	answer []byte
	err    error
}

const (
	queued int32 = iota
	begun
	dropped
)

func (g *goroutines) Size() int { return cap(g.sem) }

func (g *goroutines) Ahead(ctx context.Context, jobs []Job) {
	g.Forget() // what was queued before and nobody claimed
	g.mu.Lock()
	defer g.mu.Unlock()
	g.ahead = map[string]*started{}
	for _, j := range jobs {
		st := &started{done: make(chan struct{})}
		g.ahead[aheadKey(j)] = st
		select {
		case g.sem <- struct{}{}: // a goroutine is free: the job begins now
			st.state.Store(begun)
			go func() {
				defer close(st.done)
				defer func() { <-g.sem }()
				st.answer, st.err = Run(ctx, j.Kind, j.Data, g.r)
			}()
		default:
			go func() {
				defer close(st.done)
				st.answer, st.err = g.run(ctx, j, func() bool { return st.state.CompareAndSwap(queued, begun) })
			}()
		}
	}
}

func (g *goroutines) Claim(j Job) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	k := aheadKey(j)
	st := g.ahead[k]
	if st == nil {
		return false
	}
	if st.state.CompareAndSwap(queued, dropped) {
		delete(g.ahead, k)
		return false
	}
	return true
}

func (g *goroutines) Forget() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, st := range g.ahead {
		st.state.CompareAndSwap(queued, dropped) // one not begun never runs
	}
	g.ahead = nil
}

// aheadKey tells jobs apart: their kind and bytes.
func aheadKey(j Job) string { return j.Kind + "\x00" + string(j.Data) }

func (g *goroutines) Run(ctx context.Context, j Job) ([]byte, error) {
	g.mu.Lock()
	st := g.ahead[aheadKey(j)]
	delete(g.ahead, aheadKey(j))
	g.mu.Unlock()
	if st != nil && st.state.Load() != dropped {
		select {
		case <-st.done:
			return st.answer, st.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return g.run(ctx, j, nil)
}

// run runs j once a goroutine is free; begin (when set) is asked then whether to run it at all.
func (g *goroutines) run(ctx context.Context, j Job, begin func() bool) ([]byte, error) {
	if cap(g.sem) == 0 {
		return nil, errors.New("a pool of no goroutines")
	}
	select {
	case g.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-g.sem }()
	if begin != nil && !begin() {
		return nil, errors.New("claimed before it began")
	}
	return Run(ctx, j.Kind, j.Data, g.r)
}

// Local is a pool of one worker, the calling goroutine's own thread, running jobs on r and
// calling pause after each pauseEvery bytes read: the page's core worker, which would
// otherwise wait idle for its pool workers' answers, takes jobs too (With), and pausing lets
// the page's calls in between.
func Local(r io.ReaderAt, pause func()) Pool {
	return &local{r: r, pause: pause}
}

type local struct {
	mu    sync.Mutex // one job at a time: r may keep a read-ahead buffer
	r     io.ReaderAt
	pause func()
}

func (l *local) Size() int { return 1 }

func (l *local) Run(ctx context.Context, j Job) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return run(ctx, j.Kind, j.Data, l.r, l.pause)
}

// With is p and q as one pool of p.Size() + q.Size(): a job goes to p while it has a free
// place, else to q, so the jobs go to p first (the page's pool workers, which run beside the
// core's thread) and q (Local) takes what is left. A job p started ahead (Ahead) goes to p.
// The pool is an Ahead when p is.
func With(p, q Pool) Pool {
	w := &joined{p: p, q: q}
	if a, ok := p.(Ahead); ok {
		return &joinedAhead{w, a}
	}
	return w
}

type joinedAhead struct {
	*joined
	a Ahead
}

func (w *joinedAhead) Ahead(ctx context.Context, jobs []Job) { w.a.Ahead(ctx, jobs) }
func (w *joinedAhead) Claim(j Job) bool                      { return w.a.Claim(j) }
func (w *joinedAhead) Forget()                               { w.a.Forget() }

func (w *joinedAhead) Run(ctx context.Context, j Job) ([]byte, error) {
	if w.a.Claim(j) {
		return w.p.Run(ctx, j)
	}
	return w.joined.Run(ctx, j)
}

type joined struct {
	p, q Pool
	mu   sync.Mutex
	inP  int // jobs running in p
}

func (w *joined) Size() int { return w.p.Size() + w.q.Size() }

func (w *joined) Run(ctx context.Context, j Job) ([]byte, error) {
	w.mu.Lock()
	toP := w.inP < w.p.Size()
	if toP {
		w.inP++
	}
	w.mu.Unlock()
	if !toP {
		return w.q.Run(ctx, j)
	}
	defer func() {
		w.mu.Lock()
		w.inP--
		w.mu.Unlock()
	}()
	return w.p.Run(ctx, j)
}

// Stretches cuts members (in archive order, none truncated) into runs to read together, for
// n workers: a run ends where the next member lies more than maxGap tar bytes past its end, or
// once it holds about a share of the bytes (all of them over 2n: a few runs per worker keep
// them all busy to the end; never less than minShare), so a big member is a run of its own.
func Stretches(ms []*neff.Member, n int) [][]*neff.Member {
	if len(ms) == 0 {
		return nil
	}
	var total int64
	for _, m := range ms {
		total += m.Size
	}
	share := max(total/int64(2*max(n, 1)), minShare)
	var out [][]*neff.Member
	var cur []*neff.Member
	var held int64
	for _, m := range ms {
		if len(cur) > 0 {
			last := cur[len(cur)-1]
			if held >= share || held+m.Size > share+share/2 || m.DataOffset > last.DataOffset+last.Size+maxGap {
				out = append(out, cur)
				cur, held = nil, 0
			}
		}
		cur = append(cur, m)
		held += m.Size
	}
	return append(out, cur)
}

// minShare is the least a run holds before it may end (smaller runs cost a checkpoint's
// inflate each, up to 4 MiB of tar, for little work); maxGap the tar a run reads past.
const (
	minShare = 1 << 20
	maxGap   = 1 << 20
)

// Fan runs jobs on p at most p.Size() at a time and calls done(i, answer, err) for each as it
// ends (from its goroutine: done must be safe for concurrent use); it returns when all ended.
func Fan(ctx context.Context, p Pool, jobs []Job, done func(i int, answer []byte, err error)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(1, p.Size()))
	for i, j := range jobs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			b, err := p.Run(ctx, j)
			done(i, b, err)
		}()
	}
	wg.Wait()
}

// members encodes the members of a job: path, data offset, size (and header offset, which
// tells members of the same path apart).
func appendMember(b []byte, m *neff.Member) []byte {
	var e []byte
	e = protowire.AppendTag(e, 1, protowire.BytesType)
	e = protowire.AppendString(e, m.Path)
	for i, v := range []int64{m.DataOffset, m.Size, m.HeaderOffset} {
		e = protowire.AppendTag(e, protowire.Number(i+2), protowire.VarintType)
		e = protowire.AppendVarint(e, uint64(v))
	}
	b = protowire.AppendTag(b, fMember, protowire.BytesType)
	return protowire.AppendBytes(b, e)
}

func parseMember(b []byte) (*neff.Member, error) {
	m := &neff.Member{}
	err := wirefields.Each(b, func(num protowire.Number, v uint64, s []byte) error {
		switch num {
		case 1:
			m.Path = string(s)
		case 2:
			m.DataOffset = int64(v)
		case 3:
			m.Size = int64(v)
		case 4:
			m.HeaderOffset = int64(v)
		}
		return nil
	})
	if err == nil && (m.DataOffset < 0 || m.Size < 0 || m.HeaderOffset < 0) {
		err = fmt.Errorf("member %q at %d of %d bytes", m.Path, m.DataOffset, m.Size)
	}
	return m, err
}

// The fields of a job's encoding.
const (
	fPlan   protowire.Number = 1
	fMember protowire.Number = 2
	fMemory protowire.Number = 3
	fInfl   protowire.Number = 4
)

// job is a job's decoded fields.
type job struct {
	plan    *neff.SpanPlan
	members []*neff.Member
	memory  int64
	inflate int64
}

func encodeJob(plan *neff.SpanPlan, ms []*neff.Member, memory, inflate int64) []byte {
	b := protowire.AppendTag(nil, fPlan, protowire.BytesType)
	b = protowire.AppendBytes(b, plan.AppendBinary(nil))
	for _, m := range ms {
		b = appendMember(b, m)
	}
	b = protowire.AppendTag(b, fMemory, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(max(memory, 0)))
	b = protowire.AppendTag(b, fInfl, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(max(inflate, 0)))
}

// parseJob reads a job and checks that its members lie in order within its plan's stretch.
func parseJob(b []byte) (*job, error) {
	j := &job{}
	err := wirefields.Each(b, func(num protowire.Number, v uint64, s []byte) error {
		var err error
		switch num {
		case fPlan:
			j.plan, err = neff.ParseSpanPlan(s)
		case fMember:
			var m *neff.Member
			if m, err = parseMember(s); err == nil {
				j.members = append(j.members, m)
			}
		case fMemory:
			j.memory = int64(v)
		case fInfl:
			j.inflate = int64(v)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("a pool job: %w", err)
	}
	if j.plan == nil {
		return nil, errors.New("a pool job without a read plan")
	}
	last := j.plan.From
	for _, m := range j.members {
		if m.DataOffset < last || m.DataOffset+m.Size > j.plan.To {
			return nil, fmt.Errorf("a pool job whose member %q (tar bytes %d+%d) is out of order or outside its stretch [%d, %d)", m.Path, m.DataOffset, m.Size, j.plan.From, j.plan.To)
		}
		last = m.DataOffset + m.Size
	}
	return j, nil
}

// planFor is the plan that reads ms, a run of members, again; false without a seek index.
func planFor(a *neff.Archive, ms []*neff.Member) (*neff.SpanPlan, bool) {
	last := ms[len(ms)-1]
	return a.PlanSpan(ms[0].DataOffset, last.DataOffset+last.Size)
}

// feed reads the job's stretch and hands each member's bytes to write(k, off, b), k its index
// in the job, off the member's byte; write returning false ends that member's feed.
// pause, when set, is called after each pauseEvery bytes of the stretch.
func (j *job) feed(ctx context.Context, r io.ReaderAt, pause func(), write func(k int, off int64, b []byte) bool) error {
	k := 0
	var since int
	return j.plan.Read(r, "a pool job's stretch", func(at int64, b []byte) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if since += len(b); pause != nil && since >= pauseEvery {
			since = 0
			pause()
		}
		for len(b) > 0 && k < len(j.members) {
			m := j.members[k]
			if at >= m.DataOffset+m.Size {
				k++
				continue
			}
			if at < m.DataOffset { // between members
				skip := min(int64(len(b)), m.DataOffset-at)
				at, b = at+skip, b[skip:]
				continue
			}
			n := min(int64(len(b)), m.DataOffset+m.Size-at)
			write(k, at-m.DataOffset, b[:n])
			at, b = at+n, b[n:]
		}
		return nil
	}, j.inflate)
}

// answerHead starts a member's entry in a job's answer: its path (field 1) and the offset that
// tells it apart (field 2: the data offset of a scan, the header offset of a hash).
func answerHead(path string, at int64) []byte {
	e := protowire.AppendTag(nil, 1, protowire.BytesType)
	e = protowire.AppendString(e, path)
	e = protowire.AppendTag(e, 2, protowire.VarintType)
	return protowire.AppendVarint(e, uint64(at))
}
