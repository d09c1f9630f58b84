package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

func init() {
	commands["profile"] = command{"static engine profile: instruction mix, DMA per queue, SBUF reloads, HLO stats (--by-line: per source line)", runProfile}
}

// runProfile exits 1 when an error finding was printed (the file's own errors, such as a limit
// that stopped its open, are printed with the profile's findings), 2 on trouble (a file that
// cannot be read or is not a NEFF among them).
func runProfile(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("profile", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the profile tree (tables) as JSON")
	asCSV := fs.Bool("csv", false, "print every table as CSV: each row starts with its section (engines, opcodes, dma, reloads, hlo)")
	byLine := fs.Bool("by-line", false, "instead, the kernel source lines × engines: instruction words each line produced, most first")
	top := fs.Int("top", 30, "with --by-line: how many lines (0: all)")
	prof := fs.String("ntff", "", ntffHelp+" (measured columns beside the static ones)")
	files, rc := openInputs(fs, args, stderr, "usage: neffscope profile [--json | --csv] [--by-line [--top N]] [--ntff PROFILE.ntff] FILE\n\n"+exitHelp+"\n", 1, 1, func() bool { return (!*asJSON || !*asCSV) && *top >= 0 })
	if files == nil {
		return rc
	}
	f := files[0]
	if f.Program == nil {
		return notReadable(stderr, f, fmt.Sprintf("%s has no resolvable program (it is read as %s): nothing to profile", safe(f.Name), f.Doc.Kind))
	}
	if *byLine {
		return profileByLine(f, *top, *asJSON, *asCSV, stdout, stderr)
	}
	p := inspect.Profile(f)
	mrc := 0
	if *prof != "" && f.Program != nil {
		res, rc := measuredFor(*prof, f, 0, stderr)
		if res == nil {
			return rc
		}
		measuredProfile(p, res, f)
		mrc = rc
	}
	addFileErrors(p, files, *asJSON)
	lrc := relayOnto(p, files, stderr, *asJSON)
	switch {
	case *asJSON:
		b, err := doc.NodeJSON(p, 2)
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		fmt.Fprintf(jsonStdout(stdout), "%s\n", b)
	case *asCSV:
		cw := newCSVWriter(stdout)
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
	if treeHasError(p) || lrc != 0 || mrc != 0 {
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

// profileByLine prints the hot lines (inspect.HotLinesOf): one row per kernel source line, its
// words per engine and in all, most first, the first top (0: all). Exit 1 when the open
// reported an error (the counts are of what it decoded) or the table was refused, 2 on trouble.
func profileByLine(f *inspect.File, top int, asJSON, asCSV bool, stdout, stderr io.Writer) int {
	h := inspect.HotLinesOf(f)
	errs := &doc.Node{}
	addFileErrors(errs, []*inspect.File{f}, asJSON)
	lrc := relayOnto(errs, []*inspect.File{f}, stderr, asJSON)
	switch {
	case h.Refused != "":
		errs.Errorf(doc.CodeBudgetMemory, nil, "%s: the source lines are not ranked: the table does not fit in what the %s limit leaves.", f.Name, h.Refused)
	case f.Program == nil || f.Program.Source == nil || len(f.Program.Source.Members) == 0:
		errs.Infof(doc.CodeSourceNoDebugInfo, nil, "%s has no .dbg debug info, so its instructions cannot be traced to kernel source lines.", f.Name)
	}
	all := len(h.Lines)
	if top > 0 && top < all {
		h.Lines = h.Lines[:top]
	}
	cols := append([]string{"line", "file", "kernel", "total"}, h.Engines...)
	row := func(l *inspect.HotLine) []string {
		r := []string{l.Name(), l.File, l.Kernel, strconv.Itoa(int(l.Total))}
		for _, c := range l.PerEngine {
			r = append(r, strconv.Itoa(int(c)))
		}
		return r
	}
	switch {
	case asJSON:
		out := struct {
			File     string `json:"file"`
			AllLines int    `json:"lines_in_all"` // every kernel line, before --top
			*inspect.HotLines
			Findings []doc.Finding `json:"findings,omitempty"`
		}{f.Name, all, h, errs.Findings}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		fmt.Fprintf(jsonStdout(stdout), "%s\n", b)
	case asCSV:
		cw := newCSVWriter(stdout)
		cw.Write(cols)
		for i := range h.Lines {
			cw.Write(row(&h.Lines[i]))
		}
		cw.Flush()
		for _, fd := range errs.Findings {
			fmt.Fprintf(stderr, "%s: %s\n", fd.Severity, fd.Message)
		}
	default:
		shown := ""
		if len(h.Lines) < all {
			shown = fmt.Sprintf(", the top %d", len(h.Lines))
		}
		fmt.Fprintf(stdout, "%s: %d instruction words on %d kernel source lines%s\n", f.Name, h.Words, all, shown)
		if len(h.Lines) > 0 {
			tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
			// The file column repeats the line's path: people read the base name in "line".
			fmt.Fprintf(tw, "%s\t%s\t\n", joinTab(cols[:1]), joinTab(append([]string{"total"}, h.Engines...)))
			for i := range h.Lines {
				r := row(&h.Lines[i])
				fmt.Fprintf(tw, "%s\t%s\t\n", r[0], joinTab(r[3:]))
			}
			tw.Flush()
		}
		for _, fd := range errs.Findings {
			fmt.Fprintf(stdout, "%s: %s\n", fd.Severity, fd.Message)
		}
	}
	if treeHasError(errs) || lrc != 0 {
		return 1
	}
	return 0
}
