package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"
)

func TestCompressWritesDecodableSiblings(t *testing.T) {
	raw := bytes.Repeat([]byte("neffscope wasm-like bytes \x00\x01\x02 "), 5000)
	name := filepath.Join(t.TempDir(), "x.wasm")
	if err := os.WriteFile(name, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := compress(name); err != nil {
		t.Fatal(err)
	}
	gzb, _ := os.ReadFile(name + ".gz")
	zr, err := gzip.NewReader(bytes.NewReader(gzb))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, raw) {
		t.Errorf("x.wasm.gz inflates to %d bytes, want the %d raw bytes", len(got), len(raw))
	}
	brb, _ := os.ReadFile(name + ".br")
	if got, _ := io.ReadAll(brotli.NewReader(bytes.NewReader(brb))); !bytes.Equal(got, raw) {
		t.Errorf("x.wasm.br decodes to %d bytes, want the %d raw bytes", len(got), len(raw))
	}
	if len(brb) >= len(raw)/10 || len(gzb) >= len(raw)/10 {
		t.Errorf("repetitive input barely compressed: raw %d, gzip %d, brotli %d", len(raw), len(gzb), len(brb))
	}
}
