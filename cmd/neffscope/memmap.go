package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/sched"
)

func init() {
	commands["memmap"] = command{"every SBUF/PSUM access as exact boxes, each space's peak, race and bounds lints per core (--json)", runMemmap}
}

// memmapJSON is the `memmap --json` contract, which scripts read. Beyond it: an access or a lint's
// other side that is a DMA transfer (started by the trigger it names) has "dma": true, a box
// repeated at a stride has "stride" and "count", each core lists what is undecided and how
// many operands it could not place, each space how many accesses a limit left out and the
// buffers live at its peak, and "peak" says how the peak is counted.
type memmapJSON struct {
	Peak  string        `json:"peak"`
	Cores []memCoreJSON `json:"cores"`
}

type memCoreJSON struct {
	Core string `json:"core"`
	// Unplaced counts the operands and DMA sides the model could not place (in no peak and no
	// race; the undecided entries say which).
	Unplaced  int                 `json:"unplaced"`
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
	// Unswept counts the space's accesses a limit left out of the peak and the races.
	Unswept int `json:"unswept"`
	// LiveAtPeak are the buffers live at the peak, most bytes first.
	LiveAtPeak []memLiveJSON `json:"live_at_peak"`
}

// memLiveJSON is a buffer live at a peak: bytes of a partition band, its write and the last
// read before the next write, each with its kernel source line ("" when not known).
type memLiveJSON struct {
	Bytes      uint64     `json:"bytes"`
	Partition  uint16     `json:"partition"`
	Partitions uint16     `json:"partitions"`
	Write      memRefJSON `json:"write"`
	WriteLine  string     `json:"write_line,omitempty"`
	LastRead   memRefJSON `json:"last_read"`
	ReadLine   string     `json:"last_read_line,omitempty"`
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
	asJSON := fs.Bool("json", false, "print one JSON object: per core, each space's capacity and peak, every access and its boxes, the lints and what is undecided")
	r, rc := openModel(fs, args, "neffscope memmap [--json] FILE", asJSON, (*inspect.File).Memmap, stderr)
	if r == nil {
		return rc
	}
	defer r.close()
	f, m, fileErrs, limits := r.f, r.m, r.fileErrs, r.limits
	mapSource(f) // the source lines name the buffers live at each peak
	lines := lineJoiner(f)
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
		writeMemmapJSON(bw, m, limits, lines)
		for _, fd := range fileErrs {
			fmt.Fprintf(stderr, "error: %s\n", safeMsg(fd.Message))
		}
	} else {
		printMemmap(bw, f.Name, m, unrelayed(fileErrs), lines)
	}
	return rc
}

// lineJoiner names an instruction's kernel source line as the listings do ("conv2d.py:107",
// the file's base name; "" when the debug info names none), through the open's source index.
func lineJoiner(f *inspect.File) func(c *sched.Core, at sched.At) string {
	// The buffers live at a peak are tens of thousands on a big NEFF but come from a few
	// thousand instructions: each instruction's line is looked up once.
	type key struct {
		c  *sched.Core
		at sched.At
	}
	seen := map[key]string{}
	return func(c *sched.Core, at sched.At) string {
		if f.Program == nil || f.Program.Source == nil || !at.Valid() {
			return ""
		}
		k := key{c, at}
		if l, ok := seen[k]; ok {
			return l
		}
		l := ""
		if src := f.Program.Source.Source(c.Engines[at.Engine].Member, int(at.Index)); src != nil && src.Line != 0 {
			l = filepath.Base(src.File) + ":" + strconv.Itoa(src.Line)
		}
		seen[k] = l
		return l
	}
}

func memRef(c *sched.Core, a *sched.Access) *memRefJSON {
	return &memRefJSON{Engine: c.EngineName(a.At), Index: a.At.Index, DMA: a.DMA}
}

// peakConvention is how the peak is counted, said wherever it is shown.
const peakConvention = sched.PeakConvention

func memUsage(c *sched.Core, u sched.Usage, lines func(*sched.Core, sched.At) string) memUsageJSON {
	j := memUsageJSON{Partitions: u.Partitions, PeakBytes: u.PeakBytes, Unswept: u.Unswept, LiveAtPeak: []memLiveJSON{}}
	if u.PartitionBytes > 0 {
		b := u.PartitionBytes
		j.PartitionBytes = &b
	}
	if u.PeakAt >= 0 {
		j.PeakAt = memRef(c, &c.Accesses[u.PeakAt])
	}
	for _, l := range u.Live {
		w := &c.Accesses[l.Write]
		lj := memLiveJSON{Bytes: l.Bytes, Partition: l.Partition, Partitions: l.Parts, Write: *memRef(c, w), WriteLine: lines(c, w.At)}
		if l.LastRead >= 0 {
			r := &c.Accesses[l.LastRead]
			lj.LastRead, lj.ReadLine = *memRef(c, r), lines(c, r.At)
		}
		j.LiveAtPeak = append(j.LiveAtPeak, lj)
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
func writeMemmapJSON(w *bufio.Writer, m *sched.Model, limits []fileFinding, lines func(*sched.Core, sched.At) string) {
	line := func(v any) {
		b, _ := json.Marshal(v)
		w.Write(b)
	}
	w.Write(appendFindingsMember([]byte("{"), limits, ""))
	w.WriteString("\"peak\": ")
	line(peakConvention)
	w.WriteString(",\n\"cores\": [")
	for k, c := range m.Cores {
		if k > 0 {
			w.WriteString(",")
		}
		w.WriteString("\n{\"core\": ")
		line(c.Name)
		w.WriteString(",\n \"unplaced\": ")
		line(c.Unplaced())
		w.WriteString(",\n \"sbuf\": ")
		line(memUsage(c, c.SBUF, lines))
		w.WriteString(",\n \"psum\": ")
		line(memUsage(c, c.PSUM, lines))
		w.WriteString(",\n \"accesses\": [")
		names := jsonNames(c)
		var buf []byte
		for i := range c.Accesses {
			a := &c.Accesses[i]
			if i > 0 {
				w.WriteString(",")
			}
			w.WriteString("\n  ")
			buf = appendAccessJSON(buf[:0], c, a, names)
			w.Write(buf)
		}
		w.WriteString("],\n \"lints\": ")
		line(memLints(c))
		w.WriteString(",\n \"undecided\": ")
		line(memUndecided(c))
		w.WriteString("}")
	}
	w.WriteString("\n]}\n")
}

// jsonNames is each engine's name of c as JSON, and each space's, encoded once: a big NEFF
// has hundreds of thousands of accesses, and encoding/json's reflection on each was a tenth of
// memmap --json.
func jsonNames(c *sched.Core) (names struct{ engines, spaces map[string][]byte }) {
	names.engines, names.spaces = map[string][]byte{}, map[string][]byte{}
	for _, e := range c.Engines {
		names.engines[e.Name], _ = json.Marshal(e.Name)
	}
	return names
}

// appendAccessJSON appends access a as encoding/json writes a memAccessJSON (the same bytes:
// the tests compare them).
func appendAccessJSON(b []byte, c *sched.Core, a *sched.Access, names struct{ engines, spaces map[string][]byte }) []byte {
	name := c.EngineName(a.At)
	en, ok := names.engines[name]
	if !ok {
		en, _ = json.Marshal(name)
	}
	space := a.Space.String()
	sp, ok := names.spaces[space]
	if !ok {
		sp, _ = json.Marshal(space)
		names.spaces[space] = sp
	}
	b = append(append(append(b, `{"engine":`...), en...), `,"index":`...)
	b = strconv.AppendInt(b, int64(a.At.Index), 10)
	if a.DMA {
		b = append(b, `,"dma":true`...)
	}
	b = append(append(append(b, `,"space":`...), sp...), `,"write":`...)
	b = strconv.AppendBool(b, a.Write)
	b = append(b, `,"boxes":[`...)
	for i, x := range c.Boxes[a.BoxFrom:a.BoxTo] {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"partition":`...)
		b = strconv.AppendUint(b, uint64(x.Partition), 10)
		b = append(b, `,"partitions":`...)
		b = strconv.AppendUint(b, uint64(x.Parts), 10)
		b = append(b, `,"offset":`...)
		b = strconv.AppendUint(b, uint64(x.Offset), 10)
		b = append(b, `,"bytes":`...)
		b = strconv.AppendUint(b, uint64(x.Bytes), 10)
		if x.Count > 1 && x.Stride != 0 {
			b = append(b, `,"stride":`...)
			b = strconv.AppendUint(b, uint64(x.Stride), 10)
		}
		if x.Count > 1 {
			b = append(b, `,"count":`...)
			b = strconv.AppendUint(b, uint64(x.Count), 10)
		}
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

// memLiveMax is how many buffers live at a peak the text lists (--json has them all), and
// how many kernel lines it sums them by.
const memLiveMax = 8

// liveByLine sums the buffers live at a peak by the kernel line of their write, most bytes
// first: "conv2d.py:127 168720 B in 190 buffers, …".
func liveByLine(c *sched.Core, live []sched.LiveBuffer, lines func(*sched.Core, sched.At) string) string {
	type sum struct {
		line  string
		bytes uint64
		n     int
	}
	var sums []sum
	at := map[string]int{}
	for _, l := range live {
		line := lines(c, c.Accesses[l.Write].At)
		if line == "" {
			line = "(no line)"
		}
		k, ok := at[line]
		if !ok {
			k = len(sums)
			at[line] = k
			sums = append(sums, sum{line: line})
		}
		sums[k].bytes += l.Bytes
		sums[k].n++
	}
	sort.SliceStable(sums, func(i, j int) bool { return sums[i].bytes > sums[j].bytes })
	var b strings.Builder
	for i, x := range sums {
		if i == memLiveMax {
			fmt.Fprintf(&b, ", and %d more lines", len(sums)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d B in %d", safe(x.line), x.bytes, x.n)
		if x.n == 1 {
			b.WriteString(" buffer")
		} else {
			b.WriteString(" buffers")
		}
	}
	return b.String()
}

func printMemmap(w io.Writer, name string, m *sched.Model, fileErrs []doc.Finding, lines func(*sched.Core, sched.At) string) {
	fmt.Fprintf(w, "%s: %d cores (%s)\n", safe(name), len(m.Cores), peakConvention)
	ref := func(c *sched.Core, a *sched.Access) string {
		s := c.Ref(a.At)
		if a.DMA {
			s += "'s DMA"
		}
		if l := lines(c, a.At); l != "" {
			s += " (" + safe(l) + ")"
		}
		return s
	}
	usage := func(label string, c *sched.Core, u sched.Usage) string {
		s := fmt.Sprintf("%s peak %d B", label, u.PeakBytes)
		if u.PartitionBytes > 0 {
			s += fmt.Sprintf(" of %d", u.PartitionBytes)
		}
		s += " per partition"
		if u.PeakAt >= 0 {
			s += " (at " + ref(c, &c.Accesses[u.PeakAt]) + ")"
		}
		if u.Unswept > 0 {
			s += fmt.Sprintf(", %d accesses past a limit not counted", u.Unswept)
		}
		return s
	}
	for _, c := range m.Cores {
		verdict := "no memory lint"
		if n := len(c.MemLints); n > 0 {
			verdict = fmt.Sprintf("%d memory lints", n)
		}
		if n := c.Unplaced(); n > 0 {
			verdict += fmt.Sprintf("; %d operands or DMA sides not placed, so in no peak and no race (undecided below)", n)
		}
		fmt.Fprintf(w, "%s: %d accesses; %s; %s; %s\n", c.Name, len(c.Accesses), usage("SBUF", c, c.SBUF), usage("PSUM", c, c.PSUM), verdict)
		for _, sp := range []struct {
			label string
			u     sched.Usage
		}{{"SBUF", c.SBUF}, {"PSUM", c.PSUM}} {
			if len(sp.u.Live) > 0 {
				l := sp.u.Live[0]
				fmt.Fprintf(w, "  %s live at the peak (partitions %d..%d), by the kernel line that wrote it: %s\n", sp.label, l.Partition, int(l.Partition)+int(l.Parts)-1, liveByLine(c, sp.u.Live, lines))
			}
			for i, l := range sp.u.Live {
				if i == memLiveMax {
					fmt.Fprintf(w, "    … and %d more buffers (--json lists them all)\n", len(sp.u.Live)-i)
					break
				}
				s := fmt.Sprintf("    %8d B  written by %s", l.Bytes, ref(c, &c.Accesses[l.Write]))
				if l.LastRead >= 0 {
					s += ", read last by " + ref(c, &c.Accesses[l.LastRead])
				}
				fmt.Fprintln(w, s)
			}
		}
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
