package inspect

import (
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/hlo"
)

// AttrGraph: an HLO module's graph digest (hlo.Module.GraphDigest: volatile values and
// metadata left out), on the root of an hlo-module document; absent when the module was read
// only in part. `neffscope scan` calls the same digest "graph" and `diff --json` "graph_a".
const AttrGraph = "graph"

// matchHLO takes XLA HLO modules by name (*.hlo_module.pb, *.hlo.pb, either gzip'd): the
// wire format has no magic to sniff.
func matchHLO(name string, _ []byte, _ int64) bool { return hlo.Match(name) }

// decodeHLO reads an HLO module into its tree and keeps its model (File.HLO) for the diff and
// the graph digest.
func decodeHLO(f *File, _ Options) *doc.Node {
	m, held := hlo.Open(f.Name, f.r, f.Size, hlo.Options{Budget: f.Budget})
	f.HLO = m
	if g := m.GraphDigest(); g != "" {
		m.Root.SetAttr(AttrGraph, g)
	}
	if m.Gzip {
		f.hloInflated = held
	}
	return m.Root
}
