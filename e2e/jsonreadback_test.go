package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestBigJSONMemberReadBackInPage: the 32 MB real-shaped NEFF's sg00/def.json (20 MB, 72,000
// variables) is not held by the worker's open: picking a byte deep in it reads the member back
// through the seek index and selects the var entry that holds the byte, in the JSON tree and
// the hex view.
func TestBigJSONMemberReadBackInPage(t *testing.T) {
	path := bigRealNEFF(t, 32)
	p := newSlowPage(t, siteURL, 10*time.Minute)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
	p.waitLong(`document.body.dataset.state === 'open' || (document.body.dataset.state === 'empty' && document.getElementById('toast').textContent)`, "the file to open", 3*time.Minute)
	if st := eval[string](p, `document.body.dataset.state`); st != "open" {
		t.Fatalf("the 32 MiB file did not open: %s", eval[string](p, `document.getElementById('toast').textContent`))
	}
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/def.json"]`)
	p.waitLong(`neffscope.hex.source === 'sg00/def.json'`, "def.json in the hex view", time.Minute)
	const at = 15_000_000
	p.do(slash.action)
	p.waitFor(`document.activeElement && document.activeElement.id === 'search'`, "/ to focus the search box")
	p.do(chromedp.KeyEvent("@15000000"))
	p.waitLong(`neffscope.search.q === '@15000000' && document.querySelectorAll('#search-results .sr[data-kind="offset"]').length === 2`, "the offset results of @15000000", 3*time.Minute)
	t.Logf("search: %s", eval[string](p, `JSON.stringify(neffscope.search)`))
	offs := eval[[]string](p, `Array.from(document.querySelectorAll('#search-results .sr[data-kind="offset"] .sr-what')).map(e => e.textContent)`)
	if len(offs) != 2 || !strings.HasSuffix(offs[1], "of sg00/def.json") {
		t.Fatalf("offset results for @15000000: %q, want the file's byte and def.json's", offs)
	}
	p.press(kb.ArrowDown)
	p.press(kb.Enter)
	p.waitLong(`neffscope.hex.hl && neffscope.hex.hl.src === 'sg00/def.json' && neffscope.hex.hl.off === 15000000`, "byte 15,000,000 of def.json highlighted", 4*time.Minute)
	p.waitLong(`!!(document.querySelector('#json-tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path`, "a node of def.json's tree selected", 4*time.Minute)
	got := p.jsonSelected()
	t.Logf("byte %d of sg00/def.json selects %q", at, got)
	if !strings.Contains(got, "var") {
		t.Errorf("byte %d of sg00/def.json selected %q, want a node under its var object", at, got)
	}
}
