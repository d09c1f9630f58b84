package sched

import (
	"bufio"
	"io"
	"strconv"

	"github.com/neffscope/neffscope/core/isa"
)

// WriteTrace writes the model as a Chrome trace (the traceEvents JSON that Perfetto and
// chrome://tracing open): a process per core, a thread per engine, one slice per instruction
// at its earliest step (1 µs of the trace is one step: the axis is steps, not time), and one
// flow arrow per resolved wait, from its producer to the waiter. Instructions that never run
// (at or behind a hang or a deadlock) have no slice.
func WriteTrace(w io.Writer, m *Model) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	buf := make([]byte, 0, 256)
	first := true
	event := func(b []byte) {
		if !first {
			bw.WriteString(",\n")
		}
		first = false
		bw.Write(b)
	}
	bw.WriteString(`{"displayTimeUnit":"ms","otherData":{"axis":"steps, not time: one step is 1 µs of the trace"},"traceEvents":[` + "\n")
	flow := 0
	for pid, c := range m.Cores {
		buf = append(buf[:0], `{"ph":"M","name":"process_name","pid":`...)
		buf = strconv.AppendInt(buf, int64(pid), 10)
		buf = append(buf, `,"args":{"name":`...)
		buf = strconv.AppendQuote(buf, c.Name)
		buf = append(buf, "}}"...)
		event(buf)
		for tid := range c.Engines {
			e := &c.Engines[tid]
			buf = append(buf[:0], `{"ph":"M","name":"thread_name","pid":`...)
			buf = strconv.AppendInt(buf, int64(pid), 10)
			buf = append(buf, `,"tid":`...)
			buf = strconv.AppendInt(buf, int64(tid), 10)
			buf = append(buf, `,"args":{"name":`...)
			buf = strconv.AppendQuote(buf, e.Name)
			buf = append(buf, "}}"...)
			event(buf)
			for i, s := range e.steps {
				if s < 0 {
					continue
				}
				buf = append(buf[:0], `{"ph":"X","pid":`...)
				buf = strconv.AppendInt(buf, int64(pid), 10)
				buf = append(buf, `,"tid":`...)
				buf = strconv.AppendInt(buf, int64(tid), 10)
				buf = append(buf, `,"ts":`...)
				buf = strconv.AppendInt(buf, int64(s), 10)
				buf = append(buf, `,"dur":1,"name":`...)
				buf = strconv.AppendQuote(buf, isa.OpcodeName(e.ops[i]))
				buf = append(buf, `,"args":{"index":`...)
				buf = strconv.AppendInt(buf, int64(i), 10)
				buf = append(buf, "}}"...)
				event(buf)
			}
		}
		for _, wt := range c.Waits {
			p := wt.Producer
			if !p.Valid() || wt.Code != OK {
				continue
			}
			ps, ws := c.Engines[p.Engine].steps[p.Index], c.Engines[wt.Engine].steps[wt.Index]
			if ps < 0 || ws < 0 {
				continue
			}
			flow++
			for k, ph := range []string{`"s"`, `"f","bp":"e"`} {
				at, ts := p, ps
				if k == 1 {
					at, ts = wt.At, ws
				}
				buf = append(buf[:0], `{"ph":`...)
				buf = append(buf, ph...)
				buf = append(buf, `,"cat":"sync","name":"S[`...)
				buf = strconv.AppendInt(buf, int64(wt.Sem), 10)
				buf = append(buf, `]","id":`...)
				buf = strconv.AppendInt(buf, int64(flow), 10)
				buf = append(buf, `,"pid":`...)
				buf = strconv.AppendInt(buf, int64(pid), 10)
				buf = append(buf, `,"tid":`...)
				buf = strconv.AppendInt(buf, int64(at.Engine), 10)
				buf = append(buf, `,"ts":`...)
				buf = strconv.AppendInt(buf, int64(ts), 10)
				buf = append(buf, '}')
				event(buf)
			}
		}
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}
