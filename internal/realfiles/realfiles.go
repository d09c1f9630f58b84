// Package realfiles finds the real compiler artifacts the tests read. Every test names a file by
// its path under testdata-real (e.g. "nkipy/matmul_small.neff", "nki-moe/attn_v6/sg00/def.json")
// and this package looks for it in two places, in order:
//
//  1. <repo>/testdata/real/: the files kept in the repository (matmul_small.neff, Apache-2.0);
//     a member of a NEFF kept there (e.g. "nkipy/matmul_small/sg00/act_info.json") is taken out of
//     that NEFF on first use, so no loose copy is needed;
//  2. <repo>/../shared/testdata-real/: the project's shared folder beside the clone, which holds
//     the other real artifacts (third-party licences or none): read in place, never copied.
//
// It works natively and under Node (GOOS=js), which has file access.
package realfiles

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// neffHeaderSize is the NEFF's fixed binary header before its gzip'd tar (spec neff.md §1).
const neffHeaderSize = 1024

var (
	rootOnce sync.Once
	root     string
	rootErr  error
)

// RepoRoot is the directory holding go.mod, found by walking up from the working directory
// (go test runs each package in its own directory).
func RepoRoot() (string, error) {
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			rootErr = err
			return
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				root = dir
				return
			}
			up := filepath.Dir(dir)
			if up == dir {
				rootErr = errors.New("no go.mod above the working directory")
				return
			}
			dir = up
		}
	})
	return root, rootErr
}

// RepoDir is <repo>/testdata/real.
func RepoDir() string {
	r, err := RepoRoot()
	if err != nil {
		return ""
	}
	return filepath.Join(r, "testdata", "real")
}

// SharedDir is <repo>/../shared/testdata-real, or "" when it is not there.
func SharedDir() string {
	r, err := RepoRoot()
	if err != nil {
		return ""
	}
	d := filepath.Join(filepath.Dir(r), "shared", "testdata-real")
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return ""
	}
	return d
}

// Find returns the path of the real file rel (slash-separated, relative to testdata-real).
func Find(rel string) (string, bool) {
	rel = path.Clean(rel)
	if d := RepoDir(); d != "" {
		if p := filepath.Join(d, filepath.FromSlash(rel)); exists(p) {
			return p, true
		}
		if p, ok := member(d, rel); ok {
			return p, true
		}
	}
	if d := SharedDir(); d != "" {
		if p := filepath.Join(d, filepath.FromSlash(rel)); exists(p) {
			return p, true
		}
	}
	return "", false
}

// Has reports whether the real file rel can be found.
func Has(rel string) bool {
	_, ok := Find(rel)
	return ok
}

// Missing says where rel was looked for, for a skip or a log line.
func Missing(rel string) string {
	if RepoDir() == "" {
		return fmt.Sprintf("real file %s not found: no go.mod above the working directory to find testdata/real/ from", rel)
	}
	if SharedDir() == "" {
		return fmt.Sprintf("real file %s is not in testdata/real/, and ../shared/testdata-real/ is not beside the clone", rel)
	}
	return fmt.Sprintf("real file %s is in neither testdata/real/ nor ../shared/testdata-real/", rel)
}

// Path returns the path of rel, or skips t naming exactly what is missing.
func Path(t testing.TB, rel string) string {
	t.Helper()
	p, ok := Find(rel)
	if !ok {
		t.Skip(Missing(rel))
	}
	return p
}

// Read returns the bytes of rel, or skips t naming what is missing.
func Read(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// NEFFs lists the real NEFFs (Glob "*/*.neff": the repository's matmul_small, and the shared
// folder's where it is beside the clone), or skips t naming where it looked.
func NEFFs(t testing.TB) []string {
	t.Helper()
	paths := Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(Missing("*/*.neff"))
	}
	return paths
}

// Optional returns the path of rel when it is there, and otherwise logs that the check needing
// it did not run: for the extra checks only a file of the shared folder allows.
func Optional(t testing.TB, rel, check string) (string, bool) {
	t.Helper()
	p, ok := Find(rel)
	if !ok {
		t.Logf("not checked here: %s (%s)", check, Missing(rel))
	}
	return p, ok
}

// Glob lists the real files matching pattern (path.Match syntax, relative to testdata-real)
// in both places, each name once (the repository's copy first), sorted by name.
func Glob(pattern string) []string {
	seen := map[string]string{}
	for _, d := range []string{RepoDir(), SharedDir()} {
		if d == "" {
			continue
		}
		ms, _ := filepath.Glob(filepath.Join(d, filepath.FromSlash(pattern)))
		for _, m := range ms {
			rel, err := filepath.Rel(d, m)
			if err != nil {
				continue
			}
			if _, ok := seen[filepath.ToSlash(rel)]; !ok {
				seen[filepath.ToSlash(rel)] = m
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = seen[n]
	}
	return out
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

var extractMu sync.Mutex

// member finds rel = "<dir>/<name>/<member path>" as a member of <dir>/<name>.neff under d and
// writes it to <repo>/.cache/realfiles/<rel> once (what the shared folder keeps as a loose copy).
func member(d, rel string) (string, bool) {
	parts := strings.Split(rel, "/")
	for i := len(parts) - 1; i >= 1; i-- {
		neffPath := filepath.Join(d, filepath.FromSlash(strings.Join(parts[:i], "/"))+".neff")
		if !exists(neffPath) {
			continue
		}
		want := strings.Join(parts[i:], "/")
		r, _ := RepoRoot()
		out := filepath.Join(r, ".cache", "realfiles", filepath.FromSlash(rel))
		extractMu.Lock()
		defer extractMu.Unlock()
		if exists(out) {
			return out, true
		}
		data, err := readMember(neffPath, want)
		if err != nil {
			return "", false
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return "", false
		}
		// Another test binary may extract the same member at the same time: write, then rename.
		tmp, err := os.CreateTemp(filepath.Dir(out), ".extract-*")
		if err != nil {
			return "", false
		}
		_, werr := tmp.Write(data)
		cerr := tmp.Close()
		if werr != nil || cerr != nil || os.Rename(tmp.Name(), out) != nil {
			os.Remove(tmp.Name())
			return "", false
		}
		return out, true
	}
	return "", false
}

// readMember reads one tar member of a NEFF with the standard library alone (this package
// must not import the decoder it helps to test).
func readMember(neffPath, want string) ([]byte, error) {
	var data []byte
	found := false
	err := eachMember(neffPath, func(name string, r io.Reader) error {
		if name != want || found {
			return nil
		}
		found = true
		var err error
		data, err = io.ReadAll(r)
		return err
	})
	if err == nil && !found {
		err = fmt.Errorf("no member %s", want)
	}
	return data, err
}

// eachMember calls fn with every regular member of the NEFF at neffPath.
func eachMember(neffPath string, fn func(name string, r io.Reader) error) error {
	b, err := os.ReadFile(neffPath)
	if err != nil {
		return err
	}
	if len(b) < neffHeaderSize {
		return errors.New("shorter than a NEFF header")
	}
	zr, err := gzip.NewReader(bytes.NewReader(b[neffHeaderSize:]))
	if err != nil {
		return err
	}
	zr.Multistream(false) // the zero padding after the gzip member is not another member
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		if err := fn(strings.TrimPrefix(h.Name, "./"), tr); err != nil {
			return err
		}
	}
}

// SpecFind returns the path of rel under <repo>/../shared/spec: the format specs' own fixtures
// and examples (libnrt's embedded fixture), which stay in the shared folder.
func SpecFind(rel string) (string, bool) {
	r, err := RepoRoot()
	if err != nil {
		return "", false
	}
	p := filepath.Join(filepath.Dir(r), "shared", "spec", filepath.FromSlash(path.Clean(rel)))
	return p, exists(p)
}

// Spec returns the path of the spec file rel, or skips t naming it.
func Spec(t testing.TB, rel string) string {
	t.Helper()
	p, ok := SpecFind(rel)
	if !ok {
		t.Skipf("spec file %s is not in ../shared/spec/ beside the clone (the format specs' fixtures stay there)", rel)
	}
	return p
}

// ReadDir returns the files of the real folder rel by name (e.g. "nkipy/matmul_small/sg00"):
// the shared folder's extracted copy, or else the members of the repository's NEFF under that
// path that such a copy holds (the JSON members and the activation-set blobs). It skips t
// naming what is missing.
func ReadDir(t testing.TB, rel string) map[string][]byte {
	t.Helper()
	rel = path.Clean(rel)
	out := map[string][]byte{}
	if d := SharedDir(); d != "" {
		dir := filepath.Join(d, filepath.FromSlash(rel))
		if ents, err := os.ReadDir(dir); err == nil {
			for _, e := range ents {
				if e.IsDir() {
					continue
				}
				b, err := os.ReadFile(filepath.Join(dir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				out[e.Name()] = b
			}
			return out
		}
	}
	parts := strings.Split(rel, "/")
	for i := len(parts) - 1; i >= 1; i-- {
		neffPath := filepath.Join(RepoDir(), filepath.FromSlash(strings.Join(parts[:i], "/"))+".neff")
		if RepoDir() == "" || !exists(neffPath) {
			continue
		}
		prefix := strings.Join(parts[i:], "/") + "/"
		err := eachMember(neffPath, func(name string, r io.Reader) error {
			base := strings.TrimPrefix(name, prefix)
			if base == name || strings.Contains(base, "/") ||
				!(strings.HasSuffix(base, ".json") || strings.HasSuffix(base, "_bkt.bin") || strings.HasSuffix(base, "_ctrl.bin")) {
				return nil
			}
			b, err := io.ReadAll(r)
			out[base] = b
			return err
		})
		if err != nil {
			t.Fatalf("%s: %v", neffPath, err)
		}
		if len(out) > 0 {
			return out
		}
	}
	t.Skip(Missing(rel + "/"))
	return nil
}
