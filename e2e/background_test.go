package e2e

import (
	"testing"
	"time"
)

// A click is answered while the work after an open runs: on the 32 MiB real-shaped NEFF the
// source lines are mapped after the overview (tens of seconds of the core's time in the page);
// a member picked meanwhile shows its bytes, which the core inflates for it, before the mapping
// has ended, and the mapping still ends after it. Asserted by state (the member's bytes on
// screen while lastOpen says the source lines are pending), not by time.
func TestBigRealShapedClickWhileMapping(t *testing.T) {
	path := bigRealNEFF(t, 32)
	p := newSlowPage(t, siteURL, 10*time.Minute)
	p.openWithPicker(path)
	p.waitFor(`neffscope.lastOpen && neffscope.lastOpen.totalMs > 0`, "the open")
	const mapping = `neffscope.lastOpen.sourcePending === true && !(neffscope.lastOpen.sourceMs > 0)`
	if !eval[bool](p, mapping) {
		t.Fatalf("the source lines are not being mapped after the open: %v", eval[map[string]any](p, `neffscope.lastOpen`))
	}
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/def.json"]`)
	p.waitFor(`neffscope.hex.source === 'sg00/def.json'`, "def.json in the hex view")
	p.waitFor(`(() => { const r = document.querySelector('#hex-rows .hex-row[data-off="0"]'); return r && !r.textContent.includes('··'); })()`, "def.json's first bytes")
	if !eval[bool](p, mapping) {
		t.Errorf("the member's bytes came only after the source lines were mapped: %v", eval[map[string]any](p, `neffscope.lastOpen`))
	}
	p.waitLong(`neffscope.lastOpen.sourceMs > 0`, "the source lines mapped after the click", 5*time.Minute)
	if got := eval[string](p, `neffscope.hex.source`); got != "sg00/def.json" {
		t.Errorf("after the mapping the hex view shows %q, want sg00/def.json", got)
	}
}
