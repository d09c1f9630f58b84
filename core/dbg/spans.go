package dbg

import "github.com/neffscope/neffscope/core/doc"

// Class is how a span of a .dbg member is explained.
type Class uint8

const (
	ClassNamed   Class = iota + 1 // a field of the shape table whose meaning is known
	ClassUnknown                  // a table field named unknown… (shape known, meaning not)
	ClassGeneric                  // a field the table does not know (generic protobuf)
	ClassNone                     // bytes after a wire-format error (hex only)
)

// SpanFunc receives one field of a .dbg member: its bytes [off, off+n), its nesting depth (0 =
// a top-level field) and how it is explained. A message field's span holds its tag and length;
// its fields follow at depth+1.
type SpanFunc func(off, n int64, depth int, c Class)

// Spans walks every field of a .dbg member, as Decode reads it, without building nodes: the
// Document shows the first fields as a tree (maxNodes) and the records table by range, and
// this walk tells what the decoder makes of all the rest (the coverage report uses it).
func Spans(member string, b []byte, fn SpanFunc) {
	kind, engine, _ := Match(member)
	f := &File{Member: member, Kind: kind, Engine: engine, Root: &doc.Node{}}
	d := &decoder{f: f, src: member, b: b, cut: -1, explained: map[*Field]bool{}, emit: fn}
	d.message(nil, shape(kindShape(kind)), 0, int64(len(b)), 0, nil)
}
