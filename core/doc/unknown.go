package doc

// Unknown is one point the spec marks unknown, inferred or defaulted, with the assumption the
// code makes about it. Every artifact package keeps its own list (a var named Unknowns in a file
// unknowns.go); core/inspect joins them into the one table the CLI (`neffscope unknowns`) and the
// page show. The code that depends on an assumption names its ID, so correcting an assumption is
// a change of data, not of decoder logic.
type Unknown struct {
	ID         string `msg:"id" json:"id"`           // short stable name, e.g. "neff.hash-word-order"
	Spec       string `msg:"spec" json:"spec"`       // where the spec discusses it, e.g. "neff.md §1.1, §7.3"
	Question   string `msg:"q" json:"question"`      // what is not known
	Assumption string `msg:"a" json:"assumption"`    // what the code does meanwhile
	Confidence string `msg:"conf" json:"confidence"` // high / medium / low
}
