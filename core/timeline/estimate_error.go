package timeline

// What the model leaves out: said beside every estimate (ModelInfo.NotCovered).
var NotCovered = []string{
	"collectives (the time of a collective and its peers is not modelled)",
	"HBM contention and other traffic on the device",
	"the second core of an LNC 2 pair: each core is estimated alone",
	"runtime builds other than the one profiled (2.30.51); the runtime's preamble and postamble",
	"targets other than trn2: Trn1 costs are Trn2's cycles at Trn1's documented clocks",
}

// Validation is the model's measured error, from the leave-one-out run that
// docs/estimate.md records (command, commit, date): each kernel predicted by the model
// fitted on the others. Users do not have the profiles, so it is data, not computed.
var Validation = ModelError{}

// CalibratedOn are the device profiles the cost table was fitted on.
var CalibratedOn = []string{}

// Model is the model's description for an estimate at a target.
func Model(target string) ModelInfo {
	return ModelInfo{CalibratedOn: CalibratedOn, Error: Validation, Target: target, NotCovered: NotCovered}
}
