//go:build linux

package pwp

import (
	"runtime"
	"syscall"
	"testing"
)

// threadCPU returns the CPU time consumed by the calling OS thread, so a benchmark on a busy
// machine can report evaluations per CPU-second besides the wall-clock figure.
func threadCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func BenchmarkEvaluateExpCPU(b *testing.B) {
	f := realFn(b, "exp_and_others", "exp")
	xs := benchInputs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	start := threadCPU()
	for i := 0; i < b.N; i++ {
		y, _ := f.Evaluate(xs[i&4095])
		sinkY += y
	}
	if cpu := threadCPU() - start; cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu/1e6, "Meval/cpu-s")
	}
}
