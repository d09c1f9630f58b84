package timeline

import (
	"math"

	"github.com/neffscope/neffscope/core/sched"
)

// How an estimate is held to a profile (docs/estimate.md): the span of the core, each
// engine's busy time, and the waits the device shows blocked on another engine.

// Compare is the estimate of one core against what a profile measured for it: signed errors
// (estimate − measured, over measured) of the span and of each engine's busy time, and the
// share of the waits the device shows blocked on another engine that the estimate blames on
// that producer (Blocked counts them).
func Compare(cs *CoreSchedule, m *MeasuredCore) (KernelError, int) {
	ke := KernelError{Busy: map[string]float64{}}
	mrows := measuredIndex(cs, m)
	first, last := uint64(math.MaxUint64), uint64(0)
	for _, e := range m.Engines {
		for _, r := range e.Rows {
			first, last = min(first, r.StartPS), max(last, r.EndPS)
		}
	}
	if last > first {
		ke.Span = relErr(float64(cs.SpanPS), float64(last-first))
	}
	for k := range cs.Engines {
		es := &cs.Engines[k]
		for _, e := range m.Engines {
			if e.Engine == es.Name && e.BusyPS > 0 {
				ke.Busy[es.Name] = relErr(float64(es.BusyPS), float64(e.BusyPS))
			}
		}
	}
	right, blocked := 0, 0
	for k := range cs.Engines {
		for i := range cs.Engines[k].Start {
			p, ok := deviceBlocker(cs.Model, mrows, k, i)
			if !ok {
				continue
			}
			blocked++
			if c := cs.Engines[k].Cause[i]; c >= 0 && cs.Engines[k].Start[i] >= 0 && cs.Model.Waits[c].Producer == p {
				right++
			}
		}
	}
	if blocked > 0 {
		ke.Attributed = float64(right) / float64(blocked)
	}
	return ke, blocked
}

func relErr(est, meas float64) float64 { return (est - meas) / meas }

// interval is a measured start and end (absolute ps); ok false when the instruction has none.
type interval struct {
	start, end uint64
	ok         bool
}

// measuredIndex lays the measured rows out by the schedule's engines and indexes.
func measuredIndex(cs *CoreSchedule, m *MeasuredCore) [][]interval {
	out := make([][]interval, len(cs.Engines))
	for k := range cs.Engines {
		out[k] = make([]interval, len(cs.Engines[k].Start))
		for _, e := range m.Engines {
			if e.Engine != cs.Engines[k].Name {
				continue
			}
			for _, r := range e.Rows {
				if r.Index >= 0 && int(r.Index) < len(out[k]) {
					out[k][r.Index] = interval{r.StartPS, r.EndPS, true}
				}
			}
		}
	}
	return out
}

// blockedSlackPS is how long after its producer's end a waiter may start and still count as
// released by it: the semaphore latency's p90 is 150 ns (ntff.md §6.2); a start later than
// this waited on something else (a DMA the rows cannot show).
const blockedSlackPS = 1_000_000

// deviceBlocker is the instruction the device shows instruction i of engine k blocked on: of
// its waits on instructions of other engines, the producer that ended last, when it ended
// after the waiter's previous instruction did and at most blockedSlackPS before the waiter
// started (spec ntff.md §6.2's "engine→engine waits whose waiter was blocked").
func deviceBlocker(c *sched.Core, rows [][]interval, k, i int) (sched.At, bool) {
	me := rows[k][i]
	if !me.ok {
		return sched.None, false
	}
	var prevEnd uint64
	for j := i - 1; j >= 0; j-- {
		if rows[k][j].ok {
			prevEnd = rows[k][j].end
			break
		}
	}
	best, bestEnd := sched.None, uint64(0)
	for _, w := range waitsOf(c, k, i) {
		if w.Code != sched.OK || !w.Producer.Valid() || int(w.Producer.Engine) == k || w.Queue >= 0 {
			continue
		}
		p := w.Producer
		if int(p.Engine) >= len(rows) || int(p.Index) >= len(rows[p.Engine]) {
			continue
		}
		pr := rows[p.Engine][p.Index]
		if !pr.ok || pr.end <= bestEnd {
			continue
		}
		best, bestEnd = p, pr.end
	}
	if !best.Valid() || bestEnd <= prevEnd || bestEnd > me.start+blockedSlackPS || me.start > bestEnd+blockedSlackPS {
		return sched.None, false
	}
	return best, true
}

// waitsOf are the waits of instruction i of engine k (the model keeps each engine's waits
// in program order, engine after engine).
func waitsOf(c *sched.Core, k, i int) []sched.Wait {
	lo, hi := 0, len(c.Waits)
	for lo < hi {
		mid := (lo + hi) / 2
		w := c.Waits[mid]
		if int(w.Engine) < k || int(w.Engine) == k && int(w.Index) < i {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	j := lo
	for j < len(c.Waits) && int(c.Waits[j].Engine) == k && int(c.Waits[j].Index) == i {
		j++
	}
	return c.Waits[lo:j]
}
