package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Splitters, maximise, the page at 800×600, tabs that add, the page
// title, the skip link, the summary as one tab stop, type-ahead, focus after a search pick.

// viewport resizes the tab (the window the page lays out in).
func (p *page) viewport(w, h int64) {
	p.t.Helper()
	p.do(chromedp.EmulateViewport(w, h))
	p.waitFor(fmt.Sprintf(`window.innerWidth === %d && window.innerHeight === %d`, w, h), "the viewport size")
}

// darkMode emulates the OS colour scheme.
func (p *page) darkMode(on bool) {
	p.t.Helper()
	v := "light"
	if on {
		v = "dark"
	}
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}}); err != nil {
		p.t.Fatal(err)
	}
}

// box is an element's bounding box [x, y, width, height] (zeros when it is not shown).
func (p *page) box(sel string) [4]float64 {
	p.t.Helper()
	v := eval[[]float64](p, `(() => { const e = document.querySelector(`+jsString(sel)+`); if (!e || !e.getClientRects().length) return [0, 0, 0, 0]; const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()`)
	return [4]float64{v[0], v[1], v[2], v[3]}
}

// drag presses the mouse at (x, y), moves by (dx, dy) in steps and releases it.
func (p *page) drag(x, y, dx, dy float64) {
	p.t.Helper()
	p.do(chromedp.MouseEvent(chromedp.MouseMoved, x, y))
	p.do(chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5
		p.do(chromedp.MouseEvent(chromedp.MouseMoved, x+dx*f, y+dy*f, chromedp.ButtonLeft))
	}
	p.do(chromedp.MouseEvent(chromedp.MouseReleased, x+dx, y+dy, chromedp.ButtonLeft, chromedp.ClickCount(1)))
}

func TestLayoutAt800x600(t *testing.T) {
	p := newPage(t, siteURL)
	p.viewport(800, 600)
	// Before a file: the Open button is on screen and is what a click there reaches.
	checkOpenVisible(t, p)
	p.shot("/tmp/neffscope-800x600-welcome.png")
	p.openWithPicker(realNEFF)
	p.waitFor(`document.title === 'matmul_small.neff — neffscope'`, "the page title to name the file")
	checkOpenVisible(t, p)
	if w := eval[[]int](p, `[document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth, document.documentElement.scrollHeight, window.innerHeight]`); w[0] > w[2] || w[1] > w[2] || w[3] > w[4] {
		t.Errorf("the page overflows the 800×600 window: scrollWidth %d / %d, scrollHeight %d (window %d×%d)", w[0], w[1], w[3], w[2], w[4])
	}
	if tb := p.box(".topbar"); tb[2] > 800 {
		t.Errorf("the top bar is %.0f px wide in an 800 px window", tb[2])
	}
	// The panes are tabs: one shows, and it fills the room below the tabs.
	if !eval[bool](p, `getComputedStyle(document.getElementById('pane-tabs')).display !== 'none'`) {
		t.Fatal("at 800×600 the pane tabs do not show")
	}
	shown := func() []string {
		return eval[[]string](p, `['pane-tree', 'pane-detail', 'pane-content'].filter((id) => document.getElementById(id).getClientRects().length)`)
	}
	// It opens on the content (the overview); the structure is one tab away.
	if got := shown(); len(got) != 1 || got[0] != "pane-content" {
		t.Errorf("panes shown at 800×600: %v, want the content alone", got)
	}
	p.click("#pane-tab-tree")
	if h := p.box("#pane-tree")[3]; h < 200 {
		t.Errorf("the structure pane is %.0f px tall at 800×600", h)
	}
	p.click("#pane-tab-content")
	if got := shown(); len(got) != 1 || got[0] != "pane-content" {
		t.Errorf("after the Content tab, panes shown: %v", got)
	}
	if eval[string](p, `document.getElementById('pane-content').getAttribute('role') + ' ' + document.getElementById('pane-tab-content').getAttribute('aria-selected')`) != "tabpanel true" {
		t.Errorf("the content pane is not the selected tab panel")
	}
	// Arrow keys walk the pane tabs.
	p.do(chromedp.Focus(chromedp.ID("pane-tab-content")))
	p.press(kb.ArrowLeft)
	if got := shown(); len(got) != 1 || got[0] != "pane-detail" {
		t.Errorf("ArrowLeft on the Content tab shows %v, want the details", got)
	}
	// The top bar's extras are in the menu.
	if eval[bool](p, `document.getElementById('export-json').getClientRects().length > 0`) {
		t.Errorf("at 800×600 the export buttons are in the top bar, not in its menu")
	}
	p.click("#menu-toggle")
	if !eval[bool](p, `document.getElementById('export-json').getClientRects().length > 0 && document.getElementById('menu-toggle').getAttribute('aria-expanded') === 'true'`) {
		t.Errorf("the menu does not show the export buttons")
	}
	if b := p.box("#topbar-more"); b[0] < 0 || b[0]+b[2] > 800 {
		t.Errorf("the menu is off screen: %v", b)
	}
	p.shot("/tmp/neffscope-800x600-menu.png")
	p.press(kb.Escape)
	if eval[bool](p, `document.getElementById('export-json').getClientRects().length > 0`) {
		t.Errorf("Escape did not close the menu")
	}
	// More tabs than fit: the strip scrolls in itself, the page does not.
	for i := range 4 {
		p.openByDrop(fmt.Sprintf("a_rather_long_configuration_name_%d.json", i), []byte(`{"i": 1}`))
	}
	p.waitFor(`document.querySelectorAll('#doc-tabs .doc-tab').length === 5`, "five tabs")
	if w := eval[[]int](p, `[document.documentElement.scrollWidth, document.body.scrollWidth]`); w[0] > 800 || w[1] > 800 {
		t.Errorf("five tabs make the page %v px wide at 800", w)
	}
	checkOpenVisible(t, p)
	if sel, nav := p.box(`#doc-tabs .doc-tab[aria-selected="true"]`), p.box("#doc-tabs"); sel[0] < nav[0] || sel[0]+sel[2] > nav[0]+nav[2]+1 {
		t.Errorf("the selected tab %v is scrolled out of the strip %v", sel, nav)
	}
	p.shot("/tmp/neffscope-800x600-tabs.png")
	for range 4 {
		eval[chromedp.Void](p, `document.querySelectorAll('#doc-tabs .tab-close')[1].click()`)
	}
	p.waitFor(`neffscope.docs.length === 1 && neffscope.docs[0].current`, "the extra tabs closed")
	p.click("#pane-tab-tree")
	eval[chromedp.Void](p, `document.activeElement && document.activeElement.blur()`)
	p.darkMode(false)
	p.shot("/tmp/neffscope-800x600-light.png")
	if png, err := os.ReadFile("/tmp/neffscope-800x600-light.png"); err == nil && os.Getenv("NEFFSCOPE_DOCS_SHOT") != "" {
		os.WriteFile("../docs/layout-800x600.png", png, 0o644)
	}
	p.darkMode(true)
	p.shot("/tmp/neffscope-800x600-dark.png")
	p.click("#pane-tab-content")
	p.shot("/tmp/neffscope-800x600-content-dark.png")
	p.darkMode(false)
	// The bytes at 800×600 (the hex view and its data inspector): inside the window, no page scroll.
	p.goPath("header")
	p.click("#pane-tab-content")
	p.waitFor(`document.getElementById('hex-wrap').getBoundingClientRect().height > 100`, "the bytes at 800×600")
	if b := p.box("#hex-wrap"); b[0] < 0 || b[0]+b[2] > 800.5 {
		t.Errorf("the bytes %v are not inside the 800 px window", b)
	}
	if w := eval[[]int](p, `[document.documentElement.scrollWidth, document.documentElement.scrollHeight]`); w[0] > 800 || w[1] > 600 {
		t.Errorf("with the bytes shown the page is %v at 800×600", w)
	}
	p.shot("/tmp/neffscope-800x600-hex.png")
}

// checkOpenVisible: "Open file…" is inside the window and a click at its centre reaches it.
func checkOpenVisible(t *testing.T, p *page) {
	t.Helper()
	b := p.box(`label[for="file-input"].open-button`)
	if b[2] == 0 || b[0] < 0 || b[1] < 0 || b[0]+b[2] > 800 || b[1]+b[3] > 600 {
		t.Fatalf("Open file… is not inside the 800×600 window: %v", b)
	}
	if !eval[bool](p, fmt.Sprintf(`(() => { const e = document.elementFromPoint(%f, %f); return !!e && !!e.closest('.open-button'); })()`, b[0]+b[2]/2, b[1]+b[3]/2)) {
		t.Errorf("a click on Open file… at 800×600 lands on something else")
	}
}

func TestSplitterDragSurvivesAReload(t *testing.T) {
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	// Out of the overview (whose dashboard has the structure as a drawer) to the workbench.
	p.clickRow(`#tree .ti[data-path="header"]`)
	before := p.box("#pane-tree")[2]
	sep := p.box("#split-tree")
	p.drag(sep[0]+sep[2]/2, sep[1]+sep[3]/2, 120, 0)
	after := p.box("#pane-tree")[2]
	if after < before+110 || after > before+130 {
		t.Fatalf("dragging the splitter 120 px right made the structure pane %.0f px wide (was %.0f)", after, before)
	}
	if now := eval[int](p, `Number(document.getElementById('split-tree').getAttribute('aria-valuenow'))`); now != int(after+0.5) {
		t.Errorf("aria-valuenow %d, want the width %.0f", now, after)
	}
	// The keyboard: the separator is a tab stop; arrows resize by 16 px.
	p.do(chromedp.Focus(chromedp.ID("split-tree")))
	p.press(kb.ArrowRight)
	if w := p.box("#pane-tree")[2]; w < after+15 || w > after+17 {
		t.Errorf("ArrowRight on the splitter: width %.0f, want %.0f", w, after+16)
	}
	want := p.box("#pane-tree")[2]
	// The content split (decoded view above the bytes) moves too.
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/def.json"]`)
	p.waitFor(`document.getElementById('split-content').getClientRects().length > 0`, "the content pane's splitter")
	jv := p.box("#json-view")[3]
	sc := p.box("#split-content")
	p.drag(sc[0]+sc[2]/2, sc[1]+sc[3]/2, 0, 80)
	if h := p.box("#json-view")[3]; h < jv+70 || h > jv+90 {
		t.Errorf("dragging the content splitter 80 px down: JSON view %.0f px tall (was %.0f)", h, jv)
	}
	// The findings' split: open them, drag their top edge up 60 px.
	eval[chromedp.Void](p, `document.getElementById('findings-toggle').getAttribute('aria-expanded') === 'true' || document.getElementById('findings-toggle').click()`)
	p.waitFor(`document.getElementById('split-findings').getClientRects().length > 0`, "the findings' splitter")
	fh := p.box("#findings")[3]
	sf := p.box("#split-findings")
	p.drag(sf[0]+200, sf[1]+sf[3]/2, 0, -60)
	if h := p.box("#findings")[3]; h < fh+50 || h > fh+70 {
		t.Errorf("dragging the findings' splitter 60 px up: findings %.0f px tall (were %.0f)", h, fh)
	}
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after the reload")
	if st := eval[string](p, `document.body.dataset.state`); st != "open" {
		p.openWithPicker(realNEFF)
	}
	p.waitOpen()
	if w := p.box("#pane-tree")[2]; w < want-1 || w > want+1 {
		t.Errorf("after a reload the structure pane is %.0f px wide, want the %.0f px it was given", w, want)
	}
	// Double-click resets.
	sep = p.box("#split-tree")
	p.do(chromedp.MouseClickXY(sep[0]+sep[2]/2, sep[1]+sep[3]/2, chromedp.ClickCount(2)))
	p.waitFor(`!('tree' in neffscope.layout.sizes)`, "the reset to forget the width")
}

func TestMaximiseAndFindingsCollapsed(t *testing.T) {
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	// matmul_small has no error: its findings are one line.
	errs := eval[int](p, `neffscope.state.findings.filter((x) => x.f.sev === 'error').length`)
	if errs == 0 {
		if !eval[bool](p, `document.getElementById('findings-list').hidden`) {
			t.Errorf("with no error the findings list is open")
		}
		if h := p.box("#findings")[3]; h > 40 {
			t.Errorf("the collapsed findings take %.0f px", h)
		}
	}
	// The listing of an engine stream, maximised: it takes the pane's full height, the bytes go.
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/Activation.bin"]`)
	p.waitFor(`!document.getElementById('listing').hidden`, "the listing")
	normal := p.box("#listing")[3]
	p.click(`.pane-max[data-pane="content"]`)
	full := p.box("#listing")[3]
	content := p.box("#pane-content")[3]
	// (The listing is two thirds of the pane before: maximised it gains the bytes' height.)
	if full < content-60 || full < normal+150 {
		t.Errorf("maximised, the listing is %.0f px tall (pane %.0f, before %.0f)", full, content, normal)
	}
	if eval[bool](p, `document.getElementById('hex-wrap').getClientRects().length > 0 || document.getElementById('pane-tree').getClientRects().length > 0 || document.getElementById('summary').getClientRects().length > 0`) {
		t.Errorf("maximised, the hex view, the tree or the summary still shows")
	}
	p.shot("/tmp/neffscope-maximised.png")
	p.do(chromedp.Focus(chromedp.ID("listing")))
	p.press(kb.Escape)
	if eval[string](p, `neffscope.layout.max`) != "" || p.box("#pane-tree")[2] == 0 {
		t.Errorf("Escape did not restore the layout")
	}
}

func TestTabsAddAndTheTitleFollows(t *testing.T) {
	file := readReal(t)
	long := "stream_2048x2048_k_fd1k.neff"
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`document.title === 'matmul_small.neff — neffscope'`, "the title of A")
	p.openByDrop(long, file[:len(file)-8]) // another file (its hash differs), by drop
	p.waitFor(`document.querySelectorAll('#doc-tabs .doc-tab').length === 2`, "two tabs after the drop")
	if got := eval[string](p, `document.title`); got != long+" — neffscope" {
		t.Errorf("title %q after opening B", got)
	}
	names := eval[[]string](p, `Array.from(document.querySelectorAll('#doc-tabs .doc-tab .tab-name')).map((n) => n.textContent)`)
	if len(names) != 2 || names[0] != "matmul_small.neff" || names[1] != "stream_2…k_fd1k.neff" {
		t.Errorf("tab names %q; want matmul_small.neff and the long name shortened in the middle", names)
	}
	if title := eval[string](p, `document.querySelector('#doc-tabs .doc-tab[data-index="1"]').title`); !strings.HasPrefix(title, long) {
		t.Errorf("the shortened tab's title %q does not give the full name", title)
	}
	// The picker adds too: A, B, then A's file again goes to A's tab instead of a third.
	p.openWithPicker(realNEFF)
	p.waitFor(`neffscope.docs.length === 2 && neffscope.docs[0].current && document.title === 'matmul_small.neff — neffscope'`, "A again, in its own tab")
	eval[chromedp.Void](p, `document.querySelector('#doc-tabs .doc-tab[data-index="1"]').click()`)
	p.waitFor(`document.title === '`+long+` — neffscope'`, "the title to follow the selected tab")
	// The tabs are one tab stop; arrows walk them, Delete closes one.
	if n := eval[int](p, `document.querySelectorAll('#doc-tabs [role="tab"][tabindex="0"]').length`); n != 1 {
		t.Errorf("%d tabs are tab stops, want 1", n)
	}
	p.do(chromedp.Focus(chromedp.CSS(`#doc-tabs [role="tab"][tabindex="0"]`)))
	p.press(kb.ArrowLeft)
	p.waitFor(`neffscope.docs[0].current && document.activeElement.dataset.index === '0'`, "ArrowLeft to select tab A")
	p.press(kb.Delete)
	p.waitFor(`neffscope.docs.length === 1 && neffscope.docs[0].file === '`+long+`' && document.title === '`+long+` — neffscope'`, "Delete to close A")
	eval[chromedp.Void](p, `document.querySelector('#doc-tabs .tab-close').click()`)
	p.waitFor(`document.body.dataset.state === 'empty' && !document.getElementById('welcome').hidden && document.title === 'neffscope'`, "the welcome screen after the last tab closed")
}

func TestSkipLinkOpenRingAndSummaryTabStop(t *testing.T) {
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	eval[chromedp.Void](p, `document.activeElement && document.activeElement.blur()`)
	p.press(kb.Tab)
	if got := p.focused(); got != "a#skip-link[]" {
		t.Fatalf("the first Tab stop is %s, want the skip link", got)
	}
	if b := p.box("#skip-link"); b[1] < 0 || b[3] == 0 {
		t.Errorf("the focused skip link is not on screen: %v", b)
	}
	p.press(kb.Enter)
	if !eval[bool](p, `!!document.activeElement.closest('#tree') && document.activeElement.getAttribute('role') === 'treeitem'`) {
		t.Errorf("the skip link moved the focus to %s, not into the structure", p.focused())
	}
	if h := eval[string](p, `location.hash`); strings.Contains(h, "tree") {
		t.Errorf("the skip link changed the URL hash to %q", h)
	}
	// The summary is one tab stop, whatever chips it holds.
	if n := eval[int](p, `Array.from(document.querySelectorAll('#summary button, #summary a[href], #summary [tabindex]')).filter((e) => e.tabIndex >= 0).length`); n > 1 {
		t.Errorf("the summary has %d tab stops, want 1", n)
	}
	// Open file… shows a focus ring when the keyboard reaches it from the top of the page (a
	// blur would leave Chromium's sequential-navigation start in the tree, behind the overview's
	// links).
	eval[chromedp.Void](p, `document.getElementById('skip-link').focus()`)
	p.tabInto("#file-input", 40)
	if st := eval[[]string](p, `(() => { const s = getComputedStyle(document.querySelector('.open-button')); return [s.outlineStyle, s.outlineWidth]; })()`); st[0] != "solid" || st[1] != "2px" {
		t.Errorf("the focused Open button's outline is %v; want a 2px solid ring", st)
	}
	p.darkMode(true)
	p.shot("/tmp/neffscope-open-focus-dark.png")
	p.darkMode(false)
	// Tab from Open reaches the tabs and then the summary in a few stops, not eight chips.
	stops := 0
	for ; stops < 12; stops++ {
		p.press(kb.Tab)
		if eval[bool](p, `!!document.activeElement.closest('#tree')`) {
			break
		}
	}
	if stops >= 12 {
		t.Errorf("12 Tab stops after Open and the structure is not reached (at %s)", p.focused())
	}
}

func TestTreeTypeAhead(t *testing.T) {
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.do(chromedp.Focus(chromedp.CSS(`#tree .ti[tabindex="0"]`)))
	labels := eval[[]string](p, `Array.from(document.querySelectorAll('#tree .ti')).filter((r) => r.offsetParent).map((r) => r.querySelector(':scope > .row > .label').textContent)`)
	at := eval[int](p, `Array.from(document.querySelectorAll('#tree .ti')).filter((r) => r.offsetParent).indexOf(document.activeElement)`)
	var want []string // the visible rows starting with "m", in order from the one after the focus
	for k := 1; k <= len(labels); k++ {
		if l := labels[(at+k)%len(labels)]; strings.HasPrefix(strings.ToLower(l), "m") {
			want = append(want, l)
		}
	}
	if len(want) < 2 {
		t.Fatalf("fewer than two visible rows start with m: %q", labels)
	}
	label := func() string {
		return eval[string](p, `document.activeElement.closest('.ti') ? document.activeElement.querySelector(':scope > .row > .label').textContent : ''`)
	}
	p.press("m")
	if got := label(); got != want[0] {
		t.Errorf("typing m went to %q, want %q", got, want[0])
	}
	if sel := eval[string](p, `neffscope.state.selected.label`); sel != want[0] {
		t.Errorf("typing m selected %q, want %q", sel, want[0])
	}
	// m again goes to the next row starting with m.
	p.press("m")
	if got := label(); got != want[1] {
		t.Errorf("typing m again went to %q, want %q", got, want[1])
	}
	// More letters within the pause narrow the match.
	time.Sleep(800 * time.Millisecond)
	var two string
	for _, l := range labels {
		if len(l) >= 2 && strings.ToLower(l[:2]) == "pa" {
			two = l
			break
		}
	}
	if two != "" {
		p.press("p")
		p.press("a")
		if got := label(); got != two {
			t.Errorf("typing pa went to %q, want %q", got, two)
		}
	}
}

func TestSearchPickKeepsTheFocusInItsPane(t *testing.T) {
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.searchAndPick(ctrlK, "def.json", "member", "sg00/def.json")
	p.waitFor(`document.activeElement !== document.body && document.activeElement !== document.getElementById('search')`, "the focus to land in a pane")
	if !eval[bool](p, `!!document.activeElement.closest('.pane') && document.activeElement.getAttribute('role') === 'treeitem'`) {
		t.Errorf("after picking a member the focus is on %s", p.focused())
	}
	p.searchAndPick(slash, "ActivationTableLoad", "instruction", "sg00/Activation.bin")
	p.waitFor(`document.activeElement.id === 'listing'`, "the focus on the listing after picking an instruction")
}

// TestLayoutScreenshots saves the page at 1440×900 in light and dark (for a person to look
// at; the layout's numbers are checked above): the listing with its bytes, the findings.
func TestLayoutScreenshots(t *testing.T) {
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/PE.bin"]`)
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow[data-index="0"] .col-name')`, "the listing's first row")
	if rows := eval[int](p, `Math.floor(document.getElementById('listing-scroll').clientHeight / 20)`); rows < 15 {
		t.Errorf("at 1440×900 the listing shows %d rows", rows)
	}
	for _, dark := range []bool{false, true} {
		p.darkMode(dark)
		name := map[bool]string{false: "light", true: "dark"}[dark]
		p.shot("/tmp/neffscope-1440x900-" + name + ".png")
	}
	p.darkMode(false)
}
