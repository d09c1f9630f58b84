package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// TestMain lets a test run the CLI as a subprocess of the test binary itself
// (NEFFSCOPE_MAIN=1), so its peak RSS can be measured without building it.
func TestMain(m *testing.M) {
	if os.Getenv("NEFFSCOPE_MAIN") == "1" {
		tuneCollector()
		os.Exit(run(strings.Split(os.Getenv("NEFFSCOPE_ARGS"), "\x1f"), os.Stdout, os.Stderr))
	}
	if g := os.Getenv("NEFFSCOPE_GEN"); g != "" { // name, output path: a class, written by a child
		name, p, _ := strings.Cut(g, "\x1f")
		for _, h := range neffbuild.HostileClasses() {
			if h.Name == name {
				if err := os.WriteFile(p, h.Build(1), 0o644); err != nil {
					os.Exit(1)
				}
				os.Exit(0)
			}
		}
		os.Exit(2)
	}
	os.Exit(m.Run())
}

// runSub runs the CLI in a subprocess, its stdout written to stdout; it returns the exit code
// and the peak RSS in MiB. A child's ru_maxrss counts what its parent held when it forked, so
// the peak is taken by /usr/bin/time (small itself) where it exists.
func runSub(t *testing.T, stdout io.Writer, args ...string) (int, int64) {
	t.Helper()
	argv := []string{os.Args[0], "-test.run=^$"}
	timed := false
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		argv, timed = append([]string{"/usr/bin/time", "-f", "maxrss=%M"}, argv...), true
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "NEFFSCOPE_MAIN=1", "NEFFSCOPE_ARGS="+strings.Join(args, "\x1f"))
	var errb bytes.Buffer
	cmd.Stdout = stdout
	cmd.Stderr = &errb
	err := cmd.Run()
	rc := 0
	if ee, ok := err.(*exec.ExitError); ok {
		rc = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss >> 10 // KiB on Linux
	if timed {
		if i := strings.LastIndex(errb.String(), "maxrss="); i >= 0 {
			kb, _ := strconv.ParseInt(strings.TrimSpace(errb.String()[i+7:]), 10, 64)
			rss = kb >> 10
		}
	}
	return rc, rss
}

// spotter is a writer that notes whether what it was given holds want, keeping none of it (a
// hostile class's --json output is tens of MB).
type spotter struct {
	want  []byte
	tail  []byte // the last len(want)-1 bytes, for a want split across writes
	found bool
}

func (s *spotter) Write(p []byte) (int, error) {
	if !s.found {
		k := len(s.want) - 1
		edge := append(s.tail, p[:min(len(p), k)]...)
		s.found = bytes.Contains(edge, s.want) || bytes.Contains(p, s.want)
		s.tail = append(s.tail, p[len(p)-min(len(p), k):]...)
		s.tail = s.tail[len(s.tail)-min(len(s.tail), k):]
	}
	return len(p), nil
}

func writeClass(t *testing.T, dir, name string, scale float64) string {
	t.Helper()
	for _, h := range neffbuild.HostileClasses() {
		if h.Name == name {
			p := filepath.Join(dir, name+".neff")
			if err := os.WriteFile(p, h.Build(scale), 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	t.Fatalf("no class %s", name)
	return ""
}

// TestForgedNamesAreEscaped: member and model names carrying ESC/OSC/BEL/CR never reach the
// terminal raw in text output, and the forged line does not start a line of its own.
func TestForgedNamesAreEscaped(t *testing.T) {
	p := writeClass(t, t.TempDir(), "escapes", 1)
	for _, args := range [][]string{{"info", p}, {"inspect", p}} {
		out, errs, _ := runCLI(t, args...)
		for _, s := range []string{out, errs} {
			for i, c := range []byte(s) {
				if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
					t.Fatalf("%s: raw control byte 0x%02x at %d: %q", args[0], c, i, s[max(0, i-40):min(len(s), i+40)])
				}
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "all checks passed") {
				t.Fatalf("%s: a forged line stands alone: %q", args[0], line)
			}
		}
		if !strings.Contains(out, `\x1b`) {
			t.Fatalf("%s: the escape is not shown escaped", args[0])
		}
	}
	var b bytes.Buffer
	w := &termWriter{w: &b}
	w.Write([]byte("a\x1b]0;t\x07b\r\xc2"))
	w.Write([]byte("\x9b\xe2\x82"))
	w.Write([]byte("\xac ok\n"))
	w.Flush()
	if got, want := b.String(), `a\x1b]0;t\ab\r\u009b€ ok`+"\n"; got != want {
		t.Fatalf("termWriter: %q, want %q", got, want)
	}
	if safe("sg00/def.json") != "sg00/def.json" || safe("a\nb") != `"a\nb"` {
		t.Fatal("safe quotes only what needs it")
	}
}

// TestErrorFindingsExit1: inspect (like info) exits 1 when it printed an error finding.
func TestErrorFindingsExit1(t *testing.T) {
	p := writeClass(t, t.TempDir(), "huge-declared", 1)
	for _, cmd := range []string{"info", "inspect"} {
		out, _, rc := runCLI(t, cmd, p)
		if rc != 1 {
			t.Fatalf("%s: rc %d\n%s", cmd, rc, out)
		}
	}
	// The member's size is the problem; the complete gzip stream is not called cut short.
	if codes := infoCodes(t, p); codes[doc.CodeTarBadSize] == 0 || codes[doc.CodeNeffTruncated] != 0 {
		t.Fatalf("findings by code %v", codes)
	}
}

// TestHostileRSS runs the CLI on hostile classes at the full size, and ncfw/eval on a
// /dev/zero-like input, as subprocesses under the default budget: each stays ≤ 256 MiB RSS.
func TestHostileRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("builds MB-sized hostile NEFFs")
	}
	dir := t.TempDir()
	files := map[string]string{}
	// Written by a child, so this process stays small: a child's peak RSS counts what its
	// parent held when it was started.
	for _, c := range []string{"json-many", "json-wide", "json-deep", "many-members"} {
		files[c] = filepath.Join(dir, c+".neff")
		gen := exec.Command(os.Args[0], "-test.run=^$")
		gen.Env = append(os.Environ(), "NEFFSCOPE_GEN="+c+"\x1f"+files[c])
		if err := gen.Run(); err != nil {
			t.Fatalf("generating %s: %v", c, err)
		}
	}
	for c, p := range files {
		// The output is only looked through, not kept (tens of MB for inspect --json), for
		// many-members' budget.memory: the default memory limit stops that open at about
		// 55,000 members, so its peak is the limit's.
		for _, args := range [][]string{{"info", "--json", p}, {"inspect", "--json", p}} {
			out := &spotter{want: []byte(`"` + string(doc.CodeBudgetMemory) + `"`)}
			rc, rss := runSub(t, out, args...)
			t.Logf("%s %s: rc %d, peak RSS %d MiB, %s named: %v", c, args[0], rc, rss, doc.CodeBudgetMemory, out.found)
			if c == "many-members" && !out.found {
				t.Errorf("%s %s: no %s finding: the memory limit was not reached", c, args[0], doc.CodeBudgetMemory)
			}
			// Twice the 256 MiB memory limit: decoded structure plus the collector's headroom.
			if rss > 512 {
				t.Errorf("%s %s: peak RSS %d MiB > 512", c, args[0], rss)
			}
		}
	}
	// The sync and memory model's classes: each command that builds the model stays within
	// the memory limit (the sweep's bands, the clocks and resolve's counts are charged, and
	// sync --json writes its 300,000 lints one at a time: held, they took it to 388 MiB).
	for _, c := range []string{"sched-sweep-bands", "sched-dma-lanes", "sched-one-semaphore"} {
		p := filepath.Join(dir, c+".neff")
		gen := exec.Command(os.Args[0], "-test.run=^$")
		gen.Env = append(os.Environ(), "NEFFSCOPE_GEN="+c+"\x1f"+p)
		if err := gen.Run(); err != nil {
			t.Fatalf("generating %s: %v", c, err)
		}
		for _, args := range [][]string{{"memmap", "--json", p}, {"sync", p}, {"sync", "--json", p}} {
			rc, rss := runSub(t, io.Discard, args...)
			t.Logf("%s %v: rc %d, peak RSS %d MiB", c, args[:len(args)-1], rc, rss)
			if rss > 256 || rc == 2 {
				t.Errorf("%s %v: rc %d, peak RSS %d MiB > 256", c, args[:len(args)-1], rc, rss)
			}
		}
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		for _, args := range [][]string{{"ncfw", "--arch", "12", "/dev/zero"}, {"ncfw", "--read", "/dev/zero"}, {"eval", "--func", "exp", "/dev/zero", "0.5"}} {
			rc, rss := runSub(t, io.Discard, args...)
			t.Logf("%v: rc %d, peak RSS %d MiB", args, rc, rss)
			if rss > 128 {
				t.Errorf("%v: peak RSS %d MiB", args, rss)
			}
		}
	}
}
