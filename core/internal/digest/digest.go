// Package digest gives the NEFF integrity checks and the file fingerprints their SHA-256 and
// MD5: crypto/sha256 and crypto/md5 natively (they have assembly), and in the WebAssembly
// build this package's own FIPS 180-4 and RFC 1321 code, which gives the same sums (the tests
// compare them on every length and on fuzzed input) at the same speed, since the standard
// library has no wasm assembly either.
//
// Why not the standard library in wasm too: importing crypto/sha256 or crypto/md5 links the
// FIPS 140 module's self-tests, AES, HMAC, SHA-3, SHA-512 and a DRBG into the program through
// package initialisers, about 90 KB of wasm code that the page never runs.
package digest

import (
	"encoding/binary"
	"hash"
)

// blockSize is the input block of both algorithms.
const blockSize = 64

// md is the Merkle–Damgård framing both algorithms share: whole 64-byte blocks go to block,
// and the final block carries a 0x80 byte and the message length in bits (big-endian for
// SHA-256, little-endian for MD5).
type md struct {
	buf       [blockSize]byte
	nbuf      int
	length    uint64 // bytes written
	block     func(p []byte)
	bigEndian bool
}

func (d *md) Write(p []byte) (int, error) {
	n := len(p)
	d.length += uint64(n)
	if d.nbuf > 0 {
		c := copy(d.buf[d.nbuf:], p)
		d.nbuf += c
		p = p[c:]
		if d.nbuf < blockSize {
			return n, nil
		}
		d.block(d.buf[:])
		d.nbuf = 0
	}
	if whole := len(p) &^ (blockSize - 1); whole > 0 {
		d.block(p[:whole])
		p = p[whole:]
	}
	d.nbuf = copy(d.buf[:], p)
	return n, nil
}

// pad writes the final padding; the caller reads the state, then restores it so that Sum
// does not change the running hash (hash.Hash allows writing after Sum).
func (d *md) pad() {
	var tail [blockSize + 8]byte
	tail[0] = 0x80
	n := blockSize - 8 - int(d.length%blockSize)
	if n <= 0 {
		n += blockSize
	}
	bits := d.length << 3
	if d.bigEndian {
		binary.BigEndian.PutUint64(tail[n:], bits)
	} else {
		binary.LittleEndian.PutUint64(tail[n:], bits)
	}
	length := d.length
	d.Write(tail[:n+8])
	d.length = length
}

func (d *md) BlockSize() int { return blockSize }

var _ hash.Hash = (*SHA256)(nil)
var _ hash.Hash = (*MD5)(nil)
