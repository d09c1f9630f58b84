// Command cmd writes core/hlo/schema_gen.go (go generate ./core/hlo).
package main

import (
	"fmt"
	"os"

	"github.com/neffscope/neffscope/core/hlo/internal/schemagen"
)

func main() {
	b, err := schemagen.Generate("proto")
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile("schema_gen.go", b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "schemagen:", err)
		os.Exit(1)
	}
}
