// Command benchneff measures `neffscope info` on a generated 256 MiB NEFF against the
// `gzip -dc PAYLOAD | tar -t` pipeline on the same bytes, and neffscope's peak RSS
// (the goal: time ≤ the pipeline's, peak RSS ≤ 64 MiB). `make bench` runs it.
//
// With -shape real it measures real-shaped NEFFs instead (internal/bigneff: matmul_small's
// streams and debug info scaled, tens of MB of def.json and debug-info JSON), one per size of
// -sizes: `info`, `inspect --json` and `disasm --json` against the same floor, in one table
// with their targets (see real.go).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

func main() {
	sizeMiB := flag.Int("mib", 256, "size of the weights in the generated NEFF, MiB")
	dir := flag.String("dir", "testdata/gen", "where generated files are kept (git-ignored)")
	runs := flag.Int("runs", 5, "timed runs of each command (the median is reported)")
	shape := flag.String("shape", "weights", "weights: one NEFF whose bulk is weights (-mib); real: real-shaped NEFFs (-sizes)")
	sizes := flag.String("sizes", "32,256,1024", "with -shape real: file sizes in MiB")
	withWeights := flag.Bool("weights", false, "with -shape real: half of each file is weights")
	rssCap := flag.Int("rss-cap", 4096, "with -shape real: kill a command whose RSS passes this many MiB (the machine is shared)")
	timeout := flag.Duration("timeout", 5*time.Minute, "with -shape real: kill a command running longer")
	genOnly := flag.Bool("gen-only", false, "with -shape real: generate the files and stop")
	cpuprofile := flag.String("cpuprofile", "", "with -shape real: write a CPU profile of the core's open (what info does) of the first size's file here, and stop")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fail(err)
	}
	if *shape == "real" {
		runReal(realConfig{dir: *dir, sizes: *sizes, weights: *withWeights, runs: *runs, rssCap: int64(*rssCap) << 20, timeout: *timeout, genOnly: *genOnly, cpuprofile: *cpuprofile})
		return
	}
	neffPath := filepath.Join(*dir, fmt.Sprintf("bench-%dmib.neff", *sizeMiB))
	if _, err := os.Stat(neffPath); err != nil {
		fmt.Printf("generating %s ...\n", neffPath)
		if err := generate(neffPath, int64(*sizeMiB)<<20); err != nil {
			fail(err)
		}
	}
	payload := neffPath + "-payload"
	if _, err := os.Stat(payload); err != nil {
		if err := copyFrom(neffPath, payload, 1024); err != nil {
			fail(err)
		}
	}
	bin := filepath.Join(*dir, "neffscope")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/neffscope").CombinedOutput(); err != nil {
		fail(fmt.Errorf("go build: %v\n%s", err, out))
	}
	st, _ := os.Stat(neffPath)
	fmt.Printf("file: %s (%d bytes)\n", neffPath, st.Size())
	ours, rss := timeIt(*runs, bin, "info", neffPath)
	theirs, _ := timeIt(*runs, "bash", "-c", "gzip -dc "+payload+" 2>/dev/null | tar -t >/dev/null")
	fmt.Printf("neffscope info              median %7.1f ms   peak RSS %5.1f MiB\n", ms(ours), float64(rss)/(1<<20))
	fmt.Printf("gzip -dc payload | tar -t   median %7.1f ms\n", ms(theirs))
	fmt.Printf("ratio neffscope/pipeline: %.2f (goal <= 1.00); peak RSS goal <= 64 MiB\n", float64(ours)/float64(theirs))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// timeIt runs a command n times and returns the median wall time and the largest peak RSS.
func timeIt(n int, name string, args ...string) (time.Duration, int64) {
	var times []time.Duration
	var peak int64
	for range n {
		cmd := exec.Command(name, args...)
		cmd.Stdout = io.Discard
		start := time.Now()
		if err := cmd.Run(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				fail(err)
			}
		}
		times = append(times, time.Since(start))
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			peak = max(peak, ru.Maxrss*1024)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2], peak
}

// generate writes a NEFF whose bulk is weight-like members: bf16 values of a narrow range,
// which gzip compresses about as well as real weights (~20%), plus the usual JSON manifests.
func generate(path string, weights int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	members := neffbuild.Sample()
	const parts = 4
	for i := range parts {
		members = append(members, neffbuild.Member{
			Path:   fmt.Sprintf("sg00/value_sg0000_weight_%d_CRSM.npy", i),
			Reader: &weightReader{r: rand.New(rand.NewPCG(uint64(i), 7))},
			Size:   weights / parts,
		})
	}
	bw := &seekBuf{f: f, w: bufio.NewWriterSize(f, 1<<20)}
	if err := neffbuild.Write(bw, members, neffbuild.Options{}); err != nil {
		return err
	}
	return bw.w.Flush()
}

type weightReader struct{ r *rand.Rand }

func (w *weightReader) Read(p []byte) (int, error) {
	for i := 0; i+1 < len(p); i += 2 {
		// bf16 around N(0, 0.02): sign, exponent near 0x79..0x7b, 7 random mantissa bits.
		v := uint16(0x3c00) + uint16(w.r.IntN(0x300))
		if w.r.IntN(2) == 1 {
			v |= 0x8000
		}
		p[i], p[i+1] = byte(v), byte(v>>8)
	}
	return len(p) &^ 1, nil
}

// seekBuf buffers writes and flushes before a seek (neffbuild rewrites the header at the end).
type seekBuf struct {
	f *os.File
	w *bufio.Writer
}

func (s *seekBuf) Write(p []byte) (int, error) { return s.w.Write(p) }
func (s *seekBuf) Seek(off int64, whence int) (int64, error) {
	if err := s.w.Flush(); err != nil {
		return 0, err
	}
	return s.f.Seek(off, whence)
}

func copyFrom(src, dst string, off int64) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	defer out.Close()
	if _, err := in.Seek(off, io.SeekStart); err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	return err
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchneff:", err)
	os.Exit(1)
}
