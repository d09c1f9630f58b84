package timeline

// What the model leaves out: said beside every estimate (ModelInfo.NotCovered).
var NotCovered = []string{
	"collectives (the time of a collective and its peers is not modelled)",
	"HBM contention and other traffic on the device",
	"the second core of an LNC 2 pair: each core is estimated alone",
	"runtime builds other than the one profiled (2.30.51); the runtime's preamble and postamble",
	"targets other than trn2: Trn1 costs are Trn2's cycles at Trn1's documented clocks",
	"semaphore updates that land late: on the profiled device some PE and DVE updates land up to 22 µs after their instruction ends (why: unknown); the estimate lands them at once, so an instruction waiting on one may start early",
	"when Pool's DMA descriptor generator slows down: the device starts its triggers ~1.4 µs apart for 4–25 triggers at a time, for a reason its records do not show; when and for how long is fitted on two kernels, so single triggers can be off by microseconds",
}

// Validation is the model's measured error, from the leave-one-out run that
// docs/estimate.md records (command, commit, date): each kernel predicted by the model
// fitted on the others. Users do not have the profiles, so it is data, not computed.
var Validation = ModelError{
	Span: 0.120, Busy: map[string]float64{"PE": 0.196, "Activation": 0.062, "Pool": 0.088, "DVE": 0.036, "SP": 0.239}, Attributed: 0.858,
	ValidatedOn: CalibratedOn,
	Method: "leave-one-out on sg00 of four kernels profiled on trn2.3xlarge with runtime 2.30.51 (attn_v6 from its NEFF, the others from the images their profiles carry): " +
		"each predicted by the model fitted on the other three (every fitted figure, the DGE's and the dynamic DMA's trigger latency included, refitted per fold); " +
		"span = the core's first start to last end; busy = the union of each engine's instruction intervals; " +
		"attributed = the share of the waits the device shows blocked on another engine that the estimate blames on that producer. Figures are the largest |error| over the four " +
		"(signed per kernel in per_kernel). The four are versions of one decode-shaped attention kernel: read the figures as the error on kernels like them",
	PerKernel: []KernelError{
		{Kernel: "attn_v6", Span: 0.057, Busy: map[string]float64{"PE": 0.030, "Activation": 0.044, "Pool": -0.060, "DVE": -0.003, "SP": 0.016}, Attributed: 0.920},
		{Kernel: "attn_v4_new", Span: 0.120, Busy: map[string]float64{"PE": 0.196, "Activation": 0.060, "Pool": 0.088, "DVE": 0.026, "SP": 0.048}, Attributed: 0.975},
		{Kernel: "attn_v5_new", Span: 0.002, Busy: map[string]float64{"PE": 0.067, "Activation": 0.051, "Pool": 0.037, "DVE": -0.036, "SP": -0.239}, Attributed: 0.858},
		{Kernel: "v2_new", Span: 0.052, Busy: map[string]float64{"PE": 0.044, "Activation": 0.062, "Pool": 0.046, "DVE": -0.019, "SP": -0.047}, Attributed: 0.933},
	},
}

// CalibratedOn are the device profiles the cost table was fitted on (TestCostTableIsTheFit).
var CalibratedOn = []string{"attn_v4_new", "attn_v5_new", "attn_v6", "v2_new"}

// Model is the model's description for an estimate at a target.
func Model(target string) ModelInfo {
	return ModelInfo{CalibratedOn: CalibratedOn, Error: Validation, Target: target, NotCovered: NotCovered}
}
