package digest

import (
	"encoding/binary"
	"math/bits"
)

// MD5 is a running MD5 (RFC 1321 §3); the zero value is not ready, use newMD5. NEFFs of
// older compilers carry an MD5 of the payload, which is why it is here at all.
type MD5 struct {
	md
	s [4]uint32
}

// newMD5 starts an MD5.
func newMD5() *MD5 {
	d := &MD5{}
	d.md.block = d.blocks
	d.Reset()
	return d
}

// Reset starts over.
func (d *MD5) Reset() {
	d.s = [4]uint32{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476}
	d.nbuf, d.length = 0, 0
}

// Size is 16 bytes.
func (d *MD5) Size() int { return 16 }

// Sum appends the digest of what was written so far to b.
func (d *MD5) Sum(b []byte) []byte {
	saved := *d
	d.pad()
	for _, v := range d.s {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	*d = saved
	return b
}

// blocks hashes whole 64-byte blocks (§3.4), fully unrolled as crypto/md5's generic code is:
// the constants T[i] = floor(2^32 · |sin(i+1)|), the rotations and the message word of each
// step are literals.
func (d *MD5) blocks(p []byte) {
	a0, b0, c0, d0 := d.s[0], d.s[1], d.s[2], d.s[3]
	for ; len(p) >= blockSize; p = p[blockSize:] {
		q := p[:blockSize]
		x0, x1, x2, x3 := binary.LittleEndian.Uint32(q[0:]), binary.LittleEndian.Uint32(q[4:]), binary.LittleEndian.Uint32(q[8:]), binary.LittleEndian.Uint32(q[12:])
		x4, x5, x6, x7 := binary.LittleEndian.Uint32(q[16:]), binary.LittleEndian.Uint32(q[20:]), binary.LittleEndian.Uint32(q[24:]), binary.LittleEndian.Uint32(q[28:])
		x8, x9, x10, x11 := binary.LittleEndian.Uint32(q[32:]), binary.LittleEndian.Uint32(q[36:]), binary.LittleEndian.Uint32(q[40:]), binary.LittleEndian.Uint32(q[44:])
		x12, x13, x14, x15 := binary.LittleEndian.Uint32(q[48:]), binary.LittleEndian.Uint32(q[52:]), binary.LittleEndian.Uint32(q[56:]), binary.LittleEndian.Uint32(q[60:])
		a, b, c, dd := a0, b0, c0, d0
		// round 1, F: b&c | ^b&d
		a = b + bits.RotateLeft32(a+(dd^b&(c^dd))+x0+0xd76aa478, 7)
		dd = a + bits.RotateLeft32(dd+(c^a&(b^c))+x1+0xe8c7b756, 12)
		c = dd + bits.RotateLeft32(c+(b^dd&(a^b))+x2+0x242070db, 17)
		b = c + bits.RotateLeft32(b+(a^c&(dd^a))+x3+0xc1bdceee, 22)
		a = b + bits.RotateLeft32(a+(dd^b&(c^dd))+x4+0xf57c0faf, 7)
		dd = a + bits.RotateLeft32(dd+(c^a&(b^c))+x5+0x4787c62a, 12)
		c = dd + bits.RotateLeft32(c+(b^dd&(a^b))+x6+0xa8304613, 17)
		b = c + bits.RotateLeft32(b+(a^c&(dd^a))+x7+0xfd469501, 22)
		a = b + bits.RotateLeft32(a+(dd^b&(c^dd))+x8+0x698098d8, 7)
		dd = a + bits.RotateLeft32(dd+(c^a&(b^c))+x9+0x8b44f7af, 12)
		c = dd + bits.RotateLeft32(c+(b^dd&(a^b))+x10+0xffff5bb1, 17)
		b = c + bits.RotateLeft32(b+(a^c&(dd^a))+x11+0x895cd7be, 22)
		a = b + bits.RotateLeft32(a+(dd^b&(c^dd))+x12+0x6b901122, 7)
		dd = a + bits.RotateLeft32(dd+(c^a&(b^c))+x13+0xfd987193, 12)
		c = dd + bits.RotateLeft32(c+(b^dd&(a^b))+x14+0xa679438e, 17)
		b = c + bits.RotateLeft32(b+(a^c&(dd^a))+x15+0x49b40821, 22)
		// round 2, G: b&d | c&^d
		a = b + bits.RotateLeft32(a+(c^dd&(b^c))+x1+0xf61e2562, 5)
		dd = a + bits.RotateLeft32(dd+(b^c&(a^b))+x6+0xc040b340, 9)
		c = dd + bits.RotateLeft32(c+(a^b&(dd^a))+x11+0x265e5a51, 14)
		b = c + bits.RotateLeft32(b+(dd^a&(c^dd))+x0+0xe9b6c7aa, 20)
		a = b + bits.RotateLeft32(a+(c^dd&(b^c))+x5+0xd62f105d, 5)
		dd = a + bits.RotateLeft32(dd+(b^c&(a^b))+x10+0x02441453, 9)
		c = dd + bits.RotateLeft32(c+(a^b&(dd^a))+x15+0xd8a1e681, 14)
		b = c + bits.RotateLeft32(b+(dd^a&(c^dd))+x4+0xe7d3fbc8, 20)
		a = b + bits.RotateLeft32(a+(c^dd&(b^c))+x9+0x21e1cde6, 5)
		dd = a + bits.RotateLeft32(dd+(b^c&(a^b))+x14+0xc33707d6, 9)
		c = dd + bits.RotateLeft32(c+(a^b&(dd^a))+x3+0xf4d50d87, 14)
		b = c + bits.RotateLeft32(b+(dd^a&(c^dd))+x8+0x455a14ed, 20)
		a = b + bits.RotateLeft32(a+(c^dd&(b^c))+x13+0xa9e3e905, 5)
		dd = a + bits.RotateLeft32(dd+(b^c&(a^b))+x2+0xfcefa3f8, 9)
		c = dd + bits.RotateLeft32(c+(a^b&(dd^a))+x7+0x676f02d9, 14)
		b = c + bits.RotateLeft32(b+(dd^a&(c^dd))+x12+0x8d2a4c8a, 20)
		// round 3, H: b^c^d
		a = b + bits.RotateLeft32(a+(b^c^dd)+x5+0xfffa3942, 4)
		dd = a + bits.RotateLeft32(dd+(a^b^c)+x8+0x8771f681, 11)
		c = dd + bits.RotateLeft32(c+(dd^a^b)+x11+0x6d9d6122, 16)
		b = c + bits.RotateLeft32(b+(c^dd^a)+x14+0xfde5380c, 23)
		a = b + bits.RotateLeft32(a+(b^c^dd)+x1+0xa4beea44, 4)
		dd = a + bits.RotateLeft32(dd+(a^b^c)+x4+0x4bdecfa9, 11)
		c = dd + bits.RotateLeft32(c+(dd^a^b)+x7+0xf6bb4b60, 16)
		b = c + bits.RotateLeft32(b+(c^dd^a)+x10+0xbebfbc70, 23)
		a = b + bits.RotateLeft32(a+(b^c^dd)+x13+0x289b7ec6, 4)
		dd = a + bits.RotateLeft32(dd+(a^b^c)+x0+0xeaa127fa, 11)
		c = dd + bits.RotateLeft32(c+(dd^a^b)+x3+0xd4ef3085, 16)
		b = c + bits.RotateLeft32(b+(c^dd^a)+x6+0x04881d05, 23)
		a = b + bits.RotateLeft32(a+(b^c^dd)+x9+0xd9d4d039, 4)
		dd = a + bits.RotateLeft32(dd+(a^b^c)+x12+0xe6db99e5, 11)
		c = dd + bits.RotateLeft32(c+(dd^a^b)+x15+0x1fa27cf8, 16)
		b = c + bits.RotateLeft32(b+(c^dd^a)+x2+0xc4ac5665, 23)
		// round 4, I: c ^ (b|^d)
		a = b + bits.RotateLeft32(a+(c^(b|^dd))+x0+0xf4292244, 6)
		dd = a + bits.RotateLeft32(dd+(b^(a|^c))+x7+0x432aff97, 10)
		c = dd + bits.RotateLeft32(c+(a^(dd|^b))+x14+0xab9423a7, 15)
		b = c + bits.RotateLeft32(b+(dd^(c|^a))+x5+0xfc93a039, 21)
		a = b + bits.RotateLeft32(a+(c^(b|^dd))+x12+0x655b59c3, 6)
		dd = a + bits.RotateLeft32(dd+(b^(a|^c))+x3+0x8f0ccc92, 10)
		c = dd + bits.RotateLeft32(c+(a^(dd|^b))+x10+0xffeff47d, 15)
		b = c + bits.RotateLeft32(b+(dd^(c|^a))+x1+0x85845dd1, 21)
		a = b + bits.RotateLeft32(a+(c^(b|^dd))+x8+0x6fa87e4f, 6)
		dd = a + bits.RotateLeft32(dd+(b^(a|^c))+x15+0xfe2ce6e0, 10)
		c = dd + bits.RotateLeft32(c+(a^(dd|^b))+x6+0xa3014314, 15)
		b = c + bits.RotateLeft32(b+(dd^(c|^a))+x13+0x4e0811a1, 21)
		a = b + bits.RotateLeft32(a+(c^(b|^dd))+x4+0xf7537e82, 6)
		dd = a + bits.RotateLeft32(dd+(b^(a|^c))+x11+0xbd3af235, 10)
		c = dd + bits.RotateLeft32(c+(a^(dd|^b))+x2+0x2ad7d2bb, 15)
		b = c + bits.RotateLeft32(b+(dd^(c|^a))+x9+0xeb86d391, 21)
		a0, b0, c0, d0 = a0+a, b0+b, c0+c, d0+dd
	}
	d.s = [4]uint32{a0, b0, c0, d0}
}
