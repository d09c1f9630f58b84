//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// writer is one command that writes a file: its arguments with the output path and --force
// (or not) filled in, and the input it reads.
type writer struct {
	name string
	args func(out string, force bool) []string
	// dir: the output is a directory holding table (export); the hostile path is the table.
	table string
}

func writers(t *testing.T) (neffPath string, ws []writer) {
	t.Helper()
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	dir := t.TempDir()
	neffPath = filepath.Join(dir, "in.neff")
	if err := os.WriteFile(neffPath, src, 0o644); err != nil {
		t.Fatal(err)
	}
	pt := ptWith(t, dir, src, "model.neff")
	force := func(f bool, a ...string) []string {
		if f {
			return append([]string{a[0], "--force"}, a[1:]...)
		}
		return a
	}
	ws = []writer{
		{name: "sync --trace", args: func(out string, f bool) []string {
			return force(f, "sync", "--trace", out, neffPath)
		}},
		{name: "scan --parquet", args: func(out string, f bool) []string {
			return force(f, "scan", "-q", "--parquet", out, neffPath)
		}},
		{name: "export --parquet", table: exportSyncEdges, args: func(out string, f bool) []string {
			return force(f, "export", "--parquet", filepath.Dir(out), neffPath)
		}},
		{name: "extract-neff -o", args: func(out string, f bool) []string {
			return force(f, "extract-neff", "-o", out, pt)
		}},
	}
	return neffPath, ws
}

// runBounded runs the CLI and fails the test when it does not return within a minute (a
// FIFO opened for writing or reading would block it for ever).
func runBounded(t *testing.T, args ...string) (string, int) {
	t.Helper()
	type res struct {
		errs string
		rc   int
	}
	done := make(chan res, 1)
	go func() {
		var out, errb bytes.Buffer
		rc := run(args, &out, &errb)
		done <- res{errb.String(), rc}
	}()
	select {
	case r := <-done:
		return r.errs, r.rc
	case <-time.After(time.Minute):
		t.Fatalf("%v blocked", args)
		return "", 0
	}
}

// outPath is where w writes inside a fresh directory.
func outPath(t *testing.T, w writer) string {
	if w.table != "" {
		return filepath.Join(t.TempDir(), w.table)
	}
	return filepath.Join(t.TempDir(), "out.bin")
}

// Every command that writes refuses, with its code and exit 2, what is at the output path:
// a file without --force, a symlink (to a file outside, or dangling) and a FIFO with or
// without it, a NEFF with it, the input it reads with it; nothing outside is touched.
func TestWritePathsRefuse(t *testing.T) {
	neffPath, ws := writers(t)
	for _, w := range ws {
		t.Run(w.name, func(t *testing.T) {
			// A regular file without --force.
			out := outPath(t, w)
			os.WriteFile(out, []byte("keep"), 0o644)
			errs, rc := runBounded(t, w.args(out, false)...)
			if rc != 2 || !strings.Contains(errs, "[output.exists]") {
				t.Errorf("existing file: rc %d %s", rc, errs)
			}
			if b, _ := os.ReadFile(out); string(b) != "keep" {
				t.Errorf("existing file changed: %q", b)
			}
			// A symlink planted at the output, to a file outside the directory.
			outside := filepath.Join(t.TempDir(), "victim")
			os.WriteFile(outside, []byte("victim"), 0o644)
			out = outPath(t, w)
			os.Symlink(outside, out)
			for _, f := range []bool{false, true} {
				errs, rc = runBounded(t, w.args(out, f)...)
				if rc != 2 || !strings.Contains(errs, "[output.symlink]") {
					t.Errorf("symlink (force %v): rc %d %s", f, rc, errs)
				}
			}
			if b, _ := os.ReadFile(outside); string(b) != "victim" {
				t.Errorf("written through a symlink: %q", b)
			}
			if fi, err := os.Lstat(out); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Error("the symlink was replaced")
			}
			// A dangling symlink: nothing is created where it points.
			out = outPath(t, w)
			target := filepath.Join(t.TempDir(), "created")
			os.Symlink(target, out)
			errs, rc = runBounded(t, w.args(out, true)...)
			if rc != 2 || !strings.Contains(errs, "[output.symlink]") {
				t.Errorf("dangling symlink: rc %d %s", rc, errs)
			}
			if _, err := os.Lstat(target); err == nil {
				t.Error("created a file through a dangling symlink")
			}
			// A FIFO: refused at once, not opened (which would block).
			out = outPath(t, w)
			if err := syscall.Mkfifo(out, 0o644); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			errs, rc = runBounded(t, w.args(out, true)...)
			if rc != 2 || !strings.Contains(errs, "[output.not-regular]") {
				t.Errorf("FIFO: rc %d %s", rc, errs)
			}
			// A NEFF, --force or not (extract-neff's output is a NEFF: --force replaces one).
			if w.name != "extract-neff -o" {
				out = outPath(t, w)
				src, _ := os.ReadFile(neffPath)
				os.WriteFile(out, src, 0o644)
				errs, rc = runBounded(t, w.args(out, true)...)
				if rc != 2 || !strings.Contains(errs, "[output.is-neff]") {
					t.Errorf("NEFF: rc %d %s", rc, errs)
				}
				if b, _ := os.ReadFile(out); !bytes.Equal(b, src) {
					t.Error("a NEFF was written over")
				}
			}
			// No temporary file is left beside any refused target.
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".*.tmp-*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// The input itself as the output, with --force: never written over.
func TestWritePathsNeverOverAnInput(t *testing.T) {
	neffPath, _ := writers(t)
	src, _ := os.ReadFile(neffPath)
	for _, args := range [][]string{
		{"sync", "--force", "--trace", neffPath, neffPath},
		{"scan", "-q", "--force", "--parquet", neffPath, neffPath},
	} {
		errs, rc := runBounded(t, args...)
		if rc != 2 || !strings.Contains(errs, "[output.is-input]") {
			t.Errorf("%v: rc %d %s", args, rc, errs)
		}
	}
	// A table that is also an input of export (a copy of the NEFF named like the table).
	dir := t.TempDir()
	tbl := filepath.Join(dir, exportInstructions)
	os.WriteFile(tbl, []byte("not a neff, but read"), 0o644)
	errs, rc := runBounded(t, "export", "--force", "--parquet", dir, neffPath, tbl)
	if rc != 2 || !strings.Contains(errs, "[output.is-input]") {
		t.Errorf("export over its input: rc %d %s", rc, errs)
	}
	if b, _ := os.ReadFile(neffPath); !bytes.Equal(b, src) {
		t.Fatal("the input was changed")
	}
}

// --force replaces a regular file, and what was written is whole; the old file is replaced
// by a rename, so a reader holding it open keeps the old bytes.
func TestWritePathsForceReplaces(t *testing.T) {
	_, ws := writers(t)
	for _, w := range ws {
		out := outPath(t, w)
		os.WriteFile(out, []byte("old"), 0o644)
		if errs, rc := runBounded(t, w.args(out, true)...); rc != 0 {
			t.Errorf("%s --force: rc %d %s", w.name, rc, errs)
			continue
		}
		if b, _ := os.ReadFile(out); len(b) < 8 || string(b) == "old" {
			t.Errorf("%s --force: %d bytes", w.name, len(b))
		}
	}
}

// export --force over three existing tables where the third is a planted symlink: refused
// before anything is written, and the two tables that existed are left as they were (the
// old code truncated them, then removed them as if it had made them).
func TestExportFailureLeavesTables(t *testing.T) {
	neffPath, _ := writers(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, exportInstructions), []byte("mine 1"), 0o644)
	os.WriteFile(filepath.Join(dir, exportSyncEdges), []byte("mine 2"), 0o644)
	os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), filepath.Join(dir, exportMemAccesses))
	errs, rc := runBounded(t, "export", "--force", "--parquet", dir, neffPath)
	if rc != 2 || !strings.Contains(errs, "[output.symlink]") {
		t.Fatalf("rc %d %s", rc, errs)
	}
	for name, want := range map[string]string{exportInstructions: "mine 1", exportSyncEdges: "mine 2"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(b) != want {
			t.Errorf("%s: %q %v", name, b, err)
		}
	}
}

// A write that fails halfway (abort) leaves the target as it was and removes only the
// temporary file; a commit that finds the target swapped for a symlink refuses it.
func TestOutputAbortAndSwap(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.json")
	os.WriteFile(target, []byte("before"), 0o644)
	o, err := createOutput(target, outputRules{force: true})
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("half of a new fi"))
	o.abort()
	if b, _ := os.ReadFile(target); string(b) != "before" {
		t.Errorf("target after abort: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left in the directory: %v", ents)
	}
	// Swapped for a symlink while written.
	o, err = createOutput(target, outputRules{force: true})
	if err != nil {
		t.Fatal(err)
	}
	o.Write([]byte("new"))
	victim := filepath.Join(t.TempDir(), "v")
	os.Remove(target)
	os.Symlink(victim, target)
	if err := o.commit(); err == nil || !strings.Contains(err.Error(), "output.symlink") {
		t.Errorf("commit over a swapped-in symlink: %v", err)
	}
	if _, err := os.Lstat(victim); err == nil {
		t.Error("written through the swapped-in symlink")
	}
	// Without --force, a file made while the output was written is not replaced.
	fresh := filepath.Join(dir, "fresh")
	o, _ = createOutput(fresh, outputRules{})
	o.Write([]byte("mine"))
	os.WriteFile(fresh, []byte("theirs"), 0o644)
	if err := o.commit(); err == nil {
		t.Error("commit replaced a file made meanwhile")
	}
	if b, _ := os.ReadFile(fresh); string(b) != "theirs" {
		t.Errorf("fresh: %q", b)
	}
}

// A FIFO as the input of every command that reads a file whole: refused at once.
func TestFIFOInputRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "x.neff")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, args := range [][]string{
		{"info", fifo}, {"inspect", fifo}, {"sync", fifo}, {"memmap", fifo}, {"disasm", fifo},
		{"extract", fifo, "neff.json"}, {"extract-neff", "--list", fifo},
	} {
		errs, rc := runBounded(t, args...)
		if rc == 0 || !strings.Contains(errs, "[input.not-regular]") {
			t.Errorf("%v: rc %d %s", args, rc, errs)
		}
	}
}
