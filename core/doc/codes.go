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

	// Output (issue 30).
	CodeInvalidUTF8 Code = "text.invalid-utf8" // a name the file holds is not UTF-8
)

// Codes is every finding code, with its meaning. `neffscope codes` prints it; a test checks
// that every code a document carries is here.
var Codes = []CodeInfo{
	// Output (issue 30).
	{CodeInvalidUTF8, "a name the file holds (a member path, the header's name) is not valid UTF-8: JSON shows each bad byte as U+FFFD, text as \\xNN, so a path printed may not be the member's bytes"},
}

// Meaning returns the code's row, or false for a code not in the table.
func Meaning(c Code) (CodeInfo, bool) {
	for _, r := range Codes {
		if r.Code == c {
			return r, true
		}
	}
	return CodeInfo{}, false
}
