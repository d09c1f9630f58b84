package timeline

import (
	"bufio"
	"encoding/json"
	"io"
	"strconv"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/sched"
)

// WriteEstimatedTrace writes the estimate as a Chrome trace (the traceEvents JSON Perfetto and
// chrome://tracing open), in estimated time: microseconds from each core's start, to the
// picosecond. A process per core; a thread per engine with a slice per instruction that runs
// (category "critical" on the critical path, else "instruction"), its args the instruction's
// index, estimated_start_ps, estimated_end_ps and why it waited; a flow arrow from each
// instruction whose wait set its start to its producer (category "sync", or "dma" for a
// transfer). The trace's otherData carries the model's measured error and what it leaves out.
// A slice carries, beside those, the instruction's waits (sched.Core.AppendWaitArgs) and what
// args adds.
func WriteEstimatedTrace(w io.Writer, s *Schedule, args sched.SliceArgs) error {
	t := &traceWriter{bw: bufio.NewWriterSize(w, 1<<16), buf: make([]byte, 0, 256), args: args}
	model, _ := json.Marshal(Model(s.Target))
	t.bw.WriteString(`{"displayTimeUnit":"ns","otherData":{"axis":"estimated time: µs from each core's start (neffscope's static cost model, not a measurement)","model":`)
	t.bw.Write(model)
	t.bw.WriteString("},\"traceEvents\":[\n")
	for pid, cs := range s.Cores {
		t.meta("process_name", pid, -1, cs.Name+" (estimated)")
		critical := make([][]bool, len(cs.Engines))
		for k := range cs.Engines {
			critical[k] = make([]bool, len(cs.Engines[k].Start))
		}
		for _, a := range cs.Critical {
			critical[a.Engine][a.Index] = true
		}
		for tid := range cs.Engines {
			es := &cs.Engines[tid]
			t.meta("thread_name", pid, tid, es.Name)
			for i, st := range es.Start {
				if st < 0 {
					continue
				}
				cat := "instruction"
				if critical[tid][i] {
					cat = "critical"
				}
				t.estimatedSlice(pid, tid, cs, es, i, cat)
			}
		}
		t.estimatedFlows(pid, cs)
	}
	t.bw.WriteString("\n]}\n")
	return t.bw.Flush()
}

// estimatedSlice writes instruction i of engine es as a slice with its estimated times and why
// it waited as args.
func (t *traceWriter) estimatedSlice(pid, tid int, cs *CoreSchedule, es *EngineSchedule, i int, cat string) {
	st, end := es.Start[i], es.End(i)
	b := append(t.buf[:0], `{"ph":"X","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"ts":`...)
	b = t.ts(b, uint64(st))
	b = append(b, `,"dur":`...)
	b = strconv.AppendFloat(b, float64(end-st)/1e6, 'f', -1, 64)
	b = append(b, `,"cat":"`...)
	b = append(b, cat...)
	b = append(b, `","name":`...)
	b = appendJSONString(b, isa.OpcodeName(cs.Model.Engines[tid].Opcode(i)))
	b = append(b, `,"args":{"index":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"estimated_start_ps":`...)
	b = strconv.AppendInt(b, st, 10)
	b = append(b, `,"estimated_end_ps":`...)
	b = strconv.AppendInt(b, end, 10)
	wt := cs.waited(es, i)
	b = append(b, `,"waited":`...)
	b = appendJSONString(b, wt.Reason)
	if wt.PS > 0 {
		b = append(b, `,"waited_ps":`...)
		b = strconv.AppendInt(b, wt.PS, 10)
	}
	if wt.Producer != nil {
		b = append(b, `,"producer":`...)
		b = appendJSONString(b, wt.Producer.Engine+" #"+strconv.Itoa(int(wt.Producer.Index)))
	}
	if wt.DMA != "" {
		b = append(b, `,"dma":`...)
		b = appendJSONString(b, wt.DMA)
	}
	at := sched.At{Engine: int16(tid), Index: int32(i)}
	b = cs.Model.AppendWaitArgs(b, at)
	if t.args != nil {
		b = t.args(b, cs.Model, at)
	}
	t.buf = append(b, "}}"...)
	t.event(t.buf)
}

// estimatedFlows writes an arrow from each waiter's producer (its end) to the waiter (its start).
func (t *traceWriter) estimatedFlows(pid int, cs *CoreSchedule) {
	for k := range cs.Engines {
		es := &cs.Engines[k]
		for i, c := range es.Cause {
			if c < 0 || es.Start[i] < 0 {
				continue
			}
			w := &cs.Model.Waits[c]
			p := w.Producer
			if !p.Valid() || int(p.Engine) >= len(cs.Engines) {
				continue
			}
			cat := "sync"
			if cs.isDMA(w) {
				cat = "dma"
			}
			t.flow++
			for n, ph := range []string{`"s"`, `"f","bp":"e"`} {
				tid, when := int(p.Engine), cs.Engines[p.Engine].End(int(p.Index))
				if n == 1 {
					tid, when = k, es.Start[i]
				}
				b := append(t.buf[:0], `{"ph":`...)
				b = append(b, ph...)
				b = append(b, `,"cat":"`...)
				b = append(b, cat...)
				b = append(b, `","name":"S[`...)
				b = strconv.AppendInt(b, int64(w.Sem), 10)
				b = append(b, `]","id":`...)
				b = strconv.AppendInt(b, int64(t.flow), 10)
				b = append(b, `,"pid":`...)
				b = strconv.AppendInt(b, int64(pid), 10)
				b = append(b, `,"tid":`...)
				b = strconv.AppendInt(b, int64(tid), 10)
				b = append(b, `,"ts":`...)
				b = t.ts(b, uint64(max(when, 0)))
				t.buf = append(b, '}')
				t.event(t.buf)
			}
		}
	}
}
