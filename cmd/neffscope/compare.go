package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
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
	width := fs.Int("width", 120, "fit the table in this many columns (long values are elided in the middle; --json keeps them whole)")
	files, rc := openInputs(fs, args, stderr, "usage: neffscope compare [--json] [--all] A.neff B.neff [C.neff…]\n\nexit status: 0 all the same, 1 some differ (or an error finding printed), 2 trouble (bad usage, a FILE that cannot be read, an output not written)", 2, 0, nil)
	if files == nil {
		return rc
	}
	c := fleet.Compare(files)
	addFileErrors(c, files, *asJSON)
	lrc := relayOnto(c, files, stderr, *asJSON)
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
		fmt.Fprintf(jsonStdout(stdout), "%s\n", b)
	} else {
		fmt.Fprint(stdout, wrap(c.Value, *width, ""))
		for _, f := range c.Child("files").Children {
			fmt.Fprint(stdout, wrap(fmt.Sprintf("  %s: %s", f.Label, f.Value), *width, "      "))
		}
		for _, fd := range c.Findings {
			fmt.Fprintf(stdout, "%s: %s\n", fd.Severity, fd.Message)
		}
		fmt.Fprintln(stdout)
		var rows [][]string
		for _, r := range facts.Table.Rows {
			if *all || r[len(r)-2] != "" {
				rows = append(rows, r)
			}
		}
		cols := facts.Table.Columns
		if !*all {
			// Every row shown differs: the "differs" column would say "yes" on each.
			cols, rows = dropColumn(cols, len(cols)-2), dropColumnRows(rows, len(cols)-2)
		}
		widths := fitColumns(cols, rows, *width, 2)
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, joinTab(fitCells(cols, widths)))
		for _, r := range rows {
			fmt.Fprintln(tw, joinTab(fitCells(r, widths)))
		}
		tw.Flush()
	}
	if differ || treeHasError(c) || lrc != 0 {
		return 1
	}
	return 0
}

// elide shortens s to n runes by cutting its middle: the ends of a path or a hash tell values
// apart, and --json keeps them whole.
func elide(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n || n < 5 {
		return s
	}
	head := (n - 1) / 2
	return string(rs[:head]) + "…" + string(rs[len(rs)-(n-1-head):])
}

// fitColumns gives each column a width so that the table, with gap spaces between columns,
// fits in total: each column wants its widest cell; while the sum is over, the widest column
// gives up one rune (none goes below 8, or its header).
func fitColumns(header []string, rows [][]string, total, gap int) []int {
	w := make([]int, len(header))
	for i, h := range header {
		w[i] = len([]rune(h))
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(w) {
				w[i] = max(w[i], len([]rune(c)))
			}
		}
	}
	// Value columns give way first, down to 12 runes (a short hash); then any column, to 8.
	floor := func(i int) int { return max(8, len([]rune(header[i]))) }
	sum := func() int {
		s := gap * (len(w) - 1)
		for _, x := range w {
			s += x
		}
		return s
	}
	shrink := func(first, least int) bool {
		widest := -1
		for i := first; i < len(w); i++ {
			if w[i] > max(least, floor(i)) && (widest < 0 || w[i] > w[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			return false
		}
		w[widest]--
		return true
	}
	for sum() > total && shrink(1, 12) {
	}
	for sum() > total && shrink(0, 8) {
	}
	return w
}

// wrap breaks s into lines of at most n runes at spaces, the lines after the first indented.
func wrap(s string, n int, indent string) string {
	var b strings.Builder
	line := 0
	for i, word := range strings.Split(s, " ") {
		wl := len([]rune(word))
		if i > 0 {
			if line+1+wl > n {
				b.WriteString("\n" + indent)
				line = len(indent)
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(word)
		line += wl
	}
	b.WriteByte('\n')
	return b.String()
}

// fitCells elides each cell to its column's width.
func fitCells(r []string, widths []int) []string {
	out := make([]string, len(r))
	for i, c := range r {
		if i < len(widths) {
			c = elide(c, widths[i])
		}
		out[i] = c
	}
	return out
}

func dropColumn(r []string, i int) []string {
	return append(append([]string{}, r[:i]...), r[i+1:]...)
}

func dropColumnRows(rows [][]string, i int) [][]string {
	out := make([][]string, len(rows))
	for k, r := range rows {
		out[k] = dropColumn(r, i)
	}
	return out
}
