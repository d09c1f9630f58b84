//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// The same kernel compiled for trn1 (sunda) and for trn2 (cayman, two cores fused).
const (
	trn1Stream = "../../shared/testdata-real/cs149-trn1/stream_256k_fd1k.neff"
	trn2Stream = "../../shared/testdata-real/cs149-trn2/stream_256k_fd1k.neff"
)

// openIn opens data in the bridge under name, as the worker does, and returns its handle.
func openIn(t *testing.T, c *testCore, name string, data []byte) js.Value {
	t.Helper()
	return c.openBytes(name, data).Get("handle")
}

// diff(a, b) is inspect.Diff of the two files, whatever way they were read: the node the page
// renders and the JSON it exports are the native ones, byte for byte.
func TestDiffMatchesNativeOnRealPair(t *testing.T) {
	a, b := readFile(t, trn1Stream), readFile(t, trn2Stream)
	c := core(t)
	ha := openIn(t, c, "trn1/stream_256k_fd1k.neff", a)
	hb := openIn(t, c, "trn2/stream_256k_fd1k.neff", b)

	got := decodeNode(t, c.must("diff", map[string]any{"a": ha, "b": hb}).Get("node"))
	fa := inspect.Open("trn1/stream_256k_fd1k.neff", bytes.NewReader(a), int64(len(a)), inspect.Options{Fingerprint: true})
	fb := inspect.Open("trn2/stream_256k_fd1k.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{Fingerprint: true})
	want := inspect.Diff(fa, fb)

	wantMsg, err := want.MarshalMsg(nil)
	if err != nil {
		t.Fatal(err)
	}
	gotMsg, err := got.MarshalMsg(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gotMsg, wantMsg) {
		t.Errorf("the bridge's diff node (%d bytes of msgpack) differs from the native one (%d bytes)", len(gotMsg), len(wantMsg))
	}
	if got.Child("members").Value != "24 changed, 30 added, 2 removed, 6 unchanged" {
		t.Errorf("members: %q", got.Child("members").Value)
	}
	if n := got.Find("model", "target"); n == nil || n.Value != "sunda → cayman" {
		t.Errorf("model target: %+v", n)
	}
	if inspect.DiffIdentical(got) {
		t.Error("trn1 and trn2 reported identical")
	}

	// The export: what `neffscope diff --json A B` prints for files of these names.
	out := c.must("diff", map[string]any{"a": ha, "b": hb, "format": "json"}).Get("json")
	wantJSON, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if gotJSON := jsBytes(out); !bytes.Equal(gotJSON, append(wantJSON, '\n')) {
		t.Errorf("diff(a, b, 'json'): %d bytes, differing from diff --json's %d bytes", len(gotJSON), len(wantJSON)+1)
	}

	// A file compared with itself (two handles on the same bytes) is identical.
	ha2 := openIn(t, c, "again.neff", a)
	if same := decodeNode(t, c.must("diff", map[string]any{"a": ha, "b": ha2}).Get("node")); !inspect.DiffIdentical(same) || same.Value != "identical" {
		t.Errorf("trn1 against itself: %q", same.Value)
	}
}

// Bad requests are rejected with their code (no panic); a file that is not a NEFF gives the
// diff's finding.
func TestDiffBadRequests(t *testing.T) {
	file, _ := generated()
	c := core(t)
	h := openIn(t, c, "gen.neff", file)
	c.fails("diff", map[string]any{}, protocol.BadRequest, "argument a")
	c.fails("diff", map[string]any{"a": h, "b": 9999}, protocol.NotFound, "diff, file b: no open file with handle 9999")
	c.fails("diff", map[string]any{"a": "1", "b": h}, protocol.BadRequest, "argument a must be number")
	c.fails("diff", map[string]any{"a": h, "b": h, "format": "yaml"}, protocol.BadRequest, "yaml")
	notNEFF := openIn(t, c, "notes.json", []byte(`{"x": 1}`))
	d := decodeNode(t, c.must("diff", map[string]any{"a": h, "b": notNEFF}).Get("node"))
	if len(d.Findings) != 1 || !strings.Contains(d.Findings[0].Message, "notes.json is not a NEFF") {
		t.Errorf("a NEFF against a JSON file: %q, findings %v", d.Value, d.Findings)
	}
}
