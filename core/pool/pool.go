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

// Run runs a job on the file r: the pool worker's side of Pool.Run.
func Run(ctx context.Context, kind string, data []byte, r io.ReaderAt) ([]byte, error) {
	switch kind {
	case KindScan:
		return runScan(ctx, data, r)
	case KindHash:
		return runHash(ctx, data, r)
	}
	return nil, fmt.Errorf("no pool job of kind %q (there are %s and %s)", kind, KindScan, KindHash)
}

// Goroutines is a pool of n goroutines running jobs on r: the CLI's split of the same work,
// and the tests that compare it with one thread's.
func Goroutines(n int, r io.ReaderAt) Pool {
	return &goroutines{sem: make(chan struct{}, max(n, 0)), r: r}
}

type goroutines struct {
	sem chan struct{}
	r   io.ReaderAt
}

func (g *goroutines) Size() int { return cap(g.sem) }

func (g *goroutines) Run(ctx context.Context, j Job) ([]byte, error) {
	if cap(g.sem) == 0 {
		return nil, errors.New("a pool of no goroutines")
	}
	select {
	case g.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-g.sem }()
	return Run(ctx, j.Kind, j.Data, g.r)
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
func (j *job) feed(ctx context.Context, r io.ReaderAt, write func(k int, off int64, b []byte) bool) error {
	k := 0
	return j.plan.Read(r, "a pool job's stretch", func(at int64, b []byte) error {
		if err := ctx.Err(); err != nil {
			return err
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
