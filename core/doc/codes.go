package doc

// CodeInfo is one row of the code table: the code and what it means.
type CodeInfo struct {
	Code    Code
	Meaning string
}

// The codes every package may give. A package's own codes are constants beside the code
// that gives them and rows of this one table (Codes), so one list says what each means.
const (
	CodeUncoded Code = "" // a finding made before codes existed; none should remain
)

// Codes is every finding code, with its meaning. `neffscope codes` prints it; a test checks
// that every code a document carries is here.
var Codes = []CodeInfo{}

// Meaning returns the code's row, or false for a code not in the table.
func Meaning(c Code) (CodeInfo, bool) {
	for _, r := range Codes {
		if r.Code == c {
			return r, true
		}
	}
	return CodeInfo{}, false
}
