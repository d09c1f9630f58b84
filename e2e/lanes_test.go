package e2e

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/core/timeline"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The time lanes, tested by what they show (element state and globalThis.neffscope.lanes),
// against the native measurement and estimate of the same files (core/timeline).

const (
	attnNEFF    = "nki-moe/attn_v6.neff"
	attnProfile = "nki-moe/profile_attn_v6_exec_2.ntff"
)

// attnFiles reads attn_v6 and its profile, or skips (a clone without ../shared).
func attnFiles(t testing.TB) (neff, prof []byte) {
	t.Helper()
	np, ok := realfiles.Optional(t, attnNEFF, "the time lanes of a real NEFF with its device profile")
	pp, ok2 := realfiles.Optional(t, attnProfile, "the time lanes of a real NEFF with its device profile")
	if !ok || !ok2 {
		t.SkipNow() // Optional said why
	}
	neff, err := os.ReadFile(np)
	if err != nil {
		t.Fatal(err)
	}
	if prof, err = os.ReadFile(pp); err != nil {
		t.Fatal(err)
	}
	return neff, prof
}

// nativeAttn is the native measurement of attn_v6's profile joined to its NEFF (the second
// reader of every figure the page shows), and its estimate.
func nativeAttn(t testing.TB, neff, prof []byte) (*timeline.Result, *timeline.Schedule) {
	nf := inspect.Open("attn_v6.neff", bytes.NewReader(neff), int64(len(neff)), inspect.Options{})
	pf := inspect.Open("p.ntff", bytes.NewReader(prof), int64(len(prof)), inspect.Options{})
	r := timeline.Measure(pf.NTFF, nf, pf.Budget)
	if !r.Measured.Joined {
		t.Fatal("the native measurement did not join attn_v6")
	}
	return r, timeline.Estimate(*timeline.InputOf(nf), nil)
}

// dmaBusy is the length of the union of a core's DMA queues' busy stretches, merged here (not
// by the reader's union) from the native queue segments.
func dmaBusy(r *timeline.Result, c *timeline.MeasuredCore) uint64 {
	var all [][2]uint64
	for _, q := range c.Queues {
		for _, s := range r.QueueSegments(c.Core, q.Index) {
			all = append(all, [2]uint64{s.Start, s.End})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i][0] < all[j][0] })
	var busy, end uint64
	for _, s := range all {
		if s[0] > end {
			busy += s[1] - s[0]
			end = s[1]
		} else if s[1] > end {
			busy += s[1] - end
			end = s[1]
		}
	}
	return busy
}

// near says a page's figure (a data attribute's number) is the native one to a part in 10⁹.
func near(page string, native float64) bool {
	v, err := strconv.ParseFloat(page, 64)
	return err == nil && math.Abs(v-native) <= 1e-9*math.Max(1, math.Abs(native))
}

// Dropped together, a NEFF and its profile open on the NEFF's time lanes: per engine of each
// core a measured and an estimated lane, a lane per DMA queue; a click on an instruction gives
// its measured and estimated times and why it waited, its producer a link; the critical path is
// marked; each engine's idle time by cause; the model's error and limits beside the estimate
// and its error against this profile; the listing has a duration column that marks the longest
// rows; the overview's measured window, PE busy share and DMA rate, each a link to the lanes.
// Every figure is checked against the native reader's (core/timeline).
func TestTimeLanesWithProfile(t *testing.T) {
	neff, prof := attnFiles(t)
	res, est := nativeAttn(t, neff, prof)
	m := res.Measured
	p := newPage(t, siteURL)
	p.dropFiles(map[string][]byte{"attn_v6.neff": neff, "profile_attn_v6_exec_2.ntff": prof}, []string{"attn_v6.neff", "profile_attn_v6_exec_2.ntff"})
	p.waitFor(`neffscope.lanes.open && neffscope.lanes.joined && neffscope.lanes.phase === 'done' && neffscope.lanes.drawn > 0`, "the NEFF's time lanes, measured")
	engines, queues := 0, 0
	for _, c := range m.Cores {
		engines += len(c.Engines)
		queues += len(c.Queues)
	}
	st := eval[map[string]any](p, `(() => { const l = neffscope.lanes; return {file: l.file, m: l.measured, e: l.estimated, q: l.dma, profile: l.profile, docs: neffscope.docs.map((d) => d.kind).join()}; })()`)
	if st["file"] != "attn_v6.neff" || st["m"].(float64) != float64(engines) || st["e"].(float64) != float64(engines) || st["q"].(float64) != float64(queues) || st["profile"] != "profile_attn_v6_exec_2.ntff" {
		t.Errorf("the lanes show %v; want attn_v6.neff with %d measured and %d estimated engine lanes and %d DMA lanes", st, engines, engines, queues)
	}
	if st["docs"] != "neff,ntff" {
		t.Errorf("tabs %v, want the NEFF and its profile", st["docs"])
	}
	labels := eval[[]string](p, `Array.from(document.querySelectorAll('#lanes-labels [data-side]')).slice(0, 4).map((l) => l.dataset.core + '/' + l.dataset.engine + '/' + l.dataset.side)`)
	if strings.Join(labels, ",") != "sg00/PE/measured,sg00/PE/estimated,sg00/Activation/measured,sg00/Activation/estimated" {
		t.Errorf("the first lanes are %v", labels)
	}

	// Click PE #166, the longest of the run (an EventSemaphore met inside).
	pe := m.Cores[0].Engines[0]
	var row timeline.MeasuredRow
	for _, r := range pe.Rows {
		if r.Index == 166 {
			row = r
		}
	}
	cs := est.CoreOf("sg00")
	pt := eval[map[string]float64](p, `(neffscope.lanes.zoom(1), neffscope.lanes.point('m', 0, 0, 166))`)
	if pt == nil {
		t.Fatal("PE #166 is not in the first screen")
	}
	p.do(chromedp.MouseClickXY(pt["x"], pt["y"]))
	p.waitFor(`neffscope.lanes.sel && neffscope.lanes.sel.index === 166 && document.querySelector('#lanes-sel[data-engine]')`, "PE #166 selected")
	sel := eval[map[string]string](p, `Object.assign({}, document.getElementById('lanes-sel').dataset)`)
	wt := cs.WaitedOf(0, 166)
	lat := float64(cs.Engines[0].Lat[166])
	if sel["engine"] != "PE" || sel["index"] != "166" || sel["op"] != "EventSemaphore" || !near(sel["measured"], float64(row.EndPS-row.StartPS)) ||
		!near(sel["estimate"], lat) || !near(sel["estimatedAt"], float64(cs.Engines[0].Start[166])) ||
		!near(sel["error"], (lat-float64(row.EndPS-row.StartPS))/float64(row.EndPS-row.StartPS)) || sel["reason"] != wt.Reason || !near(sel["waited"], float64(wt.PS)) {
		t.Errorf("the selection says %v; natively PE #166 ran %d ps, estimated %v ps at %d, waited %+v", sel, row.EndPS-row.StartPS, lat, cs.Engines[0].Start[166], wt)
	}
	if wt.Producer == nil {
		t.Fatalf("the native estimate has no producer for PE #166: %+v", wt)
	}
	prod := eval[map[string]string](p, `Object.assign({}, (document.querySelector('#lanes-sel .lp-producer') || {dataset: {}}).dataset)`)
	if prod["engine"] != wt.Producer.Engine || prod["index"] != fmt.Sprint(wt.Producer.Index) {
		t.Errorf("the producer link names %v, the estimate's %s #%d", prod, wt.Producer.Engine, wt.Producer.Index)
	}
	eval[chromedp.Void](p, `document.querySelector('#lanes-sel .lp-producer').click()`)
	p.waitFor(fmt.Sprintf(`neffscope.lanes.sel.side === 'e' && neffscope.lanes.sel.index === %d && document.getElementById('lanes-sel').dataset.engine === %q`, wt.Producer.Index, wt.Producer.Engine), "the producer selected")

	// The listing under the lanes shows it, with its measured duration column and its hottest rows.
	p.waitFor(`document.querySelector('#listing-head .col-duration[data-time="measured"]') && document.querySelector('#listing-rows .lrow.selected .col-duration')`, "the listing's duration column")
	eval[chromedp.Void](p, `document.querySelector('#listing-head .lc-time-head').click()`)
	p.waitFor(`document.querySelector('#listing-rows .lrow.hot.selected')`, "the longest row of the stream selected")

	// The critical path: marked, as long as the native one.
	if cp := eval[[]float64](p, `neffscope.lanes.critical`); !eval[bool](p, `neffscope.lanes.crit`) || len(cp) == 0 || int(cp[0]) != len(cs.Critical) {
		t.Errorf("the critical path marked is %v instructions long; natively %d", cp, len(cs.Critical))
	}
	// The model's error and limits beside the estimate, and its error against this profile.
	mi := est.Estimated().Model
	model := eval[map[string]string](p, `Object.assign({}, document.getElementById('lanes-model').dataset)`)
	if model["validated"] != fmt.Sprint(len(mi.Error.ValidatedOn)) || !near(model["spanError"], mi.Error.Span) || model["limits"] != fmt.Sprint(len(mi.NotCovered)) || len(mi.NotCovered) == 0 {
		t.Errorf("the estimate's error and limits are %v; the model's: validated on %v, span ±%v, %d limits", model, mi.Error.ValidatedOn, mi.Error.Span, len(mi.NotCovered))
	}
	ke, _ := timeline.Compare(cs, &m.Cores[0])
	against := eval[map[string]string](p, `(() => { const c = document.querySelector('#lanes-against [data-core="sg00"]'); const o = {span: c ? c.dataset.spanError : ''}; if (c) c.querySelectorAll('[data-engine]').forEach((x) => { o[x.dataset.engine] = x.dataset.busyError; }); return o; })()`)
	if math.Abs(parse(against["span"])-ke.Span) > 5e-4 {
		t.Errorf("against this profile the page says span %s, natively %+.4f", against["span"], ke.Span)
	}
	for e, v := range ke.Busy {
		if math.Abs(parse(against[e])-v) > 5e-4 {
			t.Errorf("against this profile the page says %s busy %q, natively %+.4f", e, against[e], v)
		}
	}
	// Idle by cause: each engine's busy and idle stretches as the native estimate's.
	idle := eval[map[string][]string](p, `(() => { const o = {}; document.querySelectorAll('#lanes-idle[data-core="sg00"] .lp-idle-row').forEach((r) => { o[r.dataset.engine] = Array.from(r.querySelectorAll('.lp-idle-seg')).map((x) => x.dataset.cause + '=' + x.dataset.ps); }); return o; })()`)
	for _, e := range est.Estimated().Cores[0].Engines {
		want := []string{fmt.Sprintf("busy=%d", e.BusyPS)}
		for _, c := range e.Idle {
			if c.PS <= 0 {
				continue
			}
			key := c.Reason
			if c.Engine != "" || c.DMA != "" {
				key += ":" + c.Engine + c.DMA
			}
			want = append(want, fmt.Sprintf("%s=%d", key, c.PS))
		}
		if strings.Join(idle[e.Engine], ",") != strings.Join(want, ",") {
			t.Errorf("%s idle by cause is %v; natively %v", e.Engine, idle[e.Engine], want)
		}
	}
	if shotsOn() {
		p.shot("/tmp/lanes-attn.png")
	}

	// The overview: the measured window, PE busy and the DMA rate, each a link to what makes it.
	p.clickRow(`#tree [data-path="overview"]`)
	p.waitFor(`document.querySelector('#ov-time[data-state="measured"]')`, "the overview's measured line")
	ov := eval[map[string]map[string]string](p, `(() => { const o = {}; document.querySelectorAll('#ov-time button[data-time]').forEach((b) => { o[b.dataset.time] = Object.assign({}, b.dataset); }); return o; })()`)
	c0 := &m.Cores[0]
	var bytes int64
	for _, q := range c0.Queues {
		bytes += q.Bytes
	}
	if !near(ov["window"]["ps"], float64(m.WindowPS[1]-m.WindowPS[0])) || ov["pe"]["core"] != "sg00" || !near(ov["pe"]["busyPs"], float64(pe.BusyPS)) ||
		ov["dma"]["core"] != "sg00" || !near(ov["dma"]["bytes"], float64(bytes)) || !near(ov["dma"]["busyPs"], float64(dmaBusy(res, c0))) || ov["estimated"]["core"] != "sg00" || !near(ov["estimated"]["ps"], float64(cs.SpanPS)) {
		t.Errorf("the overview's time figures are %v; natively window %d ps, PE busy %d ps, DMA %d B over %d ps, estimated span %d ps", ov, m.WindowPS[1]-m.WindowPS[0], pe.BusyPS, bytes, dmaBusy(res, c0), cs.SpanPS)
	}
	eval[chromedp.Void](p, `document.querySelector('#ov-time button[data-time="dma"]').click()`)
	p.waitFor(`neffscope.lanes.open && document.querySelector('#lanes-labels [data-side="dma"]')`, "the DMA lanes in view")
}

// parse is a data attribute's number (NaN when it is none).
func parse(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return math.NaN()
	}
	return v
}

// A profile dropped onto its open NEFF joins it: the NEFF shows its lanes, measured.
func TestTimeLanesProfileOntoOpenNEFF(t *testing.T) {
	neff, prof := attnFiles(t)
	res, _ := nativeAttn(t, neff, prof)
	engines := 0
	for _, c := range res.Measured.Cores {
		engines += len(c.Engines)
	}
	np, _ := realfiles.Find(attnNEFF)
	p := newPage(t, siteURL)
	p.openWithPicker(np)
	p.waitFor(`document.querySelector('#ov-time')`, "the overview's time line")
	p.openByDrop("profile_attn_v6_exec_2.ntff", prof)
	p.waitFor(fmt.Sprintf(`neffscope.lanes.open && neffscope.lanes.file === 'attn_v6.neff' && neffscope.lanes.joined && neffscope.lanes.phase === 'done' && neffscope.lanes.measured === %d`, engines), "the profile joined to the open NEFF")
	if s := eval[string](p, `neffscope.lanes.mismatch`); s != "" {
		t.Errorf("the profile of the open NEFF is refused with %q", s)
	}
}

// A profile of another NEFF dropped onto an open NEFF says so with its code and is not
// overlaid: the NEFF keeps its estimate and says ntff.uuid-mismatch; the profile shows alone.
func TestTimeLanesProfileOfAnotherNEFF(t *testing.T) {
	_, prof := attnFiles(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.openByDrop("profile_attn_v6_exec_2.ntff", prof)
	p.waitFor(`neffscope.lanes.open && neffscope.lanes.file === 'profile_attn_v6_exec_2.ntff' && neffscope.lanes.measured > 0 && neffscope.lanes.phase === 'done'`, "the profile's own lanes")
	if eval[bool](p, `neffscope.lanes.joined`) {
		t.Error("a profile of another NEFF is shown joined")
	}
	if s := eval[string](p, `document.getElementById('toast').textContent`); !strings.Contains(s, "ntff.uuid-mismatch") {
		t.Errorf("the toast says %q, want the ntff.uuid-mismatch finding", s)
	}
	eval[chromedp.Void](p, `neffscope.switchDoc(0)`)
	p.waitFor(`document.querySelector('#ov-time[data-state="mismatch"]')`, "the NEFF's overview saying the profile was not overlaid")
	if s := eval[string](p, `document.getElementById('ov-time').textContent`); !strings.HasPrefix(s, "ntff.uuid-mismatch") {
		t.Errorf("the overview says %q", s)
	}
}

// A profile alone opens on its lanes: each engine's image words in time, its DMA queues, no
// estimate and no source lines.
func TestTimeLanesProfileAlone(t *testing.T) {
	path, ok := realfiles.Optional(t, "nki-moe/profile_v2_new_exec_2.ntff", "a profile whose NEFF is not public, alone")
	if !ok {
		t.SkipNow()
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pf := inspect.Open("p.ntff", bytes.NewReader(data), int64(len(data)), inspect.Options{})
	m := timeline.Measure(pf.NTFF, nil, pf.Budget).Measured
	engines, queues := 0, 0
	for _, c := range m.Cores {
		engines += len(c.Engines)
		queues += len(c.Queues)
	}
	p := newPage(t, siteURL)
	p.openByDrop("profile_v2_new_exec_2.ntff", data)
	p.waitFor(`neffscope.lanes.open && neffscope.lanes.phase === 'done' && neffscope.lanes.drawn > 0`, "the profile's lanes")
	st := eval[map[string]any](p, `(() => { const l = neffscope.lanes; return {m: l.measured, e: l.estimated, q: l.dma, joined: l.joined}; })()`)
	if st["m"].(float64) != float64(engines) || st["e"].(float64) != 0 || st["q"].(float64) != float64(queues) || st["joined"].(bool) {
		t.Errorf("a profile alone shows %v; want %d measured lanes, %d DMA lanes, no estimate", st, engines, queues)
	}
	if eval[bool](p, `!!document.querySelector('#source-side:not([hidden])')`) {
		t.Error("a profile alone shows source lines")
	}
	if shotsOn() {
		p.shot("/tmp/lanes-alone.png")
	}
}

// A NEFF without a profile: the overview says its estimate with the model's error; the lanes
// are estimated only, the critical path marked and switched off by C, idle by cause per
// engine; the listing's column and the source lines are estimated times.
func TestTimeLanesEstimatedOnly(t *testing.T) {
	data, err := os.ReadFile(realNEFF)
	if err != nil {
		t.Fatal(err)
	}
	nf := inspect.Open("matmul_small.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{})
	est := timeline.Estimate(*timeline.InputOf(nf), nil)
	mi := est.Estimated().Model
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`document.querySelector('#ov-time[data-state="estimated"]')`, "the overview's estimate")
	ov := eval[map[string]string](p, `Object.assign({}, document.querySelector('#ov-time button[data-time="estimated"]').dataset)`)
	note := eval[map[string]string](p, `Object.assign({}, (document.querySelector('#ov-time .ov-time-error') || {dataset: {}}).dataset)`)
	cs := est.Cores[0]
	if ov["core"] != cs.Name || !near(ov["ps"], float64(cs.SpanPS)) {
		t.Errorf("the overview's estimate is %v; natively %s %d ps", ov, cs.Name, cs.SpanPS)
	}
	if note["validated"] != fmt.Sprint(len(mi.Error.ValidatedOn)) || !near(note["spanError"], mi.Error.Span) || note["limits"] != fmt.Sprint(len(mi.NotCovered)) {
		t.Errorf("beside the overview's estimate its error and limits are %v; the model's: %v, ±%v, %d limits", note, mi.Error.ValidatedOn, mi.Error.Span, len(mi.NotCovered))
	}
	eval[chromedp.Void](p, `document.querySelector('#ov-time button[data-time="estimated"]').click()`)
	p.waitFor(`neffscope.lanes.open && neffscope.lanes.estimated > 0 && neffscope.lanes.drawn > 0`, "the estimated lanes")
	if st := eval[map[string]float64](p, `(() => { const l = neffscope.lanes; return {m: l.measured, q: l.dma}; })()`); st["m"] != 0 || st["q"] != 0 {
		t.Errorf("a NEFF alone shows measured lanes %v", st)
	}
	engines := 0
	for _, c := range est.Cores {
		engines += len(c.Engines)
	}
	if n := eval[float64](p, `neffscope.lanes.estimated`); int(n) != engines {
		t.Errorf("%v estimated lanes; natively %d engines", n, engines)
	}
	if cp := eval[[]float64](p, `neffscope.lanes.critical`); !eval[bool](p, `neffscope.lanes.crit && document.getElementById('lanes-crit').getAttribute('aria-pressed') === 'true'`) || len(cp) == 0 || int(cp[0]) != len(cs.Critical) {
		t.Errorf("the critical path marked is %v instructions; natively %d", cp, len(cs.Critical))
	}
	eval[chromedp.Void](p, `(() => { const c = document.getElementById('lanes-canvas'); c.focus(); c.dispatchEvent(new KeyboardEvent('keydown', {key: 'c', bubbles: true})); })()`)
	if eval[bool](p, `neffscope.lanes.crit`) {
		t.Error("C did not switch the critical path off")
	}
	// Beside the estimated lanes, the model's error and limits, and no error against a profile.
	model := eval[map[string]string](p, `Object.assign({}, document.getElementById('lanes-model').dataset)`)
	if model["validated"] != fmt.Sprint(len(mi.Error.ValidatedOn)) || model["limits"] != fmt.Sprint(len(mi.NotCovered)) {
		t.Errorf("the lanes' model section is %v", model)
	}
	if eval[bool](p, `!!document.getElementById('lanes-against')`) {
		t.Error("an estimate without a profile shows an error against one")
	}
	// The listing's column is the estimate's, with the model's error.
	p.waitFor(`document.querySelector('#listing-head .col-duration')`, "the listing's estimated durations")
	head := eval[map[string]string](p, `Object.assign({}, document.querySelector('#listing-head .col-duration').dataset)`)
	if head["time"] != "estimated" || !near(head["spanError"], mi.Error.Span) {
		t.Errorf("the duration column is %v for an estimate; want estimated with the span error %v", head, mi.Error.Span)
	}
}

// Source lines by time: with the profile, the pane's "by time" lists the lines longest first,
// as the native measurement ranks them, each with its time.
func TestTimeLanesSourceLinesByTime(t *testing.T) {
	neff, prof := attnFiles(t)
	res, _ := nativeAttn(t, neff, prof)
	m := res.Measured
	p := newPage(t, siteURL)
	p.dropFiles(map[string][]byte{"attn_v6.neff": neff, "profile_attn_v6_exec_2.ntff": prof}, []string{"attn_v6.neff", "profile_attn_v6_exec_2.ntff"})
	p.waitFor(`neffscope.lanes.joined && neffscope.lanes.phase === 'done' && document.querySelector('#source-side .sp-bytime')`, "the source pane's by-time switch")
	eval[chromedp.Void](p, `document.querySelector('#source-side .sp-bytime').click()`)
	p.waitFor(`document.querySelector('#source-side .sp-bytime-list .sp-line')`, "the lines by time")
	got := eval[[]map[string]string](p, `Array.from(document.querySelectorAll('#source-side .sp-bytime-list .sp-line')).slice(0, 5).map((r) => Object.assign({name: r.querySelector('.sp-num').textContent}, r.dataset))`)
	if len(got) < 5 || len(m.Lines) < 5 {
		t.Fatalf("%d lines by time on the page, %d natively", len(got), len(m.Lines))
	}
	for i, g := range got {
		top := m.Lines[i]
		if g["name"] != top.Name() || !near(g["ps"], float64(top.TimePS)) || g["rank"] != fmt.Sprint(i) || g["time"] != "measured" {
			t.Errorf("line %d by time is %v; natively %s %d ps", i, g, top.Name(), top.TimePS)
		}
	}
	if shotsOn() {
		eval[chromedp.Void](p, `document.querySelector('#source-side .sp-bytime-list .sp-line').click()`)
		time.Sleep(time.Second)
		p.shot("/tmp/lanes-source.png")
	}
}

// A big profile's engine lanes are drawn before its DMA records are read: the first lanes
// drawn are the engines' (phase 'lanes'), the DMA lanes follow.
func TestTimeLanesBigProfileEnginesFirst(t *testing.T) {
	neff, prof := attnFiles(t)
	var big bytes.Buffer
	if err := ntffbuild.RepeatDMA(&big, prof, 4, 60, 0); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, siteURL)
	p.dropFiles(map[string][]byte{"attn_v6.neff": neff, "big.ntff": big.Bytes()}, []string{"attn_v6.neff", "big.ntff"})
	p.waitFor(`neffscope.lanes.joined && neffscope.lanes.phase === 'done' && neffscope.lanes.dma > 0`, "the whole profile")
	if ph := eval[string](p, `neffscope.lanes.firstPhase`); ph != "lanes" {
		t.Errorf("the first lanes drawn were of phase %q, want the engines' ('lanes') before the DMA records", ph)
	}
}
