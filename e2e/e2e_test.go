package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

const (
	chromiumPath = "/usr/bin/chromium"
	realUUID     = "00a04c53-5fd9-4f07-bffd-d5eacdefc852"
	screenshot   = "/tmp/neffscope-page.png"
)

var (
	// realNEFF is the repository's testdata/real/nkipy/matmul_small.neff (internal/realfiles).
	realNEFF, _ = realfiles.Find("nkipy/matmul_small.neff")

	browserCtx context.Context // shared by every test: one Chromium, its tabs reused (tabs)
	setupSkip  string          // why the suite cannot run here
	siteURL    string
	singleURL  string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	if testing.Short() { // the developer's loop (make test-short) has no browser
		setupSkip = "-short: the page's browser tests run in make test-browser"
		return m.Run()
	}
	site, _ := filepath.Abs("../dist/site")
	single, _ := filepath.Abs("../dist/neffscope.html")
	if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
		setupSkip = "../dist/site is missing: run `make dist` first (make test-browser does)"
		return m.Run()
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			fmt.Fprintf(os.Stderr, "e2e: %s is missing and CI=true: .ci/run must install Chromium\n", chromiumPath)
			return 1
		}
		setupSkip = chromiumPath + " is missing (apt-get install chromium); the browser tests need it"
		return m.Run()
	}
	srv := httptest.NewServer(siteHandler(site))
	defer srv.Close()
	siteURL = srv.URL + "/"
	singleURL = "file://" + single

	profile, err := os.MkdirTemp("", "neffscope-e2e-profile-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(profile)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.UserDataDir(profile),
		// Nothing outside this machine resolves: the tests are hermetic whatever the page does.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.WindowSize(1440, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil { // start the browser now, once
		fmt.Fprintln(os.Stderr, "e2e: starting Chromium:", err)
		return 1
	}
	browserCtx = ctx
	return m.Run()
}

// servedLog records the paths the site server answered (the worker's own fetches included).
type servedLog struct {
	mu    sync.Mutex
	paths []string
}

var served servedLog

func (l *servedLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.paths
	l.paths = nil
	return p
}

// siteHandler serves the built site as a static host would, with the page's CSP header.
func siteHandler(dir string) http.Handler {
	fs := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.mu.Lock()
		served.paths = append(served.paths, r.URL.Path)
		served.mu.Unlock()
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self'; img-src 'self' data: blob:; style-src 'self'; object-src 'none'; base-uri 'none'")
		w.Header().Set("Cache-Control", "no-cache")
		fs.ServeHTTP(w, r)
	})
}

// page is one tab with a record of every request it made.
type page struct {
	t        testing.TB
	ctx      context.Context
	origin   string // requests must start with this (or be data:/blob:)
	mu       sync.Mutex
	requests []string
	workers  int // dedicated workers attached
	// This tab's dedicated workers, from the Target.attachedToTarget events of the tab's own
	// session (chromedp auto-attaches it with flatten): by session id, and the ids attachWorkers
	// has attached to.
	ownWorkers map[target.SessionID]*target.Info
	attached   map[target.ID]bool
}

// pageDeadline is how long one test's tab may live, and waitDeadline how long one condition
// may take to become true: both stop a hang, not a slow step on a loaded machine.
const (
	pageDeadline = 5 * time.Minute
	waitDeadline = 90 * time.Second
)

func newPage(t testing.TB, url string) *page {
	t.Helper()
	return newPageWith(t, url, "", "ready")
}

// newPageWith runs script before the page's own scripts and waits for the core state want.
func newPageWith(t testing.TB, url, script, want string) *page {
	t.Helper()
	if setupSkip != "" {
		t.Skip(setupSkip)
	}
	tb := tabs.take(t)
	// The big-file tests take ~40 s of a tab's life on a quiet 2-core machine, and make test
	// runs two browsers beside the core's tests.
	ctx, cancelTimeout := context.WithTimeout(tb.ctx, pageDeadline)
	var scriptID cdppage.ScriptIdentifier
	t.Cleanup(func() { cancelTimeout(); tabs.give(t, tb, scriptID) })
	served.take()
	p := &page{t: t, ctx: ctx, origin: url}
	if u, err := neturl.Parse(url); err == nil && u.Scheme != "file" {
		p.origin = u.Scheme + "://" + u.Host + "/"
	}
	if err := chromedp.Listen(ctx, p.record); err != nil {
		t.Fatal(err)
	}
	if script != "" {
		r, err := chromedp.Call(ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		if err != nil {
			t.Fatal(err)
		}
		scriptID = r.Identifier
	}
	p.do(chromedp.EmulateViewport(1440, 900), chromedp.Navigate(url))
	p.waitFor(fmt.Sprintf(`document.getElementById('core-status').dataset.state === %q`, want), "the core to report "+want)
	t.Cleanup(p.checkRequests)
	return p
}

// tabs keeps the tabs of tests that passed for the next test to use. A new tab costs
// Chromium ~1.4 CPU-s more than loading the page in a used one (docs/performance.md, "make
// test"), and the suite opens ~130 pages. A tab comes back as a new one would be: on
// about:blank, with no session storage of the page's origin (the page keeps its open tabs
// there, and restores them on load), no script added before the page's own, no emulated
// media. The viewport is set again by newPageWith. A tab whose test failed, or that does not
// come back clean, is closed: a hung page cannot hang the next test.
var tabs tabPool

type tab struct {
	ctx    context.Context // the tab's own chromedp context
	cancel context.CancelFunc
}

type tabPool struct {
	mu   sync.Mutex
	free []tab
}

func (tp *tabPool) take(t testing.TB) tab {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	for len(tp.free) > 0 {
		tb := tp.free[len(tp.free)-1]
		tp.free = tp.free[:len(tp.free)-1]
		// A tab behind another is throttled (timers, frames): bring it to the front.
		if tb.ctx.Err() == nil {
			if _, err := chromedp.Call(tb.ctx, cdppage.BringToFront, cdp.Empty{}); err == nil {
				return tb
			}
			tb.cancel()
		}
	}
	// The tab opens now, on its own context: a tab opened by its first action lives as long as
	// the context of that action (the test's), and could not be used again.
	ctx, cancel := chromedp.NewContext(browserCtx)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	return tab{ctx, cancel}
}

func (tp *tabPool) give(t testing.TB, tb tab, script cdppage.ScriptIdentifier) {
	if t.Failed() || tb.ctx.Err() != nil || !tp.reset(tb, script) {
		tb.cancel()
		return
	}
	tp.mu.Lock()
	tp.free = append(tp.free, tb)
	tp.mu.Unlock()
}

func (tp *tabPool) reset(tb tab, script cdppage.ScriptIdentifier) bool {
	ctx, cancel := context.WithTimeout(tb.ctx, 20*time.Second)
	defer cancel()
	if script != "" {
		if _, err := chromedp.Call(ctx, cdppage.RemoveScriptToEvaluateOnNewDocument, cdppage.RemoveScriptToEvaluateOnNewDocumentParams{Identifier: script}); err != nil {
			return false
		}
	}
	if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{}); err != nil {
		return false
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`(() => { try { sessionStorage.clear(); } catch (e) {} })()`)); err != nil {
		return false
	}
	_, err := chromedp.Run(ctx, chromedp.Navigate("about:blank"))
	return err == nil
}

// record keeps the URL of every request a target sends, and on the tab's own session which
// dedicated workers come and go.
func (p *page) record(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		p.requests = append(p.requests, e.Request.URL)
	case *target.EventAttachedToTarget:
		if e.TargetInfo != nil && e.TargetInfo.Type == "worker" {
			if p.ownWorkers == nil {
				p.ownWorkers = map[target.SessionID]*target.Info{}
			}
			p.ownWorkers[e.SessionID] = e.TargetInfo
		}
	case *target.EventDetachedFromTarget:
		delete(p.ownWorkers, e.SessionID)
	}
}

// attachWorkers records the network requests of the page's dedicated workers too: the page's
// DevTools target does not report them. (Their start-up fetches happen before this attaches;
// the site server's log shows those.) Only some tests attach: with DevTools attached the
// worker's wasm runs several times slower.
//
// A tab's workers are the ones Chromium auto-attaches to the tab's own session, which every
// recent Chromium reports; the targets list's parentFrameId is not (Chromium 148 leaves it out
// for dedicated workers), and matching by URL could pick another tab's worker.
func (p *page) attachWorkers() {
	p.t.Helper()
	own := func() []*target.Info {
		p.mu.Lock()
		defer p.mu.Unlock()
		var out []*target.Info
		for _, ti := range p.ownWorkers {
			if !p.attached[ti.TargetID] {
				out = append(out, ti)
			}
		}
		return out
	}
	// The core's worker reported ready, so its attach event is on its way or here; a second
	// worker started beside it gets a moment to show up too.
	deadline := time.Now().Add(5 * time.Second)
	var fresh []*target.Info
	for {
		fresh = own()
		if len(fresh) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond)
	fresh = own()
	n := 0
	for _, ti := range fresh {
		wctx, cancel := chromedp.NewContext(p.ctx, chromedp.WithTargetID(ti.TargetID), chromedp.WithDetachOnCancel(), chromedp.WithListener(p.record))
		p.t.Cleanup(cancel)
		if err := chromedp.Do(wctx); err != nil {
			p.t.Fatalf("attaching to the worker %s: %v", ti.URL, err)
		}
		p.mu.Lock()
		if p.attached == nil {
			p.attached = map[target.ID]bool{}
		}
		p.attached[ti.TargetID] = true
		p.mu.Unlock()
		n++
	}
	if n == 0 {
		targets, _ := chromedp.Targets(p.ctx)
		p.t.Fatalf("no dedicated worker of this tab to record; the browser's targets: %+v", targets)
	}
	p.workers = n
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

func eval[T any](p *page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// holdsWithin polls a JS condition for up to d and says whether it came to hold.
func (p *page) holdsWithin(cond string, d time.Duration) bool {
	p.t.Helper()
	deadline := time.Now().Add(d)
	for {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		if err == nil && ok {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitFor polls a JS condition until it holds.
func (p *page) waitFor(cond, what string) {
	p.t.Helper()
	deadline := time.Now().Add(waitDeadline)
	for {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			status, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById('core-status').textContent + ' | ' + document.getElementById('core-status').title + ' | toast: ' + document.getElementById('toast').textContent`))
			p.t.Fatalf("timed out waiting for %s (%s); err %v; page status: %s", what, cond, err, status)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkRequests fails the test if the page asked for anything outside its origin.
func (p *page) checkRequests() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, u := range p.requests {
		if strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "blob:") || strings.HasPrefix(u, p.origin) {
			continue
		}
		if strings.HasPrefix(p.origin, "file://") && u == p.origin {
			continue
		}
		p.t.Errorf("the page made a request outside its origin: %s (origin %s)", u, p.origin)
	}
}

func (p *page) requested(suffix string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, u := range p.requests {
		if strings.HasSuffix(u, suffix) {
			return true
		}
	}
	return false
}

// openWithPicker sets the file input, as a person choosing a file does.
func (p *page) openWithPicker(path string) {
	p.t.Helper()
	abs, _ := filepath.Abs(path)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{abs}))
	p.waitOpen()
}

// openByDrop builds a File from bytes in the page and drops it on the window.
func (p *page) openByDrop(name string, data []byte) {
	p.t.Helper()
	js := fmt.Sprintf(`(() => {
		const bin = atob(%q);
		const u8 = new Uint8Array(bin.length);
		for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
		const dt = new DataTransfer();
		dt.items.add(new File([u8], %q));
		document.body.dispatchEvent(new DragEvent('dragenter', {dataTransfer: dt, bubbles: true, cancelable: true}));
		const overlay = !document.getElementById('drop-overlay').hidden;
		document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
		return overlay;
	})()`, base64.StdEncoding.EncodeToString(data), name)
	if !eval[bool](p, js) {
		p.t.Errorf("dragging a file over the page did not show the drop overlay")
	}
	p.waitOpen()
}

func (p *page) waitOpen() {
	p.t.Helper()
	p.waitFor(`document.body.dataset.state === 'open'`, "the file to open")
}

// clickRow clicks a tree row by its data attribute selector.
func (p *page) clickRow(sel string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`document.querySelector(%q)`, sel), "row "+sel)
	eval[chromedp.Void](p, fmt.Sprintf(`document.querySelector(%q).firstChild.click()`, sel))
}

// expand opens a collapsed tree row.
func (p *page) expand(sel string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`document.querySelector(%q)`, sel), "row "+sel)
	eval[chromedp.Void](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q); if (r.getAttribute('aria-expanded') === 'false') r.querySelector('.twisty').click(); })()`, sel))
}

// hexFirstBytes reads the first n bytes the hex view shows, once they have arrived.
func (p *page) hexFirstBytes(n int) []byte {
	p.t.Helper()
	p.waitFor(`(() => { const r = document.querySelector('#hex-rows .hex-row[data-off="0"]'); return r && !r.textContent.includes('··'); })()`, "the hex view's first row")
	hexText := eval[string](p, `Array.from(document.querySelectorAll('#hex-rows .hex-row')).slice(0, 4).map(r => Array.from(r.querySelectorAll('.hb')).map(c => c.textContent).join('')).join('')`)
	var out []byte
	for i := 0; i+2 <= len(hexText) && len(out) < n; i += 2 {
		var b byte
		fmt.Sscanf(hexText[i:i+2], "%02x", &b)
		out = append(out, b)
	}
	return out
}

func readReal(t *testing.T) []byte {
	t.Helper()
	return realfiles.Read(t, "nkipy/matmul_small.neff")
}

func TestPageLoadsAndCoreIsReady(t *testing.T) {
	p := newPage(t, siteURL)
	p.attachWorkers()
	if got := eval[string](p, `neffscope.core.mode`); got != "worker" {
		t.Errorf("core mode %q, want worker", got)
	}
	if !p.requested("/worker.js") {
		t.Errorf("expected the page to start its worker at load; requests: %v", p.requests)
	}
	if got := served.take(); !contains(got, "/wasm_exec.js") || !contains(got, "/neffscope.wasm") {
		t.Errorf("expected the worker to load wasm_exec.js and neffscope.wasm at page load; the server saw %v", got)
	}
	// The core's worker, and the hash worker that fingerprints files beside it.
	if p.workers != 2 {
		t.Errorf("%d dedicated workers, want 2 (the core and the hash worker)", p.workers)
	}
	if png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100)); err == nil {
		os.WriteFile(strings.TrimSuffix(screenshot, ".png")+"-welcome.png", png, 0o644)
	}
	if eval[bool](p, `!document.getElementById('welcome').hidden && document.getElementById('panes').hidden`) != true {
		t.Errorf("before a file is opened the page should show the welcome card only")
	}
}

// checkRealOpened asserts what a person sees after opening matmul_small.neff.
func checkRealOpened(t *testing.T, p *page, file []byte) {
	t.Helper()
	summary := eval[string](p, `document.getElementById('summary').textContent`)
	for _, want := range []string{realUUID, `"file.neff"`, "ok", "accepted", "72"} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary %q lacks %q", summary, want)
		}
	}
	// Member paths: the member rows carry their path in data-ref.
	members := eval[[]string](p, `Array.from(document.querySelectorAll('#tree [data-kind="member"]')).map(r => r.dataset.ref)`)
	for _, want := range []string{"member:info.json", "member:neff.json", "member:kelf-0.json", "member:hlo_stats.json"} {
		if !contains(members, want) {
			t.Errorf("member row %s not shown; rows: %v", want, members)
		}
	}
	// sg00/def.json opens as a JSON tree.
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/def.json"]`)
	p.waitFor(`document.querySelector('#json-tree .ti[aria-level="2"][data-key="var"]')`, "the key var in the JSON tree of sg00/def.json")
	if got := eval[string](p, `document.getElementById('content-title').textContent`); got != "sg00/def.json" {
		t.Errorf("content title %q", got)
	}
	// Clicking a JSON value highlights its bytes in the hex view.
	p.clickRow(`#json-tree .ti[aria-level="2"][data-key="var"]`)
	p.waitFor(`document.querySelectorAll('#hex .hb.hl, #hex .hb.hl-soft').length > 0`, "highlighted bytes for the JSON key var")

	// A JSON leaf highlights exactly its bytes: from its key to the end of its value.
	defJSON, err := neff.ReadMembers(bytes.NewReader(file), int64(len(file)), func(p string, _ int64) bool { return p == "sg00/def.json" })
	if err != nil {
		t.Fatal(err)
	}
	def := defJSON["sg00/def.json"]
	start := bytes.Index(def, []byte(`"name"`))
	end := bytes.Index(def[start:], []byte(`"definition"`)) + start + len(`"definition"`)
	p.clickRow(`#json-tree .ti[aria-level="2"][data-key="name"]`)
	wantSel := fmt.Sprintf("selected %s..%s (%d bytes)", commas(start), commas(end), end-start)
	p.waitFor(fmt.Sprintf(`document.getElementById('hex-head').textContent.includes(%q)`, wantSel), "the hex view to select the bytes of "+`"name": "definition"`)
	if n := eval[int](p, `document.querySelectorAll('#hex .hb.hl').length`); n != end-start {
		t.Errorf("%d bytes highlighted for the name field, want %d", n, end-start)
	}

	// A .bin member opens as hex with the member's real first bytes.
	want, err := neff.ReadMembers(bytes.NewReader(file), int64(len(file)), func(p string, _ int64) bool { return p == "sg00/Activation.bin" })
	if err != nil {
		t.Fatal(err)
	}
	p.clickRow(`#tree [data-ref="member:sg00/Activation.bin"]`)
	p.waitFor(`document.getElementById('content-title').textContent === 'sg00/Activation.bin' && document.getElementById('hex-head').textContent.includes('member sg00/Activation.bin')`, "the hex view of sg00/Activation.bin")
	if got := p.hexFirstBytes(48); !bytes.Equal(got, want["sg00/Activation.bin"][:48]) {
		t.Errorf("hex view of sg00/Activation.bin starts % x, want % x", got, want["sg00/Activation.bin"][:48])
	}
}

// commas writes n as the page does: 1,968.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestOpenRealNEFFWithFilePicker(t *testing.T) {
	file := readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	checkRealOpened(t, p, file)

	// Header fields select and highlight within the file's first 1024 bytes.
	p.clickRow(`#tree [data-path="header/uuid"]`)
	p.waitFor(`document.getElementById('hex-head').textContent.includes('selected 204..220')`, "the uuid's bytes 204..220 highlighted")
	if n := eval[int](p, `document.querySelectorAll('#hex .hb.hl').length`); n != 16 {
		t.Errorf("uuid highlights %d hex cells, want 16", n)
	}
	// Hovering a byte reads it as numbers (a data inspector).
	eval[chromedp.Void](p, `document.querySelector('#hex-rows .hex-row[data-off="192"] .hb[data-i="12"]').dispatchEvent(new MouseEvent('mouseover', {bubbles: true}))`)
	wantInspect := fmt.Sprintf("@0xcc (204) · u8 %d · u16 %d · u32 %d", file[204], binary.LittleEndian.Uint16(file[204:]), binary.LittleEndian.Uint32(file[204:]))
	if got := eval[string](p, `document.getElementById('hex-inspect').textContent`); !strings.HasPrefix(got, wantInspect) {
		t.Errorf("data inspector %q, want it to start %q", got, wantInspect)
	}

	// Look at it: the member's JSON tree and its bytes.
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/def.json"]`)
	p.clickRow(`#json-tree .ti[aria-level="2"][data-key="var"]`)
	p.waitFor(`document.querySelectorAll('#hex .hb.hl-soft').length > 0`, "highlight")
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100) /* 100: PNG */)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(screenshot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", screenshot, len(png))

	// Dark mode follows the OS.
	light := eval[string](p, `getComputedStyle(document.body).backgroundColor`)
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}}); err != nil {
		t.Fatal(err)
	}
	dark := eval[string](p, `getComputedStyle(document.body).backgroundColor`)
	if dark == light {
		t.Errorf("prefers-color-scheme: dark leaves the background %s", dark)
	}
	if png, err = chromedp.Run(p.ctx, chromedp.FullScreenshot(100)); err == nil {
		err = os.WriteFile(strings.TrimSuffix(screenshot, ".png")+"-dark.png", png, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func TestOpenRealNEFFByDrop(t *testing.T) {
	file := readReal(t)
	p := newPage(t, siteURL)
	p.openByDrop("matmul_small.neff", file)
	checkRealOpened(t, p, file)
}

func TestDamagedNEFFShowsFindings(t *testing.T) {
	file := readReal(t)
	damaged := bytes.Clone(file)
	damaged[len(damaged)-1] ^= 0x55 // a byte of the zero padding: covered by the hash
	p := newPage(t, siteURL)
	p.openByDrop("damaged.neff", damaged)
	if got := eval[string](p, `document.querySelector('#summary [data-field="integrity"]').textContent`); !strings.Contains(got, "mismatch") {
		t.Errorf("hash chip %q, want mismatch", got)
	}
	errs := eval[[]string](p, `Array.from(document.querySelectorAll('#findings-list .finding[data-sev="error"]')).map(f => f.textContent)`)
	found := false
	for _, e := range errs {
		if strings.Contains(strings.ToLower(e), "mismatch") || strings.Contains(strings.ToLower(e), "hash") {
			found = true
		}
	}
	if !found {
		t.Fatalf("no error finding about the hash among %d error findings: %q", len(errs), errs)
	}
	if !eval[bool](p, `!document.getElementById('findings-list').hidden`) {
		t.Errorf("the findings list should be open when there are errors")
	}
	if png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100)); err == nil {
		os.WriteFile(strings.TrimSuffix(screenshot, ".png")+"-damaged.png", png, 0o644)
	}
	// Clicking a finding goes to the node it is about.
	eval[chromedp.Void](p, `document.querySelector('#findings-list .finding[data-sev="error"]').click()`)
	p.waitFor(`document.querySelector('#tree .ti[aria-selected="true"]')`, "the finding's node selected in the tree")
	if got := eval[string](p, `document.querySelector('#detail .findings-list .finding') ? 'yes' : 'no'`); got != "yes" {
		t.Errorf("the selected node's detail does not list its finding")
	}
}

func TestHostileContentStaysText(t *testing.T) {
	const imgPayload = `<img src=x onerror="window.__pwned=1">`
	const scriptPayload = `<script>window.__pwned=2</script>`
	member := imgPayload + ".json"
	jsonDoc, _ := json.Marshal(map[string]string{scriptPayload: imgPayload})
	file := neffbuild.Bytes([]neffbuild.Member{
		{Path: member, Data: jsonDoc},
		{Path: "sg00/" + scriptPayload + ".bin", Data: []byte(imgPayload)},
	}, neffbuild.Options{Name: scriptPayload})
	p := newPage(t, siteURL)
	p.attachWorkers()
	p.openByDrop("hostile.neff", file)

	labels := eval[[]string](p, `Array.from(document.querySelectorAll('#tree .label')).map(l => l.textContent)`)
	if !contains(labels, member) {
		t.Errorf("the hostile member name is not shown as text; labels %q", labels)
	}
	p.clickRow(fmt.Sprintf(`#tree [data-ref=%q]`, "member:"+member))
	jsonLabels := eval[[]string](p, `Array.from(document.querySelectorAll('#json-tree .label, #json-tree .value')).map(l => l.textContent)`)
	if !contains(jsonLabels, scriptPayload) {
		t.Errorf("the hostile JSON key is not shown as text; got %q", jsonLabels)
	}
	if !strings.Contains(eval[string](p, `document.getElementById('summary').textContent`), scriptPayload) {
		t.Errorf("the hostile header name is not shown as text in the summary")
	}
	time.Sleep(200 * time.Millisecond) // give an injected onerror handler its chance to fire
	if pwned := eval[bool](p, `window.__pwned !== undefined`); pwned {
		t.Fatalf("a payload from the file ran in the page")
	}
	if n := eval[int](p, `document.querySelectorAll('img, #tree script, #detail script, #summary script, #json-tree script').length`); n != 0 {
		t.Errorf("%d elements were made from file content", n)
	}
	if p.requested("/x") {
		t.Errorf("an <img src=x> from the file was loaded")
	}
}

func TestSingleFileFromFileURL(t *testing.T) {
	file := readReal(t)
	p := newPage(t, singleURL)
	p.attachWorkers()
	if got := eval[string](p, `neffscope.core.mode`); got != "worker" {
		t.Logf("single file runs the core in mode %q", got)
	}
	p.openWithPicker(realNEFF)
	checkRealOpened(t, p, file)
}

// selectedPath is the data-path of the main tree's selected row.
func (p *page) selectedPath() string {
	return eval[string](p, `(document.querySelector('#tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path || ''`)
}

func TestKeyboardNavigatesTheTree(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	if got := p.selectedPath(); got != "overview" {
		t.Fatalf("after opening, %q is selected, want the overview", got)
	}
	// The header is one click away.
	p.clickRow(`#tree .ti[data-path="header"]`)
	if got := p.selectedPath(); got != "header" {
		t.Fatalf("clicking the header row selected %q", got)
	}
	p.do(chromedp.Focus(chromedp.CSS(`#tree .ti[aria-selected="true"]`)))
	steps := []struct {
		key, want string
	}{
		{kb.ArrowRight, "header/pkg_version"}, // the header is open: right goes to its first field
		{kb.ArrowDown, "header/header_size"},
		{kb.ArrowDown, "header/data_size"},
		{kb.ArrowUp, "header/header_size"},
		{kb.ArrowLeft, "header"}, // a leaf: left goes to the parent
	}
	for _, s := range steps {
		p.do(chromedp.KeyEvent(s.key))
		if got := p.selectedPath(); got != s.want {
			t.Fatalf("after key %q the selection is %q, want %q", s.key, got, s.want)
		}
	}
	if d := eval[string](p, `document.querySelector('#detail .d-label').textContent`); d != "header" {
		t.Errorf("the detail pane shows %q, want the header", d)
	}
	p.do(chromedp.KeyEvent(kb.Enter)) // Enter toggles: the open header closes
	if got := eval[string](p, `document.querySelector('#tree [data-path="header"]').getAttribute('aria-expanded')`); got != "false" {
		t.Errorf("Enter on the open header left aria-expanded %q", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#tree [role="treeitem"][aria-level]').length`); n < 10 {
		t.Errorf("only %d ARIA tree items", n)
	}
}

// bigNEFF writes a generated NEFF of about size bytes (an incompressible member,
// weights/w0.bin, from bigMember) to a file.
func bigNEFF(t testing.TB, size int64) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.neff")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rng := bigMember()
	err = neffbuild.Write(f, []neffbuild.Member{
		{Path: "info.json", Data: []byte(`{"name":"big.neff"}`)},
		{Path: "weights/w0.bin", Reader: rng, Size: size},
	}, neffbuild.Options{Name: "big.neff"})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestProgressAndCancel(t *testing.T) {
	big := bigNEFF(t, 200<<20)
	p := newPage(t, siteURL)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{big}))
	p.waitFor(`!document.getElementById('progress').hidden && /MB\/s/.test(document.getElementById('progress-text').textContent)`, "progress with a read rate")
	// The header is shown as soon as it is read, before the payload.
	if s := eval[string](p, `document.getElementById('summary').textContent`); !strings.Contains(s, "12345678-9abc-4def-8123-456789abcdef") || !strings.Contains(s, "reading") {
		t.Errorf("while reading, the summary shows %q; want the header's UUID and that the payload is being read", s)
	}
	text := eval[string](p, `document.getElementById('progress-text').textContent`)
	if !strings.Contains(text, "of 200.0 MiB") {
		t.Errorf("progress text %q does not say how much of the file was read", text)
	}
	eval[chromedp.Void](p, `document.getElementById('cancel').click()`)
	p.waitFor(`document.getElementById('progress').hidden && document.body.dataset.state === 'empty'`, "the read to stop")
	if got := eval[string](p, `document.getElementById('toast').textContent`); !strings.Contains(got, "Cancelled") {
		t.Errorf("after cancel the page says %q", got)
	}
	// A fresh worker takes over and opens the next file.
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "a new worker")
	if file, err := os.ReadFile(realNEFF); err == nil {
		p.openByDrop("matmul_small.neff", file)
		if s := eval[string](p, `document.getElementById('summary').textContent`); !strings.Contains(s, realUUID) {
			t.Errorf("after a cancel the next file did not open: summary %q", s)
		}
	}
}

func TestMainThreadFallbackWhenNoWorker(t *testing.T) {
	t.Run("site", func(t *testing.T) { checkFallback(t, siteURL) })
	t.Run("single-file", func(t *testing.T) { checkFallback(t, singleURL) })
}

func checkFallback(t *testing.T, url string) {
	file := readReal(t)
	// A locked-down context where workers cannot be created.
	p := newPageWith(t, url, `window.Worker = function () { throw new Error('workers are disabled here'); };`, "fallback")
	if got := eval[string](p, `document.getElementById('core-status').textContent`); !strings.Contains(got, "main thread") {
		t.Errorf("the page does not say the core runs on the main thread: %q", got)
	}
	if got := eval[string](p, `document.getElementById('core-status').title`); !strings.Contains(got, "workers are disabled here") {
		t.Errorf("the status does not say why: %q", got)
	}
	p.openByDrop("matmul_small.neff", file)
	checkRealOpened(t, p, file)
}

func TestInstructionListing(t *testing.T) {
	path := realNEFF
	file := readReal(t)
	const member = "sg00/PE.bin"
	got, err := neff.ReadMembers(bytes.NewReader(file), int64(len(file)), func(p string, _ int64) bool { return p == member })
	if err != nil || got[member] == nil {
		t.Fatalf("reading %s: %v", member, err)
	}
	total := len(got[member]) / 64
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:` + member + `"]`)
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow[data-index="0"] .col-name')`, "the listing's first row")
	if head := eval[string](p, `document.getElementById('listing-head').textContent`); !strings.Contains(head, fmt.Sprintf("%s rows", commas(total))) {
		t.Errorf("listing head %q does not count %d rows", head, total)
	}
	if n := eval[int](p, `document.querySelectorAll('#listing-rows .lrow').length`); n > 200 {
		t.Errorf("%d listing rows in the DOM: the listing is not virtualised", n)
	}
	// Scroll to the last instruction, select it, and see its 64 bytes highlighted.
	eval[chromedp.Void](p, `(() => { const s = document.getElementById('listing-scroll'); s.scrollTop = s.scrollHeight; })()`)
	last := fmt.Sprintf(`#listing-rows .lrow[data-index="%d"]`, total-1)
	p.waitFor(fmt.Sprintf(`document.querySelector(%q) && document.querySelector(%q).querySelector('.col-name')`, last, last), "the last instruction's row")
	eval[chromedp.Void](p, fmt.Sprintf(`document.querySelector(%q).click()`, last))
	wantSel := fmt.Sprintf("selected %s..%s (64 bytes)", commas((total-1)*64), commas(total*64))
	p.waitFor(fmt.Sprintf(`document.getElementById('hex-head').textContent.includes(%q)`, wantSel), "the last instruction's bytes highlighted")
	if n := eval[int](p, `document.querySelectorAll('#hex .hb.hl').length`); n != 64 {
		t.Errorf("%d bytes highlighted for one instruction, want 64", n)
	}
	hexShown := p.hexRowBytes((total-1)*64, 16)
	if !bytes.Equal(hexShown, got[member][(total-1)*64:(total-1)*64+16]) {
		t.Errorf("hex of the last instruction % x, want % x", hexShown, got[member][(total-1)*64:(total-1)*64+16])
	}
	if d := eval[string](p, `document.querySelector('#detail .d-path').textContent`); !strings.Contains(d, fmt.Sprintf("#%d", total-1)) {
		t.Errorf("the detail pane does not show instruction %d: %q", total-1, d)
	}
	if png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100)); err == nil {
		os.WriteFile(strings.TrimSuffix(screenshot, ".png")+"-listing.png", png, 0o644)
	}
}

// hexRowBytes reads the bytes the hex view shows in the row at off.
func (p *page) hexRowBytes(off, n int) []byte {
	p.t.Helper()
	sel := fmt.Sprintf(`#hex-rows .hex-row[data-off="%d"]`, off)
	p.waitFor(fmt.Sprintf(`document.querySelector(%q) && !document.querySelector(%q).textContent.includes('··')`, sel, sel), "hex row at "+fmt.Sprint(off))
	text := eval[string](p, fmt.Sprintf(`Array.from(document.querySelector(%q).querySelectorAll('.hb')).map(c => c.textContent).join('')`, sel))
	var out []byte
	for i := 0; i+2 <= len(text) && len(out) < n; i += 2 {
		var b byte
		fmt.Sscanf(text[i:i+2], "%02x", &b)
		out = append(out, b)
	}
	return out
}

// bigMember is the generator of bigNEFF's weights/w0.bin: the same bytes every time.
func bigMember() *rand.ChaCha8 { return rand.NewChaCha8([32]byte{1}) }

func TestLargeMemberHexScrollsToItsEnd(t *testing.T) {
	const size = 24 << 20 // 1.5 M hex rows: taller than a browser lets an element be
	path := bigNEFF(t, size)
	want := make([]byte, size)
	bigMember().Read(want)
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	p.expand(`#tree [data-path="members/weights/"]`)
	p.clickRow(`#tree [data-ref="member:weights/w0.bin"]`)
	if got := p.hexFirstBytes(32); !bytes.Equal(got, want[:32]) {
		t.Fatalf("first bytes % x, want % x", got, want[:32])
	}
	eval[chromedp.Void](p, `(() => { const h = document.getElementById('hex'); h.scrollTop = h.scrollHeight; })()`)
	lastRow := size - 16
	if got := p.hexRowBytes(lastRow, 16); !bytes.Equal(got, want[lastRow:]) {
		t.Errorf("last row % x, want % x", got, want[lastRow:])
	}
	if n := eval[int](p, `document.querySelectorAll('#hex-rows .hex-row').length`); n > 200 {
		t.Errorf("%d hex rows in the DOM: not virtualised", n)
	}
}

func TestNonNEFFFiles(t *testing.T) {
	p := newPage(t, siteURL)
	// A loose JSON file opens as a tree whose values highlight their bytes.
	p.openByDrop("config.json", []byte(`{"name": "<b>bold</b>", "sizes": [1, 2, 3]}`))
	if got := eval[string](p, `document.querySelector('#summary [data-field="kind"]').textContent`); !strings.Contains(got, "json") {
		t.Errorf("kind chip %q", got)
	}
	p.clickRow(`#tree [data-path="name"]`)
	p.waitFor(`document.getElementById('hex-head').textContent.includes('selected 1..22 (21 bytes)')`, `the bytes of "name": "<b>bold</b>"`)
	if n := eval[int](p, `document.querySelectorAll('b').length`); n != 0 {
		t.Errorf("markup from the file became %d elements", n)
	}
	// Clicking a byte selects the most specific node that owns it (hex → tree).
	text := `{"name": "<b>bold</b>", "sizes": [1, 2, 3]}`
	two := strings.Index(text, "2,")
	eval[chromedp.Void](p, fmt.Sprintf(`document.querySelector('#hex-rows .hex-row[data-off="%d"] .hb[data-i="%d"]').click()`, two/16*16, two%16))
	if got := p.selectedPath(); got != "sizes/1" {
		t.Errorf("clicking byte %d selected %q, want sizes/1", two, got)
	}

	// A long array shows its first thousand rows and a button for more.
	var long strings.Builder
	long.WriteString(`{"items": [`)
	for i := range 2500 {
		if i > 0 {
			long.WriteString(",")
		}
		fmt.Fprint(&long, i)
	}
	long.WriteString("]}")
	p.openByDrop("long.json", []byte(long.String()))
	p.waitFor(`document.getElementById('file-name').textContent.includes('long.json')`, "long.json")
	p.expand(`#tree [data-path="items"]`)
	// (When the array is a stub, its rows come once the core has built them.)
	p.waitFor(`document.querySelector('#tree [data-path="items"] > .group > .more')`, "the first page of items")
	if n := eval[int](p, `document.querySelectorAll('#tree [data-path="items"] > .group > .ti').length`); n != 1000 {
		t.Errorf("%d rows built for a 2,500-element array, want the first 1,000", n)
	}
	eval[chromedp.Void](p, `document.querySelector('#tree [data-path="items"] > .group > .more').click()`)
	p.waitFor(`document.querySelector('#tree [data-path="items"] > .group > .more')`, "the second page of items")
	if n := eval[int](p, `document.querySelectorAll('#tree [data-path="items"] > .group > .ti').length`); n != 2000 {
		t.Errorf("after 'show more', %d rows, want 2,000", n)
	}
	// Anything else is hex, with a finding saying what it is not.
	p.openByDrop("blob.dat", []byte("\x7fELF not a neff at all"))
	p.waitFor(`document.getElementById('file-name').textContent.includes('blob.dat')`, "the second file")
	fs := eval[string](p, `document.getElementById('findings-list').textContent`)
	if !strings.Contains(fs, "not a NEFF") {
		t.Errorf("findings %q do not say the file is not a NEFF", fs)
	}
	if got := p.hexFirstBytes(4); !bytes.Equal(got, []byte("\x7fELF")) {
		t.Errorf("hex shows % x", got)
	}
}

// BenchmarkPage measures the page in Chromium: start-up to a ready worker, and opening a
// generated 200 MiB NEFF (time to header, total) next to the native core on the same file.
//
//	make dist && go test -run '^$' -bench Page -benchtime 3x ./e2e/
func BenchmarkPage(b *testing.B) {
	b.Run("worker-ready", func(b *testing.B) {
		for range b.N {
			p := newPage(b, siteURL) // navigates and waits for the worker's ready
			b.StopTimer()
			b.ReportMetric(eval[float64](p, `(() => { const s = document.getElementById('core-status').textContent.match(/(\d+) ms/); return s ? Number(s[1]) : -1; })()`), "ms-ready-in-page")
			b.StartTimer()
		}
	})
	b.Run("worker-ready-single-file", func(b *testing.B) {
		for range b.N {
			p := newPage(b, singleURL) // inflates the embedded wasm, starts the Blob worker
			b.StopTimer()
			b.ReportMetric(eval[float64](p, `(() => { const s = document.getElementById('core-status').textContent.match(/(\d+) ms/); return s ? Number(s[1]) : -1; })()`), "ms-ready-in-page")
			b.StartTimer()
		}
	})
	const size = 200 << 20
	path := bigNEFF(b, size)
	b.Run("open-200MiB-in-page", func(b *testing.B) {
		p := newPage(b, siteURL)
		b.SetBytes(size)
		b.ResetTimer()
		var header, total, heap float64
		for range b.N {
			// The page's JS heap, sampled while the file opens (the worker's heap is small: the
			// Document crosses as one msgpack buffer; its wasm memory is reported below).
			eval[chromedp.Void](p, `document.body.dataset.state = 'reset'; window.heapPeak = 0; clearInterval(window.heapTimer); window.heapTimer = setInterval(() => { heapPeak = Math.max(heapPeak, performance.memory.usedJSHeapSize); }, 10)`)
			p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
			p.waitOpen()
			header += eval[float64](p, `neffscope.lastOpen.headerMs`)
			total += eval[float64](p, `neffscope.lastOpen.totalMs`)
			heap = max(heap, eval[float64](p, `clearInterval(window.heapTimer), heapPeak`))
		}
		b.ReportMetric(header/float64(b.N), "ms-to-header")
		b.ReportMetric(total/float64(b.N), "ms-total")
		b.ReportMetric(eval[float64](p, `neffscope.lastOpen.wasmBytes`)/(1<<20), "MiB-wasm-memory")
		b.ReportMetric(heap/(1<<20), "MiB-page-heap-peak")
	})
	b.Run("open-attn_v6-in-page", func(b *testing.B) {
		real := realfiles.Path(b, "nki-moe/attn_v6.neff")
		p := newPage(b, siteURL)
		var core, decode, render, total float64
		for range b.N {
			eval[chromedp.Void](p, `document.body.dataset.state = 'reset'`)
			p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{mustAbs(real)}))
			p.waitOpen()
			core += eval[float64](p, `neffscope.lastOpen.coreMs`)
			decode += eval[float64](p, `neffscope.lastOpen.decodeMs`)
			render += eval[float64](p, `neffscope.lastOpen.renderMs`)
			total += eval[float64](p, `neffscope.lastOpen.totalMs`)
		}
		n := float64(b.N)
		b.ReportMetric(core/n, "ms-core")
		b.ReportMetric(decode/n, "ms-msgpack")
		b.ReportMetric(render/n, "ms-render")
		b.ReportMetric(total/n, "ms-total")
	})
	b.Run("open-200MiB-native", func(b *testing.B) {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		b.SetBytes(size)
		for range b.N {
			inspect.Open("big.neff", f, size, inspect.Options{Fingerprint: true})
		}
	})
}

// TestDevServer runs `make serve`'s server (scripts/devserver) over the built site: the wasm
// arrives brotli-compressed with its Content-Type, under the CSP header, and the page works.
func TestDevServer(t *testing.T) {
	if setupSkip != "" {
		t.Skip(setupSkip)
	}
	file := readReal(t)
	bin := filepath.Join(t.TempDir(), "devserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../scripts/devserver").CombinedOutput(); err != nil {
		t.Fatalf("building the dev server: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-dir", "../dist/site")
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the dev server said nothing: %v", err)
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("the dev server did not print its URL: %q", line)
	}
	url := strings.TrimSpace(line[i:])

	req, _ := http.NewRequest("GET", url+"neffscope.wasm", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get("Content-Type") != "application/wasm" || resp.Header.Get("Content-Encoding") != "br" {
		t.Errorf("neffscope.wasm served as %q, encoding %q; want application/wasm, br", resp.Header.Get("Content-Type"), resp.Header.Get("Content-Encoding"))
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self'") {
		t.Errorf("CSP header %q", csp)
	}

	p := newPage(t, url)
	p.attachWorkers()
	p.openByDrop("matmul_small.neff", file)
	checkRealOpened(t, p, file)
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}
