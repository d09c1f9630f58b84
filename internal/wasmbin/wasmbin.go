// Package wasmbin reads and rewrites the parts of a WebAssembly module (binary format,
// https://webassembly.github.io/spec/core/binary/modules.html) that the build scripts look at:
// the section list, the data segments, and the function names of the "name" section.
package wasmbin

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// Section ids.
const (
	Custom    = 0
	Import    = 2
	Code      = 10
	Data      = 11
	DataCount = 12
)

// Section is one section of a module: Body is its payload (after the id and size).
type Section struct {
	ID   byte
	Name string // custom sections only
	Body []byte
	// Content is Body after a custom section's name; all of Body for other sections.
	Content []byte
}

var magic = []byte{0, 'a', 's', 'm', 1, 0, 0, 0}

// Sections splits a module into its sections.
func Sections(module []byte) ([]Section, error) {
	if !bytes.HasPrefix(module, magic) {
		return nil, errors.New("not a WebAssembly module (version 1)")
	}
	var out []Section
	for r := (reader{b: module, i: len(magic)}); r.i < len(r.b); {
		id := r.byte()
		size := r.uint()
		body := r.bytes(size)
		if r.err != nil {
			return nil, fmt.Errorf("section %d: %w", id, r.err)
		}
		s := Section{ID: id, Body: body, Content: body}
		if id == Custom {
			nr := reader{b: body}
			s.Name = string(nr.bytes(nr.uint()))
			if nr.err != nil {
				return nil, fmt.Errorf("custom section: %w", nr.err)
			}
			s.Content = body[nr.i:]
		}
		out = append(out, s)
	}
	return out, nil
}

// Encode joins sections into a module.
func Encode(sections []Section) []byte {
	out := slices.Clone(magic)
	for _, s := range sections {
		out = append(out, s.ID)
		out = binary.AppendUvarint(out, uint64(len(s.Body)))
		out = append(out, s.Body...)
	}
	return out
}

// Segment is an active data segment of memory 0: Data is copied to Offset at instantiation.
type Segment struct {
	Offset uint32
	Data   []byte
}

// End is the first address after the segment.
func (s Segment) End() uint64 { return uint64(s.Offset) + uint64(len(s.Data)) }

// Segments reads a data section whose segments are all active, for memory 0, at an
// i32.const offset (what the Go linker writes); anything else is an error.
func Segments(body []byte) ([]Segment, error) {
	r := reader{b: body}
	n := r.uint()
	out := make([]Segment, 0, min(n, len(body)/4))
	for k := 0; k < n && r.err == nil; k++ {
		if flags := r.uint(); flags != 0 {
			return nil, fmt.Errorf("data segment %d: kind %d (only active segments of memory 0 are supported)", k, flags)
		}
		if op := r.byte(); op != 0x41 { // i32.const
			return nil, fmt.Errorf("data segment %d: offset expression starts with 0x%02x, not i32.const", k, op)
		}
		offset := r.int()
		if end := r.byte(); end != 0x0b {
			return nil, fmt.Errorf("data segment %d: offset expression is not a lone i32.const", k)
		}
		data := r.bytes(r.uint())
		if r.err == nil && (offset < 0 || offset > 1<<32-1) {
			return nil, fmt.Errorf("data segment %d: offset %d", k, offset)
		}
		out = append(out, Segment{Offset: uint32(offset), Data: data})
	}
	if r.err == nil && r.i != len(body) {
		r.err = fmt.Errorf("%d bytes after the last segment", len(body)-r.i)
	}
	if r.err != nil {
		return nil, fmt.Errorf("data section: %w", r.err)
	}
	return out, nil
}

// EncodeSegments writes a data section.
func EncodeSegments(segs []Segment) []byte {
	out := binary.AppendUvarint(nil, uint64(len(segs)))
	for _, s := range segs {
		out = append(out, 0, 0x41)
		out = appendSleb(out, int64(s.Offset))
		out = append(out, 0x0b)
		out = binary.AppendUvarint(out, uint64(len(s.Data)))
		out = append(out, s.Data...)
	}
	return out
}

// Memory is the image the segments write, from the lowest address any of them touches
// (base) to the highest; bytes no segment writes are zero, as in a fresh memory. Where
// segments overlap, the later one wins, as at instantiation.
func Memory(segs []Segment) (base uint32, image []byte) {
	if len(segs) == 0 {
		return 0, nil
	}
	lo, hi := uint64(segs[0].Offset), segs[0].End()
	for _, s := range segs {
		lo, hi = min(lo, uint64(s.Offset)), max(hi, s.End())
	}
	image = make([]byte, hi-lo)
	for _, s := range segs {
		copy(image[uint64(s.Offset)-lo:], s.Data)
	}
	return uint32(lo), image
}

// FunctionNames reads the function names of a "name" custom section's content (subsection
// 1), by function index.
func FunctionNames(body []byte) (map[int]string, error) {
	r := reader{b: body}
	names := map[int]string{}
	for r.i < len(r.b) && r.err == nil {
		id := r.byte()
		sub := reader{b: r.bytes(r.uint())}
		if id != 1 {
			continue
		}
		for n := sub.uint(); n > 0 && sub.err == nil; n-- {
			idx := sub.uint()
			names[idx] = string(sub.bytes(sub.uint()))
		}
		if sub.err != nil {
			return nil, fmt.Errorf("name section: %w", sub.err)
		}
	}
	if r.err != nil {
		return nil, fmt.Errorf("name section: %w", r.err)
	}
	return names, nil
}

// ImportedFunctions counts the function imports, which come before the module's own
// functions in the function index space.
func ImportedFunctions(body []byte) (int, error) {
	r := reader{b: body}
	funcs := 0
	for n := r.uint(); n > 0 && r.err == nil; n-- {
		r.bytes(r.uint()) // module
		r.bytes(r.uint()) // name
		switch kind := r.byte(); kind {
		case 0: // func: type index
			r.uint()
			funcs++
		case 1: // table: reftype, limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: valtype, mutability
			r.byte()
			r.byte()
		default:
			return 0, fmt.Errorf("import section: import kind %d", kind)
		}
	}
	if r.err != nil {
		return 0, fmt.Errorf("import section: %w", r.err)
	}
	return funcs, nil
}

// FunctionBodies returns the size of each body of a code section, in order.
func FunctionBodies(body []byte) ([]int, error) {
	r := reader{b: body}
	var sizes []int
	for n := r.uint(); n > 0 && r.err == nil; n-- {
		size := r.uint()
		r.bytes(size)
		sizes = append(sizes, size)
	}
	if r.err != nil {
		return nil, fmt.Errorf("code section: %w", r.err)
	}
	return sizes, nil
}

// reader reads LEB128 numbers and byte strings; the first error sticks.
type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%s at byte %d", what, r.i)
	}
}

func (r *reader) byte() byte {
	if r.err != nil || r.i >= len(r.b) {
		r.fail("unexpected end")
		return 0
	}
	r.i++
	return r.b[r.i-1]
}

func (r *reader) uint() int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 || v > 1<<32-1 {
		r.fail("bad unsigned LEB128")
		return 0
	}
	r.i += n
	return int(v)
}

func (r *reader) int() int64 {
	var v int64
	var shift uint
	for {
		c := r.byte()
		if r.err != nil || shift > 63 {
			r.fail("bad signed LEB128")
			return 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n > len(r.b)-r.i {
		r.fail(fmt.Sprintf("%d bytes run past the end", n))
		return nil
	}
	r.i += n
	return r.b[r.i-n : r.i]
}

func (r *reader) limits() {
	if flags := r.byte(); flags&1 != 0 {
		r.uint()
		r.uint()
	} else {
		r.uint()
	}
}

func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v == 0 && c&0x40 == 0 || v == -1 && c&0x40 != 0 {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
