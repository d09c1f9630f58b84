package inspect

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"fmt"
	"hash"
	"testing"

	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// payloadDigestOf is what the page's hash worker computes: the payload hash over bytes
// [1024, 1024+min(data_size, size-1024)).
func payloadDigestOf(b []byte) func(string) []byte {
	return func(algo string) []byte {
		if len(b) <= neff.HeaderSize {
			return nil
		}
		h := neff.ParseHeader(b[:neff.HeaderSize])
		end := min(uint64(len(b)), neff.HeaderSize+h.DataSize)
		var d hash.Hash = md5.New()
		if algo == "sha256" {
			d = sha256.New()
		}
		d.Write(b[neff.HeaderSize:end])
		return d.Sum(nil)
	}
}

// A deferred open (payload digest from elsewhere, members hashed afterwards) ends with the
// Document a hashing open gives, byte for byte: verdict, integrity, overview, member hashes.
func TestDeferredHashesGiveTheSameDocument(t *testing.T) {
	sample := neffbuild.Sample()
	dup := append(append([]neffbuild.Member{}, sample...), neffbuild.Member{Path: sample[0].Path, Data: []byte("a second member of the same path")})
	good := neffbuild.Bytes(dup, neffbuild.Options{})
	badMD5 := bytes.Clone(good)
	badMD5[0xAC] ^= 0xff
	cut := good[:len(good)*2/3]
	files := map[string][]byte{
		"sample-dup.neff": good,
		"bad-md5.neff":    badMD5,
		"plain.neff":      neffbuild.Bytes(sample, neffbuild.Options{PkgVersion: 1, Plain: true}),
		"cut.neff":        cut,
	}
	files["matmul_small.neff"] = realfiles.Read(t, "nkipy/matmul_small.neff")
	for name, b := range files {
		for _, digest := range []string{"given", "not known"} {
			want := Open(name, bytes.NewReader(b), int64(len(b)), Options{Fingerprint: true})
			opt := Options{Fingerprint: true, DeferMemberHashes: true, PayloadDigest: payloadDigestOf(b)}
			if digest == "not known" {
				opt.PayloadDigest = func(string) []byte { return nil }
			}
			got := Open(name, bytes.NewReader(b), int64(len(b)), opt)
			if !got.MemberHashesPending() {
				t.Fatalf("%s: the open says its member hashes are done", name)
			}
			for _, m := range got.Archive.Members {
				if m.SHA256 != "" {
					t.Fatalf("%s: member %s hashed in a deferred open", name, m.Path)
				}
			}
			if got.Archive.Payload.Integrity != want.Archive.Payload.Integrity || fmt.Sprintf("%+v", got.Archive.Verdict) != fmt.Sprintf("%+v", want.Archive.Verdict) {
				t.Errorf("%s (%s): integrity %s, verdict %+v; want %s, %+v", name, digest, got.Archive.Payload.Integrity, got.Archive.Verdict, want.Archive.Payload.Integrity, want.Archive.Verdict)
			}
			list, err := got.HashMembers(neff.HashOptions{})
			if err != nil {
				t.Fatalf("%s: HashMembers: %v", name, err)
			}
			got.ApplyMemberHashes(list)
			if got.MemberHashesPending() {
				t.Errorf("%s: still pending after ApplyMemberHashes", name)
			}
			wb, _ := want.Doc.MarshalMsg(nil)
			gb, _ := got.Doc.MarshalMsg(nil)
			if !bytes.Equal(wb, gb) {
				t.Errorf("%s (%s): the Document differs from a hashing open's", name, digest)
			}
		}
	}
}
