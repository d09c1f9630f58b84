package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// selectedRow is the index of the listing's selected row ("" when none).
func (p *page) selectedRow() string {
	return eval[string](p, `(document.querySelector('#listing-rows .lrow.selected') || {dataset: {}}).dataset.index || ''`)
}

// An instruction has a URL. A row picked in the listing is in the hash ("…/#N");
// Back returns to the row before; the URL opened again (a reload: the same file opened on a
// page loaded with the hash) shows that instruction selected with its kernel line marked in
// the source pane beside the listing; search "#5" selects instruction 5.
func TestInstructionPermalink(t *testing.T) {
	key, words := nativeLineWords(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview")
	// Alt+S, Enter: the kernel line's first instruction in its listing.
	p.press("s", chromedp.ModifierAlt)
	p.waitFor(`document.activeElement && document.activeElement.classList.contains('src-line')`, "the focus on a source line")
	p.press("\r")
	first := words[0]
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow.selected[data-index="`+strconv.Itoa(first.index)+`"]')`, "the line's first instruction")
	p.waitFor(`location.hash.endsWith('/%23`+strconv.Itoa(first.index)+`')`, "the hash to name instruction #"+strconv.Itoa(first.index))
	h1 := eval[string](p, `location.hash`)

	// A click on another row of the same line: a new history entry.
	var second word
	for _, w := range words[1:] {
		if w.member == first.member {
			second = w
			break
		}
	}
	if second.member == "" {
		t.Fatalf("the line has no second word in %s", first.member)
	}
	row := `#listing-rows .lrow[data-index="` + strconv.Itoa(second.index) + `"]`
	p.waitFor(`document.querySelector(`+jsString(row)+`)`, "row "+strconv.Itoa(second.index))
	eval[chromedp.Void](p, `document.querySelector(`+jsString(row)+`).click()`)
	p.waitFor(`location.hash.endsWith('/%23`+strconv.Itoa(second.index)+`')`, "the hash to name the clicked row")
	h2 := eval[string](p, `location.hash`)
	if got := p.selPath(); !strings.HasSuffix(got, "/#"+strconv.Itoa(second.index)) {
		t.Errorf("the clicked row selected %q", got)
	}
	// The source pane beside the listing marks the row's line, in the line's colour.
	p.waitFor(`document.querySelector(`+jsString(`#source-side .sp-line.current[data-key="`+key+`"]`)+`)`, "the source pane to mark line "+key)
	if !eval[bool](p, `getComputedStyle(document.querySelector('#source-side')).display !== 'none' && document.querySelector(`+jsString(row)+`).classList.contains('has-line')`) {
		t.Errorf("the row carries no line colour, or the source pane is not on show")
	}
	// The kernel file dropped on the page: the pane shows all of it, line 58 still marked.
	file, _, _ := strings.Cut(key, ":")
	var py strings.Builder
	for i := 1; i <= 80; i++ {
		fmt.Fprintf(&py, "    x%d = nl.load(a[%d])  # line %d\n", i, i, i)
	}
	eval[chromedp.Void](p, fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%s], %s));
		document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`, jsString(py.String()), jsString(file)))
	p.waitFor(`document.querySelectorAll('#source-side .sp-line').length === 80`, "the dropped file's 80 lines in the source pane")
	p.waitFor(`document.querySelector(`+jsString(`#source-side .sp-line.current.made[data-key="`+key+`"] .sp-text`)+`).textContent.includes('# line 58')`, "line 58's text marked")
	if n := eval[int](p, `document.querySelectorAll('#source-side .sp-line.made').length`); n != 1 {
		t.Errorf("%d lines of the file are marked as making code, want 1 (line 58)", n)
	}
	if got := eval[int](p, `neffscope.docs.length`); got != 1 {
		t.Errorf("the dropped .py opened as a document: %d tabs", got)
	}
	// Hovering the line lights its rows; a click on it selects its first instruction here.
	eval[chromedp.Void](p, `document.querySelector('#source-side .sp-line.made').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))`)
	if n := eval[int](p, `document.querySelectorAll('#listing-rows .lrow.line-hover').length`); n < 2 {
		t.Errorf("hovering the line lights %d listing rows", n)
	}
	shotThemes(p, t, "source-pane")
	p.shot("/tmp/hl/source-pane.png")

	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`location.hash === `+jsString(h1)+` && document.querySelector('#listing-rows .lrow.selected[data-index="`+strconv.Itoa(first.index)+`"]')`, "Back to restore the first row")
	eval[chromedp.Void](p, `history.forward()`)
	p.waitFor(`document.querySelector('#listing-rows .lrow.selected[data-index="`+strconv.Itoa(second.index)+`"]')`, "Forward to restore the second row")

	// Search #5: instruction 5 of the listing on show.
	p.do(slash.action)
	p.waitFor(`document.activeElement && document.activeElement.id === 'search'`, "the search box")
	p.do(chromedp.KeyEvent("#5"))
	p.waitFor(`neffscope.search.done && neffscope.search.q === '#5'`, "the search for #5")
	if k := eval[string](p, `(document.querySelector('#search-results .sr') || {dataset: {}}).dataset.kind || ''`); k != "jump" {
		t.Errorf("the first result of #5 is a %q, want the instruction jump", k)
	}
	p.press("\r")
	p.waitFor(`document.querySelector('#listing-rows .lrow.selected[data-index="5"]') && location.hash.endsWith('/%235')`, "#5 to select instruction 5")
	p.waitFor(`document.getElementById('listing').contains(document.activeElement)`, "the focus in the listing after #5")

	// The URL opened again, and the same file: that instruction, its line marked.
	q := newPage(t, siteURL+h2)
	q.openWithPicker(realNEFF)
	q.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow.selected[data-index="`+strconv.Itoa(second.index)+`"]')`, "the linked instruction selected after the reload")
	q.waitFor(`document.querySelector(`+jsString(`#source-side .sp-line.current[data-key="`+key+`"]`)+`)`, "the linked instruction's line marked in the source pane")
	if h := eval[string](q, `location.hash`); h != h2 {
		t.Errorf("the reloaded page's hash became %q, want %q", h, h2)
	}
	if got := eval[string](q, `document.getElementById('content-title').textContent`); got != second.member {
		t.Errorf("the reloaded page shows %q, want %s", got, second.member)
	}
}

// Search ranks the program first: "Activate" lists an Activate instruction before
// any JSON value; "?" opens the shortcut help, made from the keymap's table.
func TestSearchRanksProgramAndHelp(t *testing.T) {
	path, ok := realfiles.Find("nki-moe/attn_v6.neff")
	if !ok {
		t.Skip(realfiles.Missing("nki-moe/attn_v6.neff"))
	}
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	p.do(slash.action)
	p.waitFor(`document.activeElement && document.activeElement.id === 'search'`, "the search box")
	p.do(chromedp.KeyEvent("Activate"))
	p.waitFor(`neffscope.search.done && neffscope.search.q === 'activate'`, "the search for Activate")
	kinds := eval[[]string](p, `Array.from(document.querySelectorAll('#search-results .sr')).map(r => r.dataset.kind + ':' + r.querySelector('.sr-kind').textContent)`)
	firstIns, firstJSON := -1, -1
	for i, k := range kinds {
		if strings.HasPrefix(k, "instruction:") && firstIns < 0 {
			firstIns = i
		}
		if strings.HasPrefix(k, "node:JSON") && firstJSON < 0 {
			firstJSON = i
		}
	}
	if firstIns != 0 {
		t.Errorf("the first Activate instruction is result %d of %d, want 0 (first JSON value at %d): %v", firstIns, len(kinds), firstJSON, kinds[:min(len(kinds), 12)])
	}
	if firstJSON >= 0 && firstJSON < firstIns {
		t.Errorf("a JSON value (result %d) ranks before the first instruction (%d)", firstJSON, firstIns)
	}
	p.press("\x1b")

	// The source pane on a real kernel of 107 lines (the README's picture): the content pane
	// maximised, a PE instruction of the hottest line selected.
	eval[chromedp.Void](p, `document.querySelector('.pane-max[data-pane="content"]').click()`)
	p.goPath("members/sg00%2F/PE.bin")
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#source-side .sp-line.made')`, "the PE listing with its source pane")
	eval[chromedp.Void](p, `document.querySelector('#listing-rows .lrow.has-line:nth-child(12)').click()`)
	p.waitFor(`document.querySelector('#source-side .sp-line.current')`, "a line marked")
	eval[chromedp.Void](p, `document.querySelector('#listing-rows .lrow.has-line:nth-child(6)').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))`)
	p.shot("/tmp/hl/source-attn.png")
	eval[chromedp.Void](p, `document.querySelector('.pane-max[data-pane="content"]').click()`)

	// ? opens the help; every row names a key; Escape closes it.
	eval[chromedp.Void](p, `document.activeElement.blur()`)
	p.press("?")
	p.waitFor(`document.getElementById('shortcut-help') && !document.getElementById('shortcut-help').hidden`, "the shortcut help")
	keys := eval[[]string](p, `Array.from(document.querySelectorAll('#shortcut-help kbd')).map(k => k.textContent)`)
	for _, want := range []string{"?", "/", "Alt+S", "n", "Ctrl+O"} {
		found := false
		for _, k := range keys {
			if k == want {
				found = true
			}
		}
		if !found {
			t.Errorf("the help names no %q key among %v", want, keys)
		}
	}
	p.shot("/tmp/hl/help.png")
	p.press("\x1b")
	p.waitFor(`document.getElementById('shortcut-help').hidden`, "Escape to close the help")
}

// A reload brings back every open tab (from the library, which kept their bytes)
// and the comparison.
func TestReloadRestoresTabsAndComparison(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.libForgetAll()
	p.openWithPicker(realNEFF)
	p.openByDrop("sample.neff", neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "sample.neff"}))
	p.waitFor(`neffscope.docs.length === 2`, "two tabs")
	p.click("#compare-button")
	p.waitFor(`!document.getElementById('compare-menu').hidden`, "the Compare menu")
	eval[chromedp.Void](p, `document.querySelector('#compare-menu .menu-item').click()`)
	p.waitDiff()
	p.waitFor(`neffscope.library.entries.length === 2`, "both files to be remembered")
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after the reload")
	p.waitFor(`neffscope.docs.length === 2 && neffscope.diff.shown && neffscope.diff.ready`, "both tabs and the comparison back after the reload")
	if names := eval[[]string](p, `neffscope.docs.map(d => d.file)`); len(names) != 2 || !strings.Contains(names[0]+names[1], "sample.neff") {
		t.Errorf("the tabs after the reload: %v", names)
	}
}

// A byte has a URL: a byte picked in the hex view is in the hash (b=0x…) beside the
// field that owns it, and the URL opened again highlights that one byte with the cursor on it.
func TestBytePermalink(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.clickRow(`#tree .ti[data-path="header"]`)
	cell := `#hex-rows .hex-row[data-off="16"] .hb[data-i="4"]` // byte 0x14, inside a header field
	p.waitFor(`document.querySelector(`+jsString(cell)+`)`, "the header's bytes")
	eval[chromedp.Void](p, `document.querySelector(`+jsString(cell)+`).click()`)
	p.waitFor(`location.hash.endsWith('&b=0x14')`, "the hash to name byte 0x14")
	h := eval[string](p, `location.hash`)
	field := p.selectedPath()
	if !strings.HasPrefix(field, "header/") {
		t.Errorf("the byte click selected %q, want a header field", field)
	}

	q := newPage(t, siteURL+h)
	q.openWithPicker(realNEFF)
	q.waitFor(`neffscope.hex.hl && neffscope.hex.hl.off === 0x14 && neffscope.hex.hl.len === 1 && neffscope.hex.cursor === 0x14`, "the linked byte highlighted, the cursor on it")
	if got := q.selectedPath(); got != field {
		t.Errorf("the linked byte's page selects %q, want %q", got, field)
	}
}
