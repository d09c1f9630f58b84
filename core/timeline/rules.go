package timeline

// Knowledge the join relies on that may be corrected, as data: how the runtime lowers a NEFF
// pseudo-instruction into the words it runs, and each engine's clock.

// lowering is one rule of how the runtime lowers a NEFF word into the words of the loaded
// image (spec ntff.md §4.2). Runs are the opcodes of the image words, in order (none: the word
// runs as nothing); a word without a rule runs as itself, byte for byte.
type lowering struct {
	Op uint8
	// WithExtension: a PseudoDmaDirect2d followed by its 0xDA second word (isa PartOf).
	WithExtension bool
	Runs          []uint8
	// Inserted: the edit list marks the first run word as inserted (kind 0); Removed: it
	// marks the word's position as removed (kind 2).
	Inserted, Removed bool
	Confidence        string
	Evidence          string
}

var lowerings = [...]lowering{
	{Op: 0xCC, Removed: true, Confidence: "high",
		Evidence: "spec ntff.md §4.2: the PseudoBranchLabel at index 1 of each of attn_v6's 10 streams, each a kind-2 entry of the edit list"},
	{Op: 0xDA, Confidence: "medium",
		Evidence: "spec ntff.md §4.2 [OTHER]: a lone PseudoExtension runs as nothing (none in the shared captures)"},
	{Op: 0xC1, Runs: []uint8{0xA5, 0xA5}, Inserted: true, Confidence: "high",
		Evidence: "spec ntff.md §2.4, §4.2: attn_v6's 20 DVE PseudoDMATriggers; on every capture the inserted entries count each engine's 0xC1 words"},
	{Op: 0xCE, Runs: []uint8{0xAA}, Confidence: "medium",
		Evidence: "spec ntff.md §4.2 [OTHER] (none in the shared captures)"},
	{Op: 0xD4, Runs: []uint8{0xB8}, Confidence: "high",
		Evidence: "spec ntff.md §4.2: attn_v6's 344 PseudoDmaDirect2d (Pool 324, SP 20)"},
	{Op: 0xD4, WithExtension: true, Runs: []uint8{0xA7, 0xB8}, Confidence: "medium",
		Evidence: "spec ntff.md §4.2 [OTHER]: 0xA7 Move + 0xB8; both image words are the 0xD4's row, the 0xDA has none (none in the shared captures)"},
}

// lowerOf is the rule for word op (ext: it is a 0xD4 whose next word is its 0xDA), nil when
// the word runs as itself.
func lowerOf(op uint8, ext bool) *lowering {
	for i := range lowerings {
		if l := &lowerings[i]; l.Op == op && l.WithExtension == ext {
			return l
		}
	}
	return nil
}

// clock is an engine's clock on a chip: an instruction lasts a whole number of its cycles.
type clock struct {
	Chip, Engine string
	Hz           float64
	Confidence   string
	Evidence     string
}

// clocks are the engine clocks the profiles' durations quantize at (spec ntff.md §3.1, §6.3).
// Chips are named as the NTFF's instance type starts (trn2.3xlarge → trn2).
var clocks = [...]clock{
	{"trn2", "PE", 1.2e9, "medium", "spec ntff.md §3.1: 817 of attn_v6 sg00's 820 PE durations are multiples of 833.33 ps; the documented Tensor clock is 2.4 GHz (why: unknown)"},
	{"trn2", "Activation", 1.2e9, "high", "spec ntff.md §3.1: 176 of 178 durations; Scalar 1.2 GHz (nki/guides/architecture/trainium2_arch.rst)"},
	{"trn2", "Pool", 1.2e9, "high", "spec ntff.md §3.1: 367 of 367 durations; GpSimd 1.2 GHz (trainium2_arch.rst)"},
	{"trn2", "DVE", 0.96e9, "high", "spec ntff.md §3.1: 718 of 719 durations are multiples of 1,041.67 ps; Vector 0.96 GHz (trainium2_arch.rst)"},
	{"trn2", "SP", 1.2e9, "high", "spec ntff.md §3.1: 49 of 50 durations"},
}

// clockOf is the clock of engine on chip (nil when not known).
func clockOf(chip, engine string) *clock {
	for i := range clocks {
		if clocks[i].Chip == chip && clocks[i].Engine == engine {
			return &clocks[i]
		}
	}
	return nil
}

// quantumSlack is how far (ps) a duration may be from a whole number of cycles (spec ntff.md §5
// check 9: ±3 ps).
const quantumSlack = 3
