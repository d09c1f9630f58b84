package neff

import (
	"context"
	"errors"
	"io"
)

// MemberHash is one member's SHA-256 as HashMembers computes it; HeaderOffset (the member's
// place in the tar stream) tells members of the same path apart.
type MemberHash struct {
	Path         string
	HeaderOffset int64
	SHA256       string
}

// HashOptions tune HashMembers.
type HashOptions struct {
	Context context.Context
	// MaxInflated bounds decompression (0: DefaultMaxInflated); use the open's.
	MaxInflated int64
	// Progress, if set, is called as the payload is read again.
	Progress func(Progress)
	// Pause, if set, is called about every 4 MiB of member bytes hashed, so a caller on a
	// single thread (the wasm worker) can let other work run between stretches.
	Pause func()
}

// pauseEvery is how many member bytes HashMembers hashes between two calls of Pause.
const pauseEvery = 4 << 20

// HashMembers reads the archive of a again (r is the file a was opened from) and returns the
// SHA-256 of every member an open with NoMemberHashes left empty, in archive order. The payload
// hash is not computed again, no member is held, and memory stays bounded as in Open. It does
// not change a: SetMemberHashes does.
func (a *Archive) HashMembers(r io.ReaderAt, opt HashOptions) ([]MemberHash, error) {
	var walked int64
	o := Options{
		Keep:          func(string, int64) bool { return false },
		MaxInflated:   opt.MaxInflated,
		Context:       opt.Context,
		Progress:      opt.Progress,
		NoPayloadHash: true,
	}
	if opt.Pause != nil {
		next := int64(pauseEvery)
		o.Visit = func(_ *Member, _ int64, chunk []byte) {
			walked += int64(len(chunk))
			if walked >= next {
				next = walked + pauseEvery
				opt.Pause()
			}
		}
	}
	b := Open(r, a.FileSize, o)
	if o.Context != nil && o.Context.Err() != nil {
		return nil, o.Context.Err()
	}
	out := make([]MemberHash, 0, len(b.Members))
	for _, m := range b.Members {
		if m.SHA256 != "" {
			out = append(out, MemberHash{Path: m.Path, HeaderOffset: m.HeaderOffset, SHA256: m.SHA256})
		}
	}
	if len(out) == 0 && len(a.Members) > 0 {
		return nil, errors.New("the archive could not be read again to hash its members")
	}
	return out, nil
}

// SetMemberHashes sets the SHA-256 of a's members from HashMembers' list (matched by path and
// tar offset) and clears MemberHashesSkipped. It returns the members it set, in archive order.
func (a *Archive) SetMemberHashes(list []MemberHash) []*Member {
	by := make(map[int64]MemberHash, len(list))
	for _, h := range list {
		by[h.HeaderOffset] = h
	}
	var set []*Member
	for _, m := range a.Members {
		if h, ok := by[m.HeaderOffset]; ok && h.Path == m.Path && !m.Truncated {
			m.SHA256 = h.SHA256
			set = append(set, m)
		}
	}
	a.MemberHashesSkipped = false
	return set
}
