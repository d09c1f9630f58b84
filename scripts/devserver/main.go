// Command devserver serves the static site (www/) for development: correct Content-Type for
// .wasm (so instantiateStreaming works), precompressed .br/.gz siblings when the browser
// accepts them, the page's strict Content-Security-Policy as a header, and revalidation on
// every load (no stale wasm after a rebuild). app.js and worker.js are bundled from www/src/
// (scripts/internal/jsbuild) at start and again on a load after a module changed.
//
//	go run ./scripts/devserver -addr 127.0.0.1:8080 -dir www
package main

import (
	"flag"
	"fmt"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/neffscope/neffscope/scripts/internal/jsbuild"
)

// CSP is the site's Content-Security-Policy: nothing but this origin; wasm compilation
// allowed; workers from this origin or blob: (the single-file build makes its worker from a
// Blob URL). index.html carries the same policy in a meta tag for hosts that set no headers.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; " +
	"connect-src 'self'; img-src 'self' data: blob:; style-src 'self'; object-src 'none'; " +
	"base-uri 'none'; form-action 'none'"

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (host:port)")
	dir := flag.String("dir", "www", "directory to serve")
	flag.Parse()
	if st, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil || st.IsDir() {
		log.Fatalf("devserver: %s/index.html not found (run from the repository root)", *dir)
	}
	if _, err := os.Stat(filepath.Join(*dir, "neffscope.wasm")); err != nil {
		log.Printf("devserver: warning: %s/neffscope.wasm is missing; run `make wasm`", *dir)
	}
	if err := buildJS(*dir); err != nil {
		log.Fatalf("devserver: %v", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("devserver: %v", err)
	}
	fmt.Printf("neffscope: serving %s on http://%s/\n", *dir, ln.Addr())
	srv := &http.Server{Handler: logRequests(Handler(*dir)), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}

// buildMu serialises rebuilds: the page loads app.js and worker.js at about the same time.
var buildMu sync.Mutex

// buildJS rebuilds the bundles when a module under dir/src is newer than them (a no-op for a
// directory without module sources, such as dist/site).
func buildJS(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, "src", "main.js")); err != nil {
		return nil
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	if !jsbuild.Stale(dir) {
		return nil
	}
	_, err := jsbuild.Build(dir)
	return err
}

// Handler serves dir with the site's headers.
func Handler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/") {
			p = path.Join(p, "index.html")
		}
		for _, seg := range strings.Split(p, "/") {
			if strings.HasPrefix(seg, ".") {
				http.NotFound(w, r)
				return
			}
		}
		if p == "/app.js" || p == "/worker.js" {
			if err := buildJS(dir); err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
		}
		name := filepath.Join(dir, filepath.FromSlash(p))
		st, err := os.Stat(name)
		if err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache") // revalidate every time: a rebuilt wasm is picked up at once
		h.Set("Vary", "Accept-Encoding")
		ctype := mime.TypeByExtension(path.Ext(p))
		if ctype == "" {
			ctype = "application/octet-stream"
		}
		h.Set("Content-Type", ctype)

		serve := name
		if enc, file := precompressed(name, r.Header.Get("Accept-Encoding")); file != "" {
			serve = file
			h.Set("Content-Encoding", enc)
		}
		f, err := os.Open(serve)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		fst, err := f.Stat()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		http.ServeContent(w, r, p, fst.ModTime(), f)
	})
}

// precompressed picks FILE.br or FILE.gz when it exists, is not older than FILE, and the
// client accepts that encoding.
func precompressed(name, accept string) (encoding, file string) {
	src, err := os.Stat(name)
	if err != nil {
		return "", ""
	}
	for _, c := range []struct{ enc, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !accepts(accept, c.enc) {
			continue
		}
		if st, err := os.Stat(name + c.ext); err == nil && !st.ModTime().Before(src.ModTime()) {
			return c.enc, name + c.ext
		}
	}
	return "", ""
}

// accepts reports whether an Accept-Encoding header allows enc (q=0 refuses it).
func accepts(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		fields := strings.Split(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(fields[0]), enc) {
			continue
		}
		for _, f := range fields[1:] {
			if q := strings.TrimSpace(f); q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
				return false
			}
		}
		return true
	}
	return false
}

func logRequests(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		h.ServeHTTP(w, r)
		log.Printf("%s %s %s", r.Method, r.URL.Path, time.Since(start).Round(time.Microsecond))
	})
}
