package pool

// The members' SHA-256 job: a run of members read again and hashed, as the open's walk
// hashes them (neff.Options.NoMemberHashes left them out).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/neffscope/neffscope/core/wirefields"
	"hash"
	"io"

	"github.com/neffscope/neffscope/core/neff"
	"google.golang.org/protobuf/encoding/protowire"
)

// HashJob is the job that hashes ms, a run of whole members of a (Stretches), inflating at
// most inflate bytes; false when a cannot be read back in stretches.
func HashJob(a *neff.Archive, ms []*neff.Member, inflate int64) (Job, bool) {
	p, ok := planFor(a, ms)
	if !ok {
		return Job{}, false
	}
	return Job{Kind: KindHash, Data: encodeJob(p, ms, 0, inflate), Bytes: p.Stop - p.Resume.UncompressedOffset}, true
}

// runHash is the worker's side of a hash job: every member's SHA-256, or the job fails (the
// caller hashes the run itself, and meets the same error).
func runHash(ctx context.Context, data []byte, r io.ReaderAt, pause func()) ([]byte, error) {
	j, err := parseJob(data)
	if err != nil {
		return nil, err
	}
	sums := make([]hash.Hash, len(j.members))
	for k := range sums {
		sums[k] = sha256.New()
	}
	if err := j.feed(ctx, r, pause, func(k int, _ int64, p []byte) bool {
		sums[k].Write(p)
		return true
	}); err != nil {
		return nil, err
	}
	var out []byte
	for k, m := range j.members {
		e := answerHead(m.Path, m.HeaderOffset)
		e = protowire.AppendTag(e, 3, protowire.BytesType)
		e = protowire.AppendBytes(e, sums[k].Sum(nil))
		out = protowire.AppendTag(out, 1, protowire.BytesType)
		out = protowire.AppendBytes(out, e)
	}
	return out, nil
}

// ParseHashes reads a hash job's answer.
func ParseHashes(b []byte) ([]neff.MemberHash, error) {
	var out []neff.MemberHash
	err := wirefields.Each(b, func(_ protowire.Number, _ uint64, e []byte) error {
		var h neff.MemberHash
		err := wirefields.Each(e, func(num protowire.Number, v uint64, p []byte) error {
			switch num {
			case 1:
				h.Path = string(p)
			case 2:
				h.HeaderOffset = int64(v)
			case 3:
				if len(p) != sha256.Size {
					return fmt.Errorf("a SHA-256 of %d bytes", len(p))
				}
				h.SHA256 = hex.EncodeToString(p)
			}
			return nil
		})
		out = append(out, h)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("a hash job's answer: %w", err)
	}
	return out, nil
}
