//go:build js && wasm

package main

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// BenchmarkOpenRealShaped opens the real-shaped 32 MB NEFF (testdata/gen, written by
// `go run ./scripts/benchneff -shape real -sizes 32 -gen-only`; skipped when it is not there)
// in wasm under Node, as the page's worker opens it (its budget, the source lines and the
// members' SHA-256 left for later), and reports where the open's time goes: the archive walk
// (to the last member listed) and the rest (the manifests' resolve, the Document); then the
// source lines mapped after it (indexSource's IndexSourceWith), and the runtime's Sys after
// them, which follows the wasm memory the tab would keep. The collector runs as in the worker.
//
//	PATH=$(go env GOROOT)/lib/wasm:$PATH GOOS=js GOARCH=wasm go test $(WASM_FLAGS) -run '^$' -bench OpenRealShaped ./wasm/
func BenchmarkOpenRealShaped(b *testing.B) {
	root, err := realfiles.RepoRoot()
	if err != nil {
		b.Skip(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "testdata", "gen", "real-v1-32mib.neff"))
	if err != nil {
		b.Skip(err)
	}
	tuneCollector() // as the worker runs: the test binary does not run main
	var walk, rest, source time.Duration
	b.SetBytes(int64(len(data)))
	for range b.N {
		var calls int
		r := newJSReaderAt(sliceFunc(data, &calls), int64(len(data)), 0)
		start := time.Now()
		var walked time.Time
		opt := inspect.Options{Limits: budget.Page(), DeferSource: true, DeferSourceOver: 64 << 10, DeferMemberHashes: true,
			Progress: func(p inspect.Progress) {
				if p.Phase != "payload" && walked.IsZero() {
					walked = time.Now()
				}
			}}
		f := inspect.Open("real.neff", r, int64(len(data)), opt)
		end := time.Now()
		if f.Program == nil || f.Budget.First() != nil {
			b.Fatalf("the open is not complete: %v", f.Budget.First())
		}
		if walked.IsZero() {
			walked = end
		}
		walk += walked.Sub(start)
		rest += end.Sub(walked)
		if _, err := f.IndexSourceWith(context.Background(), r, nil); err != nil {
			b.Fatal(err)
		}
		source += time.Since(end)
	}
	b.ReportMetric(float64(walk.Milliseconds())/float64(b.N), "ms-walk")
	b.ReportMetric(float64(rest.Milliseconds())/float64(b.N), "ms-resolve-and-document")
	b.ReportMetric(float64(source.Milliseconds())/float64(b.N), "ms-source")
	// What the tab keeps: wasm memory only grows, and the runtime's Sys follows it.
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.Sys)/(1<<20), "MiB-sys")
}

// BenchmarkOpenRealSmall opens the small real NEFFs (matmul_small in the repository, attn_v6
// from ../shared) in wasm under Node with the page's worker options: the core's share of issue
// 13's "a small real NEFF fully open ≤ 200 ms warm" (the page's lastOpen.coreMs).
//
//	PATH=$(go env GOROOT)/lib/wasm:$PATH GOOS=js GOARCH=wasm go test $(WASM_FLAGS) -run '^$' -bench OpenRealSmall ./wasm/
func BenchmarkOpenRealSmall(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400)) // as main sets it for the worker
	for _, rel := range []string{"nkipy/matmul_small.neff", "nki-moe/attn_v6.neff"} {
		b.Run(filepath.Base(rel), func(b *testing.B) {
			path, ok := realfiles.Find(rel)
			if !ok {
				b.Skip(realfiles.Missing(rel))
			}
			data, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			for range b.N {
				var calls int
				r := newJSReaderAt(sliceFunc(data, &calls), int64(len(data)), 0)
				opt := inspect.Options{Limits: budget.Page(), DeferSource: true, DeferSourceOver: 64 << 10, DeferMemberHashes: true}
				if f := inspect.Open(filepath.Base(path), r, int64(len(data)), opt); f.Program == nil {
					b.Fatal("no program")
				}
			}
		})
	}
}
