package timeline

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
)

// Estimated is the schedule in the contract's shape, rows included: for a program of a few
// hundred thousand instructions at most (WriteEstimatedJSON streams the rows of any size).
func (s *Schedule) Estimated() *Estimated {
	out := s.header()
	for k, cs := range s.Cores {
		ec := &out.Cores[k]
		for j := range cs.Engines {
			es := &cs.Engines[j]
			rows := make([]EstimatedRow, 0, len(es.Start))
			for i := range es.Start {
				if r, ok := cs.row(es, i); ok {
					r.Error = cs.rowError(j, i)
					rows = append(rows, r)
				}
			}
			ec.Engines[j].Rows = rows
		}
	}
	return out
}

// header is the estimate without rows.
func (s *Schedule) header() *Estimated {
	out := &Estimated{Cores: make([]EstimatedCore, 0, len(s.Cores)), Model: Model(s.Target)}
	for _, cs := range s.Cores {
		ec := EstimatedCore{Core: cs.Name, SpanPS: cs.SpanPS, Engines: make([]EstimatedEngine, 0, len(cs.Engines)),
			CriticalPath: make([]Ref, 0, len(cs.Critical)), Unmodelled: cs.unmodelled()}
		for j := range cs.Engines {
			es := &cs.Engines[j]
			ee := EstimatedEngine{Engine: es.Name, BusyPS: es.BusyPS, Rows: []EstimatedRow{}, Idle: es.Idle, RowErrors: cs.engineRowErrors(j)}
			for _, c := range es.Idle {
				ee.IdlePS += c.PS
			}
			ec.Engines = append(ec.Engines, ee)
		}
		for _, a := range cs.Critical {
			ec.CriticalPath = append(ec.CriticalPath, Ref{Engine: cs.Model.EngineName(a), Index: a.Index})
		}
		out.Cores = append(out.Cores, ec)
	}
	return out
}

func (cs *CoreSchedule) unmodelled() Unmodelled {
	return Unmodelled{Waits: cs.WaitsUnmodelled, Uncosted: cs.Uncosted, UncostedOps: cs.UncostedOps, NeverRun: cs.NeverRun, DMAUnsized: cs.DMAUnsized, OrderUnknown: cs.OrderUnknown, Limit: cs.Limit}
}

// row is instruction i of an engine as a contract row (false when it never runs).
func (cs *CoreSchedule) row(es *EngineSchedule, i int) (EstimatedRow, bool) {
	st := es.Start[i]
	if st < 0 {
		return EstimatedRow{}, false
	}
	return EstimatedRow{Index: int32(i), StartPS: st, EndPS: st + int64(es.Lat[i]), Waited: cs.waited(es, i)}, true
}

// WaitedOf is why instruction i of engine k started when it did (the row's waited).
func (cs *CoreSchedule) WaitedOf(k, i int) Waited { return cs.waited(&cs.Engines[k], i) }

// waited is why instruction i started when it did.
func (cs *CoreSchedule) waited(es *EngineSchedule, i int) Waited {
	c := es.Cause[i]
	switch {
	case c >= 0:
		w := &cs.Model.Waits[c]
		p := &Ref{Engine: cs.Model.EngineName(w.Producer), Index: w.Producer.Index}
		if cs.isDMA(w) {
			return Waited{Reason: WaitedDMA, DMA: cs.queueName(w), Producer: p, PS: es.Waited[i]}
		}
		return Waited{Reason: WaitedSemaphore, Producer: p, PS: es.Waited[i]}
	case c == CauseEngine && es.Waited[i] > 0:
		return Waited{Reason: WaitedEngine, PS: es.Waited[i]}
	}
	return Waited{Reason: WaitedNone}
}

// WriteEstimatedJSON writes the estimate as the contract's "estimated" object, a row at a
// time (a 32 MB NEFF has 1.8 M of them), each row as encoding/json writes EstimatedRow.
func WriteEstimatedJSON(w io.Writer, s *Schedule) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	h := s.header()
	bw.WriteString(`{"cores":[`)
	buf := make([]byte, 0, 256)
	for k, cs := range s.Cores {
		if k > 0 {
			bw.WriteByte(',')
		}
		ec := h.Cores[k]
		names := make([][]byte, len(cs.Engines)) // each engine's name, quoted once
		for j := range cs.Engines {
			names[j] = appendJSONString(nil, cs.Engines[j].Name)
		}
		bw.WriteString("\n{\"core\":")
		writeJSON(bw, ec.Core)
		bw.WriteString(`,"span_ps":`)
		bw.WriteString(strconv.FormatInt(ec.SpanPS, 10))
		bw.WriteString(`,"unmodelled":`)
		writeJSON(bw, ec.Unmodelled)
		bw.WriteString(`,"engines":[`)
		for j := range cs.Engines {
			es := &cs.Engines[j]
			if j > 0 {
				bw.WriteByte(',')
			}
			ee := ec.Engines[j]
			bw.WriteString("\n {\"engine\":")
			writeJSON(bw, ee.Engine)
			bw.WriteString(`,"busy_ps":`)
			bw.WriteString(strconv.FormatInt(ee.BusyPS, 10))
			bw.WriteString(`,"idle_ps":`)
			bw.WriteString(strconv.FormatInt(ee.IdlePS, 10))
			bw.WriteString(`,"idle":`)
			writeJSON(bw, ee.Idle)
			if ee.RowErrors != nil {
				bw.WriteString(`,"row_errors":`)
				writeJSON(bw, ee.RowErrors)
			}
			bw.WriteString(`,"rows":[`)
			first := true
			for i := range es.Start {
				if es.Start[i] < 0 {
					continue
				}
				if !first {
					bw.WriteByte(',')
				}
				first = false
				buf = cs.appendRow(buf[:0], es, i, names, cs.rowError(j, i))
				bw.Write(buf)
			}
			bw.WriteString("]}")
		}
		bw.WriteString("],\n\"critical_path\":[")
		for i, a := range cs.Critical {
			if i > 0 {
				bw.WriteByte(',')
			}
			buf = appendRef(buf[:0], names[a.Engine], a.Index)
			bw.Write(buf)
		}
		bw.WriteString("]}")
	}
	bw.WriteString("],\n\"model\":")
	writeJSON(bw, h.Model)
	bw.WriteString("}")
	return bw.Flush()
}

func writeJSON(w *bufio.Writer, v any) {
	b, _ := json.Marshal(v)
	w.Write(b)
}

// appendRow writes instruction i's row as encoding/json writes its EstimatedRow (cs.row, with
// rerr its error; the streamed and encoded JSON are held equal by
// TestEstimatedJSONMatchesEncoding), from the columns: no row is built. names are the engines'
// names, quoted.
func (cs *CoreSchedule) appendRow(b []byte, es *EngineSchedule, i int, names [][]byte, rerr *RowError) []byte {
	st := es.Start[i]
	b = append(b, "\n  {\"index\":"...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"start_ps":`...)
	b = strconv.AppendInt(b, st, 10)
	b = append(b, `,"end_ps":`...)
	b = strconv.AppendInt(b, st+int64(es.Lat[i]), 10)
	b = append(b, `,"waited":{"reason":`...)
	c := es.Cause[i]
	switch {
	case c >= 0:
		wt := &cs.Model.Waits[c]
		dma := cs.isDMA(wt)
		if dma {
			b = append(b, `"dma"`...)
		} else {
			b = append(b, `"semaphore"`...)
		}
		b = append(b, `,"producer":`...)
		b = appendRef(b, names[wt.Producer.Engine], wt.Producer.Index)
		if dma {
			b = append(b, `,"dma":`...)
			b = appendJSONString(b, cs.queueName(wt))
		}
		b = append(b, `,"ps":`...)
		b = strconv.AppendInt(b, es.Waited[i], 10)
	case c == CauseEngine && es.Waited[i] > 0:
		b = append(b, `"engine","ps":`...)
		b = strconv.AppendInt(b, es.Waited[i], 10)
	default:
		b = append(b, `"none","ps":0`...)
	}
	b = append(b, '}')
	if rerr != nil {
		b = append(b, `,"error":{"start_ps":`...)
		b = strconv.AppendInt(b, rerr.StartPS, 10)
		b = append(b, `,"duration_ps":`...)
		b = strconv.AppendInt(b, rerr.DurationPS, 10)
		b = append(b, '}')
	}
	return append(b, '}')
}

func appendRef(b []byte, engine []byte, index int32) []byte {
	b = append(b, `{"engine":`...)
	b = append(b, engine...)
	b = append(b, `,"index":`...)
	b = strconv.AppendInt(b, int64(index), 10)
	return append(b, '}')
}

// appendJSONString quotes a name from a file (any bytes) as the CLI's JSON does: valid JSON,
// and safe on a terminal (doc.JSONSafe).
func appendJSONString(b []byte, s string) []byte {
	return doc.AppendJSONString(b, s, doc.JSONSafe)
}
