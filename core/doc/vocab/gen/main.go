// Command gen writes the page's vocabulary (vocab.JS) to a file: `go generate ./core/doc`
// runs it.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/neffscope/neffscope/core/doc/vocab"
)

func main() {
	root := flag.String("root", "../..", "the repository root")
	out := flag.String("o", "", "the file to write")
	flag.Parse()
	if *out == "" {
		log.Fatal("gen: -o FILE is required")
	}
	js, err := vocab.JS(*root)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, js, 0o644); err != nil {
		log.Fatal(err)
	}
}
