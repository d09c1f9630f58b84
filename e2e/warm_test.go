package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// The worker warms the core up after it starts (core-host.js runWarmUp): it opens the small
// real NEFF it was given (the site: warm/matmul_small.neff; the single file: embedded) three
// times as the page opens a file, and closes it. Nothing of it reaches the page: no document,
// no library entry, the welcome screen stays; a file opened after it opens as usual.
func TestWorkerWarmsUp(t *testing.T) {
	for _, c := range []struct{ name, url string }{{"site", siteURL}, {"single file", singleURL}} {
		t.Run(c.name, func(t *testing.T) {
			p := newPage(t, c.url)
			p.waitFor(`neffscope.core.warm !== null`, "the warm-up to end")
			w := eval[map[string]any](p, `neffscope.core.warm`)
			if w["opens"] != float64(3) || w["stopped"] != false || w["error"] != nil {
				t.Errorf("the warm-up: %v, want 3 opens, not stopped, no error", w)
			}
			if got := eval[string](p, `document.body.dataset.state || ''`); got == "open" {
				t.Errorf("the page's state after the warm-up is %q: the warm-up showed a document", got)
			}
			// (The library is the browser profile's, shared with the other tests: only the
			// warm-up's own file must not be in it.)
			if eval[bool](p, `neffscope.libRefresh().then(() => neffscope.library.entries.some((e) => e.name === 'warm.neff'))`) {
				t.Errorf("the warm-up's NEFF is in the library")
			}
			p.openWithPicker(realNEFF)
			if got := eval[string](p, `neffscope.state.doc.file`); got != "matmul_small.neff" {
				t.Errorf("the file opened after the warm-up is %q", got)
			}
		})
	}
}

// BenchmarkPageSmallFirst opens a small real NEFF as the first file of a freshly loaded page:
// "after warm-up" picks it once the worker's warm-up has ended (a person who picks a file a
// second or two after the page shows), "at load" as soon as the core is ready, "during warm-up"
// once the warm-up's first open has begun (it pre-empts the warm-up, and should be
// within 1.2× of "after warm-up"). ms-total is lastOpen.totalMs.
//
//	make dist && go test -run '^$' -bench PageSmallFirst -benchtime 5x ./e2e/
func BenchmarkPageSmallFirst(b *testing.B) {
	for _, rel := range []string{"nkipy/matmul_small.neff", "nki-moe/attn_v6.neff"} {
		for _, when := range []string{"after-warm-up", "at-load", "during-warm-up"} {
			b.Run(strings.TrimSuffix(rel[strings.LastIndex(rel, "/")+1:], ".neff")+"/"+when, func(b *testing.B) {
				path, ok := realfiles.Find(rel)
				if !ok {
					b.Skip(realfiles.Missing(rel))
				}
				var total, core, render float64
				for range b.N {
					p := newPage(b, siteURL)
					if when == "after-warm-up" {
						p.waitFor(`neffscope.core.warm !== null`, "the warm-up to end")
						time.Sleep(100 * time.Millisecond)
					}
					if when == "during-warm-up" {
						// The warm-up starts a second after the core is ready (core-host.js
						// WARM_AFTER_MS); its first, coldest open is under way 0.2 s later.
						time.Sleep(1200 * time.Millisecond)
					}
					p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{mustAbs(path)}))
					p.waitOpen()
					p.waitFor(`neffscope.lastOpen && neffscope.lastOpen.totalMs > 0`, "the open's time")
					m := eval[map[string]float64](p, `(({totalMs, coreMs, renderMs}) => ({totalMs, coreMs, renderMs}))(neffscope.lastOpen)`)
					total += m["totalMs"]
					core += m["coreMs"]
					render += m["renderMs"]
				}
				n := float64(b.N)
				b.ReportMetric(total/n, "ms-total")
				b.ReportMetric(core/n, "ms-core")
				b.ReportMetric(render/n, "ms-render")
			})
		}
	}
}

// A file picked while the worker warms up goes first: the warm-up stops
// before its next call, so it ends with fewer than its three opens, and the file opens. (How
// long the file waited is BenchmarkPageSmallFirst's "during-warm-up".)
func TestFileOpenedDuringWarmUpGoesFirst(t *testing.T) {
	p := newPage(t, siteURL)
	// The warm-up starts a second after ready; its first open is under way by 1.2 s.
	time.Sleep(1200 * time.Millisecond)
	p.openWithPicker(realNEFF)
	if got := eval[string](p, `neffscope.state.doc.file`); got != "matmul_small.neff" {
		t.Errorf("the file opened during the warm-up is %q", got)
	}
	p.waitFor(`neffscope.core.warm !== null`, "the warm-up to end")
	w := eval[map[string]any](p, `neffscope.core.warm`)
	if w["stopped"] != true || w["opens"].(float64) >= 3 {
		t.Errorf("the warm-up after a file was picked during it: %v, want it stopped before its three opens", w)
	}
}
