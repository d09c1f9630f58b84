//go:build js && wasm

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// generated builds a NEFF with a JSON member, a binary member larger than the read-ahead
// chunk, and a small one.
func generated() (file []byte, act []byte) {
	act = make([]byte, 700<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range act {
		act[i] = byte(rng.UintN(256))
	}
	file = neffbuild.Bytes([]neffbuild.Member{
		{Path: "info.json", Data: []byte(`{"name":"gen.neff","num_tpb":1}`)},
		{Path: "sg00/def.json", Data: []byte(`{"var": {"a": {"size": 64}}, "instrs": [1, 2, 3]}`)},
		{Path: "sg00/Activation.bin", Data: act},
		{Path: "sg00/PE.bin", Data: bytes.Repeat([]byte{0xAB, 0xCD}, 32)},
	}, neffbuild.Options{Name: "gen.neff"})
	return file, act
}

// decoded returns a member's decoded content: its first child that is not raw bytes (the
// decoder that reads it names its kind: object, manifest, ...).
func decoded(member *doc.Node) *doc.Node {
	if member == nil {
		return nil
	}
	for _, c := range member.Children {
		if c.Kind != doc.KindBytes {
			return c
		}
	}
	return nil
}

func TestOpenGeneratedNEFF(t *testing.T) {
	file, act := generated()
	c := core(t)
	var phases []string
	var headerDoc *doc.Document
	res, perr := c.invoke("open", map[string]any{"file": u8(file), "name": "gen.neff"}, func(name string, data js.Value) {
		switch name {
		case "progress":
			phases = append(phases, data.Get("phase").String())
		case "header":
			headerDoc = decodeDoc(t, data)
		case "overview": // the partial overview: bridge_partial_test.go
		default:
			t.Errorf("unexpected event %q", name)
		}
	})
	if perr != nil {
		t.Fatalf("open: %s %s", perr.Code, perr.Message)
	}
	d := decodeDoc(t, res.Get("doc"))

	if d.Kind != doc.KindNEFF || d.Size != int64(len(file)) || d.File != "gen.neff" {
		t.Fatalf("document kind/size/file = %q/%d/%q, want neff/%d/gen.neff", d.Kind, d.Size, d.File, len(file))
	}
	sum := sha256.Sum256(file)
	if d.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("fingerprint %s, want %s", d.SHA256, hex.EncodeToString(sum[:]))
	}
	if got := d.Root.Find("header", "uuid").Value; got != "12345678-9abc-4def-8123-456789abcdef" {
		t.Errorf("uuid %q", got)
	}
	if got := d.Root.Find("payload", "integrity"); got.Value != "ok" || got.Attrs[doc.AttrIntegrity] != doc.IntegrityOK {
		t.Errorf("integrity %q, attrs %v; want ok", got.Value, got.Attrs)
	}
	def := decoded(d.Root.Find("members", "sg00/", "def.json"))
	if def == nil || def.Child("var") == nil || def.Find("var", "a", "size") == nil || def.Find("var", "a", "size").Value != "64" {
		t.Fatalf("sg00/def.json content is not the JSON tree: %+v", def)
	}
	bin := d.Root.Find("members", "sg00/", "Activation.bin")
	if bin == nil || bin.Ref != doc.MemberRef("sg00/Activation.bin") {
		t.Fatalf("Activation.bin member node missing or without ref: %+v", bin)
	}
	if headerDoc == nil || headerDoc.Root.Find("header", "name").Value != `"gen.neff"` {
		t.Errorf("header event: got %+v", headerDoc)
	}
	if len(phases) == 0 || phases[len(phases)-1] == "" {
		t.Errorf("no progress reported: %v", phases)
	}
	// One crossing per read-ahead chunk, not per small read: the file is ~0.7 MiB of random
	// (incompressible) bytes, so a streaming read of it takes a handful of chunks, plus the
	// head sniff.
	calls := res.Get("crossings").Int()
	if maxCalls := 3*len(file)/defaultReadAhead + 8; calls > maxCalls || calls == 0 {
		t.Errorf("%d JS crossings to read %d bytes (want 1..%d)", calls, len(file), maxCalls)
	}
	for _, k := range []string{"handle", "doc", "ms", "crossings", "wasmBytes"} {
		if res.Get(k).IsUndefined() {
			t.Errorf("the result has no %s", k)
		}
	}
	t.Logf("opened %d bytes with %d JS crossings; phases %v", len(file), calls, phases)

	h := res.Get("handle")
	for _, tc := range []struct {
		source  string
		off, n  int
		want    []byte
		comment string
	}{
		{"sg00/Activation.bin", 0, 16, act[:16], "first row"},
		{"sg00/Activation.bin", 300 << 10, 4096, act[300<<10 : 300<<10+4096], "a page in the middle"},
		{"sg00/Activation.bin", len(act) - 10, 100, act[len(act)-10:], "cut at the member's end"},
		{"sg00/PE.bin", 2, 4, []byte{0xAB, 0xCD, 0xAB, 0xCD}, "small member"},
		{"", 0, 1024, file[:1024], "the header"},
		{"", len(file) - 5, 50, file[len(file)-5:], "the file's tail"},
	} {
		v := c.must("bytes", map[string]any{"handle": h, "source": tc.source, "off": tc.off, "n": tc.n})
		if got := jsBytes(v.Get("bytes")); !bytes.Equal(got, tc.want) {
			t.Errorf("bytes(%q, %d, %d) (%s): got %d bytes % x…, want %d bytes % x…", tc.source, tc.off, tc.n, tc.comment, len(got), got[:min(8, len(got))], len(tc.want), tc.want[:min(8, len(tc.want))])
		}
	}

	c.fails("bytes", map[string]any{"handle": h, "source": "no/such.bin", "off": 0, "n": 4}, protocol.NotFound, "no member")
	c.fails("bytes", map[string]any{"handle": h, "source": "", "off": -1, "n": 4}, protocol.BadRequest, "bad range")
	c.fails("bytes", map[string]any{"handle": h, "source": "", "off": 0.5, "n": 4}, protocol.BadRequest, "not a whole number")
	c.must("close", map[string]any{"handle": h})
	c.fails("bytes", map[string]any{"handle": h, "source": "", "off": 0, "n": 4}, protocol.NotFound, "no open file")
}

// Malformed calls are rejected with bad-request before any handler runs, and the runtime
// lives on.
func TestCallRejectsBadRequests(t *testing.T) {
	c := core(t)
	file, _ := generated()
	c.fails("nope", map[string]any{}, protocol.BadRequest, "unknown method")
	c.fails("open", map[string]any{}, protocol.BadRequest, "argument file")
	c.fails("open", map[string]any{"file": "not bytes"}, protocol.BadRequest, "argument file must be Blob|Uint8Array|ArrayBuffer")
	c.fails("open", js.ValueOf(3), protocol.BadRequest, "one object of named arguments")
	c.fails("bytes", map[string]any{"handle": "1", "source": "", "off": 0, "n": 1}, protocol.BadRequest, "argument handle must be number")
	c.fails("close", map[string]any{"handle": 1, "hndle": 2}, protocol.BadRequest, `takes no argument "hndle"`)
	c.fails("openGroup", map[string]any{"files": []any{u8(file), 7}}, protocol.BadRequest, "argument files must be Array<")
	c.fails("openGroup", map[string]any{"files": []any{}}, protocol.Limit, "between 1 and 1000")
	c.fails("setFingerprint", map[string]any{"handle": 9999, "sha256": "00"}, protocol.NotFound, "no open file with handle 9999")
	// An ArrayBuffer is a file too, and the core still answers after the rejections.
	ab := u8(file).Get("buffer")
	res := c.must("open", map[string]any{"file": ab, "name": "ab.neff"})
	if d := decodeDoc(t, res.Get("doc")); d.File != "ab.neff" || d.Size != int64(len(file)) {
		t.Errorf("open of an ArrayBuffer: %s, %d bytes", d.File, d.Size)
	}
	h := res.Get("handle")
	c.fails("setFingerprint", map[string]any{"handle": h, "sha256": "xyz"}, protocol.BadRequest, "not a sha-256")
	sum := strings.Repeat("ab", 32)
	if r := c.must("setFingerprint", map[string]any{"handle": h, "sha256": sum}); !r.Get("set").Bool() {
		t.Error("setFingerprint of a complete NEFF was not taken")
	}
	if got := decodeDoc(t, c.must("open", map[string]any{"file": u8(file), "fingerprint": false}).Get("doc")); got.SHA256 != "" || got.File != "file" {
		t.Errorf("open with fingerprint false: sha256 %q, name %q", got.SHA256, got.File)
	}
}

// A Blob is read by the core itself through FileReaderSync, in slices. Node has neither a
// synchronous Blob reader nor FileReaderSync, so the test installs stand-ins that behave
// like the worker's (slice, readAsArrayBuffer) over bytes.
func TestOpenBlobThroughFileReaderSync(t *testing.T) {
	c := core(t)
	file, _ := generated()
	g := js.Global()
	c.fails("open", map[string]any{"file": g.Get("Blob").New([]any{u8(file)})}, protocol.BadRequest, "no FileReaderSync")

	oldBlob, oldFRS := g.Get("Blob"), g.Get("FileReaderSync")
	t.Cleanup(func() {
		g.Set("Blob", oldBlob)
		if oldFRS.IsUndefined() {
			g.Delete("FileReaderSync")
		} else {
			g.Set("FileReaderSync", oldFRS)
		}
	})
	g.Get("eval").Invoke(`
		globalThis.Blob = class Blob {
			constructor(u8, name) { this.u8 = u8; this.size = u8.length; this.name = name || ''; }
			slice(a, b) { return new Blob(this.u8.subarray(a, Math.min(b, this.u8.length))); }
		};
		globalThis.FileReaderSync = class { readAsArrayBuffer(b) { globalThis.slices = (globalThis.slices || 0) + 1; return b.u8.slice().buffer; } };
		globalThis.slices = 0;`)
	blob := g.Get("Blob").New(u8(file), "blob.neff")
	res := c.must("open", map[string]any{"file": blob})
	d := decodeDoc(t, res.Get("doc"))
	sum := sha256.Sum256(file)
	if d.File != "blob.neff" || d.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("a Blob opened as %q with sha-256 %s", d.File, d.SHA256)
	}
	if n := g.Get("slices").Int(); n != res.Get("crossings").Int() || n == 0 {
		t.Errorf("%d FileReaderSync reads, %d crossings reported", n, res.Get("crossings").Int())
	}
	ctx := c.must("openContext", map[string]any{"file": blob, "arch": 12})
	if d := decodeDoc(t, ctx.Get("doc")); d.File != "blob.neff" || d.Size != int64(len(file)) {
		t.Errorf("openContext of a Blob: %s, %d bytes", d.File, d.Size)
	}
}

func TestOpenRealNEFF(t *testing.T) {
	file := realfiles.Read(t, "nkipy/matmul_small.neff")
	c := core(t)
	res := c.openBytes("matmul_small.neff", file)
	d := decodeDoc(t, res.Get("doc"))
	if got := d.Root.Find("header", "uuid").Value; got != "00a04c53-5fd9-4f07-bffd-d5eacdefc852" {
		t.Errorf("uuid %q", got)
	}
	if got := d.Root.Find("payload", "integrity").Value; got != "ok" {
		t.Errorf("integrity %q", got)
	}
	if decoded(d.Root.Find("members", "sg00/", "def.json")).Child("var") == nil {
		t.Errorf("sg00/def.json has no var key in the tree")
	}
	// The member read on its own (the shared folder's extracted copy, or taken out of the NEFF
	// by the standard library's tar reader) must equal the bytes the bridge serves.
	want := realfiles.Read(t, "nkipy/matmul_small/sg00/act_info.json")
	got := jsBytes(c.must("bytes", map[string]any{"handle": res.Get("handle"), "source": "sg00/act_info.json", "off": 0, "n": len(want) + 10}).Get("bytes"))
	if !bytes.Equal(got, want) {
		t.Errorf("sg00/act_info.json via bytes(): %d bytes, want the extracted %d bytes", len(got), len(want))
	}
}

// The file vanished after the head was read: every later read throws, as FileReaderSync
// does with NotReadableError. The open still answers, with findings.
func TestReadThatThrows(t *testing.T) {
	file, _ := generated()
	throwing := js.Global().Get("Function").New("off", "n", "if (off > 0) throw new Error('NotReadableError'); return new Uint8Array(0)")
	r := newJSReaderAt(func(off, n int64) js.Value { return throwing.Invoke(off, n) }, int64(len(file)), 0)
	f := inspect.Open("gone.neff", r, int64(len(file)), inspect.Options{Fingerprint: true})
	if len(f.Doc.Findings()) == 0 {
		t.Errorf("an unreadable file gave no findings")
	}
}

// sliceFunc reads data as the worker's FileReaderSync does: a new Uint8Array per read.
func sliceFunc(data []byte, calls *int) func(off, n int64) js.Value {
	return func(off, n int64) js.Value {
		*calls++
		lo := min(off, int64(len(data)))
		return toUint8Array(data[lo:min(lo+n, int64(len(data)))])
	}
}

func TestReaderAtMatchesBytes(t *testing.T) {
	data := make([]byte, 100000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	var calls int
	r := newJSReaderAt(sliceFunc(data, &calls), int64(len(data)), 4096)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		off := rng.Int64N(int64(len(data)) + 10)
		n := rng.IntN(10000)
		p := make([]byte, n)
		got, err := r.ReadAt(p, off)
		lo := min(off, int64(len(data)))
		want := data[lo:min(lo+int64(n), int64(len(data)))]
		if got != len(want) || !bytes.Equal(p[:got], want) {
			t.Fatalf("ReadAt(%d, %d) = %d bytes, want %d", off, n, got, len(want))
		}
		if got < n && err != io.EOF {
			t.Fatalf("short ReadAt(%d, %d) gave err %v, want io.EOF", off, n, err)
		}
	}
	// Sequential small reads cost one crossing per chunk.
	calls = 0
	r = newJSReaderAt(sliceFunc(data, &calls), int64(len(data)), 4096)
	p := make([]byte, 100)
	for off := int64(0); off < int64(len(data)); off += 100 {
		r.ReadAt(p, off)
	}
	if want := (len(data) + 4095) / 4096; calls != want {
		t.Errorf("sequential 100-byte reads made %d crossings, want %d", calls, want)
	}
}

func TestListingRowsAndInstruction(t *testing.T) {
	file := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	c := core(t)
	res := c.openBytes("sample.neff", file)
	d := decodeDoc(t, res.Get("doc"))
	var stream *doc.Node
	d.Root.Walk(func(_ []string, n *doc.Node) bool {
		if k, _ := doc.ParseRef(n.Ref); stream == nil && k == doc.RefStream {
			stream = n
		}
		return stream == nil
	})
	if stream == nil {
		t.Fatal("the sample NEFF has no instruction stream node (Ref stream:...)")
	}
	_, member := doc.ParseRef(stream.Ref)
	want := int(stream.Span.Length / 64)
	h := res.Get("handle")
	rows := func(from, to int) (*doc.Table, int) {
		r := c.must("rows", map[string]any{"handle": h, "ref": stream.Ref, "from": from, "to": to})
		var table doc.Table
		if _, err := table.UnmarshalMsg(jsBytes(r.Get("table"))); err != nil {
			t.Fatal(err)
		}
		return &table, r.Get("total").Int()
	}

	table, total := rows(0, 1<<20)
	if total != want || len(table.Rows) != want {
		t.Fatalf("rows of %s: total %d, %d rows; want %d (its %d bytes / 64)", member, total, len(table.Rows), want, stream.Span.Length)
	}
	if len(table.RowSpans) != want || table.RowSpans[want-1].Offset != int64(want-1)*64 || table.RowSpans[want-1].Length != 64 {
		t.Errorf("the last row's span is %+v, want 64 bytes at %d", table.RowSpans[want-1], (want-1)*64)
	}
	// A window in the middle.
	if one, _ := rows(1, 2); len(one.Rows) != 1 || strings.Join(one.Rows[0], "|") != strings.Join(table.Rows[1], "|") {
		t.Errorf("rows 1..2 = %q, want %q", one.Rows, table.Rows[1:2])
	}

	ins := decodeNode(t, c.must("instruction", map[string]any{"handle": h, "ref": stream.Ref, "index": want - 1}).Get("node"))
	if ins.Span == nil || ins.Span.Source != member || ins.Span.Offset != int64(want-1)*64 || len(ins.Children) == 0 {
		t.Errorf("instruction %d of %s: span %+v, %d fields", want-1, member, ins.Span, len(ins.Children))
	}
	c.fails("instruction", map[string]any{"handle": h, "ref": stream.Ref, "index": want}, protocol.NotFound, "")
	c.fails("rows", map[string]any{"handle": h, "ref": doc.StreamRef("no/such.bin"), "from": 0, "to": 1}, protocol.NotFound, "no/such.bin")
	c.fails("rows", map[string]any{"handle": h, "ref": "no/such.bin", "from": 0, "to": 1}, protocol.BadRequest, "not a stream reference")
	c.fails("rows", map[string]any{"handle": h, "ref": stream.Ref, "from": 5, "to": 1}, protocol.BadRequest, "bad range")
}

// BenchmarkOpen opens a generated 32 MiB NEFF (one incompressible member) through the bridge,
// with and without the whole-file fingerprint: read as the worker reads a File (a new
// Uint8Array per 4 MiB read), and through call() with the bytes as the file argument.
//
//	PATH=$(go env GOROOT)/lib/wasm:$PATH GOOS=js GOARCH=wasm go test -run '^$' -bench Open ./wasm/
func BenchmarkOpen(b *testing.B) {
	member := make([]byte, 32<<20)
	rand.NewChaCha8([32]byte{7}).Read(member)
	file := neffbuild.Bytes([]neffbuild.Member{{Path: "weights/w.bin", Data: member}}, neffbuild.Options{})
	for _, fp := range []bool{true, false} {
		name := "fingerprint"
		if !fp {
			name = "no-fingerprint"
		}
		b.Run(name, func(b *testing.B) {
			var calls int
			b.SetBytes(int64(len(file)))
			for range b.N {
				r := newJSReaderAt(sliceFunc(file, &calls), int64(len(file)), 0)
				inspect.Open("w.neff", r, int64(len(file)), inspect.Options{Fingerprint: fp})
			}
		})
	}
	b.Run("call", func(b *testing.B) {
		bc := register()
		defer bc.release()
		c := &testCore{t: b, b: bc}
		arg := u8(file)
		b.SetBytes(int64(len(file)))
		for range b.N {
			if _, err := c.invoke("open", map[string]any{"file": arg, "name": "w.neff"}, nil); err != nil {
				b.Fatal(err.Message)
			}
		}
	})
}

// The warm-up's background open (it yields at its progress points, core-host.js) decodes the
// same Document as the page's open.
func TestBackgroundOpenSameDocument(t *testing.T) {
	file := realfiles.Read(t, "nkipy/matmul_small.neff")
	c := core(t)
	args := func(background bool) map[string]any {
		return map[string]any{"file": u8(file), "name": "matmul_small.neff", "memberHashes": false, "deferSource": true, "deferSourceOver": 0, "background": background}
	}
	plain := jsBytes(c.must("open", args(false)).Get("doc"))
	bg := jsBytes(c.must("open", args(true)).Get("doc"))
	if len(plain) == 0 || !bytes.Equal(plain, bg) {
		t.Errorf("the background open's Document (%d bytes) differs from the plain open's (%d bytes)", len(bg), len(plain))
	}
}
