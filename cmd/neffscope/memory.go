package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
)

// printMemory prints the static device-memory budget as the runtime's memory table: one block
// per core, one row per category, and the method under it.
func printMemory(w io.Writer, mb *inspect.MemoryBudget) {
	if mb == nil {
		return
	}
	fmt.Fprintf(w, "Device memory (static estimate, %s in all):\n", neff.HumanSize(mb.Total))
	for _, c := range mb.Cores {
		fmt.Fprintf(w, "  %s  %s\n", c.Core, neff.HumanSize(c.Total))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, it := range c.Items {
			fmt.Fprintf(tw, "    %s\t%d B\t%s\t%d summed\t\n", it.Category, it.Bytes, neff.HumanSize(it.Bytes), it.Count)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "  method: %s\n", mb.Method)
	if len(mb.Cores) > 0 {
		for _, it := range mb.Cores[0].Items {
			fmt.Fprintf(w, "    %s: %s\n", it.Category, it.Method)
		}
	}
}
