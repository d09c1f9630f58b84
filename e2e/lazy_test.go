package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The page over the lazy document: a big JSON array paged in the tree to its last
// element, a search hit deep inside it selected and revealed, a byte of it clicked, and a URL
// hash naming it selected after a reload. Each journey holds whether the core sends the array
// whole (held) or as a stub whose children the page fetches (children, node, search, locate).

const lazyElements = 50000

// lazyJSON is a JSON file with a 50,000-element array (element i is i*3) and a nested needle.
func lazyJSON() []byte {
	var b strings.Builder
	b.WriteString(`{"meta":{"name":"big"},"items":[`)
	for i := range lazyElements {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i * 3))
	}
	b.WriteString(`],"tail":{"deep":{"needle":"zebra-quartz"}}}`)
	return []byte(b.String())
}

// openLazyJSON writes the file and opens it with the picker (the library keeps picked files).
func openLazyJSON(t *testing.T, p *page) []byte {
	t.Helper()
	data := lazyJSON()
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	p.openWithPicker(path)
	p.waitFor(`document.getElementById('file-name').textContent.includes('big.json')`, "big.json to open")
	return data
}

// lastElement is where element n-1 lies in the file.
func lastElement(data []byte) (off int, text string) {
	text = strconv.Itoa((lazyElements - 1) * 3)
	return bytes.LastIndex(data, []byte(","+text+"]")) + 1, text
}

func (p *page) treeRows(parent string) int {
	return eval[int](p, `document.querySelectorAll(`+jsString(`#tree [data-path="`+parent+`"] > .group > .ti`)+`).length`)
}

func TestLazyArrayPagedToItsLastElement(t *testing.T) {
	p := newPage(t, siteURL)
	data := openLazyJSON(t, p)
	p.expand(`#tree [data-path="items"]`)
	p.waitFor(`document.querySelectorAll('#tree [data-path="items"] > .group > .ti').length >= 1000`, "the first page of items")
	if n := p.treeRows("items"); n != 1000 {
		t.Errorf("%d rows for the first page of a %d-element array, want 1,000", n, lazyElements)
	}
	if got := eval[string](p, `document.querySelector('#tree [data-path="items"] > .group > .ti').getAttribute('aria-setsize')`); got != strconv.Itoa(lazyElements) {
		t.Errorf("aria-setsize %s, want %d", got, lazyElements)
	}
	// "show more" to the end, a page at a time (fetched from the core when the array is a
	// stub, which the loop waits for), in one script so the page lays out once.
	pages := eval[int](p, `(async () => {
		const g = document.querySelector('#tree [data-path="items"] > .group');
		const rows = () => g.querySelectorAll(':scope > .ti').length;
		let pages = 1;
		for (let more; (more = g.querySelector(':scope > .more')); pages++) {
			const n = rows();
			more.click();
			for (let t = 0; rows() === n; t++) {
				if (t > 1000) throw new Error('page ' + (pages + 1) + ' never came');
				await new Promise((r) => setTimeout(r, 10));
			}
		}
		return pages;
	})()`)
	if pages != lazyElements/1000 {
		t.Errorf("%d pages of rows, want %d", pages, lazyElements/1000)
	}
	if n := p.treeRows("items"); n != lazyElements {
		t.Fatalf("%d rows after paging to the end, want %d", n, lazyElements)
	}
	last := fmt.Sprintf(`#tree [data-path="items/%d"]`, lazyElements-1)
	p.clickRow(last)
	off, text := lastElement(data)
	p.waitFor(fmt.Sprintf(`neffscope.hex.hl && neffscope.hex.hl.off === %d && neffscope.hex.hl.len === %d`, off, len(text)), "the last element's bytes highlighted")
	if got := p.selectedPath(); got != fmt.Sprintf("items/%d", lazyElements-1) {
		t.Errorf("selected %q, want the last element", got)
	}
	if v := eval[string](p, `document.querySelector(`+jsString(last)+` + ' .value').textContent`); v != text {
		t.Errorf("the last row's value is %q, want %q", v, text)
	}
}

func TestLazySearchHitDeepInsideIsSelectedAndRevealed(t *testing.T) {
	p := newPage(t, siteURL)
	data := openLazyJSON(t, p)
	// A byte offset names element 30,999 (placed by the core when its page is not fetched);
	// then a click on a byte of element 31,000, past the page the tree holds, selects that one.
	at := func(i int) int { return bytes.Index(data, []byte(","+strconv.Itoa(i*3)+",")) + 1 }
	p.searchAndPick(slash, fmt.Sprintf("@%d", at(30999)+1), "offset", "items › 30999")
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'items/30999'`, "the offset to select items/30999")
	// A stub holds only the pages shown: the tree's page of element 30,999, no more.
	if got := eval[int](p, `(() => { const n = neffscope.state.doc.root.kids.find((k) => k.label === 'items'); return n.attrs && n.attrs.more ? n.kids.length : -1; })()`); got != -1 && got != 31000 {
		t.Errorf("the stub holds %d fetched elements after the offset pick, want 31,000", got)
	}
	b := at(31000) + 1
	p.waitFor(fmt.Sprintf(`document.querySelector('#hex-rows .hex-row[data-off="%d"] .hb[data-i="%d"]')`, b/16*16, b%16), "the hex row of element 31,000")
	eval[chromedp.Void](p, fmt.Sprintf(`document.querySelector('#hex-rows .hex-row[data-off="%d"] .hb[data-i="%d"]').click()`, b/16*16, b%16))
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'items/31000'`, "the byte click to select items/31000")

	off, text := lastElement(data)
	want := fmt.Sprintf("items/%d", lazyElements-1)
	where, _ := p.searchAndPick(slash, text, "node", "items")
	if where != "items" {
		t.Errorf("the hit's where is %q, want items", where)
	}
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(want), "the hit to be selected")
	// Revealed: its row is built, in view in the tree pane, and the focus is in that pane.
	if !eval[bool](p, `(() => { const r = document.querySelector('#tree .ti[aria-selected="true"] > .row').getBoundingClientRect(), b = document.getElementById('tree').getBoundingClientRect(); return r.height > 0 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1; })()`) {
		t.Error("the selected hit's row is not in view")
	}
	p.waitFor(`document.getElementById('tree').contains(document.activeElement)`, "the focus to land in the tree")
	p.waitFor(fmt.Sprintf(`neffscope.hex.hl && neffscope.hex.hl.off === %d`, off), "the hit's bytes highlighted")

	// A byte of the element before it, clicked in the hex view, selects that element.
	prev := strconv.Itoa((lazyElements - 2) * 3)
	b = off - 1 - len(prev) + 1
	p.waitFor(fmt.Sprintf(`document.querySelector('#hex-rows .hex-row[data-off="%d"] .hb[data-i="%d"]')`, b/16*16, b%16), "the hex row of the element before")
	eval[chromedp.Void](p, fmt.Sprintf(`document.querySelector('#hex-rows .hex-row[data-off="%d"] .hb[data-i="%d"]').click()`, b/16*16, b%16))
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(fmt.Sprintf("items/%d", lazyElements-2)), "the byte click to select the element before")

	// The needle past the array, by search too.
	p.searchAndPick(slash, "zebra-quartz", "node", "tail › deep")
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'tail/deep/needle'`, "the needle to be selected")
}

func TestLazyHashToADeepPathAfterReload(t *testing.T) {
	p := newPage(t, siteURL)
	p.libForgetAll()
	openLazyJSON(t, p)
	p.waitFor(`neffscope.state.doc.sha256`, "the file's fingerprint")
	want := fmt.Sprintf("items/%d", lazyElements-7)
	fp := eval[string](p, `neffscope.state.doc.sha256.slice(0, 16)`)
	hash := "#f=" + fp + "&n=" + want
	// An edited URL (hashchange) selects the node.
	eval[chromedp.Void](p, `location.hash = `+jsString(hash))
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(want), "the hash to select "+want)
	p.waitFor(`neffscope.library.entries.length === 1`, "the file to be remembered")

	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after reload")
	p.waitOpen()
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(want), "the reload to select "+want)
	if h := eval[string](p, `location.hash`); h != hash {
		t.Errorf("after reload the hash is %q, want %q", h, hash)
	}
	// Back goes to the landing selection, forward to the deep node again.
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path !== `+jsString(want), "back to leave "+want)
	eval[chromedp.Void](p, `history.forward()`)
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(want), "forward to select "+want+" again")
}

// More than a step of hits: the list shows the first 500 and a "more results" option that the
// keyboard reaches from the box; choosing it goes on from where the core stopped, the box
// keeping the focus.
func TestLazySearchMoreResults(t *testing.T) {
	p := newPage(t, siteURL)
	openLazyJSON(t, p)
	p.do(slash.action)
	p.waitFor(`document.activeElement && document.activeElement.id === 'search'`, "/ to focus the search box")
	p.do(chromedp.KeyEvent("77"))
	p.waitFor(`neffscope.search.done && neffscope.search.q === '77'`, "the search for 77")
	if n := eval[int](p, `document.querySelectorAll('#search-results .sr[data-kind="node"]').length`); n != 500 {
		t.Errorf("%d node results in the first step, want 500", n)
	}
	p.waitFor(`document.getElementById('search-more')`, "the more results option")
	p.do(chromedp.KeyEvent(kb.ArrowUp)) // from the first result up to the last option: more
	if got := eval[string](p, `document.getElementById('search').getAttribute('aria-activedescendant')`); got != "search-more" {
		t.Fatalf("the active option is %q, want search-more", got)
	}
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitFor(`neffscope.search.done && document.querySelectorAll('#search-results .sr[data-kind="node"]').length === 1000`, "the second step of results")
	if got := eval[string](p, `document.activeElement.id`); got != "search" {
		t.Errorf("after more results the focus is on %q, want the search box", got)
	}
	// The results go on in document order: the 501st element found follows the 500th.
	idx := eval[[]int](p, `Array.from(document.querySelectorAll('#search-results .sr[data-kind="node"] .sr-what')).slice(499, 501).map((e) => Number(e.textContent.split(' = ')[0]))`)
	if len(idx) != 2 || !(idx[0] < idx[1]) {
		t.Errorf("results 500 and 501 are elements %v, want increasing", idx)
	}
}
