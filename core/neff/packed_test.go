package neff

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
)

// packedInput is engine-like bytes: 64-byte words, mostly zero, a few fields varying (so the
// blocks compress), with a stretch of random bytes (so one block does not).
func packedInput(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := 0; i+64 <= n; i += 64 {
		b[i], b[i+1] = byte(r.IntN(8)), 0x10
		b[i+8] = byte(i >> 6)
	}
	for i := n / 3; i < n/3+packedBlock+100 && i < n; i++ {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestPackedReadsBack writes bytes in uneven chunks and reads every kind of range back: whole
// blocks in place, ranges across block edges, the partial last block, past the end; and one
// pass with Scan. What it holds is less than what it was given.
func TestPackedReadsBack(t *testing.T) {
	for _, n := range []int{0, 1, 64, packedBlock - 1, packedBlock, packedBlock + 1, 5*packedBlock + 4321} {
		in := packedInput(n)
		var p Packed
		for off, k := 0, 1; off < n; k = k*3 + 1 {
			end := min(n, off+k)
			p.Write(in[off:end])
			off = end
		}
		p.Close()
		if p.Size() != int64(n) {
			t.Fatalf("n=%d: Size %d", n, p.Size())
		}
		ranges := [][2]int{{0, n}, {0, min(n, packedBlock)}, {n / 2, n}, {max(0, packedBlock-7), min(n, packedBlock+9)}, {max(0, n-3), n}}
		for _, r := range ranges {
			r[0] = min(r[0], r[1])
			got := make([]byte, r[1]-r[0])
			k, err := p.ReadAt(got, int64(r[0]))
			if err != nil || k != len(got) || !bytes.Equal(got, in[r[0]:r[1]]) {
				t.Fatalf("n=%d range %v: %d bytes, err %v, equal %v", n, r, k, err, bytes.Equal(got, in[r[0]:r[1]]))
			}
		}
		over := make([]byte, 10)
		if k, err := p.ReadAt(over, int64(max(0, n-4))); k != min(n, 4) || !errors.Is(err, io.EOF) {
			t.Fatalf("n=%d: a read past the end gave %d bytes, err %v; want %d and EOF", n, k, err, min(n, 4))
		}
		var all []byte
		if err := p.Scan(func(c []byte) bool { all = append(all, c...); return true }); err != nil || !bytes.Equal(all, in) {
			t.Fatalf("n=%d: Scan gave %d bytes (err %v)", n, len(all), err)
		}
		if n >= 5*packedBlock && p.Held() > int64(n)/2 {
			t.Fatalf("n=%d: holds %d bytes for %d of words", n, p.Held(), n)
		}
	}
}

// TestPackedConcurrentReads reads a packed member from several goroutines at once (the CLI's
// encoders and the page's listing do): each gets its own bytes.
func TestPackedConcurrentReads(t *testing.T) {
	in := packedInput(9 * packedBlock)
	var p Packed
	p.Write(in)
	p.Close()
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 1000+g*37)
			for off := g * 11; off+len(buf) <= len(in); off += 4099 {
				if _, err := p.ReadAt(buf, int64(off)); err != nil || !bytes.Equal(buf, in[off:off+len(buf)]) {
					errs <- "goroutine read wrong bytes"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
