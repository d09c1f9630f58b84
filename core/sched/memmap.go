package sched

import (
	"slices"
	"sort"
	"strconv"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
)

// Access is one operand of an instruction, or one side of a DMA transfer, that touches SBUF or
// PSUM: its boxes are Core.Boxes[BoxFrom:BoxTo].
type Access struct {
	At At
	// DMA: the transfer a trigger (0xC1, 0xD4) starts, which runs after the trigger and
	// before the semaphore it increments reaches the waits it satisfies.
	DMA            bool
	Space          Space
	Write          bool
	BoxFrom, BoxTo int32
}

// MemLint is a memory lint: the access it is about, and the other one (-1: none).
type MemLint struct {
	Code         Code
	Access       int32
	Other        int32
	Box          Box // the overlap, or the box out of bounds
	OtherIsWrite bool
}

// PeakConvention is how a peak is counted, said wherever one is shown (memmap, the page's
// memory view): the order Usage's doc comment gives.
const PeakConvention = "the peak is the most bytes of one partition written and read again later, in the schedule's order: by step, a DMA counting after the compute of its step"

// Usage is a space's capacity and its peak: the most bytes of one partition live at once
// (written and read again later), in the order of the schedule, and the access that reached
// it. The order is by step, and within a step the instructions' own accesses come before the
// DMA transfers they start: a DMA counts after the compute of its step.
type Usage struct {
	Partitions     int
	PartitionBytes uint32
	PeakBytes      uint64
	PeakAt         int32 // an access index, -1 when nothing is live
	// Live are the buffers live at the peak, in the partition band that reached it, most bytes
	// first.
	Live []LiveBuffer
	// Unswept is how many of the space's accesses a limit left out of the peak and the races
	// (a mem.limit entry says which).
	Unswept int
}

// Unplaced is how many operands and DMA sides the model could not place (its
// mem.unknown-operands entries' counts): they are in no peak and no race.
func (c *Core) Unplaced() int {
	n := 0
	for _, u := range c.MemIssues {
		if u.Code == MemUnknownOperands {
			n += u.Count
		}
	}
	return n
}

// checkReserved gives mem.reserved when access k writes SBUF bytes a reservation names.
func (c *Core) checkReserved(k int32, reserved []manifest.Reservation) {
	a := &c.Accesses[k]
	if !a.Write || a.Space != SBUF {
		return
	}
	for _, r := range reserved {
		if r.Offset < 0 || r.Size <= 0 || r.BasePartition < 0 || r.Partitions <= 0 {
			continue
		}
		for _, b := range c.Boxes[a.BoxFrom:a.BoxTo] {
			if o, ok := boxMeets(b, r); ok {
				c.addMemLint(MemLint{Code: MemReserved, Access: k, Other: -1, Box: o})
				return
			}
		}
	}
}

// boxMeets is the first repeat of box b that overlaps reservation r, cut to the overlap.
func boxMeets(b Box, r manifest.Reservation) (Box, bool) {
	p0, p1 := max(int64(b.Partition), r.BasePartition), min(int64(b.Partition)+int64(b.Parts), r.BasePartition+r.Partitions)
	if p0 >= p1 {
		return Box{}, false
	}
	lo, hi := r.Offset, r.Offset+r.Size
	// The first repeat whose bytes end past lo, and whether it starts before hi.
	rep := int64(0)
	if b.Stride > 0 && int64(b.Offset)+int64(b.Bytes) <= lo {
		rep = (lo-int64(b.Offset)-int64(b.Bytes))/int64(b.Stride) + 1
	}
	if rep >= int64(b.Count) {
		return Box{}, false
	}
	o := int64(b.Offset) + rep*int64(b.Stride)
	if o >= hi || o+int64(b.Bytes) <= lo {
		return Box{}, false
	}
	from, to := max(o, lo), min(o+int64(b.Bytes), hi)
	return Box{Offset: uint32(from), Bytes: uint32(to - from), Count: 1, Partition: uint16(p0), Parts: uint16(p1 - p0)}, true
}

// memIssue records an access the model cannot place: the first of each kind (what) per
// engine, counted, so a core lists every kind of operand it left out and how many.
func (r *reader) memIssue(at At, what string) {
	c := r.c
	key := memIssueKey{at.Engine, what}
	if k, ok := r.memIssueAt[key]; ok {
		c.MemIssues[k].Count++
		return
	}
	if r.memIssueAt == nil {
		r.memIssueAt = map[memIssueKey]int{}
	}
	r.memIssueAt[key] = len(c.MemIssues)
	c.MemIssues = append(c.MemIssues, Issue{Code: MemUnknownOperands, At: at, Count: 1, What: what})
}

type memIssueKey struct {
	engine int16
	what   string
}

func (r *reader) addAccess(a Access, boxes []Box) {
	c := r.c
	need := int64(len(boxes)) * int64(boxBytes)
	if len(c.Accesses) == cap(c.Accesses) {
		need += int64(growth(cap(c.Accesses))) * accessBytes
	}
	if len(c.Boxes)+len(boxes) > cap(c.Boxes) {
		need += int64(growth(cap(c.Boxes))) * boxBytes
	}
	if !r.take(need, "memory model") {
		return
	}
	a.BoxFrom = int32(len(c.Boxes))
	c.Boxes = append(c.Boxes, boxes...)
	a.BoxTo = int32(len(c.Boxes))
	c.Accesses = append(c.Accesses, a)
}

// reserveAccesses grows the access and box tables once for a stream, by its opcode counts
// (each operand slot an access, 0xD4 up to two sides, 0xC1 a block of a few descriptors).
func (r *reader) reserveAccesses(s *isa.Stream) {
	n := 0
	for op := range 256 {
		switch isa.MemoryOf(uint8(op)) {
		case isa.MemOperands:
			n += s.Count(uint8(op)) * isa.OperandSlots(uint8(op))
		case isa.MemDMA:
			n += 2 * s.Count(uint8(op))
		}
	}
	c := r.c
	if n == 0 || !r.take(int64(n)*(accessBytes+boxBytes), "memory model") {
		return
	}
	c.Accesses = slices.Grow(c.Accesses, n)
	c.Boxes = slices.Grow(c.Boxes, n)
}

// operands places an instruction's memory operands (the opcode table's operand slots).
func (r *reader) operands(at At, op uint8, w []byte) {
	r.ops = isa.Operands(r.ops[:0], w)
	for k := range r.ops {
		o := &r.ops[k]
		space, boxes, ok := operandBoxes(r.scratch[:0], o)
		r.scratch = boxes[:0]
		if !ok {
			r.memIssue(at, isa.OpcodeName(op)+" "+o.Name)
			continue
		}
		r.addAccess(Access{At: at, Space: space, Write: o.Write}, boxes)
	}
}

// stateBuffer says whether v is the state buffer (def.json type "state-buffer"); known is
// false when v is nil or its attributes were not read (a side the model cannot place).
func stateBuffer(v *manifest.Var) (sb, known bool) {
	if v == nil || v.VarAttrs == nil {
		return false, false
	}
	return v.Type == "state-buffer", true
}

// direct2d places a PseudoDmaDirect2d's SBUF sides (neff.md §4.7, §8.1): address tag 0x10 var
// id (or 0x20 a DGE-table index) | byte offset, then partition step (1 << 18 in SBUF), element
// step, partitions, a second count and the bytes of one element (row).
func (r *reader) direct2d(at At, w []byte) {
	src, dst, _ := isa.Direct2dAddrs(w)
	srcPat, dstPat, _ := isa.Direct2dPatterns(w)
	pats := [2]isa.DmaPattern{srcPat, dstPat}
	for k, side := range []isa.DmaAddr{src, dst} {
		var v *manifest.Var
		switch side.Tag {
		case isa.DmaTagVar:
			v = r.core.VarByID(int64(side.ID))
		case isa.DmaTagDGE:
			if t := r.core.DGETable(); t != nil && int(side.ID) < len(t.List) {
				v = r.core.VarByID(t.List[side.ID])
			}
		default:
			r.memIssue(at, "PseudoDmaDirect2d address tag 0x"+strconv.FormatUint(uint64(side.Tag), 16))
			continue
		}
		if sb, known := stateBuffer(v); !known {
			r.memIssue(at, "PseudoDmaDirect2d side naming no var of def.json")
			continue
		} else if !sb {
			continue
		}
		p := pats[k]
		pstep, estep, parts, count1, bytes := p.StepElem[0], p.StepElem[1], p.NumElem[0], p.NumElem[1], p.ElemSize
		if pstep != 1<<partShift || estep != 1 || count1 != 1 || side.Offset > 1<<25 {
			r.memIssue(at, "PseudoDmaDirect2d SBUF side")
			continue
		}
		off := uint32(side.Offset)
		r.addAccess(Access{At: at, DMA: true, Space: SBUF, Write: k == 1},
			[]Box{{Offset: off & partOffset, Bytes: uint32(bytes), Count: 1, Partition: uint16(off >> partShift), Parts: parts}})
	}
}

// block places a 0xC1 block's descriptors' SBUF sides (engine JSON dma[].desc[], neff.md
// §3.5, §8.1): off is start partition << 18 | byte offset, sizes and steps are bytes,
// innermost first, and the partitions are the dimension whose step is 1 << 18.
func (r *reader) block(at At, b *manifest.DMABlock) {
	for _, d := range b.Descs {
		for k, side := range []struct {
			name         string
			off          int64
			sizes, steps []int64
		}{{d.From, d.FromOff, d.FromSizes, d.FromSteps}, {d.To, d.ToOff, d.ToSizes, d.ToSteps}} {
			if sb, known := stateBuffer(r.core.Var(side.name)); !known {
				r.memIssue(at, "PseudoDMATrigger descriptor naming no var of def.json")
				continue
			} else if !sb {
				continue
			}
			parts := int64(1)
			var steps, counts []int64
			ok := len(side.sizes) == len(side.steps) && side.off >= 0 && side.off < 1<<25
			for j := 0; ok && j < len(side.steps); j++ {
				if side.steps[j] == 1<<partShift && parts == 1 {
					parts = side.sizes[j]
					continue
				}
				steps, counts = append(steps, side.steps[j]), append(counts, side.sizes[j])
			}
			if ok && parts > 0 && parts < 1<<16 {
				// A byte dimension with step 1 is a run of that many bytes.
				var boxes []Box
				boxes, ok = patternBoxes(r.scratch[:0], uint16(side.off>>partShift), uint16(parts), side.off&partOffset, steps, counts, 1, maxBoxes)
				if ok {
					r.scratch = boxes[:0]
					r.addAccess(Access{At: at, DMA: true, Space: SBUF, Write: k == 1}, boxes)
					continue
				}
			}
			r.memIssue(at, "PseudoDMATrigger descriptor")
		}
	}
}

const (
	accessBytes = 20
	boxBytes    = 20
)

// hbClock is the model's happens-before as vector clocks: a component per engine (the last
// index of that engine that happens before) and one per DMA lane whose transfers touch SBUF
// (a semaphore DMA transfers increment: its transfers complete in trigger order, the
// model's counting rule). A lane no access is on needs no component of its own: its order
// still reaches the waits through the clocks of its transfers.
type hbClock struct {
	c    *Core
	dims int
	// laneComp is each lane's component (-1: none); waitsAt: per engine, the indexes of its
	// instructions with a resolved wait, in order, and their clocks; dma: per update that is
	// a DMA transfer, its lane, sequence and clock.
	laneComp []int32
	waitIdx  [][]int32
	waitVC   [][][]int32
	dmaLane  [][2]int32   // per update: its lane and sequence (DMA updates only)
	dmaVC    [][]int32    // per update: the clock of its transfer (DMA updates only)
	trigger  map[At]int32 // the trigger's update index
}

// What the clocks cost besides their components: per update (its lane, sequence and clock
// header), per DMA trigger (its map entry), per node (its place in the order, and for a wait
// its index and clock header).
const (
	clockUpdateBytes  = 32
	clockTriggerBytes = 48
	clockNodeBytes    = 24 + 28
)

// clockNode is a point of the clocks: a waiting instruction, or a DMA transfer (upd, its
// update), at its key in an order consistent with happens-before.
type clockNode struct {
	key int64
	at  At
	upd int32 // the DMA update, or -1 for a waiting instruction
}

// clock builds the clocks, charged to m; nil when the budget refuses them (the races are then
// not checked, and a mem.limit entry says so).
func (c *Core) clock(m *meter) *hbClock {
	refused := func(what string) *hbClock {
		c.MemIssues = append(c.MemIssues, Issue{Code: MemLimit, At: c.Accesses[0].At, Count: len(c.Accesses), What: "(happens-before clocks" + what + ": races not checked)"})
		return nil
	}
	fixed := int64(len(c.updates))*clockUpdateBytes + int64(len(c.updates)+len(c.Waits))*clockNodeBytes
	if !m.take(fixed, "happens-before clocks") {
		return refused("")
	}
	h, lanes, ok := c.newClock(m)
	if !ok {
		return refused("")
	}
	nodes := c.clockNodes()
	if !m.take(int64(len(nodes))*int64(h.dims)*4, "happens-before clocks") {
		return refused(" of " + strconv.Itoa(len(nodes)) + " waits and transfers × " + strconv.Itoa(h.dims) + " engines and DMA lanes")
	}
	c.work += int64(len(nodes)) * int64(h.dims)
	h.fill(nodes, lanes)
	return h
}

// newClock gives each DMA transfer its lane and each lane an access is on its component. A
// lane is a DMA queue: its transfers complete in the order they are triggered (in
// stream_256k_fd1k, DVE waits only for b_vec's block and reads a_vec's, triggered before it
// on the same queue). A 0xD4 whose queue is not named has a lane per semaphore.
func (c *Core) newClock(m *meter) (h *hbClock, lanes int, ok bool) {
	ne := len(c.Engines)
	h = &hbClock{c: c, dmaLane: make([][2]int32, len(c.updates)), dmaVC: make([][]int32, len(c.updates)), trigger: map[At]int32{}}
	laneOf := map[int32]int32{} // queue (or -2 - semaphore) → lane
	for k, u := range c.updates {
		if !u.dma {
			continue
		}
		lane := int32(u.queue)
		if u.queue < 0 {
			lane = -2 - u.sem
		}
		l, ok := laneOf[lane]
		if !ok {
			if !m.take(clockTriggerBytes, "happens-before clocks") {
				return nil, 0, false
			}
			l = int32(len(laneOf))
			laneOf[lane] = l
		}
		h.dmaLane[int32(k)] = [2]int32{l, -1}
		h.trigger[u.at] = int32(k)
	}
	h.laneComp = make([]int32, len(laneOf))
	for i := range h.laneComp {
		h.laneComp[i] = -1
	}
	h.dims = ne
	for _, a := range c.Accesses {
		if t, ok := h.trigger[a.At]; ok && a.DMA {
			if l := h.dmaLane[t][0]; h.laneComp[l] < 0 {
				h.laneComp[l] = int32(h.dims)
				h.dims++
			}
		}
	}
	h.waitIdx = make([][]int32, ne)
	h.waitVC = make([][][]int32, ne)
	for k := range c.Engines {
		n := c.Engines[k].waitTo - c.Engines[k].waitFrom
		h.waitIdx[k], h.waitVC[k] = make([]int32, 0, n), make([][]int32, 0, n)
	}
	return h, len(laneOf), true
}

// clockNodes are the points of the clocks in an order consistent with happens-before: by
// step, a DMA transfer just after its trigger (every wait it satisfies runs at least a step
// later). Instructions that never run are not among them.
func (c *Core) clockNodes() []clockNode {
	nodes := make([]clockNode, 0, len(c.Waits)+len(c.updates))
	for k := range c.Engines {
		e := &c.Engines[k]
		last := int32(-1)
		for j := e.waitFrom; j < e.waitTo; j++ {
			w := &c.Waits[j]
			if w.Code != OK || !w.Producer.Valid() || w.Index == last || e.steps[w.Index] < 0 {
				continue
			}
			last = w.Index
			nodes = append(nodes, clockNode{2 * int64(e.steps[w.Index]), w.At, -1})
		}
	}
	for k, u := range c.updates {
		if u.dma && c.Engines[u.at.Engine].steps[u.at.Index] >= 0 {
			nodes = append(nodes, clockNode{2*int64(c.Engines[u.at.Engine].steps[u.at.Index]) + 1, u.at, int32(k)})
		}
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].key < nodes[j].key })
	return nodes
}

// fill computes each node's clock, in order: a transfer joins its trigger and the transfer
// before it on its lane; a waiting instruction joins what each of its waits' producers knew.
func (h *hbClock) fill(nodes []clockNode, lanes int) {
	c := h.c
	laneLast := make([][]int32, lanes)
	laneSeq := make([]int32, lanes)
	slab := make([]int32, len(nodes)*h.dims)
	for i := range slab {
		slab[i] = -1
	}
	for _, n := range nodes {
		vc := slab[:h.dims:h.dims]
		slab = slab[h.dims:]
		h.joinAt(vc, n.at)
		if n.upd >= 0 {
			ls := h.dmaLane[n.upd]
			ls[1] = laneSeq[ls[0]]
			laneSeq[ls[0]]++
			h.dmaLane[n.upd] = ls
			join(vc, laneLast[ls[0]])
			if comp := h.laneComp[ls[0]]; comp >= 0 {
				vc[comp] = ls[1]
			}
			h.dmaVC[n.upd] = vc
			laneLast[ls[0]] = vc
			continue
		}
		e := &c.Engines[n.at.Engine]
		for j := sort.Search(int(e.waitTo-e.waitFrom), func(j int) bool { return c.Waits[e.waitFrom+int32(j)].Index >= n.at.Index }) + int(e.waitFrom); j < int(e.waitTo) && c.Waits[j].Index == n.at.Index; j++ {
			w := &c.Waits[j]
			if w.Code != OK || !w.Producer.Valid() {
				continue
			}
			if t := h.dmaUpdate(w.Producer, w.Sem); t >= 0 {
				join(vc, h.dmaVC[t]) // set: the transfer's node comes before every wait it satisfies
				continue
			}
			h.joinAt(vc, w.Producer)
		}
		h.waitIdx[n.at.Engine] = append(h.waitIdx[n.at.Engine], n.at.Index)
		h.waitVC[n.at.Engine] = append(h.waitVC[n.at.Engine], vc)
	}
}

// dmaUpdate is the DMA update of trigger at on semaphore sem.
func (h *hbClock) dmaUpdate(at At, sem int32) int32 {
	t, ok := h.trigger[at]
	if !ok {
		return -1 // not a DMA trigger
	}
	if h.c.updates[t].sem == sem {
		return t
	}
	// A trigger has one DMA update (its block's, or a 0xD4's queue semaphore): a wait on
	// another semaphore is satisfied by the trigger's own sync band, at its completion.
	return -1
}

func join(dst, src []int32) {
	for i := range src {
		dst[i] = max(dst[i], src[i])
	}
}

// joinAt joins instruction at's clock into dst.
func (h *hbClock) joinAt(dst []int32, at At) {
	idx := h.waitIdx[at.Engine]
	if j := sort.Search(len(idx), func(j int) bool { return idx[j] > at.Index }); j > 0 {
		join(dst, h.waitVC[at.Engine][j-1])
	}
	dst[at.Engine] = max(dst[at.Engine], at.Index)
}

// before says whether access a happens before access b.
func (h *hbClock) before(a, b *Access) bool {
	comp, pos := int(a.At.Engine), a.At.Index
	if a.DMA {
		t, ok := h.trigger[a.At]
		if !ok {
			return false
		}
		ls := h.dmaLane[t]
		comp, pos = int(h.laneComp[ls[0]]), ls[1]
		if comp < 0 {
			return false // not reached: every lane an access is on has its component
		}
	}
	return h.component(b, comp) >= pos
}

// component is one component of access b's clock.
func (h *hbClock) component(b *Access, comp int) int32 {
	if b.DMA {
		t, ok := h.trigger[b.At]
		if !ok || h.dmaVC[t] == nil {
			return -1
		}
		return h.dmaVC[t][comp]
	}
	if comp == int(b.At.Engine) {
		return b.At.Index
	}
	idx := h.waitIdx[b.At.Engine]
	j := sort.Search(len(idx), func(j int) bool { return idx[j] > b.At.Index })
	if j == 0 {
		return -1
	}
	return h.waitVC[b.At.Engine][j-1][comp]
}
