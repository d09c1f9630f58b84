//go:build js && wasm

package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// sliceReader is what worker.js does with FileReaderSync: a JS function (off, n) → Uint8Array
// over the file's bytes. calls counts crossings.
func sliceReader(t *testing.T, data []byte, calls *int) js.Func {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		*calls++
		off, n := int64(args[0].Float()), int64(args[1].Int())
		lo := min(off, int64(len(data)))
		hi := min(lo+n, int64(len(data)))
		return toUint8Array(data[lo:hi])
	})
	t.Cleanup(f.Release)
	return f
}

func core(t *testing.T) js.Value {
	b := register()
	t.Cleanup(b.release)
	return js.Global().Get(GlobalName)
}

func decodeDoc(t *testing.T, v js.Value) *doc.Document {
	t.Helper()
	enc := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(enc, v)
	var d doc.Document
	if _, err := d.UnmarshalMsg(enc); err != nil {
		t.Fatalf("msgpack document does not decode: %v", err)
	}
	return &d
}

func jsBytes(v js.Value) []byte {
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

func checkNoError(t *testing.T, v js.Value) {
	t.Helper()
	if v.Type() == js.TypeObject {
		if e := v.Get("error"); e.Type() == js.TypeString {
			t.Fatalf("bridge returned error: %s", e.String())
		}
	}
}

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
	var calls int
	read := sliceReader(t, file, &calls)

	var phases []string
	var headerDoc *doc.Document
	progress := js.FuncOf(func(_ js.Value, args []js.Value) any {
		phases = append(phases, args[0].Get("phase").String())
		return nil
	})
	defer progress.Release()
	header := js.FuncOf(func(_ js.Value, args []js.Value) any {
		headerDoc = decodeDoc(t, args[0])
		return nil
	})
	defer header.Release()
	opts := js.Global().Get("Object").New()
	opts.Set("progress", progress)
	opts.Set("header", header)

	res := c.Call("open", read, len(file), "gen.neff", opts)
	checkNoError(t, res)
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
	if got := d.Root.Find("payload", "integrity").Value; got != "ok" {
		t.Errorf("integrity %q, want ok", got)
	}
	def := decoded(d.Root.Find("members", "sg00/", "def.json"))
	if def == nil || def.Child("var") == nil || def.Find("var", "a", "size") == nil || def.Find("var", "a", "size").Value != "64" {
		t.Fatalf("sg00/def.json content is not the JSON tree: %+v", def)
	}
	bin := d.Root.Find("members", "sg00/", "Activation.bin")
	if bin == nil || bin.Ref != "member:sg00/Activation.bin" {
		t.Fatalf("Activation.bin member node missing or without ref: %+v", bin)
	}
	if headerDoc == nil || headerDoc.Root.Find("header", "name").Value != `"gen.neff"` {
		t.Errorf("header callback: got %+v", headerDoc)
	}
	if len(phases) == 0 || phases[len(phases)-1] == "" {
		t.Errorf("no progress reported: %v", phases)
	}
	// One crossing per read-ahead chunk, not per small read: the file is ~0.7 MiB of random
	// (incompressible) bytes, so a streaming read of it takes a handful of chunks, plus the
	// head sniff.
	if maxCalls := 3*len(file)/defaultReadAhead + 8; calls > maxCalls {
		t.Errorf("%d JS crossings to read %d bytes (want ≤ %d)", calls, len(file), maxCalls)
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
		v := c.Call("bytes", h, tc.source, tc.off, tc.n)
		checkNoError(t, v)
		if got := jsBytes(v); !bytes.Equal(got, tc.want) {
			t.Errorf("bytes(%q, %d, %d) (%s): got %d bytes % x…, want %d bytes % x…", tc.source, tc.off, tc.n, tc.comment, len(got), got[:min(8, len(got))], len(tc.want), tc.want[:min(8, len(tc.want))])
		}
	}

	if e := c.Call("bytes", h, "no/such.bin", 0, 4).Get("error"); e.Type() != js.TypeString || !strings.Contains(e.String(), "no member") {
		t.Errorf("bytes of a missing member: error %v", e)
	}
	c.Call("close", h)
	if e := c.Call("bytes", h, "", 0, 4).Get("error"); e.Type() != js.TypeString || !strings.Contains(e.String(), "no open file") {
		t.Errorf("bytes after close: error %v", e)
	}
}

func TestOpenRealNEFF(t *testing.T) {
	const path = "../../shared/testdata-real/nkipy/matmul_small.neff"
	file, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("real NEFF not available (%v); it lives in ../shared/testdata-real", err)
	}
	c := core(t)
	var calls int
	res := c.Call("open", sliceReader(t, file, &calls), len(file), "matmul_small.neff", js.Undefined())
	checkNoError(t, res)
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
	// The extracted copy of a binary member (the folder named after the NEFF) must equal the
	// bytes the bridge serves.
	want, err := os.ReadFile("../../shared/testdata-real/nkipy/matmul_small/sg00/act_info.json")
	if err != nil {
		t.Skipf("extracted member not available: %v", err)
	}
	got := jsBytes(c.Call("bytes", res.Get("handle"), "sg00/act_info.json", 0, len(want)+10))
	if !bytes.Equal(got, want) {
		t.Errorf("sg00/act_info.json via bytes(): %d bytes, want the extracted %d bytes", len(got), len(want))
	}
}

func TestReadSliceThatThrows(t *testing.T) {
	file, _ := generated()
	c := core(t)
	// The file vanished after the head was read: every later read throws, as FileReaderSync
	// does with NotReadableError.
	throwing := js.Global().Get("Function").New("off", "n", "if (off > 0) throw new Error('NotReadableError'); return new Uint8Array(0)")
	res := c.Call("open", throwing, len(file), "gone.neff", js.Undefined())
	checkNoError(t, res) // inspect never fails: problems are findings
	d := decodeDoc(t, res.Get("doc"))
	if len(d.Findings()) == 0 {
		t.Errorf("an unreadable file gave no findings")
	}
	// And the runtime is still alive.
	if c.Call("open", "not a function", 1, "x").Get("error").Type() != js.TypeString {
		t.Errorf("open with a bad readSlice did not report an error")
	}
}

func TestReaderAtMatchesBytes(t *testing.T) {
	data := make([]byte, 100000)
	for i := range data {
		data[i] = byte(i * 7)
	}
	var calls int
	f := sliceReader(t, data, &calls)
	r := newJSReaderAt(f.Value, int64(len(data)), 4096)
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
	r = newJSReaderAt(f.Value, int64(len(data)), 4096)
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
	var calls int
	res := c.Call("open", sliceReader(t, file, &calls), len(file), "sample.neff", js.Undefined())
	checkNoError(t, res)
	d := decodeDoc(t, res.Get("doc"))
	var stream *doc.Node
	d.Root.Walk(func(_ []string, n *doc.Node) bool {
		if stream == nil && strings.HasPrefix(n.Ref, "stream:") {
			stream = n
		}
		return stream == nil
	})
	if stream == nil {
		t.Fatal("the sample NEFF has no instruction stream node (Ref stream:...)")
	}
	member := strings.TrimPrefix(stream.Ref, "stream:")
	want := int(stream.Span.Length / 64)
	h := res.Get("handle")

	r := c.Call("rows", h, stream.Ref, 0, 1<<20)
	checkNoError(t, r)
	var table doc.Table
	if _, err := table.UnmarshalMsg(jsBytes(r.Get("table"))); err != nil {
		t.Fatal(err)
	}
	if total := r.Get("total").Int(); total != want || len(table.Rows) != want {
		t.Fatalf("rows of %s: total %d, %d rows; want %d (its %d bytes / 64)", member, total, len(table.Rows), want, stream.Span.Length)
	}
	if len(table.RowSpans) != want || table.RowSpans[want-1].Offset != int64(want-1)*64 || table.RowSpans[want-1].Length != 64 {
		t.Errorf("the last row's span is %+v, want 64 bytes at %d", table.RowSpans[want-1], (want-1)*64)
	}
	// A window in the middle.
	r = c.Call("rows", h, stream.Ref, 1, 2)
	checkNoError(t, r)
	var one doc.Table
	one.UnmarshalMsg(jsBytes(r.Get("table")))
	if len(one.Rows) != 1 || strings.Join(one.Rows[0], "|") != strings.Join(table.Rows[1], "|") {
		t.Errorf("rows 1..2 = %q, want %q", one.Rows, table.Rows[1:2])
	}

	v := c.Call("instruction", h, stream.Ref, want-1)
	checkNoError(t, v)
	var ins doc.Node
	if _, err := ins.UnmarshalMsg(jsBytes(v)); err != nil {
		t.Fatal(err)
	}
	if ins.Span == nil || ins.Span.Source != member || ins.Span.Offset != int64(want-1)*64 || len(ins.Children) == 0 {
		t.Errorf("instruction %d of %s: span %+v, %d fields", want-1, member, ins.Span, len(ins.Children))
	}
	if e := c.Call("instruction", h, stream.Ref, want).Get("error"); e.Type() != js.TypeString {
		t.Errorf("instruction past the end gave no error")
	}
	if e := c.Call("rows", h, "stream:no/such.bin", 0, 1).Get("error"); e.Type() != js.TypeString {
		t.Errorf("rows of a missing stream gave no error")
	}
}

// BenchmarkOpen opens a generated 32 MiB NEFF (one incompressible member) through the bridge,
// as the worker does, with and without the whole-file fingerprint.
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
			read := js.FuncOf(func(_ js.Value, args []js.Value) any {
				calls++
				off, n := int64(args[0].Float()), int64(args[1].Int())
				lo := min(off, int64(len(file)))
				return toUint8Array(file[lo:min(lo+n, int64(len(file)))])
			})
			defer read.Release()
			b.SetBytes(int64(len(file)))
			for range b.N {
				r := newJSReaderAt(read.Value, int64(len(file)), 0)
				inspect.Open("w.neff", r, int64(len(file)), inspect.Options{Fingerprint: fp})
			}
		})
	}
}
