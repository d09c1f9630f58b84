// Package cachetest builds compile-cache trees for tests: a folder laid out as neuronx-cc
// lays out its cache, from the real HLO modules of the shared folder (copied into a test's
// temporary directory, never into the repository), and the same tree as a .tar, a .tar.gz
// and the objects of an S3 bucket.
package cachetest

import (
	"archive/tar"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// Compiler is the neuronx-cc version of the real modules (nki-moe PROVENANCE.md).
const Compiler = "2.23.6484.0+3b612583"

// Flags is the flags hash the four real profiles name (model.MODULE_<hash>+fad94d7c.neff).
const Flags = "fad94d7c"

// V6Module is the module whose NEFF is attn_v6.neff (spec ntff.md §8).
const V6Module = "17825228117791364669"

// Entry is one cache entry of a built tree.
type Entry struct {
	Hash string // the module hash
	Dir  string // the entry's directory
}

// RealTree lays out the eight real HLO modules as a cache under a new temporary directory:
// <root>/neuronxcc-<Compiler>/MODULE_<hash>+<Flags>/model.hlo_module.pb, with attn_v6.neff
// as model.neff (and model.done) beside its module. It skips t when the shared folder is
// not there.
func RealTree(t testing.TB) (root string, entries []Entry) {
	t.Helper()
	paths := realfiles.Glob("nki-moe/hlo/*.hlo_module.pb")
	if len(paths) != 8 {
		t.Skip(realfiles.Missing("nki-moe/hlo/*.hlo_module.pb"))
	}
	neff := realfiles.Path(t, "nki-moe/attn_v6.neff")
	root = filepath.Join(t.TempDir(), "cache")
	for _, p := range paths {
		base := strings.TrimSuffix(filepath.Base(p), ".hlo_module.pb")
		hash := base[strings.LastIndexByte(base, '_')+1:]
		dir := filepath.Join(root, "neuronxcc-"+Compiler, "MODULE_"+hash+"+"+Flags)
		Copy(t, p, filepath.Join(dir, "model.hlo_module.pb"))
		if hash == V6Module {
			Copy(t, neff, filepath.Join(dir, "model.neff"))
			Write(t, filepath.Join(dir, "model.done"), nil)
		}
		entries = append(entries, Entry{Hash: hash, Dir: dir})
	}
	return root, entries
}

// NEFFTree is RealTree with NEFFs in three entries: V6 holds attn_v6.neff (its own), Same
// holds attn_v6.neff too (the same program compiled twice) and Other matmul_small.neff
// (another program). Same and Other are the first two entries after V6's in name order.
type NEFFTree struct {
	Root            string
	Entries         []Entry
	V6, Same, Other string // the three entries' directories
}

// RealTreeWithNEFFs builds a NEFFTree; it skips t when the shared folder is not there.
func RealTreeWithNEFFs(t testing.TB) NEFFTree {
	t.Helper()
	var tr NEFFTree
	tr.Root, tr.Entries = RealTree(t)
	for _, e := range tr.Entries {
		switch {
		case e.Hash == V6Module:
			tr.V6 = e.Dir
		case tr.Same == "":
			tr.Same = e.Dir
		case tr.Other == "":
			tr.Other = e.Dir
		}
	}
	Copy(t, realfiles.Path(t, "nki-moe/attn_v6.neff"), filepath.Join(tr.Same, "model.neff"))
	Copy(t, realfiles.Path(t, "nkipy/matmul_small.neff"), filepath.Join(tr.Other, "model.neff"))
	return tr
}

// Copy copies a file, making the directories above dst.
func Copy(t testing.TB, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	Write(t, dst, b)
}

// Write writes b to p, making the directories above it.
func Write(t testing.TB, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// Files lists a tree's files by slash path below root, in name order.
func Files(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Tar writes the tree under root as a tar archive at dst (gzip'd when gz), its members named
// by their paths below root ("neuronxcc-…/MODULE_…/model.neff"), as `tar -C root -c .` does.
func Tar(t testing.TB, root, dst string, gz bool) {
	t.Helper()
	f, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var w io.Writer = f
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(f)
		w = zw
	}
	tw := tar.NewWriter(w)
	for _, rel := range Files(t, root) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: rel, Mode: 0o644, Size: int64(len(b)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
