package timeline

import (
	"bytes"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/sched"
)

// Result is a device profile measured (core/ntff), and joined to its NEFF when one is given:
// the contract's Measured, and per NEFF stream each instruction's times for the commands that
// show them beside their own columns (disasm, profile, sync --trace, export).
type Result struct {
	Measured *Measured
	Profile  *ntff.Profile
	Times    *ntff.Measurement
	streams  []*StreamTimes
}

// StreamTimes is one NEFF stream's measured instructions: Start and End per instruction index
// (absolute ps; 0 and 0 for an instruction without a row).
type StreamTimes struct {
	Core, Engine, Member string
	Start, End           []uint64
	// owner maps each position of the loaded image to its instruction (-1: runtime code or not
	// joined); first is each instruction's first position (-1: none).
	owner []int32
	first []int32
	ops   []uint8 // each instruction's opcode
	image *ntff.Image
	times *ntff.EngineTimes
	// joinedTo is the last instruction joined (the rest of the stream is not, after a mismatch).
	joinedTo int
}

// Timed says whether instruction i has a row.
func (s *StreamTimes) Timed(i int) bool { return s != nil && i >= 0 && i < len(s.End) && s.End[i] != 0 }

// Stream returns the measured times of the NEFF stream member (nil when not joined).
func (r *Result) Stream(member string) *StreamTimes {
	if r == nil {
		return nil
	}
	for _, s := range r.streams {
		if s.Member == member {
			return s
		}
	}
	return nil
}

// Measure reads the profile p (read by core/ntff, the open's budget b) and, when neff is a
// NEFF with a program, joins it: its UUID checked (a mismatch joins nothing), every runtime
// word mapped to its instruction by the lowering rules and checked word for word, the
// consistency checks of spec ntff.md §5 computed against the static sync model. Without a NEFF
// the rows are the image words.
func Measure(p *ntff.Profile, neff *inspect.File, b *budget.Budget) *Result {
	t := ntff.Measure(p, b)
	r := &Result{Profile: p, Times: t}
	m := &Measured{Cores: []MeasuredCore{}}
	r.Measured = m
	if p.HasWindow {
		m.WindowPS = p.Window
	}
	m.Profile = ProfileInfo{File: p.Name, Version: int(p.Version), Runtime: p.Runtime.String(), InstanceType: p.InstanceType, NEFFName: p.NEFFName, NEFFUUID: p.UUIDString()}
	m.Findings = append(m.Findings, p.Root.Findings...)
	if d := p.Root.Child("data"); d != nil {
		m.Findings = append(m.Findings, d.Findings...)
	}
	if h := p.Root.Child("header"); h != nil {
		m.Findings = append(m.Findings, h.Findings...)
	}
	m.Findings = append(m.Findings, t.Findings...)
	if !p.OK {
		return r
	}
	j := &joiner{r: r, m: m, b: b, chip: chipOf(p.InstanceType)}
	if neff != nil && neff.Program != nil && neff.Program.Model != nil {
		if !j.uuidMatches(neff) {
			return r
		}
		j.neff = neff
		m.Joined = true
	}
	for _, ct := range t.Cores {
		m.Cores = append(m.Cores, j.core(ct))
	}
	j.window()
	if m.Joined {
		j.checks()
		m.Lines = j.lines()
	}
	return r
}

// joiner carries one Measure's state.
type joiner struct {
	r    *Result
	m    *Measured
	b    *budget.Budget
	neff *inspect.File
	chip string
	reps doc.Repeats
}

func (j *joiner) flag(code doc.Code, sev string, span *doc.Span, format string, args ...any) {
	j.reps.Flag(&j.m.Findings, code, sev, span, format, args...)
}

// chipOf names the chip of an instance type ("trn2.3xlarge" → "trn2").
func chipOf(instance string) string {
	chip, _, _ := strings.Cut(instance, ".")
	return chip
}

// uuidMatches checks the profile's NEFF UUID against the NEFF's (spec ntff.md §4.1: Neuron
// Explorer refuses a mismatch too).
func (j *joiner) uuidMatches(neff *inspect.File) bool {
	p := j.r.Profile
	var span *doc.Span
	if h := p.Root.Child("header"); h != nil {
		if u := h.Child("neff_uuid"); u != nil {
			span = u.Span
		}
	}
	want := neff.Archive.Header.UUID
	if p.UUID == nil {
		j.flag(doc.CodeNTFFUUIDMismatch, doc.Error, span, "%s names no NEFF UUID, so it cannot be checked against %s: nothing is joined.", p.Name, neff.Name)
		return false
	}
	if !bytes.Equal(p.UUID, want[:]) {
		j.flag(doc.CodeNTFFUUIDMismatch, doc.Error, span, "%s was captured from NEFF %s (%s), not from %s (UUID %s): nothing is joined. Open the profile with the NEFF it was captured from, or alone.", p.Name, p.UUIDString(), p.NEFFName, neff.Name, neff.Archive.Header.UUIDString())
		return false
	}
	return true
}

// core measures one core: joined to the NEFF's streams of the same name, or alone.
func (j *joiner) core(ct *ntff.CoreTimes) MeasuredCore {
	c := ct.Core
	mc := MeasuredCore{Core: c.Name, NeuronCore: c.NC, ExecPS: c.ExecPS, Engines: []MeasuredEngine{}}
	if j.neff != nil {
		streams := j.streamsOf(c.Name)
		if len(streams) == 0 {
			j.flag(doc.CodeNTFFCoreMismatch, doc.Warning, c.Span, "the profile's core %s has no stream in %s: its words are shown as image words, not joined.", c.Name, j.neff.Name)
		}
		for _, ps := range streams {
			e := engineTimes(ct, ps.Engine.Name)
			if e == nil {
				j.flag(doc.CodeNTFFCoreMismatch, doc.Warning, c.Span, "the profile holds no %s image for %s's stream %s: it is not joined.", ps.Engine.Name, c.Name, ps.Member)
				mc.Engines = append(mc.Engines, MeasuredEngine{Engine: ps.Engine.Name, Instructions: int(ps.Count), Rows: []MeasuredRow{}})
				continue
			}
			st := j.join(ps, e)
			j.r.streams = append(j.r.streams, st)
			mc.Engines = append(mc.Engines, j.joinedEngine(st, ps))
		}
		if len(streams) > 0 {
			mc.Queues, mc.Semaphores = j.queues(ct), j.semaphores(ct)
			return mc
		}
	}
	for _, e := range ct.Engines {
		mc.Engines = append(mc.Engines, j.aloneEngine(e))
	}
	mc.Queues, mc.Semaphores = j.queues(ct), j.semaphores(ct)
	return mc
}

func engineTimes(ct *ntff.CoreTimes, name string) *ntff.EngineTimes {
	for _, e := range ct.Engines {
		if ntff.EngineName(e.Image.Engine) == name {
			return e
		}
	}
	return nil
}

// streamsOf lists the NEFF's streams of core name, in disasm's order.
func (j *joiner) streamsOf(name string) []*inspect.ProgramStream {
	var out []*inspect.ProgramStream
	for _, ps := range j.neff.Program.Streams {
		if ps.Core.Name == name {
			out = append(out, ps)
		}
	}
	return out
}

// aloneEngine is an engine of a profile read alone: a row per traced image word, index its
// position; busy over every traced word.
func (j *joiner) aloneEngine(e *ntff.EngineTimes) MeasuredEngine {
	im := e.Image
	me := MeasuredEngine{Engine: ntff.EngineName(im.Engine), Instructions: im.Words, Rows: []MeasuredRow{}}
	if !j.rows(int64(im.Words)) {
		return me
	}
	for i := range im.Words {
		if s, end, ok := e.Span(i); ok {
			me.Rows = append(me.Rows, MeasuredRow{Index: int32(i), StartPS: s, EndPS: end})
		}
	}
	me.Timed = len(me.Rows)
	l := im.Layout()
	program := func(pos int) bool { return l.Problem != "" || pos >= l.Preamble && pos < im.Words-l.Postamble }
	u := e.Busy(nil, j.b)
	me.BusyPS = u.Length()
	me.SpanPS, me.IdlePS, me.Gaps = spanAndGaps(u.Segments())
	u.Release()
	me.Runtime = j.runtime(e, l, program)
	if l.Problem == "" {
		me.NEFFInstructions = l.Compiler
	}
	return me
}

// rows takes the budget for n rows (24 B each); false (with a finding) when it does not fit.
func (j *joiner) rows(n int64) bool {
	if j.b.Take(budget.Memory, n*24, "the measured rows") {
		return true
	}
	j.flag(doc.CodeNTFFLimit, doc.Error, nil, "%d measured rows do not fit in what the memory budget leaves: they are not listed. Raise the limit: neffscope %s N.", n, budget.Memory.Flag())
	return false
}

// runtime counts and times the image's runtime code (preamble and postamble).
func (j *joiner) runtime(e *ntff.EngineTimes, l ntff.Layout, program func(int) bool) RuntimeCode {
	rc := RuntimeCode{PreambleWords: l.Preamble, PostambleWords: l.Postamble, InsertedWords: len(l.Inserted)}
	if l.Problem != "" {
		return rc
	}
	for i := range e.Image.Words {
		if !program(i) && e.Traced(i) {
			rc.Traced++
		}
	}
	u := e.Busy(func(pos int) bool { return !program(pos) }, j.b)
	rc.BusyPS = u.Length()
	u.Release()
	return rc
}

// gapsListed is how many idle gaps an engine lists.
const gapsListed = 10

// spanAndGaps is the first start and last end of a union, its idle time and longest gaps.
func spanAndGaps(segs []ntff.Interval) (span [2]uint64, idle uint64, gaps []Gap) {
	if len(segs) == 0 {
		return span, 0, nil
	}
	span = [2]uint64{segs[0].Start, segs[len(segs)-1].End}
	var busy uint64
	for k, s := range segs {
		busy += s.End - s.Start
		if k > 0 {
			gaps = append(gaps, Gap{segs[k-1].End, s.Start})
		}
	}
	sort.SliceStable(gaps, func(a, b int) bool { return gaps[a].EndPS-gaps[a].StartPS > gaps[b].EndPS-gaps[b].StartPS })
	if len(gaps) > gapsListed {
		gaps = gaps[:gapsListed]
	}
	return span, span[1] - span[0] - busy, gaps
}

// queues is the core's DMA queues: packets, bytes, busy, achieved rate.
func (j *joiner) queues(ct *ntff.CoreTimes) []DMAQueue {
	var out []DMAQueue
	for _, q := range ct.Queues {
		d := DMAQueue{Queue: q.Name, Packets: q.Packets, Bytes: q.Bytes, BusyPS: q.Busy.Length(), Index: q.Index, DMAEngines: q.Engines, FirstPS: q.First, LastPS: q.Last, BusyCut: q.Busy.Cut}
		if d.Queue == "" {
			d.Queue = "queue " + itoa(int64(q.Index))
		}
		if d.BusyPS > 0 {
			d.GBps = float64(d.Bytes) / float64(d.BusyPS) * 1000 // B/ps → GB/s
		}
		for _, s := range q.Sizes {
			d.Sizes = append(d.Sizes, PacketSize{s.Bytes, s.Packets})
		}
		slices.SortStableFunc(d.Sizes, func(a, b PacketSize) int { return int(b.Bytes - a.Bytes) })
		out = append(out, d)
	}
	return out
}

// semaphores is the core's semaphore series, with the static totals when the NEFF is joined.
func (j *joiner) semaphores(ct *ntff.CoreTimes) []SemaphoreSeries {
	var out []SemaphoreSeries
	for _, s := range ct.Semaphores {
		ss := SemaphoreSeries{Semaphore: s.ID, Source: sourceName(s.Source), Peak: s.Peak, Records: s.Records, Cut: s.Cut, Points: make([][2]uint64, len(s.Points))}
		for k, pt := range s.Points {
			ss.Points[k] = [2]uint64{pt.T, uint64(pt.Value)}
		}
		out = append(out, ss)
	}
	return out
}

// sourceName names a NOTIFY source (spec ntff.md §3.3: 1–5 an engine as TRACE, 6 DMA).
func sourceName(src uint32) string {
	if src == ntff.NotifySourceDMA {
		return "DMA"
	}
	return ntff.EngineName(int(src) - 1)
}

// modelCore finds core name in the sync model.
func modelCore(model *sched.Model, name string) *sched.Core {
	if model == nil {
		return nil
	}
	for _, c := range model.Cores {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// RuntimeWord is one traced word of the runtime's own code (preamble or postamble).
type RuntimeWord struct {
	Pos        int
	Start, End uint64
}

// RuntimeWords lists the traced runtime words of core's engine in image order (none for a
// profile read alone: its rows hold every word).
func (r *Result) RuntimeWords(core, engine string) []RuntimeWord {
	var out []RuntimeWord
	for _, st := range r.streams {
		if st.Core != core || st.Engine != engine || st.owner == nil {
			continue
		}
		for pos, i := range st.owner {
			if i >= 0 {
				continue
			}
			if s, e, ok := st.times.Span(pos); ok {
				out = append(out, RuntimeWord{pos, s, e})
			}
		}
	}
	return out
}

// QueueSegments is the busy stretches of core's DMA queue of index q, sorted.
func (r *Result) QueueSegments(core string, q uint64) []ntff.Interval {
	for _, ct := range r.Times.Cores {
		if ct.Core.Name != core {
			continue
		}
		for _, qt := range ct.Queues {
			if qt.Index == q {
				return qt.Busy.Segments()
			}
		}
	}
	return nil
}
