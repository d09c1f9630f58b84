package e2e

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/neffscope/neffscope/core/timeline"
)

// An estimated time is never shown without the model's stated error: the listing's duration
// cell and a time lane's tooltip over an estimated instruction say the leave-one-out error
// (span, and the engine's busy error) and what the model does not cover, as the lanes' side
// panel does; with a profile, a measured cell that names the estimate says it too.

// modelWords is what a title must say of model mi (for engine's busy error).
func modelWords(mi timeline.ModelInfo, engine string) []string {
	pct := func(f float64) string { return fmt.Sprintf("±%d %%", int(math.Round(100*f))) }
	// Each limit is named by its head, the words before its gloss (the side panel says it whole).
	head := func(s string) string {
		if i := strings.Index(s, " ("); i >= 0 {
			s = s[:i]
		}
		if i := strings.Index(s, ": "); i >= 0 {
			s = s[:i]
		}
		return s
	}
	out := []string{
		fmt.Sprintf("leave-one-out on %d profiled kernels", len(mi.Error.ValidatedOn)),
		"span " + pct(mi.Error.Span),
		"Not modelled: " + head(mi.NotCovered[0]) + ";",
		"; " + head(mi.NotCovered[len(mi.NotCovered)-1]) + ".",
	}
	if b, ok := mi.Error.Busy[engine]; ok {
		out = append(out, engine+" "+pct(b))
	}
	return out
}

// saysAll fails unless title holds every one of want.
func saysAll(t *testing.T, what, title string, want []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(title, w) {
			t.Errorf("%s says %q: no %q", what, title, w)
		}
	}
}

// hoverTip moves the pointer over instruction i of engine e of core k on side ('m' or 'e')
// of the time lanes and returns the tooltip's text.
func (p *page) hoverTip(side string, k, e, i int) string {
	p.t.Helper()
	eval[chromedp.Void](p, fmt.Sprintf(`neffscope.lanes.pick(%q, %d, %d, %d)`, side, k, e, i))
	p.waitFor(fmt.Sprintf(`!!neffscope.lanes.point(%q, %d, %d, %d)`, side, k, e, i), "the instruction in view")
	eval[chromedp.Void](p, fmt.Sprintf(`(() => {
		const pt = neffscope.lanes.point(%q, %d, %d, %d), c = document.getElementById('lanes-canvas');
		c.dispatchEvent(new PointerEvent('pointermove', {clientX: pt.x, clientY: pt.y, bubbles: true}));
	})()`, side, k, e, i))
	p.waitFor(`!document.getElementById('lanes-tip').hidden`, "the tooltip")
	return eval[string](p, `Array.from(document.getElementById('lanes-tip').children).map((d) => d.textContent).join('\n')`)
}

func TestEstimatesSayTheirError(t *testing.T) {
	est := timeline.Estimate(*timeline.InputOf(nativeMatmul(t)), nil)
	mi := est.Estimated().Model
	c := est.Cores[0]
	// The first engine with an instruction that runs.
	e := -1
	for k, en := range c.Engines {
		if len(en.Start) > 0 && en.Start[0] >= 0 && en.Lat[0] > 0 {
			e = k
			break
		}
	}
	if e < 0 {
		t.Fatal("natively no engine of sg00 runs an instruction")
	}
	engine := c.Engines[e].Name
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`document.querySelector('#ov-time[data-state="estimated"]')`, "the overview's estimate")
	eval[chromedp.Void](p, `document.querySelector('#ov-time button[data-time="estimated"]').click()`)
	p.waitFor(`neffscope.lanes.open && neffscope.lanes.estimated > 0 && neffscope.lanes.drawn > 0`, "the estimated lanes")
	saysAll(t, "the estimated lane's tooltip", p.hoverTip("e", 0, e, 0), append(modelWords(mi, engine), "estimated "))
	// The listing under the lanes shows the picked instruction, its duration estimated.
	p.waitFor(`document.querySelector('#listing-rows .lrow .col-duration[title]')`, "the listing's estimated durations")
	cell := eval[string](p, `document.querySelector('#listing-rows .lrow .col-duration[title]').title`)
	saysAll(t, "the listing's estimated duration", cell, append(modelWords(mi, ""), "estimated "))
	lane := eval[string](p, `(document.querySelector('#lanes-labels [title*="estimated:"]') || {title: ''}).title`)
	saysAll(t, "an estimated lane's label", lane, modelWords(mi, ""))
}

// With a profile: a measured duration whose estimate the title names says the model's error.
func TestEstimatesSayTheirErrorBesideAProfile(t *testing.T) {
	neff, prof := attnFiles(t)
	_, s := nativeAttn(t, neff, prof)
	mi := s.Estimated().Model
	p := newPage(t, siteURL)
	p.dropFiles(map[string][]byte{"attn_v6.neff": neff, "profile_attn_v6_exec_2.ntff": prof}, []string{"attn_v6.neff", "profile_attn_v6_exec_2.ntff"})
	p.waitFor(`neffscope.lanes.joined && neffscope.lanes.phase === 'done' && neffscope.lanes.drawn > 0`, "the measured lanes")
	eval[chromedp.Void](p, `neffscope.lanes.pick('m', 0, 0, 166)`)
	p.waitFor(`Array.from(document.querySelectorAll('#listing-rows .lrow .col-duration[title]')).some((c) => c.title.includes('estimated'))`, "a measured duration beside its estimate")
	cell := eval[string](p, `Array.from(document.querySelectorAll('#listing-rows .lrow .col-duration[title]')).find((c) => c.title.includes('estimated')).title`)
	saysAll(t, "a measured duration's title", cell, modelWords(mi, ""))
	saysAll(t, "the measured lane's tooltip", p.hoverTip("m", 0, 0, 166), append(modelWords(mi, "PE"), "estimated "))
}
