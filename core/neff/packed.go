package neff

import (
	"io"
	"sync"

	"github.com/klauspost/compress/s2"
)

// Packed holds a member's bytes in memory compressed, in blocks of packedBlock bytes each
// encoded with S2 (klauspost/compress/s2): an open keeps the engine streams its joins walk
// this way instead of whole (engine words are mostly zero bytes and repeated
// fields, so a held stream costs a fraction of its size), and a block is decoded when it is
// read. It is written once, in order, by one goroutine (Write, then Close); after Close it is
// safe for concurrent readers, and its blocks are never changed.
type Packed struct {
	blocks [][]byte // each S2-encoded, decoding to packedBlock bytes (the last to the rest)
	size   int64
	held   int64 // encoded bytes held
	cur    []byte
	enc    []byte // scratch for one block's encoding (MaxEncodedLen), copied out exact
}

// packedBlock is the uncompressed size of one block: a read decodes at most one more block
// than it asks for, and a listing screen (a few hundred 64-byte words) is one block.
const packedBlock = 64 << 10

// packedScratch reuses the buffers ReadAt decodes partial blocks into.
var packedScratch = sync.Pool{New: func() any { b := make([]byte, packedBlock); return &b }}

// Write appends p; it never fails.
func (p *Packed) Write(b []byte) (int, error) {
	n := len(b)
	for len(b) > 0 {
		if p.cur == nil { // sized to the first write, grown by append: a small stream holds bytes, not 64 KiB
			p.cur = make([]byte, 0, min(len(b), packedBlock))
		}
		k := min(len(b), packedBlock-len(p.cur))
		p.cur = append(p.cur, b[:k]...)
		b = b[k:]
		p.size += int64(k)
		if len(p.cur) == packedBlock {
			p.flush()
		}
	}
	return n, nil
}

func (p *Packed) flush() {
	if len(p.cur) == 0 {
		return
	}
	if n := s2.MaxEncodedLen(len(p.cur)); len(p.enc) < n {
		p.enc = make([]byte, n)
	}
	e := s2.Encode(p.enc, p.cur)
	blk := make([]byte, len(e))
	copy(blk, e)
	p.blocks = append(p.blocks, blk)
	p.held += int64(len(blk))
	p.cur = p.cur[:0]
}

// Close encodes the last partial block and lets the write buffers go.
func (p *Packed) Close() {
	p.flush()
	p.cur, p.enc = nil, nil
}

// Size is the bytes written (uncompressed).
func (p *Packed) Size() int64 { return p.size }

// Held is the bytes the blocks take in memory, to charge to a budget (the write buffers,
// ~130 KiB until Close, aside).
func (p *Packed) Held() int64 { return p.held + int64(cap(p.blocks))*24 }

// InMemory says a pass over the bytes reads no file (isa.Stream counts such a stream as held).
func (p *Packed) InMemory() bool { return true }

// ReadAt reads len(b) bytes at off, as io.ReaderAt does.
func (p *Packed) ReadAt(b []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := 0
	for n < len(b) && off < p.size {
		k := int(off / packedBlock)
		in := int(off % packedBlock)
		blockLen := int(min(packedBlock, p.size-int64(k)*packedBlock))
		if in == 0 && len(b)-n >= blockLen { // a whole block: decode in place
			if _, err := s2.Decode(b[n:n+blockLen], p.blocks[k]); err != nil {
				return n, err
			}
			n += blockLen
			off += int64(blockLen)
			continue
		}
		sp := packedScratch.Get().(*[]byte)
		d, err := s2.Decode(*sp, p.blocks[k])
		if err != nil {
			packedScratch.Put(sp)
			return n, err
		}
		c := copy(b[n:], d[in:])
		packedScratch.Put(sp)
		n += c
		off += int64(c)
	}
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

// Scan hands the bytes to fn in order, a block at a time (the slice is reused: valid only
// during the call); fn returning false stops it.
func (p *Packed) Scan(fn func(chunk []byte) bool) error {
	var buf []byte // as long as the longest block decodes to: a small stream's scan allocates bytes, not 64 KiB
	for _, blk := range p.blocks {
		if n, err := s2.DecodedLen(blk); err == nil && n > len(buf) {
			buf = make([]byte, n)
		}
		d, err := s2.Decode(buf, blk)
		if err != nil {
			return err
		}
		if !fn(d) {
			return nil
		}
	}
	return nil
}
