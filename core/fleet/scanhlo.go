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
	entries                   int
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
	gr.entries++
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

// Lines says what the groups mean, most entries first: "8 entries, one graph (…); keys differ
// only by the kernel's temporary path", with what to do.
func (g *GraphGroups) Lines() []string {
	if g.withHLO == 0 {
		return nil
	}
	groups := make([]*graphGroup, 0, len(g.order))
	for _, d := range g.order {
		groups = append(groups, g.groups[d])
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].entries > groups[j].entries })
	out := []string{fmt.Sprintf("%d entries with an HLO module: %s", g.withHLO, plural(len(groups), "graph"))}
	if g.without > 0 {
		out[0] += fmt.Sprintf(" (%d entries without one)", g.without)
	}
	for _, gr := range groups {
		if gr.entries < 2 {
			continue
		}
		s := fmt.Sprintf("%d entries, one graph (%s", gr.entries, gr.digest)
		if len(gr.kernels) > 0 {
			s += ", calls " + strings.Join(first(gr.kernels, 3), ", ")
		}
		s += ")"
		var why []string
		if len(gr.compilers) > 1 {
			why = append(why, fmt.Sprintf("%d compiler versions", len(gr.compilers)))
		}
		if len(gr.flags) > 1 {
			why = append(why, fmt.Sprintf("%d flag sets", len(gr.flags)))
		}
		switch {
		case len(gr.modules) <= 1:
		case gr.temporary && len(gr.masked) == 1:
			why = append(why, "keys differ only by the kernel's temporary path: every trace makes a new key, so these entries can never be hit again. "+SpuriousFix)
		case gr.temporary:
			why = append(why, "keys differ by the kernel's temporary path and by volatile values or metadata (neffscope diff two of them to see which)")
		default:
			why = append(why, "keys differ by volatile values or metadata only (neffscope diff two of them to see which)")
		}
		if len(why) > 0 {
			s += "; " + strings.Join(why, "; ")
		}
		out = append(out, s)
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "one " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
