// Command compress writes precompressed copies of files beside them (FILE.gz and FILE.br) so
// the dev server and static hosts can hand a browser the smallest one it accepts. Pure Go (no
// brotli CLI needed on a fresh machine).
//
//	go run ./scripts/compress -level fast www/neffscope.wasm    the dev server's (make wasm, make serve)
//	go run ./scripts/compress -level best dist/site/neffscope.wasm   what a visitor downloads (make dist)
//
// best is gzip -9 and brotli at quality 11 with a 16 MiB window: the smallest download, at about
// a minute for the wasm on one core. fast is gzip -6 and brotli at quality 5: a second or two, a
// larger file, fine for a page served on the developer's own machine.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/andybalholm/brotli"
)

// level is one setting of both encoders.
type level struct {
	gzip          int
	brotli, lgwin int
}

var levels = map[string]level{
	"fast": {gzip: gzip.DefaultCompression, brotli: 5, lgwin: 22},
	"best": {gzip: gzip.BestCompression, brotli: brotli.BestCompression, lgwin: 24},
}

func main() {
	name := flag.String("level", "best", "fast (the dev server's) or best (what make dist ships)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: compress [-level fast|best] FILE...   (writes FILE.gz and FILE.br)")
		os.Exit(2)
	}
	flag.Parse()
	lv, ok := levels[*name]
	if !ok || flag.NArg() == 0 {
		flag.Usage()
	}
	for _, file := range flag.Args() {
		if err := compress(file, lv); err != nil {
			fmt.Fprintln(os.Stderr, "compress:", err)
			os.Exit(1)
		}
	}
}

func compress(name string, lv level) error {
	raw, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	gz, err := encode(raw, func(w io.Writer) (io.WriteCloser, error) { return gzip.NewWriterLevel(w, lv.gzip) })
	if err != nil {
		return err
	}
	br, err := encode(raw, func(w io.Writer) (io.WriteCloser, error) {
		return brotli.NewWriterOptions(w, brotli.WriterOptions{Quality: lv.brotli, LGWin: lv.lgwin}), nil
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
	fmt.Printf("%s: raw %d B, gzip %d B (%.0f%%), brotli %d B (%.0f%%), brotli quality %d\n", name, len(raw),
		len(gz), 100*float64(len(gz))/float64(len(raw)), len(br), 100*float64(len(br))/float64(len(raw)), lv.brotli)
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
