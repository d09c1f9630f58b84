package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The generated page file is what the table says now (run `go generate ./wasm/...`).
func TestGeneratedJSIsCurrent(t *testing.T) {
	path := filepath.Join("..", "..", filepath.FromSlash(GeneratedPath))
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: run go generate ./wasm/...", err)
	}
	if !bytes.Equal(got, JS()) {
		t.Fatalf("%s is stale: run go generate ./wasm/...", GeneratedPath)
	}
}

// The table is well formed: unique names, known JS types and events, no duplicate args, and
// every method and type in the generated file.
func TestTable(t *testing.T) {
	known := map[string]bool{"number": true, "string": true, "boolean": true, "ArrayBuffer": true,
		"Uint8Array": true, "Blob": true, "null": true}
	for _, ty := range Types {
		known[ty.Name] = true
	}
	events := map[string]bool{}
	for _, e := range Events {
		events[e.Name] = true
	}
	var typeOK func(ty string) bool
	typeOK = func(ty string) bool {
		for _, p := range SplitUnion(ty) {
			if inner, ok := strings.CutPrefix(p, "Array<"); ok && strings.HasSuffix(inner, ">") {
				if !typeOK(strings.TrimSuffix(inner, ">")) {
					return false
				}
			} else if !known[p] {
				return false
			}
		}
		return true
	}
	js := string(JS())
	seen := map[string]bool{}
	for _, m := range Methods {
		if seen[m.Name] || m.Name == "" || m.Doc == "" {
			t.Errorf("method %q: duplicate or undocumented", m.Name)
		}
		seen[m.Name] = true
		for _, group := range [][]Field{m.Args, m.Result} {
			names := map[string]bool{}
			for _, f := range group {
				if names[f.Name] || !typeOK(f.Type) || f.Doc == "" {
					t.Errorf("%s.%s: duplicate, type %q unknown, or undocumented", m.Name, f.Name, f.Type)
				}
				names[f.Name] = true
			}
		}
		for _, a := range m.Args {
			// A handle is resolved by the dispatcher (close forgets any handle, known or not).
			if strings.Contains(a.Doc, "handle") && a.Resolve == AsIs && m.Name != "close" {
				t.Errorf("%s.%s names a handle the dispatcher does not resolve", m.Name, a.Name)
			}
			if want := map[Resolve]string{OpenFile: "number", OpenContext: "number", OpenFiles: "Array<number>"}[a.Resolve]; want != "" && a.Type != want {
				t.Errorf("%s.%s resolves a handle but is a %s", m.Name, a.Name, a.Type)
			}
		}
		if g := m.Range; g != nil {
			for _, name := range []string{g.From, g.To} {
				if i := slices.IndexFunc(m.Args, func(a Field) bool { return a.Name == name }); i < 0 || m.Args[i].Type != "number" || m.Args[i].Optional {
					t.Errorf("%s: range argument %s is not a required number", m.Name, name)
				}
			}
			if g.Max <= 0 {
				t.Errorf("%s: range without a Max", m.Name)
			}
		}
		for _, e := range m.Events {
			if !events[e] {
				t.Errorf("%s sends an undeclared event %q", m.Name, e)
			}
		}
		if !strings.Contains(js, "@typedef {Object} "+upper(m.Name)+"Args") || !strings.Contains(js, "name: '"+m.Name+"'") {
			t.Errorf("%s is missing from the generated JS", m.Name)
		}
	}
	if _, ok := Lookup("open"); !ok {
		t.Error("Lookup(open) failed")
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup found a method that does not exist")
	}
	// Quoting survives any doc text.
	if got := squote(`it's "x"\` + "\n"); got != `'it\'s "x"\\\n'` {
		t.Errorf("squote: %s", got)
	}
	if !regexp.MustCompile(`export const METHODS = Object.freeze\(\[\n(  \{ name: '[a-zA-Z]+'.*\n)+\]\);`).MatchString(js) {
		t.Error("METHODS is not one line per method")
	}
}

func TestErrors(t *testing.T) {
	e := Errorf(NotFound, "no open file with handle %d", 3)
	wrapped := fmt.Errorf("diff, file a: %w", e)
	if CodeOf(wrapped) != NotFound || CodeOf(errors.New("x")) != Failed {
		t.Errorf("CodeOf: %s, %s", CodeOf(wrapped), CodeOf(errors.New("x")))
	}
	if w := Wrap(Limit, e); CodeOf(w) != NotFound {
		t.Errorf("Wrap replaced an existing code: %s", CodeOf(w))
	}
	if w := Wrap(Limit, errors.New("too big")); CodeOf(w) != Limit || w.Error() != "too big" {
		t.Errorf("Wrap: %v %s", w, CodeOf(w))
	}
	if Wrap(Limit, nil) != nil {
		t.Error("Wrap(nil) is not nil")
	}
}
