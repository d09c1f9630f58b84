//go:build js && wasm

package main

import (
	"context"
	"encoding/hex"
	"time"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// digestWait bounds how long an open waits for the page's payload digest once it has read the
// payload (the page's hash worker usually answers long before); past it, the core hashes the
// payload itself, so a lost answer costs time, never a wrong verdict.
const digestWait = 60 * time.Second

// pageDigests is what the page's hash worker computed over the file an open reads.
type pageDigests struct {
	md5    []byte // of the payload bytes [1024, 1024+min(data_size, size-1024)), nil: not known
	sha256 string // of the whole file, "" when not known
}

// waitDigests registers token for an open and returns the function the open calls where it
// checks the payload's integrity (inspect.Options.PayloadDigest; it waits at most digestWait)
// and the channel's state for after the open. The page sends them with the digests method.
func (b *bridge) waitDigests(token int) (*digestWaiter, func()) {
	w := &digestWaiter{ch: make(chan pageDigests, 1)}
	b.mu.Lock()
	b.digests[token] = w.ch
	b.mu.Unlock()
	return w, func() {
		b.mu.Lock()
		delete(b.digests, token)
		b.mu.Unlock()
	}
}

type digestWaiter struct {
	ch     chan pageDigests
	got    pageDigests
	have   bool
	waited time.Duration // in payload, for the open's digestWaitMs
}

// payload is inspect.Options.PayloadDigest: the page's MD5, waited for.
func (w *digestWaiter) payload(algo string) []byte {
	if algo == "md5" && !w.have {
		defer func(t time.Time) { w.waited += time.Since(t) }(time.Now())
		select {
		case w.got = <-w.ch:
			w.have = true
		case <-time.After(digestWait):
		}
	}
	return w.got.md5
}

// sha256 is the page's sha-256 of the file, if it has arrived.
func (w *digestWaiter) sha256() string {
	if !w.have {
		select {
		case w.got = <-w.ch:
			w.have = true
		default:
		}
	}
	return w.got.sha256
}

// hexArg is argument name as n bytes given in hex (” or absent: nil).
func hexArg(r *request, name string, n int) ([]byte, error) {
	s := r.str(name)
	if s == "" {
		return nil, nil
	}
	v, err := hex.DecodeString(s)
	if err != nil || len(v) != n {
		return nil, protocol.Errorf(protocol.BadRequest, "%s: %s %q is not %d bytes in hex", r.method.Name, name, s, n)
	}
	return v, nil
}

// digests → {used}: the payload's MD5 and the file's sha-256 the page computed for the open
// that was given this token; used is false when no open waits for it (it ended already).
func (b *bridge) digestsCall(r *request) (any, error) {
	token, err := r.int("token")
	if err != nil {
		return nil, err
	}
	var d pageDigests
	if d.md5, err = hexArg(r, "md5", 16); err != nil {
		return nil, err
	}
	sum, err := hexArg(r, "sha256", 32)
	if err != nil {
		return nil, err
	}
	d.sha256 = hex.EncodeToString(sum)
	b.mu.Lock()
	ch := b.digests[int(token)]
	b.mu.Unlock()
	used := false
	if ch != nil {
		select {
		case ch <- d:
			used = true
		default:
		}
	}
	return object("used", used), nil
}

// pause lets the page's calls in, for a background call (hashMembers, indexSource, the pool's
// jobs on this thread): in wasm a sleep returns the one thread to the page's events; then,
// while an open or another call runs, it waits for it (waitIdle). The work calls it often
// (every 64 KiB scanned or read); it yields once pauseSlice has passed since the last yield,
// so a click waits at most about that long, and the yields (a setTimeout each, 1–4 ms) stay
// a small part of the work.
func (b *bridge) pause() {
	if last := b.lastPause.Load(); last != 0 && time.Since(time.Unix(0, last)) < pauseSlice && b.opening.Load() == 0 && b.busy.Load() == 0 {
		return
	}
	b.yieldNow()
}

// yieldNow lets the page's calls in at once, then waits while an open or another call runs:
// the warm-up's open yields so at each of its progress points, so that a file the user picks
// meanwhile starts at the next one.
func (b *bridge) yieldNow() {
	time.Sleep(time.Millisecond)
	b.waitIdle()
	b.lastPause.Store(time.Now().UnixNano())
}

// pauseSlice is the most a background call runs between two yields to the page's events.
const pauseSlice = 25 * time.Millisecond

// waitIdle waits while an open or a sync call runs.
func (b *bridge) waitIdle() {
	for b.opening.Load() > 0 || b.busy.Load() > 0 {
		time.Sleep(20 * time.Millisecond)
	}
}

// hashMembers → {members}: the members' sha-256 an open with memberHashes: false left out,
// computed by reading the archive again, in the pool workers when there are any (pool.go),
// else on its own goroutine, pausing every few MiB so the page's other calls are answered
// meanwhile; events progress. The Document takes them too.
func (b *bridge) hashMembers(ctx context.Context, r *request) (any, error) {
	f := r.file
	b.mu.Lock()
	rd := b.readers[r.handle]
	pending := f.MemberHashesPending()
	b.mu.Unlock()
	if pending {
		var src *jsReaderAt
		if rd != nil {
			src = newJSReaderAt(rd.readJS, rd.size, rd.chunk) // its own read-ahead buffer
		}
		opt := neff.HashOptions{Context: ctx, Pause: b.pause}
		if src != nil {
			tp := throttledProgress(r, src)
			opt.Progress = func(p neff.Progress) {
				tp(inspect.Progress{Phase: p.Phase, Done: p.Done, Total: p.Total, Inflated: p.Inflated})
			}
		}
		var list []neff.MemberHash
		var err error
		if p := b.poolFor(r.handle); p != nil && src != nil {
			// In the pool workers; a job that fails has the whole pass done here (pausing).
			list, err = f.HashMembersIn(src, p, opt, nil)
		} else {
			list, err = hashFile(f, src, opt)
		}
		if err != nil {
			return nil, err
		}
		b.mu.Lock()
		if f.MemberHashesPending() {
			f.ApplyMemberHashes(list)
		}
		b.mu.Unlock()
	}
	return object("members", memberSums(f)), nil
}

func hashFile(f *inspect.File, src *jsReaderAt, opt neff.HashOptions) ([]neff.MemberHash, error) {
	if src != nil {
		return f.HashMembersFrom(src, opt)
	}
	return f.HashMembers(opt)
}

// ensureMemberHashes computes the members' sha-256 of f now, where a call needs them (diff,
// compare) and the background pass has not finished.
func (b *bridge) ensureMemberHashes(f *inspect.File) error {
	if !f.MemberHashesPending() {
		return nil
	}
	list, err := f.HashMembers(neff.HashOptions{})
	if err != nil {
		return err
	}
	b.mu.Lock()
	if f.MemberHashesPending() {
		f.ApplyMemberHashes(list)
	}
	b.mu.Unlock()
	return nil
}

// memberSums lists {path, sha256, detail} of every member in archive order: what the page
// puts into its Document (the members table's sha256 column, each member node's detail).
func memberSums(f *inspect.File) []any {
	if f.Archive == nil {
		return []any{}
	}
	out := make([]any, len(f.Archive.Members))
	for i, m := range f.Archive.Members {
		out[i] = object("path", m.Path, "sha256", m.SHA256, "detail", neff.MemberDetail(m))
	}
	return out
}
