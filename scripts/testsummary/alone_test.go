package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
)

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A test reaches real files directly, through a helper of a helper, through a package-level
// variable, or under another import name; a test that does none of these is not run alone.
func TestRealFileTests(t *testing.T) {
	root := t.TempDir()
	write(t, root, "core/x/a_test.go", `package x

import (
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

var files = realfiles.Glob("*/*.neff")

func open(t *testing.T) []byte { return realfiles.Read(t, "a.neff") }
func openTwice(t *testing.T) { open(t); open(t) }

func TestDirect(t *testing.T)  { realfiles.Path(t, "a.neff") }
func TestHelper(t *testing.T)  { openTwice(t) }
func TestVar(t *testing.T)     { _ = len(files) }
func TestNothing(t *testing.T) { _ = 1 + 1 }
`)
	write(t, root, "core/x/b_test.go", `package x_test

import (
	"testing"

	rf "github.com/neffscope/neffscope/internal/realfiles"
)

func TestAlias(t *testing.T) { rf.Has("a.neff") }
`)
	write(t, root, "core/y/y_test.go", "package y\n\nimport \"testing\"\n\nfunc TestY(t *testing.T) {}\n")
	write(t, root, "internal/realfiles/r_test.go", "package realfiles\n\nimport \"testing\"\n\nfunc TestOwn(t *testing.T) { RepoDir() }\n")
	write(t, root, "core/x/testdata/z_test.go", "package z\n\nimport \"github.com/neffscope/neffscope/internal/realfiles\"\n\nfunc TestIgnored() { realfiles.Has(\"\") }\n")
	got, err := realFileTests(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"core/x":             {"TestAlias", "TestDirect", "TestHelper", "TestVar"},
		"internal/realfiles": {"TestOwn"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("realFileTests = %v, want %v", got, want)
	}
	if p := runPattern(got); p != "^(TestAlias|TestDirect|TestHelper|TestOwn|TestVar)$" {
		t.Errorf("runPattern = %q", p)
	}
}

// The copy holds what a commit would: tracked files as edited, untracked ones git does not
// ignore; not ignored or deleted ones, and not what the copy held before.
func TestCopyWorkTree(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	root, dst := t.TempDir(), filepath.Join(t.TempDir(), "neffscope")
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	write(t, root, ".gitignore", "/dist/\n")
	write(t, root, "go.mod", "module m\n")
	write(t, root, "a/edited.go", "package a // committed\n")
	write(t, root, "a/deleted.go", "package a\n")
	git("add", ".")
	git("commit", "-q", "-m", "c")
	write(t, root, "a/edited.go", "package a // edited\n")
	os.Remove(filepath.Join(root, "a/deleted.go"))
	write(t, root, "a/new.go", "package a\n")
	write(t, root, "dist/out.js", "ignored")
	write(t, dst, "stale.txt", "from the last run")
	if err := copyWorkTree(root, dst); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dst, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	if want := []string{".gitignore", "a/edited.go", "a/new.go", "go.mod"}; !reflect.DeepEqual(got, want) {
		t.Errorf("copied %v, want %v", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "a/edited.go")); string(b) != "package a // edited\n" {
		t.Errorf("a/edited.go copied as %q", b)
	}
}
