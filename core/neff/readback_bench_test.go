package neff_test

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/internal/bigneff"
)

// The read-back of a stream the open does not hold, deep in a generated real-shaped NEFF
// (testdata/gen, made on first use): go test -run X -bench ReadBack ./core/neff/

// lastBigStream opens the generated file of sizeMiB MiB and names its last engine stream of
// more than 8 MiB (one the page's open does not hold).
func lastBigStream(b *testing.B, sizeMiB int) (*os.File, int64, *neff.Archive, *neff.Member) {
	path, err := bigneff.Cached("", sizeMiB, false)
	if err != nil {
		b.Skip(err)
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	st, _ := f.Stat()
	a := neff.Open(f, st.Size(), neff.Options{})
	var last *neff.Member
	for _, m := range a.Members {
		if strings.HasSuffix(m.Path, ".bin") && m.Size > 8<<20 && (last == nil || m.DataOffset > last.DataOffset) {
			last = m
		}
	}
	if last == nil {
		b.Skip("no stream over 8 MiB")
	}
	b.Logf("%s: %s, %d bytes at tar byte %d of %d", path, last.Path, last.Size, last.DataOffset, a.Payload.TarLength)
	return f, st.Size(), a, last
}

func benchFullWalk(b *testing.B, sizeMiB int) {
	f, size, _, m := lastBigStream(b, sizeMiB)
	defer f.Close()
	b.ResetTimer()
	for b.Loop() {
		if err := neff.ReadMemberLimit(f, size, m.Path, 0, 1<<20, io.Discard, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadBackFullWalk32(b *testing.B)  { benchFullWalk(b, 32) }
func BenchmarkReadBackFullWalk256(b *testing.B) { benchFullWalk(b, 256) }

func benchIndexed(b *testing.B, sizeMiB int) {
	f, _, a, m := lastBigStream(b, sizeMiB)
	defer f.Close()
	n, held := a.Checkpoints()
	b.Logf("seek index: %d checkpoints, %d bytes", n, held)
	b.ResetTimer()
	for b.Loop() {
		if err := a.ReadMember(f, m.Path, 0, 1<<20, io.Discard, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadBackIndexed32/256: the first 1 MiB of the last big stream read back through the
// open's seek index (a listing's first screen); ReadBackFullWalk is the walk from the start.
func BenchmarkReadBackIndexed32(b *testing.B)  { benchIndexed(b, 32) }
func BenchmarkReadBackIndexed256(b *testing.B) { benchIndexed(b, 256) }
