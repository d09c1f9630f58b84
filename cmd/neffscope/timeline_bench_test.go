package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// BenchmarkTimeline1GB reads a 1 GB device profile: attn_v6's capture with NeuronCore 4's DMA
// trace repeated (each DMA engine's records 1,6xx times over, shifted in time as a longer
// capture's would be; built in the benchmark's temp dir, never kept), alone and joined to
// attn_v6.neff, each `timeline --json` in its own process. It reports wall time, peak RSS and
// the ratio to `sha256sum` over the same file (the goal: ≤ 256 MiB, ≤ 3× sha256sum), with each
// one's CPU time (user + system), which a loaded machine disturbs less than the wall time.
func BenchmarkTimeline1GB(b *testing.B) {
	src, ok := realfiles.Find(attnProfile)
	neffPath, nok := realfiles.Find(attnNEFF)
	if !ok || !nok {
		b.Skip(realfiles.Missing(attnProfile))
	}
	raw, err := os.ReadFile(src)
	if err != nil {
		b.Fatal(err)
	}
	big := filepath.Join(b.TempDir(), "big.ntff")
	if err := ntffbuild.WriteBig(big, raw, 1<<30); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(big)
	var shaCPU time.Duration
	sha := func() time.Duration {
		start := time.Now()
		cmd := exec.Command("sha256sum", big)
		if err := cmd.Run(); err != nil {
			b.Skip("sha256sum: ", err)
		}
		shaCPU += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		return time.Since(start)
	}
	sha() // the file in the page cache for every run alike
	shaCPU = 0
	b.ResetTimer()
	var shaT time.Duration
	var alone, joined benchRun
	for range b.N {
		shaT += sha()
		r := runChild(b, "timeline", "--json", big)
		alone.wall, alone.cpu, alone.rssMiB = alone.wall+r.wall, alone.cpu+r.cpu, max(alone.rssMiB, r.rssMiB)
		r = runChild(b, "timeline", "--json", "--ntff", big, neffPath)
		joined.wall, joined.cpu, joined.rssMiB = joined.wall+r.wall, joined.cpu+r.cpu, max(joined.rssMiB, r.rssMiB)
	}
	n := float64(b.N)
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MiB")
	b.ReportMetric(float64(shaT.Milliseconds())/n, "sha256sum-ms")
	b.ReportMetric(float64(shaCPU.Milliseconds())/n, "sha256sum-cpu-ms")
	b.ReportMetric(float64(alone.cpu.Milliseconds())/n, "alone-cpu-ms")
	b.ReportMetric(float64(joined.cpu.Milliseconds())/n, "joined-cpu-ms")
	b.ReportMetric(float64(alone.wall.Milliseconds())/n, "alone-ms")
	b.ReportMetric(float64(alone.rssMiB), "alone-MiB")
	b.ReportMetric(float64(joined.wall.Milliseconds())/n, "joined-ms")
	b.ReportMetric(float64(joined.rssMiB), "joined-MiB")
	b.ReportMetric(float64(alone.wall)/float64(shaT), "alone/sha256sum")
	b.ReportMetric(float64(joined.wall)/float64(shaT), "joined/sha256sum")
}
