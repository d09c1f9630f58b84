package sched

import (
	"bufio"
	"io"
	"sort"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
)

// SliceArgs appends what a trace slice's args say of instruction at of core c beyond what the
// model holds (its operands and source line, which the caller reads from the file), each
// member as `,"key":value`. Nil adds nothing.
type SliceArgs func(b []byte, c *Core, at At) []byte

// WriteTrace writes the model as a Chrome trace (the traceEvents JSON that Perfetto and
// chrome://tracing open): a process per core, a thread per engine, one slice per instruction
// at its earliest step (1 µs of the trace is one step: the axis is steps, not time), and one
// flow arrow per resolved wait, from its producer to the waiter. Instructions that never run
// (at or behind a hang or a deadlock) have no slice. A slice's args are its index, its waits
// (AppendWaitArgs) and what args adds. Names from the file are quoted as doc.JSONSafe: the
// trace is JSON whatever bytes they hold.
func WriteTrace(w io.Writer, m *Model, args SliceArgs) error {
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
		buf = doc.AppendJSONString(buf, c.Name, doc.JSONSafe)
		buf = append(buf, "}}"...)
		event(buf)
		for tid := range c.Engines {
			e := &c.Engines[tid]
			buf = append(buf[:0], `{"ph":"M","name":"thread_name","pid":`...)
			buf = strconv.AppendInt(buf, int64(pid), 10)
			buf = append(buf, `,"tid":`...)
			buf = strconv.AppendInt(buf, int64(tid), 10)
			buf = append(buf, `,"args":{"name":`...)
			buf = doc.AppendJSONString(buf, e.Name, doc.JSONSafe)
			buf = append(buf, "}}"...)
			event(buf)
			for i, s := range e.steps {
				if s < 0 {
					continue
				}
				at := At{Engine: int16(tid), Index: int32(i)}
				buf = append(buf[:0], `{"ph":"X","pid":`...)
				buf = strconv.AppendInt(buf, int64(pid), 10)
				buf = append(buf, `,"tid":`...)
				buf = strconv.AppendInt(buf, int64(tid), 10)
				buf = append(buf, `,"ts":`...)
				buf = strconv.AppendInt(buf, int64(s), 10)
				buf = append(buf, `,"dur":1,"name":`...)
				buf = doc.AppendJSONString(buf, isa.OpcodeName(e.ops[i]), doc.JSONSafe)
				buf = append(buf, `,"args":{"index":`...)
				buf = strconv.AppendInt(buf, int64(i), 10)
				buf = c.AppendWaitArgs(buf, at)
				if args != nil {
					buf = args(buf, c, at)
				}
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

// AppendWaitArgs appends `,"waits":[…]` for an instruction that waits (nothing for one that
// does not): per wait its semaphore, the value it waits for, the instruction whose completion
// satisfies it ("DVE #12"; absent when none does or the model cannot say), the DMA queue when
// that is a transfer's, and the code when the wait is not resolved. A trace's slice carries it
// so the viewer shows why an instruction started where it did.
func (c *Core) AppendWaitArgs(b []byte, at At) []byte {
	if at.Engine < 0 || int(at.Engine) >= len(c.Engines) {
		return b
	}
	ws := c.engineWaits(at)
	if len(ws) == 0 {
		return b
	}
	b = append(b, `,"waits":[`...)
	for k := range ws {
		w := &ws[k]
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"semaphore":`...)
		b = strconv.AppendInt(b, int64(w.Sem), 10)
		b = append(b, `,"value":`...)
		b = strconv.AppendUint(b, uint64(w.Value), 10)
		if w.Code == OK && w.Producer.Valid() {
			b = append(b, `,"producer":`...)
			b = doc.AppendJSONString(b, c.Ref(w.Producer), doc.JSONSafe)
		}
		if w.Code == OK && w.Queue >= 0 && int(w.Queue) < len(c.Queues) {
			b = append(b, `,"dma":`...)
			b = doc.AppendJSONString(b, c.Queues[w.Queue], doc.JSONSafe)
		}
		if w.Code != OK {
			b = append(b, `,"code":"`...)
			b = append(b, w.Code.String()...)
			b = append(b, '"')
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// engineWaits are instruction at's waits (its engine's waits are in program order).
func (c *Core) engineWaits(at At) []Wait {
	e := &c.Engines[at.Engine]
	ws := c.Waits[e.waitFrom:e.waitTo]
	lo := sort.Search(len(ws), func(j int) bool { return ws[j].Index >= at.Index })
	end := lo
	for end < len(ws) && ws[end].Index == at.Index {
		end++
	}
	return ws[lo:end]
}
