//go:build js && wasm

package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/core/timeline"
)

func f64s(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

func i32s(b []byte) []int32 {
	out := make([]int32, len(b)/4)
	for i := range out {
		out[i] = int32(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

// measured's columns on attn_v6's profile, joined to its NEFF, are the native measurement's:
// every row's index and times (offsets from the window's start), each engine's busy time, the
// summary's checks; a profile alone answers too, and a profile of another NEFF joins nothing.
func TestMeasuredColumnsMatchNative(t *testing.T) {
	c := core(t)
	profData, neffData := readFile(t, "nki-moe/profile_attn_v6_exec_2.ntff"), readFile(t, "nki-moe/attn_v6.neff")
	ph := c.openBytes("profile_attn_v6_exec_2.ntff", profData).Get("handle")
	nh := c.openBytes("attn_v6.neff", neffData).Get("handle")
	res := c.must("measured", map[string]any{"handle": ph, "neff": nh})

	pf := inspect.Open("p.ntff", bytes.NewReader(profData), int64(len(profData)), inspect.Options{})
	nf := inspect.Open("n.neff", bytes.NewReader(neffData), int64(len(neffData)), inspect.Options{})
	m := timeline.Measure(pf.NTFF, nf, pf.Budget).Measured
	if !res.Get("joined").Bool() || res.Get("windowStart").String() != "371297009799126533" || res.Get("window").Float() != 359874021 {
		t.Fatalf("joined %v window %s + %v", res.Get("joined").Bool(), res.Get("windowStart").String(), res.Get("window").Float())
	}
	cores := res.Get("cores")
	rows := 0
	for k, mc := range m.Cores {
		jc := cores.Index(k)
		lens, index := i32s(jsBytes(jc.Get("lens"))), i32s(jsBytes(jc.Get("index")))
		starts, ends, busy := f64s(jsBytes(jc.Get("start"))), f64s(jsBytes(jc.Get("end"))), f64s(jsBytes(jc.Get("busy")))
		at := 0
		for e, me := range mc.Engines {
			if int(lens[e]) != len(me.Rows) || busy[e] != float64(me.BusyPS) || jc.Get("engines").Index(e).String() != me.Engine {
				t.Fatalf("%s %s: %d rows busy %v, native %d %d", mc.Core, me.Engine, lens[e], busy[e], len(me.Rows), me.BusyPS)
			}
			for _, r := range me.Rows {
				if index[at] != r.Index || starts[at] != float64(r.StartPS-m.WindowPS[0]) || ends[at] != float64(r.EndPS-m.WindowPS[0]) {
					t.Fatalf("%s %s #%d: %d %v %v", mc.Core, me.Engine, r.Index, index[at], starts[at], ends[at])
				}
				at++
			}
		}
		rows += at
		// Each row's opcode is its NEFF instruction's.
		ops := jsBytes(jc.Get("ops"))
		at = 0
		for _, me := range mc.Engines {
			st := streamOpcodes(nf, streamOf(nf, m, mc.Core, me.Engine))
			for _, r := range me.Rows {
				if ops[at] != st[r.Index] {
					t.Fatalf("%s %s #%d: opcode %#x, the NEFF's %#x", mc.Core, me.Engine, r.Index, ops[at], st[r.Index])
				}
				at++
			}
		}
		if n := len(i32s(jsBytes(jc.Get("runtimeIndex")))); n == 0 || len(f64s(jsBytes(jc.Get("runtimeStart")))) != n {
			t.Errorf("%s: %d runtime words", mc.Core, n)
		}
	}
	if rows != 1961 {
		t.Errorf("%d rows, want 1,961", rows)
	}
	sg00 := cores.Index(0)
	if q := sg00.Get("queues"); q.Length() != 4 || len(f64s(jsBytes(q.Index(1).Get("segments")))) == 0 || sg00.Get("semaphores").Length() == 0 {
		t.Errorf("queues %d, semaphores %d", q.Length(), sg00.Get("semaphores").Length())
	}
	var sum timeline.Measured
	if err := json.Unmarshal(jsBytes(res.Get("summary")), &sum); err != nil || sum.Checks.WaitsInOrder != 688 || sum.Checks.WaitsMetInside != 1 || sum.Checks.WaitsViolated != 0 {
		t.Errorf("summary checks %+v (%v)", sum.Checks, err)
	}

	if res.Get("opcodes").Index(0xb1).String() != "SetOrderingMode" {
		t.Errorf("opcode 0xb1 named %q", res.Get("opcodes").Index(0xb1).String())
	}
	alone := c.must("measured", map[string]any{"handle": ph})
	if alone.Get("joined").Bool() || alone.Get("cores").Length() != 2 {
		t.Errorf("alone: joined %v, %d cores", alone.Get("joined").Bool(), alone.Get("cores").Length())
	}
	// A profile alone: a row is an image word, its opcode the word's first byte.
	a0 := alone.Get("cores").Index(0)
	aIndex, aOps := i32s(jsBytes(a0.Get("index"))), jsBytes(a0.Get("ops"))
	for i := range aIndex[:min(len(aIndex), 200)] {
		if w := pf.NTFF.Word(pf.NTFF.Cores[0].Images[0], int(aIndex[i])); w == nil || aOps[i] != w[0] {
			t.Fatalf("alone: row %d (word %d) opcode %#x, the word's %v", i, aIndex[i], aOps[i], w)
		}
	}
	other := c.openBytes("s.ntff", ntffbuild.Bytes(ntffbuild.Sample())).Get("handle")
	wrong := c.must("measured", map[string]any{"handle": other, "neff": nh})
	var ws timeline.Measured
	json.Unmarshal(jsBytes(wrong.Get("summary")), &ws)
	if wrong.Get("joined").Bool() || len(ws.Findings) != 1 || ws.Findings[0].Code != "ntff.uuid-mismatch" {
		t.Errorf("another NEFF's profile: joined %v, findings %+v", wrong.Get("joined").Bool(), ws.Findings)
	}
	c.fails("measured", map[string]any{"handle": nh}, "bad-request", "not a device profile")
	c.fails("measured", map[string]any{"handle": ph, "neff": ph}, "bad-request", "not a NEFF")
}

// A big profile's engine lanes come before its DMA and semaphore records are read: the
// 'lanes' event carries the engines' rows of the result, and no queue yet.
func TestMeasuredLanesFirst(t *testing.T) {
	c := core(t)
	profData, neffData := readFile(t, "nki-moe/profile_attn_v6_exec_2.ntff"), readFile(t, "nki-moe/attn_v6.neff")
	var big bytes.Buffer
	if err := ntffbuild.RepeatDMA(&big, profData, 4, 40, 0); err != nil {
		t.Fatal(err)
	}
	ph := c.openBytes("big.ntff", big.Bytes()).Get("handle")
	nh := c.openBytes("attn_v6.neff", neffData).Get("handle")
	var lanes js.Value
	events := 0
	res, perr := c.invoke("measured", map[string]any{"handle": ph, "neff": nh}, func(name string, data js.Value) {
		if name == "lanes" {
			events++
			lanes = data
		}
	})
	if perr != nil {
		t.Fatal(perr)
	}
	if events != 1 {
		t.Fatalf("%d lanes events for a profile of %d MB, want 1", events, big.Len()>>20)
	}
	if !lanes.Get("joined").Bool() || lanes.Get("cores").Length() != res.Get("cores").Length() {
		t.Fatalf("lanes: joined %v, %d cores", lanes.Get("joined").Bool(), lanes.Get("cores").Length())
	}
	for k := range res.Get("cores").Length() {
		a, b := lanes.Get("cores").Index(k), res.Get("cores").Index(k)
		for _, col := range []string{"lens", "index", "start", "end", "ops"} {
			if !bytes.Equal(jsBytes(a.Get(col)), jsBytes(b.Get(col))) {
				t.Errorf("core %d: the lanes event's %s differ from the result's", k, col)
			}
		}
		if a.Get("queues").Length() != 0 || b.Get("queues").Length() == 0 {
			t.Errorf("core %d: %d queues in the event, %d in the result", k, a.Get("queues").Length(), b.Get("queues").Length())
		}
	}
	// A small profile sends none.
	small := c.openBytes("p.ntff", profData).Get("handle")
	n := 0
	if _, perr := c.invoke("measured", map[string]any{"handle": small}, func(string, js.Value) { n++ }); perr != nil || n != 0 {
		t.Errorf("a small profile: %d events (%v)", n, perr)
	}
}
