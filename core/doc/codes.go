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

	// Issue 30: hostile containers, member trees and manifests.
	CodeTarPathDepth         Code = "tar.path-depth"
	CodeManifestTooManyCores Code = "manifest.too-many-cores"

	// Issue 30: these are also declared by the s15-codes branch (issue 27) with the same
	// names and meanings; at its merge keep one copy.
	CodeTarLoneZeroBlock      Code = "tar.lone-zero-block"
	CodeTarBadPax             Code = "tar.bad-pax"
	CodeTarNotFile            Code = "tar.not-file"
	CodeManifestMissingMember Code = "manifest.missing-member"
	CodeManifestUnknownSet    Code = "manifest.unknown-set"
	CodePwpMissingFile        Code = "pwp.missing-file"
)

// Codes is every finding code, with its meaning. `neffscope codes` prints it; a test checks
// that every code a document carries is here.
var Codes = []CodeInfo{
	// Issue 30: hostile containers, member trees and manifests.
	{CodeTarPathDepth, "a member's path nests deeper than the member tree builds folders (neff.MaxPathDepth); it is listed under members by its full name"},
	{CodeManifestTooManyCores, "the manifests name more cores than the open's budget lets the model hold; the cores past the limit are not resolved"},

	// Issue 30: also rows of the s15-codes branch (issue 27); at its merge keep one copy.
	{CodeTarLoneZeroBlock, "a lone zero block is followed by more tar headers: GNU tar ends the archive there, libarchive reads on"},
	{CodeTarBadPax, "a pax extended header is malformed or has an unreadable size record"},
	{CodeTarNotFile, "a tar entry is a link, device or FIFO, not a file; NEFF loaders ignore it"},
	{CodeManifestMissingMember, "a manifest names a member the NEFF does not have"},
	{CodeManifestUnknownSet, "an engine JSON lists an activation set its act_info.json roster does not have"},
	{CodePwpMissingFile, "an activation set an engine JSON loads has no profile among the files"},
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
