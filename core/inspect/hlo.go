package inspect

import (
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/hlo"
)

// matchHLO takes XLA HLO modules by name (*.hlo_module.pb, *.hlo.pb, either gzip'd): the
// wire format has no magic to sniff.
func matchHLO(name string, _ []byte, _ int64) bool { return hlo.Match(name) }

// decodeHLO reads an HLO module into its tree and keeps its model (File.HLO) for the diff and
// the graph digest.
func decodeHLO(f *File, _ Options) *doc.Node {
	m, held := hlo.Open(f.Name, f.r, f.Size, hlo.Options{Budget: f.Budget})
	f.HLO = m
	if m.Gzip {
		f.hloInflated = held
	}
	return m.Root
}
