// Command hostile writes the hostile NEFFs (neffbuild.HostileClasses) to a directory,
// for measuring the CLI by hand: go run ./scripts/hostile -o /tmp/hostile
package main

import (
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

func main() {
	out := flag.String("o", "hostile", "output directory")
	scale := flag.Float64("scale", 1, "size of each class relative to the issue's reproduction")
	only := flag.String("only", "", "write only the class of this name")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, h := range append(neffbuild.HostileClasses(), randomStream, jsonWideB) {
		if *only != "" && h.Name != *only {
			continue
		}
		b := h.Build(*scale)
		p := filepath.Join(*out, h.Name+".neff")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%-14s %9d bytes  %s\n", h.Name, len(b), h.What)
	}
}

// randomStream is the disasm case: the sample NEFF with sg00/PE.bin replaced by 63 MB
// of random 64-byte words (every opcode, every layout, random operands), for
// `neffscope disasm --json`. Seeded, so every run writes the same file.
var randomStream = neffbuild.Hostile{Name: "random-stream", What: "a 63 MB engine stream of random words (disasm --json)", Build: func(s float64) []byte {
	n := max(1, int(float64(63_000_000/64)*s)) * 64
	words := make([]byte, n)
	r := rand.New(rand.NewPCG(15, 15))
	for i := 0; i+8 <= n; i += 8 {
		v := r.Uint64()
		for k := range 8 {
			words[i+k] = byte(v >> (8 * k))
		}
	}
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "sg00/PE.bin" {
			m.Data = words
		}
		ms = append(ms, m)
	}
	return neffbuild.Bytes(ms, neffbuild.Options{})
}}

// jsonWideB is json-wide with its last value 1 instead of 0: `neffscope diff json-wide.neff
// json-wide-b.neff` compares two 60 MiB JSON members value by value.
var jsonWideB = neffbuild.Hostile{Name: "json-wide-b", What: "json-wide with its last value changed (for diff)", Build: func(s float64) []byte {
	n := max(1, int64(float64(30<<20)*s))
	body := io.LimitReader(&zeros{}, 2*n-1)
	return neffbuild.Bytes([]neffbuild.Member{{Path: "neff.json", Reader: io.MultiReader(strings.NewReader("["), body, strings.NewReader("1]")), Size: 2*n + 2}},
		neffbuild.Options{GzipLevel: gzip.BestCompression})
}}

// zeros reads "0,0,0,…".
type zeros struct{ pos int }

func (z *zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "0,"[(z.pos+i)%2]
	}
	z.pos += len(p)
	return len(p), nil
}
