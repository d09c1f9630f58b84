package timeline

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"strconv"
	"unsafe"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/sched"
)

// Input is what the estimate runs on: the sync model of every core (core/sched), and the
// streams and manifests it was built from, core by core in the model's order. Target is the
// kelf target (sunda, cayman) whose clocks the costs run at ("" is cayman).
type Input struct {
	Model  *sched.Model
	Cores  []sched.CoreInput
	Target string
	// Costs is the cost model (nil: Default).
	Costs *CostModel
}

// InputOf is what the estimate runs on for an opened NEFF (nil when it has no program): its
// sync model (built again: inspect.File.Sched) and its streams core by core.
func InputOf(f *inspect.File) *Input {
	if f == nil || f.Program == nil || f.Program.Model == nil {
		return nil
	}
	return InputWith(f, f.Sched())
}

// InputWith is InputOf with a sync model the caller built (inspect.File.Sched or Memmap).
func InputWith(f *inspect.File, m *sched.Model) *Input {
	if f == nil || f.Program == nil || f.Program.Model == nil {
		return nil
	}
	in := &Input{Model: m, Target: f.Program.Model.Target}
	if in.Model == nil {
		return nil
	}
	for _, c := range f.Program.Model.Cores {
		ci := sched.CoreInput{Core: c}
		for _, ps := range f.Program.Streams {
			if ps.Core == c {
				ci.Streams = append(ci.Streams, sched.StreamInput{Engine: ps.Engine, Member: ps.Member, ISA: ps.ISA})
			}
		}
		in.Cores = append(in.Cores, ci)
	}
	return in
}

// Schedule is the estimate of every core, held as columns (a big NEFF has millions of
// instructions): Estimated and WriteEstimatedJSON turn it into the contract's shape.
type Schedule struct {
	Target string
	Cores  []*CoreSchedule

	b *budget.Budget // what its tables (and Against's) are charged to
}

// CoreOf is the named core's estimate (nil when s is nil or has no such core).
func (s *Schedule) CoreOf(name string) *CoreSchedule {
	if s == nil {
		return nil
	}
	for _, cs := range s.Cores {
		if cs.Name == name {
			return cs
		}
	}
	return nil
}

// CoreSchedule is one core in estimated time.
type CoreSchedule struct {
	Name    string
	Model   *sched.Core
	Engines []EngineSchedule
	// SpanPS is the end of the core's last instruction minus the start of its first.
	SpanPS int64
	// Critical is the chain of instructions that sets SpanPS, first to last.
	Critical []sched.At
	// What the estimate could not model: waits it could not tie to a producer (they hold
	// nothing back), instructions costed by their engine's default row, instructions that
	// never run (behind a deadlock), DMA triggers whose transfer it could not size.
	WaitsUnmodelled int
	Uncosted        int
	// UncostedOps counts the uncosted instructions by opcode name, engine first ("DVE
	// TensorScalarPtrArithOp").
	UncostedOps map[string]int
	NeverRun    int
	DMAUnsized  int
	// OrderUnknown: the sync model could not follow the program order (branches, resets,
	// unread streams): no wait holds anything back and the times are a floor.
	OrderUnknown bool
	// Limit: the memory budget refused the core's tables: it is not estimated.
	Limit bool
	// RowErrors are its instructions' errors against a profile (Schedule.Against; nil: none).
	RowErrors *RowErrors
}

// EngineSchedule is one engine's instructions in estimated time (ps from the core's start).
type EngineSchedule struct {
	Name string
	// Start is each instruction's start (-1: it never runs); Lat its start→end; Issue the
	// time from its start to the earliest start of the next.
	Start []int64
	Lat   []uint32
	Issue []uint32
	// Retire is how long after its end an instruction's semaphore updates land (nil: at its
	// end), for an engine whose results drain through a queue (RetireModel).
	Retire []uint32
	// Cause is why each instruction started when it did: the index in the core model's Waits
	// of the wait that held it (a semaphore, or a DMA when the wait's producer is a trigger),
	// CauseEngine (its engine, busy with the instruction before it) or CauseNone.
	Cause  []int32
	Waited []int64 // ps
	// BusyPS is the length of the union of [start, start+lat).
	BusyPS int64
	Idle   []IdleCause
}

// Causes that are not a wait.
const (
	CauseEngine int32 = -1
	CauseNone   int32 = -2
)

// End is instruction i's end (-1 when it never runs).
func (e *EngineSchedule) End(i int) int64 {
	if e.Start[i] < 0 {
		return -1
	}
	return e.Start[i] + int64(e.Lat[i])
}

// bytesPerInstruction is what the estimate holds per instruction (Start, Lat, Issue, Cause,
// Waited, Retire, the retire flags, a step of the critical path, its place in start order),
// and bytesPerTransfer per
// DMA trigger, charged to the budget.
const (
	bytesPerInstruction = 8 + 4 + 4 + 4 + 8 + 4 + 1 + 8 + 4
	bytesPerTransfer    = int64(unsafe.Sizeof(dmaTransfer{}))
)

// Estimate runs every core of in. The tables are charged to b (nil: not charged); a core the
// budget refuses is left out (its CoreSchedule has no engines) and says so.
func Estimate(in Input, b *budget.Budget) *Schedule {
	m := in.Costs
	if m == nil {
		m = Default
	}
	m.prepare()
	target := in.Target
	if m.clock(target, "PE") == 0 {
		target = defaultTarget
	}
	s := &Schedule{Target: target, b: b}
	if in.Model == nil {
		return s
	}
	var kept int64
	for k, c := range in.Model.Cores {
		var ci sched.CoreInput
		if k < len(in.Cores) {
			ci = in.Cores[k]
		}
		cs, n := estimateCore(c, ci, m, target, b)
		s.Cores = append(s.Cores, cs)
		kept += n
	}
	if b != nil && kept > 0 {
		// The schedule's tables stay charged while it is held, and give their charge back
		// when it is collected (as core/sched's model does).
		runtime.AddCleanup(s, func(n int64) { b.Release(budget.Memory, n) }, kept)
	}
	return s
}

// ps converts ns to picoseconds.
func ps(ns float64) int64 { return int64(math.Round(ns * 1000)) }

// estimateCore estimates one core; kept is what it took from the budget.
func estimateCore(c *sched.Core, in sched.CoreInput, m *CostModel, target string, b *budget.Budget) (*CoreSchedule, int64) {
	cs := &CoreSchedule{Name: c.Name, Model: c}
	var n, triggers int64
	for _, e := range c.Engines {
		n += int64(e.Len)
	}
	for _, si := range in.Streams {
		if si.ISA != nil {
			triggers += int64(si.ISA.Count(0xD4) + si.ISA.Count(0xC1))
		}
	}
	charge := n*bytesPerInstruction + triggers*bytesPerTransfer
	if b != nil && !b.Take(budget.Memory, charge, "estimated timeline of "+c.Name) {
		cs.Limit = true
		return cs, 0
	}
	cs.Engines = make([]EngineSchedule, len(c.Engines))
	costs := make([]engineCosts, len(c.Engines))
	for k := range c.Engines {
		e := &c.Engines[k]
		es := &cs.Engines[k]
		es.Name = e.Name
		es.Start = make([]int64, e.Len)
		es.Lat = make([]uint32, e.Len)
		es.Issue = make([]uint32, e.Len)
		es.Cause = make([]int32, e.Len)
		es.Waited = make([]int64, e.Len)
		if m.Retire.IntervalNS > 0 && slices.Contains(m.Retire.Engines, e.Name) {
			es.Retire = make([]uint32, e.Len)
		}
		var si sched.StreamInput
		if k < len(in.Streams) {
			si = in.Streams[k]
		}
		costs[k] = m.costEngine(es, si, target)
		cs.Uncosted += costs[k].uncosted
		for op, n := range costs[k].uncostedOps {
			if n > 0 {
				if cs.UncostedOps == nil {
					cs.UncostedOps = map[string]int{}
				}
				cs.UncostedOps[es.Name+" "+isa.OpcodeName(uint8(op))] += int(n)
			}
		}
		cs.DMAUnsized += costs[k].unsized
	}
	sim := newSimulator(c, cs, costs, m)
	sim.run()
	cs.finish()
	return cs, charge
}

// simulator runs one core's engines in time: each engine issues its instructions in order;
// an instruction starts when its engine can issue it and every wait it carries is satisfied
// (its producer's end plus the semaphore latency, or its DMA transfer's completion). The
// engine whose next instruction can start first goes next, so DMA transfers reach the DMA
// engines in time order.
type simulator struct {
	m     *CostModel
	c     *sched.Core
	cs    *CoreSchedule
	costs []engineCosts
	eng   []engState
	rings []int64 // when each DMA engine can take its next element
	ring  int     // the DMA engine the next transfer's first element goes to
}

type engState struct {
	next      int      // the next instruction to issue
	ready     int64    // when the engine can issue it
	waitFrom  int      // its first wait in c.Waits
	waitTo    int      // one past this engine's last wait
	dma       int      // the next DMA trigger in costs.dma
	dge       dgeState // the engine's software DGE (DGEModel)
	retired   int64    // when the engine's last result drained (Retire)
	candStart int64    // the next instruction's start, when known (cand)
	candWaits int64    // when its waits are satisfied
	candHand  int64    // a DGE trigger's hand-over (candStart is it)
	lastIssue int64    // when the engine issued its last instruction (a DGE trigger: handed it over)
	cand      candidate
}

type candidate uint8

const (
	candStale   candidate = iota // not computed since the engine or a producer moved
	candReady                    // candStart is the start
	candBlocked                  // a producer has not run yet
	candDone                     // the engine has issued everything
)

func newSimulator(c *sched.Core, cs *CoreSchedule, costs []engineCosts, m *CostModel) *simulator {
	s := &simulator{m: m, c: c, cs: cs, costs: costs, eng: make([]engState, len(c.Engines)), rings: make([]int64, max(m.DMA.Engines, 1))}
	// The sync model appends each engine's waits in program order, engine after engine.
	j := 0
	for k := range c.Engines {
		st := &s.eng[k]
		st.waitFrom = j
		for j < len(c.Waits) && int(c.Waits[j].Engine) == k {
			j++
		}
		st.waitTo = j
		st.retired = math.MinInt64 / 2 // the first update lands at its end
	}
	for j := range c.Waits {
		w := &c.Waits[j]
		if w.Code.Class() == sched.ClassUndecided || w.Code == sched.MultiProducer {
			cs.WaitsUnmodelled++
			if w.Code == sched.OrderUnknown {
				cs.OrderUnknown = true
			}
		}
	}
	return s
}

func (s *simulator) run() {
	for {
		best := -1
		var bestStart int64
		for k := range s.eng {
			st := &s.eng[k]
			if st.cand == candStale || st.cand == candBlocked {
				s.candidate(k)
			}
			if st.cand == candReady && (best < 0 || st.candStart < bestStart) {
				best, bestStart = k, st.candStart
			}
		}
		if best < 0 {
			break // every engine is done, or blocked behind a deadlock
		}
		s.issue(best)
	}
	for k := range s.eng {
		es := &s.cs.Engines[k]
		for i := s.eng[k].next; i < len(es.Start); i++ {
			es.Start[i] = -1
			es.Cause[i] = CauseNone
			s.cs.NeverRun++
		}
	}
}

// candidate works out when engine k's next instruction can start, and why.
func (s *simulator) candidate(k int) {
	st := &s.eng[k]
	es := &s.cs.Engines[k]
	i := st.next
	if i >= len(es.Start) {
		st.cand = candDone
		return
	}
	start, cause, waits := st.ready, CauseNone, int64(0)
	if i > 0 {
		cause = CauseEngine
	}
	waitCause := CauseNone // the wait satisfied last
	for j := st.waitFrom; j < st.waitTo && s.c.Waits[j].Index == int32(i); j++ {
		w := &s.c.Waits[j]
		switch {
		case w.Code == sched.NoProducer || w.Code == sched.Unreachable:
			st.cand = candBlocked // a hang: nothing ever satisfies it
			return
		case w.Code != sched.OK && w.Code != sched.Cycle, !w.Producer.Valid():
			continue // undecided: it holds nothing back (CoreSchedule.WaitsUnmodelled)
		}
		p := w.Producer
		if int(p.Engine) >= len(s.eng) || int(p.Index) >= s.eng[p.Engine].next {
			st.cand = candBlocked
			return
		}
		t := s.satisfied(w, k)
		if t > waits {
			waits, waitCause = t, int32(j)
		}
		if t > start {
			start, cause = t, int32(j)
		}
	}
	if d := s.costs[k].dmaAt(int32(i)); d != nil && d.ramp {
		// A software DGE trigger goes in time order by its hand-over.
		hand, byWait := s.handOver(st, waits)
		start, cause, st.candHand = hand, CauseEngine, hand
		if byWait {
			cause = waitCause
		} else if i == 0 {
			cause = CauseNone
		}
	}
	st.cand, st.candStart, st.candWaits = candReady, start, waits
	es.Cause[i] = cause
}

// satisfied is when wait w (of engine k) is satisfied: its DMA transfer's completion when its
// producer is a DMA trigger whose transfer updates the semaphore, else the producer's end and
// the semaphore's latency.
func (s *simulator) satisfied(w *sched.Wait, k int) int64 {
	p := w.Producer
	if d := s.costs[p.Engine].dmaAt(p.Index); d != nil && d.sem == w.Sem {
		return d.done
	}
	pe := &s.cs.Engines[p.Engine]
	end := pe.End(int(p.Index))
	if pe.Retire != nil {
		end += int64(pe.Retire[p.Index])
	}
	if int(p.Engine) == k {
		return end + ps(s.m.Semaphore.SameEngine)
	}
	return end + ps(s.m.Semaphore.OtherEngine)
}

// issue starts engine k's next instruction at its candidate time.
func (s *simulator) issue(k int) {
	st := &s.eng[k]
	es := &s.cs.Engines[k]
	i := st.next
	if d := s.costs[k].dmaAt(int32(i)); d != nil && d.ramp {
		s.issueTrigger(k, d)
		return
	}
	start := st.candStart
	es.Start[i] = start
	st.dge.last, st.dge.prevEnd = false, start+int64(es.Lat[i])
	switch c := es.Cause[i]; {
	case c >= 0:
		es.Waited[i] = start - st.ready
	case c == CauseEngine:
		// From when it was next in line with its waits satisfied.
		es.Waited[i] = start - max(st.lastIssue, st.candWaits)
	}
	st.lastIssue = start
	if d := s.costs[k].dmaAt(int32(i)); d != nil {
		s.transfer(d, start+int64(es.Lat[i]))
	}
	if es.Retire != nil && s.updates(k, i) {
		end := start + int64(es.Lat[i])
		r := max(end, st.retired+ps(s.m.Retire.IntervalNS))
		st.retired = r
		es.Retire[i] = clampU32(r - end)
	}
	for st.waitFrom < st.waitTo && s.c.Waits[st.waitFrom].Index == int32(i) {
		st.waitFrom++
	}
	st.ready = start + int64(es.Issue[i])
	st.next++
	st.cand = candStale
}

// issueTrigger runs engine k's next instruction, a software DGE trigger (DGEModel): handed
// over at its candidate time, started and ended by the second stage (the traced interval),
// its transfer starting after the end. The engine goes on after the hand-over. Waited is
// how much later it started than an idle DGE would have started it.
func (s *simulator) issueTrigger(k int, d *dmaTransfer) {
	st := &s.eng[k]
	es := &s.cs.Engines[k]
	i := st.next
	free := max(st.ready, st.dge.prevEnd)
	if st.dge.last {
		free = st.dge.lastHand
	}
	unheld := free + ps(s.m.DGE.issueNS(st.dge.n)) + ps(s.m.DGE.LatencyNS)
	start, end := s.second(st, st.candHand)
	es.Start[i], es.Lat[i] = start, clampU32(end-start)
	if es.Cause[i] != CauseNone {
		es.Waited[i] = max(start-unheld, 0)
	}
	s.transfer(d, end)
	for st.waitFrom < st.waitTo && s.c.Waits[st.waitFrom].Index == int32(i) {
		st.waitFrom++
	}
	st.ready, st.lastIssue = st.candHand+ps(s.m.DGE.HandoffNS), st.candHand
	st.next++
	st.cand = candStale
}

// updates says whether instruction i of engine k updates a semaphore on completion.
func (s *simulator) updates(k, i int) bool {
	return s.costs[k].updates != nil && s.costs[k].updates[i]
}

// transfer puts a DMA transfer on the DMA engines at its trigger's end and sets its completion.
func (s *simulator) transfer(d *dmaTransfer, trigEnd int64) {
	arrive := trigEnd + d.trigger
	n := d.elements
	per, extra := n/int64(len(s.rings)), n%int64(len(s.rings))
	dm := &s.m.DMA
	issue := ps(dm.LargeIssueNS)
	if d.elemBytes <= dm.SmallBytes {
		issue = ps(dm.SmallIssueNS)
	} else if t := ps(float64(d.elemBytes) / dm.BytesPerNS); t > issue {
		issue = t
	}
	done := arrive
	for r := range s.rings {
		m := per
		if int64((r-s.ring+len(s.rings))%len(s.rings)) < extra {
			m++
		}
		if m == 0 {
			continue
		}
		at := max(arrive, s.rings[r])
		s.rings[r] = at + m*issue
		done = max(done, at+(m-1)*issue+ps(dm.ElemLatency))
	}
	s.ring = (s.ring + int(extra)) % len(s.rings)
	d.done = done + ps(dm.CompleteNS)
}

// finish computes the span, each engine's busy and idle time, and the critical path.
func (cs *CoreSchedule) finish() {
	first, last := int64(math.MaxInt64), int64(-1)
	lastAt := sched.None
	for k := range cs.Engines {
		es := &cs.Engines[k]
		for i, st := range es.Start {
			if st < 0 {
				continue
			}
			first = min(first, st)
			if end := st + int64(es.Lat[i]); end > last {
				last, lastAt = end, sched.At{Engine: int16(k), Index: int32(i)}
			}
		}
	}
	if last < 0 {
		return
	}
	cs.SpanPS = last - first
	for k := range cs.Engines {
		cs.Engines[k].busyAndIdle(cs, last)
	}
	cs.Critical = cs.criticalPath(lastAt)
}

// busyAndIdle sums the union of the engine's intervals, and gives each gap between them to
// the cause of the instruction that ends it (the gap after the last one: the engine is done).
func (es *EngineSchedule) busyAndIdle(cs *CoreSchedule, spanEnd int64) {
	idle := map[IdleCause]int64{}
	var cur int64
	for _, i := range es.startOrder() {
		st := es.Start[i]
		if st < 0 {
			continue
		}
		if st > cur {
			idle[cs.idleKey(es.Cause[i])] += st - cur
		}
		end := st + int64(es.Lat[i])
		if end > cur {
			es.BusyPS += end - max(st, cur)
			cur = end
		}
	}
	if spanEnd > cur {
		idle[IdleCause{Reason: IdleDone}] += spanEnd - cur
	}
	es.Idle = sortedIdle(idle)
}

// startOrder is the engine's instructions by start: program order, unless a software DGE's
// triggers (whose traced interval is its second stage's) start after what follows them.
func (es *EngineSchedule) startOrder() []int32 {
	order := make([]int32, len(es.Start))
	sorted := true
	for i := range order {
		order[i] = int32(i)
		if i > 0 && es.Start[i] >= 0 && es.Start[i] < es.Start[i-1] {
			sorted = false
		}
	}
	if !sorted {
		slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(es.Start[a], es.Start[b]) })
	}
	return order
}

// idleKey names a cause by reason and producer engine or queue (not by instruction).
func (cs *CoreSchedule) idleKey(cause int32) IdleCause {
	switch {
	case cause >= 0:
		w := &cs.Model.Waits[cause]
		if cs.isDMA(w) {
			return IdleCause{Reason: WaitedDMA, DMA: cs.queueName(w)}
		}
		return IdleCause{Reason: WaitedSemaphore, Engine: cs.Model.EngineName(w.Producer)}
	case cause == CauseEngine:
		return IdleCause{Reason: WaitedEngine}
	}
	return IdleCause{Reason: WaitedNone}
}

// isDMA says whether wait w is satisfied by a DMA transfer's completion (its producer is a
// trigger whose transfer updates w's semaphore).
func (cs *CoreSchedule) isDMA(w *sched.Wait) bool {
	if w.Queue >= 0 {
		return true
	}
	p := w.Producer
	if !p.Valid() || int(p.Engine) >= len(cs.Model.Engines) {
		return false
	}
	op := cs.Model.Engines[p.Engine].Opcode(int(p.Index))
	return op == 0xD4 || op == 0xC1
}

func (cs *CoreSchedule) queueName(w *sched.Wait) string {
	if w.Queue >= 0 && int(w.Queue) < len(cs.Model.Queues) {
		return cs.Model.Queues[w.Queue]
	}
	return "DMA of " + cs.Model.Ref(w.Producer)
}

// criticalPath walks back from the instruction that ends last, through the cause of each
// start, to an instruction that waited for nothing.
func (cs *CoreSchedule) criticalPath(from sched.At) []sched.At {
	var path []sched.At
	at := from
	limit := 0
	for _, es := range cs.Engines {
		limit += len(es.Start)
	}
	for n := 0; at.Valid() && n <= limit; n++ {
		path = append(path, at)
		es := &cs.Engines[at.Engine]
		switch c := es.Cause[at.Index]; {
		case c >= 0:
			at = cs.Model.Waits[c].Producer
		case c == CauseEngine && at.Index > 0:
			at.Index--
		default:
			at = sched.None
		}
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

// IdleCause is time an engine stood idle, by why: waiting on a semaphore of another engine
// (Engine), on a DMA queue (DMA), on its own issue (engine), or done before the core's end.
type IdleCause struct {
	Reason string `json:"reason"`
	Engine string `json:"engine,omitempty"`
	DMA    string `json:"dma,omitempty"`
	PS     int64  `json:"ps"`
}

// IdleDone is the idle time after an engine's last instruction, until the core's last ends.
const IdleDone = "done"

func sortedIdle(m map[IdleCause]int64) []IdleCause {
	out := make([]IdleCause, 0, len(m))
	for k, v := range m {
		k.PS = v
		out = append(out, k)
	}
	// Largest first; ties by name, so the order does not depend on the map's.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && idleLess(out[j], out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func idleLess(a, b IdleCause) bool {
	if a.PS != b.PS {
		return a.PS > b.PS
	}
	return a.Reason+a.Engine+a.DMA < b.Reason+b.Engine+b.DMA
}

// clock is an engine's clock on a target, in GHz (0 when unknown).
func (m *CostModel) clock(target, engine string) float64 {
	for _, c := range m.Clocks {
		if c.Target == target && c.Engine == engine {
			return c.GHz
		}
	}
	return 0
}

// refString is "Engine #index" for messages.
func refString(c *sched.Core, a sched.At) string {
	return c.EngineName(a) + " #" + strconv.Itoa(int(a.Index))
}
