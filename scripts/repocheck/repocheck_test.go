package repocheck

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// maxTracked is the largest file git may track outside testdata/real/ (1 MiB).
const maxTracked = 1 << 20

// gitRoot returns the top of the git checkout, or skips t saying why there is none.
func gitRoot(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: cannot list the tracked files")
	}
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git checkout (git rev-parse: %v): there are no tracked files to check", err)
	}
	return strings.TrimSpace(string(out))
}

func gitFiles(t *testing.T, root string, args ...string) []string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"ls-files", "-z"}, args...)...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files %v: %v\n%s", args, err, stderr.String())
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files
}

// TestNoLargeTrackedFiles: no file over 1 MiB is tracked outside testdata/real/ (a committed
// binary or generated NEFF bloats every clone for good).
func TestNoLargeTrackedFiles(t *testing.T) {
	root := gitRoot(t)
	files := gitFiles(t, root)
	if len(files) == 0 {
		t.Fatal("git ls-files lists nothing")
	}
	var big []string
	for _, f := range files {
		if strings.HasPrefix(f, "testdata/real/") {
			continue
		}
		fi, err := os.Lstat(filepath.Join(root, f))
		if err != nil {
			continue // deleted in the working tree: nothing to add
		}
		if fi.Mode().IsRegular() && fi.Size() > maxTracked {
			big = append(big, fmt.Sprintf("%s (%d bytes)", f, fi.Size()))
		}
	}
	if len(big) > 0 {
		t.Errorf("tracked files over 1 MiB outside testdata/real/ (git rm --cached them and add them to .gitignore, or generate them in the test):\n  %s", strings.Join(big, "\n  "))
	}
}

// TestNoTrackedBuildOutputs: nothing git tracks is something .gitignore says is a build output.
func TestNoTrackedBuildOutputs(t *testing.T) {
	root := gitRoot(t)
	if ignored := gitFiles(t, root, "--cached", "--ignored", "--exclude-standard"); len(ignored) > 0 {
		t.Errorf("tracked files that .gitignore ignores (build outputs; git rm --cached them): %v", ignored)
	}
}
