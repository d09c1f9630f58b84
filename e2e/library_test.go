package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The library (IndexedDB in the worker, wasm/library.go): files opened are remembered, and a
// reload or a link opens them again — bytes and selection — with no file picked.

type libEntry struct {
	Key  string `json:"key"`
	Name string `json:"name"`
	Kind string `json:"kind"`
	Size int64  `json:"size"`
	How  string `json:"how"`
	Kept bool   `json:"kept"`
}

func (p *page) libEntries() []libEntry {
	p.t.Helper()
	return eval[[]libEntry](p, `neffscope.libRefresh().then(() => neffscope.library.entries)`)
}

func (p *page) libForgetAll() {
	p.t.Helper()
	p.waitFor(`neffscope.library.ok !== null`, "the library status")
	if !eval[bool](p, `neffscope.library.ok`) {
		p.t.Fatalf("the library is off on %s: %s", p.origin, eval[string](p, `neffscope.library.reason`))
	}
	eval[any](p, `neffscope.libRefresh().then(() => { const b = document.getElementById('library-clear'); if (!b.disabled) b.click(); })`)
	p.waitFor(`document.querySelectorAll('#library-list .lib-item').length === 0`, "Forget all to empty the list")
}

func TestLibraryReloadRestoresFileAndSelection(t *testing.T) {
	file := readReal(t)
	sum := sha256.Sum256(file)
	sha := hex.EncodeToString(sum[:])
	p := newPage(t, siteURL)
	p.libForgetAll()

	p.openWithPicker(realNEFF)
	p.selectDefLeaf("type")
	selected := p.jsonSelected()
	hash := eval[string](p, `location.hash`)
	p.waitFor(`neffscope.library.entries.length === 1`, "the file to be remembered")
	es := p.libEntries()
	if len(es) != 1 || es[0].Key != sha || es[0].Kind != "neff" || es[0].Size != int64(len(file)) || !es[0].Kept || es[0].How != "open" {
		t.Fatalf("library after one open: %+v; want one neff entry keyed %s, %d bytes, kept", es, sha[:16], len(file))
	}

	// Reload: no file is picked; the library opens it and the hash selects the same leaf.
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after reload")
	p.waitOpen()
	p.waitFor(`(document.querySelector('#json-tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(selected), "the reload to select "+selected)
	if h := eval[string](p, `location.hash`); h != hash {
		t.Errorf("after reload the hash is %q, want %q", h, hash)
	}
	if got := eval[string](p, `neffscope.state.doc.sha256`); got != sha {
		t.Errorf("the restored document's sha-256 is %s, want %s", got, sha)
	}
	// The bytes came back too: the hex view shows the file's first bytes.
	p.clickRow(`#tree .ti[data-path="header"]`)
	if got := p.hexFirstBytes(16); string(got) != string(file[:16]) {
		t.Errorf("after reload the hex view starts % x, want % x", got, file[:16])
	}
	if r := eval[map[string]any](p, `neffscope.library.restored`); r["kept"] != true || r["fromHash"] != true {
		t.Errorf("restored = %v, want kept from the hash", r)
	}

	// A fresh visit without a hash lists the file on the welcome screen; clicking reopens it.
	q := newPage(t, siteURL)
	q.waitFor(`document.querySelectorAll('#library-list .lib-item').length === 1`, "the Recent list")
	q.shot("/tmp/neffscope-library.png")
	text := eval[string](q, `document.querySelector('#library-list .lib-item').textContent`)
	for _, want := range []string{"matmul_small.neff", "bytes kept", sha[:12]} {
		if !strings.Contains(text, want) {
			t.Errorf("the Recent entry reads %q; it should show %q", text, want)
		}
	}
	eval[any](q, `document.querySelector('#library-list .lib-open').click()`)
	q.waitOpen()
	if got := eval[string](q, `neffscope.state.doc.file`); got != "matmul_small.neff" {
		t.Errorf("clicking the Recent entry opened %q", got)
	}

	// Forget it: the list is empty and a reload with the old hash opens nothing.
	eval[any](q, `document.getElementById('library-open').click()`)
	q.waitFor(`!document.getElementById('library-pop').hidden && document.querySelector('#library-pop .lib-remove')`, "the Recent pop-over")
	q.shot("/tmp/neffscope-library-pop.png")
	eval[any](q, `document.querySelector('#library-pop .lib-remove').click()`)
	q.waitFor(`document.querySelectorAll('#library-list .lib-item').length === 0`, "the entry to be forgotten")
	r := newPage(t, siteURL+hash)
	r.waitFor(`neffscope.library.ok === true`, "the library")
	if s := eval[string](r, `document.body.dataset.state`); s != "empty" {
		t.Errorf("a hash naming a forgotten file left the page %q, want empty", s)
	}
}

func TestLibraryOverCapKeepsTheDocumentOnly(t *testing.T) {
	file := readReal(t)
	p := newPage(t, siteURL)
	p.libForgetAll()
	// The cap setting: documents only.
	eval[any](p, `(() => { const s = document.getElementById('library-cap'); s.value = '0'; s.dispatchEvent(new Event('change')); })()`)
	t.Cleanup(func() { eval[any](p, `localStorage.removeItem('neffscope.libraryCap')`) })
	p.openByDrop("small.neff", file)
	p.waitFor(`neffscope.library.entries.length === 1`, "the file to be remembered")
	if es := p.libEntries(); es[0].Kept {
		t.Fatalf("with the cap at 0 the bytes were kept: %+v", es[0])
	}
	p.clickRow(`#tree .ti[data-path="header/data_size"]`)
	hash := eval[string](p, `location.hash`)

	q := newPage(t, siteURL+hash)
	q.waitOpen()
	q.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'header/data_size'`, "the kept document to select header/data_size")
	if msg := eval[string](q, `document.getElementById('toast').textContent`); !strings.Contains(msg, "bytes were not kept") {
		t.Errorf("the page did not say the bytes were not kept: toast %q", msg)
	}
	if n := eval[int](q, `document.querySelectorAll('#tree .ti').length`); n < 5 {
		t.Errorf("the kept document shows only %d tree rows", n)
	}
	// The tree and details work; the byte views say why they are empty instead of failing silently.
	q.clickRow(`#tree .ti[data-path="header"]`)
	q.waitFor(`/not kept/.test(document.getElementById('content').textContent + document.getElementById('toast').textContent)`, "the hex view to say the bytes were not kept")
	q.shot("/tmp/neffscope-library-doconly.png")
}

func TestLibraryFromFileURL(t *testing.T) {
	file := readReal(t)
	p := newPage(t, singleURL)
	p.waitFor(`neffscope.library.ok !== null`, "the library status")
	if !eval[bool](p, `neffscope.library.ok`) {
		// Chromium 156 gives file:// an IndexedDB; where another browser does not, the page
		// must say so (TestLibraryOffWithoutIndexedDB checks the words).
		t.Logf("file://: library off: %s", eval[string](p, `neffscope.library.reason`))
	}
	p.openByDrop("small.neff", file)
	if got := eval[string](p, `neffscope.state.doc.kind`); got != "neff" {
		t.Errorf("from file:// the file opened as %q", got)
	}
}

// A locked-down context: no workers, and IndexedDB refuses access (as opaque origins and some
// private modes do). The page says the library is off, in words, and opens files as usual.
func TestLibraryOffWithoutIndexedDB(t *testing.T) {
	file := readReal(t)
	for _, url := range []string{siteURL, singleURL} {
		p := newPageWith(t, url, `window.Worker = function () { throw new Error('workers are disabled here'); };
Object.defineProperty(window, 'indexedDB', { get() { throw new DOMException('The user denied permission to access the database.', 'SecurityError'); } });`, "fallback")
		p.waitFor(`neffscope.library.ok === false`, "the library to be off")
		note := eval[string](p, `document.getElementById('library-note').textContent`)
		if !strings.Contains(note, "library is off") || !strings.Contains(note, "denied permission") || !strings.Contains(note, "not remembered") {
			t.Errorf("%s: the library note reads %q; it should say the library is off, why, and what that means", url, note)
		}
		if eval[bool](p, `document.getElementById('library').hidden`) {
			t.Errorf("%s: the library section (with its note) is hidden", url)
		}
		p.openByDrop("matmul_small.neff", file)
		checkRealOpened(t, p, file)
		if eval[bool](p, `!document.getElementById('library-open').hidden`) {
			t.Errorf("%s: the Recent button shows although the library is off", url)
		}
	}
}

// The fingerprint of a file is computed by the hash worker (worker.js in its hash role), in
// slices, alongside the core: on a file of several slices and an odd length it must equal the
// sha-256 of the bytes, and the core must have it too (the JSON export carries it).
func TestFingerprintFromTheHashWorker(t *testing.T) {
	path := bigNEFF(t, 9<<20+13)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := hex.EncodeToString(sum[:])
	for _, url := range []string{siteURL, singleURL} {
		p := newPage(t, url)
		p.openWithPicker(path)
		if got := eval[string](p, `neffscope.state.doc.sha256`); got != want {
			t.Errorf("%s: the page's fingerprint is %s, want %s", url, got, want)
		}
		if !eval[bool](p, `location.hash.startsWith('#f=`+want[:16]+`&')`) {
			t.Errorf("%s: the hash %q does not carry the fingerprint", url, eval[string](p, `location.hash`))
		}
	}
}
