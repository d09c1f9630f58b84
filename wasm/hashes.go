//go:build js && wasm

package main

import (
	"context"
	"encoding/hex"
	"strings"
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
// checks the payload's integrity (inspect.Options.PayloadDigest) and a function giving what
// arrived (after the open). The page sends the digests with the digests method.
func (b *bridge) waitDigests(token int) (func(string) []byte, func() (pageDigests, bool), func()) {
	ch := make(chan pageDigests, 1)
	b.mu.Lock()
	b.digests[token] = ch
	b.mu.Unlock()
	var got pageDigests
	have := false
	take := func(wait time.Duration) bool {
		if have {
			return true
		}
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case got = <-ch:
			have = true
		case <-t.C:
		}
		return have
	}
	payload := func(algo string) []byte {
		if algo != "md5" || !take(digestWait) {
			return nil
		}
		return got.md5
	}
	after := func() (pageDigests, bool) {
		if !have {
			select {
			case got = <-ch:
				have = true
			default:
			}
		}
		return got, have
	}
	done := func() {
		b.mu.Lock()
		delete(b.digests, token)
		b.mu.Unlock()
	}
	return payload, after, done
}

// digests → {used}: the payload's MD5 and the file's sha-256 the page computed for the open
// that was given this token; used is false when no open waits for it (it ended already).
func (b *bridge) digestsCall(r *request) (any, error) {
	token, err := r.int("token")
	if err != nil {
		return nil, err
	}
	var d pageDigests
	if s := strings.ToLower(r.str("md5")); s != "" {
		if d.md5, err = hex.DecodeString(s); err != nil || len(d.md5) != 16 {
			return nil, protocol.Errorf(protocol.BadRequest, "digests: %q is not an MD5 in hex", s)
		}
	}
	if s := strings.ToLower(r.str("sha256")); s != "" {
		if len(s) != 64 || strings.Trim(s, "0123456789abcdef") != "" {
			return nil, protocol.Errorf(protocol.BadRequest, "digests: %q is not a sha-256 in hex", s)
		}
		d.sha256 = s
	}
	b.mu.Lock()
	ch := b.digests[int(token)]
	b.mu.Unlock()
	if ch == nil {
		return object("used", false), nil
	}
	select {
	case ch <- d:
		return object("used", true), nil
	default:
		return object("used", false), nil
	}
}

// hashMembers → {members}: the members' sha-256 an open with memberHashes: false left out,
// computed by reading the archive again, on its own goroutine, pausing every few MiB so the
// page's other calls are answered meanwhile; events progress. The Document takes them too.
func (b *bridge) hashMembers(ctx context.Context, r *request) (any, error) {
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	h, _ := r.int("handle")
	b.mu.Lock()
	rd := b.readers[int(h)]
	pending := f.MemberHashesPending()
	b.mu.Unlock()
	if pending {
		var src *jsReaderAt
		if rd != nil {
			src = newJSReaderAt(rd.readJS, rd.size, rd.chunk) // its own read-ahead buffer
		}
		var last time.Time
		// Pause: let the page's calls in; while an open runs, wait for it to end.
		pause := func() {
			time.Sleep(time.Millisecond)
			for b.opening.Load() > 0 {
				time.Sleep(20 * time.Millisecond)
			}
		}
		opt := neff.HashOptions{Context: ctx, Pause: pause,
			Progress: func(p neff.Progress) {
				if now := time.Now(); now.Sub(last) >= progressEvery || p.Phase == "done" {
					last = now
					r.event("progress", object("phase", "hashing "+p.Phase, "done", float64(p.Done), "total", float64(p.Total), "inflated", float64(p.Inflated), "read", float64(p.Done)))
				}
			}}
		list, err := hashFile(f, src, opt)
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
