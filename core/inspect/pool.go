package inspect

// The work after an open, split across a pool (core/pool): the source lines' .dbg scans and
// the members' SHA-256, each read again in stretches of the archive by the pool's workers.

import (
	"context"
	"errors"
	"io"
	"sync"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pool"
	"github.com/neffscope/neffscope/core/srcmap"
)

// IndexSourceIn is IndexSourceWith with the .dbg members not held scanned in p (its workers
// read them again themselves; done hears of each job's tar bytes as it ends). What p does not
// do is done here, so the mapping is the one IndexSourceWith makes.
func (f *File) IndexSourceIn(ctx context.Context, r io.ReaderAt, pause func(), p pool.Pool, done func(tarBytes int64)) (*MappedSource, error) {
	return f.indexSource(ctx, srcmap.Options{Reader: r, Pause: pause, Pool: p, PoolDone: done})
}

// Goroutines is a pool of n goroutines reading the file f was opened from (its reader must
// allow concurrent ReadAt, as an *os.File and a *bytes.Reader do): the CLI's split.
func (f *File) Goroutines(n int) pool.Pool {
	return pool.Goroutines(n, f.r)
}

// HashMembersIn is HashMembersFrom with the members hashed in p, a run of members a job, each
// job reading its stretch of the archive again; done hears of each job's tar bytes as it ends.
// A job that fails is done here (the whole pass again, through r, with opt's Pause and
// Progress, as HashMembersFrom), so the list is the one HashMembersFrom gives.
func (f *File) HashMembersIn(r io.ReaderAt, p pool.Pool, opt neff.HashOptions, done func(tarBytes int64)) ([]neff.MemberHash, error) {
	a := f.Archive
	if a == nil {
		return nil, errors.New("not a NEFF: it has no members")
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	ctx := opt.Context
	if opt.MaxInflated <= 0 {
		opt.MaxInflated = f.Budget.Limit(budget.Inflate)
	}
	if p == nil || p.Size() == 0 || !a.CanSeek() {
		return f.HashMembersFrom(r, opt)
	}
	var whole []*neff.Member
	for _, m := range a.Members {
		if !m.Truncated {
			whole = append(whole, m)
		}
	}
	var jobs []pool.Job
	for _, run := range pool.Stretches(whole, p.Size()) {
		j, ok := pool.HashJob(a, run, opt.MaxInflated)
		if !ok {
			return f.HashMembersFrom(r, opt)
		}
		jobs = append(jobs, j)
	}
	answers := make([][]neff.MemberHash, len(jobs))
	var mu sync.Mutex
	var failed error
	pool.Fan(ctx, p, jobs, func(i int, b []byte, err error) {
		var list []neff.MemberHash
		if err == nil {
			list, err = pool.ParseHashes(b)
		}
		mu.Lock()
		defer mu.Unlock()
		if done != nil {
			done(jobs[i].Bytes)
		}
		if err != nil && failed == nil {
			failed = err
		}
		answers[i] = list
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if failed != nil {
		return f.HashMembersFrom(r, opt)
	}
	var out []neff.MemberHash
	for _, list := range answers {
		out = append(out, list...)
	}
	return out, nil
}
