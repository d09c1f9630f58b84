package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/internal/bigneff"
)

// Real-shaped big NEFFs (internal/bigneff) in the page: this test drives the 256 MiB one, and
// bench_big_test.go measures them. The files are generated once and kept in testdata/gen
// (git-ignored), so only the first run pays for it (~35 s for 256 MiB).

var bigFiles struct {
	mu    sync.Mutex
	paths map[int]string
}

// bigRealNEFF returns the generated real-shaped NEFF of mib MiB, or skips t saying why.
func bigRealNEFF(t testing.TB, mib int) string {
	t.Helper()
	if setupSkip != "" {
		t.Skip(setupSkip)
	}
	bigFiles.mu.Lock()
	defer bigFiles.mu.Unlock()
	if p := bigFiles.paths[mib]; p != "" {
		return p
	}
	dir := filepath.Join("..", "testdata", "gen")
	need := uint64(mib) << 20
	for _, d := range []string{os.TempDir(), dir} {
		os.MkdirAll(d, 0o755)
		var st syscall.Statfs_t
		if err := syscall.Statfs(d, &st); err == nil && st.Bavail*uint64(st.Bsize) < max(2<<30, 2*need) {
			t.Skipf("%s has %d MiB free; the %d MiB real-shaped NEFF test wants 2 GiB (or twice the file)", d, st.Bavail*uint64(st.Bsize)>>20, mib)
		}
	}
	start := time.Now()
	p, err := bigneff.Cached(dir, mib, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Logf("generated %s in %.1f s (kept for the next run)", p, d.Seconds())
	}
	p, _ = filepath.Abs(p)
	if bigFiles.paths == nil {
		bigFiles.paths = map[int]string{}
	}
	bigFiles.paths[mib] = p
	return p
}

// newSlowPage is newPage with a tab that lives for d (a big open takes longer than the
// suite's 60 s).
func newSlowPage(t testing.TB, url string, d time.Duration) *page {
	t.Helper()
	if setupSkip != "" {
		t.Skip(setupSkip)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, d)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	served.take()
	p := &page{t: t, ctx: ctx, origin: url}
	if err := chromedp.Listen(ctx, p.record); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.EmulateViewport(1440, 900), chromedp.Navigate(url))
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core to report ready")
	t.Cleanup(p.checkRequests)
	return p
}

// waitLong polls a JS condition for up to d.
func (p *page) waitLong(cond, what string, d time.Duration) {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) || p.ctx.Err() != nil {
			status, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById('core-status').textContent + ' | progress: ' + document.getElementById('progress-text').textContent + ' | toast: ' + document.getElementById('toast').textContent`))
			p.t.Fatalf("timed out after %s waiting for %s (%s); err %v; page status: %s", d, what, cond, err, status)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// watchOpenJS stamps, from the pick (the file input's change event), when the progress bar
// first moves and when the overview is first on screen: window.bigOpen = {progress: [widths],
// overviewMs}. It also samples the page's JS heap (window.bigOpen.heapPeak).
const watchOpenJS = `(() => {
	clearInterval(window.bigOpen && window.bigOpen.timer);
	const o = window.bigOpen = {t0: 0, progress: [], overviewMs: -1, heapPeak: 0};
	document.getElementById('file-input').addEventListener('change', () => { o.t0 = performance.now(); }, {capture: true, once: true});
	const check = () => {
		if (!o.t0) return;
		const w = document.getElementById('progress-bar').style.width;
		if (!document.getElementById('progress').hidden && o.progress[o.progress.length - 1] !== w) o.progress.push(w);
		const ov = document.getElementById('overview-view');
		if (o.overviewMs < 0 && ov && !ov.hidden && ov.offsetParent !== null && ov.textContent.length > 0) o.overviewMs = performance.now() - o.t0;
	};
	new MutationObserver(check).observe(document.body, {subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'style', 'class']});
	o.timer = setInterval(() => { check(); if (performance.memory) o.heapPeak = Math.max(o.heapPeak, performance.memory.usedJSHeapSize); }, 10);
	document.body.dataset.state = 'reset';
})()`

// docFindingsJS counts the open document's findings by severity and its archive members.
const docFindingsJS = `(() => {
	const out = {error: 0, warning: 0, info: 0, members: 0, firstError: ''};
	const walk = (n) => {
		for (const f of n.finds || []) { out[f.sev] = (out[f.sev] || 0) + 1; if (f.sev === 'error' && !out.firstError) out.firstError = f.msg || f.message || ''; }
		if (n.kind === 'member') out.members++;
		for (const c of n.kids || []) walk(c);
	};
	walk(neffscope.state.doc.root);
	return out;
})()`

type docFindings struct {
	Error, Warning, Info, Members int
	FirstError                    string
}

// TestBigRealShapedOpen drives the 256 MiB real-shaped NEFF: the progress bar moves,
// the overview appears, every member is listed, no finding is an error; then Cancel during a
// second open stops it and the page stays usable (matmul_small opens after).
func TestBigRealShapedOpen(t *testing.T) {
	path := bigRealNEFF(t, 256)
	want, err := bigneff.MemberCount(false)
	if err != nil {
		t.Fatal(err)
	}
	p := newSlowPage(t, siteURL, 10*time.Minute)
	eval[chromedp.Void](p, watchOpenJS)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
	p.waitLong(`window.bigOpen.progress.length >= 3`, "the progress bar to move", time.Minute)
	p.waitLong(`document.body.dataset.state === 'open' || (document.body.dataset.state === 'empty' && document.getElementById('toast').textContent)`, "the file to open", 8*time.Minute)
	if st := eval[string](p, `document.body.dataset.state`); st != "open" {
		t.Fatalf("the 256 MiB file did not open: %s", eval[string](p, `document.getElementById('toast').textContent`))
	}
	p.waitLong(`window.bigOpen.overviewMs >= 0`, "the overview", 10*time.Second)
	t.Logf("progress widths seen: %v; overview after %.0f ms; lastOpen %s", eval[[]string](p, `window.bigOpen.progress.slice(0, 8)`), eval[float64](p, `window.bigOpen.overviewMs`), eval[string](p, `JSON.stringify(neffscope.lastOpen)`))
	f := eval[docFindings](p, docFindingsJS)
	if f.Members != want {
		t.Errorf("the document lists %d members, want %d", f.Members, want)
	}
	// The page holds 64 MiB (the goal), and this file's JSON alone (two 20 MB def.json
	// of 1.4 M values each, a 30 MB debug-info JSON) needs more as trees: until JSON is
	// indexed lazily the open reaches the memory limit, and says so in its one finding.
	// Nothing else may be an error: the file is valid.
	if f.Error > 1 || f.Error == 1 && !strings.Contains(f.FirstError, "limit allows") {
		t.Errorf("%d error findings on a valid file; the first: %s", f.Error, f.FirstError)
	} else if f.Error == 1 {
		t.Logf("the limit finding (issue 13 not met yet): %s", f.FirstError)
	}
	// The streams (hundreds of MB) are never held: they are indexed as they stream past, so
	// the engine grid counts every core's instructions, and a listing is read on demand.
	for _, c := range []struct{ core, engine, count string }{{"sg00", "PE", "3,524,796"}, {"sg01", "Pool", "2,056,131"}} {
		sel := fmt.Sprintf(`#overview-view .ov-eng[data-core=%q][data-engine=%q]`, c.core, c.engine)
		if got := eval[string](p, `(document.querySelector('`+sel+`') || {textContent: 'missing'}).textContent`); strings.ReplaceAll(got, ",", "") != strings.ReplaceAll(c.count, ",", "") {
			t.Errorf("engine cell %s %s shows %q, want %s", c.core, c.engine, got, c.count)
		}
	}
	eval[chromedp.Void](p, `document.querySelector('#overview-view .ov-eng[data-core="sg00"][data-engine="PE"]').click()`)
	// The stream is read back out of the archive: its first window costs inflating the 1.76 GB
	// tar up to it, on the worker's one thread, while the members' SHA-256 are computed too
	// (about a minute on the project's machine).
	tListing := time.Now()
	p.waitLong(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow[data-index="0"] .col-name')`, "the listing of sg00/PE.bin, read on demand", 3*time.Minute)
	t.Logf("the PE listing's first rows after %v", time.Since(tListing).Round(time.Second))
	if n := eval[string](p, `document.getElementById('listing').getAttribute('aria-rowcount')`); n != "3524797" {
		t.Errorf("the PE listing has aria-rowcount %s, want 3,524,796 rows and the header", n)
	}

	// Cancel during an open of the same file: the read stops, a new worker takes over, and the
	// next file opens.
	eval[chromedp.Void](p, watchOpenJS)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
	p.waitLong(`window.bigOpen.progress.length >= 2`, "the second open's progress", time.Minute)
	eval[chromedp.Void](p, `document.getElementById('cancel').click()`)
	p.waitLong(`document.getElementById('progress').hidden && document.body.dataset.state !== 'opening'`, "the open to stop", 30*time.Second)
	if got := eval[string](p, `document.getElementById('toast').textContent`); !strings.Contains(got, "Cancelled") {
		t.Errorf("after cancel the page says %q", got)
	}
	p.waitLong(`document.getElementById('core-status').dataset.state === 'ready'`, "a new worker", 30*time.Second)
	file, err := os.ReadFile(realNEFF)
	if err != nil {
		t.Fatal(err)
	}
	p.openByDrop("matmul_small.neff", file)
	if s := eval[string](p, `document.getElementById('summary').textContent`); !strings.Contains(s, realUUID) {
		t.Errorf("after a cancel the next file did not open: summary %q", s)
	}
	if fmt.Sprint(eval[[]map[string]any](p, `neffscope.docs`)) == "" {
		t.Error("no documents listed after the reopen")
	}
}
