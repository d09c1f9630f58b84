package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set by `make release` (-ldflags -X main.version=…); a build without it reports
// the module version Go recorded, or "dev".
var version = ""

func init() {
	commands["version"] = command{"print neffscope's version and the Go that built it", runVersion}
}

func runVersion(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "usage: neffscope version\n\nexit status: 0, or 2 on bad usage\n")
		if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
			return 0
		}
		return 2
	}
	fmt.Fprintf(stdout, "neffscope %s (%s, %s/%s)\n", versionString(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
