//go:build js && wasm

package main

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/timeline"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// A device profile in real time for the page's lanes: the same measurement timeline --json
// prints (core/timeline), its rows as typed columns. Times go as Float64 picoseconds from the
// window's start: absolute ones (~3.7 × 10¹⁷ ps) pass 2⁵³ and would lose picoseconds in a
// JS number, offsets stay exact for 2.5 hours.
//
// A big profile's engine lanes come first: its TRACE sections (a record per instruction
// start and end) are a small part of it beside the DMA and semaphore records (a real 1 GB
// profile is almost all DMA trace), so when those are many the engines are measured alone
// first and sent as a 'lanes' event, and the whole measurement follows as the result.

// streamFirst is how many DMA and semaphore records make the engine lanes worth sending
// first (16 MiB of records: a second or more of reading in the page).
const streamFirst = 1 << 20

// measured → {windowStart, window, joined, cores: [MeasuredCore], opcodes, summary, ms}.
func (b *bridge) measured(r *request) (any, error) {
	start := time.Now()
	f := r.file
	if f.NTFF == nil {
		return nil, protocol.Errorf(protocol.BadRequest, "measured: %s is not a device profile (NTFF); it was read as %s", f.Name, f.Doc.Kind)
	}
	var neff *inspect.File
	if len(r.files) > 1 {
		if neff = r.files[1]; neff.Program == nil {
			return nil, protocol.Errorf(protocol.BadRequest, "measured: %s is not a NEFF with a program: a profile joins a NEFF", neff.Name)
		}
	}
	if trace, rest := traceOnly(f.NTFF); rest >= streamFirst && rest >= 4*trace.records {
		bud := f.Budget.Within(f.Budget.Limits())
		first := timeline.Measure(trace.p, neff, bud)
		m := first.Measured
		r.event("lanes", object("windowStart", strconv.FormatUint(m.WindowPS[0], 10), "window", float64(m.WindowPS[1]-m.WindowPS[0]), "joined", m.Joined,
			"cores", measuredCores(first, neff, m.WindowPS[0]), "opcodes", opcodeNames(), "ms", ms(start)))
		bud.Done()
	}
	// What the measurement holds is charged to the profile's budget for the call only.
	bud := f.Budget.Within(f.Budget.Limits())
	defer bud.Done()
	res := timeline.Measure(f.NTFF, neff, bud)
	m := res.Measured
	origin := m.WindowPS[0]
	summary, err := json.Marshal(summaryOf(m))
	if err != nil {
		return nil, err
	}
	out := object("windowStart", strconv.FormatUint(origin, 10), "window", float64(m.WindowPS[1]-m.WindowPS[0]), "joined", m.Joined,
		"cores", measuredCores(res, neff, origin), "opcodes", opcodeNames(), "summary", buffer(append(summary, '\n')), "ms", ms(start))
	if m.Joined {
		if in := timeline.InputOf(neff); in != nil { // beside the measured lanes, the estimate's (estimated.go)
			out.Set("estimated", estimatedCores(timeline.Estimate(*in, bud), neff))
		}
	}
	return out, nil
}

// traceProfile is a profile with its TRACE sections only, and their records.
type traceProfile struct {
	p       *ntff.Profile
	records int64
}

// traceOnly is p with only its TRACE sections (the engines' words), and how many records the
// other sections hold.
func traceOnly(p *ntff.Profile) (traceProfile, int64) {
	q := *p
	q.Sections = nil
	var trace, rest int64
	for _, s := range p.Sections {
		if s.Type == ntff.NQTrace {
			q.Sections = append(q.Sections, s)
			trace += s.Records()
		} else if s.InFile {
			rest += s.Records()
		}
	}
	return traceProfile{&q, trace}, rest
}

// measuredCores lays each core of res out as columns (protocol type MeasuredCore), times as
// offsets from origin.
func measuredCores(res *timeline.Result, neff *inspect.File, origin uint64) []any {
	m := res.Measured
	off := func(ps uint64) float64 { return float64(int64(ps - origin)) }
	cores := make([]any, 0, len(m.Cores))
	for _, c := range m.Cores {
		var engines, members []any
		var instr, lens, index, rtLens, rtIndex []int32
		var starts, ends, busy, rtStart, rtEnd []float64
		var ops []byte
		for _, e := range c.Engines {
			engines = append(engines, e.Engine)
			member := streamOf(neff, m, c.Core, e.Engine)
			members = append(members, member)
			instr, lens = append(instr, int32(e.Instructions)), append(lens, int32(len(e.Rows)))
			busy = append(busy, float64(e.BusyPS))
			opOf := rowOpcodes(res, neff, c.Core, e.Engine, member)
			for _, row := range e.Rows {
				index = append(index, row.Index)
				starts, ends = append(starts, off(row.StartPS)), append(ends, off(row.EndPS))
				ops = append(ops, opOf(int(row.Index)))
			}
			n := 0
			for _, w := range res.RuntimeWords(c.Core, e.Engine) {
				rtIndex = append(rtIndex, int32(w.Pos))
				rtStart, rtEnd = append(rtStart, off(w.Start)), append(rtEnd, off(w.End))
				n++
			}
			rtLens = append(rtLens, int32(n))
		}
		queues := []any{}
		for _, q := range c.Queues {
			var segs []float64
			for _, s := range res.QueueSegments(c.Core, q.Index) {
				segs = append(segs, off(s.Start), off(s.End))
			}
			queues = append(queues, object("name", q.Queue, "packets", float64(q.Packets), "bytes", float64(q.Bytes), "busy", float64(q.BusyPS), "gbps", q.GBps, "segments", float64Buffer(segs)))
		}
		sems := []any{}
		for _, s := range c.Semaphores {
			pts := make([]float64, 0, 2*len(s.Points))
			for _, p := range s.Points {
				pts = append(pts, off(p[0]), float64(p[1]))
			}
			total := -1.0
			if s.StaticTotal != nil {
				total = float64(*s.StaticTotal)
			}
			sems = append(sems, object("semaphore", s.Semaphore, "source", s.Source, "peak", float64(s.Peak), "staticTotal", total, "points", float64Buffer(pts)))
		}
		cores = append(cores, object("core", c.Core, "neuronCore", float64(c.NeuronCore), "engines", engines, "members", members,
			"instructions", int32Buffer(instr), "lens", int32Buffer(lens), "index", int32Buffer(index), "start", float64Buffer(starts), "end", float64Buffer(ends),
			"ops", buffer(ops), "busy", float64Buffer(busy), "runtimeLens", int32Buffer(rtLens), "runtimeIndex", int32Buffer(rtIndex), "runtimeStart", float64Buffer(rtStart), "runtimeEnd", float64Buffer(rtEnd),
			"queues", queues, "semaphores", sems))
	}
	return cores
}

// rowOpcodes gives the opcode of a row's index: the NEFF instruction's when joined, else the
// image word's (a profile alone: rows are image words).
func rowOpcodes(res *timeline.Result, neff *inspect.File, core, engine, member string) func(int) byte {
	if member != "" {
		ops := streamOpcodes(neff, member)
		return func(i int) byte {
			if i >= 0 && i < len(ops) {
				return ops[i]
			}
			return 0
		}
	}
	p := res.Profile
	var im *ntff.Image
	for _, c := range p.Cores {
		if c.Name == core {
			for _, x := range c.Images {
				if ntff.EngineName(x.Engine) == engine {
					im = x
				}
			}
		}
	}
	if im == nil {
		return func(int) byte { return 0 }
	}
	const page = 1024
	var buf []byte
	from := -1
	return func(i int) byte {
		if i < from || i >= from+len(buf)/ntff.WordSize || from < 0 {
			b, err := p.ReadWords(im, i, min(im.Words, i+page))
			if err != nil || len(b) < ntff.WordSize {
				return 0
			}
			buf, from = b, i
		}
		return buf[(i-from)*ntff.WordSize]
	}
}

// streamOpcodes is the opcode of each instruction of a NEFF stream member (nil when none).
func streamOpcodes(f *inspect.File, member string) []byte {
	if f == nil || f.Program == nil {
		return nil
	}
	for _, ps := range f.Program.Streams {
		if ps.Member != member || ps.ISA == nil {
			continue
		}
		ops := make([]byte, 0, ps.ISA.Len())
		for _, w := range ps.ISA.Words() {
			ops = append(ops, w[0])
		}
		return ops
	}
	return nil
}

// opcodeNames names each opcode byte (the ops columns index it).
func opcodeNames() []any {
	names := make([]any, 256)
	for op := range names {
		names[op] = isa.OpcodeName(uint8(op))
	}
	return names
}

// streamOf is the NEFF stream member of core's engine ("" without a NEFF).
func streamOf(neff *inspect.File, m *timeline.Measured, core, engine string) string {
	if neff == nil || !m.Joined {
		return ""
	}
	for _, ps := range neff.Program.Streams {
		if ps.Core.Name == core && ps.Engine.Name == engine {
			return ps.Member
		}
	}
	return ""
}

// summaryOf is m without what the columns carry (rows, semaphore points).
func summaryOf(m *timeline.Measured) *timeline.Measured {
	s := *m
	s.Cores = make([]timeline.MeasuredCore, len(m.Cores))
	for k, c := range m.Cores {
		c.Engines = append([]timeline.MeasuredEngine(nil), c.Engines...)
		for i := range c.Engines {
			c.Engines[i].Rows = []timeline.MeasuredRow{}
		}
		c.Semaphores = append([]timeline.SemaphoreSeries(nil), c.Semaphores...)
		for i := range c.Semaphores {
			c.Semaphores[i].Points = [][2]uint64{}
		}
		s.Cores[k] = c
	}
	return &s
}

// float64Buffer is an ArrayBuffer of v, little-endian (a Float64Array's view on every host the
// page runs on).
func float64Buffer(v []float64) any {
	out := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(out[8*i:], math.Float64bits(x))
	}
	return buffer(out)
}
