package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// frameScript holds D (pan right), W (zoom in), A (pan left) and S (zoom out) on a lanes
// canvas, as a person holds the keys, and records every animation frame's timestamp and each
// new frame's drawing time (the view's drawMs): the frame interval is what the eye sees, the
// drawing time what the view costs (headless Chromium paces frames at 60 Hz when they fit).
const frameScript = `(async (id, view) => {
	const c = document.getElementById(id);
	const dbg = () => neffscope[view];
	c.focus();
	const ts = [], draws = [];
	let stop = false, last = dbg().drawn;
	const tick = (t) => {
		ts.push(t);
		const d = dbg();
		if (d.drawn !== last) { draws.push(d.drawMs); last = d.drawn; }
		if (!stop) requestAnimationFrame(tick);
	};
	requestAnimationFrame(tick);
	const key = (type, k) => c.dispatchEvent(new KeyboardEvent(type, {key: k, bubbles: true}));
	for (const [k, ms] of [['d', 1500], ['w', 700], ['a', 1500], ['s', 700]]) {
		key('keydown', k);
		await new Promise((r) => setTimeout(r, ms));
		key('keyup', k);
	}
	stop = true;
	const iv = ts.slice(1).map((t, i) => t - ts[i]).sort((a, b) => a - b);
	draws.sort((a, b) => a - b);
	const q = (a, f) => (a.length ? a[Math.min(a.length - 1, Math.floor(f * a.length))] : 0);
	return {frames: iv.length, median: q(iv, 0.5), p95: q(iv, 0.95), drawMedian: q(draws, 0.5), drawP95: q(draws, 0.95), draws: draws.length};
})`

// BenchmarkLanesFrame: the frame time while panning and zooming lanes of a million slices,
// in headless Chromium, by requestAnimationFrame timestamps (median and p95), and the time to
// draw a frame (median and p95): the schedule of the ping-pong NEFF (two lanes of 5 × 10⁵
// instructions, a million waits) and its time lanes (the same instructions in estimated
// time), each zoomed to an eighth of the run first, so a frame holds 62,500 slices a lane.
//
//	make dist && go test -run '^$' -bench LanesFrame -benchtime 1x ./e2e/
func BenchmarkLanesFrame(b *testing.B) {
	path := pingPongNEFF(b, 500_000)
	p := newSlowPage(b, siteURL, 20*time.Minute)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
	p.waitLong(`document.body.dataset.state === 'open' && document.querySelector('#overview-view [data-section="sync"] button')`, "the overview", 10*time.Minute)
	eval[chromedp.Void](p, `document.querySelector('.pane-max[data-pane="content"]').click()`)
	for _, v := range []struct{ name, open, ready, canvas, view string }{
		{"schedule", `Array.from(document.querySelectorAll('#overview-view [data-section="sync"] button')).find((b) => b.textContent === 'Schedule').click()`,
			`neffscope.schedule.open && neffscope.schedule.drawn > 0`, "sched-canvas", "schedule"},
		{"time-lanes", `document.querySelector('#ov-time button[data-time]').click()`,
			`neffscope.lanes.open && neffscope.lanes.estimated > 0 && neffscope.lanes.drawn > 0`, "lanes-canvas", "lanes"},
	} {
		b.Run(v.name, func(b *testing.B) {
			p.clickRow(`#tree [data-path="overview"]`)
			p.waitLong(`document.querySelector('#ov-time button[data-time]')`, "the overview's time line", time.Minute)
			start := time.Now()
			eval[chromedp.Void](p, v.open)
			p.waitLong(v.ready, "the first frame", 10*time.Minute)
			first := time.Since(start)
			eval[chromedp.Void](p, fmt.Sprintf(`neffscope[%q].zoom(8)`, v.view))
			var median, p95, drawMedian, drawP95, frames float64
			for range b.N {
				r := eval[map[string]float64](p, fmt.Sprintf(`(%s)(%q, %q)`, frameScript, v.canvas, v.view))
				median, p95, drawMedian, drawP95, frames = median+r["median"], p95+r["p95"], drawMedian+r["drawMedian"], drawP95+r["drawP95"], frames+r["frames"]
			}
			n := float64(b.N)
			b.ReportMetric(median/n, "ms-frame-median")
			b.ReportMetric(p95/n, "ms-frame-p95")
			b.ReportMetric(drawMedian/n, "ms-draw-median")
			b.ReportMetric(drawP95/n, "ms-draw-p95")
			b.ReportMetric(frames/n, "frames")
			b.ReportMetric(float64(first.Milliseconds()), "ms-to-first-frame")
		})
	}
}
