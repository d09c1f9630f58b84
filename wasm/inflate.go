//go:build js && wasm

package main

import (
	"errors"
	"io"
	"syscall/js"

	"github.com/neffscope/neffscope/core/neff"
)

// jsInflater is a payload's gzip member inflated by the browser (www/src/worker/inflate.js,
// DecompressionStream): Read blocks the open's goroutine on a channel until the JS side hands
// over the next batch, which it can only do while Go waits (the worker's event loop runs).
type jsInflater struct {
	obj  js.Value
	cb   js.Func
	ch   chan struct{}
	buf  []byte
	cur  []byte
	done int64 // compressed bytes consumed so far
	glen int64 // the member's length, at the end
	err  error
}

// newJSInflater starts the browser's inflate of [start, end) of the File v, or returns nil
// where there is none (no worker, no DecompressionStream, not a padded gzip payload).
func newJSInflater(v js.Value, start, end int64) *jsInflater {
	mk := js.Global().Get("neffscopeInflater")
	if mk.Type() != js.TypeFunction || v.Type() != js.TypeObject || !v.InstanceOf(js.Global().Get("Blob")) {
		return nil
	}
	obj := mk.Invoke(v, start, end)
	if obj.Type() != js.TypeObject {
		return nil
	}
	j := &jsInflater{obj: obj, ch: make(chan struct{}, 1)}
	j.cb = js.FuncOf(func(_ js.Value, a []js.Value) any {
		j.done = int64(a[1].Float())
		switch {
		case a[3].String() != "":
			j.err = errors.New(a[3].String())
		case a[0].IsNull():
			j.glen, j.err = int64(a[2].Float()), io.EOF
		default:
			n := a[0].Length()
			if cap(j.buf) < n {
				j.buf = make([]byte, n)
			}
			j.cur = j.buf[:js.CopyBytesToGo(j.buf[:n], a[0])]
		}
		j.ch <- struct{}{}
		return nil
	})
	return j
}

func (j *jsInflater) Read(p []byte) (int, error) {
	for len(j.cur) == 0 {
		if j.err != nil {
			return 0, j.err
		}
		j.obj.Call("next", j.cb)
		<-j.ch
	}
	n := copy(p, j.cur)
	j.cur = j.cur[n:]
	return n, nil
}

func (j *jsInflater) Compressed() int64 {
	if j.err == io.EOF {
		return j.glen
	}
	return j.done
}

// close stops the JS side and frees the callback.
func (j *jsInflater) close() {
	j.obj.Call("cancel")
	j.cb.Release()
}

var _ neff.Inflater = (*jsInflater)(nil)
