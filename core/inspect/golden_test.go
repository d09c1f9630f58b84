package inspect

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestGoldenDocument pins the whole Document of a generated NEFF. The same test runs natively
// and under GOOS=js GOARCH=wasm (make test-wasm), so the CLI and the page see the same tree;
// the msgpack round trip is the worker → page wire.
func TestGoldenDocument(t *testing.T) {
	b := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{FeatureBits: 0x400, LNCSize: 2, Name: "golden.neff"})
	f := Open("golden.neff", bytes.NewReader(b), int64(len(b)), Options{Fingerprint: true})
	got, err := f.Doc.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if std, _ := json.MarshalIndent(f.Doc, "", " "); !bytes.Equal(got, std) {
		t.Error("Document.JSON differs from encoding/json's MarshalIndent")
	}
	const golden = "testdata/sample.neff.json"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./core/inspect -run Golden -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the document differs from %s (if the change is intended, rerun with -update and review the diff)", golden)
	}
	wire, err := f.Doc.MarshalMsg(nil)
	if err != nil {
		t.Fatal(err)
	}
	var back doc.Document
	if _, err := back.UnmarshalMsg(wire); err != nil {
		t.Fatal(err)
	}
	again, _ := back.JSON()
	if !bytes.Equal(again, got) {
		t.Error("msgpack round trip changes the document")
	}
}
