package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// jsonSelected is the data-path of the JSON tree's selected row.
func (p *page) jsonSelected() string {
	return eval[string](p, `(document.querySelector('#json-tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path || ''`)
}

// selectDefLeaf opens sg00/def.json and selects var › SB › <leaf> in its JSON tree.
func (p *page) selectDefLeaf(leaf string) {
	p.t.Helper()
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/def.json"]`)
	p.expand(`#json-tree .ti[aria-level="2"][data-key="var"]`)
	p.expand(`#json-tree .ti[aria-level="3"][data-key="SB"]`)
	p.clickRow(`#json-tree .ti[aria-level="4"][data-key="` + leaf + `"]`)
	p.waitFor(`(document.querySelector('#json-tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.key === '`+leaf+`'`, "the JSON leaf "+leaf+" to be selected")
}

// TestHashFollowsSelection: every selection is a history entry whose hash names the file's
// fingerprint and the node; back and forward restore the selections; an edited hash selects
// its node; and a page opened on such a hash selects the node once the same file is opened.
func TestHashFollowsSelection(t *testing.T) {
	file := readReal(t)
	sum := sha256.Sum256(file)
	fp := hex.EncodeToString(sum[:])[:16]
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	// Beside the fingerprint, the file's name, size and UUID: a page without the file says
	// which to open.
	if h, want := eval[string](p, `location.hash`), fmt.Sprintf("#f=%s&name=matmul_small.neff&size=%d&uuid=%s&n=overview", fp, len(file), realUUID); h != want {
		t.Errorf("after opening, the hash is %q, want %q", h, want)
	}

	p.selectDefLeaf("type")
	first := p.jsonSelected()
	if !strings.HasSuffix(first, "/var/SB/type") {
		t.Fatalf("selected JSON row %q, want …/var/SB/type", first)
	}
	h1 := eval[string](p, `location.hash`)
	if !strings.HasPrefix(h1, "#f="+fp+"&") || !strings.Contains(h1, "&n=") {
		t.Fatalf("hash %q does not start with the fingerprint %s", h1, fp)
	}
	// The node part decodes, key by key, to the row's path.
	if got := eval[string](p, `location.hash.split('&n=')[1].split('/').map(decodeURIComponent).join('/')`); got != first {
		t.Errorf("the hash's node decodes to %q, want %q", got, first)
	}
	// The directory key sg00/ is one encoded key: its '/' must not split the path.
	if !strings.Contains(h1, "sg00%2F") {
		t.Errorf("hash %q does not encode the directory key sg00/ as one key", h1)
	}

	p.clickRow(`#json-tree .ti[aria-level="4"][data-key="var_id"]`)
	second := p.jsonSelected()
	h2 := eval[string](p, `location.hash`)
	if !strings.HasSuffix(second, "/var/SB/var_id") || h2 == h1 {
		t.Fatalf("after selecting var_id: row %q, hash %q (was %q)", second, h2, h1)
	}

	eval[any](p, `history.back()`)
	p.waitFor(`location.hash === `+jsString(h1), "back to restore the first hash")
	p.waitFor(`(document.querySelector('#json-tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(first), "back to select the first leaf again")
	if d := eval[string](p, `document.querySelector('#detail .d-label').textContent`); d != "type" {
		t.Errorf("after back the detail pane shows %q, want type", d)
	}
	eval[any](p, `history.forward()`)
	p.waitFor(`(document.querySelector('#json-tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(second), "forward to select var_id again")

	// An edited hash (same file) selects its node.
	eval[any](p, `location.hash = '#f=`+fp+`&n=header/data_size'`)
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'header/data_size'`, "the edited hash to select header/data_size")
	if d := eval[string](p, `document.querySelector('#detail .d-label').textContent`); d != "data_size" {
		t.Errorf("after the edited hash the detail pane shows %q, want data_size", d)
	}

	// A link (or a reload) with the hash: once the same file is opened, the node is selected.
	q := newPage(t, siteURL+h1)
	q.openWithPicker(realNEFF)
	q.waitFor(`(document.querySelector('#json-tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(first), "the linked leaf to be selected on open")
	if d := eval[string](q, `document.querySelector('#detail .d-label').textContent`); d != "type" {
		t.Errorf("the linked page's detail pane shows %q, want type", d)
	}
	if h := eval[string](q, `location.hash`); h != h1 {
		t.Errorf("the linked page's hash became %q, want %q", h, h1)
	}

	// A hash of another file's fingerprint is not applied: the file opens at its overview.
	r := newPage(t, siteURL+"#f=0123456789abcdef&n=header/data_size")
	r.openWithPicker(realNEFF)
	if got := r.selectedPath(); got != "overview" {
		t.Errorf("with another file's hash, %q is selected, want the overview", got)
	}
}

// searchAndPick focuses the search box with key, types q, waits for the search to finish,
// moves to the first result whose data-kind is kind and whose text has want, and presses Enter.
// It returns that result's "where" text and its listing row ("" for a node).
func (p *page) searchAndPick(key kbKey, q, kind, want string) (where, row string) {
	p.t.Helper()
	p.do(key.action)
	p.waitFor(`document.activeElement && document.activeElement.id === 'search'`, key.name+" to focus the search box")
	if v := eval[string](p, `document.getElementById('search').value`); v != "" {
		p.t.Fatalf("after %s the search box holds %q", key.name, v)
	}
	p.do(chromedp.KeyEvent(q))
	p.waitFor(`neffscope.search.done && neffscope.search.q === `+jsString(strings.ToLower(q)), "the search for "+q+" to finish")
	idx := eval[int](p, `Array.from(document.querySelectorAll('#search-results .sr')).findIndex(r => r.dataset.kind === `+jsString(kind)+` && r.textContent.includes(`+jsString(want)+`))`)
	if idx < 0 {
		p.t.Fatalf("searching %q: no %s result with %q among %s", q, kind, want,
			eval[string](p, `Array.from(document.querySelectorAll('#search-results .sr')).slice(0, 30).map(r => r.dataset.kind + ':' + r.textContent).join(' | ')`))
	}
	for range idx {
		p.do(chromedp.KeyEvent(kb.ArrowDown))
	}
	active := fmt.Sprintf(`#search-results .sr[data-index="%d"]`, idx)
	if got := eval[string](p, `(document.querySelector('#search-results .sr.active') || {dataset: {}}).dataset.index || ''`); got != fmt.Sprint(idx) {
		p.t.Fatalf("after %d ArrowDown the active result is %q, want %d", idx, got, idx)
	}
	where = eval[string](p, `document.querySelector(`+jsString(active)+` + ' .sr-where').textContent`)
	row = eval[string](p, `document.querySelector(`+jsString(active)+`).dataset.row || ''`)
	p.do(chromedp.KeyEvent(kb.Enter))
	return where, row
}

type kbKey struct {
	name   string
	action chromedp.Action[chromedp.Void]
}

var (
	ctrlK = kbKey{"Ctrl+K", chromedp.KeyEvent("k", chromedp.KeyModifiers(chromedp.ModifierCtrl))}
	slash = kbKey{"/", chromedp.KeyEvent("/")}
)

// TestSearchFindsAMemberAndAnOpcode: the search box finds the member sg00/def.json by its
// path and Enter selects it in the tree; it finds Activate instructions in an Activation
// stream's listing and Enter opens the listing at that row; Escape closes the results.
func TestSearchFindsAMemberAndAnOpcode(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.do(chromedp.Focus(chromedp.CSS(`#tree .ti[aria-selected="true"]`)))
	where, _ := p.searchAndPick(ctrlK, "def.json", "member", "sg00/def.json")
	if where != "sg00/def.json" {
		t.Errorf("the member result says it is at %q", where)
	}
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.ref === 'member:sg00/def.json'`, "Enter to select the member sg00/def.json")
	if got := eval[string](p, `document.getElementById('content-title').textContent`); got != "sg00/def.json" {
		t.Errorf("after picking the member the content pane shows %q", got)
	}
	if !eval[bool](p, `document.getElementById('search-results').hidden`) {
		t.Errorf("the results stay open after a pick")
	}
	// Escape closes an open result list.
	p.do(slash.action)
	p.waitFor(`document.activeElement && document.activeElement.id === 'search'`, "/ to focus the search box")
	p.do(chromedp.KeyEvent("version"))
	p.waitFor(`!document.getElementById('search-results').hidden && neffscope.search.done && neffscope.search.q === 'version'`, "results for version")
	if n := eval[int](p, `neffscope.search.results`); n < 1 {
		t.Errorf("no results for version")
	}
	p.do(chromedp.KeyEvent(kb.Escape))
	if !eval[bool](p, `document.getElementById('search-results').hidden`) {
		t.Errorf("Escape did not close the results")
	}

	// An opcode: matmul_small's sg00 loads its activation set once.
	q := newPage(t, siteURL)
	q.openWithPicker(realNEFF)
	where, row := q.searchAndPick(slash, "ActivationTableLoad", "instruction", "sg00/Activation.bin")
	if !strings.HasPrefix(where, "sg00/Activation.bin #") || row == "" {
		t.Fatalf("the opcode result is at %q row %q", where, row)
	}
	sel := `#listing-rows .lrow.selected[data-index="` + row + `"]`
	q.waitFor(`!document.getElementById('listing').hidden && document.querySelector(`+jsString(sel)+`) && document.querySelector(`+jsString(sel+" .col-name")+`)`, "the listing open at row "+row)
	if name := eval[string](q, `document.querySelector(`+jsString(sel+" .col-name")+`).textContent`); !strings.Contains(name, "ActivationTableLoad") {
		t.Errorf("listing row %s is %q, not an ActivationTableLoad instruction", row, name)
	}
	q.waitFor(`document.querySelector('#detail .d-path').textContent.includes('#`+row+`')`, "the detail pane to show instruction #"+row)
	if got := eval[string](q, `document.getElementById('content-title').textContent`); got != "sg00/Activation.bin" {
		t.Errorf("after picking the instruction the content pane shows %q", got)
	}
}

// TestThemeToggle: the toggle cycles system → light → dark → system, changes the computed
// background, is remembered across a reload, and "system" follows the OS preference.
func TestThemeToggle(t *testing.T) {
	const light, dark = "rgb(244, 245, 247)", "rgb(14, 16, 20)"
	p := newPage(t, siteURL)
	bg := func() string { return eval[string](p, `getComputedStyle(document.body).backgroundColor`) }
	theme := func() string { return eval[string](p, `document.getElementById('theme-toggle').dataset.theme`) }
	click := func() { eval[bool](p, `(document.getElementById('theme-toggle').click(), true)`) }
	osScheme := func(s string) {
		if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}}}); err != nil {
			t.Fatal(err)
		}
	}
	osScheme("light")
	if theme() != "system" || bg() != light {
		t.Fatalf("at first: theme %q background %s, want system and %s", theme(), bg(), light)
	}
	osScheme("dark")
	if got := bg(); got != dark {
		t.Errorf("system theme with a dark OS: background %s, want %s", got, dark)
	}
	click()
	if theme() != "light" || bg() != light {
		t.Errorf("after one click (dark OS): theme %q background %s, want light and %s", theme(), bg(), light)
	}
	osScheme("light")
	click()
	if theme() != "dark" || bg() != dark {
		t.Errorf("after two clicks (light OS): theme %q background %s, want dark and %s", theme(), bg(), dark)
	}
	if s := eval[string](p, `localStorage.getItem('neffscope.theme') || ''`); s != "dark" {
		t.Errorf("stored theme %q, want dark", s)
	}
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after the reload")
	if theme() != "dark" || bg() != dark {
		t.Errorf("after a reload: theme %q background %s, want the remembered dark and %s", theme(), bg(), dark)
	}
	click()
	if theme() != "system" || bg() != light {
		t.Errorf("after three clicks (light OS): theme %q background %s, want system and %s", theme(), bg(), light)
	}
	if s := eval[string](p, `localStorage.getItem('neffscope.theme') || ''`); s != "" {
		t.Errorf("system should clear the stored theme, found %q", s)
	}
}
