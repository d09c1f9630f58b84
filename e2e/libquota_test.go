package e2e

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// The library near the browser's storage quota (Chromium given a small quota through the
// DevTools protocol, Storage.overrideQuotaForOrigin). What it kept it keeps: a reload that
// restores a kept file does not store its bytes a second time (the quota refused the second
// copy, and the entry was replaced by one without bytes); a file whose bytes the quota
// refuses keeps its document and says why; a file not even the document of which fits is
// said to be not remembered, in the page. The page's findings are matched by their codes
// (page.library-bytes-refused, page.library-not-kept).
func TestLibraryNearItsQuotaLosesNothing(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.libForgetAll()
	origin := eval[string](p, `location.origin`)
	setQuota := func(q *float64) {
		t.Helper()
		if _, err := chromedp.Call(p.ctx, storage.OverrideQuotaForOrigin, storage.OverrideQuotaForOriginParams{Origin: origin, QuotaSize: q}); err != nil {
			t.Fatalf("overriding the quota: %v", err)
		}
	}
	t.Cleanup(func() { setQuota(nil) })
	// squeeze leaves room bytes above the origin's usage after a reload, and waits until the
	// page's IndexedDB holds to it (a write of room + 3 MiB is refused): the usage moves after
	// a reload (databases compacted, an older build's offline cache replaced), and IndexedDB
	// keeps the room it last learned of for a while before it asks the quota again.
	squeeze := func(room float64) {
		t.Helper()
		p.reload()
		for i := 0; ; i++ {
			q := p.settledUsage(origin) + room
			setQuota(&q)
			got := p.quotaProbe(int(room) + 3<<20)
			if got == "QuotaExceededError" {
				return
			}
			if i == 30 {
				t.Fatalf("a write of %d bytes with %.0f bytes of room still answers %q", int(room)+3<<20, room, got)
			}
			time.Sleep(3 * time.Second)
		}
	}
	before := p.settledUsage(origin)

	p.openWithPicker(realNEFF)
	p.waitFor(`neffscope.library.entries.length === 1 && neffscope.library.entries[0].kept`, "the file to be kept with its bytes")
	after := p.settledUsage(origin)
	cost := after - before // its bytes and its Document
	if cost <= 0 {
		t.Fatalf("keeping the file cost %v bytes of storage", cost)
	}
	// Room for its Document again, not for its bytes and Document again.
	squeeze(cost * 3 / 4)
	p.settledUsage(origin)
	es := p.libEntries()
	if len(es) != 1 || !es[0].Kept {
		t.Fatalf("after a reload near the quota the library holds %+v; the file's bytes were kept before it", es)
	}
	if got := eval[bool](p, `neffscope.library.restored && neffscope.library.restored.kept`); !got {
		t.Errorf("the reload did not reopen the file from its kept bytes")
	}

	// A new file whose bytes do not fit: its Document is kept, and the list says why.
	big, err := os.ReadFile(bigNEFF(t, 3<<20))
	if err != nil {
		t.Fatal(err)
	}
	squeeze(1 << 20)
	p.openByDrop("big.neff", big)
	p.waitFor(`neffscope.library.entries.some((e) => e.name === 'big.neff')`, "big.neff to be remembered")
	p.waitFor(`neffscope.library.entries.length === 2`, "both files in the list")
	eval[chromedp.Void](p, `document.getElementById('library-open').click()`)
	p.waitFor(`!document.getElementById('library-pop').hidden && document.querySelector('#library-pop .lib-item')`, "the Recent pop-over")
	if last := eval[map[string]any](p, `neffscope.library.last || {}`); last["name"] != "big.neff" || last["kept"] != false || last["code"] != "page.library-bytes-refused" {
		t.Errorf("the library's write of big.neff: %v; want its bytes refused (page.library-bytes-refused)", last)
	}
	dropped := eval[string](p, `(() => { const e = neffscope.library.entries.find((e) => e.name === 'big.neff'); return e ? e.dropped : 'none'; })()`)
	badge := eval[string](p, `(() => { const li = document.querySelector('#library-pop .lib-item[data-key="' + neffscope.library.entries.find((e) => e.name === 'big.neff').key + '"]'); return li ? li.querySelector('.lib-bytes').dataset.dropped : 'none'; })()`)
	if dropped != "quota" || badge != "quota" {
		t.Errorf("big.neff's entry says its bytes were dropped for %q (its badge: %q); want quota", dropped, badge)
	}
	p.shot("/tmp/neffscope-library-quota.png")
	shotAt(p, 800, 600, "/tmp/neffscope-library-quota-800.png")
	eval[chromedp.Void](p, `document.getElementById('library-open').click()`)

	// A file not even the Document of which fits: the page says it was not remembered, and
	// what was kept before stays (the reload stores the restored files' entries again: the
	// quota refuses those too, and the entries kept before stand).
	q := p.settledUsage(origin) / 2
	setQuota(&q)
	p.reload()
	p.waitFor(`neffscope.docs.length === 2`, "both files back after the reload")
	// (IndexedDB keeps the room it last learned of for a while.)
	for i := 0; p.quotaProbe(4<<20) != "QuotaExceededError"; i++ {
		if i == 30 {
			t.Fatalf("a 4 MiB write over the quota is still stored")
		}
		time.Sleep(3 * time.Second)
	}
	p.openByDrop("sample.neff", neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "sample.neff"}))
	p.waitFor(`neffscope.library.last && neffscope.library.last.name === 'sample.neff'`, "the library's write of sample.neff")
	if last := eval[map[string]any](p, `neffscope.library.last`); last["code"] != "page.library-not-kept" || last["stored"] != false {
		t.Errorf("the library's write of sample.neff: %v; want not kept (page.library-not-kept)", last)
	}
	if got := eval[[]map[string]any](p, `neffscope.library.unkept`); len(got) != 1 || got[0]["name"] != "sample.neff" || got[0]["code"] != "page.library-not-kept" {
		t.Errorf("the files this tab could not remember: %v; want sample.neff (page.library-not-kept)", got)
	}
	if code := eval[string](p, `document.getElementById('toast').dataset.code`); code != "page.library-not-kept" {
		t.Errorf("the toast's code is %q, want page.library-not-kept", code)
	}
	eval[chromedp.Void](p, `document.getElementById('library-open').click()`)
	p.waitFor(`document.querySelector('#library-pop #library-note').dataset.code === 'page.library-not-kept'`, "the Recent list to say a file was not remembered")
	p.shot("/tmp/neffscope-library-unkept.png")
	shotAt(p, 800, 600, "/tmp/neffscope-library-unkept-800.png")
	es = p.libEntries()
	kept := map[string]bool{}
	for _, e := range es {
		kept[e.Name] = e.Kept
	}
	if len(es) != 2 || !kept["matmul_small.neff"] || kept["big.neff"] {
		t.Errorf("the library after a refused write holds %+v; want matmul_small.neff with its bytes and big.neff's document", es)
	}
	setQuota(nil)
	p.libForgetAll()
}

// quotaProbe writes n bytes to a database of its own (deleted after) and answers "ok" or the
// name of the error that refused them.
func (p *page) quotaProbe(n int) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`new Promise((done) => {
		const o = indexedDB.open('neffscope-e2e-probe', 1);
		o.onupgradeneeded = () => o.result.createObjectStore('s');
		o.onerror = () => done('open: ' + o.error);
		o.onsuccess = () => {
			const db = o.result;
			const tx = db.transaction('s', 'readwrite');
			const a = new Uint8Array(%d);
			for (let i = 0; i < a.length; i += 65536) crypto.getRandomValues(a.subarray(i, i + 65536));
			tx.objectStore('s').put(a, 'k');
			const end = (r) => { db.close(); indexedDB.deleteDatabase('neffscope-e2e-probe'); done(r); };
			tx.oncomplete = () => end('ok');
			tx.onabort = () => end(tx.error ? tx.error.name : 'aborted');
		};
	})`, n))
}

// reload reloads the page and waits for the session's files to be back.
func (p *page) reload() {
	p.t.Helper()
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after the reload")
	p.waitOpen()
}

// settledUsage is the origin's storage usage once it has stopped changing (the library's
// writes after an open, the offline cache of the service worker).
func (p *page) settledUsage(origin string) float64 {
	p.t.Helper()
	last, same := -1.0, 0
	for i := 0; i < 120 && same < 4; i++ {
		r, err := chromedp.Call(p.ctx, storage.GetUsageAndQuota, storage.GetUsageAndQuotaParams{Origin: origin})
		if err != nil {
			p.t.Fatalf("reading the storage usage: %v", err)
		}
		if r.Usage == last {
			same++
		} else {
			last, same = r.Usage, 0
		}
		time.Sleep(500 * time.Millisecond)
	}
	return last
}

// The library's calls wait for IndexedDB while the worker's event loop runs: a core busy for
// longer than their patience (here its clock jumps 30 s during the library's write, as a long
// call holding the worker would make it) must not report a write that was stored as failed
// ("could not store … deadline exceeded").
func TestLibraryWriteOutlastsABusyCore(t *testing.T) {
	file := readReal(t)
	p := newPage(t, siteURL)
	p.libForgetAll()
	p.attachWorkers()
	patched := p.evalInWorkers(`(() => {
		if (!self.neffscopeCore || self.__skew !== undefined) return false;
		self.__skew = 0;
		const now = performance.now.bind(performance);
		performance.now = () => now() + self.__skew;
		const put = IDBObjectStore.prototype.put;
		IDBObjectStore.prototype.put = function (...a) { const r = put.apply(this, a); self.__skew += 30000; return r; };
		return true;
	})()`)
	if patched != 1 {
		t.Fatalf("the core's worker was patched in %d workers, want 1", patched)
	}
	p.openByDrop("matmul_small.neff", file)
	p.waitFor(`neffscope.library.entries.length === 1`, "the file to be in the library")
	if got := eval[int](p, `neffscope.library.unkept.length`); got != 0 {
		t.Errorf("the page says %d files were not remembered; the write was stored", got)
	}
	if last := eval[map[string]any](p, `neffscope.library.last || {}`); last["error"] != "" || last["kept"] != true {
		t.Errorf("the library's last write: %v; want kept, no error", last)
	}
	p.libForgetAll()
}

// evalInWorkers evaluates expr (true or false) in each dedicated worker of the tab and counts
// the workers where it answered true.
func (p *page) evalInWorkers(expr string) int {
	p.t.Helper()
	p.mu.Lock()
	var ids []target.ID
	for _, ti := range p.ownWorkers {
		ids = append(ids, ti.TargetID)
	}
	p.mu.Unlock()
	n := 0
	for _, id := range ids {
		wctx, cancel := chromedp.NewContext(p.ctx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
		ok, err := chromedp.Run(wctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err != nil {
			p.t.Fatalf("evaluating in the worker %s: %v", id, err)
		}
		if ok {
			n++
		}
	}
	return n
}
