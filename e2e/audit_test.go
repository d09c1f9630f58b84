package e2e

import (
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/ncfw"
)

// TestNoRequestWhenOpening is the request audit: every way of opening a file — the picker, a
// drop, several files dropped together, a binary opened as a libncfw context, a reload that
// reopens from the library, ?url= — is recorded through the DevTools protocol on the page and
// on its worker, and none may ask the network for anything, except ?url=, which may fetch
// exactly the file it names, from the page's own origin.
func TestNoRequestWhenOpening(t *testing.T) {
	file := readReal(t)
	viewer := viewerServer(t, file)
	// A request the CSP blocks never reaches the network log; count the attempts too.
	const countViolations = `window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => cspViolations.push(e.blockedURI + ' (' + e.violatedDirective + ')'));`
	p := newPageWith(t, viewer.URL+"/", countViolations, "ready")
	p.attachWorkers()
	t.Cleanup(func() {
		if v := eval[[]string](p, `window.cspViolations || []`); len(v) > 0 {
			t.Errorf("the page tried requests its CSP blocked: %v", v)
		}
	})

	since := func() int { p.mu.Lock(); defer p.mu.Unlock(); return len(p.requests) }
	expectNone := func(what string, from int, allowed ...string) {
		t.Helper()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, u := range p.requests[from:] {
			if strings.HasPrefix(u, "blob:") || strings.HasPrefix(u, "data:") {
				continue // the page's own in-memory objects (downloads, the single file's worker)
			}
			ok := false
			for _, a := range allowed {
				ok = ok || u == a
			}
			if !ok {
				t.Errorf("%s made a request: %s", what, u)
			}
		}
	}

	n := since()
	p.openWithPicker(realNEFF)
	p.clickRow(`#tree .ti[data-path="header/data_size"]`)
	p.hexFirstBytes(4)
	expectNone("opening with the picker", n)

	n = since()
	p.openByDrop("dropped.neff", file)
	expectNone("a drop", n)

	names := []string{"act_info.json", actSet + ".json", actSet + "_bkt.bin", actSet + "_ctrl.bin"}
	loose := map[string][]byte{}
	for _, name := range names {
		loose[name] = realfiles.Read(t, looseDir+name)
	}
	n = since()
	p.dropFiles(loose, names)
	p.waitFor(`neffscope.state.doc.kind === 'pwp'`, "the activation set")
	expectNone("several files dropped together", n)

	n = since()
	p.openByDrop("ctx.bin", ncfw.SampleContext(12, "patterned"))
	p.waitFor(`document.getElementById('ctx-open')`, "the open-as-context offer")
	eval[chromedp.Void](p, `document.getElementById('ctx-arch-offer').value = '12'; document.getElementById('ctx-open').click()`)
	p.waitFor(`document.getElementById('ctx-view').dataset.arch === '12' && !document.getElementById('ctx-view').hidden`, "the context view")
	expectNone("opening a binary as a libncfw context", n)

	// Export: downloads are blob: URLs made in the page.
	n = since()
	p.openWithPicker(realNEFF)
	eval[chromedp.Void](p, `document.getElementById('export-json').click()`)
	p.waitFor(`!document.getElementById('export-json').disabled`, "the export")
	expectNone("exporting JSON", n)

	// A reload reopens the file from the library: the page's own shell (served by the service
	// worker or the server) and nothing else.
	p.clickRow(`#tree .ti[data-path="header/data_size"]`)
	p.waitFor(`neffscope.library.entries.some((e) => e.name === 'matmul_small.neff')`, "the library entry")
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after reload")
	p.attachWorkers()
	n = since()
	p.waitOpen()
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'header/data_size'`, "the library reopen")
	p.hexFirstBytes(4)
	expectNone("reopening from the library", n)

	// ?url= fetches the named file from the page's own origin, and only that.
	q := newPage(t, viewer.URL+"/?url=files/matmul_small.neff")
	q.waitOpen()
	expectNoneQ := func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		fetched := 0
		for _, u := range q.requests {
			if strings.HasSuffix(u, "/files/matmul_small.neff") && strings.HasPrefix(u, viewer.URL+"/") {
				fetched++
			}
		}
		if fetched != 1 {
			t.Errorf("?url= fetched the file %d times, want once; requests: %v", fetched, q.requests)
		}
	}
	expectNoneQ()
}

// TestWorkersAreTheTabsOwn: the request audit records a tab's own workers and never another
// tab's, even while both tabs run the same worker script.
func TestWorkersAreTheTabsOwn(t *testing.T) {
	a := newPage(t, siteURL)
	b := newPage(t, siteURL)
	a.attachWorkers()
	b.attachWorkers()
	if a.workers != 2 || b.workers != 2 {
		t.Errorf("tab A attached %d workers and tab B %d, want 2 each (the core and the hash worker)", a.workers, b.workers)
	}
	for id := range a.attached {
		if b.attached[id] {
			t.Errorf("worker %s was attached by both tabs", id)
		}
	}
}
