package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/bigneff"
)

type realConfig struct {
	dir        string
	sizes      string
	weights    bool
	runs       int
	rssCap     int64
	timeout    time.Duration
	genOnly    bool
	cpuprofile string
}

// measure is one command's median wall time and largest peak RSS over its runs; killed says
// why a run was stopped (the RSS cap or the timeout), in which case the figures are lower bounds.
type measure struct {
	wall   time.Duration
	rss    int64
	killed string
	failed string // the exit status and the first line of stderr, when a run failed
}

// the native targets.
const rssTarget = 64 << 20

func runReal(c realConfig) {
	var paths []string
	for _, s := range strings.Split(c.sizes, ",") {
		mib, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || mib <= 0 {
			fail(fmt.Errorf("-sizes: %q is not a size in MiB", s))
		}
		start := time.Now()
		p, err := bigneff.Cached(c.dir, mib, c.weights)
		if err != nil {
			fail(err)
		}
		if d := time.Since(start); d > time.Second {
			fmt.Printf("generated %s in %.1f s\n", p, d.Seconds())
		}
		paths = append(paths, p)
	}
	if c.genOnly {
		return
	}
	if c.cpuprofile != "" {
		profileOpen(paths[0], c.cpuprofile)
		return
	}
	bin := filepath.Join(c.dir, "neffscope")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/neffscope").CombinedOutput(); err != nil {
		fail(fmt.Errorf("go build: %v\n%s", err, out))
	}
	type row struct {
		file, what, cmd string
		m               measure
		target, verdict string
	}
	var rows []row
	for _, p := range paths {
		payload := p + "-payload"
		if _, err := os.Stat(payload); err != nil {
			if err := copyFrom(p, payload, 1024); err != nil {
				fail(err)
			}
		}
		st, _ := os.Stat(p)
		name := fmt.Sprintf("%s (%.0f MB)", filepath.Base(p), float64(st.Size())/1e6)
		floor := c.run(1+c.runs/2, "bash", "-c", "gzip -dc "+payload+" 2>/dev/null | tar -t >/dev/null")
		info := c.run(c.runs, bin, "info", p)
		insp := c.run(c.runs, bin, "inspect", "--json", p)
		dis := c.run(c.runs, bin, "disasm", "--json", p)
		syn := c.run(c.runs, bin, "sync", "--json", p)
		mem := c.run(c.runs, bin, "memmap", "--json", p)
		verdict := func(ok bool, m measure) string {
			if m.killed != "" {
				return "MISS (" + m.killed + ")"
			}
			if m.failed != "" {
				return "FAILED (" + m.failed + ")"
			}
			if ok {
				return "PASS"
			}
			return "MISS"
		}
		rows = append(rows,
			row{name, "floor: `gzip -dc payload \\| tar -t`", "", floor, "", ""},
			row{name, "info", "info FILE", info, "≤ floor, RSS ≤ 64 MiB", verdict(info.wall <= floor.wall && info.rss <= rssTarget, info)},
			row{name, "inspect --json", "inspect --json FILE", insp, "RSS ≤ 64 MiB", verdict(insp.rss <= rssTarget, insp)},
			row{name, "disasm --json", "disasm --json FILE", dis, "≤ 4× info, RSS ≤ 64 MiB", verdict(dis.wall <= 4*info.wall && dis.rss <= rssTarget, dis)},
			row{name, "sync --json", "sync --json FILE", syn, "≤ 3× info, RSS ≤ 256 MiB (issue 28)", verdict(syn.wall <= 3*info.wall && syn.rss <= 256<<20, syn)},
			row{name, "memmap --json", "memmap --json FILE", mem, "≤ 3× info, RSS ≤ 256 MiB (issue 28)", verdict(mem.wall <= 3*info.wall && mem.rss <= 256<<20, mem)},
		)
		fmt.Printf("measured %s\n", name)
	}
	fmt.Printf("\nreal-shaped NEFFs (internal/bigneff v%d), median of %d runs, peak RSS from /proc/PID/status VmHWM polled every 50 ms; output to /dev/null\n\n", bigneff.Version, c.runs)
	fmt.Println("| file | command | median | × floor | peak RSS | target | verdict |")
	fmt.Println("|---|---|---:|---:|---:|---|---|")
	var floor time.Duration
	for _, r := range rows {
		if r.target == "" {
			floor = r.m.wall
		}
		rss := fmt.Sprintf("%.0f MiB", float64(r.m.rss)/(1<<20))
		if r.target == "" {
			rss = "—" // a pipeline of processes: not compared
		}
		fmt.Printf("| %s | %s | %.2f s | %.2f | %s | %s | %s |\n", r.file, r.what, r.m.wall.Seconds(), float64(r.m.wall)/float64(floor), rss, r.target, r.verdict)
	}
}

// run runs a command n times, output to /dev/null, each under the RSS cap and the timeout.
func (c realConfig) run(n int, name string, args ...string) measure {
	var times []time.Duration
	var m measure
	for range n {
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			fail(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), c.timeout)
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Stdout = null
		var stderr strings.Builder
		cmd.Stderr = &stderr
		start := time.Now()
		if err := cmd.Start(); err != nil {
			fail(err)
		}
		done := make(chan struct{})
		capped := make(chan int64, 1)
		var peak atomic.Int64
		go watchRSS(cmd.Process.Pid, c.rssCap, done, capped, cmd.Process, &peak)
		err = cmd.Wait()
		wall := time.Since(start)
		close(done)
		timedOut := ctx.Err() == context.DeadlineExceeded
		cancel()
		null.Close()
		times = append(times, wall)
		// Not wait4's ru_maxrss: a child forked from this process reports at least this
		// process's RSS at the fork (the generator's buffers), whatever it used after exec.
		m.rss = max(m.rss, peak.Load())
		select {
		case r := <-capped:
			m.killed = fmt.Sprintf("killed at %.0f MiB RSS after %.0f s", float64(r)/(1<<20), wall.Seconds())
		default:
			if timedOut {
				m.killed = fmt.Sprintf("killed after the %s timeout", c.timeout)
			}
		}
		if err != nil {
			if _, ok := err.(*exec.ExitError); !ok && m.killed == "" {
				fail(err)
			}
			// neffscope exits 1 when it printed an error finding; that is a result, not a
			// failure. Anything else (or no output at all) is reported.
			if line, _, _ := strings.Cut(stderr.String(), "\n"); m.killed == "" && (cmd.ProcessState.ExitCode() != 1 || line != "") {
				m.failed = fmt.Sprintf("exit %d: %s", cmd.ProcessState.ExitCode(), line)
			}
		}
		if m.killed != "" {
			// One killed run is enough to know; do not repeat it.
			m.wall = wall
			return m
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	m.wall = times[len(times)/2]
	return m
}

// watchRSS polls the process's (not its children's: bash -c's pipeline is never capped) RSS
// and kills it past limit.
func watchRSS(pid int, limit int64, done <-chan struct{}, capped chan<- int64, p *os.Process, peak *atomic.Int64) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if kb, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
				v, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
				peak.Store(max(peak.Load(), v*1024)) // the high-water mark since exec
			}
			if kb, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
				v, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
				if v*1024 > limit {
					capped <- v * 1024
					p.Kill()
					f.Close()
					return
				}
			}
		}
		f.Close()
	}
}

// profileOpen opens the file with the core as `info` does (the CLI's native budget) under a
// CPU profile.
func profileOpen(path, out string) {
	f, err := os.Open(path)
	if err != nil {
		fail(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := os.Create(out)
	if err != nil {
		fail(err)
	}
	if err := pprof.StartCPUProfile(pf); err != nil {
		fail(err)
	}
	start := time.Now()
	file := inspect.Open(filepath.Base(path), f, st.Size(), inspect.Options{DeferSource: true})
	pprof.StopCPUProfile()
	pf.Close()
	fmt.Printf("opened %s (%s) in %.2f s; profile in %s (go tool pprof -top %s)\n", path, file.Doc.Kind, time.Since(start).Seconds(), out, out)
}
