package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func writeSite(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// site is a minimal www/ with the tags Single replaces, taken from the real index.html so
// the test breaks when the page and the bundler drift apart.
func site(t *testing.T, app string) map[string]string {
	index, err := os.ReadFile("../../www/index.html")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"index.html":                    string(index),
		"style.css":                     "body { color: red; }",
		"app.js":                        app,
		"worker.js":                     "/* worker */",
		"wasm_exec.js":                  "globalThis.Go = class {};",
		"vendor/msgpack/msgpack.min.js": "var MessagePack = {};",
		"neffscope.wasm":                "\x00asm\x01\x00\x00\x00 a fake module",
		"warm/matmul_small.neff":        "\x01\x00 a fake NEFF",
		"warm/LICENSE":                  "Apache License 2.0 (fake)",
		"warm/NOTICE":                   "Copyright (fake)",
	}
}

func TestSingleInlinesEverythingUnderAHashedCSP(t *testing.T) {
	files := site(t, "console.log('app');")
	page, err := Single(writeSite(t, files))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	// No file is fetched: no src= or stylesheet link left (data: URLs aside).
	for _, re := range []string{`<script[^>]* src=`, `<link[^>]*stylesheet`} {
		if regexp.MustCompile(re).MatchString(html) {
			t.Errorf("the single file still references an external resource (%s)", re)
		}
	}
	// Every executable inline script is allowed by its hash, and nothing else is.
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(html)
	if csp == nil {
		t.Fatal("no CSP meta tag")
	}
	scripts := regexp.MustCompile(`(?s)<script id="([a-z-]+)">(.*?)</script>`).FindAllStringSubmatch(html, -1)
	if len(scripts) != 4 {
		t.Fatalf("%d inline scripts, want 4 (wasm_exec, worker, msgpack, app)", len(scripts))
	}
	for _, s := range scripts {
		h := sha256.Sum256([]byte(s[2]))
		if want := "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"; !strings.Contains(csp[1], want) {
			t.Errorf("script %s is not allowed by the CSP (%s missing)", s[1], want)
		}
	}
	for _, want := range []string{"default-src 'none'", "connect-src 'none'", "worker-src blob:", "'wasm-unsafe-eval'"} {
		if !strings.Contains(csp[1], want) {
			t.Errorf("CSP %q lacks %s", csp[1], want)
		}
	}
	if strings.Contains(csp[1], "'unsafe-inline'") {
		t.Errorf("CSP allows any inline script: %q", csp[1])
	}
	// The wasm is carried as gzip+base64 and comes back byte for byte.
	data := regexp.MustCompile(`<script type="application/octet-stream" id="wasm-data">([^<]*)</script>`).FindStringSubmatch(html)
	if data == nil {
		t.Fatal("no embedded wasm")
	}
	gz, err := base64.StdEncoding.DecodeString(data[1])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(zr)
	if string(raw) != files["neffscope.wasm"] {
		t.Errorf("embedded wasm inflates to %q", raw)
	}
	// The worker's warm-up NEFF is carried as base64, with its licence and notice as text.
	warm := regexp.MustCompile(`<script type="application/octet-stream" id="warm-data">([^<]*)</script>`).FindStringSubmatch(html)
	if warm == nil {
		t.Fatal("no embedded warm-up NEFF")
	}
	if b, err := base64.StdEncoding.DecodeString(warm[1]); err != nil || string(b) != files["warm/matmul_small.neff"] {
		t.Errorf("embedded warm-up NEFF decodes to %q (%v)", b, err)
	}
	for _, name := range []string{"LICENSE", "NOTICE"} {
		re := regexp.MustCompile(`(?s)<script type="text/plain" id="warm-` + strings.ToLower(name) + `">([^<]*)</script>`)
		if m := re.FindStringSubmatch(html); m == nil || !strings.HasSuffix(m[1], files["warm/"+name]) {
			t.Errorf("the warm-up NEFF's %s is not in the single file", name)
		}
	}
}

func TestSingleRefusesTextThatWouldBreakOutOfItsTag(t *testing.T) {
	for _, bad := range []string{"var s = '</script><img src=x>';", "var s = '<!-- x';"} {
		if _, err := Single(writeSite(t, site(t, bad))); err == nil {
			t.Errorf("app.js holding %q was inlined", bad)
		}
	}
}

func TestServiceWorkerStampFollowsTheShell(t *testing.T) {
	realSW, err := os.ReadFile("../../www/sw.js")
	if err != nil {
		t.Fatal(err)
	}
	// The bundler hashes exactly the files sw.js caches.
	list := regexp.MustCompile(`(?s)const SHELL = \[(.*?)\];`).FindSubmatch(realSW)
	if list == nil {
		t.Fatal("www/sw.js has no SHELL list")
	}
	var cached []string
	for _, m := range regexp.MustCompile(`'([^']+)'`).FindAllSubmatch(list[1], -1) {
		if string(m[1]) != "./" {
			cached = append(cached, string(m[1]))
		}
	}
	if strings.Join(cached, ",") != strings.Join(shellFiles, ",") {
		t.Errorf("sw.js caches %v; the bundler hashes %v", cached, shellFiles)
	}

	files := site(t, "console.log('app');")
	files["sw.js"] = string(realSW)
	dir := writeSite(t, files)
	stamp := func() (string, string) {
		build, err := stampServiceWorker(dir)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(filepath.Join(dir, "sw.js"))
		return build, string(b)
	}
	b1, sw1 := stamp()
	if len(b1) != 16 || !strings.Contains(sw1, "const BUILD = '"+b1+"';") || strings.Contains(sw1, "const BUILD = 'dev';") {
		t.Fatalf("build %q not stamped into sw.js", b1)
	}
	if again, _ := stamp(); again != b1 {
		t.Errorf("the same shell stamped %s then %s", b1, again)
	}
	os.WriteFile(filepath.Join(dir, "neffscope.wasm"), []byte("\x00asm\x01\x00\x00\x00 another module"), 0o644)
	if b2, sw2 := stamp(); b2 == b1 || !strings.Contains(sw2, "const BUILD = '"+b2+"';") {
		t.Errorf("a new wasm kept the build %s (now %s)", b1, b2)
	}
}

// The site copy leaves out the module sources and their tests (they are in the bundles).
func TestCopySiteLeavesOutSources(t *testing.T) {
	src := writeSite(t, map[string]string{
		"index.html":           "x",
		"app.js":               "app",
		"src/main.js":          "import './x.js';",
		"src/lib/csv.js":       "export {}",
		"test/modules.test.js": "test",
		"vendor/a/b.js":        "v",
		".hidden":              "h",
	})
	dst := t.TempDir()
	n, err := copySite(src, dst)
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 {
		t.Errorf("copied %d files, want 3 (index.html, app.js, vendor/a/b.js)", n)
	}
	for _, gone := range []string{"src", "test", ".hidden"} {
		if _, err := os.Stat(filepath.Join(dst, gone)); err == nil {
			t.Errorf("%s was copied into the site", gone)
		}
	}
	if _, err := os.Stat(filepath.Join(dst, "vendor", "a", "b.js")); err != nil {
		t.Error("vendor/a/b.js was not copied:", err)
	}
}
