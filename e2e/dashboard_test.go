package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The overview is the main view at every size (a dashboard
// with the structure, details and bytes as drawers), tab names that read differently, and a
// welcome screen with "Try an example".

// dashCards are the overview's answers that must be on screen with no scroll at 1440×900.
var dashCards = []string{"io", "engines", "activation", "memory", "hot_lines"}

// closedDrawers starts a tab with every drawer closed (the choice is remembered in the
// browser profile the tests share); once per tab, so a reload keeps what the test chose.
const closedDrawers = `if (!sessionStorage.getItem('drawers-reset')) { localStorage.setItem('neffscope.drawers', '{}'); sessionStorage.setItem('drawers-reset', '1'); }`

// waitDashboard waits for the overview with its source lines mapped (the hottest lines card
// fills in after the open).
func (p *page) waitDashboard() {
	p.t.Helper()
	p.waitFor(`document.body.classList.contains('dash') && !document.getElementById('overview-view').hidden`, "the overview as the dashboard")
	p.waitFor(`!document.querySelector('#overview-view [data-section="hot_lines"].pending, #overview-view [data-section="source"].pending')`, "the source lines mapped")
}

// cardsInView fails for each card named that is missing or not wholly inside the window.
func cardsInView(t *testing.T, p *page, file string, cards []string) {
	t.Helper()
	win := eval[[]float64](p, `[window.innerWidth, window.innerHeight]`)
	for _, c := range cards {
		b := p.box(fmt.Sprintf(`#overview-view .ov-card[data-section=%q]`, c))
		if b[2] == 0 {
			t.Errorf("%s: the %s card is not shown", file, c)
			continue
		}
		if b[0] < 0 || b[1] < 0 || b[0]+b[2] > win[0]+0.5 || b[1]+b[3] > win[1]+0.5 {
			t.Errorf("%s: the %s card %v is not inside the %v×%v window", file, c, b, win[0], win[1])
		}
	}
	// Nothing of the board needs a scroll to reach those cards: the view itself is not scrolled.
	if top := eval[float64](p, `document.getElementById('overview-view').scrollTop`); top != 0 {
		t.Errorf("%s: the overview is scrolled (%v)", file, top)
	}
}

func TestDashboardAt1440x900(t *testing.T) {
	p := newPageWith(t, siteURL, closedDrawers, "ready")
	p.openWithPicker(realNEFF)
	p.waitDashboard()
	cardsInView(t, p, "matmul_small.neff", dashCards)
	// The board has the width: the structure and details are closed drawers, the bytes too.
	if w := p.box("#overview-view")[2]; w < 1400 {
		t.Errorf("the overview is %.0f px wide at 1440, want the page's width", w)
	}
	for _, id := range []string{"#pane-tree", "#pane-detail", "#hex-wrap"} {
		if b := p.box(id); b[2] > 1 && b[3] > 1 {
			t.Errorf("%s shows (%v) with its drawer closed", id, b)
		}
	}
	// Five hot lines, each a link to its instructions.
	if n := eval[int](p, `document.querySelectorAll('#overview-view [data-section="hot_lines"] tbody tr button.ov-link').length`); n < 1 || n > 5 {
		t.Errorf("%d hot-line links, want 1 to 5", n)
	}
	// The hot lines say how many instructions have no source line, as the core counts them.
	want := nativeMatmul(t).Doc.Root.Children[0].Child(inspect.OverviewHotLines).Attrs[doc.AttrNoLine]
	if got := eval[string](p, `(document.querySelector('#overview-view [data-section="hot_lines"] .ov-no-line') || {dataset: {}}).dataset.noLine || ''`); want == "" || got != want {
		t.Errorf("the hot lines' no-line count %q, want the core's %q", got, want)
	}
	p.shot("/tmp/neffscope-dash-1440.png")
	if os.Getenv("NEFFSCOPE_DOCS_SHOT") != "" {
		if png, err := os.ReadFile("/tmp/neffscope-dash-1440.png"); err == nil {
			os.WriteFile("../docs/img/overview.png", png, 0o644)
		}
	}

	// The drawers open on demand (the buttons, or t d b), and the choice is remembered.
	eval[chromedp.Void](p, `document.activeElement && document.activeElement.blur()`)
	p.press("t")
	p.waitFor(`document.getElementById('pane-tree').getBoundingClientRect().width > 150`, "the structure drawer to open on t")
	p.click(`.drawer-toggle[data-drawer="hex"]`)
	p.waitFor(`document.getElementById('hex-wrap').getBoundingClientRect().height > 100`, "the bytes drawer to open")
	if got := eval[string](p, `document.querySelector('.drawer-toggle[data-drawer="tree"]').getAttribute('aria-pressed') + document.querySelector('.drawer-toggle[data-drawer="hex"]').getAttribute('aria-pressed')`); got != "truetrue" {
		t.Errorf("the toggles' aria-pressed: %s", got)
	}
	p.shot("/tmp/neffscope-dash-1440-drawers.png")
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after the reload")
	if d := eval[map[string]bool](p, `neffscope.layout.drawers`); !d["tree"] || !d["hex"] || d["detail"] {
		t.Errorf("after a reload the drawers are %v, want the structure and bytes open", d)
	}
	eval[chromedp.Void](p, `localStorage.setItem('neffscope.drawers', '{}')`)

	// Leaving the overview (a link to an engine's listing) brings the workbench back.
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after the reload")
	if st := eval[string](p, `document.body.dataset.state`); st != "open" {
		p.openWithPicker(realNEFF)
	}
	p.waitDashboard()
	p.click(`#overview-view .ov-eng`)
	p.waitFor(`!document.body.classList.contains('dash') && !document.getElementById('listing').hidden`, "the listing in the workbench")
	if w := p.box("#pane-tree")[2]; w < 150 {
		t.Errorf("out of the overview the structure pane is %.0f px wide", w)
	}
}

// A bigger real NEFF: its five answers fit too (those it has: a NEFF without debug info has no
// hot lines).
func TestDashboardBiggerRealFiles(t *testing.T) {
	for _, rel := range []string{"nki-moe/attn_v6.neff", "cs149-trn1/file_pool_2_float32.neff"} {
		path, ok := realfiles.Find(rel)
		t.Run(rel, func(t *testing.T) {
			if !ok {
				t.Skip(realfiles.Missing(rel))
			}
			p := newPageWith(t, siteURL, closedDrawers, "ready")
			p.openWithPicker(path)
			p.waitDashboard()
			cards := []string{}
			for _, c := range dashCards {
				if eval[bool](p, fmt.Sprintf(`!!document.querySelector('#overview-view .ov-card[data-section=%q]')`, c)) {
					cards = append(cards, c)
				} else if c != "hot_lines" && c != "activation" {
					t.Errorf("%s has no %s card", rel, c)
				}
			}
			cardsInView(t, p, rel, cards)
			// The no-line count is on show inside its card, not below five rows.
			if eval[bool](p, `!!document.querySelector('#overview-view [data-section="hot_lines"] .ov-no-line')`) {
				nl, card := p.box(`#overview-view [data-section="hot_lines"] .ov-no-line`), p.box(`#overview-view .ov-card[data-section="hot_lines"]`)
				if nl[2] == 0 || nl[1] < card[1] || nl[1]+nl[3] > card[1]+card[3]+0.5 {
					t.Errorf("%s: the no-line count %v is not inside its card %v", rel, nl, card)
				}
			}
			p.shot("/tmp/neffscope-dash-1440-" + strings.ReplaceAll(strings.TrimSuffix(rel, ".neff"), "/", "-") + ".png")
		})
	}
}

func TestDashboardAt800x600(t *testing.T) {
	p := newPageWith(t, siteURL, closedDrawers, "ready")
	p.viewport(800, 600)
	p.openWithPicker(realNEFF)
	p.waitDashboard()
	if got := eval[string](p, `neffscope.layout.pane`); got != "content" {
		t.Errorf("at 800×600 the page opens on the %q pane, want the content (the overview)", got)
	}
	if h := p.box("#overview-view")[3]; h < 300 {
		t.Errorf("the overview is %.0f px tall at 800×600", h)
	}
	// The summary chips fold into one line.
	if h := p.box("#summary")[3]; h > 40 {
		t.Errorf("the summary is %.0f px tall at 800×600, want one line", h)
	}
	if w := eval[[]int](p, `[document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
		t.Errorf("the page overflows the window: %v", w)
	}
	p.shot("/tmp/neffscope-dash-800.png")
}

func TestTryAnExample(t *testing.T) {
	for _, c := range []struct{ name, url string }{{"site", siteURL}, {"single file", singleURL}} {
		t.Run(c.name, func(t *testing.T) {
			p := newPage(t, c.url)
			text := eval[string](p, `document.getElementById('welcome').textContent`)
			for _, want := range []string{"Overview", "Instructions", "Compare", "Compile cache", "Activation"} {
				if !strings.Contains(text, want) {
					t.Errorf("the welcome screen does not say %q", want)
				}
			}
			p.shot("/tmp/neffscope-welcome-" + strings.ReplaceAll(c.name, " ", "-") + ".png")
			p.click("#try-example")
			p.waitOpen()
			if got := eval[string](p, `neffscope.state.doc.file`); got != "matmul_small.neff" {
				t.Errorf("Try an example opened %q", got)
			}
			if got := eval[string](p, `document.querySelector('#summary [data-field="uuid"] .sum-value').textContent`); got != realUUID {
				t.Errorf("the example's UUID is %q, want matmul_small's %s", got, realUUID)
			}
			p.waitFor(`document.body.classList.contains('dash')`, "the example's overview")
		})
	}
}

func TestTabNamesDistinct(t *testing.T) {
	file := readReal(t)
	p := newPage(t, siteURL)
	a, b := "file_pool_1_float16.neff", "file_pool_2_float16.neff"
	p.openByDrop(a, file)
	p.openByDrop(b, file[:len(file)-8]) // another file (its hash differs)
	p.waitFor(`document.querySelectorAll('#doc-tabs .doc-tab').length === 2`, "two tabs")
	names := eval[[]string](p, `Array.from(document.querySelectorAll('#doc-tabs .doc-tab .tab-name')).map((n) => n.textContent)`)
	if len(names) != 2 || names[0] == names[1] || !strings.Contains(names[0], "pool_1") || !strings.Contains(names[1], "pool_2") {
		t.Errorf("tab names %q: want them to differ where the files' names do", names)
	}
	titles := eval[[]string](p, `Array.from(document.querySelectorAll('#doc-tabs .doc-tab')).map((n) => n.title)`)
	if len(titles) != 2 || !strings.HasPrefix(titles[0], a) || !strings.HasPrefix(titles[1], b) {
		t.Errorf("tab titles %q: want the full names", titles)
	}
}
