package e2e

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestOfflineAfterOneVisit: the service worker keeps the app shell, so once the site has been
// visited it opens and reads a file with the server gone.
func TestOfflineAfterOneVisit(t *testing.T) {
	file := readReal(t)
	site, _ := filepath.Abs("../dist/site")
	// Its own server: a fresh origin, so no earlier test's service worker is involved.
	srv := httptest.NewServer(siteHandler(site))
	defer srv.Close()
	p := newPage(t, srv.URL+"/")
	p.waitFor(`navigator.serviceWorker && navigator.serviceWorker.controller && navigator.serviceWorker.controller.state === 'activated'`, "the service worker to control the page")
	build := eval[string](p, `caches.keys().then((k) => k.filter((n) => n.startsWith('neffscope-shell-')).join(','))`)
	if build == "" || strings.Contains(build, ",") || build == "neffscope-shell-dev" {
		t.Fatalf("offline caches %q; want exactly one, named after the stamped build", build)
	}
	cached := eval[[]string](p, `caches.open(`+jsString(build)+`).then((c) => c.keys()).then((ks) => ks.map((r) => new URL(r.url).pathname))`)
	for _, want := range []string{"/", "/index.html", "/app.js", "/worker.js", "/style.css", "/wasm_exec.js", "/neffscope.wasm", "/vendor/msgpack/msgpack.min.js"} {
		if !contains(cached, want) {
			t.Errorf("the offline cache lacks %s; it holds %v", want, cached)
		}
	}

	srv.Close() // the site is gone: every request to it now fails
	if _, err := chromedp.Run(p.ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core to start offline")
	p.openByDrop("matmul_small.neff", file)
	if s := eval[string](p, `document.getElementById('summary').textContent`); !strings.Contains(s, realUUID) {
		t.Errorf("offline, the opened file's summary is %q; want its UUID %s", s, realUUID)
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return `'` + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + `'`
}
