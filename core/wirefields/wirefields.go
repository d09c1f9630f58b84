// Package wirefields writes and reads the protobuf wire records the core makes for itself:
// a span plan (core/neff), a compact .dbg scan (core/dbg) and a pool job (core/pool) carry
// their fields to a worker this way. Only two wire types are used, varints and bytes; a reader
// refuses any other, and never panics on bad bytes. The fields are numbered by the package that
// owns the record.
package wirefields

import (
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"
)

// Writer appends fields to B.
type Writer struct{ B []byte }

// Uint appends a varint field.
func (w *Writer) Uint(num protowire.Number, v uint64) {
	w.B = protowire.AppendTag(w.B, num, protowire.VarintType)
	w.B = protowire.AppendVarint(w.B, v)
}

// Flag appends a varint 1 when v is true, and nothing when it is false.
func (w *Writer) Flag(num protowire.Number, v bool) {
	if v {
		w.Uint(num, 1)
	}
}

// Text appends a bytes field holding s.
func (w *Writer) Text(num protowire.Number, s string) {
	w.B = protowire.AppendTag(w.B, num, protowire.BytesType)
	w.B = protowire.AppendString(w.B, s)
}

// Bytes appends a bytes field.
func (w *Writer) Bytes(num protowire.Number, v []byte) {
	w.B = protowire.AppendTag(w.B, num, protowire.BytesType)
	w.B = protowire.AppendBytes(w.B, v)
}

// Packed appends vs as one bytes field of varints (Unpack reads it).
func (w *Writer) Packed(num protowire.Number, vs []uint64) {
	var p []byte
	for _, v := range vs {
		p = protowire.AppendVarint(p, v)
	}
	w.Bytes(num, p)
}

// Reader reads the fields a Writer wrote, one at a time.
type Reader struct{ b []byte }

// NewReader reads the fields of b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// More says whether any bytes are left.
func (r *Reader) More() bool { return len(r.b) > 0 }

// Next reads one field: its number and a varint's value, or a bytes field's bytes (which
// alias the input). The error says which field, and the reader must not be used after it.
func (r *Reader) Next() (protowire.Number, uint64, []byte, error) {
	num, typ, n := protowire.ConsumeTag(r.b)
	if n < 0 {
		return 0, 0, nil, fmt.Errorf("field tag: %w", protowire.ParseError(n))
	}
	r.b = r.b[n:]
	var v uint64
	var s []byte
	switch typ {
	case protowire.VarintType:
		v, n = protowire.ConsumeVarint(r.b)
	case protowire.BytesType:
		s, n = protowire.ConsumeBytes(r.b)
	default:
		return 0, 0, nil, fmt.Errorf("field %d has wire type %d", num, typ)
	}
	if n < 0 {
		return 0, 0, nil, fmt.Errorf("field %d: %w", num, protowire.ParseError(n))
	}
	r.b = r.b[n:]
	return num, v, s, nil
}

// Each calls f with each field of b, as Next reads them, and stops at the first error.
func Each(b []byte, f func(num protowire.Number, v uint64, s []byte) error) error {
	for r := NewReader(b); r.More(); {
		num, v, s, err := r.Next()
		if err != nil {
			return err
		}
		if err := f(num, v, s); err != nil {
			return err
		}
	}
	return nil
}

// Unpack reads a packed field of varints.
func Unpack(b []byte) ([]uint64, error) {
	n := 0
	for _, c := range b {
		if c < 0x80 {
			n++
		}
	}
	out := make([]uint64, 0, n)
	for len(b) > 0 {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		out = append(out, v)
		b = b[n:]
	}
	return out, nil
}
