package inspect

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// Bytes of a member that is not held in memory come from re-reading the archive through a
// cached window; every range must equal the member's bytes, across window edges and at the end.
func TestBytesOfALargeMember(t *testing.T) {
	data := make([]byte, 9<<20+123)
	r := rand.NewChaCha8([32]byte{7})
	r.Read(data)
	ms := append(neffbuild.Sample(), neffbuild.Member{Path: "big/blob.dat", Data: data})
	b := neffbuild.Bytes(ms, neffbuild.Options{})
	f := Open("big.neff", bytes.NewReader(b), int64(len(b)), Options{})
	if m := f.Archive.Member("big/blob.dat"); m == nil || m.Data != nil {
		t.Fatalf("the big member should not be held: %+v", m)
	}
	for _, c := range []struct{ off, n int64 }{
		{0, 4096}, {4096, 4096}, {3 << 20, 16384}, {4<<20 - 100, 300}, {8 << 20, 16384},
		{100, 50}, {int64(len(data)) - 10, 4096}, {int64(len(data)) + 5, 10},
	} {
		got, err := f.Bytes("big/blob.dat", c.off, c.n)
		lo := min(c.off, int64(len(data)))
		want := data[lo:min(lo+c.n, int64(len(data)))]
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Bytes(%d, %d): %d bytes, %v; want %d bytes", c.off, c.n, len(got), err, len(want))
		}
	}
	if _, err := f.Bytes("nope", 0, 1); err == nil {
		t.Error("a missing member gave no error")
	}
}
