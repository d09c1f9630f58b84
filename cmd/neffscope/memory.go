package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
)

// printMemory prints the static device-memory budget as the runtime's memory table: the
// per-NEFF figures, then one block per core, one row per category with its figure once, and
// the method under it (withMethod; info leaves it to 'neffscope memory', to stay one screen).
// printMemory prints the budget; a core in unread (core → why) is said to be not known
// rather than shown as zeros.
func printMemory(w io.Writer, mb *inspect.MemoryBudget, withMethod bool, unread map[string]string) {
	if mb == nil {
		return
	}
	fig := func(bytes int64, over, atLeast bool) string {
		return inspect.MemoryFigure(bytes, over, atLeast, neff.HumanSize)
	}
	fmt.Fprintf(w, "Device memory (static estimate, %s in all):\n", fig(mb.Total, mb.Overflow, mb.AtLeast))
	block := func(label string, total string, items []*inspect.MemoryItem) {
		fmt.Fprintf(w, "  %s  %s\n", label, total)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		row := func(indent string, it *inspect.MemoryItem) {
			fmt.Fprintf(tw, "%s%s\t%s\t%d summed\t\n", indent, it.Category, fig(it.Bytes, it.Overflow, it.Bound == inspect.BoundAtLeast), it.Count)
		}
		for _, it := range items {
			row("    ", it)
			if withMethod { // info stays one screen: the split is 'neffscope memory''s
				for _, sub := range it.Sub {
					row("      ", sub)
				}
			}
		}
		tw.Flush()
	}
	for _, c := range append([]*inspect.CoreMemory{mb.NEFF}, mb.Cores...) {
		if why := unread[c.Core]; why != "" {
			fmt.Fprintf(w, "  %s  not known: %s\n", safe(c.Core), safeMsg(why))
			continue
		}
		block(safe(c.Core), fig(c.Total, c.Overflow, c.AtLeast), c.Items)
	}
	for _, fd := range mb.Findings {
		fmt.Fprintf(w, "  %s %s: %s\n", fd.Severity, fd.Code, fd.Message)
	}
	if !withMethod {
		fmt.Fprintln(w, "  ('neffscope memory' says how each figure is made)")
		return
	}
	fmt.Fprintf(w, "  method: %s\n", mb.Method)
	for _, it := range mb.NEFF.Items {
		fmt.Fprintf(w, "    %s: %s\n", it.Category, it.Method)
	}
	if len(mb.Cores) > 0 {
		for _, it := range mb.Cores[0].Items {
			fmt.Fprintf(w, "    %s: %s\n", it.Category, it.Method)
			for _, sub := range it.Sub {
				fmt.Fprintf(w, "      %s: %s\n", sub.Category, sub.Method)
			}
		}
	}
}

func init() {
	commands["memory"] = command{"the static device-memory budget in the runtime's categories, and how each figure is made", runMemory}
}

// runMemory prints the budget with its method (info prints it without), or as JSON: the same
// object as info --json's "memory".
func runMemory(args []string, stdout, stderr io.Writer) int {
	return forEachFile("memory", "print the budget as one JSON object per file", false, args, stderr, nil, func(f *inspect.File, asJSON bool) int {
		mb := inspect.Memory(f)
		if mb == nil {
			if asJSON {
				fmt.Fprintln(jsonStdout(stdout), "null")
			}
			return notReadable(stderr, f, safe(f.Name)+" has no program: no def.json the budget could be read from")
		}
		limits, rc := relayLimits(stderr, f, asJSON)
		// The budget is read from a file with errors of its own: they are said, as sync says them.
		for _, fd := range unrelayed(errorFindings(f)) {
			fmt.Fprintf(stderr, "neffscope: %s: error: %s\n", safe(f.Name), safeMsg(fd.Message))
			rc = 1
		}
		if asJSON {
			var v any = mb
			if len(limits) > 0 {
				v = struct {
					*inspect.MemoryBudget
					Findings []fileFinding `json:"findings"`
				}{mb, limits}
			}
			b, _ := json.MarshalIndent(v, "", "  ")
			fmt.Fprintf(jsonStdout(stdout), "%s\n", b)
			return rc
		}
		fmt.Fprintf(stdout, "%s\n", safe(f.Name))
		printMemory(stdout, mb, true, unreadCores(f))
		return rc
	})
}
