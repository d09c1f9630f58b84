package e2e

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
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

	// Still offline, a reload (or a discarded tab coming back) reopens the file from the
	// library, at the node the hash names, with nothing picked.
	p.clickRow(`#tree .ti[data-path="header/data_size"]`)
	p.waitFor(`location.hash.endsWith('&n=header/data_size') && neffscope.library.entries.length > 0`, "the hash and the library entry")
	if _, err := chromedp.Run(p.ctx, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	p.waitOpen()
	p.waitFor(`(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === 'header/data_size'`, "the offline reload to reopen the file at header/data_size")
	if got := p.hexFirstBytes(8); string(got) != string(file[:8]) {
		t.Errorf("offline, the reopened file's bytes start % x, want % x", got, file[:8])
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	return `'` + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + `'`
}

// viewerServer serves the built site on a fresh origin, with the real NEFF at /files/.
func viewerServer(t *testing.T, file []byte) *httptest.Server {
	site, _ := filepath.Abs("../dist/site")
	mux := http.NewServeMux()
	mux.HandleFunc("/files/matmul_small.neff", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(file)
	})
	mux.Handle("/", siteHandler(site))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestURLParameterOpensAFile(t *testing.T) {
	file := readReal(t)
	viewer := viewerServer(t, file)
	p := newPage(t, viewer.URL+"/?url=files/matmul_small.neff")
	p.waitOpen()
	if s := eval[string](p, `document.getElementById('summary').textContent`); !strings.Contains(s, realUUID) {
		t.Errorf("?url= opened a file whose summary is %q; want the UUID %s", s, realUUID)
	}
	if name := eval[string](p, `document.getElementById('file-name').textContent`); !strings.HasPrefix(name, "matmul_small.neff") {
		t.Errorf("?url= opened a file named %q; want the URL's last segment matmul_small.neff", name)
	}
	if got := eval[int](p, `neffscope.state.doc.size`); got != len(file) {
		t.Errorf("the page read %d bytes from ?url=, the file has %d", got, len(file))
	}
}

func TestEmbeddedModeHidesOpenAndDrop(t *testing.T) {
	file := readReal(t)
	p := newPage(t, siteURL+"?mode=embedded")
	if eval[bool](p, `document.querySelector('.topbar label[for="file-input"]').offsetParent !== null`) {
		t.Errorf("embedded, the top bar still shows the open button")
	}
	// A drop is refused: no overlay, nothing opens.
	dropped := eval[bool](p, fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([new Uint8Array(%d)], 'x.neff'));
		document.body.dispatchEvent(new DragEvent('dragenter', {dataTransfer: dt, bubbles: true, cancelable: true}));
		const shown = !document.getElementById('drop-overlay').hidden;
		const ev = new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true});
		document.body.dispatchEvent(ev);
		return shown || !ev.defaultPrevented;
	})()`, len(file)))
	if dropped {
		t.Errorf("embedded, a drop showed the overlay or was not refused")
	}
	time.Sleep(500 * time.Millisecond)
	if st := eval[string](p, `document.body.dataset.state`); st != "empty" {
		t.Errorf("embedded, a dropped file was opened (state %q)", st)
	}
}

// hostPage is an embedding page on its own origin with the viewer in an iframe. It pings the
// viewer until it answers and offers sendFile(), which posts the real NEFF's bytes.
type hostPage struct {
	*page
	viewerOrigin string
	mu           sync.Mutex
	viewerCtx    runtime.ExecutionContextID // the viewer frame's main world
	console      []string                   // what the viewer frame wrote to its console
}

func newHostPage(t *testing.T, file []byte, allow bool) *hostPage {
	t.Helper()
	return newHostPageQuery(t, file, func(hostURL string) string {
		if allow {
			return "mode=embedded&allow=" + hostURL
		}
		return "mode=embedded&allow=https://someone-else.example"
	})
}

// newHostPageQuery frames the viewer with the query query(host origin) gives. The host keeps
// every object the viewer posts to it in window.replies.
func newHostPageQuery(t *testing.T, file []byte, query func(hostURL string) string) *hostPage {
	t.Helper()
	if setupSkip != "" {
		t.Skip(setupSkip)
	}
	viewer := viewerServer(t, file)
	hostMux := http.NewServeMux()
	host := httptest.NewServer(hostMux)
	t.Cleanup(host.Close)
	src := viewer.URL + "/?" + query(host.URL)
	js := func(v string) string { b, _ := json.Marshal(v); return string(b) }
	hostMux.HandleFunc("/file.neff", func(w http.ResponseWriter, r *http.Request) { w.Write(file) })
	hostMux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><meta charset="utf-8"><title>host</title>
<iframe id="viewer" src="%s" width="1200" height="800"></iframe>
<script>
const VIEWER_ORIGIN = %s;
window.pongs = 0;
window.replies = [];
window.addEventListener('message', (e) => {
  if (e.origin !== VIEWER_ORIGIN) return;
  if (e.data === 'PONG') window.pongs++;
  else window.replies.push(e.data);
});
const frame = document.getElementById('viewer');
window.pings = 0;
setInterval(() => { window.pings++; frame.contentWindow.postMessage('PING', VIEWER_ORIGIN); }, 100);
window.sendFile = async () => {
  const buf = await (await fetch('/file.neff')).arrayBuffer();
  frame.contentWindow.postMessage({buffer: buf, name: 'matmul_small.neff'}, VIEWER_ORIGIN, [buf]);
  return buf.byteLength === 0;
};
</script>`, html.EscapeString(src), js(viewer.URL))
	})

	ctx, cancel := chromedp.NewContext(browserCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, pageDeadline)
	t.Cleanup(func() { cancelTimeout(); cancel() })
	h := &hostPage{page: &page{t: t, ctx: ctx, origin: host.URL + "/"}, viewerOrigin: viewer.URL}
	err := chromedp.Listen(ctx, func(ev any) {
		h.page.record(ev)
		if e, ok := ev.(*runtime.EventExecutionContextCreated); ok && e.Context.Origin == h.viewerOrigin && strings.Contains(string(e.Context.AuxData), `"isDefault":true`) {
			h.mu.Lock()
			h.viewerCtx = e.Context.ID
			h.mu.Unlock()
		}
		if e, ok := ev.(*runtime.EventConsoleAPICalled); ok {
			h.mu.Lock()
			if e.ExecutionContextID == h.viewerCtx {
				var parts []string
				for _, a := range e.Args {
					var s string
					if json.Unmarshal(a.Value, &s) == nil {
						parts = append(parts, s)
					}
				}
				h.console = append(h.console, string(e.Type)+": "+strings.Join(parts, " "))
			}
			h.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	h.do(chromedp.Navigate(host.URL + "/"))
	h.waitViewer(`document.getElementById('core-status').dataset.state === 'ready'`, "the viewer's core in the iframe")
	// Every request goes to the host or to the viewer: nothing else.
	t.Cleanup(func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, u := range h.requests {
			if !strings.HasPrefix(u, host.URL+"/") && !strings.HasPrefix(u, viewer.URL+"/") && !strings.HasPrefix(u, "blob:") && !strings.HasPrefix(u, "data:") {
				t.Errorf("a request left the host and viewer origins: %s", u)
			}
		}
	})
	return h
}

// viewerEval evaluates expr in the viewer iframe's page.
func viewerEval[T any](h *hostPage, expr string) (T, error) {
	var out T
	h.mu.Lock()
	id := h.viewerCtx
	h.mu.Unlock()
	if id == 0 {
		return out, fmt.Errorf("the viewer frame has no context yet")
	}
	yes := true
	r, err := chromedp.Call(h.ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ContextID: id, ReturnByValue: &yes, AwaitPromise: &yes})
	if err != nil {
		return out, err
	}
	if r.ExceptionDetails != nil {
		return out, fmt.Errorf("%s: %s", expr, r.ExceptionDetails.Text)
	}
	if r.Result == nil || len(r.Result.Value) == 0 {
		return out, fmt.Errorf("%s: no value", expr)
	}
	return out, json.Unmarshal(r.Result.Value, &out)
}

func (h *hostPage) waitViewer(cond, what string) {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok, err := viewerEval[bool](h, "!!("+cond+")")
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("timed out waiting in the viewer frame for %s (%s): %v", what, cond, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (h *hostPage) ignored() int {
	h.t.Helper()
	n, err := viewerEval[int](h, `neffscope.embedding.messages.ignored`)
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

func TestEmbeddingPageDrivesTheViewer(t *testing.T) {
	file := readReal(t)
	h := newHostPage(t, file, true)
	h.waitFor(`window.pongs > 0`, "the viewer to answer PING with PONG")
	if hidden, _ := viewerEval[bool](h, `document.querySelector('.topbar label[for="file-input"]').offsetParent === null`); !hidden {
		t.Errorf("?mode=embedded still shows the open button")
	}
	eval[bool](h.page, `sendFile()`)
	h.waitViewer(`document.body.dataset.state === 'open'`, "the posted file to open")
	summary, err := viewerEval[string](h, `document.getElementById('summary').textContent`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary, realUUID) {
		t.Errorf("the posted file's summary is %q; want its UUID %s", summary, realUUID)
	}
	if name, _ := viewerEval[string](h, `document.getElementById('file-name').textContent`); !strings.HasPrefix(name, "matmul_small.neff") {
		t.Errorf("the posted file is named %q in the viewer; the host named it matmul_small.neff", name)
	}
	if size, _ := viewerEval[int](h, `neffscope.state.doc.size`); size != len(file) {
		t.Errorf("the viewer read %d bytes; the host posted %d", size, len(file))
	}
	if n := h.ignored(); n != 0 {
		t.Errorf("the viewer ignored %d messages from an allowed host", n)
	}
}

func TestEmbeddingIgnoresOriginsNotAllowed(t *testing.T) {
	file := readReal(t)
	h := newHostPage(t, file, false)
	// The pings arrive and are ignored: no PONG.
	h.waitViewer(`neffscope.embedding.messages.ignored >= 3`, "the host's pings to reach the viewer")
	before := h.ignored()
	eval[bool](h.page, `sendFile()`)
	// The file message arrives too (one more ignored beyond the pings that keep coming)...
	h.waitViewer(fmt.Sprintf(`neffscope.embedding.messages.ignored > %d`, before+1), "the file message to reach the viewer")
	time.Sleep(time.Second)
	// ...and nothing opened.
	if st, err := viewerEval[string](h, `document.body.dataset.state + ' ' + document.getElementById('summary').textContent`); err != nil || st != "empty " {
		t.Errorf("a message from an origin not allowed changed the viewer: %q (%v)", st, err)
	}
	if opened, _ := viewerEval[int](h, `neffscope.embedding.messages.opened + neffscope.embedding.messages.answered`); opened != 0 {
		t.Errorf("the viewer acted on %d messages from an origin not allowed", opened)
	}
	if pongs := eval[int](h.page, `window.pongs`); pongs != 0 {
		t.Errorf("the viewer answered a host it does not allow (%d PONGs)", pongs)
	}
}

// waitDownload waits for dir/name to be complete and returns its bytes.
func waitDownload(t *testing.T, dir, name string) []byte {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err == nil {
			if _, partial := os.Stat(filepath.Join(dir, name+".crdownload")); partial != nil {
				return b
			}
		}
		if time.Now().After(deadline) {
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			t.Fatalf("no download %s in %s (it holds %v)", name, dir, names)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// csvExpected is a cell as the page's CSV writes it: a leading apostrophe on what a spreadsheet
// would take for a formula (text from a hostile file must not run).
func csvExpected(s string) string {
	if s != "" && (strings.ContainsRune("=+@\t\r", rune(s[0])) || s[0] == '-' && (len(s) == 1 || !strings.ContainsRune("0123456789.", rune(s[1])))) {
		return "'" + s
	}
	return s
}

func TestExportsDownloadTheRightBytes(t *testing.T) {
	file := readReal(t)
	dir := t.TempDir()
	p := newPage(t, siteURL)
	if _, err := chromedp.CallBrowser(p.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		chromedp.CallBrowser(browserCtx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorDefault})
	})
	p.openByDrop("matmul_small.neff", file)
	native := inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{Fingerprint: true})

	// The Document as JSON: byte for byte what `neffscope inspect --json` prints.
	eval[chromedp.Void](p, `document.getElementById('export-json').click()`)
	got := waitDownload(t, dir, "matmul_small.neff.json")
	var want bytes.Buffer
	if _, err := native.WriteJSON(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the JSON export has %d bytes and differs from inspect --json's %d bytes", len(got), want.Len())
	}

	// A table as CSV: the model's member list.
	p.expand(`#tree [data-path="model"]`)
	p.clickRow(`#tree [data-path="model/members"]`)
	p.waitFor(`document.querySelector('#detail .table-head .csv')`, "the CSV button of the members table")
	eval[chromedp.Void](p, `document.querySelector('#detail .table-head .csv').click()`)
	records, err := csv.NewReader(bytes.NewReader(waitDownload(t, dir, "members.csv"))).ReadAll()
	if err != nil {
		t.Fatalf("the CSV export does not parse: %v", err)
	}
	table := native.Doc.Root.Find("model", "members").Table
	if len(records) != len(table.Rows)+1 {
		t.Fatalf("the CSV has %d records; want a header and %d rows", len(records), len(table.Rows))
	}
	if strings.Join(records[0], "|") != strings.Join(table.Columns, "|") {
		t.Errorf("CSV header %v, want %v", records[0], table.Columns)
	}
	for i, row := range table.Rows {
		for j, cell := range row {
			if records[i+1][j] != csvExpected(cell) {
				t.Errorf("CSV row %d column %d: %q, want %q", i, j, records[i+1][j], csvExpected(cell))
			}
		}
	}

	// The selected member's bytes.
	const member = "sg00/Activation.bin"
	members, err := neff.ReadMembers(bytes.NewReader(file), int64(len(file)), func(p string, _ int64) bool { return p == member })
	if err != nil || members[member] == nil {
		t.Fatalf("reading %s natively: %v", member, err)
	}
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:` + member + `"]`)
	p.waitFor(`!document.getElementById('export-member').disabled`, "the member export to be enabled")
	eval[chromedp.Void](p, `document.getElementById('export-member').click()`)
	if got := waitDownload(t, dir, "Activation.bin"); !bytes.Equal(got, members[member]) {
		t.Errorf("the member export has %d bytes and differs from the member's %d bytes", len(got), len(members[member]))
	}

	// The permalink is this page's URL.
	eval[chromedp.Void](p, `document.getElementById('export-link').click()`)
	p.waitFor(`document.getElementById('toast').textContent.includes(location.href)`, "the link to be shown")
}

// A member bigger than one bytes call is exported whole: the page reads it in chunks.
func TestExportLargeMemberInChunks(t *testing.T) {
	const size = 20<<20 + 12345 // three chunks, the last one short
	path := bigNEFF(t, size)
	want := make([]byte, size)
	bigMember().Read(want)
	dir := t.TempDir()
	p := newPage(t, siteURL)
	if _, err := chromedp.CallBrowser(p.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		chromedp.CallBrowser(browserCtx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorDefault})
	})
	p.openWithPicker(path)
	p.expand(`#tree [data-path="members/weights/"]`)
	p.clickRow(`#tree [data-ref="member:weights/w0.bin"]`)
	p.waitFor(`!document.getElementById('export-member').disabled`, "the member export to be enabled")
	eval[chromedp.Void](p, `document.getElementById('export-member').click()`)
	if got := waitDownload(t, dir, "w0.bin"); !bytes.Equal(got, want) {
		t.Errorf("the exported member has %d bytes and differs from the %d bytes written", len(got), len(want))
	}
}

// The single file needs no service worker and cannot have one (file://); ?url= takes only http(s).
func TestSingleFileRegistersNoServiceWorker(t *testing.T) {
	p := newPage(t, singleURL+"?url=javascript:alert(1)")
	time.Sleep(300 * time.Millisecond)
	if p.requested("sw.js") {
		t.Errorf("the single-file page asked for sw.js")
	}
	if has := eval[bool](p, `!!(navigator.serviceWorker && navigator.serviceWorker.controller)`); has {
		t.Errorf("the single-file page is controlled by a service worker")
	}
	p.waitFor(`document.getElementById('toast').textContent.includes('Only http(s) URLs')`, "?url=javascript: to be refused")
	if st := eval[string](p, `document.body.dataset.state`); st != "empty" {
		t.Errorf("?url=javascript: left the page in state %q", st)
	}
}
