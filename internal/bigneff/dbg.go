package bigneff

import (
	"bufio"
	"os"

	"google.golang.org/protobuf/encoding/protowire"
)

// field is one protobuf field of a template message: its value bytes (without the tag).
type field struct {
	num protowire.Number
	typ protowire.Type
	val []byte // varint: the encoded varint; bytes: the payload
}

// dbgT is a .dbg member split into the fields before its first record (field 3), its records,
// and the fields after (core/dbg's shapes: asm and backend members both list records as field 3).
type dbgT struct {
	header, trailer []byte
	records         [][]field
	// shift lists the record fields whose ids move with the copy (asm: 3; backend: 1, 4, 5).
	shift map[protowire.Number]bool
	// addID: the record's own id (field 1) is written for copies past the first even when
	// the template leaves it out (absent = 0).
	addID bool
	maxID uint64
}

type asmT = dbgT
type bkT = dbgT

func parseAsm(b []byte) (*dbgT, error) {
	return parseDbg(b, map[protowire.Number]bool{3: true}, false)
}

func parseBackend(b []byte) (*dbgT, error) {
	return parseDbg(b, map[protowire.Number]bool{1: true, 4: true, 5: true}, true)
}

func parseDbg(b []byte, shift map[protowire.Number]bool, own bool) (*dbgT, error) {
	d := &dbgT{shift: shift, addID: own}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, protowire.ParseError(m)
		}
		raw := b[:n+m]
		if num == 3 && typ == protowire.BytesType {
			v, _ := protowire.ConsumeBytes(b[n:])
			rec, err := parseRecord(v)
			if err != nil {
				return nil, err
			}
			if own {
				for _, f := range rec {
					if f.num == 1 && f.typ == protowire.VarintType {
						id, _ := protowire.ConsumeVarint(f.val)
						d.maxID = max(d.maxID, id)
					}
				}
			}
			d.records = append(d.records, rec)
		} else if len(d.records) == 0 {
			d.header = append(d.header, raw...)
		} else {
			d.trailer = append(d.trailer, raw...)
		}
		b = b[n+m:]
	}
	return d, nil
}

func parseRecord(b []byte) ([]field, error) {
	var out []field
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return nil, protowire.ParseError(m)
		}
		val := b[n : n+m]
		if typ == protowire.BytesType {
			val, _ = protowire.ConsumeBytes(val)
		}
		out = append(out, field{num, typ, val})
		b = b[n+m:]
	}
	return out, nil
}

// encode appends copy k of n: ids of the shifted fields plus k*stride.
func (d *dbgT) encode(dst []byte, k, n int, stride uint64) []byte {
	if k == 0 {
		dst = append(dst, d.header...)
	}
	off := uint64(k) * stride
	var rec, packed []byte
	for _, r := range d.records {
		rec = rec[:0]
		if d.addID && off > 0 && !hasField(r, 1) {
			rec = protowire.AppendTag(rec, 1, protowire.VarintType)
			rec = protowire.AppendVarint(rec, off)
		}
		for _, f := range r {
			rec = protowire.AppendTag(rec, f.num, f.typ)
			switch {
			case !d.shift[f.num] || off == 0:
				if f.typ == protowire.BytesType {
					rec = protowire.AppendBytes(rec, f.val)
				} else {
					rec = append(rec, f.val...)
				}
			case f.typ == protowire.VarintType:
				v, _ := protowire.ConsumeVarint(f.val)
				rec = protowire.AppendVarint(rec, v+off)
			default: // packed ids
				packed = packed[:0]
				for b := f.val; len(b) > 0; {
					v, m := protowire.ConsumeVarint(b)
					if m < 0 {
						break
					}
					packed = protowire.AppendVarint(packed, v+off)
					b = b[m:]
				}
				rec = protowire.AppendBytes(rec, packed)
			}
		}
		dst = protowire.AppendTag(dst, 3, protowire.BytesType)
		dst = protowire.AppendBytes(dst, rec)
	}
	if k == n-1 {
		dst = append(dst, d.trailer...)
	}
	return dst
}

func hasField(r []field, num protowire.Number) bool {
	for _, f := range r {
		if f.num == num {
			return true
		}
	}
	return false
}

// seekBuf buffers writes and flushes before a seek (neffbuild rewrites the header at the end).
type seekBuf struct {
	f *os.File
	w *bufio.Writer
}

func newBufWriter(f *os.File) *bufio.Writer { return bufio.NewWriterSize(f, 1<<20) }

func (s *seekBuf) Write(p []byte) (int, error) { return s.w.Write(p) }
func (s *seekBuf) Seek(off int64, whence int) (int64, error) {
	if err := s.w.Flush(); err != nil {
		return 0, err
	}
	return s.f.Seek(off, whence)
}
