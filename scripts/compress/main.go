// Command compress writes precompressed copies of files beside them (FILE.gz, gzip -9, and
// FILE.br, brotli quality 11) so the dev server and static hosts can hand a browser the
// smallest one it accepts. Pure Go (no brotli CLI needed on a fresh machine).
//
//	go run ./scripts/compress www/neffscope.wasm
package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"

	"github.com/andybalholm/brotli"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: compress FILE...   (writes FILE.gz and FILE.br)")
		os.Exit(2)
	}
	for _, name := range os.Args[1:] {
		if err := compress(name); err != nil {
			fmt.Fprintln(os.Stderr, "compress:", err)
			os.Exit(1)
		}
	}
}

func compress(name string) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	gz, err := encode(raw, func(w io.Writer) (io.WriteCloser, error) { return gzip.NewWriterLevel(w, gzip.BestCompression) })
	if err != nil {
		return err
	}
	br, err := encode(raw, func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: brotli.BestCompression, LGWin: 24}), nil
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(name+".gz", gz, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(name+".br", br, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: raw %d B, gzip %d B (%.0f%%), brotli %d B (%.0f%%)\n", name, len(raw),
		len(gz), 100*float64(len(gz))/float64(len(raw)), len(br), 100*float64(len(br))/float64(len(raw)))
	return nil
}

func encode(raw []byte, mk func(io.Writer) (io.WriteCloser, error)) ([]byte, error) {
	var buf bytes.Buffer
	w, err := mk(&buf)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
