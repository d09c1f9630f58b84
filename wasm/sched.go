//go:build js && wasm

package main

import (
	"encoding/binary"
	"time"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// The program in time and space for the page's schedule and memory views. Columns
// go as little-endian Int32 (or Uint8) ArrayBuffers, not an object per instruction: a stream
// of a million words is 5 MB of steps and opcodes, and the page draws straight from them.

// schedule → {cores: [SchedCore], ms}.
func (b *bridge) schedule(r *request) (any, error) {
	start := time.Now()
	f := r.file
	m := f.Sched()
	if m == nil {
		return nil, protocol.Errorf(protocol.NotFound, "schedule: the file has no program (no engine streams to model)")
	}
	codes := make([]any, len(sched.Codes))
	for k, c := range sched.Codes {
		codes[k] = c.Name
	}
	cores := make([]any, 0, len(m.Cores))
	for _, c := range m.Cores {
		var n int
		engines, members := make([]any, len(c.Engines)), make([]any, len(c.Engines))
		lens := make([]int32, len(c.Engines))
		for k := range c.Engines {
			e := &c.Engines[k]
			engines[k], members[k], lens[k] = e.Name, e.Member, int32(e.Len)
			n += e.Len
		}
		steps, ops := make([]int32, 0, n), make([]byte, 0, n)
		for k := range c.Engines {
			e := &c.Engines[k]
			for i := range e.Len {
				steps = append(steps, e.Step(i))
				ops = append(ops, e.Opcode(i))
			}
		}
		waits := make([]int32, 0, 7*len(c.Waits))
		for _, w := range c.Waits {
			waits = append(waits, int32(w.Engine), w.Index, int32(w.Producer.Engine), w.Producer.Index, w.Sem, int32(w.Value), int32(w.Code))
		}
		lints := []any{}
		for _, w := range c.Lints() {
			lints = append(lints, lintValue(w.Code, w.At, w.Other, c.Message(w)))
		}
		undecided := []any{}
		for _, u := range c.Undecided {
			undecided = append(undecided, lintValue(u.Code, u.At, sched.None, c.IssueMessage(u)))
		}
		cores = append(cores, object("core", c.Name, "engines", engines, "members", members,
			"lens", int32Buffer(lens), "steps", int32Buffer(steps), "ops", buffer(ops),
			"waits", int32Buffer(waits), "codes", codes, "total", int(c.Steps),
			"lints", lints, "undecided", undecided))
	}
	names := make([]any, 256)
	for op := range names {
		names[op] = isa.OpcodeName(uint8(op))
	}
	card, err := inspect.SyncOverview(f, m).MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	return object("cores", cores, "opcodes", names, "card", buffer(card), "ms", ms(start)), nil
}

// memory → {cores: [MemCore], card, ms}.
func (b *bridge) memory(r *request) (any, error) {
	start := time.Now()
	f := r.file
	m := f.Memmap()
	if m == nil {
		return nil, protocol.Errorf(protocol.NotFound, "memory: the file has no program (no engine streams to model)")
	}
	card, err := inspect.SyncOverview(f, m).MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	cores := make([]any, 0, len(m.Cores))
	for _, c := range m.Cores {
		engines := make([]any, len(c.Engines))
		for k := range c.Engines {
			engines[k] = c.Engines[k].Name
		}
		acc := make([]int32, 0, 6*len(c.Accesses))
		for _, a := range c.Accesses {
			flags := int32(0)
			if a.Write {
				flags |= 1
			}
			if a.DMA {
				flags |= 2
			}
			if a.Space == sched.PSUM {
				flags |= 4
			}
			acc = append(acc, int32(a.At.Engine), a.At.Index, c.Engines[a.At.Engine].Step(int(a.At.Index)), flags, a.BoxFrom, a.BoxTo)
		}
		boxes := make([]int32, 0, 6*len(c.Boxes))
		for _, x := range c.Boxes {
			boxes = append(boxes, int32(x.Partition), int32(x.Parts), int32(x.Offset), int32(x.Bytes), int32(x.Stride), int32(x.Count))
		}
		lints := []any{}
		for _, l := range c.MemLints {
			other := sched.None
			if l.Other >= 0 {
				other = c.Accesses[l.Other].At
			}
			lints = append(lints, lintValue(l.Code, c.Accesses[l.Access].At, other, c.MemMessage(l)))
		}
		cores = append(cores, object("core", c.Name, "engines", engines,
			"accesses", int32Buffer(acc), "boxes", int32Buffer(boxes),
			"sbuf", usageValue(c.SBUF), "psum", usageValue(c.PSUM), "lints", lints))
	}
	return object("cores", cores, "card", buffer(card), "ms", ms(start)), nil
}

func lintValue(code sched.Code, at, other sched.At, message string) any {
	return object("code", code.String(), "engine", int(at.Engine), "index", int(at.Index),
		"otherEngine", int(other.Engine), "otherIndex", int(other.Index), "message", message)
}

func usageValue(u sched.Usage) any {
	return object("partitions", u.Partitions, "partitionBytes", int(u.PartitionBytes), "peakBytes", float64(u.PeakBytes), "peakAccess", int(u.PeakAt))
}

// int32Buffer is an ArrayBuffer of v, little-endian (an Int32Array's view on every host the
// page runs on).
func int32Buffer(v []int32) any {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], uint32(x))
	}
	return buffer(out)
}
