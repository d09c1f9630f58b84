//go:build js && wasm

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// jsPool makes a pool as the core worker's host publishes it (neffscopeCore.pool), whose
// workers are this same core answering poolRun (a macrotask later, as a worker's message
// would); fail: every job is rejected, as when its worker dies.
var jsPool = js.Global().Get("Function").New("core", "n", "fail", `
	const pool = {runs: 0, size: () => n, run(kind, job, file) {
		pool.runs++;
		if (fail) return new Promise((_, reject) => setTimeout(() => reject(new Error('the pool worker stopped')), 0));
		return new Promise((resolve) => setTimeout(resolve, 0))
			.then(() => core.call('poolRun', {kind, job, file}))
			.then((r) => r.answer);
	}};
	return pool;`)

// deferredJSON opens data as the page does (source lines and members' sha-256 left out), maps
// the lines and hashes the members (in pool when it is not null) and returns the json method's
// Document.
func (c *testCore) deferredJSON(name string, data []byte, p js.Value) []byte {
	c.t.Helper()
	file := u8(data)
	r := c.must("open", map[string]any{"file": file, "name": name, "deferSource": true, "deferSourceOver": 0, "memberHashes": false})
	h := r.Get("handle").Int()
	defer c.must("close", map[string]any{"handle": h})
	if !p.IsNull() {
		// Bytes stand for the page's Blob here (Node has no FileReaderSync to read a Blob).
		c.b.mu.Lock()
		c.b.readers[h].blob = file
		c.b.mu.Unlock()
		c.b.global.Set("pool", p)
		defer c.b.global.Delete("pool")
	}
	c.must("indexSource", map[string]any{"handle": h})
	c.must("hashMembers", map[string]any{"handle": h})
	return jsBytes(c.must("json", map[string]any{"handle": h}).Get("json"))
}

// The Document with the source lines mapped and the members hashed in a pool of this core's
// poolRun is the one-thread Document, byte for byte; so is the one of a pool whose every job
// fails (its worker died: the core does that work itself). On every real NEFF (../shared when
// it is there, else matmul_small).
func TestPoolRunGivesTheOneThreadDocument(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Log(realfiles.Missing("nki-moe/attn_v6.neff") + ": matmul_small only")
		paths = []string{realfiles.Path(t, "nkipy/matmul_small.neff")}
	}
	c := core(t)
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		want := c.deferredJSON(name, data, js.Null())
		for _, k := range []struct {
			n    int
			fail bool
		}{{2, false}, {3, true}} {
			p := jsPool.Invoke(js.Global().Get(GlobalName), k.n, k.fail)
			got := c.deferredJSON(name, data, p)
			if !bytes.Equal(got, want) {
				t.Errorf("%s: in a pool of %d (jobs failing: %v) the Document differs from one thread's (%d bytes, want %d)", name, k.n, k.fail, len(got), len(want))
			}
			if runs := p.Get("runs").Int(); runs == 0 {
				t.Errorf("%s: the pool of %d ran no job", name, k.n)
			}
		}
	}
}

// A pool job of no known kind, or one that is not a job, is refused with an error (the core
// worker then does the work itself), never a panic.
func TestPoolRunRefusesBadJobs(t *testing.T) {
	c := core(t)
	c.fails("poolRun", map[string]any{"kind": "nothing", "job": buffer(nil), "file": u8([]byte{1})}, "failed", "no pool job")
	c.fails("poolRun", map[string]any{"kind": "dbg-scan", "job": buffer([]byte{0xff, 0xff}), "file": u8([]byte{1})}, "failed", "pool job")
}
