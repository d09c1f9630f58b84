package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

func init() {
	commands["profile"] = command{"static engine profile: instruction mix, DMA per queue, SBUF reloads, HLO stats", runProfile}
}

// runProfile exits 1 when an error finding was printed (the file's own errors, such as a limit
// that stopped its open, are printed with the profile's findings), 2 on trouble.
func runProfile(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("profile", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the profile tree (tables) as JSON")
	asCSV := fs.Bool("csv", false, "print every table as CSV: each row starts with its section (engines, opcodes, dma, reloads, hlo)")
	files, ok := openInputs(fs, args, stderr, "usage: neffscope profile [--json | --csv] FILE", 1, 1, func() bool { return !*asJSON || !*asCSV })
	if !ok {
		return 2
	}
	f := files[0]
	p := inspect.Profile(f)
	addFileErrors(p, files)
	switch {
	case *asJSON:
		b, err := doc.NodeJSON(p, 2)
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		fmt.Fprintf(stdout, "%s\n", b)
	case *asCSV:
		cw := csv.NewWriter(stdout)
		for _, s := range p.Children {
			if s.Table == nil {
				continue
			}
			cw.Write(append([]string{"section"}, s.Table.Columns...))
			for _, r := range s.Table.Rows {
				cw.Write(append([]string{s.Label}, r...))
			}
		}
		cw.Flush()
		for _, fd := range p.Findings { // CSV has no place for them
			fmt.Fprintf(stderr, "%s: %s\n", fd.Severity, fd.Message)
		}
	default:
		fmt.Fprintf(stdout, "%s: %s\n", f.Name, p.Value)
		for _, s := range p.Children {
			fmt.Fprintf(stdout, "\n%s: %s\n", s.Label, s.Value)
			if s.Detail != "" {
				fmt.Fprintf(stdout, "  (%s)\n", s.Detail)
			}
			if s.Table == nil || len(s.Table.Rows) == 0 {
				continue
			}
			tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "  %s\n", joinTab(s.Table.Columns))
			for _, r := range s.Table.Rows {
				fmt.Fprintf(tw, "  %s\n", joinTab(r))
			}
			tw.Flush()
		}
		for _, fd := range p.Findings {
			fmt.Fprintf(stdout, "%s: %s\n", fd.Severity, fd.Message)
		}
	}
	if treeHasError(p) {
		return 1
	}
	return 0
}

func joinTab(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "\t"
		}
		out += x
	}
	return out
}
