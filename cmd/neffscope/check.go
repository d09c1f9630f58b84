package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

func init() {
	commands["check"] = command{"the verdict per FILE (hash, runtime, errors, sync and memory lints), as a CI gate: exit 0 sound, 1 not, 3 not decided", runCheck}
}

// Exit codes of check: the gate a CI job runs.
const (
	checkSound   = 0 // every check of every FILE passed
	checkFailed  = 1 // a check of some FILE failed
	checkTrouble = 2 // bad usage, or a FILE that cannot be opened
	checkOpen    = 3 // nothing failed, but a check of some FILE is undecided
)

// The gate is a command of its own rather than an exit code of info: deciding the memory
// check builds the memory model (every SBUF/PSUM access placed and swept), which can take
// longer than the open itself, and info stays the cheap look it is (its exit code already
// means "an error finding was printed", which scripts rely on).

// checkJSON is check --json's contract: one entry per FILE, its verdict and every check.
type checkJSON struct {
	Files []checkFileJSON `json:"files"`
}

type checkFileJSON struct {
	File    string          `json:"file"`
	Verdict string          `json:"verdict"` // pass, fail, open (inspect.Verdict*)
	Summary string          `json:"summary"`
	Checks  []checkItemJSON `json:"checks"`
}

type checkItemJSON struct {
	Check  string   `json:"check"` // integrity, runtime, errors, sync, memory (inspect.Check*)
	State  string   `json:"state"` // pass, fail, undecided
	Value  string   `json:"value"`
	Detail string   `json:"detail"`
	Codes  []string `json:"codes"` // what failed or is undecided, as `neffscope codes` lists them
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print one JSON object: per FILE, its verdict and each check's state, value and codes")
	allowUndecided := fs.Bool("allow-undecided", false, "exit 0, not 3, when nothing failed but a check is undecided")
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: neffscope check [--json] [--allow-undecided] FILE...

Decides, for each FILE, the verdict the overview shows first: the payload against the
header's hash, whether libnrt 2.31 would load the container, the file's own error findings,
and the lints of the sync model (deadlocks, waits nothing satisfies) and of the memory model
(SBUF/PSUM races, accesses out of bounds). A check is undecided when the model could not
follow all of the file (raw modes, collectives, operands it cannot place) or a limit stopped
the read: "no lint" there does not mean "no defect". It builds both models, so it can take
longer than info, which leaves them out.

Exit status (the worst over the files):
  0  every check of every FILE passed
  1  a check failed (hash mismatch, runtime refuses, an error finding, a sync or memory lint)
  2  bad usage, or a FILE could not be opened
  3  nothing failed, but a check is undecided (0 with --allow-undecided)
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return checkTrouble
	}
	var out checkJSON
	rc := checkSound
	shared := commandBudget()
	for _, p := range fs.Args() {
		f, fh, err := openFile(p, inspect.Options{MaxInflated: *maxInflate, DeferSource: true, Within: shared})
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			rc = worseCheck(rc, checkTrouble)
			continue
		}
		m := f.Memmap()
		mapSource(f) // the .dbg members are checked too: their errors count
		relayLimits(stderr, f, *asJSON)
		v := inspect.Verdict(f, m, true)
		fh.Close()
		f.Budget.Done() // the next file's open has the whole command budget again
		j := checkFile(f.Name, v)
		out.Files = append(out.Files, j)
		switch j.Verdict {
		case inspect.VerdictFail:
			rc = worseCheck(rc, checkFailed)
		case inspect.VerdictOpen:
			if !*allowUndecided {
				rc = worseCheck(rc, checkOpen)
			}
		}
		if !*asJSON {
			printCheck(stdout, j)
		}
	}
	if *asJSON {
		if out.Files == nil {
			out.Files = []checkFileJSON{}
		}
		bw := bufio.NewWriter(jsonStdout(stdout))
		b, _ := json.MarshalIndent(out, "", " ")
		bw.Write(b)
		bw.WriteByte('\n')
		bw.Flush()
	}
	return rc
}

// worseCheck is the worse of two exit codes: trouble, then failed, then undecided, then sound
// (3 is the mildest failure, though the largest number).
func worseCheck(a, b int) int {
	rank := map[int]int{checkSound: 0, checkOpen: 1, checkFailed: 2, checkTrouble: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// checkFile is one FILE's entry from its verdict node.
func checkFile(name string, v *doc.Node) checkFileJSON {
	j := checkFileJSON{File: name, Verdict: v.Attrs[inspect.AttrVerdict], Summary: v.Value, Checks: []checkItemJSON{}}
	for _, c := range v.Children {
		codes := []string{}
		if s := c.Attrs[inspect.AttrCodes]; s != "" {
			codes = strings.Split(s, ",")
		}
		j.Checks = append(j.Checks, checkItemJSON{Check: c.Key, State: c.Attrs[inspect.AttrState], Value: c.Value, Detail: c.Detail, Codes: codes})
	}
	return j
}

func printCheck(w io.Writer, j checkFileJSON) {
	fmt.Fprintf(w, "%s: %s\n", safe(j.File), safeMsg(j.Summary))
	for _, c := range j.Checks {
		codes := ""
		if len(c.Codes) > 0 {
			codes = " [" + strings.Join(c.Codes, ", ") + "]"
		}
		fmt.Fprintf(w, "  %-9s %-9s %s: %s%s\n", c.Check, c.State, safeMsg(c.Value), safeMsg(c.Detail), codes)
	}
}
