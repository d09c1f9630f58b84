package srcmap

// The members not held, scanned in a pool (Options.Pool): the page's pool workers, or the
// CLI's goroutines. Each run of members (pool.Stretches) is one job that reads its stretch of
// the archive again through the seek index and scans it; the Compacts come back as bytes and
// are charged to the open's budget as if scanned here. One budget across the pool: before a
// job is handed out, the most its scans may hold (twice their estimated cost, and a MiB) is
// taken from the open's budget and is all the job's worker may hold; when the answer comes,
// that is given back and each Compact's own size is taken. What the pool does not do (no room
// to reserve, a job that failed, a scan its share refused) is scanned here as before, so the
// Compacts are those one thread makes.

import (
	"strconv"
	"sync"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pool"
)

// pooled is the pool's answer for one member: its Compact (nil: the budget refused it).
type pooled struct {
	c *dbg.Compact
}

// viaPool hands ms (members not held, in archive order) to the pool. It returns the members
// left for this thread to read, and wait, which waits for the jobs and returns their Compacts
// by data offset together with the members whose jobs failed (to be scanned here after all).
func (s *Scans) viaPool(ms []*neff.Member) (rest []*neff.Member, wait func() (map[int64]pooled, []*neff.Member)) {
	p, a, b := s.pool, s.n.Archive(), s.n.Budget()
	none := func() (map[int64]pooled, []*neff.Member) { return nil, nil }
	if p == nil || p.Size() == 0 || !a.CanSeek() {
		return ms, none
	}
	var jobs []pool.Job
	var runs [][]*neff.Member
	var reserved []int64
	for _, run := range pool.Stretches(ms, p.Size()) {
		var cost int64
		for _, m := range run {
			cost += dbgCost(m.Path, m.Size)
		}
		share := 2*cost + 1<<20
		j, ok := pool.ScanJob(a, run, share, b.Limit(budget.Inflate))
		if !ok || !b.Can(budget.Memory, share) || !b.Take(budget.Memory, share, "debug info scanned in the pool") {
			rest = append(rest, run...)
			continue
		}
		jobs, runs, reserved = append(jobs, j), append(runs, run), append(reserved, share)
	}
	if len(jobs) == 0 {
		return rest, none
	}
	var mu sync.Mutex
	got := map[int64]pooled{}
	var again []*neff.Member
	done := make(chan struct{})
	go func() {
		defer close(done)
		pool.Fan(s.ctx, p, jobs, func(i int, answer []byte, err error) {
			var list []pool.Scanned
			if err == nil {
				list, err = pool.ParseScanned(answer)
			}
			mu.Lock()
			defer mu.Unlock()
			b.Release(budget.Memory, reserved[i])
			if s.progress != nil {
				s.progress(jobs[i].Bytes)
			}
			if err != nil || len(list) != len(runs[i]) {
				again = append(again, runs[i]...)
				return
			}
			for k, sc := range list {
				m := runs[i][k]
				if sc.Compact == nil || sc.Offset != m.DataOffset || sc.Compact.Member != m.Path {
					again = append(again, m) // read or refused there: here, as one thread would
					continue
				}
				if !b.Take(budget.Memory, sc.Held, "debug info "+strconv.Quote(m.Path)) {
					got[m.DataOffset] = pooled{}
					continue
				}
				got[m.DataOffset] = pooled{c: sc.Compact}
			}
		})
	}()
	return rest, func() (map[int64]pooled, []*neff.Member) {
		<-done
		return got, again
	}
}

// settlePooled takes the pool's answer for m into the mapping: its Compact, or m skipped for
// the memory limit (the budget refused what it holds).
func (s *Scans) settlePooled(m *neff.Member, p pooled, out map[string]*dbg.Compact) {
	s.yield()
	if p.c == nil {
		s.skipped = append(s.skipped, m.Path)
		s.skippedCost += dbgCost(m.Path, m.Size)
		return
	}
	out[m.Path] = p.c
}
