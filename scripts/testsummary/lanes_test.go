package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// make test's plan: the browser runner first, at normal priority and held; vet then the core's
// tests in a niced held lane; typecheck, the wasm, the page's modules and the alone runner in
// the niced foreground lane.
func TestPlan(t *testing.T) {
	lanes := plan("make", true)
	type row struct {
		lane  string
		nice  int
		held  bool
		steps []string
	}
	var got []row
	for _, l := range lanes {
		r := row{l.name, l.nice, l.held, nil}
		for _, s := range l.steps {
			r.steps = append(r.steps, s.name+" "+strings.Join(s.cmd, " "))
		}
		got = append(got, r)
	}
	want := []row{
		{"e2e", 0, true, []string{" make --no-print-directory test-browser"}},
		{"core-lane", 19, true, []string{"vet make --no-print-directory vet", " make --no-print-directory test-core"}},
		{"rest", 19, false, []string{"typecheck make --no-print-directory typecheck", " make --no-print-directory test-wasm", "js make --no-print-directory test-js", " make --no-print-directory test-alone"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan:\n got %+v\nwant %+v", got, want)
	}
	if l := plan("make", false); len(l[2].steps) != 3 {
		t.Errorf("-alone=false still runs %d steps in the last lane", len(l[2].steps))
	}
}

// runAll runs every step even after a failure, prints the held lanes after the foreground one,
// ends with the closing line counting every runner, and fails when any step failed.
func TestRunAll(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	countsOf := func(name, json string) []string { // a counted step: writes its own counts
		return []string{"sh", "-c", "echo " + name + " ran; printf '%s' '" + json + "' > " + filepath.Join(dir, name+".counts")}
	}
	tap := "# tests 2\n# pass 2\n# fail 0\n"
	lanes := []lane{
		{name: "held", held: true, steps: []step{
			{kind: counted, cmd: countsOf("slow", `{"runner":"slow","passed":3,"seconds":61}`)},
		}},
		{name: "fg", nice: 19, steps: []step{
			{kind: untested, name: "vet", cmd: []string{"sh", "-c", "echo vet failed; exit 1"}},
			{kind: counted, cmd: countsOf("core", `{"runner":"core","passed":5,"skipped":1}`)},
			{kind: tapOutput, name: "js", cmd: []string{"printf", tap}},
		}},
	}
	os.WriteFile(filepath.Join(dir, "stale.counts"), []byte(`{"runner":"stale","failed":9}`), 0o644)
	var out bytes.Buffer
	err := runAll(dir, lanes, &out)
	if !errors.Is(err, errFailed) {
		t.Errorf("runAll with a failed vet: %v", err)
	}
	got := out.String()
	lines := strings.Split(strings.TrimSpace(got), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "tests: 10 passed, 0 failed, 1 skipped in ") || !strings.Contains(last, "slow 1m01s") {
		t.Errorf("closing line %q", last)
	}
	if !strings.Contains(got, "runner failed: vet:") {
		t.Errorf("the failed vet is not said:\n%s", got)
	}
	if i, j := strings.Index(got, "core ran"), strings.Index(got, "slow ran"); i < 0 || j < i {
		t.Errorf("the held lane's output is not after the foreground lane's:\n%s", got)
	}
	// All green: no error.
	lanes[1].steps[0].cmd = []string{"true"}
	out.Reset()
	if err := runAll(dir, lanes, &out); err != nil {
		t.Errorf("runAll, all green: %v\n%s", err, out.String())
	}
	// A counted step that fails without a failed test (a make target that broke) fails the run.
	lanes[0].steps[0].cmd = []string{"false"}
	if err := runAll(dir, lanes, &out); !errors.Is(err, errFailed) {
		t.Errorf("runAll with a broken counted step: %v", err)
	}
}

// node --test that exits non-zero with nothing counted as failed still fails its runner.
func TestRunTAPCommand(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := runTAPCommand(dir, "js", []string{"sh", "-c", "printf '# tests 1\\n# pass 1\\n'; exit 3"}, &out); err == nil {
		t.Error("a failing command with a passing summary passed")
	}
	if err := runTAPCommand(dir, "js", []string{"sh", "-c", "printf '# tests 1\\n# pass 1\\n'"}, &out); err != nil {
		t.Errorf("a passing run failed: %v", err)
	}
	if err := runTAPCommand(dir, "js", []string{"/no/such/command"}, &out); err == nil {
		t.Error("a command that does not start passed")
	}
}
