package timeline

import (
	"math"
	"slices"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/sched"
)

// How the software DGE's figures (DGEModel) and the dynamic DMA's trigger latency are made
// from profiles: from the triggers' measured rows (the second stage), their kind-2 records
// (the hand-over, Records.HandOver) and their queue's transfers (Records.Transfers). A
// calibration without records adds nothing; a figure without samples keeps base's.

// dgeSamples are the measured samples of the DGE's figures, in ns.
type dgeSamples struct {
	issue, firstLap  [][2]float64 // (n mod Slots, hand-over gap) after n ≥ Slots triggers; before
	handoff, post    []float64
	latency, cadence []float64
	write, least     []float64
	poll, trigger    []float64
}

// heldWithinNS: a hand-over or start within this long after a producer on another engine
// ended counts as held by that wait, and is no sample of the engine's own pace.
const heldWithinNS = 600

// queueBoundNS: a hand-over within this long after the end of the trigger QueueDepth before
// counts as held by the queue.
const queueBoundNS = 1500

// dgeSamplesOf adds calibration c's DGE samples to s.
func (m *CostModel) dgeSamplesOf(c Calibration, s *dgeSamples) {
	if c.Records == nil || c.Input.Model == nil || len(c.Input.Model.Cores) == 0 || c.Measured == nil {
		return
	}
	core := c.Input.Model.Cores[0]
	rows := measuredRowsOf(c)
	g := &m.DGE
	for k := range core.Engines {
		e := &core.Engines[k]
		if !m.dgeEngine(e.Name) {
			continue
		}
		hand := c.Records.HandOver[e.Name]
		var prevHand, prevStart, prevEnd float64 // the previous trigger's, ns
		var ends []float64                       // every trigger's end, ns
		n := -1
		queue, triggers := "", []int{}
		for i := 0; i < e.Len; i++ {
			r := rows[k][i]
			trig := e.Opcode(i) == 0xD4
			h, ok := hand[int32(i)]
			held := m.heldByOther(core, rows, k, i)
			if !trig {
				if i > 0 && e.Opcode(i-1) == 0xD4 && r.ok && prevHand > 0 && !held(float64(r.start)/1000) {
					s.handoff = append(s.handoff, float64(r.start)/1000-prevHand)
				}
				continue
			}
			n++
			triggers = append(triggers, i)
			if q := triggerQueue(core, k, i); q != "" {
				queue = q
			}
			if !ok || !r.ok {
				prevHand = 0
				continue
			}
			H, S, E := float64(h)/1000, float64(r.start)/1000, float64(r.end)/1000
			ends = append(ends, E)
			bound := g.QueueDepth > 0 && n >= g.QueueDepth && len(ends) > g.QueueDepth && H-ends[len(ends)-1-g.QueueDepth] < queueBoundNS
			if held(H) {
				if pe, _ := m.lastProducerEnd(core, rows, k, i); !bound {
					s.post = append(s.post, H-pe)
				}
			} else if !bound && i > 0 && g.Slots > 0 {
				var gap float64
				switch {
				case e.Opcode(i-1) == 0xD4 && prevHand > 0:
					gap = H - prevHand
				case rows[k][i-1].ok && e.Opcode(i-1) != 0xD4:
					gap = H - float64(rows[k][i-1].end)/1000
				}
				if gap > 0 && gap < 1000 {
					x := [2]float64{float64(n % g.Slots), gap}
					if n < g.Slots {
						s.firstLap = append(s.firstLap, x)
					} else {
						s.issue = append(s.issue, x)
					}
				}
			}
			if prevStart > 0 {
				gapS := S - prevStart
				switch {
				case S-prevStart > 1000 && S-H < 700:
					s.latency = append(s.latency, S-H)
				case gapS < 650 && S-H > g.LatencyNS+50:
					s.cadence = append(s.cadence, gapS)
				case gapS >= 650 && gapS < 800:
					s.poll = append(s.poll, gapS)
				}
				if gapS < 650 && E-S > g.MinNS+5 {
					s.write = append(s.write, E-prevEnd)
				}
			}
			if E-S < 45 {
				s.least = append(s.least, E-S)
			}
			prevHand, prevStart, prevEnd = H, S, E
		}
		if ts := c.Records.Transfers[queue]; queue != "" && len(ts) == len(triggers) {
			for j, i := range triggers {
				if r := rows[k][i]; r.ok && ts[j].First > r.end {
					s.trigger = append(s.trigger, float64(ts[j].First-r.end)/1000)
				}
			}
		}
	}
}

// staticTriggerSamples adds calibration c's static DMA trigger latencies (ns): each 0xC1's
// measured end to its transfer's first packet, the triggers of one engine on one queue matched
// in order to the queue's transfers when their counts agree.
func staticTriggerSamples(c Calibration, out *[]float64) {
	if c.Records == nil || c.Input.Model == nil || len(c.Input.Model.Cores) == 0 || len(c.Input.Cores) == 0 || c.Measured == nil {
		return
	}
	core := c.Input.Model.Cores[0]
	rows := measuredRowsOf(c)
	for k, si := range c.Input.Cores[0].Streams {
		if si.ISA == nil || k >= len(rows) {
			continue
		}
		byQueue := map[string][]int{}
		for i, w := range si.ISA.Words() {
			if w[0] != 0xC1 || i >= len(rows[k]) {
				continue
			}
			if q, _ := isa.QueueOf(w); q != "" {
				byQueue[q] = append(byQueue[q], i)
			}
		}
		for q, is := range byQueue {
			ts := c.Records.Transfers[q]
			if len(ts) != len(is) || k >= len(core.Engines) {
				continue
			}
			for j, i := range is {
				if r := rows[k][i]; r.ok && ts[j].First > r.end {
					*out = append(*out, float64(ts[j].First-r.end)/1000)
				}
			}
		}
	}
}

// fitDGE sets m's DGE figures and the DMA trigger latencies from cals' samples (Fit).
func (m *CostModel) fitDGE(cals []Calibration) {
	var s dgeSamples
	var static []float64
	for _, c := range cals {
		m.dgeSamplesOf(c, &s)
		staticTriggerSamples(c, &static)
	}
	if len(static) >= minSamples {
		m.DMA.TriggerStaticNS = round1(median(static))
	}
	g := &m.DGE
	if a, b, ok := line(s.issue); ok {
		g.IssueNS, g.IssueStepNS = round1(a), math.Round(b*100)/100
	}
	if len(s.firstLap) >= minSamples {
		var num, den float64
		for _, x := range s.firstLap {
			num += x[0] * (x[1] - g.IssueNS)
			den += x[0] * x[0]
		}
		if den > 0 {
			g.FirstLapStepNS = round1(num / den)
		}
	}
	set := func(dst *float64, v []float64, f func([]float64) float64) {
		if len(v) >= minSamples {
			*dst = round1(f(v))
		}
	}
	set(&g.HandoffNS, s.handoff, median)
	// After a wait the hand-over's soonest is what counts: the median is late by semaphore
	// updates that landed late (docs/estimate.md).
	if len(s.post) >= minSamples {
		g.PostWaitNS = round1(quantile(s.post, 0.1) - m.Semaphore.OtherEngine)
	}
	set(&g.LatencyNS, s.latency, median)
	set(&g.CadenceNS, s.cadence, median)
	set(&g.WriteNS, s.write, median)
	set(&g.MinNS, s.least, median)
	set(&g.PollNS, s.poll, median)
	set(&m.DMA.TriggerDynamicNS, s.trigger, median)
}

// line is the least-squares line y = a + b·x through pts (ok false with fewer than
// minSamples points or one x).
func line(pts [][2]float64) (a, b float64, ok bool) {
	if len(pts) < minSamples {
		return 0, 0, false
	}
	var sx, sy, sxx, sxy float64
	for _, p := range pts {
		sx, sy, sxx, sxy = sx+p[0], sy+p[1], sxx+p[0]*p[0], sxy+p[0]*p[1]
	}
	n := float64(len(pts))
	d := n*sxx - sx*sx
	if d == 0 {
		return 0, 0, false
	}
	b = (n*sxy - sx*sy) / d
	return (sy - b*sx) / n, b, true
}

// slowGrid are the slow mode's figures Fit tries (SlowBacklogNS; SlowTriggers, 0: no slow mode).
var (
	slowBacklogGrid  = []float64{100, 200, 300, 400, 500, 600}
	slowTriggersGrid = []int{0, 5, 10, 15, 20, 25}
)

// fitSlowMode sets the DGE's slow mode to the grid point whose estimates have the smallest
// mean |busy error| of the DGE engines over cals.
func (m *CostModel) fitSlowMode(cals []Calibration) {
	best, bestErr := m.DGE, math.Inf(1)
	for _, n := range slowTriggersGrid {
		for _, b := range slowBacklogGrid {
			if n == 0 && b != slowBacklogGrid[0] {
				continue // no slow mode: the backlog does not matter
			}
			t := m.clone()
			t.DGE.SlowTriggers, t.DGE.SlowBacklogNS = n, b
			var sum float64
			for _, c := range cals {
				ke, _ := t.predict(c)
				for _, e := range t.DGE.Engines {
					sum += math.Abs(ke.Busy[e])
				}
			}
			if sum < bestErr {
				best, bestErr = t.DGE, sum
			}
		}
	}
	m.DGE = best
}

// dgeEngine says whether engine runs its 0xD4 triggers through the software DGE.
func (m *CostModel) dgeEngine(engine string) bool { return slices.Contains(m.DGE.Engines, engine) }

// measuredRowsOf lays c's measured rows out by its first core's engines and indexes.
func measuredRowsOf(c Calibration) [][]interval {
	core := c.Input.Model.Cores[0]
	stub := &CoreSchedule{Model: core, Engines: make([]EngineSchedule, len(core.Engines))}
	for k := range core.Engines {
		stub.Engines[k] = EngineSchedule{Name: core.Engines[k].Name, Start: make([]int64, core.Engines[k].Len)}
	}
	return measuredIndex(stub, c.Measured)
}

// heldByOther is, for instruction i of engine k, whether a time t (ns) lies within
// heldWithinNS after the measured end of a producer on another engine it waits on.
func (m *CostModel) heldByOther(core *sched.Core, rows [][]interval, k, i int) func(t float64) bool {
	return func(t float64) bool {
		pe, ok := m.lastProducerEnd(core, rows, k, i)
		return ok && t-pe < heldWithinNS
	}
}

// lastProducerEnd is the latest measured end (ns) of instruction i's producers on other
// engines, and whether it has one.
func (m *CostModel) lastProducerEnd(core *sched.Core, rows [][]interval, k, i int) (float64, bool) {
	var last float64
	found := false
	for _, w := range waitsOf(core, k, i) {
		p := w.Producer
		if w.Code != sched.OK || !p.Valid() || int(p.Engine) == k || w.Queue >= 0 || int(p.Engine) >= len(rows) || int(p.Index) >= len(rows[p.Engine]) {
			continue
		}
		if r := rows[p.Engine][p.Index]; r.ok {
			last, found = max(last, float64(r.end)/1000), true
		}
	}
	return last, found
}

// triggerQueue is the DMA queue of trigger i of engine k: the queue the sync model names for a
// wait it satisfies ("" when no wait names one).
func triggerQueue(core *sched.Core, k, i int) string {
	for j := range core.Waits {
		w := &core.Waits[j]
		if int(w.Producer.Engine) == k && int(w.Producer.Index) == i && w.Queue >= 0 && int(w.Queue) < len(core.Queues) {
			return core.Queues[w.Queue]
		}
	}
	return ""
}
