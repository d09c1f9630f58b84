package timeline

// Knowledge the join relies on that may be corrected, as data: how the runtime lowers a NEFF
// pseudo-instruction into the words it runs (each engine's clock is the cost model's table,
// costs.go).

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

// clockOf is the clock of engine on chip (an instance type's family: trn2), from the one clock
// table the cost model runs at (costs.go Clocks); nil when not known.
func clockOf(chip, engine string) *Clock {
	for i := range Clocks {
		if c := &Clocks[i]; c.Target == chipTargets[chip] && c.Engine == engine {
			return c
		}
	}
	return nil
}

// chipTargets maps an instance type's family to the kelf target of the NEFFs it runs (neff.md:
// cayman is Trn2, sunda Trn1 and Inf2).
var chipTargets = map[string]string{"trn2": "cayman", "trn1": "sunda", "inf2": "sunda"}

// quantumSlack is how far (ps) a duration may be from a whole number of cycles (spec ntff.md §5
// check 9: ±3 ps).
const quantumSlack = 3
