package manifest

import (
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestDataMoversOnRealNEFFs: the duplicate-output info rests on which cores move data.
// matmul_small runs a program on both cores; attn_v6's sg01 is a stub (2 words an engine, no
// DMA block), so only sg00 can write its outputs.
func TestDataMoversOnRealNEFFs(t *testing.T) {
	for _, c := range []struct {
		file           string
		working, stubs string
	}{
		{"nkipy/matmul_small.neff", "sg00 sg01", ""},
		{"nki-moe/attn_v6.neff", "sg00", "sg01"},
		{"cs149-trn2/transpose_1024.neff", "sg00", "sg01"},
	} {
		path, ok := realfiles.Optional(t, c.file, "which cores move data")
		if !ok {
			continue
		}
		set, facts := loadNEFF(t, path)
		m := Resolve(set, facts)
		working, stubs := dataMovers(m.Cores)
		if strings.Join(working, " ") != c.working || strings.Join(stubs, " ") != c.stubs {
			t.Errorf("%s: working %v, stubs %v; want %q, %q", c.file, working, stubs, c.working, c.stubs)
		}
	}
}
