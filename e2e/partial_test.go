package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// watchPartialJS records, from the pick, every partial overview the page draws (the overview
// view with data-partial): when, whether the open was still running, and what it showed (the
// chip, the compiler, the engine cells' counts); and whether the overview view ever showed a
// partial overview at all (window.partialSeen.drawn).
const watchPartialJS = `(() => {
	const o = window.partialSeen = {drawn: 0, first: null, last: null, flips: 0};
	const snap = () => {
		const v = document.getElementById('overview-view');
		if (!v || v.hidden || v.dataset.partial !== 'true') return null;
		const field = (f) => { const b = v.querySelector('[data-section="model"] [data-field="' + f + '"]'); return b ? b.textContent : ''; };
		const cells = {};
		for (const b of v.querySelectorAll('.ov-eng')) cells[b.dataset.core + ' ' + b.dataset.engine] = b.dataset.count;
		const grid = v.querySelector('.ov-grid');
		return {ms: performance.now(), state: document.body.dataset.state, gridTop: grid ? grid.getBoundingClientRect().top : -1, target: field('target'), compiler: field('compiler'), cores: field('cores'),
			cells, io: (v.querySelector('[data-section="io"]') || {textContent: ''}).textContent, filling: (document.getElementById('ov-filling') || {textContent: ''}).textContent};
	};
	let wasPartial = false;
	new MutationObserver(() => {
		const s = snap();
		const v = document.getElementById('overview-view');
		const isPartial = !!(v && v.dataset.partial === 'true');
		if (isPartial !== wasPartial) { o.flips++; wasPartial = isPartial; }
		if (!s) return;
		o.drawn++;
		if (!o.first) o.first = s;
		o.last = s;
	}).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'data-partial']});
})()`

type partialSnap struct {
	MS, GridTop                                 float64
	State, Target, Compiler, Cores, IO, Filling string
	Cells                                       map[string]string
}

type partialSeen struct {
	Drawn, Flips int
	First, Last  *partialSnap
}

// TestPartialOverviewOnBigFile: on the 32 MiB real-shaped NEFF the overview is on screen, as
// a partial overview, long before the open ends, and what it shows (the chip, the compiler,
// each stream's instruction count) is what the overview then shows; the real overview takes
// its place keeping the scroll position.
func TestPartialOverviewOnBigFile(t *testing.T) {
	path := bigRealNEFF(t, 32)
	p := newSlowPage(t, siteURL, 10*time.Minute)
	eval[chromedp.Void](p, watchOpenJS)
	eval[chromedp.Void](p, watchPartialJS)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
	// The engine grid fills in while the archive is read.
	p.waitLong(`window.partialSeen.last && Object.keys(window.partialSeen.last.cells).length >= 3 && window.partialSeen.last.target`, "a partial overview with the chip and three streams", 2*time.Minute)
	// Scroll it: the real overview must come up where the reader is.
	scrolled := eval[float64](p, `(() => { const v = document.getElementById('overview-view'); v.scrollTop = 60; return v.scrollTop; })()`)
	p.waitLong(`document.body.dataset.state === 'open' || (document.body.dataset.state === 'empty' && document.getElementById('toast').textContent)`, "the file to open", 8*time.Minute)
	if st := eval[string](p, `document.body.dataset.state`); st != "open" {
		t.Fatalf("the 32 MiB file did not open: %s", eval[string](p, `document.getElementById('toast').textContent`))
	}
	seen := eval[partialSeen](p, `window.partialSeen`)
	lastOpen := eval[map[string]any](p, `neffscope.lastOpen`)
	t.Logf("partial overviews drawn %d times; first %+v; last %+v; lastOpen %v; overview on screen %.0f ms after the pick", seen.Drawn, seen.First, seen.Last, lastOpen, eval[float64](p, `window.bigOpen.overviewMs`))
	if seen.First == nil || seen.First.State != "opening" || seen.Last.State != "opening" {
		t.Fatalf("no partial overview was drawn while the file was opening: %+v", seen)
	}
	if ov, total := lastOpen["overviewMs"].(float64), lastOpen["totalMs"].(float64); !(ov > 0 && ov < total/2) {
		t.Errorf("lastOpen.overviewMs %v, totalMs %v: the overview was not on screen well before the open ended", lastOpen["overviewMs"], lastOpen["totalMs"])
	}
	if !strings.Contains(seen.Last.IO, "neff.json") && !strings.Contains(seen.Last.IO, "in,") {
		t.Errorf("the partial overview's inputs and outputs say %q; want them pending on neff.json (or listed)", seen.Last.IO)
	}
	if !strings.Contains(seen.First.Filling, "filling in") {
		t.Errorf("the partial overview is not marked as filling in: %q", seen.First.Filling)
	}
	if eval[bool](p, `document.getElementById('overview-view').dataset.partial === 'true'`) {
		t.Error("the overview is still the partial one after the open")
	}
	final := func(f string) string {
		return eval[string](p, `(document.querySelector('#overview-view [data-section="model"] [data-field="`+f+`"]') || {textContent: 'missing'}).textContent`)
	}
	for _, c := range []struct{ name, partial, final string }{
		{"target", seen.Last.Target, final("target")},
		{"compiler", seen.Last.Compiler, final("compiler")},
		{"cores", seen.Last.Cores, final("cores")},
	} {
		if c.partial != c.final || c.final == "missing" {
			t.Errorf("%s: the partial overview showed %q, the overview shows %q", c.name, c.partial, c.final)
		}
	}
	finalCells := eval[map[string]string](p, `(() => { const o = {}; for (const b of document.querySelectorAll('#overview-view .ov-eng')) o[b.dataset.core + ' ' + b.dataset.engine] = b.dataset.count; return o; })()`)
	for k, v := range seen.Last.Cells {
		if finalCells[k] != v {
			t.Errorf("engine %s: the partial overview counted %s instructions, the overview %s", k, v, finalCells[k])
		}
	}
	if len(seen.Last.Cells) == 0 || len(finalCells) != 10 {
		t.Errorf("engine cells: partial %v, final %v (want the 10 streams of two cores)", seen.Last.Cells, finalCells)
	}
	t.Logf("the overview was scrolled to %.0f during the open", scrolled)
	if scrolled > 0 {
		if got := eval[float64](p, `document.getElementById('overview-view').scrollTop`); got != scrolled {
			t.Errorf("the overview was scrolled to %.0f during the open, to %.0f after it", scrolled, got)
		}
	}
	// No layout jump: the answers' grid stays where it was (the tab strip and the head line
	// were there already).
	if top := eval[float64](p, `document.querySelector('#overview-view .ov-grid').getBoundingClientRect().top`); top-seen.Last.GridTop > 8 || seen.Last.GridTop-top > 8 {
		t.Errorf("the overview's grid moved from y=%.0f (partial) to y=%.0f", seen.Last.GridTop, top)
	}
	if eval[bool](p, `document.getElementById('progress').classList.contains('docked')`) {
		t.Error("the progress card is still docked after the open")
	}
}

// TestSmallNEFFNoPartialFlicker: a small real NEFF opens without a partial overview drawn
// first: the real overview just appears, and lastOpen says when (overviewMs).
func TestSmallNEFFNoPartialFlicker(t *testing.T) {
	p := newPage(t, siteURL)
	eval[chromedp.Void](p, watchPartialJS)
	p.openWithPicker(realNEFF)
	p.waitFor(`neffscope.lastOpen && neffscope.lastOpen.overviewMs > 0`, "lastOpen.overviewMs")
	seen := eval[partialSeen](p, `window.partialSeen`)
	lastOpen := eval[map[string]any](p, `neffscope.lastOpen`)
	t.Logf("lastOpen %v", lastOpen)
	if seen.Drawn > 0 || seen.Flips > 0 || lastOpen["partial"] != false {
		t.Errorf("matmul_small drew a partial overview first (%d draws, %d flips; lastOpen.partial %v): the overview flickers", seen.Drawn, seen.Flips, lastOpen["partial"])
	}
	if ov, total := lastOpen["overviewMs"].(float64), lastOpen["totalMs"].(float64); ov < total {
		t.Errorf("lastOpen.overviewMs %.0f before totalMs %.0f with no partial overview", ov, total)
	}
	if got := eval[string](p, `(document.querySelector('#overview-view [data-field="target"]') || {textContent: ''}).textContent`); got != "AWS Trainium2 (NeuronCore-v3)" {
		t.Errorf("the overview's target says %q", got)
	}
}

// BenchmarkPageSmallWarm opens small real NEFFs in the page with the worker warm (one open
// first, not timed): the goal "a small real NEFF fully open ≤ 200 ms warm", and where the
// time goes (lastOpen: the core's open, the msgpack decode, the render). ms-total is the pick →
// the Document painted without its source lines (mapped after the open since 2026-12-03:
// indexSource), ms-source the pick → them painted, ms-source-core the core's time mapping them.
//
//	make dist && go test -run '^$' -bench PageSmallWarm -benchtime 5x ./e2e/
func BenchmarkPageSmallWarm(b *testing.B) {
	for _, rel := range []string{"nkipy/matmul_small.neff", "nki-moe/attn_v6.neff"} {
		b.Run(strings.TrimSuffix(rel[strings.LastIndex(rel, "/")+1:], ".neff"), func(b *testing.B) {
			path, ok := realfiles.Find(rel)
			if !ok {
				b.Skip(realfiles.Missing(rel))
			}
			p := newPage(b, siteURL)
			open := func() map[string]float64 {
				eval[chromedp.Void](p, `document.body.dataset.state = 'reset'`)
				p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{mustAbs(path)}))
				p.waitOpen()
				p.waitFor(`neffscope.lastOpen.overviewMs > 0`, "the overview's time")
				// The source lines, when the open left them out, are mapped after it (sourceMs:
				// the pick → them painted; a page without it mapped them in the open).
				p.waitFor(`!neffscope.lastOpen.sourcePending || neffscope.lastOpen.sourceMs > 0`, "the source lines")
				// What follows an open (the members' sha-256, the library's two puts) ends before
				// the next pick, as it does when a person picks the next file.
				p.waitFor(`neffscope.lastOpen.memberHashMs > 0`, "the members' sha-256")
				time.Sleep(500 * time.Millisecond)
				return eval[map[string]float64](p, `(({overviewMs, headerMs, resultMs, totalMs, coreMs, digestWaitMs, encodeMs, decodeMs, renderMs, wasmBytes, sourceMs, sourceCoreMs}) => ({overviewMs, headerMs, resultMs, totalMs, coreMs, digestWaitMs, encodeMs, decodeMs, renderMs, wasmBytes, sourceMs: sourceMs || totalMs, sourceCoreMs: sourceCoreMs || 0}))(neffscope.lastOpen)`)
			}
			open() // the worker warms up
			sum := map[string]float64{}
			b.ResetTimer()
			for range b.N {
				for k, v := range open() {
					sum[k] += v
				}
			}
			b.StopTimer()
			n := float64(b.N)
			b.ReportMetric(sum["overviewMs"]/n, "ms-overview")
			b.ReportMetric(sum["totalMs"]/n, "ms-total")
			b.ReportMetric(sum["sourceMs"]/n, "ms-source")
			b.ReportMetric(sum["sourceCoreMs"]/n, "ms-source-core")
			b.ReportMetric(sum["headerMs"]/n, "ms-header")
			b.ReportMetric(sum["resultMs"]/n, "ms-result")
			b.ReportMetric(sum["coreMs"]/n, "ms-core")
			b.ReportMetric(sum["digestWaitMs"]/n, "ms-core-digest-wait")
			b.ReportMetric(sum["encodeMs"]/n, "ms-encode")
			b.ReportMetric(sum["decodeMs"]/n, "ms-msgpack")
			b.ReportMetric(sum["renderMs"]/n, "ms-render")
			b.ReportMetric(sum["wasmBytes"]/n/(1<<20), "MiB-wasm")
		})
	}
}
