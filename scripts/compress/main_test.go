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

// Both levels write siblings that decode to the file; best is never larger than fast.
func TestCompressWritesDecodableSiblings(t *testing.T) {
	raw := bytes.Repeat([]byte("neffscope wasm-like bytes \x00\x01\x02 "), 5000)
	for i := range raw {
		if i%61 == 0 {
			raw[i] = byte(i * 31 >> 3) // less repetitive, so the levels differ
		}
	}
	size := map[string]int{}
	for _, lv := range []string{"fast", "best"} {
		name := filepath.Join(t.TempDir(), "x.wasm")
		if err := os.WriteFile(name, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := compress(name, levels[lv]); err != nil {
			t.Fatal(err)
		}
		gzb, _ := os.ReadFile(name + ".gz")
		zr, err := gzip.NewReader(bytes.NewReader(gzb))
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := io.ReadAll(zr); !bytes.Equal(got, raw) {
			t.Errorf("%s: x.wasm.gz inflates to %d bytes, want the %d raw bytes", lv, len(got), len(raw))
		}
		brb, _ := os.ReadFile(name + ".br")
		if got, _ := io.ReadAll(brotli.NewReader(bytes.NewReader(brb))); !bytes.Equal(got, raw) {
			t.Errorf("%s: x.wasm.br decodes to %d bytes, want the %d raw bytes", lv, len(got), len(raw))
		}
		if len(brb) >= len(raw)/4 || len(gzb) >= len(raw)/4 {
			t.Errorf("%s: repetitive input barely compressed: raw %d, gzip %d, brotli %d", lv, len(raw), len(gzb), len(brb))
		}
		size[lv] = len(brb)
	}
	if size["best"] > size["fast"] {
		t.Errorf("brotli best %d B, larger than fast %d B", size["best"], size["fast"])
	}
}
