package doc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The wire format (worker → page, and the IndexedDB cache) is msgpack: every struct is a map
// keyed by its `msg` tags in field order, `omitempty` fields left out when empty, exactly the
// bytes tinylib/msgp's generated code wrote (wire_test.go holds these functions to that
// generated code, byte for byte). It is written by hand because the msgp runtime package
// links encoding/json and its reflection-based converters into every program that imports
// it, which was a fifth of the WebAssembly build.

// MarshalMsg appends the msgpack encoding of d to b.
func (d *Document) MarshalMsg(b []byte) ([]byte, error) {
	b = grow(b, 1+6*8+4*5+2*9+len(d.File)+len(d.Kind)+len(d.SHA256)+d.Root.msgSize())
	if d.SHA256 == "" {
		b = append(b, 0x85)
	} else {
		b = append(b, 0x86)
	}
	b = appendInt(append(b, "\xa5model"...), int64(d.Model))
	b = appendStr(append(b, "\xa4file"...), d.File)
	b = appendInt(append(b, "\xa4size"...), d.Size)
	b = appendStr(append(b, "\xa4kind"...), d.Kind)
	if d.SHA256 != "" {
		b = appendStr(append(b, "\xa6sha256"...), d.SHA256)
	}
	return d.Root.appendMsg(append(b, "\xa4root"...)), nil
}

// MarshalMsg appends the msgpack encoding of n (nil: msgpack nil) to b.
func (n *Node) MarshalMsg(b []byte) ([]byte, error) {
	return n.appendMsg(grow(b, n.msgSize())), nil
}

func (n *Node) appendMsg(b []byte) []byte {
	if n == nil {
		return append(b, 0xc0)
	}
	fields := 11
	for _, omitted := range [...]bool{n.Key == "", n.Value == "", n.Detail == "", n.Span == nil,
		n.Children == nil, n.Table == nil, n.Series == nil, n.Findings == nil, n.Ref == ""} {
		if omitted {
			fields--
		}
	}
	b = append(b, 0x80|byte(fields))
	b = appendStr(append(b, "\xa4kind"...), n.Kind)
	if n.Key != "" {
		b = appendStr(append(b, "\xa3key"...), n.Key)
	}
	b = appendStr(append(b, "\xa5label"...), n.Label)
	if n.Value != "" {
		b = appendStr(append(b, "\xa5value"...), n.Value)
	}
	if n.Detail != "" {
		b = appendStr(append(b, "\xa6detail"...), n.Detail)
	}
	if n.Span != nil {
		b = n.Span.appendMsg(append(b, "\xa4span"...))
	}
	if n.Children != nil {
		b = appendArray(append(b, "\xa4kids"...), len(n.Children))
		for _, c := range n.Children {
			b = c.appendMsg(b)
		}
	}
	if n.Table != nil {
		b = n.Table.appendMsg(append(b, "\xa5table"...))
	}
	if n.Series != nil {
		b = appendArray(append(b, "\xa6series"...), len(n.Series))
		for i := range n.Series {
			b = n.Series[i].appendMsg(b)
		}
	}
	if n.Findings != nil {
		b = appendArray(append(b, "\xa5finds"...), len(n.Findings))
		for i := range n.Findings {
			b = n.Findings[i].appendMsg(b)
		}
	}
	if n.Ref != "" {
		b = appendStr(append(b, "\xa3ref"...), n.Ref)
	}
	return b
}

// MarshalMsg appends the msgpack encoding of t (nil: msgpack nil) to b.
func (t *Table) MarshalMsg(b []byte) ([]byte, error) {
	return t.appendMsg(grow(b, t.msgSize())), nil
}

func (t *Table) appendMsg(b []byte) []byte {
	if t == nil {
		return append(b, 0xc0)
	}
	b = appendArray(append(b, "\x83\xa4cols"...), len(t.Columns))
	for _, c := range t.Columns {
		b = appendStr(b, c)
	}
	b = appendArray(append(b, "\xa4rows"...), len(t.Rows))
	for _, row := range t.Rows {
		b = appendArray(b, len(row))
		for _, c := range row {
			b = appendStr(b, c)
		}
	}
	b = appendArray(append(b, "\xa6rspans"...), len(t.RowSpans))
	for i := range t.RowSpans {
		b = t.RowSpans[i].appendMsg(b)
	}
	return b
}

func (s *Span) appendMsg(b []byte) []byte {
	if s == nil {
		return append(b, 0xc0)
	}
	b = appendStr(append(b, "\x83\xa3src"...), s.Source)
	b = appendInt(append(b, "\xa3off"...), s.Offset)
	return appendInt(append(b, "\xa3len"...), s.Length)
}

func (f *Finding) appendMsg(b []byte) []byte {
	b = appendStr(append(b, "\x83\xa3sev"...), f.Severity)
	b = appendStr(append(b, "\xa3msg"...), f.Message)
	return f.Span.appendMsg(append(b, "\xa4span"...))
}

func (s *Series) appendMsg(b []byte) []byte {
	b = appendStr(append(b, "\x83\xa4name"...), s.Name)
	b = appendFloats(append(b, "\xa1x"...), s.X)
	return appendFloats(append(b, "\xa1y"...), s.Y)
}

// grow makes room for n more bytes, so an encoding is one allocation, not a doubling series.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	g := make([]byte, len(b), len(b)+n)
	copy(g, b)
	return g
}

// The msgSize methods bound the encoded size from above: at most 5 bytes of header per str
// and array, 9 bytes per number, 8 per key.

func (s *Span) msgSize() int {
	if s == nil {
		return 1
	}
	return 1 + 3*8 + 5 + len(s.Source) + 2*9
}

func strsSize(ss []string) int {
	n := 5
	for _, s := range ss {
		n += 5 + len(s)
	}
	return n
}

func (n *Node) msgSize() int {
	if n == nil {
		return 1
	}
	size := 1 + 11*8 + 6*5 + len(n.Kind) + len(n.Key) + len(n.Label) + len(n.Value) + len(n.Detail) + len(n.Ref)
	size += n.Span.msgSize() + n.Table.msgSize() + 3*5
	for _, c := range n.Children {
		size += c.msgSize()
	}
	for _, s := range n.Series {
		size += 1 + 3*8 + 5 + len(s.Name) + 2*5 + 9*(len(s.X)+len(s.Y))
	}
	for _, f := range n.Findings {
		size += 1 + 3*8 + 2*5 + len(f.Severity) + len(f.Message) + f.Span.msgSize()
	}
	return size
}

func (t *Table) msgSize() int {
	if t == nil {
		return 1
	}
	size := 1 + 3*8 + strsSize(t.Columns) + 2*5
	for _, row := range t.Rows {
		size += strsSize(row)
	}
	for i := range t.RowSpans {
		size += t.RowSpans[i].msgSize()
	}
	return size
}

func appendFloats(b []byte, fs []float64) []byte {
	b = appendArray(b, len(fs))
	for _, f := range fs {
		b = binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(f))
	}
	return b
}

// appendStr writes a msgpack str in its shortest form.
func appendStr(b []byte, s string) []byte {
	switch n := len(s); {
	case n < 32:
		b = append(b, 0xa0|byte(n))
	case n <= math.MaxUint8:
		b = append(b, 0xd9, byte(n))
	case n <= math.MaxUint16:
		b = binary.BigEndian.AppendUint16(append(b, 0xda), uint16(n))
	default:
		b = binary.BigEndian.AppendUint32(append(b, 0xdb), uint32(n))
	}
	return append(b, s...)
}

// appendArray writes a msgpack array header in its shortest form.
func appendArray(b []byte, n int) []byte {
	switch {
	case n < 16:
		return append(b, 0x90|byte(n))
	case n <= math.MaxUint16:
		return binary.BigEndian.AppendUint16(append(b, 0xdc), uint16(n))
	}
	return binary.BigEndian.AppendUint32(append(b, 0xdd), uint32(n))
}

// appendInt writes a msgpack int in its shortest signed form (positive fixint, negative
// fixint, int8/16/32/64), as msgp.AppendInt64 does.
func appendInt(b []byte, i int64) []byte {
	switch {
	case i >= 0 && i <= math.MaxInt8, i < 0 && i >= -32:
		return append(b, byte(i))
	case i >= math.MinInt8 && i < 0:
		return append(b, 0xd0, byte(i))
	case i >= math.MinInt16 && i <= math.MaxInt16:
		return binary.BigEndian.AppendUint16(append(b, 0xd1), uint16(i))
	case i >= math.MinInt32 && i <= math.MaxInt32:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(i))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(i))
}

// The decoders read what the encoders write and what msgp's generated decoders read: any
// width of map, array, str and int; float32 for float64; bin map keys; unknown keys skipped;
// msgpack nil for a nil pointer. Like msgp's they decode into the receiver as it is, reusing
// its slices and pointers, so decode into a zero value. Unlike msgp's they refuse a length
// that the remaining bytes cannot hold and nesting deeper than maxDepth, so hostile bytes
// cannot make them allocate without bound or overflow the stack.

// maxDepth bounds nested nodes and skipped values.
const maxDepth = 10000

var (
	errShort    = errors.New("msgpack: too few bytes")
	errTooDeep  = errors.New("msgpack: nesting too deep")
	errTooLong  = errors.New("msgpack: a length exceeds the bytes that follow")
	errOverflow = errors.New("msgpack: uint64 does not fit in int64")
)

func typeError(want string, lead byte) error {
	return fmt.Errorf("msgpack: want %s, found type byte 0x%02x", want, lead)
}

// decodeError says where in the document decoding failed: "root.kids.3.span: msgpack: ...".
type decodeError struct {
	path []string // innermost first
	err  error
}

func (e *decodeError) Error() string {
	var b strings.Builder
	for i := len(e.path) - 1; i >= 0; i-- {
		b.WriteString(e.path[i])
		if i > 0 {
			b.WriteByte('.')
		}
	}
	return b.String() + ": " + e.err.Error()
}

func (e *decodeError) Unwrap() error { return e.err }

// wireError adds the field (a key or an index) that holds the failure to its path.
func wireError(err error, field string) error {
	if e, ok := err.(*decodeError); ok {
		e.path = append(e.path, field)
		return e
	}
	return &decodeError{path: []string{field}, err: err}
}

// UnmarshalMsg decodes a msgpack Document from the front of b and returns the rest.
func (d *Document) UnmarshalMsg(b []byte) ([]byte, error) {
	n, b, err := readMapHeader(b)
	for ; err == nil && n > 0; n-- {
		var key string
		if key, b, err = readKey(b); err != nil {
			break
		}
		switch key {
		case "model":
			var v int64
			v, b, err = readInt(b)
			d.Model = int(v)
		case "file":
			d.File, b, err = readStr(b)
		case "size":
			d.Size, b, err = readInt(b)
		case "kind":
			d.Kind, b, err = readStr(b)
		case "sha256":
			d.SHA256, b, err = readStr(b)
		case "root":
			if isNil(b) {
				d.Root, b = nil, b[1:]
			} else {
				if d.Root == nil {
					d.Root = new(Node)
				}
				b, err = d.Root.unmarshal(b, 1)
			}
		default:
			b, err = skip(b, 1)
		}
		if err != nil {
			err = wireError(err, key)
		}
	}
	return b, err
}

// UnmarshalMsg decodes a msgpack Node from the front of b and returns the rest.
func (n *Node) UnmarshalMsg(b []byte) ([]byte, error) { return n.unmarshal(b, 0) }

func (n *Node) unmarshal(b []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return b, errTooDeep
	}
	fields, b, err := readMapHeader(b)
	for ; err == nil && fields > 0; fields-- {
		var key string
		if key, b, err = readKey(b); err != nil {
			break
		}
		switch key {
		case "kind":
			n.Kind, b, err = readStr(b)
		case "key":
			n.Key, b, err = readStr(b)
		case "label":
			n.Label, b, err = readStr(b)
		case "value":
			n.Value, b, err = readStr(b)
		case "detail":
			n.Detail, b, err = readStr(b)
		case "span":
			n.Span, b, err = readSpanPtr(b, n.Span)
		case "kids":
			var count int
			if count, b, err = readArrayHeader(b); err != nil {
				break
			}
			n.Children = resize(n.Children, count)
			for i := range n.Children {
				if isNil(b) {
					n.Children[i], b = nil, b[1:]
					continue
				}
				if n.Children[i] == nil {
					n.Children[i] = new(Node)
				}
				if b, err = n.Children[i].unmarshal(b, depth+1); err != nil {
					err = wireError(err, strconv.Itoa(i))
					break
				}
			}
		case "table":
			if isNil(b) {
				n.Table, b = nil, b[1:]
				break
			}
			if n.Table == nil {
				n.Table = new(Table)
			}
			b, err = n.Table.UnmarshalMsg(b)
		case "series":
			var count int
			if count, b, err = readArrayHeader(b); err != nil {
				break
			}
			n.Series = resize(n.Series, count)
			for i := range n.Series {
				if b, err = n.Series[i].unmarshal(b); err != nil {
					err = wireError(err, strconv.Itoa(i))
					break
				}
			}
		case "finds":
			var count int
			if count, b, err = readArrayHeader(b); err != nil {
				break
			}
			n.Findings = resize(n.Findings, count)
			for i := range n.Findings {
				if b, err = n.Findings[i].unmarshal(b); err != nil {
					err = wireError(err, strconv.Itoa(i))
					break
				}
			}
		case "ref":
			n.Ref, b, err = readStr(b)
		default:
			b, err = skip(b, depth+1)
		}
		if err != nil {
			err = wireError(err, key)
		}
	}
	return b, err
}

// UnmarshalMsg decodes a msgpack Table from the front of b and returns the rest.
func (t *Table) UnmarshalMsg(b []byte) ([]byte, error) {
	fields, b, err := readMapHeader(b)
	for ; err == nil && fields > 0; fields-- {
		var key string
		if key, b, err = readKey(b); err != nil {
			break
		}
		switch key {
		case "cols":
			t.Columns, b, err = readStrs(b, t.Columns)
		case "rows":
			var count int
			if count, b, err = readArrayHeader(b); err != nil {
				break
			}
			t.Rows = resize(t.Rows, count)
			for i := range t.Rows {
				if t.Rows[i], b, err = readStrs(b, t.Rows[i]); err != nil {
					err = wireError(err, strconv.Itoa(i))
					break
				}
			}
		case "rspans":
			var count int
			if count, b, err = readArrayHeader(b); err != nil {
				break
			}
			t.RowSpans = resize(t.RowSpans, count)
			for i := range t.RowSpans {
				if b, err = t.RowSpans[i].unmarshal(b); err != nil {
					err = wireError(err, strconv.Itoa(i))
					break
				}
			}
		default:
			b, err = skip(b, 1)
		}
		if err != nil {
			err = wireError(err, key)
		}
	}
	return b, err
}

func (s *Span) unmarshal(b []byte) ([]byte, error) {
	fields, b, err := readMapHeader(b)
	for ; err == nil && fields > 0; fields-- {
		var key string
		if key, b, err = readKey(b); err != nil {
			break
		}
		switch key {
		case "src":
			s.Source, b, err = readStr(b)
		case "off":
			s.Offset, b, err = readInt(b)
		case "len":
			s.Length, b, err = readInt(b)
		default:
			b, err = skip(b, 1)
		}
		if err != nil {
			err = wireError(err, key)
		}
	}
	return b, err
}

// readSpanPtr decodes a *Span field: nil, or a span decoded into the existing one.
func readSpanPtr(b []byte, s *Span) (*Span, []byte, error) {
	if isNil(b) {
		return nil, b[1:], nil
	}
	if s == nil {
		s = new(Span)
	}
	b, err := s.unmarshal(b)
	return s, b, err
}

func (f *Finding) unmarshal(b []byte) ([]byte, error) {
	fields, b, err := readMapHeader(b)
	for ; err == nil && fields > 0; fields-- {
		var key string
		if key, b, err = readKey(b); err != nil {
			break
		}
		switch key {
		case "sev":
			f.Severity, b, err = readStr(b)
		case "msg":
			f.Message, b, err = readStr(b)
		case "span":
			f.Span, b, err = readSpanPtr(b, f.Span)
		default:
			b, err = skip(b, 1)
		}
		if err != nil {
			err = wireError(err, key)
		}
	}
	return b, err
}

func (s *Series) unmarshal(b []byte) ([]byte, error) {
	fields, b, err := readMapHeader(b)
	for ; err == nil && fields > 0; fields-- {
		var key string
		if key, b, err = readKey(b); err != nil {
			break
		}
		switch key {
		case "name":
			s.Name, b, err = readStr(b)
		case "x":
			s.X, b, err = readFloats(b, s.X)
		case "y":
			s.Y, b, err = readFloats(b, s.Y)
		default:
			b, err = skip(b, 1)
		}
		if err != nil {
			err = wireError(err, key)
		}
	}
	return b, err
}

// resize returns s with length n, reusing its array when it is big enough (as msgp does:
// a zero-length array decodes to a nil slice when s is nil).
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

func readStrs(b []byte, into []string) ([]string, []byte, error) {
	n, b, err := readArrayHeader(b)
	if err != nil {
		return into, b, err
	}
	into = resize(into, n)
	for i := range into {
		if into[i], b, err = readStr(b); err != nil {
			return into, b, err
		}
	}
	return into, b, nil
}

func readFloats(b []byte, into []float64) ([]float64, []byte, error) {
	n, b, err := readArrayHeader(b)
	if err != nil {
		return into, b, err
	}
	into = resize(into, n)
	for i := range into {
		if len(b) == 0 {
			return into, b, errShort
		}
		switch {
		case b[0] == 0xcb && len(b) >= 9:
			into[i], b = math.Float64frombits(binary.BigEndian.Uint64(b[1:])), b[9:]
		case b[0] == 0xca && len(b) >= 5:
			into[i], b = float64(math.Float32frombits(binary.BigEndian.Uint32(b[1:]))), b[5:]
		case b[0] == 0xcb || b[0] == 0xca:
			return into, b, errShort
		default:
			return into, b, typeError("float", b[0])
		}
	}
	return into, b, nil
}

func isNil(b []byte) bool { return len(b) > 0 && b[0] == 0xc0 }

// readLength reads a big-endian length of size bytes after the type byte.
func readLength(b []byte, size int) (int, []byte, error) {
	if len(b) < 1+size {
		return 0, b, errShort
	}
	var n uint64
	for _, c := range b[1 : 1+size] {
		n = n<<8 | uint64(c)
	}
	return int(n), b[1+size:], nil
}

// readCount reads a map or array header whose short form is fix|count (fix = 0x80 for maps,
// 0x90 for arrays) and whose long forms have type bytes long16 and long16+1. Every element
// takes at least one byte, so a count beyond the remaining bytes is refused up front.
func readCount(b []byte, fix, long16 byte, what string) (int, []byte, error) {
	if len(b) == 0 {
		return 0, b, errShort
	}
	var n int
	var err error
	switch lead := b[0]; {
	case lead&0xf0 == fix:
		n, b = int(lead&0x0f), b[1:]
	case lead == long16:
		n, b, err = readLength(b, 2)
	case lead == long16+1:
		n, b, err = readLength(b, 4)
	default:
		return 0, b, typeError(what, lead)
	}
	if err == nil && n > len(b) {
		err = errTooLong
	}
	return n, b, err
}

func readArrayHeader(b []byte) (int, []byte, error) { return readCount(b, 0x90, 0xdc, "array") }

func readMapHeader(b []byte) (int, []byte, error) {
	n, rest, err := readCount(b, 0x80, 0xde, "map")
	if err == nil && 2*n > len(rest) {
		err = errTooLong
	}
	return n, rest, err
}

// readStrBytes reads a str (or, when bin is true, also a bin) without copying.
func readStrBytes(b []byte, bin bool) ([]byte, []byte, error) {
	if len(b) == 0 {
		return nil, b, errShort
	}
	var n int
	var err error
	switch lead := b[0]; {
	case lead&0xe0 == 0xa0:
		n, b = int(lead&0x1f), b[1:]
	case lead == 0xd9, bin && lead == 0xc4:
		n, b, err = readLength(b, 1)
	case lead == 0xda, bin && lead == 0xc5:
		n, b, err = readLength(b, 2)
	case lead == 0xdb, bin && lead == 0xc6:
		n, b, err = readLength(b, 4)
	default:
		return nil, b, typeError("str", lead)
	}
	if err == nil && n > len(b) {
		err = errShort
	}
	if err != nil {
		return nil, b, err
	}
	return b[:n], b[n:], nil
}

func readStr(b []byte) (string, []byte, error) {
	s, rest, err := readStrBytes(b, false)
	return string(s), rest, err
}

// readKey reads a map key: a str, or a bin as msgp allows.
func readKey(b []byte) (string, []byte, error) {
	s, rest, err := readStrBytes(b, true)
	return string(s), rest, err
}

// readInt reads any msgpack int or uint that fits in an int64.
func readInt(b []byte) (int64, []byte, error) {
	if len(b) == 0 {
		return 0, b, errShort
	}
	lead := b[0]
	switch {
	case lead <= 0x7f:
		return int64(lead), b[1:], nil
	case lead >= 0xe0:
		return int64(int8(lead)), b[1:], nil
	case lead >= 0xcc && lead <= 0xd3:
		size := 1 << ((lead - 0xcc) & 3) // 0xcc..0xcf uint8..64, 0xd0..0xd3 int8..64
		v, rest, err := readLength(b, size)
		if err != nil {
			return 0, b, err
		}
		u := uint64(v)
		if lead >= 0xd0 { // sign-extend
			shift := 64 - 8*size
			return int64(u<<shift) >> shift, rest, nil
		}
		if lead == 0xcf && u > math.MaxInt64 {
			return 0, b, errOverflow
		}
		return int64(u), rest, nil
	}
	return 0, b, typeError("int", lead)
}

// skip steps over one msgpack value of any type.
func skip(b []byte, depth int) ([]byte, error) {
	if depth > maxDepth {
		return b, errTooDeep
	}
	if len(b) == 0 {
		return b, errShort
	}
	var rest []byte
	var items int // nested values that follow
	var err error
	switch lead := b[0]; {
	case lead <= 0x7f, lead >= 0xe0, lead == 0xc0, lead == 0xc2, lead == 0xc3: // fixints, nil, bools
		rest = b[1:]
	case lead&0xf0 == 0x80, lead == 0xde, lead == 0xdf:
		items, rest, err = readMapHeader(b)
		items *= 2
	case lead&0xf0 == 0x90, lead == 0xdc, lead == 0xdd:
		items, rest, err = readArrayHeader(b)
	case lead&0xe0 == 0xa0, lead >= 0xd9 && lead <= 0xdb, lead >= 0xc4 && lead <= 0xc6: // str, bin
		_, rest, err = readStrBytes(b, true)
	case lead == 0xca, lead == 0xcb: // float32, float64
		rest, err = drop(b, 1+4*int(lead-0xc9))
	case lead >= 0xcc && lead <= 0xd3: // uint8..64, int8..64
		rest, err = drop(b, 1+1<<((lead-0xcc)&3))
	case lead >= 0xd4 && lead <= 0xd8: // fixext 1..16: type byte, ext type, data
		rest, err = drop(b, 2+1<<(lead-0xd4))
	case lead >= 0xc7 && lead <= 0xc9: // ext 8, 16, 32: length, ext type, data
		var n int
		if n, rest, err = readLength(b, 1<<(lead-0xc7)); err == nil {
			rest, err = drop(rest, 1+n)
		}
	default: // 0xc1 is never used
		return b, typeError("a msgpack value", lead)
	}
	for ; err == nil && items > 0; items-- {
		rest, err = skip(rest, depth+1)
	}
	return rest, err
}

// drop steps over n bytes.
func drop(b []byte, n int) ([]byte, error) {
	if len(b) < n {
		return b, errShort
	}
	return b[n:], nil
}
