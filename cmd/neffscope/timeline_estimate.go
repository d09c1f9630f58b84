package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/core/timeline"
)

// The estimated part of `neffscope timeline`: the static cost model's schedule of a NEFF
// (core/timeline), printed beside what it does not cover and its measured error.

func init() {
	estimate = func(f *inspect.File) *timeline.Schedule {
		in := timeline.InputOf(f)
		if in == nil {
			return nil
		}
		return timeline.Estimate(*in, f.Budget)
	}
}

// estimateWith is the estimate of f on the sync model m the command built (nil: none).
func estimateWith(f *inspect.File, m *sched.Model) *timeline.Schedule {
	in := timeline.InputWith(f, m)
	if in == nil {
		return nil
	}
	return timeline.Estimate(*in, f.Budget)
}

// estimatedColumns are export's estimated_start_ps and estimated_end_ps of instruction i of
// engine k (nil: the core is not estimated, or the instruction never runs).
func estimatedColumns(cs *timeline.CoreSchedule, k, i int) (start, end *int64) {
	if cs == nil || k >= len(cs.Engines) || i >= len(cs.Engines[k].Start) || cs.Engines[k].Start[i] < 0 {
		return nil, nil
	}
	s, e := cs.Engines[k].Start[i], cs.Engines[k].End(i)
	return &s, &e
}

// writeTimelineJSON writes the contract's object: the findings of the open, the NEFF's UUID,
// the measured part as encoding/json writes it, and the estimated part streamed a row at a
// time (a big NEFF has millions).
func writeTimelineJSON(w io.Writer, limits []fileFinding, rep *timeline.Report, est *timeline.Schedule) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	member := func(first bool, key string, v any) error {
		if !first {
			bw.WriteString(",\n ")
		}
		bw.WriteString(strconv.Quote(key) + ": ")
		b, err := json.MarshalIndent(v, " ", " ")
		bw.Write(b)
		return err
	}
	bw.WriteString("{\n ")
	first := true
	if len(limits) > 0 {
		if err := member(first, "findings", limits); err != nil {
			return err
		}
		first = false
	}
	if rep.NEFFUUID != "" {
		if err := member(first, "neff_uuid", rep.NEFFUUID); err != nil {
			return err
		}
		first = false
	}
	if rep.Measured != nil {
		if err := member(first, "measured", rep.Measured); err != nil {
			return err
		}
		first = false
	}
	if est != nil {
		if !first {
			bw.WriteString(",\n ")
		}
		est.Against(rep.Measured) // each row's error, with a profile of the NEFF
		bw.WriteString(`"estimated": `)
		if err := timeline.WriteEstimatedJSON(bw, est); err != nil {
			return err
		}
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}

// printEstimated is the estimate a person reads: per core the span and what the model could
// not follow, per engine its busy share and what it stood idle for, and the critical path by
// kernel line; and, before any figure, the model's error and what it does not cover.
func printEstimated(w io.Writer, neff *inspect.File, est *timeline.Schedule, m *timeline.Measured, top int) {
	if neff == nil {
		return
	}
	if est == nil {
		fmt.Fprintln(w, "\nestimated: the NEFF has no program to estimate")
		return
	}
	info := timeline.Model(est.Target)
	fmt.Fprintf(w, "\nestimated from the NEFF alone (static cost model at %s clocks). %s\n", safe(est.Target), modelCaveat(info))
	est.Against(m)
	for _, cs := range est.Cores {
		printEstimatedCore(w, neff, cs, top)
		printAgainstProfile(w, cs, m)
	}
}

// printAgainstProfile holds a core's estimate to the profile given with it: the estimate's
// error on this kernel, figure by figure, as docs/estimate.md measures it.
func printAgainstProfile(w io.Writer, cs *timeline.CoreSchedule, m *timeline.Measured) {
	if m == nil || !m.Joined || cs.SpanPS <= 0 {
		return
	}
	for i := range m.Cores {
		mc := &m.Cores[i]
		if mc.Core != cs.Name {
			continue
		}
		ke, blocked := timeline.Compare(cs, mc)
		var busy []string
		for _, e := range cs.Engines {
			if v, ok := ke.Busy[e.Name]; ok {
				busy = append(busy, fmt.Sprintf("%s %+.1f %%", e.Name, 100*v))
			}
		}
		attributed := "no wait the device shows blocked on another engine"
		if blocked > 0 {
			attributed = fmt.Sprintf("%.1f %% of the %d waits the device shows blocked on another engine blamed on that producer", 100*ke.Attributed, blocked)
		}
		fmt.Fprintf(w, "  against this profile: span %+.1f %%; busy %s; %s\n", 100*ke.Span, strings.Join(busy, ", "), attributed)
		printRowErrors(w, cs)
	}
}

// printRowErrors is how far each engine's instructions are from their measured times: over the
// instructions with both, the median and 90th percentile of |start error| (each side from its
// core's first start) and of |duration error|.
func printRowErrors(w io.Writer, cs *timeline.CoreSchedule) {
	if cs.RowErrors == nil {
		return
	}
	fmt.Fprintln(w, "  per instruction, estimate against measured (|start error| from the core's first start; |duration error|):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "    engine\tcompared\tstart median\tstart p90\tduration median\tduration p90\t")
	for k, e := range cs.RowErrors.Summary {
		if e.Rows == 0 {
			continue
		}
		fmt.Fprintf(tw, "    %s\t%d\t%s\t%s\t%s\t%s\t\n", cs.Engines[k].Name, e.Rows, ntff.Micros(uint64(e.StartMedianPS)), ntff.Micros(uint64(e.StartP90PS)),
			ntff.Micros(uint64(e.DurationMedianPS)), ntff.Micros(uint64(e.DurationP90PS)))
	}
	tw.Flush()
}

// modelCaveat says, in a sentence or two, how wrong the estimate was where it was checked and
// what it leaves out.
func modelCaveat(info timeline.ModelInfo) string {
	e := info.Error
	var busy []string
	for _, eng := range []string{"PE", "Activation", "DVE", "Pool", "SP"} {
		if v, ok := e.Busy[eng]; ok {
			busy = append(busy, fmt.Sprintf("%s %.0f %%", eng, 100*v))
		}
	}
	return fmt.Sprintf("Measured error (leave-one-out on %d profiled kernels of one family, one runtime build): span within %.0f %%, busy within %s; "+
		"waits blamed on the right producer %.0f %%. Not modelled: %s.",
		len(e.ValidatedOn), 100*e.Span, strings.Join(busy, ", "), 100*e.Attributed, strings.Join(info.NotCovered, "; "))
}

func printEstimatedCore(w io.Writer, neff *inspect.File, cs *timeline.CoreSchedule, top int) {
	span := uint64(max(cs.SpanPS, 0))
	fmt.Fprintf(w, "\n%s: estimated span %s\n", cs.Name, ntff.Micros(span))
	var notes []string
	if cs.Limit {
		notes = append(notes, "not estimated: the memory budget refused its tables (raise --max-memory)")
	}
	if cs.OrderUnknown {
		notes = append(notes, "the sync model could not follow the program order: no wait holds anything back, the times are a floor")
	} else if cs.WaitsUnmodelled > 0 {
		notes = append(notes, fmt.Sprintf("%d waits the sync model could not tie to a producer hold nothing back (the times after them are a floor)", cs.WaitsUnmodelled))
	}
	if cs.NeverRun > 0 {
		notes = append(notes, fmt.Sprintf("%d instructions never run (behind a deadlock or a hang: neffscope sync)", cs.NeverRun))
	}
	if cs.Uncosted > 0 {
		notes = append(notes, fmt.Sprintf("%d instructions costed by their engine's default (no row of their own: %s)", cs.Uncosted, countsText(cs.UncostedOps, 4)))
	}
	if cs.DMAUnsized > 0 {
		notes = append(notes, fmt.Sprintf("%d DMA transfers of unknown size (one small element each)", cs.DMAUnsized))
	}
	for _, n := range notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if span == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  engine\tbusy\tbusy %\tidle, by what it waited for")
	for k := range cs.Engines {
		es := &cs.Engines[k]
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", es.Name, ntff.Micros(uint64(es.BusyPS)), share(uint64(es.BusyPS), span), idleText(es.Idle, span, 4))
	}
	tw.Flush()
	printCriticalPath(w, neff, cs, top)
}

// countsText lists the n largest counts, "name ×count".
func countsText(m map[string]int, n int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		if m[keys[a]] != m[keys[b]] {
			return m[keys[a]] > m[keys[b]]
		}
		return keys[a] < keys[b]
	})
	var parts []string
	for i, k := range keys {
		if i == n {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, safe(k)+" ×"+strconv.Itoa(m[k]))
	}
	return strings.Join(parts, ", ")
}

// idleText lists the largest idle causes with their share of the span.
func idleText(idle []timeline.IdleCause, span uint64, n int) string {
	var parts []string
	for i, c := range idle {
		if i == n {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, idleCauseName(c)+" "+share(uint64(c.PS), span)+" %")
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

func idleCauseName(c timeline.IdleCause) string {
	switch c.Reason {
	case timeline.WaitedSemaphore:
		return "on " + safe(c.Engine)
	case timeline.WaitedDMA:
		return "on DMA " + safe(c.DMA)
	case timeline.WaitedEngine:
		return "issuing"
	case timeline.IdleDone:
		return "done"
	}
	return safe(c.Reason)
}

// pathLine is one kernel line's share of the critical path.
type pathLine struct {
	name         string
	ps, dma      int64
	instructions int
}

// printCriticalPath summarises the critical path by kernel line: each instruction on it is
// charged the time the path advanced while it ran, and a DMA transfer on it is charged to the
// line of the instruction that started it.
func printCriticalPath(w io.Writer, neff *inspect.File, cs *timeline.CoreSchedule, top int) {
	if len(cs.Critical) == 0 {
		return
	}
	members := map[int16]string{}
	for _, ps := range neff.Program.Streams {
		if ps.Core.Name != cs.Name {
			continue
		}
		for k := range cs.Engines {
			if cs.Engines[k].Name == ps.Engine.Name {
				members[int16(k)] = ps.Member
			}
		}
	}
	lineOf := func(a sched.At) string {
		if src := neff.Program.Source.Source(members[a.Engine], int(a.Index)); src != nil && src.Line > 0 {
			return path.Base(src.File) + ":" + strconv.Itoa(src.Line)
		}
		return "(no kernel line)"
	}
	byLine := map[string]*pathLine{}
	add := func(name string, ps, dma int64) {
		l := byLine[name]
		if l == nil {
			l = &pathLine{name: name}
			byLine[name] = l
		}
		l.ps += ps
		l.dma += dma
	}
	var prevEnd int64
	var prev sched.At
	var dmaTotal int64
	for k, a := range cs.Critical {
		es := &cs.Engines[a.Engine]
		start, end := es.Start[a.Index], es.End(int(a.Index))
		if k == 0 {
			prevEnd = start
		}
		name := lineOf(a)
		byLine[name] = byLineEntry(byLine, name)
		byLine[name].instructions++
		if gap := start - prevEnd; gap > 0 && k > 0 && es.Cause[a.Index] >= 0 && cs.Model.Waits[es.Cause[a.Index]].Queue >= 0 {
			add(lineOf(prev), gap, gap) // a DMA transfer: the triggering line's
			dmaTotal += gap
			prevEnd = start
		}
		if end > prevEnd {
			add(name, end-prevEnd, 0)
			prevEnd = end
		}
		prev = a
	}
	lines := make([]*pathLine, 0, len(byLine))
	for _, l := range byLine {
		lines = append(lines, l)
	}
	sort.Slice(lines, func(a, b int) bool {
		if lines[a].ps != lines[b].ps {
			return lines[a].ps > lines[b].ps
		}
		return lines[a].name < lines[b].name
	})
	n := min(top, len(lines))
	span := uint64(max(cs.SpanPS, 1))
	fmt.Fprintf(w, "  critical path: %d instructions, %s of it in DMA transfers; by kernel line (top %d of %d):\n", len(cs.Critical), ntff.Micros(uint64(dmaTotal)), n, len(lines))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, l := range lines[:n] {
		dma := ""
		if l.dma > 0 {
			dma = "of it DMA " + ntff.Micros(uint64(l.dma))
		}
		fmt.Fprintf(tw, "    %s\t%s\t%s %%\t%d on the path\t%s\n", safe(l.name), ntff.Micros(uint64(l.ps)), share(uint64(l.ps), span), l.instructions, dma)
	}
	tw.Flush()
}

func byLineEntry(m map[string]*pathLine, name string) *pathLine {
	if l := m[name]; l != nil {
		return l
	}
	return &pathLine{name: name}
}
