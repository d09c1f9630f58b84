package sched

import "sort"

// semUpdates is one semaphore's updates: indexes into Core.updates in program order of their
// engine (the reader appends engine by engine), with the running count after each.
type semUpdates struct {
	ix  []int32
	cum []uint64
	// other is the first update of an engine other than the first update's (-1: one engine
	// updates it), found as the updates are counted, so a multi-producer wait names it at once.
	other   int32
	tainted bool // an update with an unconfirmed mode
}

// semUpdateBytes is what one update costs resolve (its index and running count), and
// semBytes one semaphore (its map entry and header).
const (
	semUpdateBytes = 12
	semBytes       = 96
)

// resolve finds each wait's producer and gives the lints that follow from the counts alone
// (no-producer, unreachable, multi-producer); schedule finds the cycles. Every wait and update
// is visited once (a wait's producer by binary search). Its tables are charged to the budget
// while it runs; refused, every wait is left undecided (sync.limit).
func (c *Core) resolve(orderUnknown, hidden bool, m *meter) {
	if !m.take(int64(len(c.updates))*semUpdateBytes, "sync model semaphores") {
		c.undecideAll(Limit, "(the semaphores' counts)")
		return
	}
	sems := map[int32]*semUpdates{}
	c.work += int64(len(c.updates))
	for k, u := range c.updates {
		s := sems[u.sem]
		if s == nil {
			if !m.take(semBytes, "sync model semaphores") {
				c.undecideAll(Limit, "(the semaphores' counts)")
				return
			}
			s = &semUpdates{other: -1}
			sems[u.sem] = s
		}
		if u.queue == unknownModeQueue {
			s.tainted = true
			continue
		}
		var prev uint64
		if n := len(s.cum); n > 0 {
			prev = s.cum[n-1]
			if s.other < 0 && u.at.Engine != c.updates[s.ix[0]].at.Engine {
				s.other = int32(k)
			}
		}
		s.ix = append(s.ix, int32(k))
		s.cum = append(s.cum, prev+uint64(u.amount))
	}
	c.work += int64(len(c.Waits))
	for k := range c.Waits {
		w := &c.Waits[k]
		if w.Code != OK {
			continue // an unconfirmed wait mode
		}
		s := sems[w.Sem]
		switch {
		case orderUnknown:
			w.Code = OrderUnknown
		case s != nil && s.tainted:
			w.Code = UnknownMode
		case w.Value == 0: // holds from the start
		case s == nil || len(s.ix) == 0:
			w.Code = NoProducer
		case s.other >= 0:
			w.Code, w.Other = MultiProducer, c.updates[s.other].at
		default:
			j := sort.Search(len(s.cum), func(i int) bool { c.work++; return s.cum[i] >= uint64(w.Value) })
			if j == len(s.cum) {
				w.Code = Unreachable
				w.Other = c.updates[s.ix[len(s.ix)-1]].at
				if c.reach == nil {
					c.reach = map[int32]uint64{}
				}
				c.reach[w.Sem] = s.cum[len(s.cum)-1]
				break
			}
			u := c.updates[s.ix[j]]
			w.Producer, w.Queue = u.at, u.queue
		}
		if hidden && (w.Code == NoProducer || w.Code == Unreachable) {
			w.Code = HiddenUpdate // what seems never to come may come from what is not modelled
		}
	}
}

// undecideAll leaves every wait of the core undecided with code, and says so once.
func (c *Core) undecideAll(code Code, what string) {
	for k := range c.Waits {
		if c.Waits[k].Code == OK {
			c.Waits[k].Code = code
		}
	}
	c.Undecided = append(c.Undecided, Issue{Code: code, At: At{0, 0}, Count: 1, What: what})
}

// schedule runs the engines in the model's order: an instruction runs one step after the word
// before it on its engine and after the producer of each of its waits. An instruction never
// runs (step -1, and no part in any race) when it waits, or comes after a wait, that nothing
// satisfies: a hang (sync.no-producer, sync.unreachable), a deadlock, or a producer that
// never runs itself. The waits of each deadlock found (every engine left waits for one of
// another that waits in turn) get the lint sync.cycle. A wait whose producer the model does
// not know (an undecided code, sync.multi-producer) does not hold its engine back: its own
// code says why.
func (c *Core) schedule() {
	ne := len(c.Engines)
	ptr := make([]int, ne)
	wp := make([]int32, ne)      // next wait of each engine
	blocked := make([]int32, ne) // the wait an engine is held at by a producer not run yet, -1: none
	stopped := make([]bool, ne)  // the engine never runs past ptr
	for k := range c.Engines {
		wp[k] = c.Engines[k].waitFrom
		for i := range c.Engines[k].steps {
			c.Engines[k].steps[i] = -1
		}
	}
	var last int32 = -1
	for {
		progress := false
		for k := range c.Engines {
			if stopped[k] {
				continue
			}
			e := &c.Engines[k]
			blocked[k] = -1
			c.work++
			for ptr[k] < len(e.steps) {
				i := ptr[k]
				var s int32
				if i > 0 {
					s = e.steps[i-1] + 1
				}
				held := false
				for j := wp[k]; j < e.waitTo && c.Waits[j].Index == int32(i); j++ {
					c.work++
					w := &c.Waits[j]
					if w.Code.hangs() {
						stopped[k], held = true, true
						break
					}
					if w.Code != OK || !w.Producer.Valid() {
						continue
					}
					p := w.Producer
					if ptr[p.Engine] <= int(p.Index) {
						if stopped[p.Engine] {
							stopped[k] = true
						} else {
							blocked[k] = j
						}
						held = true
						break
					}
					s = max(s, c.Engines[p.Engine].steps[p.Index]+1)
				}
				if held {
					break
				}
				for wp[k] < e.waitTo && c.Waits[wp[k]].Index == int32(i) {
					wp[k]++
				}
				e.steps[i] = s
				c.work++
				last = max(last, s)
				ptr[k]++
				progress = true
			}
		}
		if progress {
			continue
		}
		// No engine moves. One held by a producer on a stopped engine never runs either.
		c.work += int64(ne)
		for k := range c.Engines {
			if !stopped[k] && blocked[k] >= 0 && stopped[c.Waits[blocked[k]].Producer.Engine] {
				stopped[k], progress = true, true
			}
		}
		if progress {
			continue
		}
		start := -1
		for k := range c.Engines {
			if !stopped[k] && blocked[k] >= 0 {
				start = k
				break
			}
		}
		if start < 0 {
			break // every engine ran to its end or stopped
		}
		// Every engine left is held by a producer of an engine that is held too: follow them
		// into their cycle, a deadlock.
		seen := make([]int, ne)
		k := start
		for n := 1; seen[k] == 0; n++ {
			seen[k] = n
			k = int(c.Waits[blocked[k]].Producer.Engine)
		}
		for first := k; ; {
			w := &c.Waits[blocked[k]]
			w.Code, w.Other = Cycle, w.Producer
			stopped[k] = true
			k = int(w.Producer.Engine)
			if k == first {
				break
			}
		}
	}
	c.Steps = last + 1
}
