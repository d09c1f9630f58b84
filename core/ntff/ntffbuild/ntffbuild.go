// Package ntffbuild writes NTFF device profiles for tests and benchmarks: small synthetic ones
// from a Spec, and real ones rewritten (a section replaced, the header's section table moved
// to match), streamed to a writer so a 1 GB profile is never held.
package ntffbuild

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"

	"google.golang.org/protobuf/encoding/protowire"
)

// Record is one 16-byte notification record.
type Record struct {
	A, B uint32
	T    uint64
}

// Append appends r's 16 bytes.
func (r Record) Append(b []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, r.A)
	b = binary.LittleEndian.AppendUint32(b, r.B)
	return binary.LittleEndian.AppendUint64(b, r.T)
}

// Spec is a synthetic profile.
type Spec struct {
	Version  byte // 0: 6
	NEFFName string
	UUID     []byte
	Window   [2]uint64
	Cores    []Core
	Sections []Section
	// ExtraHeader is appended to the header as is (hostile fields).
	ExtraHeader []byte
}

// Core is one core of a Spec.
type Core struct {
	Name   string
	NC     uint64
	ExecPS uint64
	Images []Image
	Rings  []Ring
}

// Image is one engine's image: its words, and the edit list (preamble, postamble, removed and
// inserted positions) the header lists for it.
type Image struct {
	Engine              int
	Ring                uint64
	Words               [][]byte
	Preamble, Postamble int
	Removed, Inserted   []int
	// Off and Bytes, when set, replace what the header says (hostile layouts).
	Off, Bytes *int64
}

// Ring is one DMA ring entry.
type Ring struct {
	Queue uint64
	Name  string
}

// Section is one notification queue.
type Section struct {
	Type, Kind, NC uint64
	Records        []Record
	Off, Bytes     *int64
}

// Int64 is a pointer to v (for the overrides).
func Int64(v int64) *int64 { return &v }

// Bytes writes the profile.
func Bytes(s Spec) []byte {
	var blob []byte
	type place struct{ off, n int64 }
	var imgs [][]place
	for _, c := range s.Cores {
		var ps []place
		for _, im := range c.Images {
			off := int64(len(blob))
			for _, w := range im.Words {
				blob = append(blob, w...)
			}
			ps = append(ps, place{off, int64(len(blob)) - off})
		}
		imgs = append(imgs, ps)
	}
	var secs []place
	for _, sec := range s.Sections {
		off := int64(len(blob))
		for _, r := range sec.Records {
			blob = r.Append(blob)
		}
		secs = append(secs, place{off, int64(len(blob)) - off})
	}
	var h []byte
	h = appendBytes(h, 1, []byte(s.NEFFName))
	h = appendBytes(h, 2, s.UUID)
	var cores []byte
	for ci, c := range s.Cores {
		var m []byte
		m = appendBytes(m, 1, []byte(c.Name))
		m = appendVarint(m, 3, c.NC)
		for ii, im := range c.Images {
			p := imgs[ci][ii]
			if im.Off != nil {
				p.off = *im.Off
			}
			if im.Bytes != nil {
				p.n = *im.Bytes
			}
			var e []byte
			e = appendVarint(e, 1, uint64(im.Engine))
			e = appendVarint(e, 2, im.Ring)
			e = appendVarint(e, 7, uint64(p.off))
			e = appendVarint(e, 8, uint64(p.n))
			m = appendBytes(m, 4, e)
		}
		for _, im := range c.Images {
			var e []byte
			e = appendVarint(e, 1, uint64(im.Engine))
			e = appendBytes(e, 2, edit(0, im.Preamble, 0))
			for _, r := range im.Removed {
				e = appendBytes(e, 2, edit(r, 1, 2))
			}
			for _, r := range im.Inserted {
				e = appendBytes(e, 2, edit(r, 1, 0))
			}
			e = appendBytes(e, 2, edit(len(im.Words)-im.Postamble, im.Postamble, 0))
			m = appendBytes(m, 5, e)
		}
		for _, r := range c.Rings {
			var e []byte
			e = appendVarint(e, 2, r.Queue)
			e = appendBytes(e, 4, []byte(r.Name))
			m = appendBytes(m, 7, e)
		}
		m = appendVarint(m, 14, c.ExecPS)
		cores = appendBytes(cores, 1, m)
	}
	var prog []byte
	prog = appendBytes(prog, 4, cores)
	prog = appendBytes(prog, 5, s.UUID)
	h = appendBytes(h, 4, prog)
	var win []byte
	win = appendBytes(win, 1, s.UUID)
	win = appendVarint(win, 2, s.Window[0])
	win = appendVarint(win, 3, s.Window[1])
	h = appendBytes(h, 15, win)
	for k, sec := range s.Sections {
		p := secs[k]
		if sec.Off != nil {
			p.off = *sec.Off
		}
		if sec.Bytes != nil {
			p.n = *sec.Bytes
		}
		h = appendBytes(h, 16, section(sec.Type, sec.Kind, sec.NC, p.off, p.n))
	}
	h = append(h, s.ExtraHeader...)
	v := s.Version
	if v == 0 {
		v = 6
	}
	out := Head(v, int64(len(h)))
	out = append(out, h...)
	return append(out, blob...)
}

// Head is the first 0x80 bytes: the version, the header length, and 120 bytes standing in for
// the writer's leftover host memory.
func Head(version byte, headerLen int64) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(headerLen)<<8|uint64(version))
	for i := 8; i < 0x80; i++ {
		out = append(out, byte(0xA0+i%16))
	}
	return out
}

func edit(pos, words int, kind uint64) []byte {
	var e []byte
	e = appendVarint(e, 1, uint64(pos)*64)
	e = appendVarint(e, 2, uint64(words))
	return appendVarint(e, 3, kind)
}

func section(typ, kind, nc uint64, off, n int64) []byte {
	var e []byte
	e = appendVarint(e, 1, typ)
	e = appendVarint(e, 3, kind)
	e = appendVarint(e, 5, uint64(off))
	e = appendVarint(e, 6, uint64(n))
	return appendVarint(e, 7, nc)
}

func appendVarint(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// Nested is a header field num holding a message nested depth deep (each level field 1).
func Nested(num protowire.Number, depth int) []byte {
	// The lengths from the inside out, then the tags and lengths from the outside in: linear
	// in depth (wrapping level by level copies quadratically).
	lens := make([]int, depth+1)
	for k := 1; k <= depth; k++ {
		lens[k] = 1 + protowire.SizeVarint(uint64(lens[k-1])) + lens[k-1]
	}
	out := protowire.AppendTag(nil, num, protowire.BytesType)
	out = protowire.AppendVarint(out, uint64(lens[depth]))
	for k := depth; k >= 1; k-- {
		out = protowire.AppendTag(out, 1, protowire.BytesType)
		out = protowire.AppendVarint(out, uint64(lens[k-1]))
	}
	return out
}

// SectionRef names a section of a real profile: its index among the header's field-16
// entries, and its place in the blob.
type SectionRef struct {
	Index   int
	Type    uint64
	Kind    uint64
	NC      uint64
	Off, N  int64
	entryAt int
}

// Real is a real profile's layout, read just enough to rewrite it.
type Real struct {
	Version  byte
	Header   []byte
	Blob     int64 // where the blob starts
	Sections []SectionRef
}

// ReadReal reads the layout of a profile (its first 0x80 + L bytes).
func ReadReal(b []byte) Real {
	r := Real{Version: b[0]}
	l := int64(binary.LittleEndian.Uint64(b[0:8]) >> 8)
	r.Header, r.Blob = b[0x80:0x80+l], 0x80+l
	for off := 0; off < len(r.Header); {
		num, typ, n := protowire.ConsumeTag(r.Header[off:])
		vn := protowire.ConsumeFieldValue(num, typ, r.Header[off+n:])
		if num == 16 {
			v, _ := protowire.ConsumeBytes(r.Header[off+n:])
			s := SectionRef{Index: len(r.Sections), entryAt: off}
			for k := 0; k < len(v); {
				fn, ft, m := protowire.ConsumeTag(v[k:])
				x, xn := protowire.ConsumeVarint(v[k+m:])
				switch fn {
				case 1:
					s.Type = x
				case 3:
					s.Kind = x
				case 5:
					s.Off = int64(x)
				case 6:
					s.N = int64(x)
				case 7:
					s.NC = x
				}
				_ = ft
				k += m + xn
			}
			r.Sections = append(r.Sections, s)
		}
		off += n + vn
	}
	return r
}

// Rewrite writes a profile laid out like src whose section at index k holds n bytes that fill
// writes (its records), every section after it moved: the header's section table is written
// anew, everything else copied. It streams: fill writes to w directly.
func Rewrite(w io.Writer, src []byte, k int, n int64, fill func(io.Writer) error) error {
	r := ReadReal(src)
	shift := n - r.Sections[k].N
	var h []byte
	for off := 0; off < len(r.Header); {
		num, typ, m := protowire.ConsumeTag(r.Header[off:])
		vn := protowire.ConsumeFieldValue(num, typ, r.Header[off+m:])
		if num != 16 {
			h = append(h, r.Header[off:off+m+vn]...)
			off += m + vn
			continue
		}
		var s SectionRef
		for _, x := range r.Sections {
			if x.entryAt == off {
				s = x
			}
		}
		switch {
		case s.Index == k:
			s.N = n
		case s.Off > r.Sections[k].Off || s.Off == r.Sections[k].Off && s.Index > k:
			s.Off += shift
		}
		h = appendBytes(h, 16, section(s.Type, s.Kind, s.NC, s.Off, s.N))
		off += m + vn
	}
	hd := Head(r.Version, int64(len(h)))
	copy(hd[8:], src[8:0x80])
	if _, err := w.Write(append(hd, h...)); err != nil {
		return err
	}
	sk := r.Sections[k]
	if _, err := w.Write(src[r.Blob : r.Blob+sk.Off]); err != nil {
		return err
	}
	if err := fill(w); err != nil {
		return err
	}
	_, err := w.Write(src[r.Blob+sk.Off+sk.N:])
	return err
}

// Word is a 64-byte image word with opcode op (the rest zero but the last byte, tag).
func Word(op, tag byte) []byte {
	w := make([]byte, 64)
	w[0], w[63] = op, tag
	return w
}

// SampleUUID is Sample's NEFF UUID.
var SampleUUID = []byte{0x5a, 0x3e, 0x90, 0x1c, 0x44, 0x0b, 0x4e, 0x21, 0x9d, 0x6f, 0x12, 0xa8, 0x7c, 0x03, 0xe5, 0xb6}

// Sample is a small well-formed profile: one core (sg00 on NeuronCore 4) with a PE image of a
// 2-word preamble, 2 program words (a removed PseudoBranchLabel between them) and a 1-word
// postamble, each word traced; two semaphore records; one DMA packet of 2,048 B.
func Sample() Spec {
	const t0 = 1_000_000_000
	ring := uint64(0x8005C0410000)
	base := uint32(ring>>6) & (1<<20 - 1)
	trace := func(pos int, end bool, t uint64) Record {
		a := uint32(1)<<31 | 1<<26 | (base+uint32(pos))&(1<<20-1)
		if end {
			a |= 1 << 24
		}
		return Record{A: a, T: t}
	}
	var tr []Record
	for pos := range 5 {
		s := uint64(t0 + 10_000*pos)
		tr = append(tr, trace(pos, false, s), trace(pos, true, s+2500))
	}
	notify := []Record{
		{A: 1<<31 | 1<<26 | 3<<24 | 0xF3<<16 | 1<<8 | 5, B: 1, T: t0 + 30_000},
		{A: 1<<31 | 1<<26 | 3<<24 | 0xF3<<16 | 1<<8 | 5, B: 2, T: t0 + 40_000},
	}
	dma := []Record{
		{A: 1 << 31, B: 1<<4 | 1, T: t0 + 5_000},
		{A: 1<<31 | 2048, B: 1<<4 | 5, T: t0 + 5_100},
		{A: 1 << 31, B: 1<<4 | 6, T: t0 + 6_000},
	}
	return Spec{
		NEFFName: "/tmp/work/model.MODULE_1+fad94d7c.neff",
		UUID:     SampleUUID,
		Window:   [2]uint64{t0 - 1_000, t0 + 60_000},
		Cores: []Core{{Name: "sg00", NC: 4, ExecPS: 61_000,
			Images: []Image{{Engine: 0, Ring: ring, Preamble: 2, Postamble: 1, Removed: []int{3},
				Words: [][]byte{Word(0xA6, 0), Word(0xB1, 1), Word(0xB1, 2), Word(0xA0, 3), Word(0xA9, 4)}}},
			Rings: []Ring{{Queue: 1, Name: "qPoolDynamic"}}}},
		Sections: []Section{
			{Type: 0, NC: 4, Records: tr},
			{Type: 1, NC: 4, Records: notify},
			{Type: 4, Kind: 1, NC: 4, Records: dma},
		},
	}
}

// RepeatDMA writes src with its TRACE_DMA section of NeuronCore nc repeated times over: each
// DMA engine's run of records (a[30:24]) written times in a row, the k-th copy shifted by k ×
// shift ps (0: the section's own time span plus 1 µs, so copies follow one another), so every
// ring stays in time order and its packets whole, as in a longer capture. The rest of the
// profile is copied; the header's section table moves what follows.
func RepeatDMA(w io.Writer, src []byte, nc uint64, times int, shift uint64) error {
	r := ReadReal(src)
	k := -1
	for _, s := range r.Sections {
		if s.Type == 4 && s.NC == nc && s.N > 0 {
			k = s.Index
		}
	}
	if k < 0 {
		return io.ErrUnexpectedEOF
	}
	sec := r.Sections[k]
	recs := src[r.Blob+sec.Off : r.Blob+sec.Off+sec.N]
	if shift == 0 {
		lo, hi := ^uint64(0), uint64(0)
		for o := 0; o+16 <= len(recs); o += 16 {
			t := binary.LittleEndian.Uint64(recs[o+8:])
			lo, hi = min(lo, t), max(hi, t)
		}
		shift = hi - lo + 1_000_000
	}
	return Rewrite(w, src, k, sec.N*int64(times), func(w io.Writer) error {
		buf := make([]byte, 0, 1<<20)
		for from := 0; from < len(recs); {
			to := from
			eng := recs[from+3] & 0x7F
			for to < len(recs) && recs[to+3]&0x7F == eng {
				to += 16
			}
			for c := range times {
				for o := from; o < to; o += 16 {
					if len(buf)+16 > cap(buf) {
						if _, err := w.Write(buf); err != nil {
							return err
						}
						buf = buf[:0]
					}
					buf = append(buf, recs[o:o+8]...)
					buf = binary.LittleEndian.AppendUint64(buf, binary.LittleEndian.Uint64(recs[o+8:])+uint64(c)*shift)
				}
			}
			from = to
		}
		_, err := w.Write(buf)
		return err
	})
}

// WriteBig writes to path a profile of about size bytes made from src (a real capture) by
// RepeatDMA on NeuronCore 4's trace: the input of the 1 GB benchmarks, built where they run.
func WriteBig(path string, src []byte, size int64) error {
	r := ReadReal(src)
	var dma int64
	for _, s := range r.Sections {
		if s.Type == 4 && s.NC == 4 {
			dma = s.N
		}
	}
	if dma == 0 {
		return io.ErrUnexpectedEOF
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 4<<20)
	err = RepeatDMA(w, src, 4, int(max(1, (size-(int64(len(src))-dma))/dma)), 0)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
