package main

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/neffscope/neffscope/internal/bigneff"
)

// benchRun is one command's run in a child process (the test binary itself, NEFFSCOPE_MAIN:
// see TestMain), its output discarded.
type benchRun struct {
	wall, cpu time.Duration
	rssMiB    int64
}

func runChild(b *testing.B, args ...string) benchRun {
	b.Helper()
	argv := []string{os.Args[0], "-test.run=^$", "-test.bench=^$"}
	timed := false
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		argv, timed = append([]string{"/usr/bin/time", "-f", "maxrss=%M"}, argv...), true
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "NEFFSCOPE_MAIN=1", "NEFFSCOPE_ARGS="+strings.Join(args, "\x1f"))
	cmd.Stdout = io.Discard
	var errb strings.Builder
	cmd.Stderr = &errb
	start := time.Now()
	err := cmd.Run()
	r := benchRun{wall: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 || err != nil && !ok {
		b.Fatalf("%v: %v\n%s", args, err, errb.String())
	}
	r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	r.rssMiB = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss >> 10
	if i := strings.LastIndex(errb.String(), "maxrss="); timed && i >= 0 {
		kb, _ := strconv.ParseInt(strings.TrimSpace(errb.String()[i+7:]), 10, 64)
		r.rssMiB = kb >> 10
	}
	return r
}

// BenchmarkSyncMemmapRealShaped runs info, sync --json and memmap --json back to back, each
// in its own process, on the 32 MiB real-shaped NEFF (internal/bigneff: 1.8 M words) and
// reports wall and CPU time, peak RSS and the ratios the model is held to (sync and memmap each at
// most 3× info's wall time and at most 256 MiB).
func BenchmarkSyncMemmapRealShaped(b *testing.B) {
	benchAgainstInfo(b, benchCmd{"sync", []string{"sync", "--json"}}, benchCmd{"memmap", []string{"memmap", "--json"}})
}

// BenchmarkTimelineRealShaped runs info and timeline --json (the estimate of every core,
// streamed) back to back on the 32 MiB real-shaped NEFF, and reports the same figures and the
// ratio the estimate is held to (at most 3× info's wall time and 256 MiB).
func BenchmarkTimelineRealShaped(b *testing.B) {
	benchAgainstInfo(b, benchCmd{"timeline", []string{"timeline", "--json"}})
}

// benchCmd is a command a benchmark runs on the real-shaped NEFF (its path appended), and the
// name its metrics carry.
type benchCmd struct {
	name string
	args []string
}

// benchAgainstInfo runs info and each command back to back, each in its own process, on the 32
// MiB real-shaped NEFF, and reports each one's wall and CPU time and peak RSS and its wall time
// over info's (name/info).
func benchAgainstInfo(b *testing.B, cmds ...benchCmd) {
	p, err := bigneff.Cached("", 32, false)
	if err != nil {
		b.Skip(err)
	}
	all := append([]benchCmd{{"info", []string{"info"}}}, cmds...)
	runs := make([]benchRun, len(all))
	for range b.N {
		for k, c := range all {
			r := runChild(b, append(append([]string(nil), c.args...), p)...)
			runs[k].wall += r.wall
			runs[k].cpu += r.cpu
			runs[k].rssMiB = max(runs[k].rssMiB, r.rssMiB)
		}
	}
	n := float64(b.N)
	for k, c := range all {
		b.ReportMetric(float64(runs[k].wall.Milliseconds())/n, c.name+"-ms")
		b.ReportMetric(float64(runs[k].cpu.Milliseconds())/n, c.name+"-cpu-ms")
		b.ReportMetric(float64(runs[k].rssMiB), c.name+"-MiB")
		if k > 0 {
			b.ReportMetric(float64(runs[k].wall)/float64(runs[0].wall), c.name+"/info")
		}
	}
}
