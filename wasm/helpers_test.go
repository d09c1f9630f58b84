//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// testCore calls the registered neffscopeCore.call as worker.js does and waits for its
// Promise.
type testCore struct {
	t testing.TB
	b *bridge
}

func core(t *testing.T) *testCore {
	b := register()
	t.Cleanup(b.release)
	return &testCore{t: t, b: b}
}

// invoke calls method with args (a map, or any JS value) and returns the result or the
// rejection, sending events to onEvent.
func (c *testCore) invoke(method string, args any, onEvent func(name string, data js.Value)) (js.Value, *protocol.Error) {
	c.t.Helper()
	var argv []any
	if m, ok := args.(map[string]any); ok {
		argv = append(argv, method, js.ValueOf(m))
	} else {
		argv = append(argv, method, args)
	}
	if onEvent != nil {
		emit := js.FuncOf(func(_ js.Value, a []js.Value) any {
			onEvent(a[0].String(), a[1])
			return nil
		})
		defer emit.Release()
		argv = append(argv, emit)
	}
	p := js.Global().Get(GlobalName).Call("call", argv...)
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		c.t.Fatalf("%s: call did not return a Promise", method)
	}
	type settled struct {
		v   js.Value
		err *protocol.Error
	}
	ch := make(chan settled, 1)
	ok := js.FuncOf(func(_ js.Value, a []js.Value) any { ch <- settled{v: a[0]}; return nil })
	bad := js.FuncOf(func(_ js.Value, a []js.Value) any {
		e := a[0]
		if e.Type() != js.TypeObject || e.Get("code").Type() != js.TypeString || e.Get("message").Type() != js.TypeString {
			ch <- settled{err: &protocol.Error{Code: "(not the error shape)", Message: js.Global().Get("String").Invoke(e).String()}}
			return nil
		}
		ch <- settled{err: &protocol.Error{Code: e.Get("code").String(), Message: e.Get("message").String()}}
		return nil
	})
	defer ok.Release()
	defer bad.Release()
	p.Call("then", ok, bad)
	s := <-ch
	return s.v, s.err
}

// must calls method and fails the test on a rejection.
func (c *testCore) must(method string, args map[string]any) js.Value {
	c.t.Helper()
	v, err := c.invoke(method, args, nil)
	if err != nil {
		c.t.Fatalf("%s: rejected %s: %s", method, err.Code, err.Message)
	}
	return v
}

// fails calls method, expects a rejection with code (and a message holding want), and
// returns it.
func (c *testCore) fails(method string, args any, code, want string) {
	c.t.Helper()
	v, err := c.invoke(method, args, nil)
	if err == nil {
		c.t.Errorf("%s %v: resolved with %v, want a %s error", method, args, js.Global().Get("JSON").Call("stringify", v), code)
		return
	}
	if err.Code != code || !strings.Contains(err.Message, want) {
		c.t.Errorf("%s %v: error %s %q, want %s containing %q", method, args, err.Code, err.Message, code, want)
	}
}

// u8 is data as a Uint8Array: the file argument the page fallback passes.
func u8(data []byte) js.Value { return toUint8Array(data) }

func decodeDoc(t *testing.T, v js.Value) *doc.Document {
	t.Helper()
	var d doc.Document
	if _, err := d.UnmarshalMsg(jsBytes(v)); err != nil {
		t.Fatalf("msgpack document does not decode: %v", err)
	}
	return &d
}

func decodeNode(t *testing.T, v js.Value) *doc.Node {
	t.Helper()
	var n doc.Node
	if _, err := n.UnmarshalMsg(jsBytes(v)); err != nil {
		t.Fatalf("msgpack node does not decode: %v", err)
	}
	return &n
}

// openBytes opens data under name and returns the result.
func (c *testCore) openBytes(name string, data []byte) js.Value {
	c.t.Helper()
	return c.must("open", map[string]any{"file": u8(data), "name": name})
}

// rangeMax is the most items one call of method answers (its table Range).
func rangeMax(method string) int64 {
	m, _ := protocol.Lookup(method)
	return m.Range.Max
}
