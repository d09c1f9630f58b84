// Package sched is the program in time: per core, the happens-before graph of its engine
// streams (program order per engine, plus an edge from each wait's producer to the waiter),
// the lints over it and each instruction's earliest step.
//
// A wait (mode 0x05: semaphore >= value, neff.md §4.2, §8.3) is satisfied at the completion of
// its producer: the update at which the semaphore's count, starting at 0 and counting every
// increment in program order, first reaches the wait's value. Increments are the sync band's
// update mode 0x13 (+1), a PseudoDMATrigger's (0xC1) block (+16 to the semaphore its engine
// JSON block names) and a PseudoDmaDirect2d's (0xD4) +0x0E to its +0x0D. The model reads each
// stream once, keeps int32 indexes (no pointers or strings per wait), and leaves undecided
// whatever it cannot decide (codes.go): never a lint from a guess.
package sched

import (
	"runtime"
	"slices"
	"strconv"
	"unsafe"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
)

// StreamInput is one engine stream of a core, as the open has it.
type StreamInput struct {
	Engine *manifest.Engine
	Member string
	ISA    *isa.Stream // nil when the open could not read the stream
}

// CoreInput is one core: its manifests and its streams in engine order.
type CoreInput struct {
	Core    *manifest.Core
	Streams []StreamInput
}

// Model is the sync model of every core.
type Model struct {
	Cores []*Core
}

// At names an instruction: an engine of the core (its index in Core.Engines) and the word's
// index in that engine's stream, as `disasm` numbers it. Engine < 0 names none.
type At struct {
	Engine int16
	Index  int32
}

// None is the At of no instruction.
var None = At{Engine: -1, Index: -1}

// Valid says whether a names an instruction.
func (a At) Valid() bool { return a.Engine >= 0 }

// Wait is one wait of a sync band.
type Wait struct {
	At
	Second bool // the second band of an EventSemaphore (0xA0 +0x20)
	Mode   uint8
	Sem    int32
	Value  uint32
	// Producer is the instruction at whose completion the count first reaches Value (None
	// when there is none or the model cannot say); Queue is the DMA queue (Core.Queues) when
	// the producer is a DMA trigger, else -1.
	Producer At
	Queue    int16
	Code     Code
	// Other is the second instruction a lint names (the last update for sync.unreachable,
	// an update of another engine for sync.multi-producer, the producer for sync.cycle).
	Other At
}

// Issue is an undecided point of a core: the first instruction with that cause on an engine
// and how many there are.
type Issue struct {
	Code  Code
	At    At
	Count int
	What  string // what the instruction is (an opcode name, a mode byte)
}

// Engine is one engine stream of a core.
type Engine struct {
	Name   string // PE, Activation, Pool, DVE, SP
	Member string
	Len    int
	Read   bool // the stream was read whole
	// ops is each word's opcode, steps its earliest step (set when the schedule is computed).
	ops   []uint8
	steps []int32
	// waits are this engine's waits, [waitFrom, waitTo) of Core.Waits, in program order.
	waitFrom, waitTo int32
}

// Opcode is word i's opcode byte.
func (e *Engine) Opcode(i int) uint8 { return e.ops[i] }

// Step is word i's earliest step: one after everything it waits for and after the word before
// it; -1 when it never runs (it waits, or comes after a wait, that nothing satisfies: a hang,
// a deadlock, a producer that never runs) or was not modelled.
func (e *Engine) Step(i int) int32 { return e.steps[i] }

// Core is one core's sync model.
type Core struct {
	Name      string
	Engines   []Engine
	Waits     []Wait
	Undecided []Issue
	// Queues names the DMA queues producers use (Wait.Queue indexes it).
	Queues []string
	// Steps is the number of steps the schedule takes (the last instruction's step + 1).
	Steps int32

	// The memory model (Options.Memory): every access, its boxes, the accesses the model
	// could not place, each space's usage and the memory lints.
	Accesses  []Access
	Boxes     []Box
	MemIssues []Issue
	SBUF      Usage
	PSUM      Usage
	MemLints  []MemLint

	updates []update
	queueIx map[string]int16
	target  string
	reach   map[int32]uint64 // what the updates of a semaphore a wait cannot reach add up to
	// work counts the steps of the model's passes over its tables (updates, waits,
	// instructions, clock components): tests hold it to a multiple of their sizes.
	work int64
}

// update is one increment: the instruction whose completion adds amount to sem.
type update struct {
	at     At
	sem    int32
	amount uint32
	queue  int16
	dma    bool // a DMA transfer's completion (0xC1, 0xD4), not the instruction's
}

// Lints are the waits with a lint code, in core order.
func (c *Core) Lints() []Wait {
	var out []Wait
	for _, w := range c.Waits {
		if w.Code.Class() == ClassLint {
			out = append(out, w)
		}
	}
	return out
}

// EngineName is the name of the engine an At names ("" for None).
func (c *Core) EngineName(a At) string {
	if a.Engine < 0 || int(a.Engine) >= len(c.Engines) {
		return ""
	}
	return c.Engines[a.Engine].Name
}

// Ref is "Engine#index" for messages.
func (c *Core) Ref(a At) string {
	if !a.Valid() {
		return "none"
	}
	return c.EngineName(a) + " #" + strconv.Itoa(int(a.Index))
}

// Message says in words what a wait's code means for it.
func (c *Core) Message(w Wait) string {
	wait := c.Ref(w.At) + " waits S[" + strconv.Itoa(int(w.Sem)) + "] >= " + strconv.FormatUint(uint64(w.Value), 10)
	switch w.Code {
	case OK:
		if !w.Producer.Valid() {
			return wait + ": holds from the start"
		}
		return wait + ": satisfied at the completion of " + c.Ref(w.Producer)
	case NoProducer:
		return wait + ", but no instruction or DMA of " + c.Name + " ever updates S[" + strconv.Itoa(int(w.Sem)) + "]: it never proceeds (a hang)"
	case Unreachable:
		return wait + ", but all updates of S[" + strconv.Itoa(int(w.Sem)) + "] reach only " + strconv.FormatUint(c.total(w.Sem), 10) +
			" (the last at " + c.Ref(w.Other) + "): it never proceeds (a hang)"
	case Cycle:
		return wait + " for " + c.Ref(w.Producer) + ", which cannot complete before it: a deadlock"
	case MultiProducer:
		return wait + ", and S[" + strconv.Itoa(int(w.Sem)) + "] is updated on more than one engine (also " + c.Ref(w.Other) + "): which update satisfies it depends on timing"
	case UnknownMode:
		if w.Mode != waitGeImm {
			return wait[:len(c.Ref(w.At))] + " has wait mode 0x" + strconv.FormatUint(uint64(w.Mode)|0x100, 16)[1:] + " on S[" + strconv.Itoa(int(w.Sem)) + "] (value " +
				strconv.FormatUint(uint64(w.Value), 10) + "), not the confirmed 0x05: undecided"
		}
		return wait + ", and S[" + strconv.Itoa(int(w.Sem)) + "] has an update with an unconfirmed mode: undecided"
	}
	return wait + ": undecided (" + Codes[w.Code].Meaning + ")"
}

// IssueMessage says in words what an undecided point is.
func (c *Core) IssueMessage(u Issue) string {
	s := c.Ref(u.At) + " " + u.What
	if u.Code == MemLimit {
		if u.Count > 1 {
			s += " (" + strconv.Itoa(u.Count) + " accesses left out)"
		}
		return s + ": " + Codes[u.Code].Meaning
	}
	if u.Count > 1 {
		s += " (and " + strconv.Itoa(u.Count-1) + " more on " + c.EngineName(u.At) + ")"
	}
	return s + ": " + Codes[u.Code].Meaning
}

// total is what every update of sem adds up to (kept by resolve for a semaphore a wait cannot
// reach, the only one a message asks for).
func (c *Core) total(sem int32) uint64 { return c.reach[sem] }

// SemTotal is one semaphore's static total: what all its updates add up to, counted as the
// model counts them (a profile's peak recorded value should equal it, spec ntff.md §5 check 6).
type SemTotal struct {
	Sem   int32
	Total uint64
	// DMA says every update is a DMA transfer's completion (0xC1, 0xD4); Unknown that an
	// update has an unconfirmed mode (the total is then not known).
	DMA, Unknown bool
	// MaxWait is the largest value a wait of the core asks of it (0: none waits).
	MaxWait uint32
}

// SemTotals lists every semaphore the core updates, by number.
func (c *Core) SemTotals() []SemTotal {
	at := map[int32]int{}
	var out []SemTotal
	for _, u := range c.updates {
		k, ok := at[u.sem]
		if !ok {
			k = len(out)
			at[u.sem] = k
			out = append(out, SemTotal{Sem: u.sem, DMA: true})
		}
		t := &out[k]
		t.Total += uint64(u.amount)
		t.DMA = t.DMA && u.dma
		t.Unknown = t.Unknown || u.queue == unknownModeQueue
	}
	for _, w := range c.Waits {
		if k, ok := at[w.Sem]; ok {
			out[k].MaxWait = max(out[k].MaxWait, w.Value)
		}
	}
	slices.SortFunc(out, func(a, b SemTotal) int { return int(a.Sem) - int(b.Sem) })
	return out
}

// Options says what to model beyond the sync graph.
type Options struct {
	// Memory adds every SBUF and PSUM access, each space's peak and the mem.* lints.
	Memory bool
	// Target is the chip (kelf target: sunda, cayman), which sizes SBUF's partitions.
	Target string
}

// Build reads each core's streams once and builds its sync model. The tables are charged to b
// (nil: not charged); a refusal leaves the rest of the core undecided (Limit).
func Build(cores []CoreInput, b *budget.Budget) *Model { return BuildWith(cores, b, Options{}) }

// BuildWith is Build with options.
func BuildWith(cores []CoreInput, b *budget.Budget, opt Options) *Model {
	m := &Model{}
	var kept int64
	for _, in := range cores {
		c, n := buildCore(in, b, opt)
		m.Cores = append(m.Cores, c)
		kept += n
	}
	if b != nil && kept > 0 {
		// The model's tables stay charged while it is held: a page that asks for the
		// schedule again gets a model of its own, and the one before gives its charge back
		// when it is collected.
		runtime.AddCleanup(m, func(n int64) { b.Release(budget.Memory, n) }, kept)
	}
	return m
}

// buildCore builds one core's model; kept is what its tables hold of the budget.
func buildCore(in CoreInput, b *budget.Budget, opt Options) (c *Core, kept int64) {
	c = &Core{Name: in.Core.Name, queueIx: map[string]int16{}, target: opt.Target}
	r := &reader{c: c, b: b, core: in.Core, mem: opt.Memory}
	for _, s := range in.Streams {
		c.Engines = append(c.Engines, Engine{Name: s.Engine.Name, Member: s.Member})
	}
	for k, s := range in.Streams {
		r.stream(int16(k), s)
	}
	r.release()
	m := &meter{b: b}
	defer m.giveBack()
	c.resolve(r.orderUnknown, r.hidden, m)
	c.schedule()
	if opt.Memory {
		var reserved []manifest.Reservation
		if in.Core != nil {
			reserved = in.Core.Reserved
		}
		c.memory(r.orderUnknown, reserved, m)
	}
	return c, r.charged
}

// meter charges the working tables of a core's build (resolve's counts, the clocks, the
// sweep's segments) to the open's budget while they live, and gives them back when the
// build ends; a nil budget grants everything.
type meter struct {
	b    *budget.Budget
	held int64
}

func (m *meter) take(n int64, where string) bool {
	if m.b != nil && !m.b.Take(budget.Memory, n, where) {
		return false
	}
	m.held += n
	return true
}

// give returns n of what m holds (tables let go before the build ends).
func (m *meter) give(n int64) {
	n = min(n, m.held)
	if m.b != nil && n > 0 {
		m.b.Release(budget.Memory, n)
	}
	m.held -= n
}

func (m *meter) giveBack() {
	if m.b != nil && m.held > 0 {
		m.b.Release(budget.Memory, m.held)
	}
	m.held = 0
}

// reader is the one pass over a core's words.
type reader struct {
	c    *Core
	b    *budget.Budget
	core *manifest.Core
	// charged is what the reader took from the budget for the growing tables; the kept tables
	// stay charged (the open's budget ends with the file).
	charged      int64
	refused      bool
	orderUnknown bool // an effOrder instruction or an unread stream: every wait undecided
	hidden       bool // an effHidden instruction or an unresolved trigger: no lint from absence
	issueAt      map[[2]int]int
	memIssueAt   map[memIssueKey]int
	mem          bool
	scratch      []Box
	ops          []isa.Operand // operands' scratch
}

const (
	waitBytes   = int64(unsafe.Sizeof(Wait{}))
	updateBytes = int64(unsafe.Sizeof(update{}))
)

func (r *reader) take(n int64, where string) bool {
	if r.refused {
		return false
	}
	if r.b == nil || r.b.Take(budget.Memory, n, where) {
		r.charged += n
		return true
	}
	r.refused = true
	return false
}

// release gives back the slack of the growing tables' charges (kept: len, charged: cap).
func (r *reader) release() {
	if r.b == nil {
		return
	}
	keep := int64(cap(r.c.Waits))*waitBytes + int64(cap(r.c.updates))*updateBytes +
		int64(cap(r.c.Accesses))*accessBytes + int64(cap(r.c.Boxes))*boxBytes
	for _, e := range r.c.Engines {
		keep += int64(cap(e.ops)) + 4*int64(cap(e.steps))
	}
	if r.charged > keep {
		r.b.Release(budget.Memory, r.charged-keep)
		r.charged = keep
	}
}

// issue records an undecided point (the first per code and engine, counted).
func (r *reader) issue(code Code, at At, what string) {
	if r.issueAt == nil {
		r.issueAt = map[[2]int]int{}
	}
	key := [2]int{int(code), int(at.Engine)}
	if k, ok := r.issueAt[key]; ok {
		r.c.Undecided[k].Count++
		return
	}
	r.issueAt[key] = len(r.c.Undecided)
	r.c.Undecided = append(r.c.Undecided, Issue{Code: code, At: at, Count: 1, What: what})
}

func (r *reader) queue(name string) int16 {
	if k, ok := r.c.queueIx[name]; ok {
		return k
	}
	if len(r.c.Queues) >= 1<<15-1 {
		return -1
	}
	k := int16(len(r.c.Queues))
	r.c.Queues = append(r.c.Queues, name)
	r.c.queueIx[name] = k
	return k
}

func (r *reader) stream(k int16, s StreamInput) {
	c := r.c
	e := &c.Engines[k]
	e.waitFrom = int32(len(c.Waits))
	defer func() { e.waitTo = int32(len(c.Waits)) }()
	if s.ISA == nil {
		r.orderUnknown = true
		r.issue(Unread, At{k, 0}, "(stream "+s.Member+" not read)")
		return
	}
	n := s.ISA.Len()
	e.Len = n
	if !r.take(int64(n)*5, "sync model of "+s.Member) {
		r.orderUnknown = true
		r.issue(Limit, At{k, 0}, "(stream "+s.Member+")")
		e.Len = 0
		return
	}
	if r.mem {
		r.reserveAccesses(s.ISA)
	}
	// About a quarter of the words of real streams wait (10,818 of 50,580) or update: reserved
	// up front, so the tables do not grow by copying on a big stream.
	if est := n / 4; est > 64 && r.take(int64(est)*(waitBytes+updateBytes), "sync model of "+s.Member) {
		c.Waits = slices.Grow(c.Waits, est)
		c.updates = slices.Grow(c.updates, est)
	}
	e.ops = make([]uint8, n)
	e.steps = make([]int32, n)
	dyn := dynamicQueues(r.core, s.Engine)
	for i, w := range s.ISA.Words() {
		op := isa.OpcodeOf(w)
		e.ops[i] = op
		if s.ISA.PartOf(i) >= 0 {
			continue // the 0xDA second word of a 0xD4: no sync band of its own (neff.md §4.7)
		}
		at := At{k, int32(i)}
		r.word(at, op, w, s.Engine, dyn)
		if r.refused {
			r.orderUnknown = true
			r.issue(Limit, at, "(the rest of "+s.Member+")")
			break
		}
	}
	if err := s.ISA.Err(); err != nil {
		r.orderUnknown = true
		r.issue(Unread, At{k, 0}, "(stream "+s.Member+": "+err.Error()+")")
	}
	e.Read = !r.refused && s.ISA.Err() == nil
}

// word reads one instruction through the opcode table (core/isa): its sync bands, the
// semaphore its DMA's completion increments, its memory operands, and whether it is one the
// model cannot follow.
func (r *reader) word(at At, op uint8, w []byte, e *manifest.Engine, dyn map[int32]string) {
	for _, second := range []bool{false, true} {
		if b, ok := isa.SyncBand(w, second); ok {
			r.band(at, b, second)
		}
	}
	effect := isa.SyncEffectOf(op)
	switch effect {
	case isa.SyncDMABlock:
		r.trigger(at, e, w)
	case isa.SyncDMADirect:
		sem8, inc, _ := isa.Direct2dCompletion(w)
		sem := int32(sem8)
		q := int16(-1)
		if name, ok := dyn[sem]; ok {
			q = r.queue(name)
		}
		r.add(update{at: at, sem: sem, amount: uint32(inc), queue: q, dma: true})
		if r.mem {
			r.direct2d(at, w)
		}
	}
	if r.mem {
		switch isa.MemoryOf(op) {
		case isa.MemOperands:
			r.operands(at, op, w)
		case isa.MemUnknown:
			r.memIssue(at, isa.OpcodeName(op))
		}
	}
	switch effect {
	case isa.SyncBranch, isa.SyncSet, isa.SyncPoll, isa.SyncBarrier:
		r.orderUnknown = true
		r.issue(OrderUnknown, at, isa.OpcodeName(op))
	case isa.SyncDMAUndecoded, isa.SyncCollective:
		r.hidden = true
		r.issue(HiddenUpdate, at, isa.OpcodeName(op))
	}
}

// band reads one sync band (neff.md §4.2).
func (r *reader) band(at At, b isa.Band, second bool) {
	wm, ws, um, us := b.WaitMode, b.WaitSem, b.UpdateMode, b.UpdateSem
	if wm != waitNone {
		w := Wait{At: at, Second: second, Mode: wm, Sem: int32(ws), Value: b.Value, Producer: None, Queue: -1, Other: None}
		if wm != waitGeImm {
			w.Code = UnknownMode
		}
		r.addWait(w)
	}
	switch {
	case um == updateInc:
		r.add(update{at: at, sem: int32(us), amount: 1, queue: -1})
	case um == updateNone && us == 0:
	default:
		// An unconfirmed update mode (or mode 0 naming a semaphore, which the compiler wiki
		// reads as "set"): its semaphore's waits are undecided.
		r.add(update{at: at, sem: int32(us), amount: 0, queue: unknownModeQueue})
		r.issue(UnknownMode, at, "update mode 0x"+strconv.FormatUint(uint64(um)|0x100, 16)[1:]+" on S["+strconv.Itoa(int(us))+"]")
	}
}

// unknownModeQueue marks an update whose mode is not confirmed: it taints its semaphore.
const unknownModeQueue = -2

// trigger reads a PseudoDMATrigger (0xC1): its queue (+0x0C) and block id (+0x30) name an
// engine-JSON dma[] block, whose completion adds 16 to the block's semaphore.
func (r *reader) trigger(at At, e *manifest.Engine, w []byte) {
	id, _ := isa.BlockIDOf(w)
	q, _ := isa.QueueOf(w)
	var blk *manifest.DMABlock
	if q != "" {
		blk = e.Block(q, int64(id))
	}
	if blk == nil {
		if bs := e.BlocksWithID(int64(id)); len(bs) == 1 {
			blk = bs[0]
		}
	}
	if blk == nil || blk.Semaphore < 0 || blk.Semaphore > 1<<20 {
		r.hidden = true
		r.issue(DMAUnresolved, at, "PseudoDMATrigger block "+strconv.FormatUint(uint64(id), 10)+" on queue "+strconv.Quote(q))
		if r.mem {
			r.memIssue(at, "PseudoDMATrigger block not in the engine JSON")
		}
		return
	}
	r.add(update{at: at, sem: int32(blk.Semaphore), amount: dmaBlockIncrement, queue: r.queue(blk.Queue), dma: true})
	if r.mem {
		r.block(at, blk)
	}
}

func (r *reader) addWait(w Wait) {
	c := r.c
	if len(c.Waits) == cap(c.Waits) && !r.take(int64(growth(cap(c.Waits)))*waitBytes, "sync model waits") {
		return
	}
	c.Waits = append(c.Waits, w)
}

func (r *reader) add(u update) {
	c := r.c
	if len(c.updates) == cap(c.updates) && !r.take(int64(growth(cap(c.updates)))*updateBytes, "sync model updates") {
		return
	}
	c.updates = append(c.updates, u)
}

// growth is about what append adds to a slice of capacity n (charged before it grows).
func growth(n int) int { return max(n, 64) }

// dynamicQueues maps each semaphore of the engine's own dynamic DMA queues (def.json
// dma_queue) to the queue's name: a 0xD4's +0x0D is one of them (neff.md §4.7).
func dynamicQueues(c *manifest.Core, e *manifest.Engine) map[int32]string {
	out := map[int32]string{}
	if c == nil || e == nil {
		return out
	}
	for _, q := range c.Queues {
		if q.Owner != e.Token || q.Type != "dynamic" {
			continue
		}
		for _, s := range q.Semaphores {
			if _, ok := out[int32(s)]; !ok {
				out[int32(s)] = q.Name
			}
		}
	}
	return out
}
