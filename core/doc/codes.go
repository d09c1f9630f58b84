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

	// issue 30: budgets
	CodeDbgWireType    Code = "dbg.wire-type"
	CodeDbgUTF8        Code = "dbg.utf8"
	CodeDbgPackedCut   Code = "dbg.packed-cut"
	CodeDbgNamesLimit  Code = "dbg.names-limit"
	CodeDbgAttrsLimit  Code = "dbg.attrs-limit"
	CodeDbgRecordAttrs Code = "dbg.record-attrs-limit"
	CodeISALoadsLimit  Code = "isa.table-loads-limit"
	CodeNcfwReadLimit  Code = "ncfw.read-limit"
)

// Codes is every finding code, with its meaning. `neffscope codes` prints it; a test checks
// that every code a document carries is here.
var Codes = []CodeInfo{
	// issue 30: budgets
	{CodeDbgWireType, "a .dbg field's wire type is not the one the shape table reads it as: shown generically (the first few are listed, then one finding counts the rest)"},
	{CodeDbgUTF8, "a .dbg string is not valid UTF-8: shown with replacement characters (the first few are listed, then one finding counts the rest)"},
	{CodeDbgPackedCut, "a .dbg packed varint list ends in a cut-off varint (the first few are listed, then one finding counts the rest)"},
	{CodeDbgNamesLimit, "a .dbg member lists more kernel files, kernel names or stack-frame names than are kept: the rest are counted, and indexes into them do not resolve"},
	{CodeDbgAttrsLimit, "a .dbg member's records carry more distinct kernel attribute sets than are kept: the records past the limit have no source line"},
	{CodeDbgRecordAttrs, "a .dbg record carries more attributes than are kept per record: the rest are counted, not kept"},
	{CodeISALoadsLimit, "a stream has more ActivationTableLoad words than are indexed one by one: past the limit only changes of set are kept, and past the budget none (the words after it have no resident set)"},
	{CodeNcfwReadLimit, "an ncfw dump holds more entries than are read: the rest are counted, not decoded"},
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
