package fleet

import (
	"fmt"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// NEFFVerdict is what two cache entries' NEFFs say about a recompile: the same program
// compiled twice, or another one.
type NEFFVerdict struct {
	Code    doc.Code `json:"code"`
	Summary string   `json:"summary"`
	// Streams counts the engine instruction streams compared; StreamsDiffer lists those that
	// differ (or are in one NEFF only), with their instruction counts.
	Streams       int      `json:"streams"`
	StreamsDiffer []string `json:"streams_differ"`
	// MembersDiffer lists the other members that differ (names, debug info, …), at most 20.
	MembersDiffer []string `json:"members_differ"`
	CompilerA     string   `json:"compiler_a"`
	CompilerB     string   `json:"compiler_b"`
}

// SpuriousFix says how to stop a recompile whose only cause is a temporary path in the HLO.
// What makes the NKI frontend write the kernel binary to a temporary path, and whether a
// setting changes that, is not known (unknowns hlo.klir-path): the advice says so.
const SpuriousFix = "What would stop it is a kernel binary path that stays the same from one trace to the next; no compiler flag changes the key while it does not (what sets the path is not known: see neffscope unknowns hlo.klir-path). Until then keep and load the compiled artifact itself (the NEFF, or the traced model) instead of relying on the compile cache across processes, and prune these entries: no later process will hit them."

// CompareEntryNEFFs compares the NEFFs of two cache entries: the same program when every
// engine instruction stream is byte-identical (the members that carry the compile's name and
// paths may differ), another program when any stream differs. a or b nil: not there.
func CompareEntryNEFFs(a, b *inspect.File) *NEFFVerdict {
	v := &NEFFVerdict{StreamsDiffer: []string{}, MembersDiffer: []string{}}
	if a == nil || b == nil || a.Archive == nil || b.Archive == nil || a.Program == nil || b.Program == nil {
		v.Code = doc.CodeHLONEFFMissing
		v.Summary = "the NEFFs are not both there (or do not read as NEFFs), so whether the kernel changed cannot be told"
		return v
	}
	if a.Program.Model.Info != nil {
		v.CompilerA = a.Program.Model.Info.ToolVersion
	}
	if b.Program.Model.Info != nil {
		v.CompilerB = b.Program.Model.Info.ToolVersion
	}
	ca, cb := programCounts(a.Program), programCounts(b.Program)
	streams := map[string]bool{}
	for m := range ca {
		streams[m] = true
	}
	for m := range cb {
		streams[m] = true
	}
	names := sortedKeys(streams)
	v.Streams = len(names)
	unknown := 0
	for _, m := range names {
		ma, mb := a.Archive.Member(m), b.Archive.Member(m)
		switch {
		case ma == nil || mb == nil || ca[m] == nil || cb[m] == nil:
			v.StreamsDiffer = append(v.StreamsDiffer, m+" (in one NEFF only)")
		case ma.SHA256 == "" || mb.SHA256 == "":
			unknown++
		case ma.SHA256 != mb.SHA256:
			v.StreamsDiffer = append(v.StreamsDiffer, fmt.Sprintf("%s (%d → %d instructions)", m, ca[m].count, cb[m].count))
		}
	}
	other := map[string]bool{}
	for _, m := range a.Archive.Members {
		if !streams[m.Path] {
			if mb := b.Archive.Member(m.Path); mb == nil || mb.SHA256 != m.SHA256 {
				other[m.Path] = true
			}
		}
	}
	for _, m := range b.Archive.Members {
		if !streams[m.Path] && a.Archive.Member(m.Path) == nil {
			other[m.Path] = true
		}
	}
	for i, m := range sortedKeys(other) {
		if i == 20 {
			v.MembersDiffer = append(v.MembersDiffer, fmt.Sprintf("… %d more", len(other)-20))
			break
		}
		v.MembersDiffer = append(v.MembersDiffer, m)
	}
	compilers := ""
	if v.CompilerA != v.CompilerB {
		compilers = fmt.Sprintf("; the compilers differ too (%s → %s)", v.CompilerA, v.CompilerB)
	}
	switch {
	case len(v.StreamsDiffer) > 0:
		v.Code = doc.CodeHLONEFFChanged
		v.Summary = fmt.Sprintf("the NEFFs hold different programs: %d of %d engine instruction streams differ (%s)%s: the kernel changed, not just its path",
			len(v.StreamsDiffer), v.Streams, strings.Join(first(v.StreamsDiffer, 3), "; "), compilers)
	case unknown > 0 || v.Streams == 0:
		v.Code = doc.CodeHLONEFFMissing
		v.Summary = fmt.Sprintf("the NEFFs' engine streams could not all be compared (%d of %d unread), so whether the kernel changed cannot be told", unknown, v.Streams)
	default:
		v.Code = doc.CodeHLONEFFSame
		v.Summary = fmt.Sprintf("the NEFFs hold the same program: all %d engine instruction streams are byte-identical", v.Streams)
		if len(v.MembersDiffer) > 0 {
			v.Summary += fmt.Sprintf(" (%d other members differ: %s)", len(other), strings.Join(first(v.MembersDiffer, 4), ", "))
		}
		v.Summary += compilers + ". The same kernel was compiled twice: a spurious recompile."
	}
	return v
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(append([]string{}, s[:n]...), fmt.Sprintf("… %d more", len(s)-n))
	}
	return s
}

// WithNEFF records what the entries' NEFFs say and adds it to the summary: a temporary-path
// difference is a spurious recompile when the programs are the same, a kernel change when not.
func (d *HLODiff) WithNEFF(v *NEFFVerdict) {
	d.NEFF = v
	if v == nil {
		return
	}
	s := strings.TrimSuffix(d.Summary, ".")
	if v.Code != doc.CodeHLONEFFMissing {
		if i := strings.Index(s, "; whether the kernel changed cannot be told from the graph"); i >= 0 {
			s = s[:i]
		}
	}
	d.GraphSummary = s
	d.Summary = s + ". NEFFs: " + v.Summary
	if v.Code == doc.CodeHLONEFFSame && (d.Verdict == doc.CodeHLOVolatileOnly || d.Verdict == doc.CodeHLOMetadataOnly) {
		d.Summary += " " + SpuriousFix
		d.Fix = SpuriousFix
	}
}

// Unknowns of the HLO comparison (joined with the others by inspect.Unknowns(fleet.Unknowns)).
func init() {
	Unknowns = append(Unknowns,
		doc.Unknown{ID: "hlo.klir-path", Spec: "ntff.md §8",
			Question:   "What writes an NKI kernel's compiled binary to /tmp/klir_binaries/<name>_<8 random>/<name><8 random>.klir, and whether a setting makes the path stable.",
			Assumption: "The NKI frontend writes it with Python's tempfile (8 characters of [a-z0-9_], as in all eight real modules) when the graph is traced; no flag is known that changes it, so the advice is to reuse the compiled artifact.",
			Confidence: "low"},
		doc.Unknown{ID: "hlo.module-hash", Spec: "ntff.md §8",
			Question:   "How the MODULE_<hash> of a cache entry is computed from the HLO module.",
			Assumption: "It behaves like a hash over the module's bytes: the eight real modules differ only in ~20 bytes of a temporary path and have eight different hashes. Whether metadata enters it is not verified.",
			Confidence: "medium"},
	)
}
