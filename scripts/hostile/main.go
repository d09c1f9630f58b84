// Command hostile writes issue 15's hostile NEFFs (neffbuild.HostileClasses) to a directory,
// for measuring the CLI by hand: go run ./scripts/hostile -o /tmp/hostile
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

func main() {
	out := flag.String("o", "hostile", "output directory")
	scale := flag.Float64("scale", 1, "size of each class relative to the issue's reproduction")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, h := range neffbuild.HostileClasses() {
		b := h.Build(*scale)
		p := filepath.Join(*out, h.Name+".neff")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%-14s %9d bytes  %s\n", h.Name, len(b), h.What)
	}
}
