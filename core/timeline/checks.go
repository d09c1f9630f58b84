package timeline

import (
	"math"
	"sort"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/sched"
)

// The consistency checks of spec ntff.md §5: how a reader proves itself, and where the device
// disagrees with the static model (a finding: that is news).

// window is checks 1 and 2 and 9, which need no NEFF: the window against the first core's
// execution time, the program words' records against the window, the durations' quanta.
func (j *joiner) window() {
	p, t := j.r.Profile, j.r.Times
	w := &j.m.Checks.Window
	if p.HasWindow && p.Window[1] >= p.Window[0] {
		w.WindowPS = p.Window[1] - p.Window[0]
	}
	if len(p.Cores) > 0 {
		w.ExecPS = p.Cores[0].ExecPS
	}
	w.Equal = p.HasWindow && w.ExecPS == w.WindowPS
	if p.HasWindow && !w.Equal {
		j.flag(doc.CodeNTFFWindow, doc.Warning, nil, "the execution window is %d ps but %s's execution time is %d ps (equal on every capture checked).", w.WindowPS, p.Cores[0].Name, w.ExecPS)
	}
	for _, ct := range t.Cores {
		lo, hi := uint64(math.MaxUint64), uint64(0)
		for _, e := range ct.Engines {
			l := e.Image.Layout()
			if l.Problem != "" {
				continue
			}
			for i := l.Preamble; i < e.Image.Words-l.Postamble; i++ {
				if s, end, ok := e.Span(i); ok {
					lo, hi = min(lo, s), max(hi, end)
				}
			}
			j.quanta(ct.Core.Name, e)
		}
		if hi == 0 || !p.HasWindow {
			continue
		}
		pw := ProgramWindow{Core: ct.Core.Name, FromPS: int64(lo) - int64(p.Window[0]), ToPS: int64(hi) - int64(p.Window[0])}
		pw.Inside = lo >= p.Window[0] && hi <= p.Window[1]
		w.Cores = append(w.Cores, pw)
		if !pw.Inside {
			j.flag(doc.CodeNTFFWindow, doc.Warning, nil, "%s's program words' records run from %+d ps to %+d ps of a %d ps execution window: some lie outside it (inside on every capture checked).", pw.Core, pw.FromPS, pw.ToPS, w.WindowPS)
		}
	}
}

// quanta is check 9 for one engine: its traced words' durations against its clock.
func (j *joiner) quanta(core string, e *ntff.EngineTimes) {
	name := ntff.EngineName(e.Image.Engine)
	c := clockOf(j.chip, name)
	if c == nil {
		return
	}
	q := QuantaCheck{Core: core, Engine: name, QuantumPS: 1e3 / c.GHz, Confidence: c.Confidence}
	for i := range e.Image.Words {
		s, end, ok := e.Span(i)
		if !ok {
			continue
		}
		q.Words++
		d := float64(end - s)
		if math.Abs(d-math.Round(d/q.QuantumPS)*q.QuantumPS) <= quantumSlack+1e-6 { // 3.0000000002 is 3 in floating point
			q.OnQuantum++
		}
	}
	if q.Words == 0 {
		return
	}
	j.m.Checks.Quanta = append(j.m.Checks.Quanta, q)
	// The captures checked have a few words off the quantum per engine (PE 3 of 820): only
	// an engine mostly off it says the clock is not what the table holds.
	if q.OnQuantum*10 < q.Words*9 {
		j.flag(doc.CodeNTFFQuanta, doc.Warning, nil, "%d of %s %s's %d traced words last a whole number of %.2f ps cycles (%s at %.2f GHz): the clock table (or the records) is wrong for this capture.", q.OnQuantum, core, name, q.Words, q.QuantumPS, j.chip, 1e12/q.QuantumPS/1e3)
	}
}

// checks is checks 5–8, against the NEFF's static sync model and its DMA.
func (j *joiner) checks() {
	model := j.neff.Sched()
	for _, mc := range j.m.Cores {
		c := modelCore(model, mc.Core)
		if c == nil {
			continue
		}
		ct := j.coreTimes(mc.Core)
		j.waits(c, ct)
		j.semTotals(c, ct, mc.Core)
		j.dmaBytes(mc.Core, ct)
	}
	for k := range j.m.Cores {
		mc := &j.m.Cores[k]
		c := modelCore(model, mc.Core)
		if c == nil {
			continue
		}
		for _, t := range c.SemTotals() {
			for i := range mc.Semaphores {
				if mc.Semaphores[i].Semaphore == int(t.Sem) {
					v := t.Total
					mc.Semaphores[i].StaticTotal = &v
				}
			}
		}
	}
}

func (j *joiner) coreTimes(name string) *ntff.CoreTimes {
	for _, ct := range j.r.Times.Cores {
		if ct.Core.Name == name {
			return ct
		}
	}
	return nil
}

// streamOf is the measured stream of engine k of model core c.
func (j *joiner) streamOf(c *sched.Core, k int16) *StreamTimes {
	if k < 0 || int(k) >= len(c.Engines) {
		return nil
	}
	return j.r.Stream(c.Engines[k].Member)
}

// waits is check 5 (every engine→engine wait: the producer's end against the waiter's start
// and end) and check 7 (every DMA-produced wait against the semaphore's recorded values).
func (j *joiner) waits(c *sched.Core, ct *ntff.CoreTimes) {
	ck := &j.m.Checks
	for _, w := range c.Waits {
		if w.Code != sched.OK || !w.Producer.Valid() {
			continue
		}
		ws := j.streamOf(c, w.Engine)
		if w.Queue >= 0 {
			j.dmaWait(c, ct, w, ws)
			continue
		}
		ps := j.streamOf(c, w.Producer.Engine)
		if !ws.Timed(int(w.Index)) || !ps.Timed(int(w.Producer.Index)) {
			ck.WaitsUntimed++
			continue
		}
		pe, s, e := ps.End[w.Producer.Index], ws.Start[w.Index], ws.End[w.Index]
		wc := WaitCheck{Core: c.Name, Waiter: Ref{c.EngineName(w.At), w.Index}, Producer: Ref{c.EngineName(w.Producer), w.Producer.Index}, Semaphore: w.Sem, Value: w.Value, ProducerEndPS: pe, WaiterStartPS: s, WaiterEndPS: e}
		switch {
		case pe <= s:
			ck.WaitsInOrder++
		case pe <= e:
			ck.WaitsMetInside++
			ck.MetInside = append(ck.MetInside, wc)
			j.flag(doc.CodeNTFFWaitMetInside, doc.Info, nil, "%s %s #%d waits S[%d] >= %d for %s #%d, which ends %d ps after the waiter's start record, inside the waiter (%d ps long): the start record precedes the wait's resolution (spec ntff.md §4.4).", c.Name, wc.Waiter.Engine, w.Index, w.Sem, w.Value, wc.Producer.Engine, w.Producer.Index, pe-s, e-s)
		default:
			ck.WaitsViolated++
			ck.Violations = append(ck.Violations, wc)
			j.flag(doc.CodeNTFFWaitViolated, doc.Warning, nil, "%s %s #%d waits S[%d] >= %d, which the static model says %s #%d satisfies; but the device ran the waiter from %d to %d ps and the producer ended at %d ps, %d ps after the waiter ended. The static sync model is wrong about this wait, or the profile is.", c.Name, wc.Waiter.Engine, w.Index, w.Sem, w.Value, wc.Producer.Engine, w.Producer.Index, s, e, pe, pe-e)
		}
	}
}

// dmaWait is check 7 for one wait whose producer is a DMA transfer.
func (j *joiner) dmaWait(c *sched.Core, ct *ntff.CoreTimes, w sched.Wait, ws *StreamTimes) {
	d := &j.m.Checks.DMAWaits
	d.Waits++
	var se *ntff.Series
	if ct != nil {
		for _, s := range ct.Semaphores {
			if s.ID == int(w.Sem) {
				se = s
			}
		}
	}
	if se == nil || !ws.Timed(int(w.Index)) {
		d.Undecidable++
		return
	}
	start := ws.Start[w.Index]
	k := sort.Search(len(se.Points), func(i int) bool { return se.Points[i].T > start })
	for _, pt := range se.Points[:k] {
		if pt.Value >= w.Value {
			d.Confirmed++
			return
		}
	}
	for _, pt := range se.Points[k:] {
		if pt.Op == ntff.NotifyWrite {
			break // a reset: what follows is another count
		}
		if pt.Value < w.Value {
			d.Contradicted++
			j.flag(doc.CodeNTFFDMAWait, doc.Warning, nil, "%s %s #%d waits S[%d] >= %d (a DMA transfer's completion) and started at %d ps, but the semaphore read %d at %d ps, after the start: the device ran the waiter before the transfer the static model names completed.", c.Name, c.EngineName(w.At), w.Index, w.Sem, w.Value, start, pt.Value, pt.T)
			return
		}
	}
	d.Undecidable++
}

// semTotals is check 6: each semaphore's peak recorded value against its static total.
func (j *joiner) semTotals(c *sched.Core, ct *ntff.CoreTimes, core string) {
	s := &j.m.Checks.Semaphores
	for _, t := range c.SemTotals() {
		if t.Unknown {
			continue
		}
		s.Checked++
		var se *ntff.Series
		if ct != nil {
			for _, x := range ct.Semaphores {
				if x.ID == int(t.Sem) {
					se = x
				}
			}
		}
		if se != nil && uint64(se.Peak) == t.Total {
			s.Exact++
			continue
		}
		miss := SemaphoreMiss{Core: core, Semaphore: t.Sem, Static: t.Total, DMA: t.DMA, MaxWait: t.MaxWait}
		if se != nil {
			miss.Peak, miss.Records = se.Peak, se.Records
		}
		s.Misses = append(s.Misses, miss)
		// A DMA-produced semaphore reads short when its records are lost (spec ntff.md §4.4);
		// anything else is the device disagreeing with the static count.
		if !(t.DMA && uint64(miss.Peak) < t.Total) {
			j.flag(doc.CodeNTFFSemaphoreTotal, doc.Warning, nil, "%s S[%d]: the NEFF's updates add up to %d, but its peak recorded value is %d (%d records): the static count of its updates is wrong, or the device updated it otherwise.", core, t.Sem, t.Total, miss.Peak, miss.Records)
		}
	}
}

// dmaBytes is check 8: per queue, the measured bytes against what the program moves plus 64 B
// per DMA (spec ntff.md §5: 16 four-byte semaphore writes, one per DMA engine), what each DMA
// word moves as inspect.DMAMoves reads it.
func (j *joiner) dmaBytes(core string, ct *ntff.CoreTimes) {
	if ct == nil {
		return
	}
	type prog struct{ bytes, dmas int64 }
	byQueue := map[string]*prog{}
	at := func(q string) *prog {
		if byQueue[q] == nil {
			byQueue[q] = &prog{}
		}
		return byQueue[q]
	}
	for _, ps := range j.neff.Program.Streams {
		if ps.Core.Name != core || ps.ISA == nil {
			continue
		}
		for _, w := range ps.ISA.Words() {
			if q, n, ok := inspect.DMAMoves(ps, w); ok {
				at(q).bytes += n
				at(q).dmas++
			}
		}
	}
	for _, q := range ct.Queues {
		p := byQueue[q.Name]
		if p == nil {
			continue // runtime traffic (the activation and DVE tables): not the program's
		}
		c := DMABytesCheck{Core: core, Queue: q.Name, Measured: q.Bytes, Program: p.bytes, DMAs: p.dmas, Expected: p.bytes + 64*p.dmas}
		c.Exact = c.Expected == c.Measured
		j.m.Checks.DMABytes = append(j.m.Checks.DMABytes, c)
		if !c.Exact {
			j.flag(doc.CodeNTFFDMABytes, doc.Warning, nil, "%s queue %s moved %d B; the program moves %d B in %d DMAs, %d B with their semaphore writes (exact on every queue of the captures checked).", core, q.Name, c.Measured, c.Program, c.DMAs, c.Expected)
		}
	}
}
