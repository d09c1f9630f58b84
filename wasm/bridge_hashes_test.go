//go:build js && wasm

package main

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
)

// await waits for a Promise the test started itself (an open still running while the test
// makes other calls).
func await(t *testing.T, p js.Value) js.Value {
	t.Helper()
	ch := make(chan js.Value, 1)
	var fail js.Value
	ok := js.FuncOf(func(_ js.Value, a []js.Value) any { ch <- a[0]; return nil })
	bad := js.FuncOf(func(_ js.Value, a []js.Value) any { fail = a[0]; ch <- js.Null(); return nil })
	defer ok.Release()
	defer bad.Release()
	p.Call("then", ok, bad)
	v := <-ch
	if !fail.IsUndefined() {
		t.Fatalf("rejected: %s", js.Global().Get("JSON").Call("stringify", fail))
	}
	return v
}

// An open given a digests token waits for the page's MD5 where it checks integrity and gives
// the Document a hashing open gives (a wrong MD5: the mismatch); with memberHashes false the
// members' sha-256 come from hashMembers, as the native open computes them.
func TestOpenTakesThePageDigests(t *testing.T) {
	c := core(t)
	file, _ := generated()
	native := inspect.Open("g.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{Fingerprint: true})
	want, _ := native.Doc.MarshalMsg(nil)
	sum := md5.Sum(file[neff.HeaderSize:])
	fsum := sha256.Sum256(file)
	for i, md := range []string{hex.EncodeToString(sum[:]), "00112233445566778899aabbccddeeff", ""} {
		token := 100 + i
		p := js.Global().Get(GlobalName).Call("call", "open", js.ValueOf(map[string]any{"file": u8(file), "name": "g.neff", "fingerprint": false, "digests": token, "memberHashes": false}))
		args := map[string]any{"token": token, "sha256": hex.EncodeToString(fsum[:])}
		if md != "" {
			args["md5"] = md
		}
		if !c.must("digests", args).Get("used").Bool() {
			t.Fatalf("%d: the open did not take the digests", i)
		}
		r := await(t, p)
		d := decodeDoc(t, r.Get("doc"))
		if !r.Get("fingerprinted").Bool() || d.SHA256 != native.Doc.SHA256 {
			t.Errorf("%d: fingerprint %q (taken %v), want %q", i, d.SHA256, r.Get("fingerprinted").Bool(), native.Doc.SHA256)
		}
		h := r.Get("handle")
		members := c.must("hashMembers", map[string]any{"handle": h}).Get("members")
		if members.Length() != len(native.Archive.Members) {
			t.Fatalf("%d: %d member sums, want %d", i, members.Length(), len(native.Archive.Members))
		}
		for k, m := range native.Archive.Members {
			if got := members.Index(k); got.Get("sha256").String() != m.SHA256 || got.Get("detail").String() != neff.MemberDetail(m) {
				t.Errorf("%d: member %s: %s, want %s", i, m.Path, got.Get("sha256").String(), m.SHA256)
			}
		}
		c.b.mu.Lock()
		f := c.b.files[h.Int()]
		c.b.mu.Unlock()
		got, _ := f.Doc.MarshalMsg(nil)
		switch {
		case i == 1 && f.Archive.Payload.Integrity != "mismatch":
			t.Errorf("a wrong MD5 gave integrity %q", f.Archive.Payload.Integrity)
		case i != 1 && !bytes.Equal(got, want):
			t.Errorf("%d: after hashMembers the Document differs from the native open's", i)
		}
	}
	if c.must("digests", map[string]any{"token": 999, "md5": hex.EncodeToString(sum[:])}).Get("used").Bool() {
		t.Error("digests for no open were used")
	}
	c.fails("digests", map[string]any{"token": 1, "md5": "xyz"}, "bad-request", "not 16 bytes in hex")
}
