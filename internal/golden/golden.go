// Package golden pins a function's whole output in tests where the output is too big to keep
// in the repository (the answers on the shared real files): each case is kept as its title,
// SHA-256 and length, one line each, so a refactor that changes any byte of any case fails
// and says which case.
package golden

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// SharedNEFFs is the path of every real NEFF, or skips the test when the shared folder is not
// beside the clone: the sums are those of the shared NEFFs, which a clone alone lacks.
func SharedNEFFs(t testing.TB) []string {
	t.Helper()
	if realfiles.SharedDir() == "" {
		t.Skip(realfiles.Missing("*/*.neff") + " (the golden sums are those of the shared NEFFs)")
	}
	return realfiles.NEFFs(t)
}

// update is its own flag, not -update: a package's tests may have an -update of their own.
var update = flag.Bool("update-sums", false, "rewrite the golden sums files (internal/golden)")

// Sums is the list of cases a test has seen, in order.
type Sums struct{ lines []string }

// Add records one case's output under its title (titles are one line each).
func (s *Sums) Add(title string, out []byte) {
	s.lines = append(s.lines, fmt.Sprintf("%s\tsha256:%x\t%d bytes", title, sha256.Sum256(out), len(out)))
}

// Check compares the cases with the file at path, or writes it first with -update-sums. A
// missing file is an error that says how to make it.
func (s *Sums) Check(t testing.TB, path string) {
	s.check(t, path, *update)
}

func (s *Sums) check(t testing.TB, path string, update bool) {
	t.Helper()
	got := strings.Join(s.lines, "\n") + "\n"
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update-sums)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, l := range s.lines {
		switch {
		case i >= len(want):
			t.Errorf("%s: a case it does not hold: %s", path, l)
		case l != want[i]:
			t.Errorf("%s line %d:\n got %s\nwant %s", path, i+1, l, want[i])
		}
	}
	if len(want) > len(s.lines) {
		t.Errorf("%s holds %d cases, the test made %d", path, len(want), len(s.lines))
	}
	if t.Failed() {
		t.Log("if the change is intended, rerun with -update-sums and say why in the commit")
	}
}
