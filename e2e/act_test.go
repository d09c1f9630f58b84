package e2e

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ncfw"
)

const (
	// matmul_small's set (in sg00 and sg01; the page's first set row is sg00's), whose
	// members the tests also drop as loose files.
	looseDir = "nkipy/matmul_small/sg00/"
	actSet   = "exp_and_others"
	// In the NEFF each core loads its own copy: the keys name the core.
	neffSet = actSet + " sg00"
	// exp(0.5) through the exp_400p tables (spec activation.md §8).
	exp05Bits = "3fd308b1"
)

// shot saves a screenshot of the tab (for a person to look at; nothing is compared).
func (p *page) shot(path string) {
	p.t.Helper()
	buf, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100) /* 100: PNG */)
	if err != nil {
		p.t.Logf("screenshot: %v", err)
		return
	}
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		p.t.Logf("screenshot: %v", err)
	}
}

// dropFiles drops several files at once on the window, as a person dragging a selection does.
func (p *page) dropFiles(files map[string][]byte, order []string) {
	p.t.Helper()
	p.dispatchDrop(files, order)
	p.waitOpen()
}

// dispatchDrop drops files on the page in order, as dropFiles does, without waiting for a
// document to open.
func (p *page) dispatchDrop(files map[string][]byte, order []string) {
	p.t.Helper()
	var parts []string
	for _, name := range order {
		parts = append(parts, fmt.Sprintf(`[%q, %q]`, name, base64.StdEncoding.EncodeToString(files[name])))
	}
	js := fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		for (const [name, b64] of [%s]) {
			const bin = atob(b64);
			const u8 = new Uint8Array(bin.length);
			for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
			dt.items.add(new File([u8], name));
		}
		document.body.dispatchEvent(new DragEvent('dragenter', {dataTransfer: dt, bubbles: true, cancelable: true}));
		document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
		return dt.files.length;
	})()`, strings.Join(parts, ","))
	if n := eval[int](p, js); n != len(order) {
		p.t.Fatalf("dropped %d files, want %d", n, len(order))
	}
}

// openFunction goes to an activation function the way a person does: the set's row in the
// tree, then the function's row in the set's function table.
func (p *page) openFunction(setPath, fn string) {
	p.t.Helper()
	p.clickRow(fmt.Sprintf(`.ti[data-kind="pwp-set"][data-path=%q]`, setPath))
	row := fmt.Sprintf(`#detail tr[data-function=%q]`, fn)
	p.waitFor(fmt.Sprintf(`document.querySelector(%q)`, row), "the set's function table")
	eval[chromedp.Void](p, fmt.Sprintf(`document.querySelector(%q).click()`, row))
	p.waitFor(fmt.Sprintf(`neffscope.plot.ref.endsWith('#' + %q) && neffscope.plot.points === 4096`, fn), "the plot of "+fn)
}

// checkPlot: the SVG holds the curves with many points, boundaries and axis labels.
func checkPlot(t *testing.T, p *page) {
	t.Helper()
	segments := eval[[]int](p, `['c-emu', 'c-true', 'c-err'].map(c => { const e = document.querySelector('#plot path.' + c); return e ? (e.getAttribute('d').match(/[ML]/g) || []).length : 0; })`)
	for i, name := range []string{"emulated", "true", "error"} {
		if segments[i] < 300 {
			t.Errorf("the %s curve has %d points in the SVG, want hundreds (4,096 samples over the plot width)", name, segments[i])
		}
	}
	if n := eval[int](p, `document.querySelectorAll('#plot .tick text').length`); n < 6 {
		t.Errorf("%d axis labels", n)
	}
	if !eval[bool](p, `!!document.querySelector('#plot path.oct')`) {
		t.Error("no octave boundaries drawn")
	}
}

// evaluateIn types x in the evaluate box and returns the y bits the page shows.
func (p *page) evaluateIn(x string) string {
	p.t.Helper()
	eval[chromedp.Void](p, fmt.Sprintf(`(() => { delete document.getElementById('eval-out').dataset.bits; document.getElementById('eval-x').value = %q; document.getElementById('eval-go').click(); })()`, x))
	p.waitFor(`document.getElementById('eval-out').dataset.bits`, "the evaluation of "+x)
	return eval[string](p, `document.getElementById('eval-out').dataset.bits`)
}

// checkBucketHighlighted: the hex view shows the bucket record's 32 bytes highlighted, at the
// offset the core's evaluator used.
func checkBucketHighlighted(t *testing.T, p *page, wantSrc string, wantOff int64) {
	t.Helper()
	type hexState struct {
		Source string `json:"source"`
		HL     struct {
			Off int64 `json:"off"`
			Len int64 `json:"len"`
		} `json:"hl"`
	}
	h := eval[hexState](p, `neffscope.hex`)
	if h.Source != wantSrc || h.HL.Off != wantOff || h.HL.Len != 32 {
		t.Fatalf("hex view shows %s bytes %d+%d, want %s bytes %d+32", h.Source, h.HL.Off, h.HL.Len, wantSrc, wantOff)
	}
	p.waitFor(`document.querySelectorAll('#hex-rows .hb.hl').length === 32 && !document.getElementById('hex-rows').textContent.includes('··')`, "32 highlighted bytes in the hex view")
	first := eval[int](p, `(() => { const c = document.querySelector('#hex-rows .hb.hl'); return Number(c.closest('.hex-row').dataset.off) + Number(c.dataset.i); })()`)
	if int64(first) != wantOff {
		t.Errorf("first highlighted byte at %d, want %d", first, wantOff)
	}
}

// nativeExp05 is what the core says natively: the bucket record exp_400p uses for 0.5.
func nativeExp05(t *testing.T, f *inspect.File) *doc.Node {
	t.Helper()
	var ref string
	f.Doc.Root.Walk(func(_ []string, n *doc.Node) bool {
		if ref == "" && n.Kind == "pwp-function" && n.Label == "exp_400p" {
			ref = n.Ref
		}
		return ref == ""
	})
	n, err := f.Evaluate(ref, 0.5, "")
	if err != nil || n.Span == nil {
		t.Fatalf("native evaluate: %v", err)
	}
	return n
}

func TestActivationFunctionPlotAndEvaluate(t *testing.T) {
	data := readReal(t)
	want := nativeExp05(t, inspect.Open("matmul_small.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{}))
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.openFunction("activation/"+neffSet, "exp_400p")
	checkPlot(t, p)
	// The plot opens on the window the core puts on the function node (attrs.window: exp's
	// table range, all reals, clipped to [−8, 8]), not on a guess from its name.
	if got := eval[string](p, `neffscope.plot.lo + ',' + neffscope.plot.hi`); got != "-8,8" {
		t.Errorf("the plot opens on [%s], want exp's window -8,8", got)
	}
	if got := eval[string](p, `document.querySelector('#detail h3:last-of-type') && Array.from(document.querySelectorAll('#detail h3')).map(h => h.textContent).join('|')`); !strings.Contains(got, "Octaves") {
		t.Errorf("the function's detail has no octave table: %q", got)
	}

	if bits := p.evaluateIn("0.5"); bits != exp05Bits {
		t.Fatalf("evaluating 0.5 shows %q, want %s", bits, exp05Bits)
	}
	checkBucketHighlighted(t, p, want.Span.Source, want.Span.Offset)
	if bits := p.evaluateIn("0x3f000000"); bits != exp05Bits {
		t.Errorf("evaluating 0x3f000000 shows %q, want %s", bits, exp05Bits)
	}
	if !eval[bool](p, `!!document.querySelector('#plot .eval-mark circle')`) {
		t.Error("the evaluated point is not marked on the plot")
	}

	// Hover: the crosshair tooltip names x, both curves and the error.
	eval[chromedp.Void](p, `(() => { const r = document.getElementById('plot').getBoundingClientRect(); document.getElementById('plot').dispatchEvent(new PointerEvent('pointermove', {clientX: r.left + r.width * 0.6, clientY: r.top + r.height * 0.3, bubbles: true})); })()`)
	if tip := eval[string](p, `document.getElementById('plot-tip').hidden ? '' : document.getElementById('plot-tip').textContent`); !strings.Contains(tip, "emulated") || !strings.Contains(tip, "rel error") {
		t.Errorf("tooltip %q", tip)
	}
	p.shot("/tmp/neffscope-plot.png")

	// Zoom in with the wheel: the view narrows and the core samples the new range.
	seq := eval[string](p, `document.getElementById('plot-view').dataset.seq`)
	eval[chromedp.Void](p, `(() => { const r = document.getElementById('plot').getBoundingClientRect(); document.getElementById('plot').dispatchEvent(new WheelEvent('wheel', {clientX: r.left + r.width / 2, clientY: r.top + 40, deltaY: -600, bubbles: true, cancelable: true})); })()`)
	p.waitFor(fmt.Sprintf(`document.getElementById('plot-view').dataset.seq !== %q`, seq), "a new plot after zooming")
	type plotState struct {
		Lo, Hi float64
		Points int
	}
	ps := eval[plotState](p, `neffscope.plot`)
	if !(ps.Hi-ps.Lo < 16*0.6) || ps.Points != 4096 {
		t.Errorf("after zooming in: range [%g, %g] with %d points", ps.Lo, ps.Hi, ps.Points)
	}
	checkPlot(t, p)
	// Pan by dragging: the range moves left, its width kept.
	eval[chromedp.Void](p, `(() => { const s = document.getElementById('plot'), r = s.getBoundingClientRect(); const o = {clientX: r.left + r.width / 2, clientY: r.top + 60, bubbles: true, button: 0, pointerId: 1};
		s.dispatchEvent(new PointerEvent('pointerdown', o)); s.dispatchEvent(new PointerEvent('pointermove', Object.assign({}, o, {clientX: o.clientX + 100}))); s.dispatchEvent(new PointerEvent('pointerup', o)); })()`)
	pan := eval[plotState](p, `neffscope.plot`)
	if !(pan.Lo < ps.Lo) || (pan.Hi-pan.Lo)-(ps.Hi-ps.Lo) > 1e-9*(ps.Hi-ps.Lo) {
		t.Errorf("dragging right moved [%g, %g] to [%g, %g]", ps.Lo, ps.Hi, pan.Lo, pan.Hi)
	}
	// The keyboard zooms too (the plot is focusable).
	before := eval[plotState](p, `neffscope.plot`)
	eval[chromedp.Void](p, `(() => { const s = document.getElementById('plot'); s.focus(); s.dispatchEvent(new KeyboardEvent('keydown', {key: '+', bubbles: true})); })()`)
	if after := eval[plotState](p, `neffscope.plot`); !(after.Hi-after.Lo < before.Hi-before.Lo) {
		t.Errorf("'+' on the plot: [%g, %g] → [%g, %g]", before.Lo, before.Hi, after.Lo, after.Hi)
	}
	// The range inputs set the view.
	eval[chromedp.Void](p, `(() => { const lo = document.getElementById('plot-lo'), hi = document.getElementById('plot-hi'); lo.value = '0.25'; hi.value = '0.75'; hi.dispatchEvent(new Event('change')); })()`)
	p.waitFor(`neffscope.plot.lo === 0.25 && neffscope.plot.hi === 0.75`, "the typed range")
}

func TestLooseActivationFilesDroppedTogether(t *testing.T) {
	names := []string{"act_info.json", actSet + ".json", actSet + "_bkt.bin", actSet + "_ctrl.bin"}
	files := map[string][]byte{}
	for _, n := range names {
		files[n] = realfiles.Read(t, looseDir+n)
	}
	loose := map[string][]byte{}
	for k, v := range files {
		loose[k] = v
	}
	// A file that is not an activation table opens on its own, in its own tab.
	files["notes.bin"] = bytes.Repeat([]byte{0xfe, 0xed}, 64)
	var group []inspect.NamedReader
	for _, n := range names {
		group = append(group, inspect.NamedReader{Name: n, R: bytes.NewReader(loose[n]), Size: int64(len(loose[n]))})
	}
	want := nativeExp05(t, inspect.OpenGroup(group, inspect.Options{})[0])

	p := newPage(t, siteURL)
	p.dropFiles(files, append(names, "notes.bin"))
	type docInfo struct {
		File, Kind string
		Current    bool
	}
	docs := eval[[]docInfo](p, `neffscope.docs`)
	if len(docs) != 2 || docs[0].Kind != "pwp" || !docs[0].Current || docs[1].File != "notes.bin" {
		t.Fatalf("documents after the drop: %+v, want the joined tables (current) and notes.bin", docs)
	}
	if n := eval[int](p, `document.querySelectorAll('#doc-tabs .doc-tab').length`); n != 2 {
		t.Errorf("%d document tabs, want 2", n)
	}
	p.openFunction(actSet, "exp_400p")
	checkPlot(t, p)
	if bits := p.evaluateIn("0.5"); bits != exp05Bits {
		t.Fatalf("evaluating 0.5 on the loose files shows %q, want %s", bits, exp05Bits)
	}
	checkBucketHighlighted(t, p, actSet+"_bkt.bin", want.Span.Offset)
	// The bytes shown are the dropped blob's.
	hexBytes := eval[string](p, `Array.from(document.querySelectorAll('#hex-rows .hb.hl')).map(c => c.textContent).join('')`)
	rec := files[actSet+"_bkt.bin"][want.Span.Offset : want.Span.Offset+32]
	if hexBytes != fmt.Sprintf("%x", rec) {
		t.Errorf("highlighted bytes %s, want %x", hexBytes, rec)
	}
	p.shot("/tmp/neffscope-loose.png")
	// The other tab shows the other file.
	eval[chromedp.Void](p, `document.querySelector('#doc-tabs .doc-tab[data-index="1"]').click()`)
	p.waitFor(`neffscope.docs[1].current && document.getElementById('file-name').textContent.startsWith('notes.bin')`, "the second tab")
}

// fieldRow is one row of the emulator's field map, natively.
type fieldRow struct{ off, width int64 }

func nativeFields(t *testing.T, ctxBytes []byte, arch uint32) (rows []fieldRow, lines int) {
	t.Helper()
	f := inspect.OpenContext("ctx.bin", bytes.NewReader(ctxBytes), int64(len(ctxBytes)), arch, "")
	text := f.Doc.Root.Child("text")
	cols := text.Table.Columns
	idx := func(name string) int {
		for i, c := range cols {
			if c == name {
				return i
			}
		}
		t.Fatalf("field map has no column %s: %v", name, cols)
		return -1
	}
	co, cw := idx("offset"), idx("width")
	for _, r := range text.Table.Rows {
		off, _ := strconv.ParseInt(r[co], 10, 64)
		w, _ := strconv.ParseInt(r[cw], 10, 64)
		rows = append(rows, fieldRow{off, w})
	}
	return rows, strings.Count(text.Value, "\n")
}

func TestContextEmulatedWithArchSwitch(t *testing.T) {
	ctxBytes := ncfw.SampleContext(12, "patterned")
	rows12, lines12 := nativeFields(t, ctxBytes, 12)
	rows5, lines5 := nativeFields(t, ctxBytes, 5)
	if lines12 == lines5 {
		t.Fatalf("test premise: arch 5 and 12 print the same number of lines (%d)", lines5)
	}

	p := newPage(t, siteURL)
	p.openByDrop("ctx.bin", ctxBytes)
	// An unrecognised binary: the page offers to read it as a context, with the arches.
	p.waitFor(`document.querySelectorAll('#ctx-arch-offer option').length === 4`, "the arch chooser")
	if guess := eval[string](p, `document.getElementById('ctx-arch-offer').value`); guess != "12" {
		t.Errorf("arch offered first %q, want 12 (the size's best guess)", guess)
	}
	eval[chromedp.Void](p, `document.getElementById('ctx-arch-offer').value = '12'; document.getElementById('ctx-open').click()`)
	p.waitFor(`document.getElementById('ctx-view').dataset.arch === '12' && !document.getElementById('ctx-view').hidden`, "the context emulated for arch 12")
	if rc := eval[string](p, `document.getElementById('ctx-rc').textContent`); !strings.HasPrefix(rc, "rc 0") {
		t.Errorf("rc shown %q, want rc 0", rc)
	}
	if n := eval[int](p, `neffscope.ctx.lines`); n != lines12 {
		t.Errorf("arch 12: %d lines shown, the emulator prints %d", n, lines12)
	}
	text12, _ := ncfw.Emit(ctxBytes, "", 12)
	text5, _ := ncfw.Emit(ctxBytes, "", 5)
	if got := eval[string](p, `neffscope.ctx.text`); got != string(text12) {
		t.Fatalf("arch 12: the page's text (%d bytes) is not what the emulator prints (%d bytes)", len(got), len(text12))
	}

	// Switch to arch 5: re-emitted at once, the text changes.
	eval[chromedp.Void](p, `(() => { const s = document.getElementById('ctx-arch'); s.value = '5'; s.dispatchEvent(new Event('change')); })()`)
	p.waitFor(`document.getElementById('ctx-view').dataset.arch === '5'`, "the switch to arch 5")
	if n := eval[int](p, `neffscope.ctx.lines`); n != lines5 {
		t.Errorf("arch 5: %d lines shown, the emulator prints %d", n, lines5)
	}
	if got := eval[string](p, `neffscope.ctx.text`); got != string(text5) || bytes.Equal(text5, text12) {
		t.Fatalf("arch 5: the page's text (%d bytes) is not what the emulator prints (%d bytes), or did not change", len(got), len(text5))
	}
	// The visible lines are the text's, with line numbers.
	shown := eval[string](p, `Array.from(document.querySelectorAll('#ctx-lines .tl .tx')).slice(0, 10).map(l => l.textContent).join('\n')`)
	if want := strings.Join(strings.SplitN(string(text5), "\n", 11)[:10], "\n"); shown != want {
		t.Errorf("first lines shown:\n%s\nwant:\n%s", shown, want)
	}
	if rc := eval[string](p, `document.getElementById('ctx-rc').textContent`); !strings.HasPrefix(rc, "rc 0") {
		t.Errorf("rc shown %q after the switch", rc)
	}
	t.Logf("arch switch took %.1f ms in the page", eval[float64](p, `neffscope.lastRecontext.ms`))

	// Click a printed value: its struct bytes are highlighted in hex, exactly the field map's.
	k := eval[int](p, `(() => { const v = Array.from(document.querySelectorAll('#ctx-lines .tv:not(.nobytes)'))[3]; v.click(); return Number(v.dataset.row); })()`)
	type hexState struct {
		Source string `json:"source"`
		HL     *struct {
			Off int64 `json:"off"`
			Len int64 `json:"len"`
		} `json:"hl"`
	}
	h := eval[hexState](p, `neffscope.hex`)
	if h.HL == nil || h.Source != "" || h.HL.Off != rows5[k].off || h.HL.Len != rows5[k].width {
		t.Fatalf("clicking value %d highlighted %+v, the field map says offset %d width %d", k, h.HL, rows5[k].off, rows5[k].width)
	}
	p.waitFor(fmt.Sprintf(`document.querySelectorAll('#hex-rows .hb.hl').length === %d`, rows5[k].width), "the value's bytes in hex")
	if !eval[bool](p, fmt.Sprintf(`document.querySelector('#ctx-lines .tv[data-row="%d"]').classList.contains('sel')`, k)) {
		t.Error("the clicked value is not marked in the text")
	}

	// Click a hex byte of another field: the values printed from it are marked in the text and
	// scrolled to.
	off := eval[int](p, fmt.Sprintf(`(() => { const cells = Array.from(document.querySelectorAll('#hex-rows .hb[data-i]')).filter(c => (c.classList.contains('f0') || c.classList.contains('f1')) && !c.classList.contains('hl'));
		const c = cells[Math.floor(cells.length / 2)]; c.click(); return Number(c.closest('.hex-row').dataset.off) + Number(c.dataset.i); })()`))
	marked := eval[[]int](p, `neffscope.ctx.marked`)
	var wantMarked []int
	for i, r := range rows5 {
		if r.width > 0 && int64(off) >= r.off && int64(off) < r.off+r.width {
			wantMarked = append(wantMarked, i)
		}
	}
	if len(marked) == 0 || fmt.Sprint(marked) != fmt.Sprint(wantMarked) {
		t.Fatalf("clicking hex byte %d marked rows %v, the field map says %v", off, marked, wantMarked)
	}
	p.waitFor(`document.querySelector('#ctx-lines .tv.mark')`, "the marked value in the visible text")
	p.shot("/tmp/neffscope-ctx.png")

	// Copy and Download are there; the field tree is in the structure pane.
	if !eval[bool](p, `!!document.getElementById('ctx-copy') && !!document.getElementById('ctx-download') && !!document.querySelector('#tree .ti[data-kind="ncfw"]')`) {
		t.Error("copy/download buttons or the field tree missing")
	}
	// A model name of 1 MiB fills libncfw's buffer: rc 28, the text cut at 0xFFFFF bytes, shown
	// plainly; the virtualised text still reaches its last line.
	long := strings.Repeat("m", 1<<20)
	cut, rc := ncfw.Emit(ctxBytes, long, 5)
	if rc != 28 {
		t.Fatalf("test premise: a 1 MiB model name gives rc %d", rc)
	}
	eval[chromedp.Void](p, `(() => { const m = document.getElementById('ctx-model'); m.value = 'm'.repeat(1 << 20); m.dispatchEvent(new Event('change')); })()`)
	p.waitFor(`document.getElementById('ctx-view').dataset.rc === '28'`, "rc 28 after a 1 MiB model name")
	if got := eval[string](p, `document.getElementById('ctx-rc').textContent + ' | ' + document.getElementById('ctx-banner').textContent`); !strings.HasPrefix(got, "rc 28") || !strings.Contains(got, "0xFFFFF") {
		t.Errorf("rc shown %q", got)
	}
	if n := eval[int](p, `neffscope.ctx.text.length`); n != len(cut) || n != 0xFFFFF {
		t.Errorf("cut text %d bytes in the page, the emulator %d", n, len(cut))
	}
	eval[chromedp.Void](p, `(() => { const s = document.getElementById('ctx-text'); s.scrollTop = s.scrollHeight; s.dispatchEvent(new Event('scroll')); })()`)
	p.waitFor(fmt.Sprintf(`document.querySelector('#ctx-lines .tl[data-line="%d"]')`, strings.Count(string(cut), "\n")+1), "the last line of the cut text")
	p.shot("/tmp/neffscope-ctx-rc28.png")

	// The text as a dump (what a log holds) opens as a tree with line numbers.
	p.openByDrop("ctx.arch5.txt", text5)
	p.waitFor(`neffscope.state && neffscope.state.doc.kind === 'ncfw-dump'`, "the dump document (a tab beside the context)")
	p.expand(`#tree .ti[aria-level="2"]`)
	lines := eval[[]string](p, `Array.from(document.querySelectorAll('#tree .lineno')).slice(0, 3).map(e => e.textContent)`)
	if len(lines) < 2 || lines[0] == "" {
		t.Errorf("the dump tree shows no line numbers: %v", lines)
	}
	p.shot("/tmp/neffscope-dump.png")
	if len(rows12) == len(rows5) {
		t.Logf("arch 5 and 12 map the same number of fields (%d)", len(rows5))
	}
}

// BenchmarkPlotRedraw: recomputing (core, in the worker) and redrawing (SVG) a 4,096-point plot
// of exp_400p in the page, as a zoom or pan does. Goal ≤ 50 ms.
//
//	make dist && go test -run '^$' -bench PlotRedraw -benchtime 20x ./e2e/
func BenchmarkPlotRedraw(b *testing.B) {
	p := newPage(b, siteURL)
	p.openWithPicker(realfiles.Path(b, "nkipy/matmul_small.neff"))
	p.openFunction("activation/"+neffSet, "exp_400p")
	type timing struct{ CoreMs, DecodeMs, DrawMs, TotalMs float64 }
	var sum timing
	b.ResetTimer()
	for i := range b.N {
		lo := -8 + float64(i%7)*0.5
		t := eval[timing](p, fmt.Sprintf(`neffscope.replot(%g, %g)`, lo, lo+10))
		sum.CoreMs += t.CoreMs
		sum.DecodeMs += t.DecodeMs
		sum.DrawMs += t.DrawMs
		sum.TotalMs += t.TotalMs
	}
	n := float64(b.N)
	b.ReportMetric(sum.CoreMs/n, "ms-core")
	b.ReportMetric(sum.DecodeMs/n, "ms-msgpack")
	b.ReportMetric(sum.DrawMs/n, "ms-draw")
	b.ReportMetric(sum.TotalMs/n, "ms-total")
}
