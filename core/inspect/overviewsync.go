package inspect

import (
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/sched"
)

// The overview's sync card: "N waits, all resolved, no deadlock" (or the lints, each
// naming its instruction) and each core's SBUF/PSUM peak against capacity. Building the model
// reads every stream's words again and sweeps every access (on file_pool_2_float32 about as
// long as the open itself, natively), so the open's overview holds only a card saying it is
// computed on demand; SyncOverview builds the whole card (the page's memory call, the CLI's
// sync and memmap print the same model).

// OverviewSync is the overview key of the sync card.
const OverviewSync = "sync"

// Attr keys of the sync card and its items.
const (
	AttrOnDemand = "on_demand" // the card: "true" while it is only the promise of an answer
	AttrWaits    = "waits"     // the card: the waits of every core
	AttrResolved = "resolved"  // the card: the waits that have their producer
	AttrLints    = "lints"     // the card: sync and memory lints
	AttrCode     = "code"      // a lint item: its stable code (core/sched codes.go)
	AttrMember   = "member"    // a lint item: the stream member of its instruction
	AttrIndex    = "index"     // a lint item: the instruction's index in its stream
	AttrSpace    = "space"     // a peak item: SBUF or PSUM
	AttrPeak     = "peak"      // a peak item: the most bytes of one partition live at once
	AttrCapacity = "capacity"  // a peak item: a partition's bytes ("" when the chip is unknown)
	AttrPeaks    = "peaks"     // the card: "on demand" when it was built without the memory model
)

// maxSyncLintItems bounds the lint items the card lists (the CLI lists them all).
const maxSyncLintItems = 50

// overviewSyncStub is the card the open's overview holds: what it will answer, and that it is
// computed when asked.
func overviewSyncStub(ov *doc.Node, f *File) {
	if f.Program == nil || len(f.Program.Streams) == 0 {
		return
	}
	s := section(ov, OverviewSync, "sync and on-chip memory")
	s.Value = "computed on demand"
	s.Detail = "the waits, their producers and the SBUF/PSUM peaks are worked out when asked: the page's schedule view, or neffscope sync and neffscope memmap"
	s.SetAttr(AttrOnDemand, "true")
}

// SyncOverview is the overview's sync card filled in from m: File.Memmap's model, or
// File.Sched's (the waits and lints only: the memory sweep costs far more than the open on
// some real NEFFs, so the page asks for the peaks apart). Its last child is the verdict
// (Key OverviewVerdict) with the sync check, and the memory check when m has it, decided.
func SyncOverview(f *File, m *sched.Model) *doc.Node {
	s := &doc.Node{Kind: doc.KindAnswer, Key: OverviewSync, Label: "sync and on-chip memory"}
	if m == nil {
		s.Value = "no program to model"
		return s
	}
	var waits, resolved, undecided, lints int
	for _, c := range m.Cores {
		for _, w := range c.Waits {
			waits++
			switch w.Code.Class() {
			case sched.ClassOK:
				resolved++
			case sched.ClassUndecided:
				undecided++
			}
		}
		lints += len(c.Lints()) + len(c.MemLints)
	}
	switch {
	case lints == 0 && undecided == 0:
		s.Value = plural(waits, "wait") + ", all resolved, no deadlock"
	case lints == 0:
		s.Value = plural(waits, "wait") + ", " + strconv.Itoa(resolved) + " resolved, " + strconv.Itoa(undecided) + " undecided (no lint)"
	default:
		s.Value = plural(waits, "wait") + ", " + strconv.Itoa(resolved) + " resolved · " + plural(lints, "lint")
	}
	s.Detail = "every wait tied to the instruction at whose completion its semaphore reaches the value; the peak is the most bytes of one partition written and read again later, in the schedule's order"
	s.SetAttr(AttrWaits, strconv.Itoa(waits)).SetAttr(AttrResolved, strconv.Itoa(resolved)).SetAttr(AttrLints, strconv.Itoa(lints))
	memory := true
	for _, c := range m.Cores {
		memory = memory && c.SBUF.Partitions > 0
	}
	defer func() {
		// The verdict again, with the checks this model decides: the page puts it in place of
		// the overview's, whose sync and memory checks were pending.
		s.Add(Verdict(f, m, memory))
	}()
	listed := 0
	for _, c := range m.Cores {
		peaks := []struct {
			space string
			u     sched.Usage
		}{{"SBUF", c.SBUF}, {"PSUM", c.PSUM}}
		if c.SBUF.Partitions == 0 {
			// The model without its memory part (File.Sched): the peaks are asked for apart.
			s.SetAttr(AttrPeaks, "on demand")
			peaks = nil
		}
		for _, u := range peaks {
			n := &doc.Node{Kind: doc.KindField, Key: c.Name + "/" + u.space, Label: c.Name + " " + u.space + " peak"}
			n.Value = strconv.FormatUint(u.u.PeakBytes, 10) + " B of a partition"
			capacity := ""
			if u.u.PartitionBytes > 0 {
				capacity = strconv.FormatUint(uint64(u.u.PartitionBytes), 10)
				n.Value += " of " + capacity + " (" + strconv.FormatFloat(100*float64(u.u.PeakBytes)/float64(u.u.PartitionBytes), 'f', 1, 64) + "%)"
			}
			n.SetAttr(AttrCore, c.Name).SetAttr(AttrSpace, u.space).SetAttr(AttrPeak, strconv.FormatUint(u.u.PeakBytes, 10)).SetAttr(AttrCapacity, capacity)
			if u.u.PeakAt >= 0 && int(u.u.PeakAt) < len(c.Accesses) {
				syncAt(n, c, c.Accesses[u.u.PeakAt].At)
			}
			s.Add(n)
		}
		for _, w := range c.Lints() {
			if listed++; listed <= maxSyncLintItems {
				syncAt(s.Add(&doc.Node{Kind: doc.KindField, Key: c.Name + "/" + c.Ref(w.At) + "/" + w.Code.String(), Label: w.Code.String(), Value: c.Message(w)}).SetAttr(AttrCode, w.Code.String()), c, w.At)
			}
		}
		for _, l := range c.MemLints {
			if listed++; listed <= maxSyncLintItems {
				syncAt(s.Add(&doc.Node{Kind: doc.KindField, Key: c.Name + "/" + strconv.Itoa(int(l.Access)) + "/" + l.Code.String(), Label: l.Code.String(), Value: c.MemMessage(l)}).SetAttr(AttrCode, l.Code.String()), c, c.Accesses[l.Access].At)
			}
		}
	}
	return s
}

// syncAt names an item's instruction: its core, engine, stream member and index.
func syncAt(n *doc.Node, c *sched.Core, at sched.At) {
	if !at.Valid() || int(at.Engine) >= len(c.Engines) {
		return
	}
	n.SetAttr(AttrCore, c.Name).SetAttr(AttrEngine, c.EngineName(at)).SetAttr(AttrMember, c.Engines[at.Engine].Member).SetAttr(AttrIndex, strconv.Itoa(int(at.Index)))
}
