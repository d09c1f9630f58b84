package timeline

// The software DGE's two stages in the simulator (DGEModel): the engine's descriptor work,
// which ends in the hand-over, and the second stage's start and end, which the trace records
// as the trigger's interval.

// dgeState is one engine's software DGE.
type dgeState struct {
	n          int     // triggers handed over so far
	lastHand   int64   // the last hand-over (kind-2), ps
	last       bool    // the engine's last instruction was a trigger
	prevEnd    int64   // else, when that instruction ended
	start, end int64   // the second stage's last start and end (n > 0)
	slowLeft   int     // triggers the slow mode still holds
	ends       []int64 // the last QueueDepth triggers' ends, a ring by n
}

// handOver is when engine k's next instruction, a DGE trigger, is handed over: its descriptor
// work begins when the engine's last instruction has ended (at once behind another trigger:
// at its hand-over) and takes issueNS;
// after a wait satisfied at waits it ends PostWaitNS later at the soonest; and the queue
// holds at most QueueDepth triggers past the second stage's. byWait says a wait set it.
func (s *simulator) handOver(st *engState, waits int64) (hand int64, byWait bool) {
	g := &s.m.DGE
	d := &st.dge
	free := max(st.ready, d.prevEnd) // the descriptor work starts when the engine's last word ended
	if d.last {
		free = d.lastHand // a trigger right behind a trigger starts at its hand-over
	}
	hand = free + ps(g.issueNS(d.n))
	if w := waits + ps(g.PostWaitNS); waits > 0 && w > hand {
		hand, byWait = w, true
	}
	if q := g.QueueDepth; q > 0 && d.n >= q {
		hand = max(hand, d.ends[d.n%q]+ps(g.PostWaitNS))
	}
	return hand, byWait
}

// issueNS is the engine's work on its n-th trigger (from 0).
func (g *DGEModel) issueNS(n int) float64 {
	if g.Slots <= 0 {
		return g.IssueNS
	}
	step := g.IssueStepNS
	if n < g.Slots {
		step = g.FirstLapStepNS
	}
	return g.IssueNS + step*float64(n%g.Slots)
}

// second is the second stage's start and end of a trigger handed over at hand, and records
// them: started LatencyNS after the hand-over and CadenceNS after the previous start (2 ×
// PollNS in the slow mode, which a writer SlowBacklogNS or more behind the start enters),
// ended MinNS after the start and WriteNS after the previous end.
func (s *simulator) second(st *engState, hand int64) (start, end int64) {
	g := &s.m.DGE
	d := &st.dge
	start = hand + ps(g.LatencyNS)
	if d.n > 0 {
		start = max(start, d.start+ps(g.CadenceNS))
		switch {
		case d.slowLeft > 0:
			d.slowLeft--
			start = max(start, d.start+2*ps(g.PollNS))
		case g.SlowTriggers > 0 && d.end-start >= ps(g.SlowBacklogNS):
			d.slowLeft = g.SlowTriggers - 1
			start = max(start, d.start+2*ps(g.PollNS))
		}
	}
	end = start + ps(g.MinNS)
	if d.n > 0 {
		end = max(end, d.end+ps(g.WriteNS))
	}
	if q := g.QueueDepth; q > 0 {
		if d.ends == nil {
			d.ends = make([]int64, q)
		}
		d.ends[d.n%q] = end
	}
	d.start, d.end, d.lastHand, d.last = start, end, hand, true
	d.n++
	return start, end
}
