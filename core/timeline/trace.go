package timeline

import (
	"bufio"
	"io"
	"math"
	"strconv"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/sched"
)

// WriteTrace writes the measured timeline as a Chrome trace (the traceEvents JSON Perfetto and
// chrome://tracing open), in real time: microseconds from the first record (the runtime's
// preamble runs before the execution window; otherData has the window and the origin in ps). A process per core; a thread per engine with a slice per timed instruction (its
// first word's start to its last word's end) and, in category "runtime", the runtime's own
// preamble and postamble words; a flow arrow per resolved wait of the static model, from its
// producer to the waiter; a thread per DMA queue with its busy stretches; a counter per
// semaphore with its recorded values. The model m is the NEFF's (core/sched). An instruction's
// slice carries, beside its index, its waits (sched.Core.AppendWaitArgs) and what args adds.
func WriteTrace(w io.Writer, m *sched.Model, r *Result, args sched.SliceArgs) error {
	t := &traceWriter{bw: bufio.NewWriterSize(w, 1<<16), buf: make([]byte, 0, 256), r: r, args: args}
	t.origin = earliest(r)
	b := append([]byte(`{"displayTimeUnit":"ns","otherData":{"axis":"real time: µs from the first record (the device profile's clock, picoseconds)","origin_ps":"`), strconv.FormatUint(t.origin, 10)...)
	if r.Measured != nil && r.Measured.WindowPS[0] >= t.origin {
		b = append(b, `","window_start_us":`...)
		b = t.ts(b, r.Measured.WindowPS[0])
		b = append(b, `,"window_end_us":`...)
		b = t.ts(b, r.Measured.WindowPS[1])
	} else {
		b = append(b, '"')
	}
	t.bw.Write(append(b, "},\"traceEvents\":[\n"...))
	for pid, ct := range r.Times.Cores {
		t.meta("process_name", pid, -1, ct.Core.Name)
		c := modelCore(m, ct.Core.Name)
		for tid, e := range ct.Engines {
			t.meta("thread_name", pid, tid, ntff.EngineName(e.Image.Engine))
			t.engine(pid, tid, ct, e, c)
		}
		if c != nil {
			t.flows(pid, c, ct)
		}
		for k, q := range ct.Queues {
			tid := 100 + k
			t.meta("thread_name", pid, tid, "DMA "+q.Name)
			for _, s := range q.Busy.Segments() {
				t.slice(pid, tid, s.Start, s.End, "busy", "dma", -1, nil, sched.None)
			}
		}
		for _, s := range ct.Semaphores {
			for _, pt := range s.Points {
				t.counter(pid, "S["+strconv.Itoa(s.ID)+"]", pt.T, pt.Value)
			}
		}
	}
	t.bw.WriteString("\n]}\n")
	return t.bw.Flush()
}

type traceWriter struct {
	bw     *bufio.Writer
	buf    []byte
	n      int
	origin uint64
	flow   int
	r      *Result
	args   sched.SliceArgs
}

func (t *traceWriter) event(b []byte) {
	if t.n > 0 {
		t.bw.WriteString(",\n")
	}
	t.n++
	t.bw.Write(b)
}

// ts appends an absolute time as µs from the origin, to the ps.
func (t *traceWriter) ts(b []byte, ps uint64) []byte {
	d := int64(ps - t.origin)
	if ps < t.origin {
		d = -int64(t.origin - ps)
	}
	return strconv.AppendFloat(b, float64(d)/1e6, 'f', -1, 64)
}

func (t *traceWriter) meta(name string, pid, tid int, value string) {
	b := append(t.buf[:0], `{"ph":"M","name":"`...)
	b = append(b, name...)
	b = append(b, `","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	if tid >= 0 {
		b = append(b, `,"tid":`...)
		b = strconv.AppendInt(b, int64(tid), 10)
	}
	b = append(b, `,"args":{"name":`...)
	b = appendJSONString(b, value) // a name from the file: JSON's quoting, not Go's
	t.buf = append(b, "}}"...)
	t.event(t.buf)
}

// slice writes a slice; one of instruction at of model core c (nil: none) carries its waits
// and t.args's args.
func (t *traceWriter) slice(pid, tid int, start, end uint64, name, cat string, index int, c *sched.Core, at sched.At) {
	b := append(t.buf[:0], `{"ph":"X","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"tid":`...)
	b = strconv.AppendInt(b, int64(tid), 10)
	b = append(b, `,"ts":`...)
	b = t.ts(b, start)
	b = append(b, `,"dur":`...)
	b = strconv.AppendFloat(b, float64(end-start)/1e6, 'f', -1, 64)
	b = append(b, `,"cat":"`...)
	b = append(b, cat...)
	b = append(b, `","name":`...)
	b = appendJSONString(b, name)
	if index >= 0 {
		b = append(b, `,"args":{"index":`...)
		b = strconv.AppendInt(b, int64(index), 10)
		if c != nil && at.Valid() {
			b = c.AppendWaitArgs(b, at)
			if t.args != nil {
				b = t.args(b, c, at)
			}
		}
		b = append(b, '}')
	}
	t.buf = append(b, '}')
	t.event(t.buf)
}

func (t *traceWriter) counter(pid int, name string, at uint64, v uint32) {
	b := append(t.buf[:0], `{"ph":"C","pid":`...)
	b = strconv.AppendInt(b, int64(pid), 10)
	b = append(b, `,"ts":`...)
	b = t.ts(b, at)
	b = append(b, `,"name":`...)
	b = appendJSONString(b, name)
	b = append(b, `,"args":{"value":`...)
	b = strconv.AppendUint(b, uint64(v), 10)
	t.buf = append(b, "}}"...)
	t.event(t.buf)
}

// engine writes an engine's slices: its NEFF instructions when joined (else its image words),
// and the runtime's words. c is the model's core (nil: none).
func (t *traceWriter) engine(pid, tid int, ct *ntff.CoreTimes, e *ntff.EngineTimes, c *sched.Core) {
	st := t.streamOf(ct, e)
	me := sched.None // the model's engine of st
	if c != nil && st != nil {
		for k := range c.Engines {
			if c.Engines[k].Member == st.Member {
				me.Engine = int16(k)
			}
		}
	}
	cur := &imageCursor{p: t.r.Profile, im: e.Image}
	for pos := range e.Image.Words {
		s, end, ok := e.Span(pos)
		if !ok {
			continue
		}
		switch {
		case st == nil:
			t.slice(pid, tid, s, end, wordName(cur, pos), "image", pos, nil, sched.None)
		case st.owner[pos] < 0:
			t.slice(pid, tid, s, end, "runtime: "+wordName(cur, pos), "runtime", pos, nil, sched.None)
		case int(st.first[st.owner[pos]]) == pos:
			i := int(st.owner[pos])
			at, mc := sched.At{Engine: me.Engine, Index: int32(i)}, c
			if !at.Valid() || i >= c.Engines[me.Engine].Len {
				mc = nil
			}
			t.slice(pid, tid, st.Start[i], st.End[i], st.opName(i), "instruction", i, mc, at)
		}
	}
}

func (t *traceWriter) streamOf(ct *ntff.CoreTimes, e *ntff.EngineTimes) *StreamTimes {
	for _, st := range t.rStreams() {
		if st.times == e && st.owner != nil {
			return st
		}
	}
	return nil
}

func (t *traceWriter) rStreams() []*StreamTimes {
	if t.r == nil {
		return nil
	}
	return t.r.streams
}

// flows writes an arrow per resolved wait whose producer and waiter are both timed.
func (t *traceWriter) flows(pid int, c *sched.Core, ct *ntff.CoreTimes) {
	tidOf := func(name string) int {
		for k, e := range ct.Engines {
			if ntff.EngineName(e.Image.Engine) == name {
				return k
			}
		}
		return -1
	}
	stream := func(a sched.At) *StreamTimes {
		if int(a.Engine) >= len(c.Engines) {
			return nil
		}
		return t.r.Stream(c.Engines[a.Engine].Member)
	}
	for _, w := range c.Waits {
		if w.Code != sched.OK || !w.Producer.Valid() {
			continue
		}
		ps, ws := stream(w.Producer), stream(w.At)
		if !ps.Timed(int(w.Producer.Index)) || !ws.Timed(int(w.Index)) {
			continue
		}
		t.flow++
		for k, ph := range []string{`"s"`, `"f","bp":"e"`} {
			at, when := w.Producer, ps.Start[w.Producer.Index]
			if k == 1 {
				at, when = w.At, ws.Start[w.Index]
			}
			tid := tidOf(c.EngineName(at))
			if tid < 0 {
				continue
			}
			b := append(t.buf[:0], `{"ph":`...)
			b = append(b, ph...)
			b = append(b, `,"cat":"sync","name":"S[`...)
			b = strconv.AppendInt(b, int64(w.Sem), 10)
			b = append(b, `]","id":`...)
			b = strconv.AppendInt(b, int64(t.flow), 10)
			b = append(b, `,"pid":`...)
			b = strconv.AppendInt(b, int64(pid), 10)
			b = append(b, `,"tid":`...)
			b = strconv.AppendInt(b, int64(tid), 10)
			b = append(b, `,"ts":`...)
			b = t.ts(b, when)
			t.buf = append(b, '}')
			t.event(t.buf)
		}
	}
}

// opName is instruction i's opcode name (kept by the join).
func (st *StreamTimes) opName(i int) string {
	if i < len(st.ops) {
		return isa.OpcodeName(st.ops[i])
	}
	return "instruction"
}

// wordName is image word pos's opcode name.
func wordName(cur *imageCursor, pos int) string {
	if w := cur.word(pos); w != nil {
		return isa.OpcodeName(w[0])
	}
	return "word"
}

// earliest is the first time the trace shows: the window's start, or an earlier record.
func earliest(r *Result) uint64 {
	o := uint64(math.MaxUint64)
	if r.Measured != nil && r.Measured.WindowPS[0] > 0 {
		o = r.Measured.WindowPS[0]
	}
	for _, ct := range r.Times.Cores {
		for _, e := range ct.Engines {
			for i := range e.Image.Words {
				if s, _, ok := e.Span(i); ok {
					o = min(o, s)
				}
			}
		}
		for _, q := range ct.Queues {
			if q.Packets > 0 {
				o = min(o, q.First)
			}
		}
		for _, se := range ct.Semaphores {
			if len(se.Points) > 0 {
				o = min(o, se.Points[0].T)
			}
		}
	}
	if o == math.MaxUint64 {
		return 0
	}
	return o
}
