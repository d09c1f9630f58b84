package timeline

import (
	"runtime"
	"slices"

	"github.com/neffscope/neffscope/core/budget"
)

// Each instruction's estimate against its measured time, when a profile of the NEFF is given:
// the error of its start (each side counted from its core's first start) and of its duration,
// and per engine how those errors are distributed.

// RowError is one instruction's signed errors, estimate − measured, in ps: of its start (each
// from its core's first start) and of its duration.
type RowError struct {
	StartPS    int64 `json:"start_ps"`
	DurationPS int64 `json:"duration_ps"`
}

// EngineRowErrors is how an engine's per-instruction errors are distributed: over the Rows
// instructions that have both an estimated and a measured time, the median and the 90th
// percentile of |start error| and of |duration error|, in ps.
type EngineRowErrors struct {
	Rows             int   `json:"rows"`
	StartMedianPS    int64 `json:"start_median_ps"`
	StartP90PS       int64 `json:"start_p90_ps"`
	DurationMedianPS int64 `json:"duration_median_ps"`
	DurationP90PS    int64 `json:"duration_p90_ps"`
}

// RowErrors are a core's per-instruction errors, by engine and index (Has says where both
// times exist), and each engine's distribution.
type RowErrors struct {
	Errors  [][]RowError
	Has     [][]bool
	Summary []EngineRowErrors
}

// rowErrorBytes is what RowErrors holds per instruction, charged to the budget.
const rowErrorBytes = 17

// CompareRows is the per-instruction error of core cs's estimate against what m measured for
// it. Nil when the budget b (nil: not charged) refuses its tables.
func CompareRows(cs *CoreSchedule, m *MeasuredCore, b *budget.Budget) *RowErrors {
	var n int64
	for k := range cs.Engines {
		n += int64(len(cs.Engines[k].Start))
	}
	if b != nil && !b.Take(budget.Memory, n*rowErrorBytes, "the per-instruction errors of "+cs.Name) {
		return nil
	}
	rows := measuredIndex(cs, m)
	measFirst, estFirst := uint64(0), int64(-1)
	for k := range cs.Engines {
		for i, st := range cs.Engines[k].Start {
			if st >= 0 && (estFirst < 0 || st < estFirst) {
				estFirst = st
			}
			if r := rows[k][i]; r.ok && (measFirst == 0 || r.start < measFirst) {
				measFirst = r.start
			}
		}
	}
	re := &RowErrors{Errors: make([][]RowError, len(cs.Engines)), Has: make([][]bool, len(cs.Engines)), Summary: make([]EngineRowErrors, len(cs.Engines))}
	if b != nil {
		// The tables stay charged while they are held (as the schedule's are).
		runtime.AddCleanup(re, func(n int64) { b.Release(budget.Memory, n) }, n*rowErrorBytes)
	}
	for k := range cs.Engines {
		es := &cs.Engines[k]
		re.Errors[k] = make([]RowError, len(es.Start))
		re.Has[k] = make([]bool, len(es.Start))
		var starts, durs []int64
		for i, st := range es.Start {
			r := rows[k][i]
			if st < 0 || !r.ok {
				continue
			}
			e := RowError{
				StartPS:    (st - estFirst) - int64(r.start-measFirst),
				DurationPS: int64(es.Lat[i]) - int64(r.end-r.start),
			}
			re.Errors[k][i], re.Has[k][i] = e, true
			starts, durs = append(starts, abs64(e.StartPS)), append(durs, abs64(e.DurationPS))
		}
		re.Summary[k] = EngineRowErrors{Rows: len(starts), StartMedianPS: quantile64(starts, 0.5), StartP90PS: quantile64(starts, 0.9),
			DurationMedianPS: quantile64(durs, 0.5), DurationP90PS: quantile64(durs, 0.9)}
	}
	return re
}

// Against attaches to each core of s its per-instruction errors against the joined profile m
// (a core m does not measure gets none), charged to the budget the estimate was: the rows
// Estimated and WriteEstimatedJSON write then carry them. False when the budget refused a core's.
func (s *Schedule) Against(m *Measured) bool {
	if s == nil || m == nil || !m.Joined {
		return true
	}
	ok := true
	for _, cs := range s.Cores {
		for i := range m.Cores {
			if m.Cores[i].Core == cs.Name && len(cs.Engines) > 0 {
				cs.RowErrors = CompareRows(cs, &m.Cores[i], s.b)
				ok = ok && cs.RowErrors != nil
			}
		}
	}
	return ok
}

// rowError is instruction i of engine k's error (nil when it has none).
func (cs *CoreSchedule) rowError(k, i int) *RowError {
	if cs.RowErrors == nil || k >= len(cs.RowErrors.Has) || i >= len(cs.RowErrors.Has[k]) || !cs.RowErrors.Has[k][i] {
		return nil
	}
	e := cs.RowErrors.Errors[k][i]
	return &e
}

// engineRowErrors is engine k's distribution (nil without errors).
func (cs *CoreSchedule) engineRowErrors(k int) *EngineRowErrors {
	if cs.RowErrors == nil || k >= len(cs.RowErrors.Summary) || cs.RowErrors.Summary[k].Rows == 0 {
		return nil
	}
	e := cs.RowErrors.Summary[k]
	return &e
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// quantile64 is the q-quantile of v (the nearest rank; 0 for none).
func quantile64(v []int64, q float64) int64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s)-1)+0.5))]
}
