package e2e

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
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

// Issue 12: opening a real NEFF lands on the overview, which shows with no click every
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
		eval[chromedp.Void](p, `document.getElementById('overview-view').scrollTop = 420`)
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
