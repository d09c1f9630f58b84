package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A go test -json stream: a passing package, a failing test with its output, a skip with its
// reason, a subtest, and a build failure.
const goStream = `{"Action":"start","Package":"p/a"}
{"Action":"run","Package":"p/a","Test":"TestOK"}
{"Action":"output","Package":"p/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"run","Package":"p/a","Test":"TestOK/sub"}
{"Action":"pass","Package":"p/a","Test":"TestOK/sub"}
{"Action":"pass","Package":"p/a","Test":"TestOK"}
{"Action":"output","Package":"p/a","Output":"PASS\n"}
{"Action":"output","Package":"p/a","Output":"ok  \tp/a\t0.01s\n"}
{"Action":"pass","Package":"p/a"}
{"Action":"run","Package":"p/b","Test":"TestBad"}
{"Action":"output","Package":"p/b","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"output","Package":"p/b","Test":"TestBad","Output":"    b_test.go:9: want 2, got 3\n"}
{"Action":"output","Package":"p/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"p/b","Test":"TestBad"}
{"Action":"run","Package":"p/b","Test":"TestNeeds"}
{"Action":"output","Package":"p/b","Test":"TestNeeds","Output":"    b_test.go:20: real file x.neff is not in testdata/real/\n"}
{"Action":"output","Package":"p/b","Test":"TestNeeds","Output":"--- SKIP: TestNeeds (0.00s)\n"}
{"Action":"skip","Package":"p/b","Test":"TestNeeds"}
{"Action":"output","Package":"p/b","Output":"FAIL\n"}
{"Action":"output","Package":"p/b","Output":"FAIL\tp/b\t0.02s\n"}
{"Action":"fail","Package":"p/b"}
`

func TestReadGoEvents(t *testing.T) {
	var out bytes.Buffer
	c := readGoEvents(strings.NewReader(goStream), &out)
	if c.Passed != 2 || c.Failed != 1 || c.Skipped != 1 {
		t.Errorf("counts %+v, want 2 passed, 1 failed, 1 skipped", c)
	}
	got := out.String()
	for _, want := range []string{"ok  \tp/a\t0.01s\n", "b_test.go:9: want 2, got 3\n--- FAIL: TestBad", "--- SKIP: TestNeeds", "x.neff is not in testdata/real/", "FAIL\tp/b\t0.02s\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "=== RUN") || strings.Contains(got, "PASS\n") {
		t.Errorf("output has progress lines:\n%s", got)
	}
	// A build failure with no test failed still fails the runner.
	bf := `{"ImportPath":"p/c","Action":"build-output","Output":"c.go:3:1: syntax error\n"}
{"ImportPath":"p/c","Action":"build-fail"}
{"Action":"fail","Package":"p/c"}
`
	out.Reset()
	c = readGoEvents(strings.NewReader(bf), &out)
	if c.Failed != 0 || !strings.Contains(c.Broken, "build failed: p/c") || !strings.Contains(out.String(), "syntax error") {
		t.Errorf("build failure: %+v, output %q", c, out.String())
	}
}

func TestTAPAndTotal(t *testing.T) {
	dir := t.TempDir()
	tap := "TAP version 13\nok 1 - a\nnot ok 2 - b\n# tests 3\n# pass 1\n# fail 1\n# cancelled 0\n# skipped 1\n# todo 0\n"
	var out bytes.Buffer
	if err := runTAP(dir, "js", strings.NewReader(tap), &out); err == nil || out.String() != tap {
		t.Errorf("runTAP: err %v, output passed through: %v", err, out.String() == tap)
	}
	if err := writeCounts(dir, Counts{Runner: "core", Passed: 10, Skipped: 2, Seconds: 125}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err := total(dir, 0, &out)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if !errors.Is(err, errFailed) || !strings.HasPrefix(lines[len(lines)-1], "tests: 11 passed, 1 failed, 3 skipped (core 2m05s, js ") {
		t.Errorf("total: %v\n%s", err, out.String())
	}
	// All green: exit status 0, the same closing line.
	os.Remove(filepath.Join(dir, "js.counts"))
	out.Reset()
	if err := total(dir, 9*time.Minute+30*time.Second, &out); err != nil || !strings.HasSuffix(out.String(), "tests: 10 passed, 0 failed, 2 skipped in 9m30s (core 2m05s)\n") {
		t.Errorf("total: %v\n%s", err, out.String())
	}
	// A node run cut short (no summary) fails.
	if err := runTAP(dir, "cut", strings.NewReader("ok 1 - a\n"), &out); err == nil {
		t.Error("a TAP stream with no summary passed")
	}
}

func TestRunGo(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	// A command that is not go test: its exit status fails the runner even with no events.
	if err := runGo(dir, "x", []string{"sh", "-c", "echo not json; exit 3"}, &out, &errb); err == nil || !strings.Contains(out.String(), "not json") {
		t.Errorf("runGo: %v, output %q", err, out.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "x.counts")); err != nil {
		t.Errorf("no counts written: %v", err)
	}
	// A step with no tests (vet): its failure breaks the run, its time is kept.
	if err := runStep(dir, "vet", []string{"sh", "-c", "exit 2"}, &out, &errb); err == nil {
		t.Error("runStep: a failing step passed")
	}
	b, _ := os.ReadFile(filepath.Join(dir, "vet.counts"))
	var c Counts
	if json.Unmarshal(b, &c) != nil || c.Broken == "" || c.Seconds <= 0 {
		t.Errorf("vet.counts: %s", b)
	}
}
