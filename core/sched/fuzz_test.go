package sched_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/core/sched"
)

// FuzzModel builds the sync and memory model of the sample NEFF with its PE and DVE streams
// replaced by arbitrary words (split at split × 64 bytes): no panic, every step -1 or inside
// the schedule, every producer before its waiter, no race with an instruction that never
// runs, every message writable and the trace JSON.
func FuzzModel(f *testing.F) {
	w := func(op byte, fill func(w []byte)) []byte {
		b := make([]byte, 64)
		b[0], b[1] = op, 0x10
		if fill != nil {
			fill(b)
		}
		return b
	}
	band := func(wm, ws, um, us byte, v uint32) func([]byte) {
		return func(b []byte) {
			b[4], b[5], b[6], b[7] = wm, ws, um, us
			binary.LittleEndian.PutUint32(b[8:], v)
		}
	}
	act := make([]byte, 64)
	activate(act, 0x100, 0x200, 0x37c00, 0)
	f.Add(bytes.Join([][]byte{w(0xA0, band(0, 0, 0x13, 3, 0)), w(0xA0, band(0, 0, 0x13, 3, 0))}, nil),
		bytes.Join([][]byte{w(0xA0, band(5, 3, 0, 0, 2)), act}, nil), uint8(2))
	f.Add(bytes.Join([][]byte{w(0xA0, band(5, 4, 0x13, 3, 1))}, nil), bytes.Join([][]byte{w(0xA0, band(5, 3, 0x13, 4, 1))}, nil), uint8(1)) // a deadlock
	f.Add(act, w(0xA0, band(5, 9, 0, 0, 1)), uint8(1))                                                                                      // a hang
	f.Add(w(0xB0, nil), w(0xC1, nil), uint8(1))
	for _, h := range neffbuild.HostileClasses() {
		if h.Name == "sched-sweep-bands" {
			// The class's DVE words, a few of each kind.
			b := h.Build(0.002)
			fm := inspect.Open("x.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{DeferSource: true})
			for _, ps := range fm.Program.Streams {
				if ps.Member == "sg00/DVE.bin" {
					var words []byte
					for i, wd := range ps.ISA.Words() {
						if i < 4 || i >= 128 {
							words = append(words, wd...)
						}
					}
					f.Add(words[:64*2], words[64*2:], uint8(2))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, pe, dve []byte, _ uint8) {
		pe, dve = pe[:len(pe)/64*64], dve[:len(dve)/64*64]
		if len(pe)+len(dve) > 64*256 {
			return
		}
		var ms []neffbuild.Member
		for _, m := range neffbuild.Sample() {
			switch m.Path {
			case "sg00/PE.bin":
				m.Data = pe
			case "sg00/DVE.bin":
				m.Data = dve
			}
			ms = append(ms, m)
		}
		b := neffbuild.Bytes(ms, neffbuild.Options{})
		file := inspect.Open("fuzz.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{DeferSource: true})
		m := file.Memmap()
		if m == nil {
			t.Fatal("no model")
		}
		checkModel(t, m)
	})
}

// checkModel checks what every model promises, whatever its input.
func checkModel(t *testing.T, m *sched.Model) {
	t.Helper()
	for _, c := range m.Cores {
		step := func(a sched.At) int32 { return c.Engines[a.Engine].Step(int(a.Index)) }
		for k := range c.Engines {
			for i := 0; i < c.Engines[k].Len; i++ {
				if s := c.Engines[k].Step(i); s < -1 || s >= c.Steps {
					t.Fatalf("%s #%d: step %d of %d", c.Engines[k].Name, i, s, c.Steps)
				}
			}
		}
		for _, w := range c.Waits {
			if w.Code == sched.OK && w.Producer.Valid() && step(w.At) >= 0 && step(w.Producer) >= step(w.At) {
				t.Fatalf("%s at step %d, its producer at %d", c.Message(w), step(w.At), step(w.Producer))
			}
			_ = c.Message(w)
		}
		for _, u := range append(c.Undecided, c.MemIssues...) {
			_ = c.IssueMessage(u)
		}
		for _, l := range c.MemLints {
			a := &c.Accesses[l.Access]
			if step(a.At) < 0 || l.Other >= 0 && step(c.Accesses[l.Other].At) < 0 {
				t.Fatalf("%s: an instruction that never runs", c.MemMessage(l))
			}
		}
	}
	var out bytes.Buffer
	if err := sched.WriteTrace(&out, m, nil); err != nil || !json.Valid(out.Bytes()) {
		t.Fatalf("trace: %v", err)
	}
}
