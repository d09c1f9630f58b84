package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// BenchmarkPageReturningVisit opens a small real NEFF on a returning visit: the page loaded
// before in the same browser profile, so its service worker answers with the cached shell
// (sw.js), and Chrome may start the core with the wasm code V8 compiled and optimized on an
// earlier visit (its wasm code cache, kept beside a Cache Storage entry). Two visits come
// first, untimed, each left until its warm-up has ended: the first installs the service
// worker, the second compiles the wasm from its cache. Then each timed visit is a fresh tab:
// "during-warm-up" picks the file once the warm-up's first open is under way (the goal: within
// 1.2× of "after-warm-up"), "after-warm-up" once it has ended. ms-ready is the core's start-up
// as the page shows it; ms-total is lastOpen.totalMs. The tabs are closed after each visit.
//
//	make dist && go test -run '^$' -bench PageReturningVisit -benchtime 5x ./e2e/
func BenchmarkPageReturningVisit(b *testing.B) {
	const rel = "nkipy/matmul_small.neff"
	path, ok := realfiles.Find(rel)
	if !ok {
		b.Skip(realfiles.Missing(rel))
	}
	for range 2 {
		p := newPage(b, siteURL)
		p.waitFor(`!!navigator.serviceWorker.controller`, "the service worker to control the page")
		p.waitFor(`neffscope.core.warm !== null`, "the warm-up to end")
		time.Sleep(3 * time.Second) // V8 caches the optimized code a while after it tiers up
		chromedp.Cancel(p.ctx)
	}
	for _, when := range []string{"during-warm-up", "after-warm-up"} {
		b.Run(when, func(b *testing.B) {
			var ready, total, core, render float64
			for range b.N {
				p := newPage(b, siteURL)
				ready += eval[float64](p, `(() => { const s = document.getElementById('core-status').textContent.match(/(\d+) ms/); return s ? Number(s[1]) : -1; })()`)
				if when == "after-warm-up" {
					p.waitFor(`neffscope.core.warm !== null`, "the warm-up to end")
					time.Sleep(100 * time.Millisecond)
				} else {
					// As BenchmarkPageSmallFirst: the warm-up starts a second after the core is
					// ready (core-host.js WARM_AFTER_MS); its first open is under way 0.2 s later.
					time.Sleep(1200 * time.Millisecond)
				}
				p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{mustAbs(path)}))
				p.waitOpen()
				p.waitFor(`neffscope.lastOpen && neffscope.lastOpen.totalMs > 0`, "the open's time")
				m := eval[map[string]float64](p, `(({totalMs, coreMs, renderMs}) => ({totalMs, coreMs, renderMs}))(neffscope.lastOpen)`)
				total += m["totalMs"]
				core += m["coreMs"]
				render += m["renderMs"]
				if !eval[bool](p, `!!navigator.serviceWorker.controller`) {
					b.Errorf("visit %s: no service worker controls the page", when)
				}
				p.waitFor(`neffscope.core.warm !== null`, "the warm-up to end") // before the tab goes
				chromedp.Cancel(p.ctx)
			}
			n := float64(b.N)
			b.ReportMetric(ready/n, "ms-ready")
			b.ReportMetric(total/n, "ms-total")
			b.ReportMetric(core/n, "ms-core")
			b.ReportMetric(render/n, "ms-render")
		})
	}
	// Chrome's own count of wasm code-cache hits and misses in this profile, for the log.
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Navigate("chrome://histograms/V8.WasmCodeCaching")); err != nil {
		return
	}
	time.Sleep(500 * time.Millisecond)
	if text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`)); err == nil {
		b.Logf("chrome://histograms/V8.WasmCodeCaching: %s", strings.Join(strings.Fields(text), " "))
	}
}
