package timeline

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The simulator's rules on crafted programs, with a cost model of round figures so every
// expected time is worked out by hand: 1 GHz on every engine (a cycle is a nanosecond), and
// the rows below.
func testCosts() *CostModel {
	var clocks []Clock
	for _, e := range engineNames {
		clocks = append(clocks, Clock{"cayman", e, 1, "test", "test"})
	}
	var ops []OpCost
	for _, e := range engineNames {
		ops = append(ops, OpCost{Engine: e, Opcode: 0, Issue: 10, Latency: 100})
	}
	ops = append(ops,
		OpCost{Engine: "", Opcode: 0xB1, Issue: 10, Latency: 50},
		OpCost{Engine: "", Opcode: 0xCC},
		OpCost{Engine: "DVE", Opcode: 0x46, Issue: 30, Latency: 100},
		OpCost{Engine: "PE", Opcode: 0x02, Issue: 20, Latency: 200, Shape: ShapeMoving, PerElem: 2, PerElem2: 1, Inputs: 1},
		OpCost{Engine: "Pool", Opcode: 0xD4, Issue: 5, Latency: 30},
		OpCost{Engine: "SP", Opcode: 0xD4, Issue: 5, Latency: 40},
	)
	return &CostModel{
		Clocks:    clocks,
		Ops:       ops,
		Semaphore: SemLatency{SameEngine: 5, OtherEngine: 20},
		DMA: DMAModel{Engines: 16, TriggerDynamicNS: 500, TriggerStaticNS: 300, SmallBytes: 64, SmallIssueNS: 50,
			LargeIssueNS: 10, BytesPerNS: 16, ElemLatency: 100, CompleteNS: 40},
		DGE: DGEModel{Engines: []string{"Pool"}, IssueNS: 100, HandoffNS: 10, PostWaitNS: 50, QueueDepth: 2, LatencyNS: 200, CadenceNS: 150, WriteNS: 160, MinNS: 30, PollNS: 200, SlowBacklogNS: 100, SlowTriggers: 2},
	}
}

// Sync band modes (neff.md §4.2, §8.3).
const (
	waitGE = 0x05
	incOn  = 0x13
)

// w is a crafted word: opcode, then optionally a wait (semaphore, value) and an update.
type w struct {
	op               byte
	waitSem, waitVal int
	inc              int // semaphore incremented on completion; -1 none
	patch            func([]byte)
}

func word(x w) []byte {
	b := make([]byte, 64)
	b[0], b[1] = x.op, 0x10
	if x.waitVal > 0 {
		b[4], b[5] = waitGE, byte(x.waitSem)
		binary.LittleEndian.PutUint32(b[8:], uint32(x.waitVal))
	}
	if x.inc >= 0 {
		b[6], b[7] = incOn, byte(x.inc)
	}
	if x.patch != nil {
		x.patch(b)
	}
	return b
}

func op(o byte) w { return w{op: o, inc: -1} }

// matmul is a Matmul whose moving tensor has n bf16 columns (family A src counts at +0x1A).
func matmul(n int, inc int) w {
	return w{op: 0x02, inc: inc, patch: func(b []byte) {
		b[0x20] = 6 // bf16
		binary.LittleEndian.PutUint16(b[0x1A:], uint16(n))
		binary.LittleEndian.PutUint16(b[0x1C:], 1)
		binary.LittleEndian.PutUint16(b[0x1E:], 1)
	}}
}

// direct2d is a PseudoDmaDirect2d of rows × bytes on its engine's dynamic queue semaphore sem.
func direct2d(sem, rows, bytes int) w {
	return w{op: 0xD4, inc: -1, patch: func(b []byte) {
		b[0x0D], b[0x0E] = byte(sem), 16
		binary.LittleEndian.PutUint16(b[0x20:], uint16(rows))
		binary.LittleEndian.PutUint16(b[0x22:], 1)
		binary.LittleEndian.PutUint16(b[0x24:], uint16(bytes))
	}}
}

func stream(ws ...w) []byte {
	var out []byte
	for _, x := range ws {
		out = append(out, word(x)...)
	}
	return out
}

// crafted opens matmul_small (its manifests: sg00's five engines, qPoolDynamic on S[24..39],
// qSPDynamicHW on S[8..23]) with sg00's streams replaced (an engine not given runs nothing but
// SetOrderingMode) and, when dveJSON is not "", sg00/DVE.json.
func crafted(t *testing.T, streams map[string][]byte, dveJSON string) *inspect.File {
	t.Helper()
	const rel = "nkipy/matmul_small.neff"
	src := realfiles.Read(t, rel)
	members, err := neff.ReadMembers(bytes.NewReader(src), int64(len(src)), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := neff.Open(bytes.NewReader(src), int64(len(src)), neff.Options{})
	var ms []neffbuild.Member
	for _, m := range a.Members {
		b := members[m.Path]
		for _, e := range engineNames {
			if m.Path == "sg00/"+e+".bin" {
				b = stream(op(0xB1))
				if s, ok := streams[e]; ok {
					b = s
				}
			}
		}
		if m.Path == "sg00/DVE.json" && dveJSON != "" {
			b = []byte(dveJSON)
		}
		ms = append(ms, neffbuild.Member{Path: m.Path, Data: b})
	}
	b := neffbuild.Bytes(ms, neffbuild.Options{FeatureBits: a.Header.FeatureBits, LNCSize: a.Header.LNCSize, Name: a.Header.Name})
	return inspect.Open("crafted.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{DeferSource: true})
}

// estimateOf runs the test cost model on a crafted file's sg00.
func estimateOf(t *testing.T, f *inspect.File) *CoreSchedule {
	t.Helper()
	in := inputOf(f)
	in.Costs = testCosts()
	s := Estimate(in, nil)
	if len(s.Cores) == 0 {
		t.Fatal("no cores")
	}
	return s.Cores[0]
}

// engineOf is the named engine's schedule.
func engineOf(t *testing.T, cs *CoreSchedule, name string) *EngineSchedule {
	t.Helper()
	for k := range cs.Engines {
		if cs.Engines[k].Name == name {
			return &cs.Engines[k]
		}
	}
	t.Fatalf("no engine %s", name)
	return nil
}

type wantRow struct {
	i          int
	start, end int64 // ns
	reason     string
	waited     int64 // ns
}

func checkRows(t *testing.T, cs *CoreSchedule, engine string, want []wantRow) {
	t.Helper()
	es := engineOf(t, cs, engine)
	for _, r := range want {
		got, ok := cs.row(es, r.i)
		if !ok {
			t.Errorf("%s #%d never runs", engine, r.i)
			continue
		}
		if got.StartPS != r.start*1000 || got.EndPS != r.end*1000 || got.Waited.Reason != r.reason || got.Waited.PS != r.waited*1000 {
			t.Errorf("%s #%d: [%d, %d] ps, %s for %d ps; want [%d, %d] ns, %s for %d ns", engine, r.i, got.StartPS, got.EndPS, got.Waited.Reason, got.Waited.PS, r.start, r.end, r.reason, r.waited)
		}
	}
}

// An engine issues in order, a new instruction an issue interval after the one before, each
// lasting its latency: busy is the union of the overlapping intervals.
func TestEstimateInOrderPipelined(t *testing.T) {
	f := crafted(t, map[string][]byte{"DVE": stream(op(0xB1), op(0xCC), op(0x46), op(0x46), op(0x46))}, "")
	cs := estimateOf(t, f)
	// B1 [0,50); label [10,10) (no time); Copy at 10 (the label's issue is 0), then +30, +30.
	checkRows(t, cs, "DVE", []wantRow{
		{0, 0, 50, WaitedNone, 0},
		{1, 10, 10, WaitedEngine, 10},
		{2, 10, 110, WaitedNone, 0},
		{3, 40, 140, WaitedEngine, 30},
		{4, 70, 170, WaitedEngine, 30},
	})
	if es := engineOf(t, cs, "DVE"); es.BusyPS != 170_000 {
		t.Errorf("DVE busy %d ps, want 170,000 (the union of [0,50), [10,110), [40,140), [70,170))", es.BusyPS)
	}
	if cs.SpanPS != 170_000 {
		t.Errorf("span %d ps, want 170,000", cs.SpanPS)
	}
}

// A wait on another engine's update starts the other engine's latency after the producer
// ends; on its own engine's, the same-engine latency. The wait names its producer and how
// long the engine stood waiting; the idle time is given to that producer's engine.
func TestEstimateSemaphoreWaits(t *testing.T) {
	f := crafted(t, map[string][]byte{
		"PE":  stream(op(0xB1), matmul(128, 5)),                                                                            // Matmul: 200 + 128 cycles (bf16 at 1 a column)
		"DVE": stream(op(0xB1), w{op: 0x46, waitSem: 5, waitVal: 1, inc: 6}, w{op: 0x46, waitSem: 6, waitVal: 1, inc: -1}), // waits PE, then itself
	}, "")
	cs := estimateOf(t, f)
	// PE: B1 [0,50), Matmul at 10 for 328 → [10, 338). DVE #1 at 338 + 20 = 358 (ready at
	// 10: waited 348), [358, 458); #2 waits #1's update: 458 + 5 = 463 (ready 388: 75).
	checkRows(t, cs, "PE", []wantRow{{1, 10, 338, WaitedEngine, 10}})
	checkRows(t, cs, "DVE", []wantRow{{1, 358, 458, WaitedSemaphore, 348}, {2, 463, 563, WaitedSemaphore, 75}})
	es := engineOf(t, cs, "DVE")
	r, _ := cs.row(es, 1)
	if r.Waited.Producer == nil || *r.Waited.Producer != (Ref{"PE", 1}) {
		t.Errorf("DVE #1 producer %+v, want PE #1", r.Waited.Producer)
	}
	// DVE idle: [50, 358) on PE, [458, 463) on DVE itself; nothing after (it ends last).
	want := map[IdleCause]int64{{Reason: WaitedSemaphore, Engine: "PE"}: 308_000, {Reason: WaitedSemaphore, Engine: "DVE"}: 5_000}
	for _, c := range es.Idle {
		ps := c.PS
		c.PS = 0
		if want[c] != ps {
			t.Errorf("DVE idle %+v: %d ps, want %d", c, ps, want[c])
		}
		delete(want, c)
	}
	if len(want) > 0 {
		t.Errorf("DVE idle lacks %v", want)
	}
	// The critical path: PE's B1, its Matmul, DVE #1, DVE #2.
	var path []string
	for _, a := range cs.Critical {
		path = append(path, refString(cs.Model, a))
	}
	if strings.Join(path, ", ") != "PE #0, PE #1, DVE #1, DVE #2" {
		t.Errorf("critical path %v", path)
	}
}

// A dynamic DMA (0xD4 on Pool, software DGE): the engine works IssueNS on a trigger from when
// its last word ended (behind a trigger, from that trigger's hand-over), then hands it over;
// the second stage starts it LatencyNS after the hand-over and CadenceNS after its last start,
// and ends it MinNS after the start and WriteNS after its last end. The transfer reaches the
// DMA engines TriggerDynamicNS after the end, its rows are dealt to the 16 engines, each
// pipelined, and it completes CompleteNS after its last element. A wait on its semaphore
// starts then, blamed on the DMA queue.
func TestEstimateDynamicDMA(t *testing.T) {
	f := crafted(t, map[string][]byte{
		"Pool": stream(op(0xB1), direct2d(24, 128, 256), direct2d(25, 128, 256)),
		"DVE":  stream(op(0xB1), w{op: 0x46, waitSem: 25, waitVal: 16, inc: -1}),
	}, "")
	cs := estimateOf(t, f)
	// #1: the B1 ends at 50, handed over at 150, started at 350, ended at 380. #2: handed over
	// at 250, started at max(450, 350 + 150) = 500 (50 later than an idle DGE), ended at
	// max(530, 380 + 160) = 540.
	checkRows(t, cs, "Pool", []wantRow{{1, 350, 380, WaitedNone, 0}, {2, 500, 540, WaitedEngine, 50}})
	// #1's transfer: at 880 on every DMA engine, 8 rows each, 16 ns apart (256 B at 16 B/ns):
	// last written at 880 + 7×16 + 100 = 1092, done 1132; the engines are free at 1008.
	// #2's: at 1040, done 1040 + 212 + 40 = 1292. DVE #1 starts then (ready at 10).
	checkRows(t, cs, "DVE", []wantRow{{1, 1292, 1392, WaitedDMA, 1282}})
	r, _ := cs.row(engineOf(t, cs, "DVE"), 1)
	if r.Waited.DMA != "qPoolDynamic" || r.Waited.Producer == nil || *r.Waited.Producer != (Ref{"Pool", 2}) {
		t.Errorf("DVE #1 waited on %q, producer %+v; want qPoolDynamic, Pool #2", r.Waited.DMA, r.Waited.Producer)
	}
}

// The DGE's queue holds QueueDepth triggers: the third is handed over PostWaitNS after the
// first ended. The engine goes on HandoffNS after a hand-over, so the word after a trigger
// starts before the trigger's traced interval: busy time is the union of the intervals in
// time order, and each idle gap is blamed on what ends it.
func TestEstimateDGEQueue(t *testing.T) {
	f := crafted(t, map[string][]byte{
		"Pool": stream(op(0xB1), direct2d(24, 128, 256), direct2d(25, 128, 256), direct2d(26, 128, 256), op(0xA0)),
	}, "")
	cs := estimateOf(t, f)
	// #1, #2 as in TestEstimateDynamicDMA. #3: its work ends at 350, but #1 ended at 380: handed
	// over at 430, started at max(630, 650) = 650 (100 after an idle DGE's 550), ended at 700.
	// #4 starts at the hand-over + 10 = 440 and lasts 100 (it waited 10 for the hand-over).
	checkRows(t, cs, "Pool", []wantRow{{1, 350, 380, WaitedNone, 0}, {2, 500, 540, WaitedEngine, 50}, {3, 650, 700, WaitedEngine, 100}, {4, 440, 540, WaitedEngine, 10}})
	es := engineOf(t, cs, "Pool")
	// [0,50) + [350,380) + [440,540) (#2's [500,540) inside) + [650,700).
	if es.BusyPS != 230_000 {
		t.Errorf("Pool busy %d ps, want 230,000", es.BusyPS)
	}
	// Idle [50,350) before #1, [380,440) before #4, [540,650) before #3: all the engine's own.
	if len(es.Idle) != 1 || es.Idle[0] != (IdleCause{Reason: WaitedEngine, PS: 470_000}) {
		t.Errorf("Pool idle %+v, want 470,000 ps issuing", es.Idle)
	}
}

// A trigger that waits on another engine is handed over PostWaitNS after the wait is
// satisfied, and blamed on that wait for the time an idle DGE would not have taken.
func TestEstimateDGEAfterWait(t *testing.T) {
	d := direct2d(24, 128, 256)
	d.waitSem, d.waitVal = 5, 1
	f := crafted(t, map[string][]byte{
		"PE":   stream(op(0xB1), matmul(128, 5)),
		"Pool": stream(op(0xB1), d),
	}, "")
	cs := estimateOf(t, f)
	// The Matmul ends at 338, its update reaches Pool at 358: handed over at 408, started at
	// 608, ended at 638; an idle DGE would have started it at 50 + 100 + 200 = 350.
	checkRows(t, cs, "Pool", []wantRow{{1, 608, 638, WaitedSemaphore, 258}})
}

// A writer SlowBacklogNS or more behind the second stage's next start puts it in the slow
// mode: SlowTriggers starts, each 2 × PollNS after the one before.
func TestEstimateDGESlowMode(t *testing.T) {
	f := crafted(t, map[string][]byte{
		"Pool": stream(op(0xB1), direct2d(24, 128, 256), direct2d(25, 128, 256), direct2d(26, 128, 256), direct2d(27, 128, 256),
			direct2d(28, 128, 256), direct2d(29, 128, 256), direct2d(30, 128, 256)),
	}, "")
	in := inputOf(f)
	in.Costs = testCosts()
	in.Costs.DGE.WriteNS, in.Costs.DGE.QueueDepth = 250, 0 // the writer falls 100 ns behind a trigger
	cs := Estimate(in, nil).Cores[0]
	// Handed over at 150, 250, …, 750. Starts 350, 500, 650, 800; ends 380, 630, 880, 1130. #5:
	// the writer ends #4 at 1130, 180 after #5's start at 950: slow, started at 800 + 400 =
	// 1200, ended at 1380; #6 in the slow mode too: 1600, 1630. #7 back to the cadence: 1750,
	// 1880. Each waited from its hand-over + 200.
	checkRows(t, cs, "Pool", []wantRow{
		{1, 350, 380, WaitedNone, 0}, {2, 500, 630, WaitedEngine, 50}, {3, 650, 880, WaitedEngine, 100}, {4, 800, 1130, WaitedEngine, 150},
		{5, 1200, 1380, WaitedEngine, 450}, {6, 1600, 1630, WaitedEngine, 750}, {7, 1750, 1880, WaitedEngine, 800},
	})
}

// Transfers share the DMA engines: a second transfer's elements wait for the first's on the
// same engines (SP's hardware DGE has no generator stage).
func TestEstimateDMAEnginesShared(t *testing.T) {
	f := crafted(t, map[string][]byte{
		"SP":  stream(op(0xB1), direct2d(8, 32, 1024), direct2d(9, 32, 1024)),
		"DVE": stream(op(0xB1), w{op: 0x46, waitSem: 9, waitVal: 16, inc: -1}),
	}, "")
	cs := estimateOf(t, f)
	// SP #1 [10, 50): its transfer at 550, 2 rows on each engine, 64 ns apart (1024 B at
	// 16 B/ns): engines busy until 678. #2 [15, 55): arrives at 555 but waits for the engines
	// until 678: last written at 678 + 64 + 100 = 842, done 882.
	checkRows(t, cs, "SP", []wantRow{{1, 10, 50, WaitedEngine, 10}, {2, 15, 55, WaitedEngine, 5}})
	checkRows(t, cs, "DVE", []wantRow{{1, 882, 982, WaitedDMA, 872}})
}

// A static DMA (0xC1 on DVE): its block's descriptors (engine JSON) are its elements; it
// completes into the block's semaphore.
func TestEstimateStaticDMA(t *testing.T) {
	trig := w{op: 0xC1, inc: -1, patch: func(b []byte) { copy(b[0x0C:], "qSPDynamicHW") }}
	dve := `{"dma":[{"id":0,"queue":"qSPDynamicHW","semaphore":40,"desc":[{"from":"SB","to":"SB","from_sizes":[128,4],"to_sizes":[512,1],"from_steps":[1,262144],"to_steps":[1,1]}]}],"instr":"DVE.bin","name":"DVE.json"}`
	f := crafted(t, map[string][]byte{
		"DVE": stream(op(0xB1), trig),
		"SP":  stream(op(0xB1), w{op: 0xA4, waitSem: 40, waitVal: 16, inc: -1}),
	}, dve)
	cs := estimateOf(t, f)
	// The trigger [10, 110); one element of 512 B (the to side has one run): at 410, written
	// at 410 + 100 = 510, done 550. SP's Nop starts then (ready at 10).
	checkRows(t, cs, "DVE", []wantRow{{1, 10, 110, WaitedEngine, 10}})
	checkRows(t, cs, "SP", []wantRow{{1, 550, 650, WaitedDMA, 540}})
}

// Engines that wait on each other never run: no rows, counted as never run, and the rest
// still gets its times.
func TestEstimateDeadlock(t *testing.T) {
	f := crafted(t, map[string][]byte{
		"PE":  stream(op(0xB1), w{op: 0xA4, waitSem: 6, waitVal: 1, inc: 5}),
		"DVE": stream(op(0xB1), w{op: 0xA4, waitSem: 5, waitVal: 1, inc: 6}, op(0xB1)),
	}, "")
	cs := estimateOf(t, f)
	if cs.NeverRun != 3 {
		t.Errorf("%d never run, want 3 (PE #1, DVE #1, DVE #2)", cs.NeverRun)
	}
	if _, ok := cs.row(engineOf(t, cs, "DVE"), 2); ok {
		t.Error("DVE #2 runs behind a deadlock")
	}
	checkRows(t, cs, "DVE", []wantRow{{0, 0, 50, WaitedNone, 0}})
	e := Estimated{}
	b, err := json.Marshal(e)
	if err != nil || len(b) == 0 {
		t.Fatal(err)
	}
}

// A retire queue (RetireModel): an engine's updates land no sooner than IntervalNS apart.
func TestEstimateRetireQueue(t *testing.T) {
	f := crafted(t, map[string][]byte{
		"PE":  stream(op(0xB1), matmul(0, 5), matmul(0, 5)),
		"DVE": stream(op(0xB1), w{op: 0x46, waitSem: 5, waitVal: 2, inc: -1}),
	}, "")
	in := inputOf(f)
	m := testCosts()
	m.Retire = RetireModel{Engines: []string{"PE"}, IntervalNS: 1000}
	in.Costs = m
	cs := Estimate(in, nil).Cores[0]
	// Matmuls [10, 210) and [30, 230): the first lands at 210, the second at 1210, not 230.
	checkRows(t, cs, "DVE", []wantRow{{1, 1230, 1330, WaitedSemaphore, 1220}})
}

// The streamed JSON is the contract's object, row for row what encoding/json writes of the
// same estimate.
func TestEstimatedJSONMatchesEncoding(t *testing.T) {
	f := crafted(t, map[string][]byte{
		"Pool": stream(op(0xB1), direct2d(24, 128, 256)),
		"DVE":  stream(op(0xB1), w{op: 0x46, waitSem: 24, waitVal: 16, inc: 6}, w{op: 0x46, waitSem: 6, waitVal: 1, inc: -1}),
	}, "")
	in := inputOf(f)
	in.Costs = testCosts()
	s := Estimate(in, nil)
	var streamed bytes.Buffer
	if err := WriteEstimatedJSON(&streamed, s); err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(streamed.Bytes(), &got); err != nil {
		t.Fatalf("streamed JSON does not parse: %v\n%s", err, streamed.String())
	}
	b, _ := json.Marshal(s.Estimated())
	json.Unmarshal(b, &want)
	g, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if !bytes.Equal(g, wb) {
		t.Errorf("streamed:\n%s\nencoding/json:\n%s", g, wb)
	}
	if !strings.Contains(streamed.String(), `"waited":{"reason":"dma","producer":{"engine":"Pool","index":1},"dma":"qPoolDynamic","ps":`) {
		t.Errorf("no dma wait with its producer and queue in %s", streamed.String())
	}
}

// A core whose order the sync model cannot follow is estimated as a floor and says so.
func TestEstimateOrderUnknown(t *testing.T) {
	f := crafted(t, map[string][]byte{"DVE": stream(op(0xB1), op(0xA9), w{op: 0x46, waitSem: 5, waitVal: 1, inc: -1})}, "")
	cs := estimateOf(t, f)
	if !cs.OrderUnknown || cs.WaitsUnmodelled == 0 {
		t.Errorf("order unknown %v, %d waits unmodelled", cs.OrderUnknown, cs.WaitsUnmodelled)
	}
	var _ = sched.None
}

// A core the budget refuses is not estimated and says so.
func TestEstimateRefusedByTheBudget(t *testing.T) {
	f := crafted(t, map[string][]byte{"DVE": stream(op(0xB1), op(0x46))}, "")
	in := inputOf(f)
	in.Costs = testCosts()
	b := budget.New(budget.Limits{Memory: 64})
	s := Estimate(in, b)
	if !s.Cores[0].Limit || len(s.Cores[0].Engines) != 0 || !s.Estimated().Cores[0].Unmodelled.Limit {
		t.Errorf("limit %v, %d engines", s.Cores[0].Limit, len(s.Cores[0].Engines))
	}
}

// A trace names cores and engines as the file does: a name with a control character is quoted
// as JSON (Go's quoting wrote \x01, which no JSON reader takes).
func TestEstimatedTraceQuotesNamesAsJSON(t *testing.T) {
	s := &Schedule{Target: "cayman", Cores: []*CoreSchedule{{Name: "sg\x01\u2028", Model: &sched.Core{Name: "sg\x01"}}}}
	var b bytes.Buffer
	if err := WriteEstimatedTrace(&b, s, nil); err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b.Bytes(), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b.String())
	}
}
