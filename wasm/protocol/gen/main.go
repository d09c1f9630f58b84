// Command gen writes the page's view of the protocol table (protocol.JS) to a file:
// `go generate ./wasm/...` runs it.
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/neffscope/neffscope/wasm/protocol"
)

func main() {
	out := flag.String("o", "", "the file to write")
	flag.Parse()
	if *out == "" {
		log.Fatal("gen: -o FILE is required")
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, protocol.JS(), 0o644); err != nil {
		log.Fatal(err)
	}
}
