package digest

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"hash"
	"math/rand/v2"
	"testing"
)

// TestNewPicksByPlatform: NewSHA256 and NewMD5 give the right sums on this platform,
// whichever implementation they pick.
func TestNewPicksByPlatform(t *testing.T) {
	for _, c := range []struct {
		h, std hash.Hash
	}{{NewSHA256(), sha256.New()}, {NewMD5(), md5.New()}} {
		c.h.Write([]byte("neffscope"))
		c.std.Write([]byte("neffscope"))
		if got, want := c.h.Sum(nil), c.std.Sum(nil); !bytes.Equal(got, want) {
			t.Errorf("%T: %x, want %x", c.h, got, want)
		}
	}
}

var algorithms = []struct {
	name      string
	mine, std func() hash.Hash
}{
	{"sha256", func() hash.Hash { return newSHA256() }, sha256.New},
	{"md5", func() hash.Hash { return newMD5() }, md5.New},
}

// TestKnownAnswers: the FIPS 180-4 and RFC 1321 examples.
func TestKnownAnswers(t *testing.T) {
	for _, c := range []struct {
		h    hash.Hash
		in   string
		want string
	}{
		{newSHA256(), "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{newSHA256(), "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{newSHA256(), "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{newMD5(), "", "d41d8cd98f00b204e9800998ecf8427e"},
		{newMD5(), "abc", "900150983cd24fb0d6963f7d28e17f72"},
		{newMD5(), "12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"},
	} {
		c.h.Write([]byte(c.in))
		if got := hexOf(c.h.Sum(nil)); got != c.want {
			t.Errorf("%T(%q) = %s, want %s", c.h, c.in, got, c.want)
		}
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// TestMatchesStandardLibrary: every length across the padding boundaries, written in random
// pieces, with Sum in the middle (which must not disturb the running hash) and Reset.
func TestMatchesStandardLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(rng.UintN(256))
	}
	for _, alg := range algorithms {
		mine, std := alg.mine(), alg.std()
		if mine.Size() != std.Size() || mine.BlockSize() != std.BlockSize() {
			t.Fatalf("%s: size %d/%d, block %d/%d", alg.name, mine.Size(), std.Size(), mine.BlockSize(), std.BlockSize())
		}
		for n := range 600 {
			if n > 300 {
				n = rng.IntN(len(data))
			}
			mine.Reset()
			std.Reset()
			for p := data[:n]; len(p) > 0; {
				k := min(len(p), 1+rng.IntN(150))
				mine.Write(p[:k])
				std.Write(p[:k])
				p = p[k:]
				if rng.IntN(4) == 0 && !bytes.Equal(mine.Sum(nil), std.Sum(nil)) {
					t.Fatalf("%s: a Sum part way through %d bytes differs", alg.name, n)
				}
			}
			if got, want := mine.Sum([]byte("x")), std.Sum([]byte("x")); !bytes.Equal(got, want) {
				t.Fatalf("%s of %d bytes: %x, want %x", alg.name, n, got, want)
			}
		}
	}
}

func FuzzMatchesStandardLibrary(f *testing.F) {
	f.Add([]byte("abc"), uint8(1))
	f.Add(bytes.Repeat([]byte{0x80}, 200), uint8(63))
	f.Fuzz(func(t *testing.T, data []byte, piece uint8) {
		for _, alg := range algorithms {
			mine, std := alg.mine(), alg.std()
			step := int(piece) + 1
			for p := data; len(p) > 0; p = p[min(step, len(p)):] {
				mine.Write(p[:min(step, len(p))])
			}
			std.Write(data)
			if got, want := mine.Sum(nil), std.Sum(nil); !bytes.Equal(got, want) {
				t.Fatalf("%s: %x, want %x", alg.name, got, want)
			}
		}
	})
}

// BenchmarkHash compares throughput with the standard library; what matters is the figure
// under GOOS=js GOARCH=wasm, where neither has assembly and this package's code is used.
func BenchmarkHash(b *testing.B) {
	data := make([]byte, 1<<20)
	for _, alg := range algorithms {
		for _, impl := range []struct {
			name string
			new  func() hash.Hash
		}{{"digest", alg.mine}, {"std", alg.std}} {
			b.Run(alg.name+"/"+impl.name, func(b *testing.B) {
				h := impl.new()
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					h.Reset()
					h.Write(data)
					h.Sum(nil)
				}
			})
		}
	}
}
