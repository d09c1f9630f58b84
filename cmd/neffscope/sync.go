package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"iter"
	"math"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/core/timeline"
)

func init() {
	commands["sync"] = command{"every wait tied to its producer; deadlock and sync lints per core (--json, --trace for Perfetto)", runSync}
}

// syncJSON is the `sync --json` contract, which scripts read. Beyond it: a lint names its second
// instruction in "other", a wait the model cannot decide has "undecided" (its code), and each
// core lists the undecided points' causes.
type syncJSON struct {
	Cores []syncCoreJSON `json:"cores"`
}

type syncCoreJSON struct {
	Core      string              `json:"core"`
	Waits     []syncWaitJSON      `json:"waits"`
	Lints     []syncLintJSON      `json:"lints"`
	Undecided []syncUndecidedJSON `json:"undecided"`
}

type syncWaitJSON struct {
	Engine    string       `json:"engine"`
	Index     int32        `json:"index"`
	Semaphore int32        `json:"semaphore"`
	Value     uint32       `json:"value"`
	Producer  *syncRefJSON `json:"producer"`
	Undecided string       `json:"undecided,omitempty"`
}

type syncRefJSON struct {
	Engine string `json:"engine"`
	Index  int32  `json:"index"`
	DMA    string `json:"dma,omitempty"`
}

type syncLintJSON struct {
	Code    string       `json:"code"`
	Engine  string       `json:"engine"`
	Index   int32        `json:"index"`
	Other   *syncRefJSON `json:"other,omitempty"`
	Message string       `json:"message"`
}

type syncUndecidedJSON struct {
	Code    string `json:"code"`
	Engine  string `json:"engine"`
	Index   int32  `json:"index"`
	Count   int    `json:"count"`
	Message string `json:"message"`
}

// runSync exits 1 when a lint (or an error of the file's own) was printed, 2 on trouble.
func runSync(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sync", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object: per core, every wait and its producer, the lints and what is undecided")
	trace := fs.String("trace", "", "write a Chrome trace (Perfetto, chrome://tracing) to this new `FILE`: a thread per engine, a slice per instruction at its earliest step (its args: operands, waits and producers, name and source line), an arrow from each producer to its waiter")
	force := fs.Bool("force", false, "let --trace replace an existing file (never a symlink, a NEFF or the FILE read)")
	prof := fs.String("ntff", "", ntffHelp+" (with --trace: the trace in real time, with DMA queues and semaphore counters)")
	estimated := fs.Bool("estimated", false, "with --trace: the trace in estimated time (the static cost model, as timeline shows it; each slice's args carry estimated_start_ps and estimated_end_ps)")
	r, rc := openModel(fs, args, "neffscope sync [--json] [--trace OUT.json [--force] [--ntff PROFILE.ntff | --estimated]] FILE", asJSON, (*inspect.File).Sched, stderr)
	if r == nil {
		return rc
	}
	defer r.close()
	m := r.m
	for _, c := range m.Cores {
		for _, w := range c.Waits {
			if w.Code.Class() == sched.ClassLint {
				rc = 1
			}
		}
	}
	if *trace != "" {
		if *estimated && *prof != "" {
			fmt.Fprintln(stderr, "neffscope: --estimated and --ntff each make a trace of their own: give one")
			return 2
		}
		mapSource(r.f)
		args, done := traceArgs(r.f)
		defer done()
		write := func(w io.Writer) error { return sched.WriteTrace(w, m, args) }
		if *prof != "" {
			res, mrc := measuredFor(*prof, r.f, r.maxInflate, stderr)
			if res == nil {
				return mrc
			}
			rc = max(rc, mrc)
			write = func(w io.Writer) error { return timeline.WriteTrace(w, m, res, args) }
		}
		if *estimated {
			est := estimateWith(r.f, m)
			write = func(w io.Writer) error { return timeline.WriteEstimatedTrace(w, est, args) }
		}
		if err := writeTraceFile(*trace, *force, r, write); err != nil {
			return reportOutputErr(stderr, err)
		}
	}
	out := stdout
	if *asJSON {
		out = jsonStdout(stdout)
	}
	bw := bufio.NewWriterSize(out, 1<<16)
	defer bw.Flush()
	switch {
	case *asJSON:
		writeSyncJSON(bw, m, r.limits)
		for _, fd := range r.fileErrs {
			fmt.Fprintf(stderr, "error: %s\n", safeMsg(fd.Message))
		}
	case *trace == "":
		printSync(bw, r.f.Name, m, unrelayed(r.fileErrs))
	}
	return rc
}

// writeTraceFile writes the model's Chrome trace to path through createOutput.
func writeTraceFile(path string, force bool, r *modelRun, write func(io.Writer) error) error {
	out, err := createOutput(path, outputRules{force: force, inputs: []string{r.f.Name}})
	if err != nil {
		return err
	}
	if err := write(out); err != nil {
		out.abort()
		return fmt.Errorf("writing %s: %w", safe(path), err)
	}
	return out.commit()
}

// traceArgs gives a trace's instruction slices what disasm shows of the instruction: its
// operands, its sync band, what the joins resolve (a queue, a table set), and from the debug
// info its name and kernel source line (the path as the debug info has it). The traces ask
// for an engine's instructions in order: each stream is read in one pass (a stream not held
// is not read again per window). done ends the passes.
func traceArgs(f *inspect.File) (args sched.SliceArgs, done func()) {
	p := f.Program
	if p == nil {
		return nil, func() {}
	}
	cursors := make(map[string]*wordCursor, len(p.Streams))
	for _, ps := range p.Streams {
		if ps.ISA != nil {
			cursors[ps.Member] = &wordCursor{ps: ps}
		}
	}
	var text []byte
	str := func(b []byte, key string, v []byte) []byte {
		if len(v) == 0 {
			return b
		}
		b = append(append(append(b, `,"`...), key...), `":`...)
		return doc.AppendJSONString(b, v, doc.JSONSafe)
	}
	args = func(b []byte, c *sched.Core, at sched.At) []byte {
		member, i := c.Engines[at.Engine].Member, int(at.Index)
		if cur := cursors[member]; cur != nil {
			if w := cur.word(i); w != nil {
				word := (*[isa.WordSize]byte)(w)
				b = str(b, "operands", isa.AppendSummary(text[:0], word))
				b = str(b, "sync", isa.AppendSyncText(text[:0], word))
				if isa.JoinOf(w[0]) != isa.JoinNone {
					b = str(b, "resolved", append(text[:0], p.Resolve(cur.ps, i, w).String()...))
				}
			}
		}
		if src := p.Source.Source(member, i); src != nil {
			b = str(b, "name", append(text[:0], src.BIR...))
			if src.Line > 0 {
				b = str(b, "source", strconv.AppendInt(append(append(text[:0], src.File...), ':'), int64(src.Line), 10))
			}
		}
		return b
	}
	return args, func() {
		for _, cur := range cursors {
			if cur.stop != nil {
				cur.stop()
			}
		}
	}
}

// wordCursor reads a stream's words in order in one pass (Stream.Words), and any word before
// the pass's place by Stream.Word.
type wordCursor struct {
	ps   *inspect.ProgramStream
	next func() (int, []byte, bool)
	stop func()
	i    int
	w    []byte
}

func (c *wordCursor) word(i int) []byte {
	if c.next == nil {
		c.next, c.stop = iter.Pull2(c.ps.ISA.Words())
		c.i = -1
	}
	if i < c.i {
		return c.ps.ISA.Word(i)
	}
	for c.i < i {
		k, w, ok := c.next()
		if !ok {
			c.i = math.MaxInt
			return c.ps.ISA.Word(i)
		}
		c.i, c.w = k, w
	}
	return c.w
}

func syncRef(c *sched.Core, a sched.At, queue int16) *syncRefJSON {
	if !a.Valid() {
		return nil
	}
	r := &syncRefJSON{Engine: c.EngineName(a), Index: a.Index}
	if queue >= 0 {
		r.DMA = c.Queues[queue]
	}
	return r
}

// writeSyncJSON streams the contract's object a wait and a lint at a time (a big NEFF has
// millions of waits, a hostile one hundreds of thousands of lints: each message is made,
// written and let go).
func writeSyncJSON(w *bufio.Writer, m *sched.Model, limits []fileFinding) {
	line := func(v any) {
		b, _ := json.Marshal(v)
		w.Write(b)
	}
	w.Write(appendFindingsMember([]byte("{"), limits, ""))
	w.WriteString("\"cores\": [")
	for k, c := range m.Cores {
		if k > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n{\"core\": ")
		line(c.Name)
		w.WriteString(",\n \"waits\": [")
		for i, wt := range c.Waits {
			if i > 0 {
				w.WriteString(",")
			}
			j := syncWaitJSON{Engine: c.EngineName(wt.At), Index: wt.Index, Semaphore: wt.Sem, Value: wt.Value}
			switch wt.Code.Class() {
			case sched.ClassOK:
				j.Producer = syncRef(c, wt.Producer, wt.Queue)
			case sched.ClassUndecided:
				j.Undecided = wt.Code.String()
			}
			w.WriteString("\n  ")
			line(j)
		}
		w.WriteString("],\n \"lints\": [")
		lints := 0
		for _, wt := range c.Waits {
			if wt.Code.Class() != sched.ClassLint {
				continue
			}
			if lints > 0 {
				w.WriteString(",")
			}
			lints++
			w.WriteString("\n  ")
			line(syncLintJSON{Code: wt.Code.String(), Engine: c.EngineName(wt.At), Index: wt.Index, Other: syncRef(c, wt.Other, -1), Message: c.Message(wt)})
		}
		w.WriteString("],\n \"undecided\": ")
		und := []syncUndecidedJSON{}
		for _, u := range c.Undecided {
			und = append(und, syncUndecidedJSON{Code: u.Code.String(), Engine: c.EngineName(u.At), Index: u.At.Index, Count: u.Count, Message: c.IssueMessage(u)})
		}
		line(und)
		w.WriteString("}")
	}
	w.WriteString("\n]}\n")
}

// syncListMax is how many lints or undecided waits the text lists per core (--json has all).
const syncListMax = 40

func printSync(w io.Writer, name string, m *sched.Model, fileErrs []doc.Finding) {
	fmt.Fprintf(w, "%s: %d cores\n", safe(name), len(m.Cores))
	for _, c := range m.Cores {
		var ok, lints, undecided, dma int
		for _, wt := range c.Waits {
			switch wt.Code.Class() {
			case sched.ClassOK:
				ok++
				if wt.Queue >= 0 {
					dma++
				}
			case sched.ClassLint:
				lints++
			default:
				undecided++
			}
		}
		var insts int
		for _, e := range c.Engines {
			insts += e.Len
		}
		switch {
		case len(c.Waits) == 0:
			fmt.Fprintf(w, "%s: no waits; %d instructions in %d steps\n", c.Name, insts, c.Steps)
		case lints == 0 && undecided == 0:
			fmt.Fprintf(w, "%s: %d waits, all resolved (%d by DMA completion), no deadlock; %d instructions in %d steps\n", c.Name, len(c.Waits), dma, insts, c.Steps)
		default:
			fmt.Fprintf(w, "%s: %d waits: %d resolved, %d lints, %d undecided\n", c.Name, len(c.Waits), ok, lints, undecided)
		}
		listed := 0
		for _, wt := range c.Waits {
			if wt.Code.Class() != sched.ClassLint {
				continue
			}
			if listed == syncListMax {
				fmt.Fprintf(w, "  … and %d more lints (--json lists them all)\n", lints-listed)
				break
			}
			listed++
			fmt.Fprintf(w, "  %-20s %s\n", wt.Code, safeMsg(c.Message(wt)))
		}
		for _, u := range c.Undecided {
			fmt.Fprintf(w, "  undecided %-20s %s\n", u.Code, safeMsg(c.IssueMessage(u)))
		}
		listed = 0
		for _, wt := range c.Waits {
			if wt.Code.Class() != sched.ClassUndecided || wt.Code == sched.OrderUnknown {
				continue // order-unknown covers every wait of the core: its cause is listed above
			}
			if listed == syncListMax {
				fmt.Fprintln(w, "  … and more undecided waits (--json lists them all)")
				break
			}
			listed++
			fmt.Fprintf(w, "  undecided %-20s %s\n", wt.Code, safeMsg(c.Message(wt)))
		}
	}
	for _, fd := range fileErrs {
		fmt.Fprintf(w, "error: %s\n", safeMsg(fd.Message))
	}
}
