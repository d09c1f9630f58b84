package neff

import (
	"bufio"
	"io"
	"time"
)

// gzipReader reads exactly one gzip member (the NEFF's zero padding must not be taken for a
// second member: compress/gzip's default multistream mode fails on it, spec §2.1). The
// inflater behind it (gzipImpl) is chosen per build: gzip_native.go, gzip_wasm.go.
type gzipReader struct {
	z       *gzipImpl
	ModTime time.Time
	OS      byte
	XFL     byte
}

func newGzipReader(br *bufio.Reader) (*gzipReader, error) {
	head, _ := br.Peek(10)
	z, err := newGzipImpl(br)
	if err != nil {
		return nil, err
	}
	z.Multistream(false)
	g := &gzipReader{z: z, ModTime: z.ModTime, OS: z.OS}
	if len(head) >= 9 {
		g.XFL = head[8]
	}
	return g, nil
}

func (g *gzipReader) Read(p []byte) (int, error) { return g.z.Read(p) }

var _ io.Reader = (*gzipReader)(nil)
