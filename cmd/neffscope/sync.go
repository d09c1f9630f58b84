package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/sched"
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
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object: per core, every wait and its producer, the lints and what is undecided")
	trace := fs.String("trace", "", "write a Chrome trace (Perfetto, chrome://tracing) to this file: a thread per engine, a slice per instruction at its earliest step, an arrow from each producer to its waiter")
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope sync [--json] [--trace OUT.json] FILE")
		fs.PrintDefaults()
	}
	f, fh, rc := openModelFile(fs, args, *maxInflate, stderr)
	if f == nil {
		return rc
	}
	defer fh.Close()
	m := f.Sched()
	if m == nil {
		relayLimits(stderr, f, false)
		fmt.Fprintf(stderr, "neffscope: %s has no resolvable program (no NEFF manifests): no streams to model\n", safe(f.Name))
		return 1
	}
	fileErrs := errorFindings(f)
	if len(fileErrs) > 0 {
		rc = 1
	}
	limits, _ := relayLimits(stderr, f, *asJSON)
	for _, c := range m.Cores {
		for _, w := range c.Waits {
			if w.Code.Class() == sched.ClassLint {
				rc = 1
			}
		}
	}
	if *trace != "" {
		out, err := os.Create(*trace)
		if err == nil {
			err = sched.WriteTrace(out, m)
			if cerr := out.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
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
		writeSyncJSON(bw, m, limits)
		for _, fd := range fileErrs {
			fmt.Fprintf(stderr, "error: %s\n", safeMsg(fd.Message))
		}
	case *trace == "":
		printSync(bw, f.Name, m, unrelayed(fileErrs))
	}
	return rc
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

// writeSyncJSON streams the contract's object a wait at a time (a big NEFF has millions).
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
		var lints []syncLintJSON
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
			case sched.ClassLint:
				lints = append(lints, syncLintJSON{Code: wt.Code.String(), Engine: j.Engine, Index: wt.Index, Other: syncRef(c, wt.Other, -1), Message: c.Message(wt)})
			}
			w.WriteString("\n  ")
			line(j)
		}
		w.WriteString("],\n \"lints\": ")
		if lints == nil {
			lints = []syncLintJSON{}
		}
		line(lints)
		w.WriteString(",\n \"undecided\": ")
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

// openModelFile parses the flags of a command that models one file (sync, memmap) and opens
// it without its source lines (the .dbg scans are left out, as info leaves them). A nil file
// comes with the exit code: 2 for bad usage or an unreadable file.
func openModelFile(fs *flag.FlagSet, args []string, maxInflate int64, stderr io.Writer) (*inspect.File, *os.File, int) {
	if err := fs.Parse(args); err != nil {
		return nil, nil, 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return nil, nil, 2
	}
	f, fh, err := openFile(fs.Arg(0), inspect.Options{MaxInflated: maxInflate, DeferSource: true})
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return nil, nil, 2
	}
	return f, fh, 0
}

// errorFindings are the file's own error findings, which the model's output lists too.
func errorFindings(f *inspect.File) []doc.Finding {
	var out []doc.Finding
	for _, fd := range f.Doc.Findings() {
		if fd.Severity == doc.Error {
			out = append(out, fd)
		}
	}
	return out
}
