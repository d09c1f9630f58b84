package dbg

import (
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// scanChunk is how the benchmark hands a member to the scan: the archive walk's inflater
// writes about this much at a time.
const scanChunk = 32 << 10

// BenchmarkScan times the scan alone (Scanner.Write in chunks, then Close) over the .dbg
// members of the real NEFFs and of the 32 MiB real-shaped NEFF (testdata/gen; skipped when it
// is not there), in MB/s of .dbg bytes. Natively: go test -run '^$' -bench Scan ./core/dbg/;
// in the wasm under Node, with the shipped build's flags (Makefile WASM_FLAGS):
//
//	PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test -gcflags=runtime=-l \
//	  -ldflags=-X=runtime.godebugDefault=gcstoptheworld=1 -run '^$' -bench 'Scan$' ./core/dbg/
func BenchmarkScan(b *testing.B) {
	b.Run("real", func(b *testing.B) {
		var all []map[string][]byte
		for _, p := range realfiles.NEFFs(b) {
			all = append(all, dbgMembers(b, p))
		}
		benchScan(b, all...)
	})
	b.Run("realshaped32", func(b *testing.B) {
		p := genNEFF(b)
		if p == "" {
			b.Skip("testdata/gen/real-v1-32mib.neff is not there (go run ./scripts/benchneff -shape real -sizes 32 -gen-only)")
		}
		benchScan(b, dbgMembers(b, p))
	})
}

func benchScan(b *testing.B, neffs ...map[string][]byte) {
	type member struct {
		path string
		b    []byte
	}
	var ms []member
	var size int64
	for _, m := range neffs {
		for _, p := range sortedKeys(m) {
			if _, _, ok := Match(p); ok {
				ms = append(ms, member{p, m[p]})
				size += int64(len(m[p]))
			}
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range ms {
			s := NewScanner(m.path, int64(len(m.b)))
			for off := 0; off < len(m.b); off += scanChunk {
				s.Write(m.b[off:min(off+scanChunk, len(m.b))])
			}
			if s.Close() == nil {
				b.Fatalf("%s: no compact", m.path)
			}
		}
	}
}
