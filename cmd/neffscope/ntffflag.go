package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/timeline"
)

// The device profile beside a NEFF: the --ntff flag of timeline, disasm, profile, sync and
// export opens it here and joins it to the NEFF (core/timeline), so every command reads the
// same measured times.

// ntffHelp is the --ntff flag's help.
const ntffHelp = "a device profile (NTFF) captured from this NEFF: measured times beside the static ones"

// openProfile opens the device profile at path under the NEFF's limits. A file that is not an
// NTFF is an error (exit 2, like an unreadable file).
func openProfile(path string, maxInflate int64, stderr io.Writer) (*inspect.File, int) {
	pf, _, err := openFile(path, inspect.Options{MaxInflated: maxInflate, DeferMemberHashes: true})
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return nil, 2
	}
	if pf.NTFF == nil {
		fmt.Fprintf(stderr, "neffscope: [%s] %s is not a device profile (NTFF): it is read as %s.\n", doc.CodeNTFFNotProfile, safe(path), pf.Doc.Kind)
		return nil, 2
	}
	return pf, 0
}

// measuredFor opens the profile at path and joins it to f. Its findings that are not info go
// to stderr (a profile of another NEFF joins nothing: its UUID finding says so); rc is 1 when
// one is an error, 2 when the profile cannot be opened.
func measuredFor(path string, f *inspect.File, maxInflate int64, stderr io.Writer) (*timeline.Result, int) {
	pf, rc := openProfile(path, maxInflate, stderr)
	if pf == nil {
		return nil, rc
	}
	r := timeline.Measure(pf.NTFF, f, pf.Budget)
	for _, fd := range r.Measured.Findings {
		if fd.Severity == doc.Info {
			continue
		}
		if fd.Severity == doc.Error {
			rc = 1
		}
		fmt.Fprintf(stderr, "neffscope: %s: [%s] %s\n", safe(path), fd.Code, safeMsg(fd.Message))
	}
	return r, rc
}

// measuredListing is a disasm listing (text or JSON) with each instruction's measured times:
// as text a first column, its duration (first word's start to last word's end), "-" for an
// instruction without a row; as JSON a "measured" object {start_ps, end_ps} (null without one).
type measuredListing struct {
	disasmFormat
	res  *timeline.Result
	json bool
}

func (m measuredListing) streamHead(b []byte, k int, s *inspect.ProgramStream) []byte {
	b = m.disasmFormat.streamHead(b, k, s)
	if !m.json {
		st := m.res.Stream(s.Member)
		if st == nil {
			return append(b, "; measured: this stream is not joined to the profile (column -)\n"...)
		}
		b = append(b, "; first column: measured duration, ns (first word's start to last word's end; - none)\n"...)
	}
	return b
}

func (m measuredListing) encoder(p *inspect.Program) wordEncoder {
	return &measuredEncoder{inner: m.disasmFormat.encoder(p), res: m.res, json: m.json}
}

type measuredEncoder struct {
	inner wordEncoder
	res   *timeline.Result
	json  bool
	s     *inspect.ProgramStream
	st    *timeline.StreamTimes
}

func (e *measuredEncoder) appendWord(b []byte, s *inspect.ProgramStream, i int, word []byte) []byte {
	if s != e.s {
		e.s, e.st = s, e.res.Stream(s.Member)
	}
	from := len(b)
	b = e.inner.appendWord(b, s, i, word)
	if e.json {
		end := len(b) - 1 // the instruction object's closing brace
		tail := append([]byte(nil), b[end:]...)
		b = append(b[:end], `,"measured":`...)
		if e.st.Timed(i) {
			b = append(b, `{"start_ps":`...)
			b = strconv.AppendUint(b, e.st.Start[i], 10)
			b = append(b, `,"end_ps":`...)
			b = strconv.AppendUint(b, e.st.End[i], 10)
			b = append(b, '}')
		} else {
			b = append(b, "null"...)
		}
		return append(b, tail...)
	}
	var col [16]byte
	c := col[:0]
	if e.st.Timed(i) {
		c = strconv.AppendFloat(c, float64(e.st.End[i]-e.st.Start[i])/1e3, 'f', 1, 64)
	} else {
		c = append(c, '-')
	}
	line := append([]byte(nil), b[from:]...)
	b = b[:from]
	for k := len(c); k < 9; k++ {
		b = append(b, ' ')
	}
	return append(append(append(b, c...), ' '), line...)
}

// measuredProfile puts the measured figures beside the static ones of `profile`'s tables:
// engines gain each engine's timed instructions, busy time and share of the window; opcodes
// each opcode's timed count, median and total duration; dma each queue's packets, bytes, busy
// time and rate as the profile recorded them.
func measuredProfile(p *doc.Node, res *timeline.Result, f *inspect.File) {
	m := res.Measured
	win := m.WindowPS[1] - m.WindowPS[0]
	engine := map[[2]string]*timeline.MeasuredEngine{}
	queue := map[[2]string]*timeline.DMAQueue{}
	for ci := range m.Cores {
		c := &m.Cores[ci]
		for k := range c.Engines {
			engine[[2]string{c.Core, c.Engines[k].Engine}] = &c.Engines[k]
		}
		for k := range c.Queues {
			queue[[2]string{c.Core, c.Queues[k].Queue}] = &c.Queues[k]
		}
	}
	durs := map[[3]string][]uint64{}
	for _, ps := range f.Program.Streams {
		st := res.Stream(ps.Member)
		if st == nil || ps.ISA == nil {
			continue
		}
		for i, w := range ps.ISA.Words() {
			if st.Timed(i) {
				k := [3]string{ps.Core.Name, ps.Engine.Name, fmt.Sprintf("0x%02x", w[0])}
				durs[k] = append(durs[k], st.End[i]-st.Start[i])
			}
		}
	}
	for _, s := range p.Children {
		t := s.Table
		if t == nil {
			continue
		}
		switch s.Label {
		case "engines":
			t.Columns = append(t.Columns, "measured timed", "measured busy ps", "measured busy %")
			for k, r := range t.Rows {
				if e := engine[[2]string{r[0], r[1]}]; e != nil {
					t.Rows[k] = append(r, strconv.Itoa(e.Timed), strconv.FormatUint(e.BusyPS, 10), fmt.Sprintf("%.1f", 100*float64(e.BusyPS)/float64(max(win, 1))))
				} else {
					t.Rows[k] = append(r, "", "", "")
				}
			}
		case "opcodes":
			t.Columns = append(t.Columns, "measured timed", "measured median ns", "measured total ns")
			for k, r := range t.Rows {
				d := durs[[3]string{r[0], r[1], r[2]}]
				if len(d) == 0 {
					t.Rows[k] = append(r, "0", "", "")
					continue
				}
				slices.Sort(d)
				var sum uint64
				for _, x := range d {
					sum += x
				}
				med := float64(d[len(d)/2])
				if len(d)%2 == 0 {
					med = (med + float64(d[len(d)/2-1])) / 2
				}
				t.Rows[k] = append(r, strconv.Itoa(len(d)), fmt.Sprintf("%.1f", med/1e3), fmt.Sprintf("%.1f", float64(sum)/1e3))
			}
		case "dma":
			t.Columns = append(t.Columns, "measured packets", "measured bytes", "measured busy ps", "measured GB/s")
			for k, r := range t.Rows {
				if q := queue[[2]string{r[0], r[1]}]; q != nil {
					t.Rows[k] = append(r, strconv.FormatInt(q.Packets, 10), strconv.FormatInt(q.Bytes, 10), strconv.FormatUint(q.BusyPS, 10), fmt.Sprintf("%.1f", q.GBps))
				} else {
					t.Rows[k] = append(r, "", "", "", "")
				}
			}
		}
	}
	p.Value += fmt.Sprintf("; measured: window %s (%s)", ntff.Micros(win), res.Profile.Name)
}

// profileList is a repeatable --ntff flag (export joins each profile to the FILE it was
// captured from).
type profileList []string

func (p *profileList) String() string { return strings.Join(*p, ",") }

func (p *profileList) Set(v string) error {
	*p = append(*p, v)
	return nil
}

// profileSet is the profiles of an export, opened once and joined to the files by NEFF UUID.
type profileSet struct {
	files []*inspect.File
	used  []bool
}

// openProfiles opens every profile named (nil, 2 when one cannot be opened or is not an NTFF).
func openProfiles(paths []string, maxInflate int64, stderr io.Writer) (*profileSet, int) {
	ps := &profileSet{}
	for _, p := range paths {
		pf, rc := openProfile(p, maxInflate, stderr)
		if pf == nil {
			return nil, rc
		}
		ps.files = append(ps.files, pf)
		ps.used = append(ps.used, false)
	}
	return ps, 0
}

// joinTo measures the profile captured from f (by its NEFF UUID) joined to f; nil when none is.
func (ps *profileSet) joinTo(f *inspect.File, stderr io.Writer) (*timeline.Result, int) {
	if ps == nil || f.Archive == nil {
		return nil, 0
	}
	want := f.Archive.Header.UUIDString()
	for k, pf := range ps.files {
		if pf.NTFF.UUIDString() != want || ps.used[k] {
			continue
		}
		ps.used[k] = true
		r := timeline.Measure(pf.NTFF, f, pf.Budget)
		rc := 0
		for _, fd := range r.Measured.Findings {
			if fd.Severity == doc.Error {
				rc = 1
				fmt.Fprintf(stderr, "neffscope: %s: [%s] %s\n", safe(pf.Name), fd.Code, safeMsg(fd.Message))
			}
		}
		return r, rc
	}
	return nil, 0
}

// unused names the profiles no FILE was captured from (their UUID matched none): exit 1.
func (ps *profileSet) unused(stderr io.Writer) int {
	rc := 0
	for k, pf := range ps.files {
		if !ps.used[k] {
			fmt.Fprintf(stderr, "neffscope: %s: [%s] the profile was captured from NEFF %s (%s), which is not among the files exported: its times are not joined\n", safe(pf.Name), doc.CodeNTFFUUIDMismatch, pf.NTFF.UUIDString(), safe(pf.NTFF.NEFFName))
			rc = 1
		}
	}
	return rc
}

// measuredColumns are an instructions.parquet row's measured times (nil where absent).
func measuredColumns(st *timeline.StreamTimes, i int) (start, end *int64) {
	if !st.Timed(i) {
		return nil, nil
	}
	s, e := int64(st.Start[i]), int64(st.End[i])
	return &s, &e
}
