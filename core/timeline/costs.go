package timeline

import "sync"

// The cost model, as data: what an instruction costs on its engine, how long a semaphore takes
// to reach another engine, and what a DMA transfer costs. Every row names its evidence and how
// far it is trusted, like core/isa's layout table: a corrected figure is a change of data, and
// `docs/estimate.md` says what the model as a whole was validated on.
//
// Evidence: [DOC] the public NKI architecture guides (aws-neuron-sdk, paths in spec ntff.md
// §6.3); [MEAS] measured on the shared device profiles (spec ntff.md §6, the four captures of
// one runtime build on trn2.3xlarge); [FIT] fitted on those profiles (leave-one-out error in
// estimate_error.go); [GUESS] an assumption that fits. Confidence: high (documented and
// measured), medium (measured on one build, one kernel family), low (a guess, or a shape term
// the profiles hardly exercise).

// Clock is one engine's clock on a target.
type Clock struct {
	Target     string // kelf target: sunda (Trn1, Inf2), cayman (Trn2)
	Engine     string // PE, Activation, Pool, DVE, SP
	GHz        float64
	Evidence   string
	Confidence string
}

// CostModel is the whole cost model: every figure the estimate uses. Default is the model
// committed (fitted on the shared profiles, estimate_fit.go); Fit makes one from profiles.
type CostModel struct {
	Clocks    []Clock
	Ops       []OpCost
	Semaphore SemLatency
	DMA       DMAModel
	DGE       DGEModel
	Retire    RetireModel

	once  sync.Once
	index map[string]*[256]*OpCost // Ops by engine and opcode (prepare)
}

// Default is the committed cost model.
var Default = &CostModel{Clocks: Clocks, Ops: OpCosts, Semaphore: Semaphore, DMA: DMA, DGE: DGE, Retire: Retire}

// Clocks are the engine clocks: the cost rows' cycles run at them, and a profile's durations
// are checked against them (checks.go, quanta). The PE row is the clock its durations quantise
// at, not the Tensor engine's documented clock (ntff.md §3.1: "why: unknown"); the costs of PE
// rows are fitted at it.
var Clocks = []Clock{
	{"cayman", "PE", 1.2, "[MEAS] 817 of attn_v6 sg00's 820 PE durations are multiples of 833.33 ps, and so on the other three captures (ntff.md §3.1); the Tensor engine is documented at 2.4 GHz (why: unknown)", "medium"},
	{"cayman", "Activation", 1.2, "[DOC] Scalar 1.2 GHz (nki/guides/architecture/trainium2_arch.rst); [MEAS] 176 of 178 durations are multiples of 833.33 ps", "high"},
	{"cayman", "Pool", 1.2, "[DOC] GpSimd 1.2 GHz (trainium2_arch.rst); [MEAS] 367 of 367 durations", "high"},
	{"cayman", "DVE", 0.96, "[DOC] Vector 0.96 GHz (trainium2_arch.rst); [MEAS] 718 of 719 durations are multiples of 1,041.67 ps", "high"},
	{"cayman", "SP", 1.2, "[MEAS] 49 of 50 SP durations are multiples of 833.33 ps; no documented clock", "high"},
	{"sunda", "PE", 1.4, "[GUESS] half the documented Tensor 2.8 GHz, as on Trn2 (no Trn1 profile)", "low"},
	{"sunda", "Activation", 1.4, "[DOC] Scalar 1.4 GHz (trainium_inferentia2_arch.rst)", "medium"},
	{"sunda", "Pool", 1.4, "[DOC] GpSimd 1.4 GHz", "medium"},
	{"sunda", "DVE", 1.12, "[DOC] Vector 1.12 GHz", "medium"},
	{"sunda", "SP", 1.4, "[GUESS] as Scalar (no Trn1 profile)", "low"},
}

// defaultTarget is the target whose clocks a NEFF without a known target is costed at.
const defaultTarget = "cayman"

// Shape says which operand sizes an instruction's per-element term.
type Shape uint8

const (
	ShapeNone   Shape = iota // a fixed cost
	ShapeIn                  // the free size (elements per partition) of the first input
	ShapeOut                 // the free size of the output (Memset: no input)
	ShapeMoving              // a Matmul's moving tensor (its input's free size): columns streamed through the array
)

// OpCost is what one opcode costs on one engine, in that engine's cycles. Issue is the
// initiation interval: the cycles from its start to the earliest start of the next
// instruction on the engine (the engines are pipelined: a DVE op starts every ~80 ns while
// each takes ~160 ns). Latency is start to end, where its semaphore updates happen. Both
// grow by PerElem cycles per element of the Shape operand (PerElem2 for a dtype of at most 2
// bytes), times Inputs.
type OpCost struct {
	Engine     string // "" for any engine without a row of its own
	Opcode     uint8
	Issue      float64
	Latency    float64
	Shape      Shape
	PerElem    float64 // cycles per element, 4-byte dtypes
	PerElem2   float64 // cycles per element, 1- and 2-byte dtypes
	Inputs     float64 // operands streamed (TensorTensor reads two)
	Evidence   string
	Confidence string
}

// OpCosts is the cost table. An instruction matches its (engine, opcode) row, else the
// opcode's row for any engine, else its engine's default (Opcode 0 with Engine set).
var OpCosts = []OpCost{
	// PE
	{"PE", 0x01, 30, 125.6, ShapeIn, 0, 0, 1, "Ldweights: [FIT] latency 104.2 ns (n 367 on attn_v6; 104.2–105.0 on the others); the Matmul after it starts ~25 ns later; the load is the array's fixed size", "medium"},
	{"PE", 0x02, 10.9, 205.2, ShapeMoving, 2.0, 1.15, 1, "Matmul: [FIT] mean 171 ns with 1–2 moving columns (median 165); [MEAS] 287 ns with 128 bf16 columns, 372 ns with 128 fp32 (attn_v6, n 20 each: the per-column terms); [DOC] an interval of max(N, 64) cycles of the 2.4 GHz array, fp32 ≈ 4×", "medium"},
	{"PE", 0xA0, 92, 63, ShapeNone, 0, 0, 0, "EventSemaphore on PE: [FIT] 52.5 ns constant on all four captures", "medium"},
	{"PE", 0, 2, 63, ShapeNone, 0, 0, 0, "any other PE word: [GUESS] as EventSemaphore", "low"},
	// Activation
	{"Activation", 0x21, 356, 347.3, ShapeIn, 1, 1, 1, "Activate: [FIT] mean 289 ns (median 294.6 on attn_v6, n 136), back-to-back starts 297 ns apart; [DOC] Scalar ≈ N cycles plus a static overhead (only 1–2 elements a partition seen)", "medium"},
	{"Activation", 0x23, 5200, 1540, ShapeNone, 0, 0, 0, "ActivationTableLoad: [MEAS] 1,283.3 ns constant (n 11 on attn_v6, 9–17 on the others); the Activate after it starts ~3 µs after its end (the table's DMA on queue 14): issue 4.3 µs [GUESS from the median start-to-start]", "medium"},
	{"Activation", 0x46, 250, 304, ShapeIn, 1, 1, 1, "Copy on Activation: [OTHER] 253 ns on a capture of the same runtime build (ntff.md §6.1); the issue interval a guess (as Activate's)", "low"},
	{"Activation", 0xA0, 30, 30, ShapeNone, 0, 0, 0, "EventSemaphore on Activation: [GUESS] as on Pool/DVE/SP (18–26 ns)", "low"},
	{"Activation", 0, 50, 50, ShapeNone, 0, 0, 0, "any other Activation word: [MEAS] SetOrderingMode 41.7 ns; [GUESS] for the rest", "low"},
	// Pool
	{"Pool", 0xD4, 40, 38, ShapeNone, 0, 0, 0, "PseudoDmaDirect2d on Pool: runs as 0xB8 through the software DGE, whose two stages time it (DGEModel); this row is not used while Pool is a DGE engine", "medium"},
	{"Pool", 0xC1, 198, 158.6, ShapeNone, 0, 0, 0, "PseudoDMATrigger on Pool (two 0xA5): [FIT] 129.2 ns (n 8, attn_v5_new and v2_new)", "low"},
	{"Pool", 0xA0, 2, 25, ShapeNone, 0, 0, 0, "EventSemaphore on Pool: [FIT] 19.2–20.8 ns", "medium"},
	{"Pool", 0xA4, 30, 25, ShapeNone, 0, 0, 0, "Nop on Pool: [FIT] 17.5–24.2 ns (n 1 a capture)", "low"},
	{"Pool", 0x92, 302, 366.4, ShapeIn, 1, 1, 1, "TensorScalarAffineSelect: [FIT] 296–318 ns (n 2 a capture)", "low"},
	{"Pool", 0, 50, 51, ShapeIn, 1, 1, 1, "any other Pool word: [OTHER] AluOp 42.5 ns (ntff.md §6.1); [GUESS] for the rest", "low"},
	// DVE
	{"DVE", 0x41, 71, 148.1, ShapeIn, 1, 0.5, 2, "TensorTensorArithOp: [FIT] latency 158.3 ns on all four captures, back-to-back starts 78 ns apart; [DOC] ≈ 2N cycles with two inputs (bf16 at twice the rate: only 1–2 elements a partition seen)", "medium"},
	{"DVE", 0x42, 171, 141, ShapeIn, 1, 0.5, 1, "TensorReduceArithOp: [FIT] 280 ns over 128 fp32 elements on 2 partitions (n 20–40 a capture)", "medium"},
	{"DVE", 0x46, 67.5, 149.7, ShapeIn, 1, 0.5, 1, "Copy: [FIT] 153–167 ns for 1–2 elements; [MEAS] 225 ns for 128 bf16 (the per-element term); [DOC] ≈ N cycles", "medium"},
	{"DVE", 0x47, 72, 150.3, ShapeIn, 1, 0.5, 1, "Cast: [FIT] 156–157 ns (n 56–80 a capture)", "medium"},
	{"DVE", 0x49, 27.9, 113.6, ShapeOut, 0.05, 0.05, 1, "Memset: [FIT] mean 118 ns: median 91.7 ns on attn_v6, 139.6–140.6 on attn_v5_new and v2_new for the same shapes (why: unknown); the next word starts ~29 ns after it", "low"},
	{"DVE", 0xA0, 91, 25, ShapeNone, 0, 0, 0, "EventSemaphore on DVE: [FIT] 26.0 ns", "medium"},
	{"DVE", 0xC1, 200, 113, ShapeNone, 0, 0, 0, "PseudoDMATrigger (runs as two 0xA5 words): [FIT] 117.7 ns (n 20 on attn_v6; 33.3 ns an 0xA5 on the others)", "medium"},
	{"DVE", 0, 75, 150, ShapeIn, 1, 0.5, 1, "any other DVE word: [GUESS] as Copy", "low"},
	// SP
	{"SP", 0xD4, 300, 625, ShapeNone, 0, 0, 0, "PseudoDmaDirect2d on SP (0xB8, hardware DGE): [FIT] 519.6 ns (n 20–40 a capture, all four)", "medium"},
	{"SP", 0xA0, 70, 72.7, ShapeNone, 0, 0, 0, "EventSemaphore on SP: [FIT] mean 61 ns (median 18.3–20.0 ns; up to 1.4 µs on attn_v5_new)", "medium"},
	{"SP", 0xC1, 269, 347.2, ShapeNone, 0, 0, 0, "PseudoDMATrigger on SP (two 0xA5): [FIT] mean 289 ns, median 143 ns: stalls of ~715 ns (and multiples) in a third of them on attn_v5_new and v2_new (why: unknown)", "low"},
	{"SP", 0, 30, 30, ShapeNone, 0, 0, 0, "any other SP word: [MEAS] SetOrderingMode 24.2 ns; [GUESS] for the rest", "low"},
	// Any engine
	{"", 0xB1, 40, 49.1, ShapeNone, 0, 0, 0, "SetOrderingMode: [FIT] 41.7–56.2 ns", "medium"},
	{"", 0xCC, 0, 0, ShapeNone, 0, 0, 0, "PseudoBranchLabel: [MEAS] the runtime drops it (ntff.md §4.2): no time", "high"},
	{"", 0xDA, 0, 0, ShapeNone, 0, 0, 0, "PseudoExtension: the second word of a 0xD4 (neff.md §4.7), costed with it", "medium"},
}

// DGEModel is the software descriptor generator (DGE) some engines run their 0xD4 triggers
// through, in two stages with a queue between them (spec ntff.md §3.2's kind-2 records and
// the word's start and end records, read together):
//
//   - the engine computes the trigger's descriptors: IssueNS + IssueStepNS × (n mod Slots)
//     for its n-th trigger (FirstLapStepNS for the first Slots triggers), from when the engine
//     is free or, after a wait, PostWaitNS from when the wait is satisfied; it then hands the
//     trigger over (the kind-2 record) and the next instruction issues HandoffNS later (a
//     trigger right behind it starts its own work at once). It may hand over at most
//     QueueDepth triggers more than the second stage has written out: the n-th hand-over is
//     at least PostWaitNS after the (n−QueueDepth)-th trigger's end;
//   - the second stage starts a trigger (its start record) LatencyNS after the hand-over and
//     CadenceNS after it started the previous one, and ends it (its end record: the
//     descriptors are written; the DMA starts DMA.TriggerDynamicNS later) MinNS after its start
//     and WriteNS after the previous end. Triggers started faster than they are written last
//     longer and longer (32, 58, 84, … ns).
//   - When the writer is SlowBacklogNS or more behind a start, the second stage slows for
//     SlowTriggers triggers: each starts 2 × PollNS after the previous (the device retries
//     every PollNS). The mechanism is not in the records; the mode and its two figures are fitted.
//
// The traced interval of a trigger (what busy time counts) is the second stage's; the engine's
// own time is the first stage's, which the trace does not show.
type DGEModel struct {
	Engines                              []string
	IssueNS, IssueStepNS, FirstLapStepNS float64
	Slots                                int
	HandoffNS, PostWaitNS                float64
	QueueDepth                           int
	LatencyNS, CadenceNS, WriteNS, MinNS float64
	PollNS, SlowBacklogNS                float64
	SlowTriggers                         int
	Evidence, Confidence                 string
}

// DGE is Pool's.
var DGE = DGEModel{
	Engines: []string{"Pool"},
	IssueNS: 511.3, IssueStepNS: 3.34, FirstLapStepNS: 14, Slots: 16,
	HandoffNS: 54.2, PostWaitNS: 225.7, QueueDepth: 15,
	LatencyNS: 602.5, CadenceNS: 580.1, WriteNS: 605.8, MinNS: 31.7,
	PollNS: 706.6, SlowBacklogNS: 500, SlowTriggers: 20,
	Evidence: "[MEAS] the four shared captures, Pool 0xB8 words and their kind-2 records (1,284 triggers, all 128-element transfers of 2 or 256 B): " +
		"the kind-2 records of back-to-back triggers come 511 + 3.3 × (n mod 16) ns apart (n ≥ 16; 14 ns a step for the first 16), the same from an EventSemaphore's end; " +
		"an EventSemaphore after a trigger starts 54.2 ns after its kind-2 record (389 of 389); after a wait on another engine the kind-2 record comes 226 ns after the " +
		"producer's end plus the semaphore latency at the soonest (p10; later when the producer's update landed late); " +
		"the start record comes 602.5 ns after the kind-2 record when the second stage is idle (98 on attn_v5_new and v2_new), starts come 580.1 ns apart and ends 605.8 ns apart when back to back " +
		"(all four), 31.7 ns the shortest; the kind-2 records run at most 15 ahead of the start records (attn_v6, attn_v4_new). " +
		"158 of the 646 triggers of attn_v6 and attn_v4_new start later than these rules allow, each 1, 2 or 3 × ~707 ns after the previous start (53, 91, 14), in runs of 1–25; 1 each on attn_v5_new and v2_new. " +
		"Not the DMA (one transfer in flight, its rings idle), not the trigger's semaphore (reached microseconds before). " +
		"[FIT] the slow mode's entry (the writer's backlog) and length, on a grid: the runs start when the words last 0.44–1.2 µs; why: unknown. " +
		"Per element: only 128-element transfers were seen; the figures are per trigger",
	Confidence: "medium (the stages); low (the slow mode)",
}

// SemLatency is how long after its producer ends a waiter can start: the semaphore write
// reaching the waiter's engine.
type SemLatency struct {
	SameEngine, OtherEngine float64 // ns
	Evidence, Confidence    string
}

// Semaphore latencies.
var Semaphore = SemLatency{34.4, 37.7,
	"[FIT] the waits the device shows blocked on an engine start a median 37.7 ns after their producer ends (attn_v6: 282 waits, min 32.1, p90 149.8 ns; 35 on the others), 34.4 ns on the waiter's own engine",
	"medium"}

// DMA is the transfer model: a transfer's elements (its contiguous runs) are dealt to the
// DMA engines in turn; each engine serves its elements in arrival order, pipelined (a new
// element every ElemIssue, each done ElemLatency after it starts); the transfer completes
// when its last element is written, plus Complete (the semaphore writes, one per engine:
// ntff.md §5 check 8). Trigger is the time from the trigger word's end to the first element.
type DMAModel struct {
	Engines int
	// TriggerNS: trigger end → first element (dynamic 0xD4, static 0xC1 blocks).
	TriggerDynamicNS, TriggerStaticNS float64
	// Small elements (at most SmallBytes) cost SmallIssueNS each on their engine; larger ones
	// BytesPerNS.
	SmallBytes   int64
	SmallIssueNS float64
	LargeIssueNS float64
	BytesPerNS   float64
	ElemLatency  float64 // ns
	CompleteNS   float64
	Evidence     string
	Confidence   string
}

// DMA are the transfer model's figures.
var DMA = DMAModel{
	Engines:          16,
	TriggerDynamicNS: 730.2,
	TriggerStaticNS:  589.7,
	SmallBytes:       64,
	SmallIssueNS:     170,
	LargeIssueNS:     67,
	BytesPerNS:       23,
	ElemLatency:      334,
	CompleteNS:       100,
	Evidence: "[DOC] 16 DMA engines per NeuronCore, 23 B/ns per engine on Trn2 (nki-dma-bandwidth-guide.rst); " +
		"[FIT] trigger end → first packet: 730.2 ns for the software DGE's triggers (qPoolDynamic: 730.3 / 730.1 / 730.8 / 729.8 ns on attn_v6 / attn_v4_new / attn_v5_new / v2_new, 1,284 transfers), " +
		"589.7 ns for 0xC1 blocks (600.2 / 598.4 / 585.9 / 588.2 ns, 486 transfers: qDVESpillReload0 600, qPoolIO0 616–621, qSPIO0 530–581), both refitted in every leave-one-out fold; " +
		"[MEAS] first packet → last semaphore write 804 / 814 / 845 / 838 ns for 128 × 256 B and 1,474 / 1,489 / 1,423 / 1,466 ns for 128 × 2 B (the four kernels: not refitted, their spread is 5 %) " +
		"(8 elements an engine: ~67 ns an element of 256 B, ~170 ns one of 2 B); a 2,048-B packet lasts 334 ns (ntff.md §6.2); SP's hardware-DGE 0xD4 transfers start ~770 ns after the word (attn_v6, attn_v5_new)",
	Confidence: "medium",
}

// RetireModel is the queue some engines' results drain through: an instruction's semaphore
// updates land no sooner than its end, and no sooner than IntervalNS after the engine's
// previous update landed.
type RetireModel struct {
	Engines              []string
	IntervalNS           float64
	Evidence, Confidence string
}

// Retire is PE's.
var Retire = RetireModel{[]string{"PE"}, 0,
	"[MEAS] engine semaphore updates can land long after the word's end record: attn_v6 PE's Matmul updates of S[5] up to 22 µs (92 of 304 recorded PE updates later than 200 ns, 42 of 454 DVE ones; " +
		"0 of 85 Activation ones): after PE#81 ended (32.03 µs) S[5] stood at 24 of 32 and rose one at a time 2.8 µs apart, on the Pool DGE's ~700-ns retry grid, " +
		"each within 30 ns of a Pool DMA transfer's first packets (46 of 92 PE, 22 of 42 DVE late updates, against 26 of 212 prompt ones); once released they drain 34 ns apart " +
		"(v2_new at 44.73 µs: 12 Matmul updates, interleaved with a DMA transfer's semaphore writes). Why they are held: unknown. " +
		"[FIT] the interval is the grid value with the least span error over the profiles: 0 (a queue of fixed spacing does not help once the DGE's stages are modelled); the late updates are not modelled", "low"}
