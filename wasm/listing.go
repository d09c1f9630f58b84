//go:build js && wasm

package main

// What the listing and the detail pane fetch by ref: member bytes, table rows, one
// instruction, and the document as JSON.

import (
	"errors"
	"fmt"
	"math"
	"syscall/js"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// bytes → {bytes}: n bytes at off of the file ("") or a member; the table's Range cuts n to
// 16 MiB, so a hostile or buggy request cannot ask the wasm heap for gigabytes (the hex view
// asks for pages of a few KiB).
func (b *bridge) bytes(r *request) (any, error) {
	data, err := r.file.Bytes(r.str("source"), r.from, r.to-r.from)
	if err != nil && len(data) == 0 {
		return nil, protocol.Wrap(protocol.NotFound, err)
	}
	return object("bytes", buffer(data)), nil
}

// json → {json}: the Document as the CLI's `neffscope inspect --json` prints it (one-space
// indent, a final newline), byte for byte, for the page's export.
func (b *bridge) docJSON(r *request) (any, error) {
	f := r.file
	if err := b.ensureMemberHashes(f); err != nil {
		return nil, err
	}
	if err := b.ensureSource(f); err != nil {
		return nil, err
	}
	// Written as the CLI writes it: stubs' children built as the writer reaches them.
	var out jsChunks
	if _, err := f.WriteJSON(&out); err != nil {
		return nil, fmt.Errorf("encoding the document of %s as JSON: %v", f.Name, err)
	}
	return object("json", out.buffer()), nil
}

// jsChunks is a writer whose bytes go to JS as they are written, one Uint8Array a write
// (WriteJSON writes through a 1 MiB buffer), joined into one ArrayBuffer at the end: the
// export grows no Go buffer, for the wasm memory never shrinks and a doubling buffer of N
// bytes took up to 2.5N of it for the life of the worker.
type jsChunks struct {
	parts []js.Value
	n     int
}

func (c *jsChunks) Write(p []byte) (int, error) {
	c.parts = append(c.parts, toUint8Array(p))
	c.n += len(p)
	return len(p), nil
}

// buffer is the bytes written, as one ArrayBuffer; the parts are let go.
func (c *jsChunks) buffer() js.Value {
	a := js.Global().Get("Uint8Array").New(c.n)
	off := 0
	for i, p := range c.parts {
		a.Call("set", p, off)
		off += p.Get("length").Int()
		c.parts[i] = js.Undefined()
	}
	c.parts = nil
	return a.Get("buffer")
}

// rows → {table, total}: rows [from, to) of an instruction listing (ref "stream:<member>",
// from a node's Ref), and how many there are; the table's Range cuts a call to 10,000 rows
// (the listing asks for a screenful at a time).
func (b *bridge) rows(r *request) (any, error) {
	t, total, err := r.file.Rows(r.str("ref"), int(r.from), int(r.to))
	if err != nil {
		return nil, refError(r.str("ref"), err)
	}
	enc, err := t.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	return object("table", buffer(enc), "total", total), nil
}

// refError gives a failed lookup by ref its code: not-found when the ref names nothing here.
func refError(ref string, err error) error {
	if errors.Is(err, budget.ErrLimit) {
		return protocol.Wrap(protocol.Limit, err)
	}
	if k, _ := doc.ParseRef(ref); k == doc.RefNone {
		return protocol.Wrap(protocol.BadRequest, err)
	}
	return protocol.Wrap(protocol.NotFound, err)
}

// instruction → {node}: every field of instruction index.
func (b *bridge) instruction(r *request) (any, error) {
	f := r.file
	i, err := r.int("index")
	if err != nil {
		return nil, err
	}
	if i < 0 || i > math.MaxInt32 {
		return nil, protocol.Errorf(protocol.NotFound, "instruction %d: no such row", i)
	}
	n, err := f.Instruction(r.str("ref"), int(i))
	if err != nil {
		return nil, refError(r.str("ref"), err)
	}
	return encodeNode(n)
}
