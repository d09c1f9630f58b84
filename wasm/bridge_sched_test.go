//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// schedule's columns on a real NEFF are the native model's: every word's step and opcode, every
// wait with its producer; memory's accesses count the native model's and its card says every
// wait resolved.
func TestScheduleColumnsMatchNative(t *testing.T) {
	c := core(t)
	data := readFile(t, "nkipy/matmul_small.neff")
	h := c.openBytes("matmul_small.neff", data).Get("handle")
	native := inspect.Open("matmul_small.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{Fingerprint: true})
	m := native.Memmap()
	res := c.must("schedule", map[string]any{"handle": h})
	cores := res.Get("cores")
	if cores.Length() != len(m.Cores) || len(m.Cores) == 0 {
		t.Fatalf("schedule: %d cores, native %d", cores.Length(), len(m.Cores))
	}
	for k, nc := range m.Cores {
		jc := cores.Index(k)
		steps, ops, waits := jsBytes(jc.Get("steps")), jsBytes(jc.Get("ops")), jsBytes(jc.Get("waits"))
		at := 0
		for e := range nc.Engines {
			if got := jc.Get("engines").Index(e).String(); got != nc.Engines[e].Name {
				t.Errorf("%s engine %d: %q, want %q", nc.Name, e, got, nc.Engines[e].Name)
			}
			for i := range nc.Engines[e].Len {
				if s := int32(binary.LittleEndian.Uint32(steps[4*at:])); s != nc.Engines[e].Step(i) || ops[at] != nc.Engines[e].Opcode(i) {
					t.Fatalf("%s %s #%d: step %d op %#x, want %d %#x", nc.Name, nc.Engines[e].Name, i, s, ops[at], nc.Engines[e].Step(i), nc.Engines[e].Opcode(i))
				}
				at++
			}
		}
		if len(steps) != 4*at || len(ops) != at || len(waits) != 28*len(nc.Waits) || len(nc.Waits) == 0 {
			t.Fatalf("%s: %d step bytes, %d ops, %d wait bytes for %d words and %d waits", nc.Name, len(steps), len(ops), len(waits), at, len(nc.Waits))
		}
		for j, w := range nc.Waits {
			col := func(x int) int32 { return int32(binary.LittleEndian.Uint32(waits[28*j+4*x:])) }
			if col(0) != int32(w.Engine) || col(1) != w.Index || col(2) != int32(w.Producer.Engine) || col(3) != w.Producer.Index || col(4) != w.Sem || uint32(col(5)) != w.Value || col(6) != int32(w.Code) {
				t.Fatalf("%s wait %d: columns differ from %+v", nc.Name, j, w)
			}
		}
		if jc.Get("lints").Length() != 0 || jc.Get("total").Int() != int(nc.Steps) {
			t.Errorf("%s: %d lints, %d steps (native %d)", nc.Name, jc.Get("lints").Length(), jc.Get("total").Int(), nc.Steps)
		}
	}
	mem := c.must("memory", map[string]any{"handle": h})
	for k, nc := range m.Cores {
		jc := mem.Get("cores").Index(k)
		if n := len(jsBytes(jc.Get("accesses"))); n != 24*len(nc.Accesses) || len(nc.Accesses) == 0 {
			t.Errorf("%s: %d access bytes for %d accesses", nc.Name, n, len(nc.Accesses))
		}
		if n := len(jsBytes(jc.Get("boxes"))); n != 24*len(nc.Boxes) {
			t.Errorf("%s: %d box bytes for %d boxes", nc.Name, n, len(nc.Boxes))
		}
		if got := jc.Get("sbuf").Get("peakBytes").Int(); got != int(nc.SBUF.PeakBytes) {
			t.Errorf("%s: SBUF peak %d, native %d", nc.Name, got, nc.SBUF.PeakBytes)
		}
	}
	card := decodeNode(t, mem.Get("card"))
	if card.Key != inspect.OverviewSync || card.Attrs[inspect.AttrLints] != "0" || card.Attrs[inspect.AttrWaits] != card.Attrs[inspect.AttrResolved] {
		t.Errorf("memory card %s %v", card.Key, card.Attrs)
	}
}

// A handler's panic becomes an internal error that says what failed, without the goroutine's
// stack (the page shows the message in a toast; the stack goes to the console).
func TestPanicMessageHasNoStack(t *testing.T) {
	m, _ := protocol.Lookup("memory")
	_, err := runSafely(context.Background(), handler{run: func(context.Context, *request) (any, error) {
		var s []int32
		return s[len(s)*2], nil
	}}, &request{method: m})
	msg := err.Error()
	if !strings.Contains(msg, "memory") || !strings.Contains(msg, "index out of range") || strings.Contains(msg, "goroutine") || strings.Contains(msg, ".go:") {
		t.Fatalf("message %q", msg)
	}
}
