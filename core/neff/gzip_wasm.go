//go:build js && wasm

package neff

import (
	"bufio"
	"compress/gzip"
	"io"
	"time"
)

// The wasm build inflates with the standard library: klauspost/compress's speed comes from
// code the wasm pays for in size (~120 KB of code with its five Huffman decoders) and does
// not keep in wasm (measured in the README's "Size of the wasm").

// gzipReader reads exactly one gzip member (the NEFF's zero padding must not be taken for a
// second member: compress/gzip's default multistream mode fails on it, spec §2.1).
type gzipReader struct {
	z       *gzip.Reader
	ModTime time.Time
	OS      byte
	XFL     byte
}

func newGzipReader(br *bufio.Reader) (*gzipReader, error) {
	head, _ := br.Peek(10)
	z, err := gzip.NewReader(br)
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
