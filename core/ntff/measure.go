package ntff

import (
	"strconv"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
)

// Measurement is what the notification records say, read in one pass per section and never
// held: per image word its start and end, per DMA queue its packets, bytes and busy time, per
// semaphore its recorded values over time.
type Measurement struct {
	Cores []*CoreTimes // parallel to Profile.Cores
	// Findings are the problems the records showed (coded; repeated codes summarised).
	Findings []doc.Finding
	repeats  doc.Repeats
	b        *budget.Budget
	charged  int64
}

// CoreTimes is one core's measurement.
type CoreTimes struct {
	Core    *Core
	Engines []*EngineTimes // parallel to Core.Images
	Queues  []*QueueTimes  // by queue index
	// Semaphores are the NOTIFY series of semaphores, by id; Events those of events.
	Semaphores []*Series
	Events     []*Series
	// Records counts what was read per NQ type.
	Trace, Notify, DMA int64
}

// EngineTimes is one engine's traced words. Start and End are each position's first start and
// its run's end (0: not traced); Extra holds the later runs of a word traced more than once.
type EngineTimes struct {
	Image      *Image
	Start, End []uint64
	Extra      []Run
	pending    []uint64 // the latest unmatched start + 1, per position (0: none)
	// DGE counts the kind-2 records; the rest count the records that could not be timed.
	DGE, Unended, Unstarted, Backwards, Outside int64
	// FirstOutside is the first PC outside the image (for the finding).
	FirstOutside uint32
}

// Run is a later run of a word traced more than once.
type Run struct {
	Pos        int32
	Start, End uint64
}

// Traced says whether position i has a start and an end.
func (e *EngineTimes) Traced(i int) bool { return i >= 0 && i < len(e.End) && e.End[i] != 0 }

// Span is position i's first start and last end over every run (ok false when untraced).
func (e *EngineTimes) Span(i int) (s, end uint64, ok bool) {
	if !e.Traced(i) {
		return 0, 0, false
	}
	s, end = e.Start[i], e.End[i]
	for _, r := range e.Extra {
		if int(r.Pos) == i {
			s, end = min(s, r.Start), max(end, r.End)
		}
	}
	return s, end, true
}

// Busy is the union of the intervals of the positions keep accepts (nil: every traced word),
// with every run of a word counted. The union is charged to b while it is built.
func (e *EngineTimes) Busy(keep func(pos int) bool, b *budget.Budget) *Union {
	u := NewUnion(b, "an engine's busy time")
	for i := range e.End {
		if e.End[i] != 0 && (keep == nil || keep(i)) {
			u.Add(e.Start[i], e.End[i])
		}
	}
	for _, r := range e.Extra {
		if keep == nil || keep(int(r.Pos)) {
			u.Add(r.Start, r.End)
		}
	}
	return u
}

// QueueTimes is one DMA queue's packets (spec ntff.md §3.4).
type QueueTimes struct {
	Index   uint64
	Name    string
	Packets int64
	Bytes   int64
	Busy    *Union
	First   uint64 // earliest packet start
	Last    uint64 // latest packet end
	Sizes   []SizeCount
	Engines int // DMA engines that carried its packets
	engines [128]bool
}

// SizeCount is how many packets of one size a queue carried.
type SizeCount struct {
	Bytes, Packets int64
}

// maxSizes bounds the distinct packet sizes a queue counts one by one (the rest are summed
// under -1).
const maxSizes = 64

// Series is one semaphore's (or event's) recorded values, in record order (time order on every
// capture). Records are lossy: the values are exact, the count of records is not the count of
// updates (spec ntff.md §4.4).
type Series struct {
	ID      int
	Source  uint32 // the source of its first record: 1–5 an engine, 6 DMA
	Points  []Point
	Peak    uint32
	Records int64
	// Cut says the budget stopped keeping points (Records counts them all; Peak is exact).
	Cut bool
}

// Point is one recorded value.
type Point struct {
	T     uint64
	Value uint32
	Op    uint8
}

// pointBytes is what a Point costs to hold.
const pointBytes = 16

// maxPendingDMA bounds the DMA starts and infos waiting for their ends per (engine, queue).
const maxPendingDMA = 1 << 16

// Measure reads every TRACE, NOTIFY and TRACE_DMA section of p once. What it keeps (a start
// and an end per image word, the disjoint busy segments per queue, the semaphore points) is
// charged to b; past a limit it counts instead of keeping and says so.
func Measure(p *Profile, b *budget.Budget) *Measurement {
	m := &Measurement{b: b}
	if !p.OK {
		return m
	}
	for _, c := range p.Cores {
		ct := &CoreTimes{Core: c}
		for _, im := range c.Images {
			ct.Engines = append(ct.Engines, m.engine(im))
		}
		m.Cores = append(m.Cores, ct)
	}
	for _, s := range p.Sections {
		if !s.InFile || s.Records() == 0 {
			continue
		}
		ct := m.coreOf(s.NC)
		if ct == nil {
			if _, decoded := NQName(s.Type); decoded {
				m.flag(doc.CodeNTFFNoCore, doc.Warning, s.Entry, "the %s section's %d records name NeuronCore %d, which no core of the header has: they are not timed.", s.Name(), s.Records(), s.NC)
			}
			continue
		}
		var err error
		switch s.Type {
		case NQTrace:
			err = m.trace(p, s, ct)
		case NQNotify:
			err = m.notify(p, s, ct)
		case NQTraceDMA:
			err = m.dma(p, s, ct)
		}
		if err != nil {
			m.flag(doc.CodeNTFFReadError, doc.Error, s.Entry, "%v", err)
		}
	}
	for _, ct := range m.Cores {
		m.finishCore(ct)
	}
	return m
}

func (m *Measurement) flag(code doc.Code, sev string, span *doc.Span, format string, args ...any) {
	m.repeats.Flag(&m.Findings, code, sev, span, format, args...)
}

func (m *Measurement) coreOf(nc uint64) *CoreTimes {
	for _, ct := range m.Cores {
		if ct.Core.HasNC && ct.Core.NC == nc {
			return ct
		}
	}
	return nil
}

// engine allocates an image's per-position tables (24 B a word), charged to the budget.
func (m *Measurement) engine(im *Image) *EngineTimes {
	e := &EngineTimes{Image: im}
	if im.Words == 0 {
		return e
	}
	cost := int64(im.Words) * 24
	if !m.b.Take(budget.Memory, cost, "the times of an NTFF image's words") {
		m.flag(doc.CodeNTFFLimit, doc.Error, im.Span, "the %s image's %d words need %d bytes to time, more than the memory budget leaves: its words are not timed. Raise the limit: neffscope %s N.", EngineName(im.Engine), im.Words, cost, budget.Memory.Flag())
		return e
	}
	m.charged += cost
	e.Start, e.End, e.pending = make([]uint64, im.Words), make([]uint64, im.Words), make([]uint64, im.Words)
	return e
}

// trace pairs each end with the latest unmatched start of the same (engine, PC) (spec ntff.md
// §3.2): start records are not in program order, and a word's position comes from its PC.
func (m *Measurement) trace(p *Profile, s *Section, ct *CoreTimes) error {
	var byEngine [8]*EngineTimes
	for _, e := range ct.Engines {
		if e.Image.Engine >= 0 && e.Image.Engine < len(byEngine) {
			byEngine[e.Image.Engine] = e
		}
	}
	var noEngine int64
	err := p.Scan(s, 0, func(k int64, r Record) bool {
		ct.Trace++
		eng := TraceEngine(r.A)
		if eng < 0 || byEngine[eng] == nil {
			noEngine++
			return true
		}
		e := byEngine[eng]
		kind := TraceKind(r.A)
		if kind == TraceDGE {
			e.DGE++
			return true
		}
		pos := e.Image.Position(TracePC(r.A))
		if pos >= len(e.pending) {
			if e.Outside == 0 {
				e.FirstOutside = TracePC(r.A)
			}
			e.Outside++
			return true
		}
		switch kind {
		case TraceStart:
			if e.pending[pos] != 0 {
				e.Unended++
			}
			e.pending[pos] = min(r.T, 1<<64-2) + 1
		case TraceEnd:
			st := e.pending[pos]
			if st == 0 {
				e.Unstarted++
				return true
			}
			e.pending[pos] = 0
			m.run(e, pos, st-1, r.T)
		}
		return true
	})
	if noEngine > 0 {
		m.flag(doc.CodeNTFFNoCore, doc.Warning, s.Entry, "%d records of the %s section name an engine the core has no image for: they are not timed.", noEngine, s.Name())
	}
	return err
}

// run files one start–end pair of position pos.
func (m *Measurement) run(e *EngineTimes, pos int, start, end uint64) {
	if end < start {
		e.Backwards++
		return
	}
	if e.End[pos] == 0 {
		e.Start[pos], e.End[pos] = start, max(end, 1)
		return
	}
	if !m.b.Take(budget.Memory, 24, "the repeated runs of an NTFF image's words") {
		e.Unended++ // counted, not timed
		return
	}
	e.Extra = append(e.Extra, Run{Pos: int32(pos), Start: start, End: end})
}

// notify keeps each semaphore's recorded values (the resets at the end too).
func (m *Measurement) notify(p *Profile, s *Section, ct *CoreTimes) error {
	var sems, events [256]*Series
	err := p.Scan(s, 0, func(k int64, r Record) bool {
		ct.Notify++
		id := NotifyID(r.A)
		list := &events
		if NotifyIsSemaphore(r.A) {
			list = &sems
		}
		se := list[id]
		if se == nil {
			se = &Series{ID: id, Source: NotifySource(r.A)}
			list[id] = se
		}
		se.Records++
		se.Peak = max(se.Peak, r.B)
		if se.Cut {
			return true
		}
		if len(se.Points) == cap(se.Points) {
			grow := int64(max(64, cap(se.Points)))
			if !m.b.Take(budget.Memory, grow*pointBytes, "an NTFF semaphore's recorded values") {
				se.Cut = true
				return true
			}
			m.charged += grow * pointBytes
			np := make([]Point, len(se.Points), int64(cap(se.Points))+grow)
			copy(np, se.Points)
			se.Points = np
		}
		se.Points = append(se.Points, Point{T: r.T, Value: r.B, Op: uint8(NotifyOp(r.A))})
		return true
	})
	for _, se := range sems {
		if se != nil {
			ct.Semaphores = append(ct.Semaphores, se)
		}
	}
	for _, se := range events {
		if se != nil {
			ct.Events = append(ct.Events, se)
		}
	}
	return err
}

// fifo is one (DMA engine, queue)'s starts and infos waiting for their ends.
type fifo struct {
	starts queue[uint64]
	bytes  queue[int64]
}

// queue is a FIFO of at most maxPendingDMA values, its head an index (popped values are
// dropped from the front when they are most of its room).
type queue[T any] struct {
	v    []T
	head int
}

func (q *queue[T]) push(x T) bool {
	if len(q.v)-q.head >= maxPendingDMA {
		return false
	}
	if q.head > 1024 && q.head*2 > len(q.v) {
		q.v = append(q.v[:0], q.v[q.head:]...)
		q.head = 0
	}
	q.v = append(q.v, x)
	return true
}

func (q *queue[T]) pop() (T, bool) {
	var zero T
	if q.head == len(q.v) {
		return zero, false
	}
	q.head++
	return q.v[q.head-1], true
}

func (q *queue[T]) len() int { return len(q.v) - q.head }

// dma forms packets: per (DMA engine, queue) the k-th start, info and end (spec ntff.md §3.4;
// pairing time-sorted neighbours is wrong, packets overlap on a ring).
func (m *Measurement) dma(p *Profile, s *Section, ct *CoreTimes) error {
	var queues [16]*QueueTimes // by queue index (b[7:4])
	for _, q := range ct.Queues {
		queues[q.Index] = q
	}
	var fifos [128 * 16]*fifo
	var unpaired, backwards, dropped int64
	err := p.Scan(s, 0, func(k int64, r Record) bool {
		ct.DMA++
		key := DMAEngine(r.A)<<4 | int(DMAQueue(r.B))
		f := fifos[key]
		if f == nil {
			f = &fifo{}
			fifos[key] = f
		}
		switch DMAEvent(r.B) {
		case DMAStart:
			if !f.starts.push(r.T) {
				dropped++
			}
		case DMAInfo:
			if !f.bytes.push(DMABytes(r.A)) {
				dropped++
			}
		case DMAEnd:
			start, ok := f.starts.pop()
			if !ok {
				unpaired++
				return true
			}
			n, ok := f.bytes.pop()
			if !ok {
				unpaired++
			}
			if r.T < start {
				backwards++
				return true
			}
			q := queues[DMAQueue(r.B)]
			if q == nil {
				q = &QueueTimes{Index: DMAQueue(r.B), Name: ct.Core.Queue(DMAQueue(r.B)), First: ^uint64(0)}
				q.Busy = NewUnion(m.b, "a DMA queue's busy time")
				queues[q.Index] = q
			}
			q.add(DMAEngine(r.A), start, r.T, n)
		default:
			unpaired++
		}
		return true
	})
	for _, f := range fifos {
		if f != nil {
			unpaired += int64(f.starts.len() + f.bytes.len())
		}
	}
	if unpaired > 0 || dropped > 0 {
		m.flag(doc.CodeNTFFDMAUnpaired, doc.Warning, s.Entry, "the %s section has %d records that form no whole packet (a start, an info and an end per DMA engine and queue)%s: those packets are not counted.", s.Name(), unpaired+dropped, droppedText(dropped))
	}
	if backwards > 0 {
		m.flag(doc.CodeNTFFTimeBackwards, doc.Warning, s.Entry, "%d DMA packets of the %s section end before they start: they are not counted.", backwards, s.Name())
	}
	ct.Queues = ct.Queues[:0]
	for _, q := range queues {
		if q != nil {
			ct.Queues = append(ct.Queues, q)
		}
	}
	return err
}

func droppedText(n int64) string {
	if n == 0 {
		return ""
	}
	return " (" + strconv.FormatInt(n, 10) + " of them past " + strconv.Itoa(maxPendingDMA) + " waiting on one ring)"
}

func (q *QueueTimes) add(engine int, start, end uint64, n int64) {
	q.Packets++
	q.Bytes += n
	q.First = min(q.First, start)
	q.Last = max(q.Last, end)
	q.Busy.Add(start, end)
	if !q.engines[engine] {
		q.engines[engine] = true
		q.Engines++
	}
	for i := range q.Sizes {
		if q.Sizes[i].Bytes == n {
			q.Sizes[i].Packets++
			return
		}
	}
	if len(q.Sizes) < maxSizes {
		q.Sizes = append(q.Sizes, SizeCount{n, 1})
		return
	}
	q.Sizes[len(q.Sizes)-1] = SizeCount{-1, q.Sizes[len(q.Sizes)-1].Packets + 1}
}

// finishCore reports what could not be timed and lets the pending starts go.
func (m *Measurement) finishCore(ct *CoreTimes) {
	for _, e := range ct.Engines {
		im := e.Image
		l := im.Layout()
		var unended int64
		for i, st := range e.pending {
			// The preamble is traced only in part and one preamble start per core has no
			// end (spec ntff.md §3.2): only program and postamble words count.
			if st != 0 && (l.Problem != "" || i >= l.Preamble) {
				unended++
			}
		}
		e.pending = nil
		m.b.Release(budget.Memory, int64(im.Words)*8)
		what := ct.Core.Name + " " + EngineName(im.Engine)
		if e.Outside > 0 {
			m.flag(doc.CodeNTFFPCOutside, doc.Warning, im.Span, "%d TRACE records of %s have a PC outside its image (the first 0x%x; the image holds positions 0..%d from PC 0x%x): they are not timed.", e.Outside, what, e.FirstOutside, im.Words-1, im.Base())
		}
		if e.Backwards > 0 {
			m.flag(doc.CodeNTFFTimeBackwards, doc.Warning, im.Span, "%d words of %s end before they start: those runs are not timed.", e.Backwards, what)
		}
		if unended+e.Unstarted > 0 {
			m.flag(doc.CodeNTFFUnpaired, doc.Info, im.Span, "%s has %d start records without an end and %d ends without a start outside the runtime preamble (every program and postamble word of the captures checked has both).", what, unended+e.Unended, e.Unstarted)
		}
		if len(e.Extra) > 0 {
			m.flag(doc.CodeNTFFRepeated, doc.Info, im.Span, "%d runs of %s repeat a word already traced (one execution is expected): an instruction spans all its runs and busy time unions them.", len(e.Extra), what)
		}
	}
	for _, q := range ct.Queues {
		if q.First == ^uint64(0) {
			q.First = 0
		}
		if q.Busy.Cut {
			m.flag(doc.CodeNTFFLimit, doc.Warning, nil, "the busy time of %s queue %q is a lower bound: its segments passed the memory budget.", ct.Core.Name, q.Name)
		}
	}
}
