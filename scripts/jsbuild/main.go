// Command jsbuild bundles the page's modules (www/src/) into www/app.js and www/worker.js.
//
//	go run ./scripts/jsbuild -www www
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/neffscope/neffscope/scripts/internal/jsbuild"
)

func main() {
	www := flag.String("www", "www", "the site's source directory")
	flag.Parse()
	written, err := jsbuild.Build(*www)
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsbuild:", err)
		os.Exit(1)
	}
	for _, p := range written {
		if st, err := os.Stat(p); err == nil {
			fmt.Printf("%s: %d bytes\n", p, st.Size())
		}
	}
}
