package fleet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/golden"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
)

// TestDiffSourceGolden pins diffSource's whole answer (both sections, the count and the first
// line) for pairs of real NEFFs: each with the next, one with a single word edited (an
// operand, then its opcode), and a NEFF with no debug info against one with it.
func TestDiffSourceGolden(t *testing.T) {
	paths := golden.SharedNEFFs(t)
	type named struct {
		name string
		f    *inspect.File
	}
	var files []named
	for _, p := range paths {
		rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(p)), p)
		files = append(files, named{filepath.ToSlash(rel), openBytes(filepath.Base(p), realfiles.Read(t, filepath.ToSlash(rel)))})
	}
	type pair struct{ a, b named }
	var pairs []pair
	for i := range files {
		pairs = append(pairs, pair{files[i], files[(i+1)%len(files)]})
	}
	src := realfiles.Read(t, "cs149-trn1/file_pool_1_float16.neff")
	a := named{"cs149-trn1/file_pool_1_float16.neff", openBytes("a.neff", src)}
	if lw, ok := repack.QuietLine(a.f); ok {
		for _, off := range []int{63, 0} {
			changed := repack.EditWord(src, lw.Member, lw.Index, func(w []byte) {
				if off == 0 {
					w[0] ^= 0xA0
				} else {
					w[off] ^= 0x01
				}
			})
			pairs = append(pairs, pair{a, named{fmt.Sprintf("edited at byte %d", off), openBytes("b.neff", changed)}})
		}
	}
	sample := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "sample.neff"})
	s := named{"sample (no .dbg)", openBytes("sample.neff", sample)}
	pairs = append(pairs, pair{s, a}, pair{a, s}, pair{s, s})

	var sums golden.Sums
	for _, p := range pairs {
		lines, words, count, first := diffSource(p.a.f, p.b.f)
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "%d rows, first %q\n", count, first)
		for _, n := range []any{lines, words} {
			j, err := json.MarshalIndent(n, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(j)
			buf.WriteByte('\n')
		}
		sums.Add(p.a.name+" ~ "+p.b.name, buf.Bytes())
	}
	sums.Check(t, "testdata/diffsource.sha256")
}
