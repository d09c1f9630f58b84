// Command testsummary is `make test`: it runs the test runners in lanes side by side (lanes.go)
// and counts what they ran, so the run ends with one line CI can read: `tests: N passed, N
// failed, N skipped in T (each runner's time)`, and exits non-zero on any failure.
//
//	testsummary all   -dir D [-make MAKE] [-alone=false]          every runner: make test
//	testsummary alone -dir D                                      the real-file tests without ../shared
//	testsummary go    -dir D -name NAME -- go test -json PKGS...  run go test, print its usual output
//	testsummary tap   -dir D -name NAME < output-of-node--test    pass node --test's output through
//	testsummary run   -dir D -name NAME -- CMD...                 run a step with no tests (vet), timed
//	testsummary total -dir D [-start UNIX]                        the closing line; exit 1 on a failure
//
// The Makefile's runner targets (test-core, test-wasm, test-browser) count themselves through
// `go`. `go`, `tap` and `run` write NAME.counts (and `go` NAME.json, the raw event stream) into D, with
// the runner's wall time; `total` adds up every NAME.counts there and ends with the counts, each
// runner's time and the whole run's (from -start). Every subcommand exits non-zero when its
// runner failed.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Counts is what one runner ran. Failed counts tests; Broken says the runner failed outside
// any test (a build error, a TestMain exit, a non-zero exit with no failed test).
type Counts struct {
	Runner  string  `json:"runner"`
	Passed  int     `json:"passed"`
	Failed  int     `json:"failed"`
	Skipped int     `json:"skipped"`
	Broken  string  `json:"broken,omitempty"`
	Seconds float64 `json:"seconds,omitempty"` // the runner's wall time
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	dir := fs.String("dir", ".cache/test", "folder for the counts and raw output")
	name := fs.String("name", "", "the runner's name (go, tap, run)")
	start := fs.Int64("start", 0, "total: when the whole run started (Unix seconds), for its wall time")
	mk := fs.String("make", "make", "all: the make that runs each runner's target")
	withAlone := fs.Bool("alone", true, "all: also run the tests that read real files in a copy of the tree without ../shared")
	fs.Parse(os.Args[2:])
	var err error
	switch os.Args[1] {
	case "all":
		err = runAll(*dir, plan(*mk, *withAlone), os.Stdout)
	case "alone":
		err = aloneRunner(*dir, "alone", os.Stdout)
	case "go":
		err = runGo(*dir, *name, fs.Args(), os.Stdout, os.Stderr)
	case "tap":
		err = runTAP(*dir, *name, os.Stdin, os.Stdout)
	case "run":
		err = runStep(*dir, *name, fs.Args(), os.Stdout, os.Stderr)
	case "total":
		var since time.Duration
		if *start > 0 {
			since = time.Since(time.Unix(*start, 0))
		}
		err = total(*dir, since, os.Stdout)
	default:
		usage()
	}
	if errors.Is(err, errFailed) {
		os.Exit(1) // the counts said so: the closing line stays the last one
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(1)
	}
}

var errFailed = errors.New("some tests failed")

func usage() {
	fmt.Fprintln(os.Stderr, "usage: testsummary all|alone|go|tap|run|total -dir DIR [-name NAME] [-start UNIX] [-make MAKE] [-alone=false] [-- CMD ...]")
	os.Exit(2)
}

func writeCounts(dir string, c Counts) error {
	if c.Runner == "" {
		return errors.New("-name is required")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, _ := json.Marshal(c)
	return os.WriteFile(filepath.Join(dir, c.Runner+".counts"), b, 0o644)
}

// failure turns a runner's counts into the error its subcommand exits with.
func failure(c Counts) error {
	switch {
	case c.Failed > 0 && c.Broken != "":
		return fmt.Errorf("%s: %d tests failed; %s", c.Runner, c.Failed, c.Broken)
	case c.Failed > 0:
		return fmt.Errorf("%s: %d tests failed", c.Runner, c.Failed)
	case c.Broken != "":
		return fmt.Errorf("%s: %s", c.Runner, c.Broken)
	}
	return nil
}

// runGo runs a `go test -json` command, keeps its event stream in dir/name.json and prints
// what plain `go test` prints (package lines, failed tests' output), plus each skip's reason.
func runGo(dir, name string, args []string, stdout, stderr io.Writer) error {
	return runGoIn(dir, name, "", args, stdout, stderr)
}

// runGoIn is runGo with the command run in workdir ("": the current directory).
func runGoIn(dir, name, workdir string, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("go: no command after --")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	raw, err := os.Create(filepath.Join(dir, name+".json"))
	if err != nil {
		return err
	}
	defer raw.Close()
	began := time.Now()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = workdir
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	c := readGoEvents(io.TeeReader(out, raw), stdout)
	c.Runner = name
	if werr := cmd.Wait(); werr != nil && c.Failed == 0 && c.Broken == "" {
		c.Broken = fmt.Sprintf("%s exited with %v", strings.Join(args, " "), werr)
	}
	c.Seconds = time.Since(began).Seconds()
	if err := writeCounts(dir, c); err != nil {
		return err
	}
	return failure(c)
}

// runStep runs a command that has no tests to count (go vet, tsc), passing its output through,
// and records its time and whether it failed.
func runStep(dir, name string, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("run: no command after --")
	}
	began := time.Now()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	c := Counts{Runner: name}
	if err := cmd.Run(); err != nil {
		c.Broken = fmt.Sprintf("%s exited with %v", strings.Join(args, " "), err)
	}
	c.Seconds = time.Since(began).Seconds()
	if err := writeCounts(dir, c); err != nil {
		return err
	}
	return failure(c)
}

// event is one line of `go test -json` (cmd/test2json), build events included.
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// readGoEvents prints the human output of a -json stream and counts its tests (subtests
// included, as each is a test that ran or was skipped).
func readGoEvents(r io.Reader, w io.Writer) Counts {
	var c Counts
	testOut := map[string][]string{} // package + test → its output lines
	pkgOut := map[string][]string{}
	var broken []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if json.Unmarshal(line, &e) != nil || e.Action == "" {
			fmt.Fprintf(w, "%s\n", line) // not an event: pass it on as it is
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "build-fail":
			broken = append(broken, "build failed: "+e.ImportPath)
		case "output":
			if e.Test != "" {
				testOut[key] = append(testOut[key], e.Output)
			} else {
				pkgOut[e.Package] = append(pkgOut[e.Package], e.Output)
			}
		case "pass", "fail", "skip":
			if e.Test == "" {
				printPackage(w, e.Action, pkgOut[e.Package])
				if e.Action == "fail" {
					broken = append(broken, "package "+e.Package+" failed")
				}
				delete(pkgOut, e.Package)
				continue
			}
			switch e.Action {
			case "pass":
				c.Passed++
			case "fail":
				c.Failed++
				for _, l := range testOut[key] {
					if !isProgress(l) {
						fmt.Fprint(w, l)
					}
				}
			case "skip":
				c.Skipped++
				for _, l := range testOut[key] {
					if !isProgress(l) {
						fmt.Fprint(w, l)
					}
				}
			}
			delete(testOut, key)
		}
	}
	if err := sc.Err(); err != nil {
		broken = append(broken, "reading go test's output: "+err.Error())
	}
	// A build error or a package that failed outside its tests (TestMain) fails the run even
	// when no test failed.
	if len(broken) > 0 {
		c.Broken = strings.Join(broken, "; ")
	}
	return c
}

func isProgress(l string) bool {
	for _, p := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// printPackage prints a package's own lines the way go test does: only the ok / no-test-files
// line when it passed, everything but progress lines when it failed.
func printPackage(w io.Writer, action string, lines []string) {
	for _, l := range lines {
		switch {
		case action == "fail" && !isProgress(l) && l != "PASS\n":
			fmt.Fprint(w, l)
		case strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "?  ") || strings.HasPrefix(l, "ok\t"):
			fmt.Fprint(w, l)
		}
	}
}

// TAP summary lines of node --test: "# pass 5" (TAP reporter) or "ℹ pass 5" (spec reporter).
var tapCount = regexp.MustCompile(`^(?:#|ℹ)\s+(tests|pass|fail|cancelled|skipped|todo)\s+(\d+)\s*$`)

// runTAP passes node --test's output through and counts its summary.
func runTAP(dir, name string, r io.Reader, w io.Writer) error {
	began := time.Now() // the pipe's writer starts with us: its time is ours
	c, err := countTAP(name, r, w)
	if err != nil {
		return err
	}
	c.Seconds = time.Since(began).Seconds()
	if err := writeCounts(dir, c); err != nil {
		return err
	}
	return failure(c)
}

// countTAP passes node --test's output through to w and counts its summary lines.
func countTAP(name string, r io.Reader, w io.Writer) (Counts, error) {
	c := Counts{Runner: name}
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(w, line)
		if m := tapCount.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			n, _ := strconv.Atoi(m[2])
			seen[m[1]] += n
		}
	}
	if err := sc.Err(); err != nil {
		return c, err
	}
	if _, ok := seen["tests"]; !ok {
		c.Broken = "no node --test summary in its output (it did not run to the end)"
	}
	c.Passed = seen["pass"]
	c.Failed = seen["fail"] + seen["cancelled"]
	c.Skipped = seen["skipped"] + seen["todo"]
	return c, nil
}

// total adds up every runner's counts and prints the closing line: the counts, the whole run's
// wall time (since, when known) and each runner's.
func total(dir string, since time.Duration, w io.Writer) error {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.counts"))
	if len(paths) == 0 {
		return fmt.Errorf("no test counts in %s: no runner ran", dir)
	}
	sort.Strings(paths)
	var sum Counts
	var broken, parts, times []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var c Counts
		if err := json.Unmarshal(b, &c); err != nil {
			return fmt.Errorf("%s: %v", p, err)
		}
		sum.Passed += c.Passed
		sum.Failed += c.Failed
		sum.Skipped += c.Skipped
		if c.Passed+c.Failed+c.Skipped > 0 { // a step (vet) counts no tests
			parts = append(parts, fmt.Sprintf("%s %d/%d/%d", c.Runner, c.Passed, c.Failed, c.Skipped))
		}
		if c.Seconds > 0 {
			times = append(times, c.Runner+" "+seconds(c.Seconds))
		}
		if c.Broken != "" {
			broken = append(broken, c.Runner+": "+c.Broken)
		}
	}
	fmt.Fprintf(w, "by runner (passed/failed/skipped): %s\n", strings.Join(parts, ", "))
	for _, b := range broken {
		fmt.Fprintln(w, "runner failed:", b)
	}
	took := ""
	if since > 0 {
		took = " in " + seconds(since.Seconds())
	}
	if len(times) > 0 {
		took += " (" + strings.Join(times, ", ") + ")"
	}
	fmt.Fprintf(w, "tests: %d passed, %d failed, %d skipped%s\n", sum.Passed, sum.Failed, sum.Skipped, took)
	if sum.Failed > 0 || len(broken) > 0 {
		return errFailed
	}
	return nil
}

// seconds writes a wall time as 7m05s or 42s.
func seconds(s float64) string {
	d := time.Duration(s+0.5) * time.Second
	if d < time.Minute {
		return fmt.Sprintf("%ds", int(d/time.Second))
	}
	return fmt.Sprintf("%dm%02ds", int(d/time.Minute), int(d%time.Minute/time.Second))
}
