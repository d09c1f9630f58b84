package timeline

import (
	"slices"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/ntff"
)

// Records are what a profile's raw records add to its measured rows for the fit (Fit): when
// each software-DGE trigger was handed over (its kind-2 TRACE record, spec ntff.md §3.2), and
// each DMA queue's transfers in ring order (TRACE_DMA packets, §3.4). Both are the calibration's
// inputs only: a timeline neither shows nor needs them.
type Records struct {
	// HandOver is, per engine, each instruction's kind-2 record (ps), by compiler index.
	HandOver map[string]map[int32]uint64
	// Transfers are, per queue name, its transfers in the order its rings carried them.
	Transfers map[string][]TransferTimes
}

// TransferTimes is one DMA transfer as the rings carried it: its first packet's start and
// its last packet's end (ps).
type TransferTimes struct{ First, Last uint64 }

// recordBytes is what Records holds per kind-2 record or transfer, charged to the budget.
const recordBytes = 48

// ReadRecords reads core k's kind-2 records and DMA transfers from p. A transfer on a ring
// ends with its semaphore write: the packet whose size is 4 modulo 8 (4 B alone, or folded
// into the last data packet: 12 B, 260 B; spec ntff.md §2.5, §5 check 8) [GUESS, every
// queue of the shared captures]; transfer n of a queue spans the n-th transfer of each of its
// rings. Nil when the core has no NeuronCore id or the budget refuses the tables.
func ReadRecords(p *ntff.Profile, k int, b *budget.Budget) *Records {
	if p == nil || k >= len(p.Cores) || !p.Cores[k].HasNC {
		return nil
	}
	c := p.Cores[k]
	r := &Records{HandOver: map[string]map[int32]uint64{}, Transfers: map[string][]TransferTimes{}}
	var kept int64
	take := func(n int64) bool {
		if b != nil && !b.Take(budget.Memory, n, "the calibration records") {
			return false
		}
		kept += n
		return true
	}
	rings := map[[2]int]*dmaRing{}
	ok := true
	for _, s := range p.Sections {
		if !ok || !s.InFile || s.NC != c.NC || s.Kind > 1 {
			continue
		}
		switch s.Type {
		case ntff.NQTrace:
			ok = r.readHandOvers(p, s, c, take)
		case ntff.NQTraceDMA:
			ok = readRings(p, s, rings, take)
		}
	}
	if !ok {
		if b != nil {
			b.Release(budget.Memory, kept)
		}
		return nil
	}
	r.transfers(c, rings)
	return r
}

// readHandOvers keeps section s's kind-2 records, by engine and compiler index (false: the
// budget refused them).
func (r *Records) readHandOvers(p *ntff.Profile, s *ntff.Section, c *ntff.Core, take func(int64) bool) bool {
	index := map[int][]int32{} // engine index → compiler index by image position
	for _, im := range c.Images {
		if im.Engine >= 0 && im.Engine < len(imageEngines) {
			index[im.Engine] = compilerIndex(im.Layout(), im.Words)
		}
	}
	ok := true
	p.Scan(s, 0, func(_ int64, rec ntff.Record) bool {
		e := ntff.TraceEngine(rec.A)
		im := c.Image(e)
		if ntff.TraceKind(rec.A) != ntff.TraceDGE || im == nil || e >= len(imageEngines) {
			return true
		}
		pos := im.Position(ntff.TracePC(rec.A))
		if pos < 0 || pos >= len(index[e]) || index[e][pos] < 0 {
			return true
		}
		if ok = take(recordBytes); !ok {
			return false
		}
		name := imageEngines[e]
		if r.HandOver[name] == nil {
			r.HandOver[name] = map[int32]uint64{}
		}
		r.HandOver[name][index[e][pos]] = rec.T
		return true
	})
	return ok
}

// dmaRing is one (DMA engine, queue) ring's packets as they are read: the starts and sizes
// waiting for their ends (spec ntff.md §3.4: the k-th start, info and end are one packet), the
// transfer being carried, and the transfers done.
type dmaRing struct {
	starts []uint64
	bytes  []int64
	open   bool
	cur    TransferTimes
	done   []TransferTimes
}

// readRings adds section s's packets to the rings (false: the budget refused them).
func readRings(p *ntff.Profile, s *ntff.Section, rings map[[2]int]*dmaRing, take func(int64) bool) bool {
	ok := true
	p.Scan(s, 0, func(_ int64, rec ntff.Record) bool {
		key := [2]int{ntff.DMAEngine(rec.A), int(ntff.DMAQueue(rec.B))}
		g := rings[key]
		if g == nil {
			g = &dmaRing{}
			rings[key] = g
		}
		switch ntff.DMAEvent(rec.B) {
		case ntff.DMAStart, ntff.DMAInfo:
			// A start or a size waits for its end: charged (a hostile ring may never end one).
			if ok = take(8); !ok {
				return false
			}
			if ntff.DMAEvent(rec.B) == ntff.DMAStart {
				g.starts = append(g.starts, rec.T)
			} else {
				g.bytes = append(g.bytes, ntff.DMABytes(rec.A))
			}
		case ntff.DMAEnd:
			if len(g.starts) == 0 || len(g.bytes) == 0 {
				return true
			}
			start, n := g.starts[0], g.bytes[0]
			g.starts, g.bytes = g.starts[1:], g.bytes[1:]
			if !g.open {
				g.cur, g.open = TransferTimes{start, rec.T}, true
			}
			g.cur.First, g.cur.Last = min(g.cur.First, start), max(g.cur.Last, rec.T)
			if n%8 == 4 { // the transfer's semaphore write: it ends here
				if ok = take(recordBytes); !ok {
					return false
				}
				g.done = append(g.done, g.cur)
				g.open = false
			}
		}
		return true
	})
	return ok
}

// transfers sets each named queue's transfers: the n-th spans the n-th of each of its rings.
func (r *Records) transfers(c *ntff.Core, rings map[[2]int]*dmaRing) {
	byQueue := map[int][]*dmaRing{}
	for key, g := range rings {
		byQueue[key[1]] = append(byQueue[key[1]], g)
	}
	for q, gs := range byQueue {
		name := c.Queue(uint64(q))
		if name == "" {
			continue
		}
		n := 0
		for _, g := range gs {
			n = max(n, len(g.done))
		}
		ts := make([]TransferTimes, n)
		for i := range ts {
			ts[i].First = ^uint64(0)
			for _, g := range gs {
				if i < len(g.done) {
					ts[i].First, ts[i].Last = min(ts[i].First, g.done[i].First), max(ts[i].Last, g.done[i].Last)
				}
			}
		}
		r.Transfers[name] = ts
	}
}

// compilerIndex maps each image position to the compiler instruction it runs (-1 outside the
// program), by the image's edit list as measuredByCompiler lays rows out.
func compilerIndex(l ntff.Layout, words int) []int32 {
	out := make([]int32, max(words, 0))
	for i := range out {
		out[i] = -1
	}
	if l.Problem != "" {
		return out
	}
	removed := slices.Clone(l.Removed)
	slices.Sort(removed)
	inserted := map[int]bool{}
	for _, p := range l.Inserted {
		inserted[p] = true
	}
	idx, r := 0, 0
	for pos := l.Preamble; pos < words-l.Postamble; pos++ {
		for r < len(removed) && removed[r] <= pos {
			idx++
			r++
		}
		out[pos] = int32(idx)
		if !inserted[pos] {
			idx++
		}
	}
	return out
}
