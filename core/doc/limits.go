package doc

import "strings"

// IsLimit reports whether a finding of code c says that a limit stopped something: a limit of
// the open's budget (budget.*), a decoder's or a command's own bound (a code naming a limit,
// "too-many", the tar path depth, the output cap), a zip bomb guard, an overflowing sum. What
// was read, decoded or printed past it is missing, so every command relays these findings
// (cmd/neffscope's relayLimits) and the hostile sweep checks that a run names one.
func IsLimit(c Code) bool {
	s := string(c)
	switch {
	case strings.HasPrefix(s, "budget."):
		return true
	case c == "output.cap", c == "zip.bomb", c == "zip.overlap", c == "zip.directory", c == CodeMemoryOverflow, c == CodeDiffListCut:
		return true
	}
	return strings.Contains(s, "limit") || strings.Contains(s, "too-many") || strings.Contains(s, "path-depth")
}
