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
var Codes = []CodeInfo{
	// zip (core/zipneff) and the host's files (cmd/neffscope: extract-neff, scan, output caps)
	{"zip.directory", "the zip's central directory is past zipneff.Limits.MaxDirectory: the zip is not read"},
	{"zip.bomb", "a deflated zip entry declares more than MaxEntrySize bytes or inflates past MaxRatio: not inflated"},
	{"zip.overlap", "zip entries whose bytes overlap another entry's (one entry's data named many times): refused"},
	{"zip.damaged", "a zip entry that starts with a NEFF header could not be read to the end of its payload"},
	{"extract.exists", "extract-neff's output file exists: not overwritten without --force"},
	{"scan.not-regular", "scan found, or was handed at read time, something that is not a regular file (FIFO, device, socket): not read"},
	{"scan.unreadable", "scan could not open, stat or read a path"},
	{"scan.seen", "scan reached a file or directory it had already visited through another symlink: not read again"},
	{"scan.symlink", "scan met a symlink and --follow was not given: not followed"},
	{"output.cap", "the output reached --max-output bytes and stopped there (0 lifts the cap)"},
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
