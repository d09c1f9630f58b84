//go:build js && wasm

package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/core/timeline"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// BenchmarkMeasured1GB measures a 1 GB device profile in wasm under Node, as the page's worker
// would (its budget, budget.Page): attn_v6's capture with NeuronCore 4's DMA trace repeated
// (ntffbuild.RepeatDMA, built in the benchmark's temp dir), read through io.ReaderAt a MiB
// at a time. It reports the time and the runtime's Sys after it, which follows the wasm memory
// a tab would keep (the page's goal: ≤ 256 MiB).
//
//	PATH=$(go env GOROOT)/lib/wasm:$PATH GOOS=js GOARCH=wasm go test $(WASM_FLAGS) -run '^$' -bench Measured1GB ./wasm/
func BenchmarkMeasured1GB(b *testing.B) {
	src, ok := realfiles.Find("nki-moe/profile_attn_v6_exec_2.ntff")
	if !ok {
		b.Skip(realfiles.Missing("nki-moe/profile_attn_v6_exec_2.ntff"))
	}
	raw, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	big := filepath.Join(b.TempDir(), "big.ntff")
	if err := ntffbuild.WriteBig(big, raw, 1<<30); err != nil {
		b.Fatal(err)
	}
	fh, err := os.Open(big)
	if err != nil {
		b.Fatal(err)
	}
	defer fh.Close()
	st, _ := fh.Stat()
	tuneCollector()
	b.SetBytes(st.Size())
	b.ResetTimer()
	var took time.Duration
	for range b.N {
		start := time.Now()
		pf := inspect.Open("big.ntff", fh, st.Size(), inspect.Options{Limits: budget.Page(), DeferMemberHashes: true})
		m := timeline.Measure(pf.NTFF, nil, pf.Budget).Measured
		took += time.Since(start)
		if len(m.Cores) != 2 || m.Cores[0].Queues[1].Packets < 10_000_000 {
			b.Fatalf("measured %d cores", len(m.Cores))
		}
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(took.Milliseconds())/float64(b.N), "ms")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "MiB-sys")
}
