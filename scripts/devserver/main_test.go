package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	wasm := []byte("\x00asm\x01\x00\x00\x00 raw")
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", []byte("<!doctype html><title>x</title>"))
	write("neffscope.wasm", wasm)
	time.Sleep(10 * time.Millisecond) // the compressed copies must not be older than the source
	write("neffscope.wasm.br", []byte("BROTLI"))
	write("neffscope.wasm.gz", []byte("GZIP"))
	write(".secret", []byte("no"))
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()

	get := func(path, accept string) (*http.Response, string) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", accept)
		resp, err := http.DefaultTransport.RoundTrip(req) // no transparent gunzip
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	for _, tc := range []struct {
		path, accept, wantType, wantEnc, wantBody string
		wantStatus                                int
	}{
		{"/", "", "text/html; charset=utf-8", "", "<!doctype html><title>x</title>", 200},
		{"/neffscope.wasm", "gzip, deflate, br", "application/wasm", "br", "BROTLI", 200},
		{"/neffscope.wasm", "gzip", "application/wasm", "gzip", "GZIP", 200},
		{"/neffscope.wasm", "br;q=0, gzip", "application/wasm", "gzip", "GZIP", 200},
		{"/neffscope.wasm", "identity", "application/wasm", "", string(wasm), 200},
		{"/.secret", "", "", "", "", 404},
		{"/../../etc/passwd", "", "", "", "", 404},
	} {
		resp, body := get(tc.path, tc.accept)
		if resp.StatusCode != tc.wantStatus {
			t.Errorf("%s: status %d, want %d", tc.path, resp.StatusCode, tc.wantStatus)
			continue
		}
		if tc.wantStatus != 200 {
			continue
		}
		if got := resp.Header.Get("Content-Type"); got != tc.wantType {
			t.Errorf("%s: Content-Type %q, want %q", tc.path, got, tc.wantType)
		}
		if got := resp.Header.Get("Content-Encoding"); got != tc.wantEnc {
			t.Errorf("%s (Accept-Encoding %q): Content-Encoding %q, want %q", tc.path, tc.accept, got, tc.wantEnc)
		}
		if body != tc.wantBody {
			t.Errorf("%s (Accept-Encoding %q): body %q, want %q", tc.path, tc.accept, body, tc.wantBody)
		}
		if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, "'wasm-unsafe-eval'") {
			t.Errorf("%s: CSP %q", tc.path, csp)
		}
		if resp.Header.Get("Cache-Control") != "no-cache" {
			t.Errorf("%s: Cache-Control %q", tc.path, resp.Header.Get("Cache-Control"))
		}
	}
}

// The bundles are rebuilt from www/src when a module changed since the last build.
func TestHandlerRebuildsTheBundles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mtime time.Time) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mtime, mtime)
	}
	now := time.Now()
	write("index.html", "<!doctype html><title>x</title>", now)
	write("src/main.js", "import { v } from './v.js';\nglobalThis.v = v;\n", now)
	write("src/v.js", "export const v = 'first';\n", now)
	write("src/worker/main.js", "self.w = 1;\n", now)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	get := func(path string) string {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	if app := get("/app.js"); !strings.Contains(app, `"first"`) || strings.Contains(app, "import ") {
		t.Fatalf("app.js is not the bundle of src/main.js:\n%s", app)
	}
	write("src/v.js", "export const v = 'second';\n", now.Add(time.Minute))
	if app := get("/app.js"); !strings.Contains(app, `"second"`) {
		t.Fatalf("app.js was not rebuilt after src/v.js changed:\n%s", app)
	}
	if w := get("/worker.js"); !strings.Contains(w, "self.w = 1") {
		t.Fatalf("worker.js is not the bundle of src/worker/main.js:\n%s", w)
	}
}
