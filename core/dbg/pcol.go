package dbg

import (
	"sync/atomic"
	"unsafe"

	"google.golang.org/protobuf/encoding/protowire"
)

// pcol is an append-only column of uint64 values, packed in blocks of pblock values: each
// block is the first value and the deltas after it, in the smallest of three forms (one
// constant delta; deltas in -8..7, two to a byte; zigzag varints). The debug info's columns are
// mostly runs (+1 ids, repeated attributes, small record lengths), so a value costs about a
// byte or less; any value reads back by decoding its block (the last pways blocks decoded are
// cached). Reads are safe for concurrent use once the column is built (disasm encodes runs of
// one stream on every core) and take no lock: a decoded block is never written again, and the
// ways are swapped atomically. With one block cached behind a mutex, two encoders on
// neighbouring runs of words took turns decoding and then queued on the mutex's cache line:
// half of disasm --json's time.
type pcol struct {
	chunks [][]byte // encoded blocks, in chunks of pchunk bytes
	starts []uint32 // per block: chunk<<16 | offset
	n      int      // values
	cur    []uint64 // the block being filled (not yet encoded)
	enc    []byte   // flush's encoding buffer, reused
	ways   [pways]atomic.Pointer[pdecoded]
	next   atomic.Uint32 // the way the next decode replaces
}

// pdecoded is a decoded block: block b's values.
type pdecoded struct {
	b    int
	vals []uint64
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

// flush encodes the block being filled. It encodes into c.enc, kept for the next block: the
// temporary slices it allocated per block were ~0.3 s of the 32 MB real-shaped NEFF's source
// lines in wasm.
func (c *pcol) flush() {
	vs := c.cur
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
	var mode byte // 0: zigzag varint deltas
	switch {
	case constant:
		mode = 1
	case nibble:
		mode = 2
	}
	enc := append(c.enc[:0], mode, byte(len(vs)))
	enc = protowire.AppendVarint(enc, vs[0])
	switch mode {
	case 1:
		if len(vs) > 1 {
			enc = protowire.AppendVarint(enc, protowire.EncodeZigZag(int64(vs[1]-vs[0])))
		}
	case 2:
		for i := 1; i < len(vs); i += 2 {
			b := byte(int64(vs[i]-vs[i-1]) & 15)
			if i+1 < len(vs) {
				b |= byte(int64(vs[i+1]-vs[i])&15) << 4
			}
			enc = append(enc, b)
		}
	default:
		for i := 1; i < len(vs); i++ {
			// The one-byte case inline: a call per value cost more than the value in the wasm.
			if z := protowire.EncodeZigZag(int64(vs[i] - vs[i-1])); z < 0x80 {
				enc = append(enc, byte(z))
			} else {
				enc = protowire.AppendVarint(enc, z)
			}
		}
	}
	c.enc = enc
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
	if b == len(c.starts) {
		return c.cur[i%pblock]
	}
	return c.cached(b)[i%pblock]
}

// values writes every value to out (room for n), block by block, and leaves the cache as
// reading them in order with at does (the last pways blocks decoded), which bytes counts.
func (c *pcol) values(out []uint64) {
	nb := len(c.starts)
	for b := range nb {
		c.decode(b, out[b*pblock:b*pblock])
	}
	copy(out[nb*pblock:], c.cur)
	first := max(0, nb-pways)
	c.next.Store(uint32(first))
	for b := first; b < nb; b++ {
		c.cached(b)
	}
}

// view is block b's values, not to be written: a decoded block is never written again, and
// the block being filled is read only once the column is built. For reads once per word of a
// big stream (Lookup): copying the block was a kilobyte moved per lookup.
func (c *pcol) view(b int) []uint64 {
	if b == len(c.starts) {
		return c.cur
	}
	return c.cached(b)
}

// cached is encoded block b's values (not to be written), decoded now unless a way holds them.
func (c *pcol) cached(b int) []uint64 {
	for w := range c.ways {
		if d := c.ways[w].Load(); d != nil && d.b == b {
			return d.vals
		}
	}
	vals := c.decode(b, make([]uint64, 0, pblock))
	c.ways[c.next.Add(1)%pways].Store(&pdecoded{b: b, vals: vals})
	return vals
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
	n := int64(cap(c.starts))*4 + int64(cap(c.chunks))*24 + int64(cap(c.cur))*8 + int64(unsafe.Sizeof(*c))
	for w := range c.ways {
		if d := c.ways[w].Load(); d != nil {
			n += int64(cap(d.vals))*8 + 32
		}
	}
	for _, ch := range c.chunks {
		n += int64(cap(ch))
	}
	return n
}
