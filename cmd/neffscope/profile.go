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

func runProfile(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("profile", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the profile tree (tables) as JSON")
	asCSV := fs.Bool("csv", false, "print every table as CSV: each row starts with its section (engines, opcodes, dma, reloads, hlo)")
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope profile [--json | --csv] FILE")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 || *asJSON && *asCSV {
		fs.Usage()
		return 2
	}
	f, fh, err := openFile(fs.Arg(0), inspect.Options{MaxInflated: *maxInflate})
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	fh.Close()
	p := inspect.Profile(f)
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
	if doc.Worst(f.Doc.Findings()) == doc.Error {
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
