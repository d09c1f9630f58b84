package sched

import (
	"slices"
	"sort"
	"strconv"

	"github.com/neffscope/neffscope/core/manifest"
)

// maxMemLints is the most memory lints a core keeps (a broken file could pair every access).
const maxMemLints = 1000

// maxSweepWork is how many byte runs one space's sweep visits: a box's repeats, cut at segment
// pages, in every partition band it crosses (a hostile or broken stream can ask for billions).
const maxSweepWork = 1 << 23

// memory checks the accesses: boxes out of bounds and in the runtime's reserved bytes, then
// (when the order is known) each space swept in an order consistent with happens-before for
// overlaps neither side of which happens before the other, and for the live bytes' peak.
// The clocks and the sweep's tables are charged to m while they live.
func (c *Core) memory(orderUnknown bool, reserved []manifest.Reservation, m *meter) {
	c.SBUF = Usage{Partitions: Partitions, PartitionBytes: sbufPartBytes[c.target], PeakAt: -1}
	c.PSUM = Usage{Partitions: Partitions, PartitionBytes: psumPartBytes, PeakAt: -1}
	for k, a := range c.Accesses {
		limit := c.SBUF.PartitionBytes
		if a.Space == PSUM {
			limit = c.PSUM.PartitionBytes
		}
		for _, b := range c.Boxes[a.BoxFrom:a.BoxTo] {
			if outside(b, limit) {
				c.addMemLint(MemLint{Code: MemOutOfBounds, Access: int32(k), Other: -1, Box: b})
				break
			}
		}
		c.checkReserved(int32(k), reserved)
	}
	if orderUnknown || len(c.Accesses) == 0 {
		return // the sync model's undecided points say why; or nothing to sweep
	}
	h := c.clock(m)
	s := &sweep{c: c, h: h, m: m, seen: map[[2]int32]bool{}, undecidedFrom: c.undecidedFrom()}
	c.SBUF.PeakBytes, c.SBUF.PeakAt, c.SBUF.Live, c.SBUF.Unswept = s.run(SBUF)
	s.giveBack()
	c.PSUM.PeakBytes, c.PSUM.PeakAt, c.PSUM.Live, c.PSUM.Unswept = s.run(PSUM)
	s.giveBack()
}

// segPage is the bytes of a band one segment list covers.
const segPage = 256

// addMemLint keeps a lint, up to maxMemLints; the first one past says so (mem.limit).
func (c *Core) addMemLint(l MemLint) {
	if len(c.MemLints) < maxMemLints {
		c.MemLints = append(c.MemLints, l)
		if len(c.MemLints) == maxMemLints {
			c.MemIssues = append(c.MemIssues, Issue{Code: MemLimit, At: c.Accesses[l.Access].At, Count: 1, What: "(memory lints past " + strconv.Itoa(maxMemLints) + " are not kept)"})
		}
	}
}

// outside says whether a box leaves its space (limit: a partition's bytes, 0 when unknown).
func outside(b Box, limit uint32) bool {
	return int(b.Partition)+int(b.Parts) > Partitions || b.Parts == 0 ||
		(limit != 0 && uint64(b.Offset)+uint64(b.Count-1)*uint64(b.Stride)+uint64(b.Bytes) > uint64(limit))
}

// seg is a byte range of one band of partitions: its last write and the reads since.
type seg struct {
	lo, hi     uint32
	w          int32 // access, -1: not written
	wKey       int64
	lastRead   int64
	lastReader int32 // the access of the last read, -1: none
	readers    int32 // the reads since the write: a chain in sweep.chain, -1 for none
}

// readNode is one read in a chain; chains are never changed, only extended at the front, so
// the two halves of a split segment share theirs.
type readNode struct {
	access, next int32
}

type sweep struct {
	c     *Core
	h     *hbClock // nil: the clocks were refused, no race is checked
	m     *meter
	seen  map[[2]int32]bool
	chain []readNode
	fill  []seg // apply's scratch
	mid   []seg
	// segs and lives count the segments and live intervals the current space's sweep holds;
	// charged is what the sweep took from the budget for them and the chains (given back
	// when the core is done).
	segs, lives int
	charged     int64
	// undecidedFrom is, per engine, its first instruction with a wait the model could not
	// decide: an overlap with what comes from there on is no lint (mem.order-undecided).
	undecidedFrom []int32
	orderIssue    map[int16]int // engine → its mem.order-undecided entry in MemIssues
}

// undecidedFrom is, per engine, the index of its first instruction with an undecided wait
// (past its last word when it has none).
func (c *Core) undecidedFrom() []int32 {
	out := make([]int32, len(c.Engines))
	for k := range c.Engines {
		e := &c.Engines[k]
		out[k] = int32(e.Len)
		for j := e.waitFrom; j < e.waitTo; j++ {
			if c.Waits[j].Code.Class() == ClassUndecided {
				out[k] = c.Waits[j].Index
				break
			}
		}
	}
	return out
}

// What the sweep's tables cost: a segment (with its slot), a read of a chain, a live interval
// (and its two events when the peak is found), a page's segment list header.
const (
	segBytes  = 48
	readBytes = 8
	liveBytes = 32 + 2*24
	pageBytes = 24
	// sweepChunk is how much the sweep takes from the budget at a time.
	sweepChunk = 1 << 20
)

// account charges what the sweep holds now beyond what it took; false when refused.
func (s *sweep) account(extra int64) bool {
	need := int64(s.segs)*segBytes + int64(len(s.chain))*readBytes + int64(s.lives)*liveBytes + extra
	if need <= s.charged {
		return true
	}
	more := need - s.charged + sweepChunk
	if !s.m.take(more, "memory sweep") {
		return false
	}
	s.charged += more
	return true
}

// giveBack returns what the sweep took: its tables are let go when a space is done.
func (s *sweep) giveBack() {
	s.m.give(s.charged)
	s.charged = 0
}

// live is bytes of a band live from one key to another, written by access at and last read
// by access reader.
type live struct {
	from, to   int64
	bytes      uint64
	at, reader int32
}

// LiveBuffer is bytes of one partition band live at a space's peak: written by access Write,
// read last (before the next write) by access LastRead.
type LiveBuffer struct {
	Write, LastRead int32
	Bytes           uint64
	Partition       uint16 // the band: partitions [Partition, Partition+Parts)
	Parts           uint16
}

func (s *sweep) key(a *Access) int64 {
	st := s.c.Engines[a.At.Engine].steps[a.At.Index]
	if st < 0 {
		return -1
	}
	k := 2 * int64(st)
	if a.DMA {
		k++
	}
	return k
}

// run sweeps one space: its peak (bytes of one partition live at once), the access that
// reached it, the buffers live then, and how many accesses a limit left out of the sweep.
func (s *sweep) run(space Space) (peak uint64, peakAt int32, at []LiveBuffer, unswept int) {
	c := s.c
	peakAt = -1
	var order []int32
	bounds := map[uint16]bool{0: true, Partitions: true}
	limit := c.SBUF.PartitionBytes
	if space == PSUM {
		limit = c.PSUM.PartitionBytes
	}
	if limit == 0 {
		limit = 1 << partShift
	}
next:
	for k := range c.Accesses {
		a := &c.Accesses[k]
		if a.Space != space || s.key(a) < 0 {
			continue
		}
		for _, b := range c.Boxes[a.BoxFrom:a.BoxTo] {
			if outside(b, limit) {
				continue next // a lint of its own; not placed
			}
		}
		order = append(order, int32(k))
		for _, b := range c.Boxes[a.BoxFrom:a.BoxTo] {
			bounds[min(b.Partition, Partitions)] = true
			bounds[min(b.Partition+b.Parts, Partitions)] = true
		}
	}
	if len(order) == 0 {
		return 0, -1, nil, 0
	}
	sort.SliceStable(order, func(i, j int) bool {
		return s.key(&c.Accesses[order[i]]) < s.key(&c.Accesses[order[j]])
	})
	var edges []uint16
	for p := range bounds {
		edges = append(edges, p)
	}
	sort.Slice(edges, func(i, j int) bool { return edges[i] < edges[j] })
	// Each band's bytes are cut in pages of their own segment lists, so splitting a segment
	// moves only its page's.
	var end uint32
	for _, xi := range order {
		a := &c.Accesses[xi]
		for _, b := range c.Boxes[a.BoxFrom:a.BoxTo] {
			end = max(end, b.end())
		}
	}
	npages := int(end/segPage) + 1
	s.segs, s.lives = 0, 0
	if !s.account(int64(len(edges))*int64(npages)*pageBytes + int64(len(order))*4) {
		c.MemIssues = append(c.MemIssues, Issue{Code: MemLimit, At: c.Accesses[order[0]].At, Count: len(order), What: space.String() + " sweep (its tables did not fit the memory budget)"})
		return 0, -1, nil, len(order)
	}
	bands := make([][][]seg, len(edges)-1)
	for bi := range bands {
		bands[bi] = make([][]seg, npages)
	}
	lives := make([][]live, len(bands))
	work := 0
	for n, xi := range order {
		x := &c.Accesses[xi]
		key := s.key(x)
		for _, b := range c.Boxes[x.BoxFrom:x.BoxTo] {
			first := sort.Search(len(edges), func(i int) bool { return edges[i] >= b.Partition })
			last := sort.Search(len(edges), func(i int) bool { return edges[i] >= min(b.Partition+b.Parts, Partitions) })
			work += (last - first) * int(b.Count) * int(b.Bytes/segPage+2)
		}
		if work > maxSweepWork || !s.account(0) {
			what := space.String() + " sweep (its work)"
			if work <= maxSweepWork {
				what = space.String() + " sweep (its tables did not fit the memory budget)"
			}
			c.MemIssues = append(c.MemIssues, Issue{Code: MemLimit, At: x.At, Count: len(order) - n, What: what})
			unswept = len(order) - n
			break
		}
		for _, b := range c.Boxes[x.BoxFrom:x.BoxTo] {
			first := sort.Search(len(edges), func(i int) bool { return edges[i] >= b.Partition })
			for bi := first; bi < len(bands) && edges[bi] < b.Partition+b.Parts; bi++ {
				for r := uint32(0); r < b.Count; r++ {
					lo := b.Offset + r*b.Stride
					hi := lo + b.Bytes
					for pg := lo / segPage; pg*segPage < hi; pg++ {
						pages := bands[bi]
						n0, l0 := len(pages[pg]), len(lives[bi])
						pages[pg], lives[bi] = s.apply(pages[pg], lives[bi], max(lo, pg*segPage), min(hi, (pg+1)*segPage), xi, key, edges[bi], edges[bi+1])
						s.segs += len(pages[pg]) - n0
						s.lives += len(lives[bi]) - l0
					}
				}
			}
		}
	}
	peak, peakAt, at = peakOf(bands, lives, edges)
	return peak, peakAt, at, unswept
}

// peakOf finds the most bytes of one band live at once, in the sweep's order, the access
// that reached it, and the buffers live then (a band's bytes still written and read again
// when the sweep ended count to their last read).
func peakOf(bands [][][]seg, lives [][]live, edges []uint16) (uint64, int32, []LiveBuffer) {
	var peak uint64
	peakAt, peakBand := int32(-1), -1
	var peakKey int64
	type ev struct {
		key   int64
		delta int64
		at    int32
	}
	var evs []ev
	for bi := range bands {
		for _, page := range bands[bi] {
			for _, g := range page {
				if g.w >= 0 && g.lastRead > g.wKey {
					lives[bi] = addLive(lives[bi], live{g.wKey, g.lastRead, uint64(g.hi - g.lo), g.w, g.lastReader})
				}
			}
		}
		evs = evs[:0]
		for _, l := range lives[bi] {
			evs = append(evs, ev{2 * l.from, int64(l.bytes), l.at}, ev{2*l.to + 1, -int64(l.bytes), l.at})
		}
		sort.SliceStable(evs, func(i, j int) bool { return evs[i].key < evs[j].key })
		var cur int64
		for _, e := range evs {
			cur += e.delta
			if e.delta > 0 && uint64(cur) > peak {
				peak, peakAt, peakBand, peakKey = uint64(cur), e.at, bi, e.key
			}
		}
	}
	if peakBand < 0 {
		return 0, -1, nil
	}
	// The buffers live at the peak: every interval of its band begun by then and not ended,
	// grouped by the write and last read that bound it.
	var out []LiveBuffer
	ix := map[[2]int32]int{}
	for _, l := range lives[peakBand] {
		if 2*l.from > peakKey || 2*l.to+1 <= peakKey {
			continue
		}
		k := [2]int32{l.at, l.reader}
		if i, ok := ix[k]; ok {
			out[i].Bytes += l.bytes
			continue
		}
		ix[k] = len(out)
		out = append(out, LiveBuffer{Write: l.at, LastRead: l.reader, Bytes: l.bytes, Partition: edges[peakBand], Parts: edges[peakBand+1] - edges[peakBand]})
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Bytes > out[j].Bytes || out[i].Bytes == out[j].Bytes && out[i].Write < out[j].Write
	})
	return peak, peakAt, out
}

// apply has access xi (at key) touch bytes [lo, hi) of one band: it checks the overlap with
// the last write and the reads since, then records itself.
func (s *sweep) apply(segs []seg, lives []live, lo, hi uint32, xi int32, key int64, p0, p1 uint16) ([]seg, []live) {
	segs = splitAt(segs, lo)
	segs = splitAt(segs, hi)
	i := sort.Search(len(segs), func(i int) bool { return segs[i].hi > lo })
	// Fill the gaps in [lo, hi) with unwritten segments, merged in place (segs can be long:
	// no copy of its tail beyond the one shift).
	fill := s.fill[:0]
	at := lo
	j := i
	for ; j < len(segs) && segs[j].lo < hi; j++ {
		if segs[j].lo > at {
			fill = append(fill, seg{lo: at, hi: segs[j].lo, w: -1, lastRead: -1, lastReader: -1, readers: -1})
		}
		at = segs[j].hi
	}
	if at < hi {
		fill = append(fill, seg{lo: at, hi: hi, w: -1, lastRead: -1, lastReader: -1, readers: -1})
	}
	s.fill = fill
	if n := len(fill); n > 0 {
		mid := s.mid[:0]
		a, b := i, 0
		for a < j || b < n {
			if b == n || (a < j && segs[a].lo < fill[b].lo) {
				mid = append(mid, segs[a])
				a++
			} else {
				mid = append(mid, fill[b])
				b++
			}
		}
		s.mid = mid
		old := len(segs)
		segs = slices.Grow(segs, n)[:old+n]
		copy(segs[j+n:], segs[j:old])
		copy(segs[i:], mid)
		j = i + len(mid)
	}
	x := &s.c.Accesses[xi]
	for k := i; k < j; k++ {
		g := &segs[k]
		if g.w >= 0 {
			s.check(g.w, xi, g.lo, g.hi, p0, p1)
		}
		if !x.Write {
			if s.h == nil || len(s.c.MemLints) >= maxMemLints {
				// No race is checked (no clocks, or past the cap): the reads are not kept,
				// only the peak's.
			} else if g.readers < 0 || s.chain[g.readers].access != xi {
				s.chain = append(s.chain, readNode{xi, g.readers})
				g.readers = int32(len(s.chain) - 1)
			}
			g.lastRead, g.lastReader = key, xi
			continue
		}
		for r := g.readers; r >= 0 && len(s.c.MemLints) < maxMemLints; r = s.chain[r].next {
			s.check(s.chain[r].access, xi, g.lo, g.hi, p0, p1)
		}
		if g.w >= 0 && g.lastRead > g.wKey {
			lives = addLive(lives, live{g.wKey, g.lastRead, uint64(g.hi - g.lo), g.w, g.lastReader})
		}
	}
	if x.Write && j > i {
		// The range now holds one write and no read: one segment.
		segs[i] = seg{lo: segs[i].lo, hi: segs[j-1].hi, w: xi, wKey: key, lastRead: -1, lastReader: -1, readers: -1}
		segs = append(segs[:i+1], segs[j:]...)
	}
	return segs, lives
}

// addLive adds l, merged into the last interval when it is the same one (a write's bytes
// come to it segment by segment).
func addLive(lives []live, l live) []live {
	if n := len(lives); n > 0 && lives[n-1].from == l.from && lives[n-1].to == l.to && lives[n-1].at == l.at && lives[n-1].reader == l.reader {
		lives[n-1].bytes += l.bytes
		return lives
	}
	return append(lives, l)
}

// splitAt splits the segment holding p inside it in two.
func splitAt(segs []seg, p uint32) []seg {
	i := sort.Search(len(segs), func(i int) bool { return segs[i].hi > p })
	if i == len(segs) || segs[i].lo >= p {
		return segs
	}
	g := segs[i]
	right := g
	right.lo = p
	segs[i].hi = p
	segs = append(segs, seg{})
	copy(segs[i+2:], segs[i+1:])
	segs[i+1] = right
	return segs
}

// check gives mem.unsync when earlier access a and access b (one of them a write) are of
// different instructions and a does not happen before b (b cannot happen before a: the
// sweep's order is consistent with happens-before).
func (s *sweep) check(a, b int32, lo, hi uint32, p0, p1 uint16) {
	c := s.c
	x, y := &c.Accesses[a], &c.Accesses[b]
	if s.h == nil || len(c.MemLints) >= maxMemLints || x.At == y.At && x.DMA == y.DMA || !x.Write && !y.Write {
		return
	}
	if s.h.before(x, y) {
		return
	}
	pair := [2]int32{a, b}
	if s.seen[pair] {
		return
	}
	s.seen[pair] = true
	for _, z := range []*Access{x, y} {
		if z.At.Index >= s.undecidedFrom[z.At.Engine] {
			s.orderUndecided(z)
			return
		}
	}
	c.addMemLint(MemLint{Code: MemUnsync, Access: b, Other: a, OtherIsWrite: x.Write, Box: Box{Offset: lo, Bytes: hi - lo, Count: 1, Partition: p0, Parts: p1 - p0}})
}

// orderUndecided counts an overlap the model cannot decide, under the access z that comes
// after an undecided wait (the first per engine, counted).
func (s *sweep) orderUndecided(z *Access) {
	c := s.c
	if k, ok := s.orderIssue[z.At.Engine]; ok {
		c.MemIssues[k].Count++
		return
	}
	if s.orderIssue == nil {
		s.orderIssue = map[int16]int{}
	}
	s.orderIssue[z.At.Engine] = len(c.MemIssues)
	c.MemIssues = append(c.MemIssues, Issue{Code: MemOrderUndecided, At: z.At, Count: 1, What: "(an overlap after an undecided wait)"})
}

// accessRef says which instruction (or its DMA transfer) an access is, and what it does.
func (c *Core) accessRef(a *Access) string {
	s := c.Ref(a.At)
	if a.DMA {
		s += "'s DMA"
	}
	if a.Write {
		return s + " writes"
	}
	return s + " reads"
}

// boxText says where a box is: "SBUF partitions 0..127, bytes 0x4000..0x41ff".
func boxText(space Space, b Box) string {
	s := space.String() + " partitions " + strconv.Itoa(int(b.Partition)) + ".." + strconv.Itoa(int(b.Partition)+int(b.Parts)-1) +
		", bytes 0x" + strconv.FormatUint(uint64(b.Offset), 16) + "..0x" + strconv.FormatUint(uint64(b.Offset)+uint64(b.Bytes)-1, 16)
	if b.Count > 1 {
		s += " ×" + strconv.Itoa(int(b.Count)) + " every " + strconv.Itoa(int(b.Stride)) + " bytes"
	}
	return s
}

// MemMessage says in words what a memory lint means.
func (c *Core) MemMessage(l MemLint) string {
	a := &c.Accesses[l.Access]
	switch l.Code {
	case MemUnsync:
		o := &c.Accesses[l.Other]
		return c.accessRef(a) + " " + boxText(a.Space, l.Box) + ", which " + c.accessRef(o)[len(c.Ref(o.At)):] +
			" at " + c.Ref(o.At) + ", and neither waits for the other: the result depends on timing"
	case MemReserved:
		return c.accessRef(a) + " " + boxText(a.Space, l.Box) + ", which def.json reserves for the runtime (runtime_statebuffer_reservation)"
	case MemOutOfBounds:
		limit := c.SBUF.PartitionBytes
		if a.Space == PSUM {
			limit = c.PSUM.PartitionBytes
		}
		return c.accessRef(a) + " " + boxText(a.Space, l.Box) + ", outside " + a.Space.String() + " (" + strconv.Itoa(Partitions) +
			" partitions of " + strconv.FormatUint(uint64(limit), 10) + " bytes)"
	}
	return c.accessRef(a) + ": " + Codes[l.Code].Meaning
}
