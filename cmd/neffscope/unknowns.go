package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/inspect"
)

func init() {
	commands["unknowns"] = command{"list every assumption made where the spec marks a point unknown", runUnknowns}
}

func runUnknowns(args []string, stdout, stderr io.Writer) int {
	all := inspect.Unknowns(fleet.Unknowns)
	if len(args) > 1 || len(args) == 1 && args[0] != "--json" {
		fmt.Fprintf(stderr, "usage: neffscope unknowns [--json]\n\nexit status: 0, or 2 on bad usage\n")
		if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
			return 0
		}
		return 2
	}
	if len(args) == 1 {
		b, _ := json.MarshalIndent(all, "", "  ")
		fmt.Fprintf(jsonStdout(stdout), "%s\n", b)
		return 0
	}
	for _, u := range all {
		fmt.Fprintf(stdout, "%s  [%s; confidence %s]\n  unknown: %s\n  assumed: %s\n\n", u.ID, u.Spec, u.Confidence, u.Question, u.Assumption)
	}
	return 0
}
