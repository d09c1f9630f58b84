package neff

import (
	"bufio"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"time"

	"github.com/neffscope/neffscope/core/neff/internal/inflate"
)

// gzipReader reads exactly one gzip member (the NEFF's zero padding must not be taken for a
// second member, spec §2.1): the header, the deflate data through core/neff/internal/inflate
// (klauspost/compress/flate's inflater, forked: see its inflate.go), then the trailer's CRC-32
// and ISIZE, checked against what was inflated. It replaces gzip.Reader so the open can hand
// the inflater its checkpoint hooks: the seek index (gzindex.go) is taken from them. Both
// builds use it (docs/dependencies.md).
// The header parse follows Go's compress/gzip (BSD licence, as klauspost/compress's copy).
type gzipReader struct {
	r       *bufio.Reader
	fl      io.ReadCloser
	ModTime time.Time
	OS      byte
	XFL     byte
	digest  uint32
	size    uint32
	err     error
	// headerLen is the gzip header's length: the deflate data starts at that payload byte.
	headerLen int64
	x         *gzIndex // the seek index taken (nil: none)
	total     int64    // tar bytes handed over
}

// The errors of compress/gzip, with the same text (the findings quote them).
var (
	errGzipHeader   = errors.New("gzip: invalid header")
	errGzipChecksum = errors.New("gzip: invalid checksum")
)

const (
	gzFlagHdrCrc  = 1 << 1
	gzFlagExtra   = 1 << 2
	gzFlagName    = 1 << 3
	gzFlagComment = 1 << 4
)

// newGzipReader reads the gzip header from br; the deflate data starts where br stands when
// it returns. x, if set, takes its checkpoints from the inflate.
func newGzipReader(br *bufio.Reader, x *gzIndex) (*gzipReader, error) {
	g := &gzipReader{r: br}
	cr := &countingByteReader{r: br}
	var buf [10]byte
	if _, err := io.ReadFull(cr, buf[:10]); err != nil {
		return nil, err
	}
	if buf[0] != 0x1f || buf[1] != 0x8b || buf[2] != 8 {
		return nil, errGzipHeader
	}
	flg := buf[3]
	if t := int64(binary.LittleEndian.Uint32(buf[4:8])); t > 0 {
		g.ModTime = time.Unix(t, 0)
	}
	g.XFL, g.OS = buf[8], buf[9]
	digest := crc32.ChecksumIEEE(buf[:10])
	if flg&gzFlagExtra != 0 {
		if _, err := io.ReadFull(cr, buf[:2]); err != nil {
			return nil, noEOF(err)
		}
		digest = crc32.Update(digest, crc32.IEEETable, buf[:2])
		n := int64(binary.LittleEndian.Uint16(buf[:2]))
		cw := &crcWriter{crc: digest}
		if _, err := io.CopyN(cw, cr, n); err != nil {
			return nil, noEOF(err)
		}
		digest = cw.crc
	}
	for _, f := range []byte{gzFlagName, gzFlagComment} {
		if flg&f == 0 {
			continue
		}
		for i := 0; ; i++ { // a NUL-terminated string, at most 512 bytes as compress/gzip reads it
			if i >= 512 {
				return nil, errGzipHeader
			}
			c, err := cr.ReadByte()
			if err != nil {
				return nil, noEOF(err)
			}
			digest = crc32.Update(digest, crc32.IEEETable, []byte{c})
			if c == 0 {
				break
			}
		}
	}
	if flg&gzFlagHdrCrc != 0 {
		if _, err := io.ReadFull(cr, buf[:2]); err != nil {
			return nil, noEOF(err)
		}
		if binary.LittleEndian.Uint16(buf[:2]) != uint16(digest) {
			return nil, errGzipHeader
		}
	}
	if flg>>5 != 0 { // reserved FLG bits must be zero
		return nil, errGzipHeader
	}
	g.headerLen = cr.n
	if x != nil {
		g.x = x
		x.start = cr.n
		g.fl = inflate.NewReaderOpts(br, inflate.WithCheckpoints(x.due, x.take))
	} else {
		g.fl = inflate.NewReader(br)
	}
	return g, nil
}

// countingByteReader counts the header's bytes.
type countingByteReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingByteReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (c *countingByteReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

type crcWriter struct{ crc uint32 }

func (c *crcWriter) Write(p []byte) (int, error) {
	c.crc = crc32.Update(c.crc, crc32.IEEETable, p)
	return len(p), nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func (g *gzipReader) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.fl.Read(p)
	if g.x != nil {
		g.digest = g.x.handed(g.digest, g.total, p[:n])
	} else {
		g.digest = crc32.Update(g.digest, crc32.IEEETable, p[:n])
	}
	g.size += uint32(n)
	g.total += int64(n)
	if err != io.EOF {
		g.err = err
		return n, err
	}
	// The end of the deflate data: check the trailer.
	var t [8]byte
	if _, err := io.ReadFull(g.r, t[:]); err != nil {
		g.err = noEOF(err)
		return n, g.err
	}
	if binary.LittleEndian.Uint32(t[:4]) != g.digest || binary.LittleEndian.Uint32(t[4:]) != g.size {
		g.err = errGzipChecksum
		return n, g.err
	}
	if g.x != nil {
		g.x.end, g.x.endCRC, g.x.ended = g.total, g.digest, true
	}
	g.err = io.EOF
	return n, io.EOF
}

var _ io.Reader = (*gzipReader)(nil)
