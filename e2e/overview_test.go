package e2e

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// nativeOverview opens the NEFF with the native core and returns its overview node: the
// page must show what the core computed, so the test reads its expectations from there.
func nativeOverview(t *testing.T, file []byte) *doc.Node {
	t.Helper()
	f := inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{})
	ov := f.Doc.Root.Child("overview")
	if ov == nil {
		t.Fatal("the native document has no overview node")
	}
	return ov
}

// Opening a real NEFF lands on the overview, which shows with no click every
// input's name and dtype, every engine's instruction count of every core, and every
// activation function of the sets the program loads.
func TestOverviewAnswersWithNoClick(t *testing.T) {
	file := readReal(t)
	ov := nativeOverview(t, file)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`document.getElementById('overview-view') && !document.getElementById('overview-view').hidden`, "the overview")
	if got := p.selectedPath(); got != "overview" {
		t.Errorf("after opening, %q is selected, want the overview", got)
	}
	text := eval[string](p, `document.getElementById('overview-view').textContent`)

	io := ov.Child("io").Table
	if len(io.Rows) != 4 {
		t.Fatalf("native io table has %d rows, want 2 inputs and 2 outputs", len(io.Rows))
	}
	for _, r := range io.Rows {
		if r[0] != "in" {
			continue
		}
		for _, want := range []string{r[1], r[2], r[3]} { // name, dtype, shape
			if !strings.Contains(text, want) {
				t.Errorf("the overview lacks input %s's %q", r[1], want)
			}
		}
	}
	if !strings.Contains(text, "AWS Trainium2") || !strings.Contains(text, "2.23.6484.0") {
		t.Errorf("the model card does not name the chip and compiler: %s", text)
	}

	cells := 0
	for _, c := range ov.Child("engines").Children {
		if c.Kind != doc.KindEngine {
			continue
		}
		cells++
		core, eng, count := c.Attrs[inspect.AttrCore], c.Attrs[inspect.AttrEngine], c.Attrs[inspect.AttrCount]
		sel := fmt.Sprintf(`#overview-view .ov-eng[data-core=%q][data-engine=%q]`, core, eng)
		got := eval[string](p, `(document.querySelector('`+sel+`') || {textContent: 'missing'}).textContent`)
		if got != count {
			t.Errorf("engine cell %s %s shows %q, want %s", core, eng, got, count)
		}
		if mix := eval[string](p, `(document.querySelector('`+sel+`') || {}).title || ''`); c.Attrs[inspect.AttrMix] != "" && !strings.Contains(mix, strings.Split(c.Attrs[inspect.AttrMix], ", ")[0]) {
			t.Errorf("engine cell %s %s's hover %q lacks its top opcode", core, eng, mix)
		}
	}
	if cells != 10 {
		t.Errorf("%d engine cells in the native overview, want 2 cores × 5 engines", cells)
	}

	fns := 0
	for _, set := range ov.Child("activation").Children {
		for _, fn := range set.Children {
			fns++
			name := fn.Attrs[inspect.AttrFunction]
			sel := fmt.Sprintf(`#overview-view .ov-set[data-core=%q] .ov-fn[data-function=%q]`, set.Attrs[inspect.AttrCore], name)
			if !eval[bool](p, `!!document.querySelector('`+sel+`')`) {
				t.Errorf("activation function %s of %s is not shown", name, set.Attrs[inspect.AttrCore])
			}
		}
	}
	if fns < 15 {
		t.Errorf("only %d functions in the native overview (exp_and_others has 15)", fns)
	}
	if !strings.Contains(text, "ulp") {
		t.Errorf("the functions show no error figure")
	}
	if v := eval[string](p, `document.querySelector('#overview-view [data-field="integrity"]').textContent`); !strings.Contains(v, "ok") {
		t.Errorf("the verdict card says %q", v)
	}
	shotBoth(p, t)
}

// shotBoth saves the overview at 1440×900 in the light and the dark theme, for a person to
// look at (and the README: docs/overview-*.png are made from these).
func shotBoth(p *page, t *testing.T) {
	if os.Getenv("NEFFSCOPE_SHOTS") == "" {
		return
	}
	// The browser window is 1440×900 (run's WindowSize).
	for _, theme := range []string{"light", "dark"} {
		eval[chromedp.Void](p, `document.documentElement.dataset.theme = '`+theme+`'`)
		buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Logf("screenshot: %v", err)
			continue
		}
		os.WriteFile("/tmp/overview-"+theme+".png", buf, 0o644)
		eval[chromedp.Void](p, `document.getElementById('overview-view').scrollTop = 235`)
		if buf, err = chromedp.Run(p.ctx, chromedp.CaptureScreenshot()); err == nil {
			os.WriteFile("/tmp/overview-"+theme+"-scrolled.png", buf, 0o644)
		}
		eval[chromedp.Void](p, `document.getElementById('overview-view').scrollTop = 0`)
	}
}

// One click on a function shows its plot; back returns to the overview, forward to the plot.
// An engine leads to its listing.
func TestOverviewLinksAndHistory(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`document.querySelector('#overview-view .ov-fn[data-function="exp_400p"]')`, "the exp_400p link")
	eval[chromedp.Void](p, `document.querySelector('#overview-view .ov-set[data-core="sg01"] .ov-fn[data-function="exp_400p"]').click()`)
	p.waitFor(`!document.getElementById('plot-view').hidden && document.getElementById('plot-title').textContent === 'exp_400p'`, "the plot of exp_400p")
	if got := p.selectedPath(); got != "activation/exp_and_others sg01/functions/exp_400p" {
		t.Errorf("the function link selected %q, want sg01's exp_400p", got)
	}
	if !eval[bool](p, `document.getElementById('overview-view').hidden`) {
		t.Errorf("the overview stays on show over the plot")
	}
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'overview'`, "back to the overview")
	eval[chromedp.Void](p, `history.forward()`)
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'activation/exp_and_others sg01/functions/exp_400p'`, "forward to the function")
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview again")

	// An engine cell leads to that stream's listing.
	eval[chromedp.Void](p, `document.querySelector('#overview-view .ov-eng[data-core="sg00"][data-engine="Activation"]').click()`)
	p.waitFor(`!document.getElementById('listing').hidden && document.getElementById('content-title').textContent === 'sg00/Activation.bin'`, "the listing of sg00/Activation.bin")
	if got := p.selectedPath(); got != "members/sg00//Activation.bin" {
		t.Errorf("the engine link selected %q", got)
	}
	// The activation set link reaches sg01's own copy (its key names the core).
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview after the listing")
	eval[chromedp.Void](p, `document.querySelector('#overview-view .ov-set[data-core="sg01"] .ov-set-name').click()`)
	if got := p.selectedPath(); got != "activation/exp_and_others sg01" {
		t.Errorf("the set link selected %q", got)
	}
}

// A PNG is told it is a PNG, with no offer to open it as a libncfw context.
func TestPNGLooksLikePNG(t *testing.T) {
	p := newPage(t, siteURL)
	p.openByDrop("picture.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"))
	p.waitFor(`document.getElementById('file-name').textContent.includes('picture.png')`, "the PNG")
	fs := eval[string](p, `document.getElementById('findings-list').textContent`)
	if !strings.Contains(fs, "looks like a PNG image") {
		t.Errorf("findings %q do not say it looks like a PNG", fs)
	}
	if !strings.Contains(eval[string](p, `document.getElementById('findings-toggle').textContent`), "warning") {
		t.Errorf("the PNG's findings are not a warning")
	}
	if eval[bool](p, `!!document.getElementById('ctx-open')`) {
		t.Errorf("a PNG is offered as a libncfw context")
	}
}

// Listing rows are links (ActivationTableLoad → its set, a DMA trigger → its queue), and a
// byte of a stream (a click or an offset search) selects its instruction with the listing
// still shown.
func TestListingLinksAndByteOwners(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`document.querySelector('#overview-view .ov-eng[data-core="sg00"][data-engine="Pool"]')`, "the Pool cell")
	eval[chromedp.Void](p, `document.querySelector('#overview-view .ov-eng[data-core="sg00"][data-engine="Pool"]').click()`)
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow .l-link')`, "a linked row in sg00/Pool.bin's listing")
	eval[chromedp.Void](p, `document.querySelector('#listing-rows .lrow .l-link').click()`)
	if got := p.selectedPath(); got != "model/cores/sg00/dma_queues/qPoolDynamic" {
		t.Errorf("the DMA trigger's link selected %q, want sg00's queue qPoolDynamic (its row)", got)
	}
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'members/sg00//Pool.bin'`, "back to the Pool listing")

	// The ActivationTableLoad (row 2 of sg00/Activation.bin) leads to sg00's set.
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/Activation.bin"]`)
	p.waitFor(`document.querySelector('#listing-rows .lrow[data-index="2"] .l-link')`, "the ActivationTableLoad row's link")
	eval[chromedp.Void](p, `document.querySelector('#listing-rows .lrow[data-index="2"] .l-link').click()`)
	if got := p.selectedPath(); got != "activation/exp_and_others sg00" {
		t.Errorf("the ActivationTableLoad link selected %q", got)
	}

	// A byte click in the stream: instruction #3 (bytes 0xc0..0xff), the listing stays.
	p.clickRow(`#tree [data-ref="member:sg00/Activation.bin"]`)
	// (Row 0xd0 may be below the pane's fold, under the data inspector: scroll it into view.)
	p.waitFor(`document.querySelector('#hex-rows .hex-row')`, "the stream's hex rows")
	eval[chromedp.Void](p, `(() => { const h = document.getElementById('hex'); h.scrollTop = 8 * document.querySelector('#hex-rows .hex-row').getBoundingClientRect().height; h.dispatchEvent(new Event('scroll')); })()`)
	p.waitFor(`document.querySelector('#hex-rows .hex-row[data-off="208"] .hb[data-i="4"]')`, "the hex row at 0xd0")
	eval[chromedp.Void](p, `document.querySelector('#hex-rows .hex-row[data-off="208"] .hb[data-i="4"]').click()`)
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow.selected[data-index="3"]')`, "instruction #3 selected in the listing")
	p.waitFor(`document.querySelector('#detail .d-path').textContent.includes('#3')`, "the detail pane to show instruction #3")
	// The byte's smallest field in the word is selected and lit (hex at the field level).
	p.waitFor(`(() => { const h = neffscope.hex.hl; return h && h.off <= 212 && h.off + h.len > 212 && h.off >= 192 && h.off + h.len <= 256 && h.len < 64; })()`, "the field of instruction #3 that holds byte 0xd4 highlighted")

	// The engine's stream field in the model leads to the member and its listing.
	eval[chromedp.Void](p, `location.hash = '#f=' + neffscope.state.doc.sha256.slice(0, 16) + '&n=model/cores/sg00/engines/DVE/stream'`)
	p.waitFor(`document.querySelector('#detail .d-link')`, "the stream field's link")
	eval[chromedp.Void](p, `document.querySelector('#detail .d-link').click()`)
	p.waitFor(`!document.getElementById('listing').hidden && document.getElementById('content-title').textContent === 'sg00/DVE.bin'`, "the DVE listing")
	p.clickRow(`#tree [data-ref="member:sg00/Activation.bin"]`)

	// An offset search in the shown stream lands on the instruction too.
	where, _ := p.searchAndPick(slash, "@260", "offset", "instruction #4")
	if !strings.Contains(where, "sg00/Activation.bin") {
		t.Errorf("the offset result says %q", where)
	}
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow.selected[data-index="4"]')`, "instruction #4 selected by the offset search")
	p.waitFor(`document.activeElement && document.activeElement.id === 'listing'`, "the focus on the listing after the offset pick")
}

// An Activate row leads to its function's plot (attn_v6 calls functions; matmul_small only
// loads its set).
func TestActivateRowShowsPlot(t *testing.T) {
	path, ok := realfiles.Find("nki-moe/attn_v6.neff")
	if !ok {
		t.Skip(realfiles.Missing("nki-moe/attn_v6.neff"))
	}
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	_, row := p.searchAndPick(slash, "Activate", "instruction", "Activation.bin")
	sel := `#listing-rows .lrow.selected[data-index="` + row + `"]`
	p.waitFor(`document.querySelector(`+jsString(sel)+`)`, "the Activate row")
	if !eval[bool](p, `!!document.querySelector(`+jsString(sel+" .l-link")+`)`) {
		t.Fatalf("the Activate row %s has no link: %s", row, eval[string](p, `document.querySelector(`+jsString(sel)+`).textContent`))
	}
	// Enter on the selected row follows its link (the listing is one tab stop).
	p.do(chromedp.Focus(chromedp.ID("listing")))
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`!document.getElementById('plot-view').hidden && neffscope.plot.ref.startsWith('pwp:')`, "the function's plot")
	if got := p.selectedPath(); !strings.Contains(got, "/functions/") {
		t.Errorf("the Activate link selected %q, not a function", got)
	}
}
