package srcmap

// The members not held, scanned in a pool (Options.Pool): the page's pool workers, or the
// CLI's goroutines. Each run of members (pool.Stretches) is one job that reads its stretch of
// the archive again through the seek index and scans it; the Compacts come back as bytes and
// are charged to the open's budget as if scanned here. One budget across the pool: before a
// job is handed out, the most its scans may hold (twice their estimated cost, and a MiB) is
// taken from the open's budget and is all the job's worker may hold; when the answer comes,
// that is given back and each Compact's own size is taken. Either the pool scans every member
// or this thread scans them all as before (every job's share does not fit at once, a job
// failed, a scan its share refused): so the Compacts, and what is skipped for the memory limit,
// are those of one thread. Each job's scans stay within its share, and the shares fit at once,
// so one thread, whose scans of these members are all open at once too, would not have been
// refused either.

import (
	"strconv"
	"sync"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pool"
)

// viaPool hands ms (members not held, in archive order) to the pool, all of them or none (no
// pool, no seek index, no room for every job's share). It returns the members left for this
// thread to read (ms or none), and wait, which waits for the jobs and returns their Compacts by
// data offset, or, when any job failed or any scan was refused its share, none of them and ms
// (all scanned here after all).
func (s *Scans) viaPool(ms []*neff.Member) (rest []*neff.Member, wait func() (map[int64]*dbg.Compact, []*neff.Member)) {
	p, a, b := s.pool, s.n.Archive(), s.n.Budget()
	none := func() (map[int64]*dbg.Compact, []*neff.Member) { return nil, nil }
	if p == nil || p.Size() == 0 || !a.CanSeek() {
		return ms, none
	}
	var jobs []pool.Job
	var runs [][]*neff.Member
	var reserved []int64
	var total int64
	for _, run := range pool.Stretches(ms, p.Size()) {
		var cost int64
		for _, m := range run {
			cost += dbgCost(m.Path, m.Size)
		}
		share := 2*cost + 1<<20
		j, ok := pool.ScanJob(a, run, share, b.Limit(budget.Inflate))
		if !ok {
			return ms, none
		}
		jobs, runs, reserved = append(jobs, j), append(runs, run), append(reserved, share)
		total += share
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
