package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// BenchmarkPageBig opens the real-shaped NEFFs (internal/bigneff) in the page (
// page figures): from the pick to the overview on screen, to fully open (lastOpen.totalMs),
// the worker's wasm linear memory after the open (it only grows: the peak) and the page's
// JS heap peak (sampled every 10 ms; the worker's JS heap is not seen from the page). 32 and
// 256 MiB; NEFFSCOPE_BENCH_1G=1 adds 1 GiB. Side by side, in the same run, the native CLI's
// `info` and `disasm --json` on the same file (each run once before each open): the goal's
// ratios are the page's figures over native info's wall time (x-info metrics).
//
//	make dist && go test -run '^$' -bench PageBig -benchtime 1x ./e2e/
func BenchmarkPageBig(b *testing.B) {
	sizes := []int{32, 256}
	if os.Getenv("NEFFSCOPE_BENCH_1G") != "" {
		sizes = append(sizes, 1024)
	}
	for _, mib := range sizes {
		b.Run(fmt.Sprintf("open-real-%dMiB", mib), func(b *testing.B) {
			path := bigRealNEFF(b, mib)
			p := newSlowPage(b, siteURL, 30*time.Minute)
			var overview, header, total, heap, hashes, source, sourceCore, core, walk, wait, encode, render float64
			var info, disasm float64
			b.ResetTimer()
			for range b.N {
				info += nativeMs(b, "info", path)
				disasm += nativeMs(b, "disasm", "--json", path)
				eval[chromedp.Void](p, watchOpenJS)
				p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
				p.waitLong(`document.body.dataset.state === 'open' || (document.body.dataset.state === 'empty' && document.getElementById('toast').textContent)`, "the file to open", 25*time.Minute)
				if st := eval[string](p, `document.body.dataset.state`); st != "open" {
					b.Fatalf("the %d MiB file did not open: %s", mib, eval[string](p, `document.getElementById('toast').textContent`))
				}
				p.waitLong(`window.bigOpen.overviewMs >= 0`, "the overview", 10*time.Second)
				overview += eval[float64](p, `window.bigOpen.overviewMs`)
				header += eval[float64](p, `neffscope.lastOpen.headerMs || 0`)
				total += eval[float64](p, `neffscope.lastOpen.totalMs`)
				// Where the total goes: the core's open in the worker (its wait for the
				// payload MD5 apart), the Document's msgpack encoding, the page's render.
				core += eval[float64](p, `neffscope.lastOpen.coreMs || 0`)
				walk += eval[float64](p, `neffscope.lastOpen.walkMs || 0`)
				wait += eval[float64](p, `neffscope.lastOpen.digestWaitMs || 0`)
				encode += eval[float64](p, `neffscope.lastOpen.encodeMs || 0`)
				render += eval[float64](p, `neffscope.lastOpen.renderMs || 0`)
				heap = max(heap, eval[float64](p, `clearInterval(window.bigOpen.timer), window.bigOpen.heapPeak`))
				// The source lines, mapped after the open (pick → painted), then the members'
				// sha-256, computed after them (off the open's critical path).
				p.waitLong(`!neffscope.lastOpen.sourcePending || neffscope.lastOpen.sourceMs > 0`, "the source lines", 25*time.Minute)
				source += eval[float64](p, `neffscope.lastOpen.sourceMs || neffscope.lastOpen.totalMs`)
				sourceCore += eval[float64](p, `neffscope.lastOpen.sourceCoreMs || 0`)
				p.waitLong(`neffscope.lastOpen.memberHashMs > 0 || !neffscope.state.memberHashes`, "the members' sha-256", 25*time.Minute)
				hashes += eval[float64](p, `neffscope.lastOpen.memberHashMs || 0`)
			}
			b.StopTimer()
			n := float64(b.N)
			b.ReportMetric(header/n, "ms-to-header")
			b.ReportMetric(overview/n, "ms-to-overview")
			b.ReportMetric(total/n, "ms-total")
			b.ReportMetric(core/n, "ms-core")
			b.ReportMetric(walk/n, "ms-core-walk")
			b.ReportMetric(wait/n, "ms-core-digest-wait")
			b.ReportMetric(encode/n, "ms-encode")
			b.ReportMetric(render/n, "ms-render")
			b.ReportMetric(source/n, "ms-source")
			b.ReportMetric(sourceCore/n, "ms-source-core") // indexSource's call, in the worker
			b.ReportMetric(hashes/n, "ms-member-hashes-after")
			b.ReportMetric(eval[float64](p, `neffscope.lastOpen.wasmBytes`)/(1<<20), "MiB-wasm-memory")
			b.ReportMetric(heap/(1<<20), "MiB-page-heap-peak")
			b.ReportMetric(info/n, "ms-native-info")
			b.ReportMetric(overview/info, "overview-x-info")
			b.ReportMetric(total/info, "open-x-info")
			b.ReportMetric(source/info, "lines-x-info")
			b.ReportMetric(disasm/info, "disasm-json-x-info")
			b.ReportMetric(eval[float64](p, `navigator.hardwareConcurrency`), "cores")
			f := eval[docFindings](p, docFindingsJS)
			b.ReportMetric(float64(f.Error), "error-findings")
			if f.Error > 0 {
				b.Logf("%d MiB: %d error findings; the first: %s", mib, f.Error, f.FirstError)
			}
		})
	}
}

// nativeMs runs the CLI with args (its output discarded) and returns its wall time in ms.
func nativeMs(b *testing.B, args ...string) float64 {
	b.Helper()
	cmd := exec.Command(cli(b), args...)
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() > 1 {
			b.Fatalf("neffscope %v: %v", args, err)
		}
	}
	return float64(time.Since(t0).Microseconds()) / 1000
}
