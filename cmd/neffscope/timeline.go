package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/timeline"
)

func init() {
	commands["timeline"] = command{"time per instruction, engine, DMA queue and kernel line: measured from a device profile (NTFF), estimated from the NEFF", runTimeline}
}

// estimate is the static estimate of a NEFF's timeline (core/timeline's cost model,
// timeline_estimate.go); nil when the file has no program to estimate.
var estimate func(f *inspect.File) *timeline.Schedule

// runTimeline prints the contract's Report (--json) or its summary for a person. Exit 1 when an
// error finding was printed (a profile of another NEFF, a file cut short), 2 on trouble (bad
// usage, a file that cannot be read or is neither a NEFF nor a profile).
func runTimeline(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("timeline", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object: the measured part (with a profile) and the estimated part (for a NEFF), by the timeline contract")
	prof := fs.String("ntff", "", "the device profile (NTFF) captured from FILE.neff")
	top := fs.Int("top", 10, "how many kernel lines and instructions the text lists")
	files, rc := openInputs(fs, args, stderr, "usage: neffscope timeline [--json] [--ntff PROFILE.ntff] FILE.neff\n       neffscope timeline [--json] PROFILE.ntff\n\n"+exitHelp+"\n", 1, 1, func() bool { return *top >= 0 },
		// The JSON of a NEFF alone has no kernel lines: the .dbg scans are left out.
		func(o *inspect.Options) { o.DeferSource = *asJSON && *prof == "" })
	if files == nil {
		return rc
	}
	f := files[0]
	limits, rc := relayLimits(stderr, f, *asJSON)
	rep := &timeline.Report{}
	var res *timeline.Result
	var est *timeline.Schedule
	var neff *inspect.File
	switch {
	case f.NTFF != nil && *prof != "":
		fmt.Fprintf(stderr, "neffscope: %s is a device profile; --ntff goes with a NEFF: neffscope timeline --ntff %s FILE.neff\n", safe(f.Name), safe(f.Name))
		return 2
	case f.NTFF != nil:
		res = timeline.Measure(f.NTFF, nil, f.Budget)
		rep.NEFFUUID = f.NTFF.UUIDString()
	case f.Program == nil:
		return notReadable(stderr, f, fmt.Sprintf("%s is neither a NEFF with a program nor a device profile (it is read as %s)", safe(f.Name), f.Doc.Kind))
	default:
		neff = f
		rep.NEFFUUID = f.Archive.Header.UUIDString()
		if *prof != "" {
			pf, prc := openProfile(*prof, 0, stderr)
			if pf == nil {
				return prc
			}
			res = timeline.Measure(pf.NTFF, f, pf.Budget)
		}
		est = estimate(f)
	}
	if res != nil {
		rep.Measured = res.Measured
		for _, fd := range res.Measured.Findings {
			if fd.Severity == doc.Error {
				rc = 1
			}
		}
	}
	rc = max(rc, exitFor(f))
	if *asJSON {
		if err := writeTimelineJSON(jsonStdout(stdout), limits, rep, est); err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		return rc
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	printTimeline(w, f, neff, res, est, *prof, *top)
	return rc
}

// printTimeline is the summary a person reads: the window, each engine's busy and idle share,
// each DMA queue's rate, the checks, the kernel lines and instructions that took longest.
func printTimeline(w io.Writer, f, neff *inspect.File, res *timeline.Result, est *timeline.Schedule, prof string, top int) {
	name := safe(f.Name)
	if neff != nil && prof != "" {
		name += " with " + safe(prof)
	}
	if res == nil {
		fmt.Fprintf(w, "%s: no device profile given (--ntff PROFILE.ntff): nothing measured\n", name)
		printEstimated(w, neff, est, nil, top)
		return
	}
	m := res.Measured
	pi := m.Profile
	fmt.Fprintf(w, "%s: NTFF %d, runtime %s, %s\n", name, pi.Version, pi.Runtime, pi.InstanceType)
	if len(m.Cores) == 0 {
		for _, fd := range m.Findings {
			fmt.Fprintf(w, "%s: [%s] %s\n", fd.Severity, fd.Code, safeMsg(fd.Message))
		}
		return
	}
	win := m.WindowPS[1] - m.WindowPS[0]
	what := "the NEFF's instructions"
	if !m.Joined {
		what = "the loaded images' words (no NEFF: rows are image positions)"
	}
	fmt.Fprintf(w, "measured: window %s (%d … %d ps), %s\n", ntff.Micros(win), m.WindowPS[0], m.WindowPS[1], what)
	for _, c := range m.Cores {
		fmt.Fprintf(w, "\n%s (NeuronCore %d)\n", c.Core, c.NeuronCore)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  engine\tinstructions\ttimed\tbusy\tbusy %\tidle %\truntime words\truntime busy\t")
		for _, e := range c.Engines {
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%s\t%s\t%d+%d\t%s\t\n", e.Engine, e.Instructions, e.Timed, ntff.Micros(e.BusyPS), share(e.BusyPS, win), share(win-min(win, e.BusyPS), win), e.Runtime.PreambleWords, e.Runtime.PostambleWords, ntff.Micros(e.Runtime.BusyPS))
		}
		tw.Flush()
		if len(c.Queues) > 0 {
			tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(tw, "  DMA queue\tpackets\tbytes\tbusy\tGB/s\t")
			for _, q := range c.Queues {
				fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%.1f\t\n", safe(q.Queue), q.Packets, q.Bytes, ntff.Micros(q.BusyPS), q.GBps)
			}
			tw.Flush()
		}
	}
	printChecks(w, m)
	if m.Joined {
		printLines(w, m.Lines, top)
	}
	printLongest(w, res, neff, top)
	if neff != nil {
		printEstimated(w, neff, est, m, top)
	}
	for _, fd := range m.Findings {
		if fd.Code == doc.CodeNTFFWaitMetInside {
			continue // counted in the checks line; --json lists each
		}
		fmt.Fprintf(w, "%s: [%s] %s\n", fd.Severity, fd.Code, safeMsg(fd.Message))
	}
}

func share(a, b uint64) string {
	if b == 0 {
		return "-"
	}
	return strconv.FormatFloat(100*float64(a)/float64(b), 'f', 1, 64)
}

// printChecks is the consistency checks in one paragraph (spec ntff.md §5).
func printChecks(w io.Writer, m *timeline.Measured) {
	ck := m.Checks
	var parts []string
	if m.Joined {
		parts = append(parts,
			fmt.Sprintf("waits %d in order, %d met inside, %d violated (%d untimed)", ck.WaitsInOrder, ck.WaitsMetInside, ck.WaitsViolated, ck.WaitsUntimed),
			fmt.Sprintf("DMA waits %d confirmed, %d undecidable, %d contradicted", ck.DMAWaits.Confirmed, ck.DMAWaits.Undecidable, ck.DMAWaits.Contradicted),
			fmt.Sprintf("semaphore totals %d of %d exact", ck.Semaphores.Exact, ck.Semaphores.Checked))
		exact := 0
		for _, d := range ck.DMABytes {
			if d.Exact {
				exact++
			}
		}
		parts = append(parts, fmt.Sprintf("DMA bytes exact on %d of %d program queues", exact, len(ck.DMABytes)),
			fmt.Sprintf("images equal the NEFF on %d of %d streams", ck.Image.Joined, ck.Image.Streams))
	}
	win := "window = first core's execution time"
	if !ck.Window.Equal {
		win = "window ≠ first core's execution time"
	}
	parts = append(parts, win)
	on, all := 0, 0
	for _, q := range ck.Quanta {
		on, all = on+q.OnQuantum, all+q.Words
	}
	if all > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d durations whole clock cycles", on, all))
	}
	fmt.Fprintf(w, "\nchecks: %s\n", strings.Join(parts, "; "))
}

// printLines lists the kernel lines that took longest.
func printLines(w io.Writer, lines []timeline.LineTime, top int) {
	if len(lines) == 0 {
		fmt.Fprintln(w, "\nkernel lines: the NEFF has no source lines (.dbg debug info)")
		return
	}
	n := min(top, len(lines))
	fmt.Fprintf(w, "\nkernel lines by measured time (top %d of %d; time = the sum of their instructions' durations):\n", n, len(lines))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, l := range lines[:n] {
		var eng []string
		for e, ps := range l.PerEngine {
			eng = append(eng, e+" "+ntff.Micros(ps))
		}
		sort.Strings(eng)
		fmt.Fprintf(tw, "  %s\t%s\t%d instructions\t%s\n", safe(l.Name()), ntff.Micros(l.TimePS), l.Instructions, strings.Join(eng, ", "))
	}
	tw.Flush()
}

// longRow is one row of the longest-instructions list.
type longRow struct {
	core, engine string
	index        int32
	dur, from    uint64
}

// printLongest lists the instructions (or image words) that took longest.
func printLongest(w io.Writer, res *timeline.Result, neff *inspect.File, top int) {
	m := res.Measured
	var rows []longRow
	for _, c := range m.Cores {
		for _, e := range c.Engines {
			for _, r := range e.Rows {
				rows = append(rows, longRow{c.Core, e.Engine, r.Index, r.EndPS - r.StartPS, r.StartPS - m.WindowPS[0]})
			}
		}
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].dur > rows[b].dur })
	rows = rows[:min(top, len(rows))]
	if len(rows) == 0 {
		return
	}
	what := "instructions"
	if !m.Joined {
		what = "image words"
	}
	fmt.Fprintf(w, "\nlongest %s (top %d; start from the window's start):\n", what, len(rows))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		op, line := rowWord(res, neff, r)
		fmt.Fprintf(tw, "  %s %s #%d\t%s\t%s\tat %s\t%s\n", r.core, r.engine, r.index, op, ntff.Micros(r.dur), ntff.Micros(r.from), line)
	}
	tw.Flush()
}

// rowWord names a row's opcode and, for a NEFF, its kernel line.
func rowWord(res *timeline.Result, neff *inspect.File, r longRow) (op, line string) {
	if neff != nil && neff.Program != nil {
		for _, ps := range neff.Program.Streams {
			if ps.Core.Name != r.core || ps.Engine.Name != r.engine || ps.ISA == nil {
				continue
			}
			if word := ps.ISA.Word(int(r.index)); word != nil {
				op = isa.OpcodeName(word[0])
			}
			if src := neff.Program.Source.Source(ps.Member, int(r.index)); src != nil && src.Line > 0 {
				line = path.Base(src.File) + ":" + strconv.Itoa(src.Line)
			}
		}
		return op, line
	}
	p := res.Profile
	for _, c := range p.Cores {
		for _, im := range c.Images {
			if c.Name != r.core || ntff.EngineName(im.Engine) != r.engine {
				continue
			}
			if word := p.Word(im, int(r.index)); word != nil {
				op = isa.OpcodeName(word[0])
			}
			switch l := im.Layout(); {
			case l.Problem != "":
			case int(r.index) < l.Preamble:
				line = "(runtime preamble)"
			case int(r.index) >= im.Words-l.Postamble:
				line = "(runtime postamble)"
			}
		}
	}
	return op, line
}
