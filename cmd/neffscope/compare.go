package main

import (
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

func init() {
	commands["compare"] = command{"line up N NEFFs in one table and flag the one that differs (are ranks 0 and 1 the same NEFF?)", runCompare}
}

// runCompare exits 0 when every fact agrees, 1 when some differ (or an error finding was
// printed: a file whose own open reported an error), 2 on trouble.
func runCompare(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the comparison tree as JSON")
	all := fs.Bool("all", false, "print the facts that agree too")
	files, ok := openInputs(fs, args, stderr, "usage: neffscope compare [--json] [--all] A.neff B.neff [C.neff…]\n\nexit status: 0 all the same, 1 some differ (or an error finding printed), 2 trouble", 2, 0, nil)
	if !ok {
		return 2
	}
	c := inspect.Compare(files)
	addFileErrors(c, files)
	facts := c.Child("facts")
	differ := false
	for _, r := range facts.Table.Rows {
		if r[len(r)-2] != "" {
			differ = true
		}
	}
	if *asJSON {
		b, err := doc.NodeJSON(c, 2)
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else {
		fmt.Fprintln(stdout, c.Value)
		for _, f := range c.Child("files").Children {
			fmt.Fprintf(stdout, "  %s: %s\n", f.Label, f.Value)
		}
		for _, fd := range c.Findings {
			fmt.Fprintf(stdout, "%s: %s\n", fd.Severity, fd.Message)
		}
		fmt.Fprintln(stdout)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, joinTab(facts.Table.Columns))
		for _, r := range facts.Table.Rows {
			if *all || r[len(r)-2] != "" {
				fmt.Fprintln(tw, joinTab(clipCells(r, 48)))
			}
		}
		tw.Flush()
	}
	if differ || treeHasError(c) {
		return 1
	}
	return 0
}

// clipCells shortens long cells for the terminal (--json keeps them whole).
func clipCells(r []string, n int) []string {
	out := make([]string, len(r))
	for i, c := range r {
		if rs := []rune(c); len(rs) > n {
			c = string(rs[:n-1]) + "…"
		}
		out[i] = c
	}
	return out
}
