package neff

import (
	"bytes"
	"crypto/md5"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// NoMemberHashes leaves the members' SHA-256 out of the open; HashMembers computes the ones a
// hashing open gives, and PayloadDigest replaces the payload hash (asked for once).
func TestDeferredHashes(t *testing.T) {
	b := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	want := Open(bytes.NewReader(b), int64(len(b)), Options{})
	calls := 0
	got := Open(bytes.NewReader(b), int64(len(b)), Options{NoMemberHashes: true, PayloadDigest: func(algo string) []byte {
		calls++
		if algo != "md5" {
			t.Errorf("algo %q, want md5", algo)
		}
		s := md5.Sum(b[HeaderSize:])
		return s[:]
	}})
	if calls != 1 || got.Payload.Integrity != "ok" || got.Payload.ComputedHash != want.Payload.ComputedHash || !got.Verdict.Accepts {
		t.Fatalf("calls %d, integrity %s, hash %s (want %s), verdict %+v", calls, got.Payload.Integrity, got.Payload.ComputedHash, want.Payload.ComputedHash, got.Verdict)
	}
	if !got.MemberHashesSkipped || want.MemberHashesSkipped {
		t.Fatalf("MemberHashesSkipped: deferred %v, hashing %v", got.MemberHashesSkipped, want.MemberHashesSkipped)
	}
	for _, m := range got.Members {
		if m.SHA256 != "" {
			t.Fatalf("member %s hashed", m.Path)
		}
	}
	paused := 0
	list, err := got.HashMembers(bytes.NewReader(b), HashOptions{Pause: func() { paused++ }})
	if err != nil {
		t.Fatal(err)
	}
	if set := got.SetMemberHashes(list); len(set) != len(want.Members) || got.MemberHashesSkipped {
		t.Fatalf("set %d of %d members, skipped %v", len(set), len(want.Members), got.MemberHashesSkipped)
	}
	for i, m := range got.Members {
		if m.SHA256 != want.Members[i].SHA256 || m.SHA256 == "" {
			t.Errorf("%s: sha256 %q, want %q", m.Path, m.SHA256, want.Members[i].SHA256)
		}
	}
	// A wrong digest is a mismatch, exactly as a hashing open of a damaged file reports it.
	bad := bytes.Clone(b)
	bad[0xAC] ^= 1
	wantBad := Open(bytes.NewReader(bad), int64(len(bad)), Options{})
	gotBad := Open(bytes.NewReader(bad), int64(len(bad)), Options{PayloadDigest: func(string) []byte { s := md5.Sum(bad[HeaderSize:]); return s[:] }})
	if gotBad.Payload.Integrity != "mismatch" || len(gotBad.Findings) != len(wantBad.Findings) || gotBad.Verdict.Message != wantBad.Verdict.Message {
		t.Errorf("bad MD5: integrity %s, %d findings (want %d), verdict %q", gotBad.Payload.Integrity, len(gotBad.Findings), len(wantBad.Findings), gotBad.Verdict.Message)
	}
}
