package neff_test

import (
	"os"
	"testing"

	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/internal/bigneff"
)

// BenchmarkOpenGen32: the open's walk of the 32 MB generated NEFF (250 MB of tar): inflate,
// tar walk, payload MD5 on its own goroutine; no member SHA-256.
func BenchmarkOpenGen32(b *testing.B) {
	path, err := bigneff.Cached("", 32, false)
	if err != nil {
		b.Skip(err)
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	b.SetBytes(st.Size())
	for b.Loop() {
		a := neff.Open(f, st.Size(), neff.Options{NoMemberHashes: true})
		if !a.Complete {
			b.Fatal("incomplete")
		}
	}
}
