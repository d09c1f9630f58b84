package e2e

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestCancelOverADocument: a big NEFF opened over another, cancelled, leaves that document as
// it was, and the next file opens at once (the defects this caught: the partial overview's
// cancel path redrew the document, and the new worker reopened the big file first, so the next
// open waited behind it).
func TestCancelOverADocument(t *testing.T) {
	path := bigRealNEFF(t, 32)
	p := newSlowPage(t, siteURL, 10*time.Minute)
	eval[chromedp.Void](p, watchOpenJS)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
	p.waitLong(`document.body.dataset.state === 'open'`, "the file to open", 8*time.Minute)
	eval[chromedp.Void](p, watchOpenJS)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
	p.waitLong(`window.bigOpen.progress.length >= 2`, "the second open's progress", time.Minute)
	eval[chromedp.Void](p, `document.getElementById('cancel').click()`)
	p.waitLong(`document.getElementById('progress').hidden && document.body.dataset.state !== 'opening'`, "the open to stop", 30*time.Second)
	if st := eval[string](p, `document.body.dataset.state`); st != "open" {
		t.Errorf("after the cancel the page is %q, want the first document still open", st)
	}
	p.waitLong(`document.getElementById('core-status').dataset.state === 'ready'`, "a new worker", 30*time.Second)
	file, _ := os.ReadFile(realNEFF)
	eval[chromedp.Void](p, `window.__errs = []; window.addEventListener('error', e => window.__errs.push(String(e.message))); window.addEventListener('unhandledrejection', e => window.__errs.push('rej ' + String(e.reason && e.reason.stack || e.reason)))`)
	defer func() {
		t.Logf("end: state %s toast %q errs %v", eval[string](p, `document.body.dataset.state`), eval[string](p, `document.getElementById('toast').textContent`), eval[[]string](p, `window.__errs`))
	}()
	p.openByDrop("matmul_small.neff", file)
}
