package dbg

import (
	"sync"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
)

// pcol is an append-only column of uint64 values, packed in blocks of pblock values: each
// block is the first value and the deltas after it, in the smallest of three forms (one
// constant delta; deltas in -8..7, two to a byte; zigzag varints). The debug info's columns are
// mostly runs (+1 ids, repeated attributes, small record lengths), so a value costs about a
// byte or less; any value reads back by decoding its block (the last pways blocks decoded are
// cached). Reads are safe for concurrent use (disasm encodes runs of one stream on every core):
// the cache is behind mu, and has a way per reader so that readers of different blocks do not
// take turns decoding (with one block cached, two goroutines on neighbouring runs of words
// decoded a block at nearly every read: a third of disasm --json's time).
type pcol struct {
	mu     sync.Mutex
	chunks [][]byte // encoded blocks, in chunks of pchunk bytes
	starts []uint32 // per block: chunk<<16 | offset
	n      int      // values
	cur    []uint64 // the block being filled (not yet encoded)
	cache  []uint64 // pways decoded blocks, pblock values each (allocated on the first read)
	tags   [pways]int
	next   int // the way the next decode replaces
}

const (
	pblock = 128
	pchunk = 1 << 16
	pways  = 4 // cached blocks: disasm's encoders (jobsInFlight) and a lookup's own block
)

func (c *pcol) add(v uint64) {
	c.cur = append(c.cur, v) // grows to one block, then is reused
	c.n++
	if len(c.cur) == pblock {
		c.flush()
	}
}

// flush encodes the block being filled.
func (c *pcol) flush() {
	vs := c.cur
	var enc []byte
	first := protowire.AppendVarint(nil, vs[0])
	constant, nibble := true, true
	for i := 1; i < len(vs); i++ {
		d := int64(vs[i] - vs[i-1])
		if i > 1 && d != int64(vs[1]-vs[0]) {
			constant = false
		}
		if d < -8 || d > 7 {
			nibble = false
		}
	}
	head := func(mode byte) []byte { return append([]byte{mode, byte(len(vs))}, first...) }
	switch {
	case constant:
		enc = head(1)
		if len(vs) > 1 {
			enc = protowire.AppendVarint(enc, protowire.EncodeZigZag(int64(vs[1]-vs[0])))
		}
	case nibble:
		enc = head(2)
		for i := 1; i < len(vs); i += 2 {
			b := byte(int64(vs[i]-vs[i-1]) & 15)
			if i+1 < len(vs) {
				b |= byte(int64(vs[i+1]-vs[i])&15) << 4
			}
			enc = append(enc, b)
		}
	default:
		enc = head(0)
		for i := 1; i < len(vs); i++ {
			enc = protowire.AppendVarint(enc, protowire.EncodeZigZag(int64(vs[i]-vs[i-1])))
		}
	}
	k := len(c.chunks) - 1
	if k < 0 || len(c.chunks[k])+len(enc) > pchunk {
		c.chunks = append(c.chunks, make([]byte, 0, min(pchunk, max(256, 4*len(enc)*(len(c.starts)+1)))))
		k++
	}
	if len(c.chunks[k])+len(enc) > cap(c.chunks[k]) {
		grown := make([]byte, len(c.chunks[k]), min(pchunk, max(2*cap(c.chunks[k]), len(c.chunks[k])+len(enc))))
		copy(grown, c.chunks[k])
		c.chunks[k] = grown
	}
	c.starts = append(c.starts, uint32(k)<<16|uint32(len(c.chunks[k])))
	c.chunks[k] = append(c.chunks[k], enc...)
	c.cur = c.cur[:0]
}

// at returns value i.
func (c *pcol) at(i int) uint64 {
	b := i / pblock
	c.mu.Lock()
	defer c.mu.Unlock()
	if b == len(c.starts) {
		return c.cur[i%pblock]
	}
	return c.cached(b)[i%pblock]
}

// block copies the values of block b into buf and returns them.
func (c *pcol) block(b int, buf *[pblock]uint64) []uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	src := c.cur
	if b != len(c.starts) {
		src = c.cached(b)
	}
	return buf[:copy(buf[:], src)]
}

// cached is encoded block b's values, decoded now unless a way holds them (c.mu held).
func (c *pcol) cached(b int) []uint64 {
	if c.cache == nil {
		c.cache = make([]uint64, pways*pblock)
	}
	for w, t := range c.tags {
		if t == b+1 {
			return c.cache[w*pblock : w*pblock+c.blockLen(b)]
		}
	}
	w := c.next
	c.next = (c.next + 1) % pways
	c.tags[w] = b + 1
	return c.decode(b, c.cache[w*pblock:w*pblock:w*pblock+pblock])
}

// blockLen is how many values encoded block b holds.
func (c *pcol) blockLen(b int) int {
	s := c.starts[b]
	return int(c.chunks[s>>16][s&0xffff+1])
}

// decode appends block b's values to out (room for pblock) and returns them.
func (c *pcol) decode(b int, out []uint64) []uint64 {
	s := c.starts[b]
	enc := c.chunks[s>>16][s&0xffff:]
	mode, n := enc[0], int(enc[1])
	v, k := protowire.ConsumeVarint(enc[2:])
	enc = enc[2+k:]
	out = append(out, v)
	switch mode {
	case 1:
		var d uint64
		if n > 1 {
			z, _ := protowire.ConsumeVarint(enc)
			d = uint64(protowire.DecodeZigZag(z))
		}
		for len(out) < n {
			v += d
			out = append(out, v)
		}
	case 2:
		for i := 0; len(out) < n; i++ {
			d := int64(enc[i/2]>>(4*(i%2))) & 15
			if d > 7 {
				d -= 16
			}
			v += uint64(d)
			out = append(out, v)
		}
	default:
		for len(out) < n {
			z, k := protowire.ConsumeVarint(enc)
			v += uint64(protowire.DecodeZigZag(z))
			out = append(out, v)
			enc = enc[k:]
		}
	}
	return out
}

// bytes is what the column holds.
func (c *pcol) bytes() int64 {
	n := int64(cap(c.starts))*4 + int64(cap(c.chunks))*24 + int64(cap(c.cur)+cap(c.cache))*8 + int64(unsafe.Sizeof(*c))
	for _, ch := range c.chunks {
		n += int64(cap(ch))
	}
	return n
}
