package main

import (
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// BenchmarkDisasmJSONEncode: the encoder alone (one goroutine) over every word of
// matmul_small, whose streams the generated big NEFFs repeat: ns and bytes per instruction.
func BenchmarkDisasmJSONEncode(b *testing.B) {
	paths := realfiles.Glob("nkipy/matmul_small.neff")
	if len(paths) == 0 {
		b.Skip(realfiles.Missing("nkipy/matmul_small.neff"))
	}
	f, fh, err := openFile(paths[0], inspect.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer fh.Close()
	type word struct {
		s *inspect.ProgramStream
		i int
	}
	var words []word
	for _, s := range f.Program.Streams {
		for i := 0; s.ISA != nil && i < s.ISA.Len(); i++ {
			words = append(words, word{s, i})
		}
	}
	e := &jsonEncoder{p: f.Program}
	buf := make([]byte, 0, 1<<16)
	size := 0
	b.ResetTimer()
	for k := 0; k < b.N; k++ {
		w := words[k%len(words)]
		buf = e.appendInstruction(buf[:0], w.s, w.i, w.s.ISA.Word(w.i))
		size += len(buf)
	}
	b.ReportMetric(float64(size)/float64(b.N), "B/inst")
}
