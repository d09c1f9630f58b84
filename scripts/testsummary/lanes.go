package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// What `make test` runs, in three lanes side by side. The browser runner (make test-browser) is
// the longest and keeps about one core of two busy (Chromium's main thread and the worker's
// wasm), so it starts first at normal priority; the other two lanes run beside it at the lowest
// priority (nice 19: at nice 10 they stretched e2e, whose tests run one after another, by a
// minute), on what it leaves. Two niced lanes, so that when e2e is done neither core waits while
// the other runs a package's tests one by one: the core's tests (the longest after e2e) after
// vet, and the rest one after another. The foreground lane's output is printed as it comes; the
// other lanes' is held in DIR/NAME.log and printed after it, then the closing line.

// stepKind says how a step's tests are counted.
type stepKind int

const (
	// counted: a make target whose runners count themselves (testsummary go, in the Makefile).
	counted stepKind = iota
	// untested: a step with no tests (vet, typecheck), timed and failed as a runner.
	untested
	// tapOutput: node --test, its output's summary counted.
	tapOutput
)

type step struct {
	kind stepKind
	name string   // the runner's name (a counted step's runners name themselves)
	cmd  []string // the command
}

type lane struct {
	name  string
	nice  int  // the lane's commands run under nice -n this; 0: as they are
	held  bool // output held in DIR/name.log and printed after the foreground lane
	steps []step
}

// plan is make test's lanes, the first started first. withAlone adds the tests that read real
// files, run again as in a newcomer's clone, without ../shared (make test-alone, alone.go).
func plan(mk string, withAlone bool) []lane {
	m := func(target string) []string { return []string{mk, "--no-print-directory", target} }
	rest := lane{name: "rest", nice: 19, steps: []step{
		{kind: untested, name: "typecheck", cmd: m("typecheck")},
		{kind: counted, cmd: m("test-wasm")},
		{kind: tapOutput, name: "js", cmd: m("test-js")},
	}}
	if withAlone {
		rest.steps = append(rest.steps, step{kind: counted, cmd: m("test-alone")})
	}
	return []lane{
		{name: "e2e", held: true, steps: []step{{kind: counted, cmd: m("test-browser")}}},
		{name: "core-lane", nice: 19, held: true, steps: []step{
			{kind: untested, name: "vet", cmd: m("vet")},
			{kind: counted, cmd: m("test-core")},
		}},
		rest,
	}
}

// runAll runs every lane (each step even when one before it failed) and ends with total's line.
// It returns errFailed when any step failed.
func runAll(dir string, lanes []lane, stdout io.Writer) error {
	for _, pat := range []string{"*.counts", "*.json", "*.log"} {
		old, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, p := range old {
			os.Remove(p)
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	start := time.Now()
	failed := make([]bool, len(lanes))
	var wg sync.WaitGroup
	var logs []string
	for i, l := range lanes {
		if !l.held {
			continue
		}
		log := filepath.Join(dir, l.name+".log")
		f, err := os.Create(log)
		if err != nil {
			return err
		}
		logs = append(logs, log)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer f.Close()
			failed[i] = !l.run(dir, f)
		}()
	}
	for i, l := range lanes {
		if !l.held {
			failed[i] = !l.run(dir, stdout)
		}
	}
	wg.Wait()
	for _, log := range logs {
		if b, err := os.ReadFile(log); err == nil {
			stdout.Write(b)
		}
	}
	err := total(dir, time.Since(start), stdout)
	for _, f := range failed {
		if f && err == nil {
			err = errFailed
		}
	}
	return err
}

// run runs the lane's steps one after another and reports whether all passed.
func (l lane) run(dir string, out io.Writer) bool {
	ok := true
	for _, s := range l.steps {
		if err := s.run(dir, l.nice, out); err != nil {
			ok = false
			if !errors.Is(err, errFailed) {
				fmt.Fprintln(out, "testsummary:", err)
			}
		}
	}
	return ok
}

func (s step) run(dir string, nice int, out io.Writer) error {
	cmd := s.cmd
	if nice != 0 && len(cmd) > 0 {
		cmd = append([]string{"nice", "-n", strconv.Itoa(nice)}, cmd...)
	}
	switch s.kind {
	case counted:
		c := exec.Command(cmd[0], cmd[1:]...)
		c.Stdout, c.Stderr = out, out
		return c.Run()
	case untested:
		return runStep(dir, s.name, cmd, out, out)
	case tapOutput:
		return runTAPCommand(dir, s.name, cmd, out)
	}
	return fmt.Errorf("step %s: unknown kind %d", s.name, s.kind)
}

// runTAPCommand runs node --test (or a make target that does) and counts its output; a command
// that fails with no failed test counted fails the runner too.
func runTAPCommand(dir, name string, args []string, out io.Writer) error {
	began := time.Now()
	pr, pw := io.Pipe()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = pw, pw
	var c Counts
	if err := cmd.Start(); err != nil {
		c = Counts{Runner: name, Broken: err.Error()}
	} else {
		werr := make(chan error, 1)
		go func() {
			werr <- cmd.Wait()
			pw.Close()
		}()
		var err error
		c, err = countTAP(name, pr, out)
		io.Copy(io.Discard, pr) // let the command end if the count stopped early
		if w := <-werr; w != nil && c.Failed == 0 && c.Broken == "" {
			c.Broken = fmt.Sprintf("%s exited with %v", strings.Join(args, " "), w)
		}
		if err != nil && c.Broken == "" {
			c.Broken = "reading its output: " + err.Error()
		}
	}
	c.Seconds = time.Since(began).Seconds()
	if err := writeCounts(dir, c); err != nil {
		return err
	}
	return failure(c)
}
