//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// repacked is matmul_small repacked with kelf-0.json's target changed, hlo_stats.json removed
// and notes.json added.
func repacked(t *testing.T, src []byte) []byte {
	t.Helper()
	return repack.NEFF(src, func(path string, data []byte) ([]byte, bool) {
		switch path {
		case "hlo_stats.json":
			return nil, false
		case "kelf-0.json":
			return bytes.Replace(data, []byte(`"cayman"`), []byte(`"sunda"`), 1), true
		}
		return data, true
	}, neffbuild.Member{Path: "notes.json", Data: []byte(`{}`)})
}

// openIn opens data in the bridge under name, as the worker does, and returns its handle.
func openIn(t *testing.T, c *testCore, name string, data []byte) js.Value {
	t.Helper()
	return c.openBytes(name, data).Get("handle")
}

// diff(a, b) is fleet.Diff of the two files, whatever way they were read: the node the page
// renders and the JSON it exports are the native ones, byte for byte. On matmul_small and a
// repacked copy; and on the same kernel compiled for trn1 (sunda) and for trn2 (cayman, two
// cores fused) where the shared folder is beside the clone.
func TestDiffMatchesNativeOnRealPair(t *testing.T) {
	a := readFile(t, "nkipy/matmul_small.neff")
	got := checkDiffMatchesNative(t, "matmul_small.neff", "repacked.neff", a, repacked(t, a))
	if want := "1 changed, 1 added, 1 removed"; !strings.HasPrefix(got.Child("members").Value, want) {
		t.Errorf("members: %q, want %s, …", got.Child("members").Value, want)
	}
	if n := got.Find("model", "target"); n == nil || n.Value != "cayman → sunda" {
		t.Errorf("model target: %+v", n)
	}
	t.Run("trn1-trn2", func(t *testing.T) {
		pa, okA := realfiles.Optional(t, "cs149-trn1/stream_256k_fd1k.neff", "the trn1/trn2 diff")
		pb, okB := realfiles.Optional(t, "cs149-trn2/stream_256k_fd1k.neff", "the trn1/trn2 diff")
		if !okA || !okB {
			return
		}
		a, _ := os.ReadFile(pa)
		b, _ := os.ReadFile(pb)
		got := checkDiffMatchesNative(t, "trn1/stream_256k_fd1k.neff", "trn2/stream_256k_fd1k.neff", a, b)
		if got.Child("members").Value != "24 changed, 30 added, 2 removed, 6 unchanged" {
			t.Errorf("members: %q", got.Child("members").Value)
		}
		if n := got.Find("model", "target"); n == nil || n.Value != "sunda → cayman" {
			t.Errorf("model target: %+v", n)
		}
	})
}

func checkDiffMatchesNative(t *testing.T, nameA, nameB string, a, b []byte) *doc.Node {
	t.Helper()
	c := core(t)
	ha := openIn(t, c, nameA, a)
	hb := openIn(t, c, nameB, b)

	got := decodeNode(t, c.must("diff", map[string]any{"a": ha, "b": hb}).Get("node"))
	fa := inspect.Open(nameA, bytes.NewReader(a), int64(len(a)), inspect.Options{Fingerprint: true})
	fb := inspect.Open(nameB, bytes.NewReader(b), int64(len(b)), inspect.Options{Fingerprint: true})
	want := fleet.Diff(fa, fb)

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
	if fleet.DiffIdentical(got) {
		t.Errorf("%s and %s reported identical", nameA, nameB)
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
	if same := decodeNode(t, c.must("diff", map[string]any{"a": ha, "b": ha2}).Get("node")); !fleet.DiffIdentical(same) || same.Value != "identical" {
		t.Errorf("%s against itself: %q", nameA, same.Value)
	}
	return got
}

// Bad requests are rejected with their code (no panic); a file that is not a NEFF gives the
// diff's finding.
func TestDiffBadRequests(t *testing.T) {
	file, _ := generated()
	c := core(t)
	h := openIn(t, c, "gen.neff", file)
	c.fails("diff", map[string]any{}, protocol.BadRequest, "argument a")
	c.fails("diff", map[string]any{"a": h, "b": 9999}, protocol.NotFound, "argument b: no open file with handle 9999")
	c.fails("diff", map[string]any{"a": "1", "b": h}, protocol.BadRequest, "argument a must be number")
	c.fails("diff", map[string]any{"a": h, "b": h, "format": "yaml"}, protocol.BadRequest, "yaml")
	notNEFF := openIn(t, c, "notes.json", []byte(`{"x": 1}`))
	d := decodeNode(t, c.must("diff", map[string]any{"a": h, "b": notNEFF}).Get("node"))
	if len(d.Findings) != 1 || d.Findings[0].Code != doc.CodeDiffNotNEFF {
		t.Errorf("a NEFF against a JSON file: %q, findings %v", d.Value, d.Findings)
	}
}
