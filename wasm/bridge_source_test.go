//go:build js && wasm

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/tinylib/msgp/msgp"
)

// An open with deferSource leaves the source lines out (sourcePending, the overview's answer
// pending); indexSource maps them, and then the core's Document is the native eager open's,
// byte for byte, and so is the Document shipped by the open once patched with what
// indexSource returned (as the page patches its copy): the overview, the model's source node,
// the .dbg members' content, the root's findings. On every real NEFF (../shared when it is
// there, else matmul_small), and on matmul_small under a 4 MiB memory limit. (These small
// NEFFs' .dbg members are held, so the mapping reads nothing again; the re-read through the
// reader indexSource clones runs on the big real-shaped NEFFs, e2e's BenchmarkPageBig.)
func TestIndexSourceGivesTheEagerDocument(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Log(realfiles.Missing("nki-moe/attn_v6.neff") + ": matmul_small only")
		paths = []string{realfiles.Path(t, "nkipy/matmul_small.neff")}
	}
	type run struct {
		path   string
		memory int64 // 0: the bridge's default
	}
	var runs []run
	for _, p := range paths {
		runs = append(runs, run{path: p})
	}
	// A tight memory limit: the mapping's admission is decided on what the limit leaves.
	runs = append(runs, run{path: realfiles.Path(t, "nkipy/matmul_small.neff"), memory: 4 << 20})
	c := core(t)
	mapped := 0
	for _, rn := range runs {
		data, err := os.ReadFile(rn.path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(rn.path)
		lim := budget.Page()
		// deferSourceOver 0: deferred whatever the size (by default up to 64 KiB of .dbg are
		// mapped in the open: TestSmallDebugInfoMappedInTheOpen).
		args := map[string]any{"file": u8(data), "name": name, "deferSource": true, "deferSourceOver": 0}
		if rn.memory > 0 {
			lim.Memory = rn.memory
			args["maxMemory"] = rn.memory
			name += fmt.Sprintf(" (memory limit %d)", rn.memory)
		}
		native := inspect.Open(filepath.Base(rn.path), bytes.NewReader(data), int64(len(data)), inspect.Options{Fingerprint: true, Limits: lim})
		want, _ := native.Doc.MarshalMsg(nil)
		r := c.must("open", args)
		shipped := decodeDoc(t, r.Get("doc"))
		pending := r.Get("sourcePending").Bool()
		if pending != (native.Program != nil && native.Program.Source != nil && len(native.Program.Source.Members) > 0) && rn.memory == 0 {
			t.Errorf("%s: sourcePending %v", name, pending)
		}
		h := r.Get("handle")
		var events int
		got, perr := c.invoke("indexSource", map[string]any{"handle": h}, func(ev string, _ js.Value) {
			if ev == "progress" {
				events++
			}
		})
		if perr != nil {
			t.Fatalf("%s: indexSource: %s %s", name, perr.Code, perr.Message)
		}
		if got.Get("mapped").Bool() != pending {
			t.Errorf("%s: mapped %v, pending was %v", name, got.Get("mapped").Bool(), pending)
		}
		c.b.mu.Lock()
		f := c.b.files[h.Int()]
		c.b.mu.Unlock()
		if f.SourcePending() {
			t.Errorf("%s: still pending after indexSource", name)
		}
		core, _ := f.Doc.MarshalMsg(nil)
		if !bytes.Equal(core, want) {
			t.Errorf("%s: after indexSource the core's Document differs from the native eager open's (%d vs %d bytes)", name, len(core), len(want))
		}
		if pending {
			mapped++
			patchSource(t, shipped, got)
			if pb, _ := shipped.MarshalMsg(nil); !bytes.Equal(pb, want) {
				t.Errorf("%s: the open's Document patched with indexSource's answer differs from the native eager open's (%d vs %d bytes)", name, len(pb), len(want))
			}
		}
		if events > 0 {
			t.Logf("%s: %d progress events (the archive read again)", name, events)
		}
		// A second call maps nothing more, and answers the same.
		if again := c.must("indexSource", map[string]any{"handle": h}); again.Get("mapped").Bool() != pending {
			t.Errorf("%s: a second indexSource says mapped %v", name, again.Get("mapped").Bool())
		} else if pending && !bytes.Equal(jsBytes(again.Get("contents")), jsBytes(got.Get("contents"))) {
			t.Errorf("%s: a second indexSource answers other contents than the first", name)
		}
		if after, _ := f.Doc.MarshalMsg(nil); !bytes.Equal(after, want) {
			t.Errorf("%s: a second indexSource changed the Document", name)
		}
	}
	if mapped == 0 {
		t.Error("no real NEFF had source lines to map")
	}
	// A NEFF without .dbg members has nothing to map: the open is the eager one.
	file, _ := generated()
	native := inspect.Open("g.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{Fingerprint: true, Limits: budget.Page()})
	want, _ := native.Doc.MarshalMsg(nil)
	r := c.must("open", map[string]any{"file": u8(file), "name": "g.neff", "deferSource": true})
	if r.Get("sourcePending").Bool() || !bytes.Equal(jsBytes(r.Get("doc")), want) {
		t.Errorf("a NEFF without debug info: sourcePending %v, Document as the eager open's %v", r.Get("sourcePending").Bool(), bytes.Equal(jsBytes(r.Get("doc")), want))
	}
	if c.must("indexSource", map[string]any{"handle": r.Get("handle")}).Get("mapped").Bool() {
		t.Error("a NEFF without debug info: indexSource mapped something")
	}
}

// patchSource applies indexSource's answer to d as the page does (www/src/lib/sourcepatch.js).
func patchSource(t *testing.T, d *doc.Document, r js.Value) {
	t.Helper()
	root := d.Root
	if v := r.Get("overview"); v.Get("byteLength").Int() > 0 {
		root.Children[0] = decodeNode(t, v)
	}
	if v := r.Get("source"); v.Get("byteLength").Int() > 0 {
		root.Child("model").Add(decodeNode(t, v))
	}
	var cs []*doc.Node
	b := jsBytes(r.Get("contents"))
	n, b, err := msgp.ReadArrayHeaderBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		var c doc.Node
		if b, err = c.UnmarshalMsg(b); err != nil {
			t.Fatal(err)
		}
		cs = append(cs, &c)
	}
	// Each names its member by ref; members of one path in document order.
	byPath := map[string][]*doc.Node{}
	root.Child("members").Walk(func(_ []string, m *doc.Node) bool {
		if m.Kind != doc.KindMember {
			return true
		}
		_, p := doc.ParseRef(m.Ref)
		byPath[p] = append(byPath[p], m)
		return false
	})
	for _, n := range cs {
		_, p := doc.ParseRef(n.Ref)
		if len(byPath[p]) == 0 {
			t.Fatalf("no member node for content %s", n.Ref)
		}
		m := byPath[p][0]
		byPath[p] = byPath[p][1:]
		done := false
		for k, c := range m.Children {
			if c.Label == "content" {
				m.Children[k], done = n, true
			}
		}
		if !done {
			m.Add(n)
		}
	}
	bare := decodeNode(t, r.Get("findings"))
	root.Findings = bare.Findings
}

// json, diff and compare map the source lines first where the background call has not.
func TestJSONMapsPendingSource(t *testing.T) {
	data := realfiles.Read(t, "nkipy/matmul_small.neff")
	c := core(t)
	native := inspect.Open("matmul_small.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{Fingerprint: true, Limits: budget.Page()})
	var want bytes.Buffer
	if _, err := native.WriteJSON(&want); err != nil {
		t.Fatal(err)
	}
	r := c.must("open", map[string]any{"file": u8(data), "name": "matmul_small.neff", "deferSource": true, "deferSourceOver": 0})
	if !r.Get("sourcePending").Bool() {
		t.Fatal("matmul_small: no source pending")
	}
	got := jsBytes(c.must("json", map[string]any{"handle": r.Get("handle")}).Get("json"))
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("json of a deferred open differs from the eager open's (%d vs %d bytes)", len(got), want.Len())
	}
	c.b.mu.Lock()
	f := c.b.files[r.Get("handle").Int()]
	c.b.mu.Unlock()
	if f.SourcePending() {
		t.Error("json left the source lines pending")
	}
	// The page's indexSource after that still gets what changed.
	if !c.must("indexSource", map[string]any{"handle": r.Get("handle")}).Get("mapped").Bool() {
		t.Error("indexSource after json: mapped false; the page would keep its pending Document")
	}
}

// By default a deferred open maps up to 64 KiB of .dbg, all held, in the open all the same:
// the Document the eager open gives, nothing pending; more stays deferred.
func TestSmallDebugInfoMappedInTheOpen(t *testing.T) {
	c := core(t)
	for _, p := range append(realfiles.Glob("*/*.neff"), realfiles.Path(t, "nkipy/matmul_small.neff")) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		native := inspect.Open(name, bytes.NewReader(data), int64(len(data)), inspect.Options{Fingerprint: true, Limits: budget.Page()})
		_, dbgBytes := inspect.DbgMembers(native.Archive)
		r := c.must("open", map[string]any{"file": u8(data), "name": name, "deferSource": true})
		if pending := r.Get("sourcePending").Bool(); pending != (dbgBytes > 64<<10) {
			t.Errorf("%s (%d B of .dbg): sourcePending %v", name, dbgBytes, pending)
		} else if !pending {
			want, _ := native.Doc.MarshalMsg(nil)
			got, _ := decodeDoc(t, r.Get("doc")).MarshalMsg(nil)
			if !bytes.Equal(want, got) {
				t.Errorf("%s: mapped in the open, the Document differs from the eager open's", name)
			}
		}
		c.must("close", map[string]any{"handle": r.Get("handle")})
	}
}
