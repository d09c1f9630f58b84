//go:build js && wasm

package main

import (
	"encoding/json"
	"time"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/timeline"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// A NEFF in estimated time for the page's lanes: the schedule timeline --json prints as its
// estimated part (core/timeline), its instructions as typed columns. Times go as Float64
// picoseconds from the core's start.

// Why an instruction started when it did, as the reason column carries it.
const (
	reasonNone = iota
	reasonEngine
	reasonSemaphore
	reasonDMA
)

// estimated → {target, cores: [EstimatedCore], opcodes, model, ms}.
func (b *bridge) estimated(r *request) (any, error) {
	start := time.Now()
	f := r.file
	in := timeline.InputOf(f)
	if in == nil {
		return nil, protocol.Errorf(protocol.BadRequest, "estimated: %s is not a NEFF with a program", f.Name)
	}
	// What the estimate holds is charged to the file's budget for the call only.
	bud := f.Budget.Within(f.Budget.Limits())
	defer bud.Done()
	s := timeline.Estimate(*in, bud)
	model, err := json.Marshal(timeline.Model(s.Target))
	if err != nil {
		return nil, err
	}
	return object("target", s.Target, "cores", estimatedCores(s, f), "opcodes", opcodeNames(), "model", buffer(append(model, '\n')), "ms", ms(start)), nil
}

// estimatedCores lays each core of s out as columns (protocol type EstimatedCore).
func estimatedCores(s *timeline.Schedule, f *inspect.File) []any {
	h := s.Estimated() // the header only is read below; rows go as columns
	cores := make([]any, 0, len(s.Cores))
	for k, cs := range s.Cores {
		var engines, members, queues []any
		queueIx := map[string]int32{}
		var lens, reason, pEngine, pIndex, queue, critE, critI []int32
		var starts, ends, waited, busy []float64
		var ops []byte
		for j := range cs.Engines {
			es := &cs.Engines[j]
			engines = append(engines, es.Name)
			member := memberOf(f, cs.Name, es.Name)
			members = append(members, member)
			sops := streamOpcodes(f, member)
			for i := range es.Start {
				if i < len(sops) {
					ops = append(ops, sops[i])
				} else {
					ops = append(ops, 0)
				}
			}
			lens = append(lens, int32(len(es.Start)))
			busy = append(busy, float64(es.BusyPS))
			for i := range es.Start {
				st := float64(es.Start[i])
				en := -1.0
				if es.Start[i] >= 0 {
					en = float64(es.End(i))
				}
				starts, ends = append(starts, st), append(ends, en)
				wt := cs.WaitedOf(j, i)
				reason = append(reason, reasonCode(wt.Reason))
				pe, pi, q := int32(-1), int32(-1), int32(-1)
				if wt.Producer != nil {
					pe, pi = int32(engineIndex(cs, wt.Producer.Engine)), wt.Producer.Index
				}
				if wt.DMA != "" {
					ix, ok := queueIx[wt.DMA]
					if !ok {
						ix = int32(len(queues))
						queueIx[wt.DMA] = ix
						queues = append(queues, wt.DMA)
					}
					q = ix
				}
				pEngine, pIndex, queue = append(pEngine, pe), append(pIndex, pi), append(queue, q)
				waited = append(waited, float64(wt.PS))
			}
		}
		for _, a := range cs.Critical {
			critE, critI = append(critE, int32(a.Engine)), append(critI, a.Index)
		}
		hc := h.Cores[k]
		summary, _ := json.Marshal(struct {
			Unmodelled timeline.Unmodelled    `json:"unmodelled"`
			Idle       [][]timeline.IdleCause `json:"idle"`
		}{hc.Unmodelled, idleOf(hc)})
		cores = append(cores, object("core", cs.Name, "span", float64(cs.SpanPS), "engines", engines, "members", members,
			"lens", int32Buffer(lens), "start", float64Buffer(starts), "end", float64Buffer(ends), "ops", buffer(ops), "reason", int32Buffer(reason),
			"producerEngine", int32Buffer(pEngine), "producerIndex", int32Buffer(pIndex), "queue", int32Buffer(queue), "queues", orEmpty(queues),
			"waited", float64Buffer(waited), "busy", float64Buffer(busy), "criticalEngine", int32Buffer(critE), "criticalIndex", int32Buffer(critI),
			"summary", buffer(append(summary, '\n'))))
	}
	return cores
}

func idleOf(c timeline.EstimatedCore) [][]timeline.IdleCause {
	out := make([][]timeline.IdleCause, len(c.Engines))
	for j, e := range c.Engines {
		out[j] = e.Idle
	}
	return out
}

func orEmpty(v []any) []any {
	if v == nil {
		return []any{}
	}
	return v
}

func reasonCode(r string) int32 {
	switch r {
	case timeline.WaitedEngine:
		return reasonEngine
	case timeline.WaitedSemaphore:
		return reasonSemaphore
	case timeline.WaitedDMA:
		return reasonDMA
	}
	return reasonNone
}

func engineIndex(cs *timeline.CoreSchedule, name string) int {
	for j := range cs.Engines {
		if cs.Engines[j].Name == name {
			return j
		}
	}
	return -1
}

// memberOf is the NEFF stream member of core's engine ("" when none).
func memberOf(f *inspect.File, core, engine string) string {
	if f == nil || f.Program == nil {
		return ""
	}
	for _, ps := range f.Program.Streams {
		if ps.Core.Name == core && ps.Engine.Name == engine {
			return ps.Member
		}
	}
	return ""
}
