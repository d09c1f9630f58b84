package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// openSchedule opens the schedule from the overview's sync card and waits for its first screen.
func (p *page) openSchedule() {
	p.t.Helper()
	p.waitFor(`Array.from(document.querySelectorAll('#overview-view [data-section="sync"] button')).some((b) => b.textContent === 'Schedule')`, "the sync card's Schedule button")
	eval[chromedp.Void](p, `Array.from(document.querySelectorAll('#overview-view [data-section="sync"] button')).find((b) => b.textContent === 'Schedule').click()`)
	p.waitFor(`neffscope.schedule.open && neffscope.schedule.drawn > 0`, "the schedule's first screen")
}

// inkedRows counts the painted pixels of the schedule's canvas between css px y0 and y1.
func inkedRows(p *page, y0, y1 int) int {
	return eval[int](p, fmt.Sprintf(`(() => { const c = document.getElementById('sched-canvas'); const r = devicePixelRatio || 1; const y = Math.round(%d * r), h = Math.max(1, Math.min(c.height, Math.round(%d * r)) - y); const d = c.getContext('2d').getImageData(0, y, c.width, h).data; let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++; return n; })()`, y0, y1))
}

// A million waits: the schedule draws them (a box per pixel column when zoomed out, every
// arrow in view when zoomed in, at most its cap), and a zoom or a pan draws a new frame.
func TestScheduleMillionWaits(t *testing.T) {
	path := pingPongNEFF(t, 500_000)
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	eval[chromedp.Void](p, `document.querySelector('.pane-max[data-pane="content"]').click()`)
	p.openSchedule()
	if n := eval[int](p, `neffscope.schedule.instructions`); n < 1_000_000 {
		t.Fatalf("the schedule holds %d instructions, want the million of the ping-pong", n)
	}
	if n := inkedRows(p, 0, 200); n < 1000 {
		t.Errorf("the zoomed-out schedule of a million instructions paints %d pixels", n)
	}
	// Zoomed in far enough for every arrow in view: some are drawn, and never more than the cap.
	drawn := eval[int](p, `neffscope.schedule.drawn`)
	eval[chromedp.Void](p, `neffscope.schedule.zoom(200000)`)
	// (A frame drawn while the maximised pane still settles may have none in view: wait for one
	// that has.)
	p.waitFor(fmt.Sprintf(`neffscope.schedule.drawn > %d && neffscope.schedule.arrows > 0`, drawn), "a frame after the zoom, with arrows")
	st := eval[map[string]any](p, `(() => { const s = neffscope.schedule; return {scale: s.scale, arrows: s.arrows, cut: s.arrowsCut}; })()`)
	if st["scale"].(float64) < 4 {
		t.Fatalf("zoomed in to %v px a step, want at least 4 (every arrow in view)", st["scale"])
	}
	if a := st["arrows"].(float64); a < 10 || a > 4000 {
		t.Errorf("%v arrows drawn zoomed in, want some and at most the cap of 4,000", a)
	}
	// A pan (A held) moves the window and draws again.
	s0 := eval[float64](p, `neffscope.schedule.s0`)
	drawn = eval[int](p, `neffscope.schedule.drawn`)
	eval[chromedp.Void](p, `(() => { const c = document.getElementById('sched-canvas'); c.focus(); c.dispatchEvent(new KeyboardEvent('keydown', {key: 'd', bubbles: true})); setTimeout(() => c.dispatchEvent(new KeyboardEvent('keyup', {key: 'd', bubbles: true})), 200); })()`)
	p.waitFor(fmt.Sprintf(`neffscope.schedule.drawn > %d + 2 && neffscope.schedule.s0 > %f`, drawn, s0), "frames panning right while D is held")
	if shotsOn() {
		p.shot("/tmp/schedule-million.png")
	}
}

// A thousand cores are 6,000 rows: the schedule arrives (the core's collector once ran back to
// back through its call here, for minutes), the canvas stays the size of the viewport, and
// scrolled to the bottom it draws the last core's lanes beside their labels.
func TestScheduleThousandCores(t *testing.T) {
	path := manyCoresNEFF(t, 1000)
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	eval[chromedp.Void](p, `document.querySelector('.pane-max[data-pane="content"]').click()`)
	p.openSchedule()
	st := eval[map[string]float64](p, `(() => { const s = neffscope.schedule; return {cores: s.cores, lanes: s.lanes, height: s.height, canvas: s.canvasHeight, body: document.getElementById('sched-body').clientHeight}; })()`)
	if st["cores"] != 1000 || st["lanes"] != 5000 {
		t.Fatalf("the schedule lays out %v cores and %v lanes, want 1,000 and 5,000", st["cores"], st["lanes"])
	}
	if st["canvas"] > 2*st["body"]+2 || st["height"] < 100_000 {
		t.Errorf("the canvas is %v px tall for a viewport of %v and rows of %v", st["canvas"], st["body"], st["height"])
	}
	if n := eval[int](p, `document.querySelectorAll('#sched-labels > *').length`); n > 80 {
		t.Errorf("%d labels in the DOM: only the rows in view should be", n)
	}
	drawn := eval[int](p, `neffscope.schedule.drawn`)
	eval[chromedp.Void](p, `neffscope.schedule.scroll(1e9)`)
	p.waitFor(fmt.Sprintf(`neffscope.schedule.drawn > %d && document.querySelector('#sched-labels [data-core="sg999"][data-engine="DVE"]')`, drawn), "the last core's lanes in view")
	y := eval[float64](p, `parseFloat(document.querySelector('#sched-labels [data-core="sg999"][data-engine="DVE"]').style.top)`)
	if n := inkedRows(p, int(y), int(y)+24); n < 20 {
		t.Errorf("sg999's DVE lane paints %d pixels at the bottom of 6,000 rows", n)
	}
	if shotsOn() {
		p.shot("/tmp/schedule-cores.png")
	}
}
