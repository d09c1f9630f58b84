package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// colleaguePage is a page loaded with url in a tab whose library holds nothing (a colleague's
// browser: the link came by chat, the file did not).
func colleaguePage(t *testing.T, url string) *page {
	t.Helper()
	p := newPage(t, siteURL)
	p.libForgetAll()
	p.do(chromedp.Navigate(url))
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core")
	p.waitFor(`neffscope.library.ok !== null`, "the library's look for the linked file")
	return p
}

// A link opened where its file is not: the page says which file to open (its name, UUID and
// fingerprint) and that nothing was uploaded; a file opened first that is not the one keeps
// the link (a copy of another build, same name and UUID, is said to be another); once the
// file is dropped, the page lands on the place, its byte included.
func TestLinkWithoutItsFileSaysWhichToOpen(t *testing.T) {
	file := readReal(t)
	sum := sha256.Sum256(file)
	sha := hex.EncodeToString(sum[:])
	// Instruction #1 of sg00/PE.bin, its byte 0x44 (a word is 64 bytes).
	link := fmt.Sprintf("#f=%s&name=matmul_small.neff&size=%d&uuid=%s&n=members/sg00%%2F/PE.bin/%%231&b=0x44", sha[:16], len(file), realUUID)
	p := colleaguePage(t, siteURL+"?from=chat"+link)
	p.waitFor(`!document.getElementById('link-wanted').hidden && document.getElementById('link-wanted').dataset.code === 'page.link-file-missing' && neffscope.link.looked`, "the notice naming the linked file (page.link-file-missing), the library asked")
	if got := eval[map[string]any](p, `neffscope.link`); fmt.Sprint(got["missing"]) != "["+sha[:16]+"]" || got["looked"] != true {
		t.Errorf("the link wants %v; want %s, looked for in the library", got, sha[:16])
	}
	// The notice names the file as the link does: its name, size, UUID and fingerprint.
	named := eval[[]string](p, `Array.from(document.querySelectorAll('#link-wanted .lw-file')).map((f) => [f.dataset.f, f.dataset.size, f.querySelector('.lw-name').textContent, f.querySelector('.lw-ids').textContent].join(' '))`)
	if want := fmt.Sprintf("%s %d matmul_small.neff ", sha[:16], len(file)); len(named) != 1 || !strings.HasPrefix(named[0], want) || !strings.Contains(named[0], realUUID) {
		t.Errorf("the notice names %q; want %q… with its UUID", named, want)
	}
	p.shot("/tmp/neffscope-link-wanted.png")
	shotAt(p, 800, 600, "/tmp/neffscope-link-wanted-800.png")

	// Another file first: the link is kept.
	p.openByDrop("sample.neff", neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "sample.neff"}))
	// Another build of the linked file (a byte more): same name and UUID, another sha-256.
	other := append(append([]byte{}, file...), 0)
	p.openByDrop("matmul_small.neff", other)
	p.waitFor(`document.getElementById('toast').dataset.code === 'page.link-other-file'`, "the page to say this matmul_small.neff is not the linked one (page.link-other-file)")
	if got := eval[[]any](p, `neffscope.link.missing`); fmt.Sprint(got) != "["+sha[:16]+"]" {
		t.Errorf("after another file the link wants %v; want %s still", got, sha[:16])
	}

	// The file itself: its place, the byte's field selected, the cursor on the byte.
	p.openByDrop("matmul_small.neff", file)
	p.waitFor(`neffscope.state.doc.sha256 === `+jsString(sha), "the linked file open")
	p.waitFor(`(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return !!r && r.path.join('/').startsWith('members/sg00//PE.bin/instructions/#1/'); })()`, "a field of instruction #1 selected")
	p.waitFor(`neffscope.hex.cursor === 0x44`, "the hex cursor on byte 0x44")
	if h := eval[string](p, `location.hash`); !strings.HasSuffix(h, "/%231&b=0x44") {
		t.Errorf("the hash after landing is %q, want the link's place", h)
	}
	if !eval[bool](p, `document.getElementById('link-wanted').hidden && neffscope.link.missing.length === 0`) {
		t.Errorf("the notice still shows (or the link still wants a file) once the file is open")
	}
}

// shotAt takes a screenshot of the page at w×h, then puts the viewport back to 1440×900.
func shotAt(p *page, w, h int64, path string) {
	p.t.Helper()
	p.do(chromedp.EmulateViewport(w, h))
	p.shot(path)
	p.do(chromedp.EmulateViewport(1440, 900))
}

// The schedule, the memory view and a comparison have URLs: the view opened, its window of
// steps (and core), the pair compared. The URL opened again with the files shows them.
func TestViewsHaveURLs(t *testing.T) {
	readReal(t)
	open := func(p *page, which string) {
		p.waitFor(`document.querySelector('#overview-view [data-section="sync"] button')`, "the sync card's buttons")
		eval[chromedp.Void](p, `Array.from(document.querySelectorAll('#overview-view [data-section="sync"] button')).find((b) => b.textContent === `+jsString(which)+`).click()`)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	open(p, "Schedule")
	p.waitFor(`neffscope.schedule.open && Number((document.getElementById('sched-canvas') || {dataset: {}}).dataset.drawn) > 0`, "the schedule's first screen")
	// Zoomed in once: far from the closest zoom, which a wider schedule (the 800×600 window
	// shows it across the whole width) could not show in as few steps.
	eval[chromedp.Void](p, `document.querySelector('#sched-view button[title^="Zoom in"]').click()`)
	p.waitFor(`/&name=matmul_small\.neff&size=62464&uuid=[0-9a-f-]{36}&v=schedule&w=-?\d+~\d+&/.test(location.hash)`, "the hash to name the file, the schedule and its window")
	h := eval[string](p, `location.hash`)
	win := eval[string](p, `location.hash.match(/&w=-?\d+~\d+&/)[0]`)

	// Opened in a smaller window (800×600, one pane at a time): the same steps, the view on show.
	q := newPage(t, siteURL+h)
	q.do(chromedp.EmulateViewport(800, 600))
	q.openWithPicker(realNEFF)
	q.waitFor(`neffscope.schedule.open && Number((document.getElementById('sched-canvas') || {dataset: {}}).dataset.drawn) > 0`, "the linked schedule open")
	q.waitFor(`(() => { const w = neffscope.windows.schedule; return !!w && '&w=' + w.lo + '~' + w.hi + '&' === `+jsString(win)+`; })()`, "the linked window of steps "+win)
	q.waitFor(`neffscope.layout.pane === 'content'`, "the content pane (the schedule) on show")
	q.shot("/tmp/neffscope-link-schedule-800.png")
	shotAt(q, 1440, 900, "/tmp/neffscope-link-schedule.png")
	if got := eval[string](q, `location.hash`); got != h {
		t.Errorf("the linked schedule's hash became %q, want %q", got, h)
	}

	// The memory view: open, zoomed by the wheel.
	eval[chromedp.Void](p, `document.querySelector('#sched-view button[title^="Close"]').click()`)
	p.clickRow(`#tree [data-path="overview"]`)
	open(p, "Memory")
	p.waitFor(`neffscope.memory.open && neffscope.memory.boxes > 0`, "the memory view's boxes")
	eval[chromedp.Void](p, `(() => { const c = document.getElementById('mem-canvas'); const r = c.getBoundingClientRect(); c.dispatchEvent(new WheelEvent('wheel', {deltaY: -400, clientX: r.left + r.width / 2, clientY: r.top + 40, bubbles: true, cancelable: true})); })()`)
	p.waitFor(`/&v=memory&w=-?\d+~\d+&/.test(location.hash)`, "the hash to name the memory view and its window")
	h = eval[string](p, `location.hash`)
	r := newPage(t, siteURL+h)
	r.do(chromedp.EmulateViewport(800, 600))
	r.openWithPicker(realNEFF)
	r.waitFor(`neffscope.memory.open && neffscope.memory.boxes > 0`, "the linked memory view open")
	memWin := eval[string](p, `location.hash.match(/&w=-?\d+~\d+&/)[0]`)
	r.waitFor(`(() => { const w = neffscope.windows.memory.w; return !!w && '&w=' + w.lo + '~' + w.hi + '&' === `+jsString(memWin)+`; })()`, "the linked memory window "+memWin)
	r.waitFor(`neffscope.layout.pane === 'content'`, "the content pane (the memory view) on show")
	if eval[bool](r, `!document.getElementById('toast').hidden && document.getElementById('toast').dataset.code === 'page.link-file-missing'`) {
		t.Errorf("the page says the link's file is missing while it is open")
	}
	r.shot("/tmp/neffscope-link-memory-800.png")
	shotAt(r, 1440, 900, "/tmp/neffscope-link-memory.png")
	if got := eval[string](r, `location.hash`); got != h {
		t.Errorf("the linked memory view's hash became %q, want %q", got, h)
	}

	// A comparison: its pair.
	sample := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "sample.neff"})
	p.openByDrop("sample.neff", sample)
	p.waitFor(`neffscope.docs.length === 2`, "two tabs")
	p.click("#compare-button")
	p.waitFor(`!document.getElementById('compare-menu').hidden`, "the Compare menu")
	eval[chromedp.Void](p, `document.querySelector('#compare-menu .menu-item').click()`)
	p.waitDiff()
	p.waitFor(`/&vs=[0-9a-f]{16}&vsname=[^&]+&vssize=\d+&vsuuid=[0-9a-f-]{36}&/.test(location.hash)`, "the hash to name the pair")
	h = eval[string](p, `location.hash`)
	pair := eval[[]string](p, `[neffscope.docs[neffscope.diff.a].file, neffscope.docs[neffscope.diff.b].file]`)
	s := colleaguePage(t, siteURL+"?from=chat"+h)
	s.waitFor(`!document.getElementById('link-wanted').hidden && neffscope.link.missing.length === 2 && document.querySelectorAll('#link-wanted .lw-file').length === 2`, "the notice naming both files")
	shotAt(s, 1440, 900, "/tmp/neffscope-link-diff-wanted.png")
	shotAt(s, 800, 600, "/tmp/neffscope-link-diff-wanted-800.png")
	s.openWithPicker(realNEFF)
	s.openByDrop("sample.neff", sample)
	s.waitDiff()
	if got := eval[[]string](s, `[neffscope.docs[neffscope.diff.a].file, neffscope.docs[neffscope.diff.b].file]`); fmt.Sprint(got) != fmt.Sprint(pair) {
		t.Errorf("the linked comparison compares %v, want %v", got, pair)
	}
	shotAt(s, 1440, 900, "/tmp/neffscope-link-diff.png")
	// Back leaves the comparison for the document; forward comes back to it.
	s.click(`#diff-close`)
	s.waitFor(`!neffscope.diff.shown && !/&vs=/.test(location.hash)`, "the document, its hash without the pair")
	eval[chromedp.Void](s, `history.back()`)
	s.waitFor(`neffscope.diff.shown`, "Back to the comparison")
}

// openLater opens hash h in this tab as a link opened later would be (a new tab of this
// browser: its library kept, no session of the tab to bring the tabs back); what makes the
// URL a new one.
func (p *page) openLater(what, h string) {
	p.t.Helper()
	eval[chromedp.Void](p, `sessionStorage.clear()`)
	p.do(chromedp.Navigate(siteURL + "?later=" + what + h))
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready' && neffscope.library.ok !== null`, "the core and the library after the reload")
}

// A comparison's link opened later (a new tab of this browser: no session to bring its tabs
// back) restores both files from the library and lands on the comparison; with one of them no
// longer kept, the page names it (name, size, UUID, fingerprint), with a button to open it,
// and lands on the comparison once it is dropped.
func TestComparisonLinkRestoresBothFiles(t *testing.T) {
	files := map[string][]byte{"matmul_small.neff": readReal(t), "sample.neff": neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "sample.neff"})}
	p := newPage(t, siteURL)
	p.libForgetAll()
	p.openWithPicker(realNEFF)
	p.openByDrop("sample.neff", files["sample.neff"])
	p.waitFor(`neffscope.docs.length === 2`, "two tabs")
	p.click("#compare-button")
	p.waitFor(`!document.getElementById('compare-menu').hidden`, "the Compare menu")
	eval[chromedp.Void](p, `document.querySelector('#compare-menu .menu-item').click()`)
	p.waitDiff()
	p.waitFor(`neffscope.library.entries.length === 2 && neffscope.library.entries.every((e) => e.kept)`, "both files remembered with their bytes")
	p.waitFor(`/&vs=[0-9a-f]{16}&vsname=/.test(location.hash)`, "the comparison's hash")
	h := eval[string](p, `location.hash`)
	p.openLater("1", h)
	p.waitFor(`neffscope.docs.length === 2 && neffscope.diff.shown && neffscope.diff.ready && document.getElementById('diff-summary')`, "both files back from the library, and their comparison")
	if got := eval[string](p, `location.hash`); got != h {
		t.Errorf("the comparison's hash after the reload is %q, want %q", got, h)
	}

	// The compared-with file no longer kept: the page names it and asks for it.
	name := eval[string](p, `decodeURIComponent(location.hash.match(/&vsname=([^&]*)/)[1])`)
	size := eval[string](p, `location.hash.match(/&vssize=(\d+)/)[1]`)
	uuid := eval[string](p, `decodeURIComponent(location.hash.match(/&vsuuid=([^&]*)/)[1])`)
	fp := eval[string](p, `location.hash.match(/&vs=([0-9a-f]+)/)[1]`)
	if files[name] == nil || size != fmt.Sprint(len(files[name])) {
		t.Fatalf("the hash compares with %q of %s bytes", name, size)
	}
	eval[chromedp.Void](p, `document.querySelector('#library-list [aria-label="Forget `+name+`"]').click()`)
	p.waitFor(`neffscope.library.entries.length === 1`, "the library to forget "+name)
	p.openLater("2", h)
	p.waitFor(`!document.getElementById('toast').hidden && document.getElementById('toast').dataset.code === 'page.link-file-missing' && neffscope.link.looked`, "the page naming the file the library no longer has (page.link-file-missing)")
	msg := eval[string](p, `document.getElementById('toast').textContent`)
	for _, w := range []string{name + " (", "UUID " + uuid, "sha-256 " + fp, "Open " + name + "…"} {
		if !strings.Contains(msg, w) {
			t.Errorf("the page says %q: no %q", msg, w)
		}
	}
	if got := eval[[]any](p, `neffscope.link.missing`); fmt.Sprint(got) != "["+fp+"]" {
		t.Errorf("the link wants %v; want %s", got, fp)
	}
	if n := eval[int](p, `neffscope.docs.length`); n != 1 {
		t.Errorf("%d files open; want the one the library kept", n)
	}
	p.shot("/tmp/neffscope-link-compare-missing.png")
	shotAt(p, 800, 600, "/tmp/neffscope-link-compare-missing-800.png")
	p.openByDrop(name, files[name])
	p.waitDiff()
	p.waitFor(`neffscope.docs.length === 2 && document.getElementById('toast').hidden`, "both files open, the message taken down")
	if got := eval[string](p, `location.hash`); got != h {
		t.Errorf("the comparison's hash once the file is dropped is %q, want %q", got, h)
	}
}

// A comparison of several has a URL too: its files in order. Opened later it brings them back
// from the library and shows the table; with one no longer kept, the page names that one and
// shows the table once it is dropped.
func TestSeveralComparedLinkRestoresEveryFile(t *testing.T) {
	files := map[string][]byte{
		"matmul_small.neff": readReal(t),
		"sample.neff":       neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "sample.neff"}),
		"other.neff":        neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "other.neff"}),
	}
	p := newPage(t, siteURL)
	p.libForgetAll()
	p.openWithPicker(realNEFF)
	p.openByDrop("sample.neff", files["sample.neff"])
	p.openByDrop("other.neff", files["other.neff"])
	p.waitFor(`neffscope.docs.length === 3`, "three tabs")
	p.click(`#compare-button`)
	p.click(`#compare-all`)
	shown := `document.body.dataset.view === 'many' && !!document.getElementById('many-table')`
	p.waitFor(shown, "the comparison of the three")
	p.waitFor(`neffscope.library.entries.length === 3 && neffscope.library.entries.every((e) => e.kept)`, "the three files remembered with their bytes")
	p.waitFor(`/&v=compare&all=[0-9a-f]{16},[0-9a-f]{16}&alln=/.test(location.hash)`, "the hash to name the comparison's files")
	h := eval[string](p, `location.hash`)
	p.openLater("1", h)
	p.waitFor(`neffscope.docs.length === 3 && `+shown, "the three files back from the library, and their comparison")
	if got := eval[string](p, `location.hash`); got != h {
		t.Errorf("the comparison's hash after the reload is %q, want %q", got, h)
	}
	// The last file compared no longer kept: the page names it.
	name := eval[string](p, `decodeURIComponent(location.hash.match(/&alln=([^&]*)/)[1].split(',')[1])`)
	fp := eval[string](p, `location.hash.match(/&all=([^&]*)/)[1].split(',')[1]`)
	if files[name] == nil {
		t.Fatalf("the hash names %q", name)
	}
	eval[chromedp.Void](p, `document.querySelector('#library-list [aria-label="Forget `+name+`"]').click()`)
	p.waitFor(`neffscope.library.entries.length === 2`, "the library to forget "+name)
	p.openLater("2", h)
	p.waitFor(`!document.getElementById('toast').hidden && document.getElementById('toast').dataset.code === 'page.link-file-missing' && neffscope.link.looked`, "the page naming the file the library no longer has (page.link-file-missing)")
	msg := eval[string](p, `document.getElementById('toast').textContent`)
	if !strings.Contains(msg, name+" (") || !strings.Contains(msg, "sha-256 "+fp) || !strings.Contains(msg, "Open "+name+"…") {
		t.Errorf("the page says %q; want %s named with its sha-256 %s and a button to open it", msg, name, fp)
	}
	if got := eval[[]any](p, `neffscope.link.missing`); fmt.Sprint(got) != "["+fp+"]" {
		t.Errorf("the link wants %v; want %s", got, fp)
	}
	p.openByDrop(name, files[name])
	p.waitFor(`neffscope.docs.length === 3 && `+shown+` && document.getElementById('toast').hidden`, "the comparison once the file is dropped")
	if got := eval[string](p, `location.hash`); got != h {
		t.Errorf("the comparison's hash once the file is dropped is %q, want %q", got, h)
	}
}
