package doc

import "testing"

// TestIsLimit: the codes that say a limit stopped something, and some that do not.
func TestIsLimit(t *testing.T) {
	for _, c := range []Code{CodeBudgetMemory, CodeBudgetSkipped, CodeTarPathDepth, CodeTarTooManyMembers, CodeNeffInflateLimit,
		CodeDbgNamesLimit, CodeDbgAttrsLimit, CodeISALoadsLimit, CodeManifestTooManyCores, CodeCoverageWordLimit, CodeMemoryOverflow,
		CodeDiffListCut, "output.cap", "zip.bomb", "zip.overlap", "zip.directory"} {
		if !IsLimit(c) {
			t.Errorf("%s is not a limit", c)
		}
	}
	for _, c := range []Code{CodeTarBadPax, CodeTarNotFile, CodeNeffTruncated, CodeManifestMissingMember, "zip.damaged", CodeJSONSyntax} {
		if IsLimit(c) {
			t.Errorf("%s is a limit", c)
		}
	}
}
