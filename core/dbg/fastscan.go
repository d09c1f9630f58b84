package dbg

import (
	"unicode/utf8"
	"unsafe"
)

// The scan's fast path. Past the tree's node budget a scan builds no node, and a record of a
// valid member is read the same way every time; decoder.message reads it through a walk of
// calls per field (shape lookups, sinks, findings checks), which in the wasm cost more than
// the reading. fastRecord reads such a record in one loop, with its state in locals, and hands
// the Compact its facts with no Record between. It takes only the common form: one-byte tags
// of fields the table reads with their wire type, valid varints, lengths, UTF-8 and packed
// lists, attributes of key and value, fewer than maxAttrs of them. Anything else (a fault, a
// field the table does not know, a limit reached) it leaves to decoder.message, having changed
// nothing, so the Compact, coverage and findings are those the walk gives.

// fastField is what the fast path needs of a table field: how it is read (0: not by the fast
// path) and whether its bytes count as named.
type fastField struct {
	typ   Type
	named bool
}

// fastShape is a shape's fields by number, for the numbers a one-byte tag holds (1–15).
type fastShape [16]fastField

// fastScan is the fast path's tables for one member kind: the record shape of top-level field
// 3 and the attribute shape.
type fastScan struct {
	rec, attr fastShape
	// named says whether field 3's bytes of the top-level shape count as named.
	named bool
}

// newFastScan is the fast path for members whose top-level field 3 is a record (nil: none).
func newFastScan(top *Shape) *fastScan {
	f := top.field(3)
	if f == nil || f.Type != Message {
		return nil
	}
	return &fastScan{rec: compileShape(shape(f.Msg)), attr: compileShape(shape("attr")), named: f.Named()}
}

// compileShape tabulates s for the fast path: a message field only when it is an attribute
// (the one nested message of the record shapes), and each number as s.field finds it (the
// first row).
func compileShape(s *Shape) (out fastShape) {
	if s == nil {
		return out
	}
	for i := range s.Fields {
		f := &s.Fields[i]
		if f.Num < 1 || f.Num > 15 || s.field(f.Num) != f || f.Type == Message && f.Msg != "attr" {
			continue
		}
		out[f.Num] = fastField{typ: f.Type, named: f.Named()}
	}
	return out
}

// uvarint reads the varint at b[i:] as protowire.ConsumeVarint does (at most ten bytes, the
// tenth at most 1), and returns it with the index after it, or i < 0 when it is cut off or too
// long. The callers test the one-byte case inline (a call costs more in the wasm); the
// two-byte case is the next most common.
func uvarint(b []byte, i int) (uint64, int) {
	if i+1 < len(b) && b[i] >= 0x80 && b[i+1] < 0x80 {
		return uint64(b[i]&0x7f) | uint64(b[i+1])<<7, i + 2
	}
	var x uint64
	for k := 0; k < 10; k++ {
		if i+k >= len(b) {
			return 0, -1
		}
		y := b[i+k]
		if k == 9 && y > 1 {
			return 0, -1
		}
		x |= uint64(y&0x7f) << (7 * k)
		if y < 0x80 {
			return x, i + k + 1
		}
	}
	return 0, -1
}

// validPacked says whether c is a whole list of varints (packed's ok): its last byte ends a
// varint, and no varint is longer than nine bytes unless it is a valid ten-byte one.
func validPacked(c []byte) bool {
	if len(c) == 0 {
		return true
	}
	run := 0
	for _, x := range c {
		if x < 0x80 {
			run = 0
		} else if run++; run >= 9 {
			_, ok := packed(nil, c, 0)
			return ok
		}
	}
	return c[len(c)-1] < 0x80
}

// validText is utf8.Valid, with the ASCII the members are made of checked inline.
func validText(c []byte) bool {
	for i, x := range c {
		if x >= 0x80 {
			return utf8.Valid(c[i:])
		}
	}
	return true
}

// bytesText is c as a string pointing into c (the Compact copies what it keeps).
func bytesText(c []byte) string {
	if len(c) == 0 {
		return ""
	}
	return unsafe.String(&c[0], len(c))
}

// fastRecord reads b, the top-level field 3 at member offset off whose message starts at b[i]
// (after its tag and length), when it is a record in the common form, and hands its facts to
// the Compact; false when it is not (nothing is changed: decoder.message must read it). Only
// for a scan past the node budget.
func (d *decoder) fastRecord(fs *fastScan, c *Compact, b []byte, i int, off int64) bool {
	x := recordFacts{off: off, len: int64(len(b))}
	var named, unknown int64
	if fs.named {
		named = int64(i)
	} else {
		unknown = int64(i)
	}
	attrs := 0
	for i < len(b) {
		t := b[i]
		if t >= 0x80 {
			return false
		}
		f := fs.rec[t>>3]
		start := i
		i++
		switch {
		case t&7 == 0 && f.typ == Varint:
			var v uint64
			if i+1 < len(b) && b[i] < 0x80 {
				v = uint64(b[i])
				i++
			} else if i+1 < len(b) && b[i+1] < 0x80 {
				v = uint64(b[i]&0x7f) | uint64(b[i+1])<<7
				i += 2
			} else if v, i = uvarint(b, i); i < 0 {
				return false
			}
			if t>>3 == 1 {
				x.id = v // fields 6 and 8 (transpose code, stack frame): not kept by a Compact
			}
		case t&7 == 2 && f.typ != 0 && f.typ != Varint:
			var n uint64
			if i < len(b) && b[i] < 0x80 {
				n = uint64(b[i])
				i++
			} else if n, i = uvarint(b, i); i < 0 {
				return false
			}
			if n > uint64(len(b)-i) {
				return false
			}
			v := b[i : i+int(n)]
			i += int(n)
			switch f.typ {
			case String:
				if !validText(v) {
					return false
				}
				if t>>3 == 2 {
					x.name = bytesText(v)
				}
			case Packed:
				if !validPacked(v) {
					return false
				}
				if t>>3 == 3 {
					x.hasFirst = len(v) > 0
					x.first, _ = uvarint(v, 0)
				}
			case Message:
				if attrs++; attrs > maxAttrs {
					return false
				}
				hdr := int64(i - start - len(v))
				an, au, ok := fs.attrInto(&x.tuple, v)
				if !ok {
					return false
				}
				if f.named {
					named += hdr
				} else {
					unknown += hdr
				}
				named, unknown = named+an, unknown+au
				continue
			}
		default:
			return false
		}
		if f.named {
			named += int64(i - start)
		} else {
			unknown += int64(i - start)
		}
	}
	d.f.Coverage.Named += named
	d.f.Coverage.Unknown += unknown
	d.nrec++
	c.add(&x)
	return true
}

// attrInto reads an attribute's key and value (the last of each, as the walk keeps them) and,
// when the key is one of the kernel attributes the tuple has not had yet, sets it; with the
// bytes it counts as named and unknown. ok false: not the common form.
func (fs *fastScan) attrInto(t *Tuple, b []byte) (named, unknown int64, ok bool) {
	var key, val []byte
	for i := 0; i < len(b); {
		tag := b[i]
		if tag >= 0x80 || tag&7 != 2 {
			return 0, 0, false
		}
		f := fs.attr[tag>>3]
		if f.typ != String {
			return 0, 0, false
		}
		start := i
		i++
		var n uint64
		if i < len(b) && b[i] < 0x80 {
			n = uint64(b[i])
			i++
		} else if n, i = uvarint(b, i); i < 0 {
			return 0, 0, false
		}
		if n > uint64(len(b)-i) {
			return 0, 0, false
		}
		v := b[i : i+int(n)]
		i += int(n)
		if !validText(v) {
			return 0, 0, false
		}
		if tag>>3 == 1 {
			key = v
		} else {
			val = v
		}
		if f.named {
			named += int64(i - start)
		} else {
			unknown += int64(i - start)
		}
	}
	// "kernel_" and a suffix of four, compared in pieces the compiler expands inline (it
	// calls memequal for a constant of more than six bytes in the wasm).
	if len(key) != len("kernel_file") || string(key[:6]) != "kernel" || key[6] != '_' {
		return named, unknown, true
	}
	switch string(key[7:]) {
	case "file":
		if !t.HasFile {
			t.File, t.HasFile = bytesText(val), true
		}
	case "line":
		if !t.HasLine {
			t.Line, t.HasLine = bytesText(val), true
		}
	case "name":
		if !t.HasKernel {
			t.Kernel, t.HasKernel = bytesText(val), true
		}
	}
	return named, unknown, true
}
