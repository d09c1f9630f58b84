package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
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
	if h := eval[string](p, `location.hash`); h != "#f="+fp+"&n=header" {
		t.Errorf("after opening, the hash is %q, want the header of %s", h, fp)
	}

	p.selectDefLeaf("type")
	first := p.jsonSelected()
	if !strings.HasSuffix(first, "/var/SB/type") {
		t.Fatalf("selected JSON row %q, want …/var/SB/type", first)
	}
	h1 := eval[string](p, `location.hash`)
	if !strings.HasPrefix(h1, "#f="+fp+"&n=") {
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

	// A hash of another file's fingerprint is not applied: the file opens at its header.
	r := newPage(t, siteURL+"#f=0123456789abcdef&n=header/data_size")
	r.openWithPicker(realNEFF)
	if got := r.selectedPath(); got != "header" {
		t.Errorf("with another file's hash, %q is selected, want the header", got)
	}
}
