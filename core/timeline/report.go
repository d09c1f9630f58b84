// Package timeline is the program in real time: what a device profile (NTFF, core/ntff)
// measured for each instruction of a NEFF, and what the cost model estimates from the NEFF
// alone (the schedule of core/sched, run with durations instead of steps). Both answers share
// one shape, Report, which `neffscope timeline --json` prints as it is: a measured row and an
// estimated row of the same instruction carry the same (core, engine, index), so they can be
// set side by side and the estimate's error stated.
//
// Cores and engines are named as `disasm` names them; index is the instruction's index in its
// engine stream as `disasm` numbers it.
package timeline

import "github.com/neffscope/neffscope/core/doc"

// Report is one NEFF's timeline: measured when a profile was given, estimated always (for a
// NEFF; a profile read alone has no estimate).
type Report struct {
	NEFFUUID  string     `json:"neff_uuid,omitempty"`
	Measured  *Measured  `json:"measured,omitempty"`
	Estimated *Estimated `json:"estimated,omitempty"`
}

// Ref names an instruction of a core.
type Ref struct {
	Engine string `json:"engine"`
	Index  int32  `json:"index"`
}

// Measured is what the device recorded.
type Measured struct {
	// WindowPS is the execution window, absolute picoseconds as the NTFF records them.
	WindowPS [2]uint64      `json:"window_ps"`
	Cores    []MeasuredCore `json:"cores"`
	Checks   Checks         `json:"checks"`

	// Beyond the contract (measured.go says where each figure comes from).

	// Profile says which capture this is.
	Profile ProfileInfo `json:"profile"`
	// Joined says the rows are the NEFF's instructions (false: a profile read alone, whose
	// rows are image words).
	Joined bool `json:"joined"`
	// Lines is the NEFF's kernel source lines by measured time, most first (a NEFF with
	// .dbg debug info only).
	Lines []LineTime `json:"lines,omitempty"`
	// Findings are what the profile and the join found: where the device disagrees with the
	// static model, what could not be read or joined.
	Findings []doc.Finding `json:"findings,omitempty"`
}

// MeasuredCore is one core's measured engines and DMA queues.
type MeasuredCore struct {
	Core    string           `json:"core"`
	Engines []MeasuredEngine `json:"engines"`
	Queues  []DMAQueue       `json:"queues,omitempty"`

	// NeuronCore is the NeuronCore id the profile's records carry for this core.
	NeuronCore uint64 `json:"neuron_core"`
	// ExecPS is the core's execution time as the profile's header records it.
	ExecPS uint64 `json:"exec_ps"`
	// Semaphores are the semaphore updates over time (NOTIFY records: lossy, so the values
	// are exact and the record count is not an update count).
	Semaphores []SemaphoreSeries `json:"semaphores,omitempty"`
}

// MeasuredEngine is one engine's measured rows. Instructions counts the engine's NEFF
// instructions (its image words for a profile read alone); Timed counts Rows. BusyPS is the
// length of the union of the intervals of the runtime words that come from NEFF instructions
// (all traced words for a profile read alone): start records are not in program order, so it
// is never the union of per-instruction spans.
type MeasuredEngine struct {
	Engine       string        `json:"engine"`
	Instructions int           `json:"instructions"`
	Timed        int           `json:"timed"`
	BusyPS       uint64        `json:"busy_ps"`
	Rows         []MeasuredRow `json:"rows"`

	// SpanPS is the first start and the last end of the rows' words; IdlePS is the span less
	// BusyPS, and Gaps the longest idle stretches inside it, longest first.
	SpanPS [2]uint64 `json:"span_ps"`
	IdlePS uint64    `json:"idle_ps"`
	Gaps   []Gap     `json:"gaps,omitempty"`
	// Runtime is the runtime's own code in the loaded image: its preamble and postamble,
	// counted and timed apart from the NEFF's instructions.
	Runtime RuntimeCode `json:"runtime"`
	// Untimed lists the instructions without a row and why (at most untimedListed).
	Untimed []Untimed `json:"untimed,omitempty"`
	// NEFFInstructions, for a profile read alone, is the NEFF instruction count the image's
	// edit list implies: program words − inserted + removed (spec ntff.md §4.5).
	NEFFInstructions int `json:"neff_instructions,omitempty"`
}

// MeasuredRow is one instruction's measured time: its first word's start and its last word's
// end, absolute picoseconds.
type MeasuredRow struct {
	Index   int32  `json:"index"`
	StartPS uint64 `json:"start_ps"`
	EndPS   uint64 `json:"end_ps"`
}

// DMAQueue is one DMA queue's measured traffic.
type DMAQueue struct {
	Queue   string  `json:"queue"`
	Packets int64   `json:"packets"`
	Bytes   int64   `json:"bytes"`
	BusyPS  uint64  `json:"busy_ps"`
	GBps    float64 `json:"gb_per_s"`

	// Index is the queue index the TRACE_DMA records carry; DMAEngines how many DMA engines
	// carried its packets; FirstPS and LastPS its first packet's start and last one's end;
	// Sizes its packets by size (bytes -1: sizes past the ones counted).
	Index      uint64       `json:"index"`
	DMAEngines int          `json:"dma_engines"`
	FirstPS    uint64       `json:"first_ps"`
	LastPS     uint64       `json:"last_ps"`
	Sizes      []PacketSize `json:"packet_sizes"`
	// BusyCut says the busy time is a lower bound (the memory budget stopped the union).
	BusyCut bool `json:"busy_cut,omitempty"`
}

// Checks are the consistency checks of the profile against the static sync model: per wait
// band with an engine producer, whether the producer's last end is at or before the waiter's
// first start (in order), inside the waiter's interval (met inside: the waiter's start record
// precedes the band's resolution), or after it ends (violated: the device disagrees with the
// model).
type Checks struct {
	WaitsInOrder   int `json:"waits_in_order"`
	WaitsMetInside int `json:"waits_met_inside"`
	WaitsViolated  int `json:"waits_violated"`

	// Beyond the contract: the other consistency checks of spec ntff.md §5 (checks.go).
	WaitsUntimed int             `json:"waits_untimed"`
	Violations   []WaitCheck     `json:"violations,omitempty"`
	MetInside    []WaitCheck     `json:"met_inside,omitempty"`
	DMAWaits     DMAWaitsCheck   `json:"dma_waits"`
	Semaphores   SemaphoresCheck `json:"semaphores"`
	DMABytes     []DMABytesCheck `json:"dma_bytes,omitempty"`
	Window       WindowCheck     `json:"window"`
	Image        ImageCheck      `json:"image"`
	Quanta       []QuantaCheck   `json:"quanta,omitempty"`
}

// Estimated is what the cost model says, from the NEFF alone.
type Estimated struct {
	Cores []EstimatedCore `json:"cores"`
	Model ModelInfo       `json:"model"`
}

// EstimatedCore is one core's estimated schedule. SpanPS is the estimated end of the core's
// last NEFF instruction minus the start of its first; CriticalPath lists, in order, the
// instructions whose chain sets it.
type EstimatedCore struct {
	Core         string            `json:"core"`
	SpanPS       int64             `json:"span_ps"`
	Unmodelled   Unmodelled        `json:"unmodelled"`
	Engines      []EstimatedEngine `json:"engines"`
	CriticalPath []Ref             `json:"critical_path"`
}

// Unmodelled counts what the estimate of a core could not model: waits it could not tie to a
// producer (they hold nothing back, so the times after them are a floor), instructions costed
// by their engine's default row, instructions that never run (behind a deadlock), DMA
// triggers whose transfer it could not size. OrderUnknown: the sync model could not follow
// the program order, so no wait holds anything back.
type Unmodelled struct {
	Waits    int `json:"waits"`
	Uncosted int `json:"uncosted"`
	// UncostedOps counts them by engine and opcode name ("DVE TensorScalarPtrArithOp").
	UncostedOps  map[string]int `json:"uncosted_ops,omitempty"`
	NeverRun     int            `json:"never_run"`
	DMAUnsized   int            `json:"dma_unsized"`
	OrderUnknown bool           `json:"order_unknown"`
	// Limit: the memory budget refused the core's tables; it is not estimated.
	Limit bool `json:"limit,omitempty"`
}

// EstimatedEngine is one engine's estimated rows; BusyPS as in MeasuredEngine, over the
// estimated intervals.
// IdlePS is the rest of the core's span, and Idle says what the engine stood idle for,
// largest first (IdleCause).
type EstimatedEngine struct {
	Engine string         `json:"engine"`
	BusyPS int64          `json:"busy_ps"`
	IdlePS int64          `json:"idle_ps"`
	Idle   []IdleCause    `json:"idle"`
	Rows   []EstimatedRow `json:"rows"`
	// RowErrors, with a profile of the NEFF, is how the rows' errors are distributed.
	RowErrors *EngineRowErrors `json:"row_errors,omitempty"`
}

// EstimatedRow is one instruction's estimated time, picoseconds from the core's start, and
// why it started when it did.
type EstimatedRow struct {
	Index   int32  `json:"index"`
	StartPS int64  `json:"start_ps"`
	EndPS   int64  `json:"end_ps"`
	Waited  Waited `json:"waited"`
	// Error, with a profile of the NEFF, is the row's error against its measured time.
	Error *RowError `json:"error,omitempty"`
}

// The reasons an instruction started when it did.
const (
	WaitedSemaphore = "semaphore" // on a semaphore: Producer is the instruction that satisfied it
	WaitedDMA       = "dma"       // on a DMA transfer: DMA is its queue, Producer its trigger
	WaitedEngine    = "engine"    // on its own engine, busy with the instruction before it
	WaitedNone      = "none"
)

// Waited says why an instruction started when it did and for how long it waited.
type Waited struct {
	Reason   string `json:"reason"`
	Producer *Ref   `json:"producer,omitempty"`
	DMA      string `json:"dma,omitempty"`
	PS       int64  `json:"ps"`
}

// ModelInfo says what the estimate was calibrated on and its error where it was validated
// against a measured profile: a fraction (0.12 is 12 %) of the measured value.
type ModelInfo struct {
	CalibratedOn []string   `json:"calibrated_on"`
	Error        ModelError `json:"error"`
	// Target is the chip whose clocks the costs ran at; NotCovered what the model leaves out,
	// said beside every estimate.
	Target     string   `json:"target"`
	NotCovered []string `json:"not_covered"`
}

// ModelError is the estimate's measured error: of the span of sg00 and of each engine's busy
// time (the largest over the kernels it was validated on, each predicted by the model fitted
// on the others), and Attributed, the smallest share of the waits the device showed blocked
// on another engine or a DMA that the estimate blamed on that producer. ValidatedOn names the
// kernels and Method how the figures were made; PerKernel has each kernel's figures.
type ModelError struct {
	Span        float64            `json:"span"`
	Busy        map[string]float64 `json:"busy"`
	Attributed  float64            `json:"attributed"`
	ValidatedOn []string           `json:"validated_on"`
	Method      string             `json:"method"`
	PerKernel   []KernelError      `json:"per_kernel"`
}

// KernelError is the estimate's error on one validation kernel (signed: estimate − measured,
// over measured).
type KernelError struct {
	Kernel     string             `json:"kernel"`
	Span       float64            `json:"span"`
	Busy       map[string]float64 `json:"busy"`
	Attributed float64            `json:"attributed"`
}
