//go:build js && wasm

package main

import (
	"encoding/binary"
	"path"
	"strconv"
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

// memory → {cores: [MemCore], card, peak, ms}.
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
	lines := lineOf(f)
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
		// What the peak leaves out: the operands the model could not place, each kind once
		// with its count (in no peak and no race).
		undecided := []any{}
		for _, u := range c.MemIssues {
			undecided = append(undecided, object("code", u.Code.String(), "engine", int(u.At.Engine), "index", int(u.At.Index), "count", u.Count, "message", c.IssueMessage(u)))
		}
		cores = append(cores, object("core", c.Name, "engines", engines,
			"accesses", int32Buffer(acc), "boxes", int32Buffer(boxes),
			"sbuf", usageValue(c, c.SBUF, lines), "psum", usageValue(c, c.PSUM, lines), "lints", lints,
			"unplaced", c.Unplaced(), "undecided", undecided))
	}
	return object("cores", cores, "card", buffer(card), "peak", sched.PeakConvention, "ms", ms(start)), nil
}

// lineOf names an instruction's kernel source line as the listings do ("conv2d.py:107", the
// file's base name): "" when the debug info names none, or the source lines are not mapped
// yet (the page maps them after the open).
func lineOf(f *inspect.File) func(c *sched.Core, at sched.At) string {
	return func(c *sched.Core, at sched.At) string {
		if f.SourcePending() || f.Program == nil || f.Program.Source == nil || !at.Valid() || int(at.Engine) >= len(c.Engines) {
			return ""
		}
		src := f.Program.Source.Source(c.Engines[at.Engine].Member, int(at.Index))
		if src == nil || src.Line == 0 {
			return ""
		}
		return path.Base(src.File) + ":" + strconv.Itoa(src.Line)
	}
}

func lintValue(code sched.Code, at, other sched.At, message string) any {
	return object("code", code.String(), "engine", int(at.Engine), "index", int(at.Index),
		"otherEngine", int(other.Engine), "otherIndex", int(other.Index), "message", message)
}

// usageValue is a space's capacity and peak, what a limit left out of it (unswept), and the
// buffers live at it (live: the access that wrote each and the last that read it, indexes of
// the core's accesses, with their kernel lines).
func usageValue(c *sched.Core, u sched.Usage, lines func(*sched.Core, sched.At) string) any {
	live := make([]any, 0, len(u.Live))
	for _, l := range u.Live {
		w := c.Accesses[l.Write].At
		read, readLine := -1, ""
		if l.LastRead >= 0 {
			read, readLine = int(l.LastRead), lines(c, c.Accesses[l.LastRead].At)
		}
		live = append(live, object("bytes", float64(l.Bytes), "partition", int(l.Partition), "partitions", int(l.Parts),
			"write", int(l.Write), "writeLine", lines(c, w), "lastRead", read, "readLine", readLine))
	}
	return object("partitions", u.Partitions, "partitionBytes", int(u.PartitionBytes), "peakBytes", float64(u.PeakBytes), "peakAccess", int(u.PeakAt),
		"unswept", u.Unswept, "live", live)
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
