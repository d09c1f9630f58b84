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
	if len(args) > 0 && args[0] == "--json" {
		b, _ := json.MarshalIndent(all, "", "  ")
		fmt.Fprintf(jsonStdout(stdout), "%s\n", b)
		return 0
	}
	for _, u := range all {
		fmt.Fprintf(stdout, "%s  [%s; confidence %s]\n  unknown: %s\n  assumed: %s\n\n", u.ID, u.Spec, u.Confidence, u.Question, u.Assumption)
	}
	return 0
}
