package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/sched"
)

func init() {
	commands["codes"] = command{"list every finding code with its meaning (--json for scripts)", runCodes}
}

// codeRow is one line of `neffscope codes`: a finding code of a document (core/doc), or a
// lint or undecided code of the sync and memory model (core/sched, printed by sync and memmap).
type codeRow struct {
	Code    string `json:"code"`
	Meaning string `json:"meaning"`
	From    string `json:"from"` // "finding", "sync lint", "sync undecided"
}

func codeRows() []codeRow {
	var rows []codeRow
	for _, r := range doc.Codes {
		rows = append(rows, codeRow{string(r.Code), r.Meaning, "finding"})
	}
	for _, r := range sched.Codes {
		if r.Name == "" {
			continue // OK: a wait with its producer is no finding
		}
		from := "sync lint"
		if r.Class == sched.ClassUndecided {
			from = "sync undecided"
		}
		rows = append(rows, codeRow{r.Name, r.Meaning, from})
	}
	return rows
}

func runCodes(args []string, stdout, stderr io.Writer) int {
	asJSON := false
	for _, a := range args {
		switch a {
		case "--json":
			asJSON = true
		default:
			fmt.Fprintf(stderr, "usage: neffscope codes [--json]\n\nexit status: 0, or 2 on bad usage\n")
			if a == "-h" || a == "--help" || a == "-help" {
				return 0
			}
			return 2
		}
	}
	rows := codeRows()
	if asJSON {
		b, _ := json.MarshalIndent(rows, "", "  ")
		fmt.Fprintf(stdout, "%s\n", b)
		return 0
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r.Code))
	}
	for _, r := range rows {
		fmt.Fprintf(stdout, "%-*s  %s\n", width, r.Code, r.Meaning)
	}
	return 0
}
