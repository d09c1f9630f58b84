package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// A newcomer's clone has no ../shared beside it, and a test that needs a file only
// ../shared/testdata-real holds must skip there, not fail. The main runners run with ../shared
// (CI has it), so the alone runner runs again, in a copy of the working tree with nothing
// beside it, the Go tests that reach internal/realfiles: the only ones whose outcome depends on
// ../shared. Not the browser suite: e2e needs the page built and a Chromium of its own, which
// would add minutes to every run.

// realfilesPkg is the import path whose users the alone runner runs.
const realfilesPkg = "github.com/neffscope/neffscope/internal/realfiles"

// aloneRunner copies the tree and runs the tests there; where ../shared is not beside the
// repository it runs nothing (every runner before it already ran as a newcomer's clone does).
func aloneRunner(dir, name string, out io.Writer) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if st, err := os.Stat(filepath.Join(root, "..", "shared", "testdata-real")); err != nil || !st.IsDir() {
		fmt.Fprintf(out, "%s: not run: ../shared/testdata-real is not beside this clone, so the other runners ran as a newcomer's clone does\n", name)
		return nil
	}
	copyDir := aloneDir(root)
	broken := func(err error) error {
		c := Counts{Runner: name, Broken: err.Error()}
		if werr := writeCounts(dir, c); werr != nil {
			return werr
		}
		return failure(c)
	}
	if err := copyWorkTree(root, copyDir); err != nil {
		return broken(fmt.Errorf("copying the tree to %s: %v", copyDir, err))
	}
	tests, err := realFileTests(copyDir)
	if err != nil {
		return broken(err)
	}
	delete(tests, "e2e")
	native, err := nativePackages(copyDir)
	if err != nil {
		return broken(err)
	}
	for d := range tests {
		if !native[d] {
			delete(tests, d) // wasm/: js-only, the Node runner's
		}
	}
	args := []string{"go", "test", "-json", "-trimpath", "-timeout", "30m", "-run", runPattern(tests)}
	for _, d := range sortedKeys(tests) {
		args = append(args, "./"+d)
	}
	fmt.Fprintf(out, "%s: the tests that read real files, in %s (no ../shared beside it)\n", name, copyDir)
	return runGoIn(dir, name, copyDir, args, out, out)
}

// aloneDir is where the copy of root goes: a folder of the system's temporary directory named
// after root (so two clones do not share it, and a run reuses the build cache of the last),
// holding only the copy. Outside the repository, so no git command in it finds the
// repository's .git.
func aloneDir(root string) string {
	h := sha256.Sum256([]byte(root))
	return filepath.Join(os.TempDir(), "neffscope-alone-"+hex.EncodeToString(h[:4]), "neffscope")
}

// copyWorkTree replaces dst with the files of root that a commit would hold now: git's tracked
// files as they are in the working tree (deleted ones left out) and the untracked ones it does
// not ignore.
func copyWorkTree(root, dst string) error {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	list, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git ls-files: %v", err)
	}
	if err := os.RemoveAll(dst); err != nil {
		return err
	}
	for _, rel := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		if rel == "" {
			continue
		}
		src := filepath.Join(root, filepath.FromSlash(rel))
		st, err := os.Lstat(src)
		if err != nil || st.IsDir() {
			continue // deleted in the working tree, or a submodule
		}
		to := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(src)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, to); err != nil {
				return err
			}
			continue
		}
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, b, st.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}

// nativePackages are the folders (relative to root, slash-separated) of the packages that build
// for this machine.
func nativePackages(root string) (map[string]bool, error) {
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", "./...")
	cmd.Dir = root
	b, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v", err)
	}
	out := map[string]bool{}
	for _, d := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if rel, err := filepath.Rel(root, d); err == nil {
			out[filepath.ToSlash(rel)] = true
		}
	}
	return out, nil
}

// realFileTests finds, in every package folder under root (relative, slash-separated), the
// tests that reach internal/realfiles: a Test function of its _test.go files that names the
// package, or names a function or package-level variable of those files that does, at any
// depth. Names are matched within the folder, so a test may be picked that does not need it,
// never one missed that calls the package through its own test helpers.
func realFileTests(root string) (map[string][]string, error) {
	tests := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		names, err := folderRealFileTests(p)
		if err != nil {
			return err
		}
		if len(names) > 0 {
			rel, _ := filepath.Rel(root, p)
			tests[filepath.ToSlash(rel)] = names
		}
		return nil
	})
	return tests, err
}

// folderRealFileTests is realFileTests for the _test.go files of one folder.
func folderRealFileTests(dir string) ([]string, error) {
	paths, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	refs := map[string]map[string]bool{} // a top-level name → the names its declaration uses
	reaches := map[string]bool{}
	fset := token.NewFileSet()
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		local := "" // the name the file gives internal/realfiles
		for _, im := range f.Imports {
			if path, _ := strconv.Unquote(im.Path.Value); path == realfilesPkg {
				local = "realfiles"
				if im.Name != nil {
					local = im.Name.Name
				}
			}
		}
		// The package's own tests reach it whatever they call.
		ownTests := strings.TrimSuffix(f.Name.Name, "_test") == path.Base(realfilesPkg)
		for _, decl := range f.Decls {
			for _, name := range declNames(decl) {
				used := refs[name]
				if used == nil {
					used = map[string]bool{}
					refs[name] = used
				}
				ast.Inspect(decl, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						used[id.Name] = true
						if local != "" && id.Name == local || ownTests {
							reaches[name] = true
						}
					}
					return true
				})
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for name, used := range refs {
			if reaches[name] {
				continue
			}
			for u := range used {
				if reaches[u] && u != name {
					reaches[name] = true
					changed = true
					break
				}
			}
		}
	}
	var out []string
	for name := range reaches {
		if strings.HasPrefix(name, "Test") && name != "TestMain" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out, nil
}

// declNames are the top-level names a declaration makes: a function's (a method's, by its own
// name), or each variable's and constant's.
func declNames(decl ast.Decl) []string {
	switch d := decl.(type) {
	case *ast.FuncDecl:
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			if v, ok := s.(*ast.ValueSpec); ok {
				for _, n := range v.Names {
					names = append(names, n.Name)
				}
			}
		}
		return names
	}
	return nil
}

// runPattern is go test's -run pattern naming every test of tests.
func runPattern(tests map[string][]string) string {
	seen := map[string]bool{}
	var names []string
	for _, ts := range tests {
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				names = append(names, t)
			}
		}
	}
	sort.Strings(names)
	return "^(" + strings.Join(names, "|") + ")$"
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
