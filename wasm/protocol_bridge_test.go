//go:build js && wasm

package main

import (
	"slices"
	"strings"
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

// Every method whose table names a handle has it resolved by the dispatcher: a handle that
// names nothing is answered not-found before the handler runs, for every such method and
// every such argument (the other arguments well-typed, the range valid).
func TestEveryHandleIsResolved(t *testing.T) {
	c := core(t)
	file, _ := generated()
	open := c.openBytes("gen.neff", file).Get("handle").Int()
	checked := 0
	for _, m := range protocol.Methods {
		for _, bad := range m.Args {
			if bad.Resolve == protocol.AsIs {
				continue
			}
			args := map[string]any{}
			for _, a := range m.Args {
				if a.Optional && a.Name != bad.Name {
					continue
				}
				args[a.Name] = wellTyped(a, open)
			}
			if m.Range != nil {
				args[m.Range.From], args[m.Range.To] = 0, 1
			}
			if bad.Resolve == protocol.OpenFiles {
				args[bad.Name] = []any{open, 9999}
			} else {
				args[bad.Name] = 9999
			}
			_, err := c.invoke(m.Name, args, nil)
			if err == nil || err.Code != protocol.NotFound {
				t.Errorf("%s with %s 9999: %v, want a %s error", m.Name, bad.Name, err, protocol.NotFound)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Errorf("only %d handle arguments in the table", checked)
	}
}

// wellTyped is a value of a's declared type: for a handle, the open file's.
func wellTyped(a protocol.Field, open int) any {
	switch a.Resolve {
	case protocol.OpenFile, protocol.OpenContext:
		return open
	case protocol.OpenFiles:
		return []any{open, open}
	}
	switch ty := protocol.SplitUnion(a.Type)[0]; {
	case ty == "number":
		return 0
	case ty == "string":
		return ""
	case ty == "boolean":
		return false
	case strings.HasPrefix(ty, "Array<"):
		return []any{}
	case ty == "Blob" || ty == "Uint8Array" || ty == "ArrayBuffer":
		return u8(nil)
	default: // a typedef: an object
		return map[string]any{}
	}
}
