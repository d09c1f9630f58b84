package srcmap

// The members not held, scanned in a pool (Options.Pool): the page's pool workers, or the
// CLI's goroutines. Each run of members (pool.Stretches) is one job that reads its stretch of the archive again through the
// seek index and scans it; the Compacts come back as bytes and are charged to the open's budget as if scanned here. One budget across the pool: before a
// job is handed out, the most its scans may hold (twice their estimated cost, and a MiB) is
// taken from the open's budget and is all the job's worker may hold; when the answer comes,
// that is given back and each Compact's own size is taken. Either the pool scans every member
// or this thread scans them all as before (every job's share does not fit at once, a job
// failed, a scan its share refused): so the Compacts, and what is skipped for the memory limit,
// are those of one thread. Each job's scans stay within its share, and the shares fit at once,
// so one thread, whose scans of these members are all open at once too, would not have been
// refused either.

import (
	"context"
	"strconv"
	"sync"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pool"
)

// viaPool hands ms (members not held, in directory order) to the pool, all of them or none (no
// pool, no seek index, no room for every job's share). It returns the members left for this
// thread to read (ms or none), and wait, which waits for the jobs and returns their Compacts by
// data offset, or, when any job failed or any scan was refused its share, none of them and ms
// (all scanned here after all).
func (s *Scans) viaPool(ms []*neff.Member) (rest []*neff.Member, wait func() (map[int64]*dbg.Compact, []*neff.Member)) {
	p, a, b := s.pool, s.n.Archive(), s.n.Budget()
	none := func() (map[int64]*dbg.Compact, []*neff.Member) { return nil, nil }
	jobs, runs, reserved, total, ok := scanJobs(ms, p, a, b)
	if !ok {
		return ms, none
	}
	// All the jobs or none: a pool holding some reservations while this thread scans the rest
	// could have this thread's scans refused where one thread's were not. When they all fit,
	// one thread (holding less at once) would have fitted too.
	if !b.Can(budget.Memory, total) {
		return ms, none
	}
	if !b.Take(budget.Memory, total, "debug info scanned in the pool") {
		return ms, none
	}
	var mu sync.Mutex
	got := map[int64]*dbg.Compact{}
	var taken int64 // what got's Compacts hold, taken from the budget
	failed := false
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
			if failed || err != nil || len(list) != len(runs[i]) {
				failed = true
				return
			}
			for k, sc := range list {
				m := runs[i][k]
				// Read or refused there, or no room for it here (its share was given back just
				// now: a Compact never holds more than it): the pool's answers are let go.
				if sc.Compact == nil || sc.Offset != m.DataOffset || sc.Compact.Member != m.Path || !b.Can(budget.Memory, sc.Held) {
					failed = true
					return
				}
				b.Take(budget.Memory, sc.Held, "debug info "+strconv.Quote(m.Path))
				taken += sc.Held
				got[m.DataOffset] = sc.Compact
			}
		})
	}()
	return nil, func() (map[int64]*dbg.Compact, []*neff.Member) {
		<-done
		if failed {
			// All of it here then, as one thread does: a scan its share refused would have
			// more room here than it had in one thread, where every scan is open at once.
			b.Release(budget.Memory, taken)
			return nil, ms
		}
		return got, nil
	}
}

// scanJobs cuts ms into the pool's scan jobs: each run's job, its members, and its share of the
// budget (twice the run's estimated scan cost and a MiB: all its worker may hold); total is the
// shares' sum. ok is false when there is no pool, no seek index, or a run has no job.
func scanJobs(ms []*neff.Member, p pool.Pool, a *neff.Archive, b *budget.Budget) (jobs []pool.Job, runs [][]*neff.Member, shares []int64, total int64, ok bool) {
	if p == nil || p.Size() == 0 || !a.CanSeek() || len(ms) == 0 {
		return nil, nil, nil, 0, false
	}
	for _, run := range pool.Stretches(ms, p.Size()) {
		var cost int64
		for _, m := range run {
			cost += dbgCost(m.Path, m.Size)
		}
		share := 2*cost + 1<<20
		j, ok := pool.ScanJob(a, run, share, b.Limit(budget.Inflate))
		if !ok {
			return nil, nil, nil, 0, false
		}
		jobs, runs, shares = append(jobs, j), append(runs, run), append(shares, share)
		total += share
	}
	return jobs, runs, shares, total, true
}

// Prefetch starts in p, when it is a pool.Ahead, the scan jobs a mapping of n would hand it:
// the .dbg members not held, in the runs and with the shares viaPool gives them, so that a
// later mapping's jobs are the same bytes and are answered at once. An open with deferred
// source lines calls it once the archive is walked, and the pool's workers scan while the open's
// thread resolves the model. Nothing is taken from the budget: the answers wait in the pool
// (outside the core's memory) until the mapping asks for them and charges them as viaPool
// does; what the mapping does not ask for is let go (pool.Ahead's Forget). So that what waits
// stays bounded, it starts nothing when the shares come to more than a quarter of what the
// memory limit leaves (the part the walk's own scans may take). It says whether it started
// the jobs.
func Prefetch(ctx context.Context, n NEFF, p pool.Pool) bool {
	ahead, ok := p.(pool.Ahead)
	a, b := n.Archive(), n.Budget()
	if !ok || a == nil {
		return false
	}
	dirs, byDir := dbgDirs(a)
	var ms []*neff.Member
	for _, d := range dirs {
		for _, m := range byDir[d] {
			if m.Data == nil {
				ms = append(ms, m)
			}
		}
	}
	jobs, _, _, total, ok := scanJobs(ms, p, a, b)
	if !ok || total > b.Left(budget.Memory)/walkShare {
		return false
	}
	ahead.Ahead(ctx, jobs)
	return true
}
