// Command bundle writes the two distributable forms of the page:
//
//   - -site DIR: a copy of www/ (the static site; any web server can host it) without the
//     module sources (www/src/) and their tests (www/test/): the page runs app.js and
//     worker.js, which this command first rebuilds from them (scripts/internal/jsbuild);
//
//   - -single FILE: one self-contained HTML file that works when opened from file:// with no
//     server: style, scripts, wasm_exec.js and the worker code inlined, the wasm gzip'd and
//     base64'd (the page inflates it with DecompressionStream and starts the worker from a
//     Blob URL), and a Content-Security-Policy that allows exactly those inline scripts and
//     styles by hash and no network at all.
//
//     go run ./scripts/bundle -www www -site dist/site -single dist/neffscope.html
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/neffscope/neffscope/scripts/internal/jsbuild"
)

func main() {
	www := flag.String("www", "www", "the site's source directory")
	site := flag.String("site", "", "write a copy of the site here")
	single := flag.String("single", "", "write the single-file page here")
	flag.Parse()
	if *site == "" && *single == "" {
		fmt.Fprintln(os.Stderr, "bundle: nothing to do (give -site and/or -single)")
		os.Exit(2)
	}
	if _, err := os.Stat(filepath.Join(*www, "neffscope.wasm")); err != nil {
		fmt.Fprintf(os.Stderr, "bundle: %s/neffscope.wasm is missing: run `make wasm` first\n", *www)
		os.Exit(1)
	}
	// The bundles are build outputs: make them from the modules now, so a copy is never stale.
	if _, err := os.Stat(filepath.Join(*www, "src", "main.js")); err == nil {
		if _, err := jsbuild.Build(*www); err != nil {
			fmt.Fprintln(os.Stderr, "bundle:", err)
			os.Exit(1)
		}
	}
	if *site != "" {
		n, err := copySite(*www, *site)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bundle:", err)
			os.Exit(1)
		}
		build, err := stampServiceWorker(*site)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bundle:", err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d files (offline cache build %s)\n", *site, n, build)
	}
	if *single != "" {
		page, err := Single(*www)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bundle:", err)
			os.Exit(1)
		}
		if err := os.MkdirAll(filepath.Dir(*single), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "bundle:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(*single, page, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "bundle:", err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d bytes\n", *single, len(page))
	}
}

// copySite copies every non-hidden file of src into dst, except the module sources (src/:
// they are in app.js and worker.js) and their tests (test/).
func copySite(src, dst string) (int, error) {
	n := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if (rel == "src" || rel == "test") && d.IsDir() {
			return filepath.SkipDir
		}
		if rel != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		return os.WriteFile(target, b, 0o644)
	})
	return n, err
}

// shellFiles are the files sw.js keeps for offline use (its SHELL list, less the page's "./").
var shellFiles = []string{"index.html", "app.js", "worker.js", "style.css", "wasm_exec.js", "neffscope.wasm", "vendor/msgpack/msgpack.min.js", "warm/matmul_small.neff"}

// swBuild is the line of sw.js that names its cache.
var swBuild = regexp.MustCompile(`(?m)^const BUILD = '[^']*';$`)

// stampServiceWorker writes a hash of the shell files into site/sw.js as its BUILD, so each
// build caches under its own name and a deploy replaces the old offline copy.
func stampServiceWorker(site string) (string, error) {
	h := sha256.New()
	for _, name := range shellFiles {
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(name)))
		if err != nil {
			return "", fmt.Errorf("offline shell: %v", err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
	}
	build := fmt.Sprintf("%x", h.Sum(nil))[:16]
	swPath := filepath.Join(site, "sw.js")
	sw, err := os.ReadFile(swPath)
	if err != nil {
		return "", fmt.Errorf("offline shell: %v", err)
	}
	if !swBuild.Match(sw) {
		return "", errors.New("sw.js has no line `const BUILD = '...';`: update scripts/bundle")
	}
	sw = swBuild.ReplaceAll(sw, []byte("const BUILD = '"+build+"';"))
	return build, os.WriteFile(swPath, sw, 0o644)
}

var (
	cspMeta    = regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="[^"]*">`)
	styleLink  = `<link rel="stylesheet" href="style.css">`
	msgpackTag = `<script src="vendor/msgpack/msgpack.min.js"></script>`
	appTag     = `<script src="app.js"></script>`
)

// Single builds the self-contained page from the site's files.
func Single(www string) ([]byte, error) {
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(www, name))
		return string(b), err
	}
	index, err := read("index.html")
	if err != nil {
		return nil, err
	}
	css, err := read("style.css")
	if err != nil {
		return nil, err
	}
	msgpack, err := read("vendor/msgpack/msgpack.min.js")
	if err != nil {
		return nil, err
	}
	app, err := read("app.js")
	if err != nil {
		return nil, err
	}
	worker, err := read("worker.js")
	if err != nil {
		return nil, err
	}
	wasmExec, err := read("wasm_exec.js")
	if err != nil {
		return nil, fmt.Errorf("%v (run `make wasm`: it copies wasm_exec.js from the Go that built the wasm)", err)
	}
	wasm, err := os.ReadFile(filepath.Join(www, "neffscope.wasm"))
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(wasm)
	if err := zw.Close(); err != nil {
		return nil, err
	}

	// Inline scripts run in the page (wasm_exec.js defines Go, worker.js defines the core
	// host for the no-worker fallback) and their text also becomes the worker's Blob.
	scripts := []struct{ id, src string }{
		{"wasm-exec-src", wasmExec},
		{"worker-src", worker},
		{"msgpack-src", msgpack},
		{"app-src", app},
	}
	var scriptHashes []string
	var tags strings.Builder
	// The wasm is data, not script: a non-JavaScript type is never executed and needs no hash.
	tags.WriteString(`<script type="application/octet-stream" id="wasm-data">`)
	tags.WriteString(base64.StdEncoding.EncodeToString(gz.Bytes()))
	tags.WriteString("</script>\n")
	// The worker's warm-up NEFF (core-host.js), raw (it is gzip already), and beside it, as
	// text, the licence and notice it is distributed under.
	warm, err := os.ReadFile(filepath.Join(www, "warm", "matmul_small.neff"))
	if err != nil {
		return nil, fmt.Errorf("%v (run `make wasm`: it copies the warm-up NEFF)", err)
	}
	tags.WriteString(`<script type="application/octet-stream" id="warm-data">`)
	tags.WriteString(base64.StdEncoding.EncodeToString(warm))
	tags.WriteString("</script>\n")
	for _, name := range []string{"NOTICE", "LICENSE"} {
		text, err := read("warm/" + name)
		if err != nil {
			return nil, fmt.Errorf("%v (run `make wasm`: it copies the warm-up NEFF's %s)", err, name)
		}
		if err := safeInline("warm/"+name, text, "script"); err != nil {
			return nil, err
		}
		fmt.Fprintf(&tags, "<script type=\"text/plain\" id=\"warm-%s\">warm-data is matmul_small.neff, written by the AWS Neuron compiler, from aws-neuron/nkipy, Apache-2.0:\n%s</script>\n", strings.ToLower(name), text)
	}
	for _, s := range scripts {
		if err := safeInline(s.id, s.src, "script"); err != nil {
			return nil, err
		}
		scriptHashes = append(scriptHashes, hashSource(s.src))
		fmt.Fprintf(&tags, "<script id=%q>%s</script>\n", s.id, s.src)
	}
	if err := safeInline("style.css", css, "style"); err != nil {
		return nil, err
	}
	csp := "default-src 'none'; script-src " + strings.Join(scriptHashes, " ") + " 'wasm-unsafe-eval'; " +
		"style-src " + hashSource(css) + "; worker-src blob:; connect-src 'none'; img-src data: blob:; " +
		"object-src 'none'; base-uri 'none'; form-action 'none'"

	out := index
	for _, r := range []struct{ old, new string }{
		{styleLink, "<style>" + css + "</style>"},
		{msgpackTag, ""},
		{appTag, tags.String()},
	} {
		if !strings.Contains(out, r.old) {
			return nil, fmt.Errorf("index.html no longer contains %s: update scripts/bundle", r.old)
		}
		out = strings.Replace(out, r.old, r.new, 1)
	}
	if !cspMeta.MatchString(out) {
		return nil, errors.New("index.html has no Content-Security-Policy meta tag: update scripts/bundle")
	}
	out = cspMeta.ReplaceAllLiteralString(out, `<meta http-equiv="Content-Security-Policy" content="`+csp+`">`)
	return []byte(out), nil
}

// safeInline refuses text that would end its element early or change the HTML parser's state.
func safeInline(name, src, tag string) error {
	low := strings.ToLower(src)
	for _, bad := range []string{"</" + tag, "<!--"} {
		if i := strings.Index(low, bad); i >= 0 {
			return fmt.Errorf("%s contains %q at byte %d; it cannot be inlined as is", name, bad, i)
		}
	}
	return nil
}

func hashSource(s string) string {
	h := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}
