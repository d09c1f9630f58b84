package neffbuild

import (
	"bytes"
	"io"
	"testing"
)

// TestRepeatReads: repeat gives its pattern over and over, n bytes, whatever the reads' sizes.
func TestRepeatReads(t *testing.T) {
	for _, pat := range [][]byte{{0}, []byte("0,"), bytes.Repeat([]byte("abc"), 21)} {
		for _, n := range []int64{0, 1, 2, 63, 64, 65, 1000, 100003} {
			var want []byte
			for i := int64(0); i < n; i++ {
				want = append(want, pat[i%int64(len(pat))])
			}
			for _, bs := range []int{1, 3, 7, 64, 4096} {
				r := &repeat{pattern: pat, n: n}
				var got []byte
				buf := make([]byte, bs)
				for {
					k, err := r.Read(buf)
					got = append(got, buf[:k]...)
					if err == io.EOF {
						break
					}
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("pat %q n %d bs %d", pat, n, bs)
				}
			}
		}
	}
}
