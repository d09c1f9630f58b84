package neff

import (
	"bufio"
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"os"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The open's inflater against the ones it replaced, on the payload of the 32 MB generated
// NEFF (testdata/gen; skipped when it is not there): go test -run X -bench Inflate ./core/neff/
func genPayload(b *testing.B) []byte {
	root, err := realfiles.RepoRoot()
	if err != nil {
		b.Skip(err)
	}
	data, err := os.ReadFile(root + "/testdata/gen/real-v1-32mib.neff")
	if err != nil {
		b.Skip(err)
	}
	return data[HeaderSize:]
}

func benchInflate(b *testing.B, open func(br *bufio.Reader) io.Reader) {
	p := genPayload(b)
	b.SetBytes(int64(len(p)))
	buf := make([]byte, streamBufBytes)
	for b.Loop() {
		r := open(bufio.NewReaderSize(bytes.NewReader(p), 256<<10))
		for {
			if _, err := r.Read(buf); err != nil {
				if err != io.EOF {
					b.Fatal(err)
				}
				break
			}
		}
	}
}

func BenchmarkInflateIndexed(b *testing.B) {
	benchInflate(b, func(br *bufio.Reader) io.Reader {
		g, err := newGzipReader(br, newGzIndex(nil))
		if err != nil {
			b.Fatal(err)
		}
		return g
	})
}

func BenchmarkInflateFork(b *testing.B) {
	benchInflate(b, func(br *bufio.Reader) io.Reader {
		g, err := newGzipReader(br, nil)
		if err != nil {
			b.Fatal(err)
		}
		return g
	})
}

func BenchmarkInflateKlauspost(b *testing.B) {
	benchInflate(b, func(br *bufio.Reader) io.Reader {
		z, err := kgzip.NewReader(br)
		if err != nil {
			b.Fatal(err)
		}
		z.Multistream(false)
		return z
	})
}

func BenchmarkInflateStdlib(b *testing.B) {
	benchInflate(b, func(br *bufio.Reader) io.Reader {
		z, err := stdgzip.NewReader(br)
		if err != nil {
			b.Fatal(err)
		}
		z.Multistream(false)
		return z
	})
}
