package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/sched"
)

func init() {
	commands["memmap"] = command{"every SBUF/PSUM access as exact boxes, each space's peak, race and bounds lints per core (--json)", runMemmap}
}

// memmapJSON is the `memmap --json` contract, which scripts read. Beyond it: an access or a lint's
// other side that is a DMA transfer (started by the trigger it names) has "dma": true, a box
// repeated at a stride has "stride" and "count", and each core lists what is undecided.
type memmapJSON struct {
	Cores []memCoreJSON `json:"cores"`
}

type memCoreJSON struct {
	Core      string              `json:"core"`
	SBUF      memUsageJSON        `json:"sbuf"`
	PSUM      memUsageJSON        `json:"psum"`
	Accesses  []memAccessJSON     `json:"accesses"`
	Lints     []memLintJSON       `json:"lints"`
	Undecided []syncUndecidedJSON `json:"undecided"`
}

type memUsageJSON struct {
	Partitions     int         `json:"partitions"`
	PartitionBytes *uint32     `json:"partition_bytes"` // null: the target's size is not known
	PeakBytes      uint64      `json:"peak_bytes"`
	PeakAt         *memRefJSON `json:"peak_at"`
}

type memRefJSON struct {
	Engine string `json:"engine"`
	Index  int32  `json:"index"`
	DMA    bool   `json:"dma,omitempty"`
}

type memAccessJSON struct {
	Engine string       `json:"engine"`
	Index  int32        `json:"index"`
	DMA    bool         `json:"dma,omitempty"`
	Space  string       `json:"space"`
	Write  bool         `json:"write"`
	Boxes  []memBoxJSON `json:"boxes"`
}

type memBoxJSON struct {
	Partition  uint16 `json:"partition"`
	Partitions uint16 `json:"partitions"`
	Offset     uint32 `json:"offset"`
	Bytes      uint32 `json:"bytes"`
	Stride     uint32 `json:"stride,omitempty"`
	Count      uint32 `json:"count,omitempty"`
}

type memLintJSON struct {
	Code    string      `json:"code"`
	Engine  string      `json:"engine"`
	Index   int32       `json:"index"`
	DMA     bool        `json:"dma,omitempty"`
	Other   *memRefJSON `json:"other,omitempty"`
	Message string      `json:"message"`
}

// runMemmap exits 1 when a lint (or an error of the file's own) was printed, 2 on trouble.
func runMemmap(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("memmap", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object: per core, each space's capacity and peak, every access and its boxes, the lints and what is undecided")
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope memmap [--json] FILE")
		fs.PrintDefaults()
	}
	f, fh, rc := openModelFile(fs, args, *maxInflate, stderr)
	if f == nil {
		return rc
	}
	defer fh.Close()
	m := f.Memmap()
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
		if len(c.MemLints) > 0 {
			rc = 1
		}
	}
	out := stdout
	if *asJSON {
		out = jsonStdout(stdout)
	}
	bw := bufio.NewWriterSize(out, 1<<16)
	defer bw.Flush()
	if *asJSON {
		writeMemmapJSON(bw, m, limits)
		for _, fd := range fileErrs {
			fmt.Fprintf(stderr, "error: %s\n", safeMsg(fd.Message))
		}
	} else {
		printMemmap(bw, f.Name, m, unrelayed(fileErrs))
	}
	return rc
}

func memRef(c *sched.Core, a *sched.Access) *memRefJSON {
	return &memRefJSON{Engine: c.EngineName(a.At), Index: a.At.Index, DMA: a.DMA}
}

func memUsage(c *sched.Core, u sched.Usage) memUsageJSON {
	j := memUsageJSON{Partitions: u.Partitions, PeakBytes: u.PeakBytes}
	if u.PartitionBytes > 0 {
		b := u.PartitionBytes
		j.PartitionBytes = &b
	}
	if u.PeakAt >= 0 {
		j.PeakAt = memRef(c, &c.Accesses[u.PeakAt])
	}
	return j
}

func memLints(c *sched.Core) []memLintJSON {
	out := []memLintJSON{}
	for _, l := range c.MemLints {
		a := &c.Accesses[l.Access]
		j := memLintJSON{Code: l.Code.String(), Engine: c.EngineName(a.At), Index: a.At.Index, DMA: a.DMA, Message: c.MemMessage(l)}
		if l.Other >= 0 {
			j.Other = memRef(c, &c.Accesses[l.Other])
		}
		out = append(out, j)
	}
	return out
}

func memUndecided(c *sched.Core) []syncUndecidedJSON {
	out := []syncUndecidedJSON{}
	for _, u := range append(c.Undecided[:len(c.Undecided):len(c.Undecided)], c.MemIssues...) {
		out = append(out, syncUndecidedJSON{Code: u.Code.String(), Engine: c.EngineName(u.At), Index: u.At.Index, Count: u.Count, Message: c.IssueMessage(u)})
	}
	return out
}

// writeMemmapJSON streams the contract's object an access at a time.
func writeMemmapJSON(w *bufio.Writer, m *sched.Model, limits []fileFinding) {
	line := func(v any) {
		b, _ := json.Marshal(v)
		w.Write(b)
	}
	w.Write(appendFindingsMember([]byte("{"), limits, ""))
	w.WriteString("\"cores\": [")
	var boxes []memBoxJSON
	for k, c := range m.Cores {
		if k > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n{\"core\": ")
		line(c.Name)
		w.WriteString(",\n \"sbuf\": ")
		line(memUsage(c, c.SBUF))
		w.WriteString(",\n \"psum\": ")
		line(memUsage(c, c.PSUM))
		w.WriteString(",\n \"accesses\": [")
		for i := range c.Accesses {
			a := &c.Accesses[i]
			if i > 0 {
				w.WriteString(",")
			}
			boxes = boxes[:0]
			for _, b := range c.Boxes[a.BoxFrom:a.BoxTo] {
				j := memBoxJSON{Partition: b.Partition, Partitions: b.Parts, Offset: b.Offset, Bytes: b.Bytes}
				if b.Count > 1 {
					j.Stride, j.Count = b.Stride, b.Count
				}
				boxes = append(boxes, j)
			}
			w.WriteString("\n  ")
			line(memAccessJSON{Engine: c.EngineName(a.At), Index: a.At.Index, DMA: a.DMA, Space: a.Space.String(), Write: a.Write, Boxes: boxes})
		}
		w.WriteString("],\n \"lints\": ")
		line(memLints(c))
		w.WriteString(",\n \"undecided\": ")
		line(memUndecided(c))
		w.WriteString("}")
	}
	w.WriteString("\n]}\n")
}

func printMemmap(w io.Writer, name string, m *sched.Model, fileErrs []doc.Finding) {
	fmt.Fprintf(w, "%s: %d cores\n", safe(name), len(m.Cores))
	usage := func(label string, c *sched.Core, u sched.Usage) string {
		s := fmt.Sprintf("%s peak %d B", label, u.PeakBytes)
		if u.PartitionBytes > 0 {
			s += fmt.Sprintf(" of %d", u.PartitionBytes)
		}
		s += " per partition"
		if u.PeakAt >= 0 {
			a := &c.Accesses[u.PeakAt]
			s += " (at " + c.Ref(a.At)
			if a.DMA {
				s += "'s DMA"
			}
			s += ")"
		}
		return s
	}
	for _, c := range m.Cores {
		verdict := "no memory lint"
		if n := len(c.MemLints); n > 0 {
			verdict = fmt.Sprintf("%d memory lints", n)
		}
		fmt.Fprintf(w, "%s: %d accesses; %s; %s; %s\n", c.Name, len(c.Accesses), usage("SBUF", c, c.SBUF), usage("PSUM", c, c.PSUM), verdict)
		for i, l := range c.MemLints {
			if i == syncListMax {
				fmt.Fprintf(w, "  … and %d more lints (--json lists them all)\n", len(c.MemLints)-i)
				break
			}
			fmt.Fprintf(w, "  %-20s %s\n", l.Code, safeMsg(c.MemMessage(l)))
		}
		for _, u := range memUndecided(c) {
			fmt.Fprintf(w, "  undecided %-20s %s\n", u.Code, safeMsg(u.Message))
		}
	}
	for _, fd := range fileErrs {
		fmt.Fprintf(w, "error: %s\n", safeMsg(fd.Message))
	}
}
