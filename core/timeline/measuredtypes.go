package timeline

// The measured part's own shapes beyond the contract (report.go). Every figure is read off the
// profile's records (core/ntff) or joined from the NEFF; spec ntff.md is the evidence of each
// reading, and checks.go says how each check is computed.

// ProfileInfo says which capture a measurement comes from (the NTFF header, spec ntff.md §2.1).
type ProfileInfo struct {
	File         string `json:"file"`
	Version      int    `json:"version"`
	Runtime      string `json:"runtime,omitempty"`
	InstanceType string `json:"instance_type,omitempty"`
	NEFFName     string `json:"neff_name,omitempty"`
	NEFFUUID     string `json:"neff_uuid,omitempty"`
}

// LineTime is one kernel source line (the NEFF's .dbg lines, as `profile --by-line` joins them)
// with the measured time of its instructions: TimePS sums their durations (first word's start
// to last word's end), per engine too, so pipelined instructions each count whole.
type LineTime struct {
	File         string            `json:"file"`
	Line         int               `json:"line"`
	Kernel       string            `json:"kernel,omitempty"`
	Instructions int               `json:"instructions"`
	Timed        int               `json:"timed"`
	TimePS       uint64            `json:"time_ps"`
	PerEngine    map[string]uint64 `json:"per_engine_ps"`
}

// Name is the line as listings name it: "v6_ultimate.py:278".
func (l *LineTime) Name() string {
	f := l.File
	for i := len(f) - 1; i >= 0; i-- {
		if f[i] == '/' {
			f = f[i+1:]
			break
		}
	}
	if f == "" {
		f = "?"
	}
	return f + ":" + itoa(int64(l.Line))
}

// SemaphoreSeries is one semaphore's recorded values over time (NOTIFY, spec ntff.md §3.3):
// Points are (absolute ps, value). Records are lossy (§4.4): Records is not an update count.
// StaticTotal is what the NEFF's updates add up to (core/sched), when the NEFF is known.
type SemaphoreSeries struct {
	Semaphore   int         `json:"semaphore"`
	Source      string      `json:"source"`
	Peak        uint32      `json:"peak"`
	Records     int64       `json:"records"`
	StaticTotal *uint64     `json:"static_total,omitempty"`
	Points      [][2]uint64 `json:"points"`
	Cut         bool        `json:"cut,omitempty"`
}

// Gap is an idle stretch of an engine between two of its words, absolute ps.
type Gap struct {
	StartPS uint64 `json:"start_ps"`
	EndPS   uint64 `json:"end_ps"`
}

// RuntimeCode is the runtime's own words in an engine's loaded image (spec ntff.md §2.4, §4.2):
// the preamble before the NEFF's first instruction, the postamble after its last, and the
// words it inserted (the first word of each lowered PseudoDMATrigger, which belongs to that
// instruction's row). Traced counts the preamble and postamble words with a start and an end
// (the preamble is traced only in part, §3.2); BusyPS is the union of their intervals.
type RuntimeCode struct {
	PreambleWords  int    `json:"preamble_words"`
	PostambleWords int    `json:"postamble_words"`
	InsertedWords  int    `json:"inserted_words"`
	Traced         int    `json:"traced"`
	BusyPS         uint64 `json:"busy_ps"`
}

// Untimed is an instruction without a row, and why.
type Untimed struct {
	Index  int32  `json:"index"`
	Reason string `json:"reason"`
}

// The reasons an instruction has no row.
const (
	UntimedDropped  = "dropped by the runtime (it runs as no word)"
	UntimedNoRecord = "its words have no start and end record"
	UntimedUnjoined = "its words are not joined (the image differs from the NEFF stream before it)"
)

// untimedListed bounds the untimed instructions an engine lists.
const untimedListed = 1000

// PacketSize counts a queue's packets of one size.
type PacketSize struct {
	Bytes   int64 `json:"bytes"`
	Packets int64 `json:"packets"`
}

// WaitCheck is one engine→engine wait whose producer did not end before the waiter started.
type WaitCheck struct {
	Core          string `json:"core"`
	Waiter        Ref    `json:"waiter"`
	Producer      Ref    `json:"producer"`
	Semaphore     int32  `json:"semaphore"`
	Value         uint32 `json:"value"`
	ProducerEndPS uint64 `json:"producer_end_ps"`
	WaiterStartPS uint64 `json:"waiter_start_ps"`
	WaiterEndPS   uint64 `json:"waiter_end_ps"`
}

// DMAWaitsCheck is spec ntff.md §5 check 7: per wait whose producer is a DMA transfer, a
// recorded value at or above the wait's at or before the waiter's start confirms it; a value
// below it recorded after the start contradicts it; neither leaves it undecidable (records are
// lossy).
type DMAWaitsCheck struct {
	Waits        int `json:"waits"`
	Confirmed    int `json:"confirmed"`
	Undecidable  int `json:"undecidable"`
	Contradicted int `json:"contradicted"`
}

// SemaphoresCheck is check 6: per semaphore the NEFF updates, its peak recorded value against
// the static total of its updates.
type SemaphoresCheck struct {
	Checked int             `json:"checked"`
	Exact   int             `json:"exact"`
	Misses  []SemaphoreMiss `json:"misses,omitempty"`
}

// SemaphoreMiss is a semaphore whose peak differs from its static total. DMA says every update
// is a DMA completion (those read short when records are lost); MaxWait is the largest value
// a wait asks of it, which the completed run must have reached.
type SemaphoreMiss struct {
	Core      string `json:"core"`
	Semaphore int32  `json:"semaphore"`
	Static    uint64 `json:"static_total"`
	Peak      uint32 `json:"peak"`
	Records   int64  `json:"records"`
	DMA       bool   `json:"dma"`
	MaxWait   uint32 `json:"max_wait"`
}

// DMABytesCheck is check 8: a queue's measured bytes against what the program moves plus 64 B
// per DMA (16 four-byte semaphore writes, one per DMA engine).
type DMABytesCheck struct {
	Core     string `json:"core"`
	Queue    string `json:"queue"`
	Measured int64  `json:"measured"`
	Program  int64  `json:"program"`
	DMAs     int64  `json:"dmas"`
	Expected int64  `json:"expected"`
	Exact    bool   `json:"exact"`
}

// WindowCheck is checks 1 and 2: the window against the first core's execution time, and per
// core its program words' records against the window.
type WindowCheck struct {
	WindowPS uint64          `json:"window_ps"`
	ExecPS   uint64          `json:"exec_ps"`
	Equal    bool            `json:"equal"`
	Cores    []ProgramWindow `json:"cores,omitempty"`
}

// ProgramWindow is where a core's program words (not the runtime's) ran: the first start and
// the last end, as offsets (ps) from the window's start.
type ProgramWindow struct {
	Core   string `json:"core"`
	FromPS int64  `json:"from_ps"`
	ToPS   int64  `json:"to_ps"`
	Inside bool   `json:"inside"`
}

// ImageCheck is check 4: the loaded images against the NEFF streams, word for word (pseudo
// instructions by their lowering rules).
type ImageCheck struct {
	Streams    int `json:"streams"`
	Joined     int `json:"joined"`
	Words      int `json:"words"`
	Mismatched int `json:"mismatched"`
}

// QuantaCheck is check 9: how many traced words of an engine last a whole number of its clock's
// cycles (±3 ps).
type QuantaCheck struct {
	Core       string  `json:"core"`
	Engine     string  `json:"engine"`
	QuantumPS  float64 `json:"quantum_ps"`
	Words      int     `json:"words"`
	OnQuantum  int     `json:"on_quantum"`
	Confidence string  `json:"confidence"`
}
