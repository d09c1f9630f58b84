package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
)

// tableSink is scan's output on a terminal: one aligned row per record, written as it comes
// (the widths are fixed, so nothing waits for the last record), file strings escaped.
type tableSink struct {
	w      io.Writer
	header bool
}

// scanColumns: title and width (the path column is elided from the left to its width).
var scanColumns = []struct {
	title string
	width int
	right bool
}{{"PATH", 56, false}, {"STATE", 11, false}, {"SIZE", 9, true}, {"COMPILER", 20, false}, {"TARGET", 6, false}, {"CORES", 5, true}, {"INSTR", 9, true}, {"FINDINGS", 0, false}}

func (s *tableSink) row(cells ...string) error {
	var b strings.Builder
	for i, c := range cells {
		col := scanColumns[i]
		if col.width > 0 {
			c = elide(c, col.width)
		}
		pad := max(0, col.width-len([]rune(c)))
		switch {
		case i == len(cells)-1:
			b.WriteString(c)
		case col.right:
			b.WriteString(strings.Repeat(" ", pad) + c + "  ")
		default:
			b.WriteString(c + strings.Repeat(" ", pad) + "  ")
		}
	}
	b.WriteByte('\n')
	_, err := io.WriteString(s.w, b.String())
	return err
}

func (s *tableSink) Write(r *fleet.ScanRecord) error {
	if !s.header {
		s.header = true
		titles := make([]string, len(scanColumns))
		for i, c := range scanColumns {
			titles[i] = c.title
		}
		if err := s.row(titles...); err != nil {
			return err
		}
	}
	var total int64
	for _, n := range r.Instructions {
		total += n
	}
	target := r.Instance
	if target == "" {
		target = r.Target
	}
	dash := func(s string) string {
		if s == "" {
			return "-"
		}
		return safe(s)
	}
	cores, instr := "-", "-"
	if r.Subgraphs > 0 {
		cores, instr = fmt.Sprint(r.Subgraphs), fmt.Sprint(total)
	}
	return s.row(safe(r.Path), entryState(r, time.Now()), humanBytes(r.Size), dash(r.Compiler), dash(target), cores, instr, findingsCell(r))
}

// staleAfter is how long a cache entry without model.done or model.log may go unchanged and
// still be taken as compiling. A guess: no source says how long the compiler may run (large
// graphs take over an hour: the Neuron cache docs say 30–60 minutes), and an entry's
// directory changes when the compile starts and when it ends, not while it runs.
const staleAfter = 6 * time.Hour

// entryState is the table's STATE: a cache entry's done or failed (fleet.CacheState), and an
// incomplete one in progress, or stale when its directory has not changed for staleAfter;
// "-" for a NEFF outside a cache (its FINDINGS say whether it reads).
func entryState(r *fleet.ScanRecord, now time.Time) string {
	if r.Cache == nil {
		return "-"
	}
	switch r.Cache.State {
	case fleet.CacheDone:
		return "done"
	case fleet.CacheFailed:
		return "failed"
	}
	if !r.Modified.IsZero() && now.Sub(r.Modified) > staleAfter {
		return "stale"
	}
	return "in progress"
}

func (s *tableSink) Close() error {
	if !s.header {
		_, err := io.WriteString(s.w, "no NEFFs found\n")
		return err
	}
	return nil
}

// findingsCell is "ok" or the error and warning counts, then the first problem (its code when
// the scan made it), then the duplicate it is. Info findings are left to --jsonl.
func findingsCell(r *fleet.ScanRecord) string {
	var parts []string
	for _, sev := range []string{doc.Error, doc.Warning} {
		if n := r.Findings[sev]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, sev))
		}
	}
	cell := "ok"
	if len(parts) > 0 {
		cell = strings.Join(parts, ", ")
	}
	if len(r.Problems) > 0 && (len(parts) > 0 || r.Problems[0].Code != "") {
		p := r.Problems[0]
		msg := p.Message
		if p.Code != "" {
			msg = string(p.Code)
		}
		cell += ": " + elide(safeMsg(msg), 60)
	}
	if r.DuplicateOf != nil {
		cell += " (duplicate of " + elide(safe(*r.DuplicateOf), 40) + ")"
	}
	return cell
}

// humanBytes is a size in B, KiB, MiB or GiB with one decimal.
func humanBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
