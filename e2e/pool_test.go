package e2e

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// poolDocJS defines window.poolDoc(size, dieOnJob): a core worker of the site's own
// (worker.js, as the page starts it) with a pool of size workers (0: none; dieOnJob: each
// dies with its first job) opens the file of #pool-file as the page does (the source lines and
// the members' sha-256 left out), maps the lines, hashes the members, and answers {json (the
// Document as base64), pool (the pool's last counts)}; the worker is ended after.
const poolDocJS = `(() => {
	if (!document.getElementById('pool-file')) {
		const input = document.createElement('input');
		input.type = 'file';
		input.id = 'pool-file';
		document.body.appendChild(input);
	}
	window.poolDoc = async (size, dieOnJob) => {
		const file = document.getElementById('pool-file').files[0];
		const w = new Worker('worker.js');
		let stats = null, next = 1;
		const pending = new Map();
		const ready = new Promise((resolve, reject) => {
			w.onmessage = (ev) => {
				const m = ev.data;
				if (m.type === 'ready') resolve();
				else if (m.type === 'fatal') reject(new Error(m.error.message));
				else if (m.type === 'pool') stats = m;
				else if (pending.has(m.id) && m.type !== 'event') {
					const [ok, bad] = pending.get(m.id);
					pending.delete(m.id);
					if (m.type === 'result') ok(m.result); else bad(new Error(m.error.code + ': ' + m.error.message));
				}
			};
		});
		const call = (method, args) => new Promise((ok, bad) => { const id = next++; pending.set(id, [ok, bad]); w.postMessage({ id, method, args }); });
		try {
			w.postMessage({ type: 'pool', size, dieOnJob });
			await ready;
			const t0 = performance.now();
			while (size > 0 && (!stats || stats.ready < size)) {
				if (performance.now() - t0 > 60000) throw new Error('the pool did not start: ' + JSON.stringify(stats));
				await new Promise((r) => setTimeout(r, 20));
			}
			const o = await call('open', { file, deferSource: true, deferSourceOver: 0, memberHashes: false });
			if (o.sourcePending) await call('indexSource', { handle: o.handle });
			await call('hashMembers', { handle: o.handle });
			const j = await call('json', { handle: o.handle });
			const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', j.json));
			return { json: j.json.byteLength + ' bytes, sha-256 ' + Array.from(sum, (b) => b.toString(16).padStart(2, '0')).join(''), pool: stats };
		} finally {
			w.terminate();
		}
	};
})()`

type poolRun struct {
	JSON string `json:"json"`
	Pool struct {
		Size, Ready, Jobs, Failed, Died int
		WasmBytes                       float64
	} `json:"pool"`
}

// The page's Document with the pool is the one-worker Document, byte for byte: the core
// worker of the site, with no pool, with a pool of 2, and with a pool of 2 whose workers die
// with their first job (the core does their work itself), opens a file as the page does, maps
// its source lines and hashes its members, and the json method's Document is the same. On
// matmul_small, the real NEFFs of ../shared, and the 32 MiB real-shaped NEFF (whose .dbg
// members are too big to hold: the only one here whose source lines the pool scans).
func TestPoolSameDocumentAsOneWorker(t *testing.T) {
	files := []string{realNEFF}
	if got := realfiles.Glob("*/*.neff"); len(got) > 0 {
		files = got
	} else {
		t.Log(realfiles.Missing("nki-moe/attn_v6.neff") + ": matmul_small only")
	}
	var big string
	if realfiles.Has("nki-moe/attn_v6.neff") && !testing.Short() {
		big = "real-shaped-32MiB"
		files = append(files, big)
	} else {
		t.Log("no 32 MiB real-shaped NEFF (it is made from ../shared): the pool's .dbg scans are not run here")
	}
	p := newSlowPage(t, siteURL, 20*time.Minute)
	eval[chromedp.Void](p, poolDocJS)
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			if path == big {
				path = bigRealNEFF(t, 32)
			}
			abs, _ := filepath.Abs(path)
			p.do(chromedp.SetUploadFiles(chromedp.ID("pool-file"), []string{abs}))
			want := eval[poolRun](p, `poolDoc(0, false)`)
			if want.Pool.Size != 0 || want.Pool.Jobs != 0 {
				t.Fatalf("the worker without a pool has one: %+v", want.Pool)
			}
			for _, c := range []struct {
				size int
				die  bool
			}{{2, false}, {2, true}} {
				got := eval[poolRun](p, `poolDoc(`+strconv.Itoa(c.size)+`, `+strconv.FormatBool(c.die)+`)`)
				if got.JSON != want.JSON {
					t.Errorf("with a pool of %d (dying: %v) the Document differs from one worker's: %s, want %s", c.size, c.die, got.JSON, want.JSON)
				}
				switch {
				case !c.die && (got.Pool.Jobs == 0 || got.Pool.Failed != 0):
					t.Errorf("the pool of %d ran %d jobs, %d failed; want some, none failed", c.size, got.Pool.Jobs, got.Pool.Failed)
				case c.die && got.Pool.Died == 0:
					t.Errorf("the pool whose workers die on their job: %+v; want some died", got.Pool)
				}
				t.Logf("%s: pool of %d (dying: %v): %+v", name, c.size, c.die, got.Pool)
			}
		})
	}
}

// workerTargets counts the browser's dedicated workers.
func workerTargets(t *testing.T, p *page) int {
	t.Helper()
	ts, err := chromedp.Targets(p.ctx)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ti := range ts {
		if ti.Type == "worker" {
			n++
		}
	}
	return n
}

// The page's core worker starts its pool with the first file, as a site and as the single HTML
// file (from file://, whose core worker is a Blob: its pool workers are too); a file opened by
// the page has its members hashed in it; a cancel ends the pool workers with the core worker
// (the fresh core starts a pool of its own with the next file: the browser then has as many
// workers as before).
func TestPoolInThePage(t *testing.T) {
	for _, c := range []struct{ name, url string }{{"site", siteURL}, {"single-file", singleURL}} {
		t.Run(c.name, func(t *testing.T) {
			p := newPage(t, c.url)
			p.waitFor(`neffscope.core.pool`, "the pool's state")
			if why := eval[string](p, `neffscope.core.pool.why`); why != "it starts with the first file" {
				t.Errorf("before a file is asked for, the pool says %q", why)
			}
			p.openWithPicker(realNEFF)
			p.waitFor(`neffscope.lastOpen.memberHashMs > 0`, "the members' sha-256")
			st := eval[map[string]any](p, `neffscope.core.pool`)
			if st["size"].(float64) < 1 || st["jobs"].(float64) < 1 || st["failed"].(float64) != 0 || st["died"].(float64) != 0 {
				t.Errorf("after the open the pool says %v; want workers that ran jobs, none failed", st)
			}
			t.Logf("%s: the pool %v", c.name, st)
			if c.name != "site" {
				return
			}
			workers := workerTargets(t, p)
			p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{bigNEFF(t, 200<<20)}))
			p.waitFor(`!document.getElementById('progress').hidden`, "the big open's progress")
			eval[chromedp.Void](p, `document.getElementById('cancel').click()`)
			p.waitFor(`document.getElementById('progress').hidden && document.getElementById('toast').textContent.includes('Cancelled')`, "the read to stop")
			p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "a fresh core")
			p.openWithPicker(realNEFF) // the fresh core starts its pool with it
			p.waitFor(`neffscope.core.pool && neffscope.core.pool.ready === neffscope.core.pool.size && neffscope.core.pool.size > 0`, "the fresh core's pool")
			// The browser's targets list takes a moment to drop the ended workers.
			deadline := time.Now().Add(10 * time.Second)
			got := workerTargets(t, p)
			for got > workers && time.Now().Before(deadline) {
				time.Sleep(200 * time.Millisecond)
				got = workerTargets(t, p)
			}
			if got > workers {
				t.Errorf("after the cancel the browser has %d workers, %d before: the old pool outlived its core", got, workers)
			}
		})
	}
}
