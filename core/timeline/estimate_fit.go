package timeline

import (
	"math"
	"slices"
	"sort"

	"github.com/neffscope/neffscope/core/sched"
)

// How the cost table's measured figures are made, so that they can be made again on other
// profiles and held out one kernel at a time (docs/estimate.md).

// Calibration is one kernel the model is fitted on or held to: what the estimate runs on (its
// first core is the one measured) and what the profile measured for that core.
type Calibration struct {
	Kernel   string
	Input    Input
	Measured *MeasuredCore
	// Records are the profile's kind-2 records and DMA transfers for that core (nil: the DGE
	// and DMA figures keep base's).
	Records *Records
}

// minSamples is the fewest instructions a row's figure is fitted on.
const minSamples = 3

// retireGrid are the retire intervals Fit tries (ns, RetireModel).
var retireGrid = []float64{0, 100, 200, 300, 400, 500, 600, 700, 800}

// Fit is base with the figures the profiles measure refitted on cals:
//   - each cost row's latency: the mean (5 % trimmed at each end: busy time is a sum) over its
//     instructions of their measured start→end, less the row's shape term (rows of software-DGE triggers keep theirs: their time is the
//     generator's);
//   - each row's issue interval: the median over the instructions whose successor started
//     right behind them (none of the successor's waits was pending) of the start-to-start
//     time, less the shape term (an
//     EventSemaphore successor is left out: its start record may precede its wait, ntff.md
//     §4.4; so is a DGE trigger, whose start is the generator's);
//   - the semaphore latencies: the median, over the waits the device shows blocked on an
//     engine, of producer end → waiter start;
//   - the retire interval: the value of retireGrid whose estimates have the smallest mean
//     |span error| over cals.
//
// A row with fewer than minSamples samples, and an engine's default row, keep base's figures.
func Fit(base *CostModel, cals []Calibration) *CostModel {
	base.prepare()
	m := base.clone()
	lat := make([][]float64, len(m.Ops))
	iss := make([][]float64, len(m.Ops))
	var same, other []float64
	for _, c := range cals {
		base.samples(c, lat, iss, &same, &other)
	}
	for i := range m.Ops {
		r := &m.Ops[i]
		if r.Opcode == 0 || m.dgeTrigger(r.Engine, r.Opcode) {
			continue // an engine's default is a guess for opcodes without a row, not a fit
		}
		if len(lat[i]) >= minSamples {
			r.Latency = round1(mean(lat[i]))
		}
		if len(iss[i]) >= minSamples {
			r.Issue = round1(median(iss[i]))
		}
	}
	if len(same) > 0 {
		m.Semaphore.SameEngine = round1(median(same))
	}
	if len(other) > 0 {
		m.Semaphore.OtherEngine = round1(median(other))
	}
	m.fitDGE(cals)
	m.fitSlowMode(cals)
	best, bestErr := m.Retire.IntervalNS, math.Inf(1)
	for _, r := range retireGrid {
		t := m.clone()
		t.Retire.IntervalNS = r
		var sum float64
		for _, c := range cals {
			ke, _ := t.predict(c)
			sum += math.Abs(ke.Span)
		}
		if sum < bestErr {
			best, bestErr = r, sum
		}
	}
	m.Retire.IntervalNS = best
	return m
}

// LeaveOneOut predicts each kernel of cals with the model Fit makes from the others.
func LeaveOneOut(base *CostModel, cals []Calibration) []KernelError {
	var out []KernelError
	for k, c := range cals {
		train := append(slices.Clone(cals[:k]), cals[k+1:]...)
		ke, _ := Fit(base, train).predict(c)
		ke.Kernel = c.Kernel
		out = append(out, ke)
	}
	return out
}

// clone is a copy of m's figures (its rows copied, its index not).
func (m *CostModel) clone() *CostModel {
	return &CostModel{Clocks: m.Clocks, Ops: slices.Clone(m.Ops), Semaphore: m.Semaphore, DMA: m.DMA, DGE: m.DGE, Retire: m.Retire}
}

// predict estimates c's first core with m and compares it with what was measured.
func (m *CostModel) predict(c Calibration) (KernelError, int) {
	in := c.Input
	in.Costs = m
	s := Estimate(in, nil)
	if len(s.Cores) == 0 {
		return KernelError{Kernel: c.Kernel, Busy: map[string]float64{}}, 0
	}
	ke, n := Compare(s.Cores[0], c.Measured)
	ke.Kernel = c.Kernel
	return ke, n
}

// mean is v's mean without its 5 % smallest and 5 % largest values.
func mean(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	cut := len(s) / 20
	s = s[cut : len(s)-cut]
	var t float64
	for _, x := range s {
		t += x
	}
	return t / float64(len(s))
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }

func median(v []float64) float64 { return quantile(v, 0.5) }

// quantile is the q-quantile of v, interpolated between neighbours.
func quantile(v []float64, q float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	x := q * float64(len(s)-1)
	lo := int(x)
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (x-float64(lo))*(s[lo+1]-s[lo])
}

// dgeTrigger says whether opcode op on engine runs through a software DGE (its start and end
// are the generator's, DGEModel).
func (m *CostModel) dgeTrigger(engine string, op uint8) bool {
	return op == 0xD4 && m.dgeEngine(engine)
}

// samples adds calibration c's measured latencies and issue intervals (in cycles, less each
// row's shape term) to the rows' lists, and its blocked waits' semaphore latencies (ns).
func (m *CostModel) samples(c Calibration, lat, iss [][]float64, same, other *[]float64) {
	if c.Input.Model == nil || len(c.Input.Model.Cores) == 0 || len(c.Input.Cores) == 0 || c.Measured == nil {
		return
	}
	core := c.Input.Model.Cores[0]
	in := c.Input.Cores[0]
	target := c.Input.Target
	if m.clock(target, "PE") == 0 {
		target = defaultTarget
	}
	rows := measuredRowsOf(c)
	for k := range core.Engines {
		if k >= len(in.Streams) || in.Streams[k].ISA == nil {
			continue
		}
		name := core.Engines[k].Name
		ghz := m.clock(target, name)
		if ghz == 0 {
			continue
		}
		var prev []byte
		prevRow := -1
		for i, w := range in.Streams[k].ISA.Words() {
			if i >= len(rows[k]) {
				break
			}
			r := m.rowOf(name, w[0])
			if r >= 0 && rows[k][i].ok {
				shape := m.shapeCycles(&m.Ops[r], w)
				if l := float64(rows[k][i].end-rows[k][i].start)/1000*ghz - shape; l >= 0 {
					lat[r] = append(lat[r], l)
				}
			}
			if prevRow >= 0 && i > 0 && rows[k][i].ok && rows[k][i-1].ok && w[0] != 0xA0 && !m.dgeTrigger(name, w[0]) && m.unheld(core, rows, k, i) {
				d := float64(int64(rows[k][i].start)-int64(rows[k][i-1].start))/1000*ghz - m.shapeCycles(&m.Ops[prevRow], prev)
				iss[prevRow] = append(iss[prevRow], max(d, 0))
			}
			prev, prevRow = append(prev[:0], w...), r
		}
	}
	for k := range core.Engines {
		for i := range rows[k] {
			p, ok := deviceBlocker(core, rows, k, i)
			if !ok {
				continue
			}
			d := float64(int64(rows[k][i].start)-int64(rows[p.Engine][p.Index].end)) / 1000
			if d < 0 {
				continue
			}
			if int(p.Engine) == k {
				*same = append(*same, d)
			} else {
				*other = append(*other, d)
			}
		}
	}
}

// unheld says whether instruction i of engine k started with none of its waits pending: each
// producer is an engine instruction measured to end before the instruction before i started.
func (m *CostModel) unheld(core *sched.Core, rows [][]interval, k, i int) bool {
	prevStart := rows[k][i-1].start
	for _, w := range waitsOf(core, k, i) {
		if w.Code != sched.OK {
			return false
		}
		if !w.Producer.Valid() {
			continue
		}
		p := w.Producer
		if w.Queue >= 0 || int(p.Engine) >= len(rows) || int(p.Index) >= len(rows[p.Engine]) {
			return false
		}
		if op := core.Engines[p.Engine].Opcode(int(p.Index)); op == 0xD4 || op == 0xC1 {
			return false
		}
		pr := rows[p.Engine][p.Index]
		if !pr.ok || pr.end+uint64(ps(m.Semaphore.OtherEngine)) > prevStart {
			return false
		}
	}
	return true
}

// rowOf is the index in m.Ops of the row that costs opcode op on engine (-1: none).
func (m *CostModel) rowOf(engine string, op uint8) int {
	m.prepare()
	t := m.index[engine]
	if t == nil || t[op] == nil {
		return -1
	}
	for i := range m.Ops {
		if &m.Ops[i] == t[op] {
			return i
		}
	}
	return -1
}

// shapeCycles is a row's per-element term for word w, in cycles.
func (m *CostModel) shapeCycles(r *OpCost, w []byte) float64 {
	if r.Shape == ShapeNone || len(w) < 64 {
		return 0
	}
	n, elem, ok := operandSize(w, r.Shape)
	if !ok {
		return 0
	}
	per := r.PerElem
	if elem > 0 && elem <= 2 {
		per = r.PerElem2
	}
	return per * float64(n) * r.Inputs
}
