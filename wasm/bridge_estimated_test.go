//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/timeline"
)

// estimated's columns are the native estimate's: every instruction's start, end, reason,
// producer and wait, each engine's busy time, the critical path; its model object is
// timeline --json's. Joined to its profile, measured carries the same columns.
func TestEstimatedColumnsMatchNative(t *testing.T) {
	c := core(t)
	data := readFile(t, "nkipy/matmul_small.neff")
	h := c.openBytes("matmul_small.neff", data).Get("handle")
	res := c.must("estimated", map[string]any{"handle": h})

	f := inspect.Open("m.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{})
	s := timeline.Estimate(*timeline.InputOf(f), nil)
	var model timeline.ModelInfo
	if err := json.Unmarshal(jsBytes(res.Get("model")), &model); err != nil || model.Error.Span != timeline.Validation.Span || res.Get("target").String() != s.Target {
		t.Fatalf("model %+v (%v), target %s", model, err, res.Get("target").String())
	}
	cores := res.Get("cores")
	if cores.Length() != len(s.Cores) {
		t.Fatalf("%d cores, native %d", cores.Length(), len(s.Cores))
	}
	for k, cs := range s.Cores {
		jc := cores.Index(k)
		lens, starts, ends := i32s(jsBytes(jc.Get("lens"))), f64s(jsBytes(jc.Get("start"))), f64s(jsBytes(jc.Get("end")))
		reason, pe, pi := i32s(jsBytes(jc.Get("reason"))), i32s(jsBytes(jc.Get("producerEngine"))), i32s(jsBytes(jc.Get("producerIndex")))
		waited, busy := f64s(jsBytes(jc.Get("waited"))), f64s(jsBytes(jc.Get("busy")))
		if jc.Get("span").Float() != float64(cs.SpanPS) {
			t.Errorf("%s span %v, native %d", cs.Name, jc.Get("span").Float(), cs.SpanPS)
		}
		at := 0
		for j := range cs.Engines {
			es := &cs.Engines[j]
			if int(lens[j]) != len(es.Start) || busy[j] != float64(es.BusyPS) {
				t.Fatalf("%s %s: %d instructions, busy %v; native %d, %d", cs.Name, es.Name, lens[j], busy[j], len(es.Start), es.BusyPS)
			}
			for i := range es.Start {
				wt := cs.WaitedOf(j, i)
				wantPE, wantPI := int32(-1), int32(-1)
				if wt.Producer != nil {
					wantPE, wantPI = int32(engineIndex(cs, wt.Producer.Engine)), wt.Producer.Index
				}
				if starts[at] != float64(es.Start[i]) || (es.Start[i] >= 0 && ends[at] != float64(es.End(i))) || reason[at] != reasonCode(wt.Reason) ||
					pe[at] != wantPE || pi[at] != wantPI || waited[at] != float64(wt.PS) {
					t.Fatalf("%s %s #%d: start %v end %v reason %d producer %d#%d waited %v; native %+v %+v", cs.Name, es.Name, i, starts[at], ends[at], reason[at], pe[at], pi[at], waited[at], es.Start[i], wt)
				}
				at++
			}
		}
		// Each instruction's opcode is its word's.
		ops := jsBytes(jc.Get("ops"))
		at = 0
		for j := range cs.Engines {
			st := streamOpcodes(f, memberOf(f, cs.Name, cs.Engines[j].Name))
			for i := range cs.Engines[j].Start {
				if ops[at] != st[i] {
					t.Fatalf("%s %s #%d: opcode %#x, its word's %#x", cs.Name, cs.Engines[j].Name, i, ops[at], st[i])
				}
				at++
			}
		}
		if ce := i32s(jsBytes(jc.Get("criticalEngine"))); len(ce) != len(cs.Critical) {
			t.Errorf("%s critical path %d steps, native %d", cs.Name, len(ce), len(cs.Critical))
		}
	}
}

// measured, joined to its NEFF, carries the NEFF's estimate beside the measured lanes; alone it
// has none.
func TestMeasuredCarriesTheEstimate(t *testing.T) {
	c := core(t)
	profData, neffData := readFile(t, "nki-moe/profile_attn_v6_exec_2.ntff"), readFile(t, "nki-moe/attn_v6.neff")
	ph := c.openBytes("profile_attn_v6_exec_2.ntff", profData).Get("handle")
	nh := c.openBytes("attn_v6.neff", neffData).Get("handle")
	joined := c.must("measured", map[string]any{"handle": ph, "neff": nh})
	f := inspect.Open("n.neff", bytes.NewReader(neffData), int64(len(neffData)), inspect.Options{})
	s := timeline.Estimate(*timeline.InputOf(f), nil)
	est := joined.Get("estimated")
	if est.IsUndefined() || est.Length() != len(s.Cores) || est.Index(0).Get("span").Float() != float64(s.Cores[0].SpanPS) {
		t.Fatalf("joined: estimated %v; native span %d", est, s.Cores[0].SpanPS)
	}
	if alone := c.must("measured", map[string]any{"handle": ph}); !alone.Get("estimated").IsUndefined() {
		t.Error("a profile alone carries an estimate")
	}
}
