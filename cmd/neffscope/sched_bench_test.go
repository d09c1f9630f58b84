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
	p, err := bigneff.Cached("", 32, false)
	if err != nil {
		b.Skip(err)
	}
	var info, syncR, mem benchRun
	add := func(to *benchRun, r benchRun) {
		to.wall += r.wall
		to.cpu += r.cpu
		to.rssMiB = max(to.rssMiB, r.rssMiB)
	}
	for range b.N {
		add(&info, runChild(b, "info", p))
		add(&syncR, runChild(b, "sync", "--json", p))
		add(&mem, runChild(b, "memmap", "--json", p))
	}
	n := float64(b.N)
	for _, m := range []struct {
		name string
		r    benchRun
	}{{"info", info}, {"sync", syncR}, {"memmap", mem}} {
		b.ReportMetric(float64(m.r.wall.Milliseconds())/n, m.name+"-ms")
		b.ReportMetric(float64(m.r.cpu.Milliseconds())/n, m.name+"-cpu-ms")
		b.ReportMetric(float64(m.r.rssMiB), m.name+"-MiB")
	}
	b.ReportMetric(float64(syncR.wall)/float64(info.wall), "sync/info")
	b.ReportMetric(float64(mem.wall)/float64(info.wall), "memmap/info")
}
