//go:build js && wasm

package main

import (
	"slices"
	"testing"

	"github.com/neffscope/neffscope/wasm/protocol"
)

// Every method of the table has a handler and every handler a method; the global lists them.
func TestTableMatchesHandlers(t *testing.T) {
	c := core(t)
	for _, m := range protocol.Methods {
		if _, ok := c.b.handlers[m.Name]; !ok {
			t.Errorf("method %s has no handler", m.Name)
		}
	}
	for name := range c.b.handlers {
		if _, ok := protocol.Lookup(name); !ok {
			t.Errorf("handler %s is not in the protocol table", name)
		}
	}
	var listed []string
	ms := c.b.global.Get("methods")
	for i := range ms.Length() {
		listed = append(listed, ms.Index(i).String())
	}
	if !slices.Equal(listed, protocol.Names()) {
		t.Errorf("neffscopeCore.methods %v, want %v", listed, protocol.Names())
	}
}

// Without IndexedDB (Node has none) every library method but libStatus is unavailable, and
// libStatus says why.
func TestLibraryUnavailable(t *testing.T) {
	c := core(t)
	st := c.must("libStatus", map[string]any{})
	if st.Get("ok").Bool() || st.Get("reason").String() == "" {
		t.Errorf("libStatus without IndexedDB: ok %v, reason %q", st.Get("ok"), st.Get("reason"))
	}
	file, _ := generated()
	h := c.openBytes("gen.neff", file).Get("handle")
	c.fails("libList", map[string]any{}, protocol.Unavailable, "IndexedDB")
	c.fails("libGet", map[string]any{"key": "ab"}, protocol.Unavailable, "IndexedDB")
	c.fails("libRemove", map[string]any{"key": "ab"}, protocol.Unavailable, "IndexedDB")
	c.fails("libClear", map[string]any{}, protocol.Unavailable, "IndexedDB")
	c.fails("libPut", map[string]any{"handle": h, "entry": map[string]any{"how": "open", "files": []any{}}}, protocol.Unavailable, "IndexedDB")
	c.fails("libPut", map[string]any{"handle": 9999, "entry": map[string]any{}}, protocol.NotFound, "no open file")
}
