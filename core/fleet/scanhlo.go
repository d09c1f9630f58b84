package fleet

import (
	"fmt"
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/hlo"
)

// AddHLO records an entry's HLO module on its scan record: its graph digest and what it says.
func (r *ScanRecord) AddHLO(m *hlo.Module, p string) {
	h := &ScanHLO{Path: p, Kernels: m.Kernels(), TemporaryPaths: m.TemporaryPaths(), Masked: m.MaskedDigest(), Problems: []ScanProblem{}}
	for _, f := range m.Root.Findings {
		if f.Severity == doc.Error && len(h.Problems) < maxScanProblems {
			h.Problems = append(h.Problems, ScanProblem{f.Code, f.Severity, f.Message})
		}
	}
	r.HLO = h
	if g := m.GraphDigest(); g != "" {
		r.Graph = &g
	}
}

// GraphGroups groups a scan's records by graph digest, to say which cache keys are the same
// graph and why they differ.
type GraphGroups struct {
	groups map[string]*graphGroup
	order  []string
	// withHLO and without count the entries with and without a graph digest.
	withHLO, without int
}

type graphGroup struct {
	digest                    string
	paths                     []string
	modules, flags, compilers map[string]bool
	masked                    map[string]bool
	temporary                 bool
	kernels                   []string
}

// Add counts one record.
func (g *GraphGroups) Add(r *ScanRecord) {
	if r.Graph == nil {
		if r.HLO != nil || r.Cache != nil {
			g.without++
		}
		return
	}
	if g.groups == nil {
		g.groups = map[string]*graphGroup{}
	}
	gr := g.groups[*r.Graph]
	if gr == nil {
		gr = &graphGroup{digest: *r.Graph, modules: map[string]bool{}, flags: map[string]bool{}, compilers: map[string]bool{}, masked: map[string]bool{}}
		g.groups[*r.Graph] = gr
		g.order = append(g.order, *r.Graph)
	}
	g.withHLO++
	gr.paths = append(gr.paths, r.Path)
	if r.Cache != nil {
		gr.modules[r.Cache.Module] = true
		gr.flags[r.Cache.FlagsHash] = true
		gr.compilers[r.Cache.Compiler] = true
	}
	if r.HLO != nil {
		gr.masked[r.HLO.Masked] = true
		gr.temporary = gr.temporary || r.HLO.TemporaryPaths
		if gr.kernels == nil {
			gr.kernels = r.HLO.Kernels
		}
	}
}

// GraphGroup is one graph of a scan: the entries whose HLO modules have its digest, and why
// their keys differ (the page's cache table groups its rows by it).
type GraphGroup struct {
	Graph string `json:"graph"`
	// Paths are the records' paths, in the order they were added.
	Paths   []string `json:"paths"`
	Kernels []string `json:"kernels"`
	// Keys, Flags and Compilers count the distinct module hashes, flags hashes and compiler
	// versions among the entries.
	Keys      int `json:"keys"`
	Flags     int `json:"flags"`
	Compilers int `json:"compilers"`
	// TemporaryPaths: a kernel call of the graph names its binary by a temporary path.
	TemporaryPaths bool `json:"temporary_paths"`
	// NeverHit: the keys differ only by the kernel's temporary path (the masked digests are
	// equal): every trace makes a new key, so none of these entries will be hit again.
	NeverHit bool `json:"never_hit"`
	// Why says why the keys of the graph differ, with the fix ("" for a single entry).
	Why string `json:"why"`
	// Line is what `neffscope scan` prints of the group on stderr ("" for a single entry).
	Line string `json:"line"`
}

// Groups lists the graphs, most entries first (then in the order first seen).
func (g *GraphGroups) Groups() []GraphGroup {
	groups := make([]*graphGroup, 0, len(g.order))
	for _, d := range g.order {
		groups = append(groups, g.groups[d])
	}
	sort.SliceStable(groups, func(i, j int) bool { return len(groups[i].paths) > len(groups[j].paths) })
	out := make([]GraphGroup, 0, len(groups))
	for _, gr := range groups {
		x := GraphGroup{Graph: gr.digest, Paths: gr.paths, Kernels: gr.kernels, Keys: len(gr.modules), Flags: len(gr.flags), Compilers: len(gr.compilers),
			TemporaryPaths: gr.temporary, NeverHit: len(gr.paths) > 1 && len(gr.modules) > 1 && gr.temporary && len(gr.masked) == 1}
		if x.Kernels == nil {
			x.Kernels = []string{}
		}
		if len(gr.paths) > 1 {
			x.Why, x.Line = gr.why(x.NeverHit)
		}
		out = append(out, x)
	}
	return out
}

// why says why a group's keys differ, and the line scan prints of it.
func (gr *graphGroup) why(neverHit bool) (why, line string) {
	s := fmt.Sprintf("%d entries, one graph (%s", len(gr.paths), gr.digest)
	if len(gr.kernels) > 0 {
		s += ", calls " + strings.Join(first(gr.kernels, 3), ", ")
	}
	s += ")"
	var reasons []string
	if len(gr.compilers) > 1 {
		reasons = append(reasons, fmt.Sprintf("%d compiler versions", len(gr.compilers)))
	}
	if len(gr.flags) > 1 {
		reasons = append(reasons, fmt.Sprintf("%d flag sets", len(gr.flags)))
	}
	switch {
	case len(gr.modules) <= 1:
	case neverHit:
		reasons = append(reasons, "keys differ only by the kernel's temporary path: every trace makes a new key, so these entries can never be hit again. "+SpuriousFix)
	case gr.temporary:
		reasons = append(reasons, "keys differ by the kernel's temporary path and by volatile values or metadata (neffscope diff two of them to see which)")
	default:
		reasons = append(reasons, "keys differ by volatile values or metadata only (neffscope diff two of them to see which)")
	}
	why = strings.Join(reasons, "; ")
	if why != "" {
		s += "; " + why
	}
	return why, s
}

// Lines says what the groups mean, most entries first: "8 entries, one graph (…); keys differ
// only by the kernel's temporary path", with what to do.
func (g *GraphGroups) Lines() []string {
	if g.withHLO == 0 {
		return nil
	}
	groups := g.Groups()
	out := []string{fmt.Sprintf("%d entries with an HLO module: %s", g.withHLO, plural(len(groups), "graph"))}
	if g.without > 0 {
		out[0] += fmt.Sprintf(" (%d entries without one)", g.without)
	}
	for _, gr := range groups {
		if gr.Line != "" {
			out = append(out, gr.Line)
		}
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "one " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
