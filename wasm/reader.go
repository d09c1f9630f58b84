//go:build js && wasm

package main

// Reading the File through JS: the file argument (a Blob, Uint8Array or ArrayBuffer) as an
// io.ReaderAt with read-ahead.

import (
	"fmt"
	"io"
	"syscall/js"

	"github.com/neffscope/neffscope/wasm/protocol"
)

// fileArg reads the file argument name of r (protocol.File): see fileValue.
func fileArg(r *request, name string) (*jsReaderAt, string, error) {
	return fileValue(r.args.Get(name), r.method.Name+": argument "+name)
}

// fileValue makes a reader over a file value: a Blob read in slices through FileReaderSync
// (only a worker has it), or a Uint8Array or ArrayBuffer (the page fallback reads the Blob
// whole first). The name is the Blob's, or a byte array's name property, else "file".
func fileValue(v js.Value, what string) (*jsReaderAt, string, error) {
	name := "file"
	if n := v.Get("name"); n.Type() == js.TypeString && n.String() != "" {
		name = n.String()
	}
	if blob := js.Global().Get("Blob"); blob.Truthy() && v.InstanceOf(blob) {
		frsClass := js.Global().Get("FileReaderSync")
		if !frsClass.Truthy() {
			return nil, "", protocol.Errorf(protocol.BadRequest, "%s: a Blob cannot be read synchronously here (no FileReaderSync outside a worker); pass its bytes", what)
		}
		frs := frsClass.New()
		u8 := js.Global().Get("Uint8Array")
		read := func(off, n int64) js.Value {
			return u8.New(frs.Call("readAsArrayBuffer", v.Call("slice", off, off+n)))
		}
		rd := newJSReaderAt(read, int64(v.Get("size").Float()), 0)
		rd.blob = v
		return rd, name, nil
	}
	if v.InstanceOf(js.Global().Get("ArrayBuffer")) {
		v = js.Global().Get("Uint8Array").New(v)
	}
	if !v.InstanceOf(js.Global().Get("Uint8Array")) {
		return nil, "", protocol.Errorf(protocol.BadRequest, "%s must be a Blob, Uint8Array or ArrayBuffer", what)
	}
	read := func(off, n int64) js.Value { return v.Call("subarray", off, off+n) }
	return newJSReaderAt(read, int64(v.Length()), 0), name, nil
}

// defaultReadAhead is how much one crossing into JS fetches. In Chromium each crossing is a
// FileReaderSync read (a new ArrayBuffer, a trip to the blob store): a 200 MiB open took
// 5.6 s of core time with 512 KiB reads, 4.6 s with 4 MiB and 4.0 s with 16 MiB, whose
// buffers double the wasm heap. 4 MiB is the knee.
const defaultReadAhead = 4 << 20

// jsReaderAt is an io.ReaderAt over read(off, n) → Uint8Array of JS bytes, with a read-ahead
// buffer so small sequential reads cost one JS call per chunk. The File is never copied
// whole into wasm memory.
type jsReaderAt struct {
	readJS    func(off, n int64) js.Value
	size      int64
	chunk     int
	buf       []byte
	bufOff    int64
	crossings int   // JS calls made, for tests and the benchmark figures
	read      int64 // bytes fetched from JS
	// blob is the Blob read (undefined: bytes), which the page's pool workers read too.
	blob js.Value
}

func newJSReaderAt(read func(off, n int64) js.Value, size int64, chunk int) *jsReaderAt {
	if chunk <= 0 {
		chunk = defaultReadAhead
	}
	return &jsReaderAt{readJS: read, size: size, chunk: chunk}
}

func (r *jsReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read at negative offset %d", off)
	}
	n := 0
	for n < len(p) && off < r.size {
		if off >= r.bufOff && off < r.bufOff+int64(len(r.buf)) {
			c := copy(p[n:], r.buf[off-r.bufOff:])
			n += c
			off += int64(c)
			continue
		}
		want := min(int64(len(p)-n), r.size-off)
		if want >= int64(r.chunk) {
			// A big read goes straight into p: no point in buffering it.
			c, err := r.fetch(p[n:n+int(want)], off)
			n += c
			off += int64(c)
			if err != nil {
				return n, err
			}
			continue
		}
		fill := min(int64(r.chunk), r.size-off)
		if cap(r.buf) < int(fill) {
			r.buf = make([]byte, r.chunk)
		}
		r.buf = r.buf[:fill]
		c, err := r.fetch(r.buf, off)
		r.buf, r.bufOff = r.buf[:c], off
		if err != nil {
			r.buf = r.buf[:0]
			return n, err
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// fetch fills dst from JS at off; a JS exception (the file changed or vanished on disk)
// becomes an error.
func (r *jsReaderAt) fetch(dst []byte, off int64) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("reading %d bytes at offset %d of the file failed: %v (was the file changed or removed while open?)", len(dst), off, p)
		}
	}()
	r.crossings++
	v := r.readJS(off, int64(len(dst)))
	if v.Type() != js.TypeObject {
		return 0, fmt.Errorf("reading %d bytes at offset %d gave %s, not bytes", len(dst), off, v.Type())
	}
	n = js.CopyBytesToGo(dst, v)
	r.read += int64(n)
	if n == 0 {
		return 0, fmt.Errorf("reading at offset %d of the file gave no bytes (was it truncated while open?)", off)
	}
	return n, nil
}
