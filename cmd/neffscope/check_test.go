package main

import (
	"encoding/json"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// checkOut parses check --json.
func checkOut(t *testing.T, out string) checkJSON {
	t.Helper()
	var j checkJSON
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("check --json: %v\n%s", err, out)
	}
	return j
}

// The gate: a sound file exits 0; the deadlock, whose runtime acceptance and hash are fine,
// exits 1 with the sync check failed and its code; a file cut short exits 1; a failed file
// among sound ones still fails the run.
func TestCheckGate(t *testing.T) {
	sound := realfiles.Path(t, "nkipy/matmul_small.neff")
	out, errs, rc := runCmd(t, "check", "--json", sound)
	if rc != checkSound {
		t.Fatalf("sound file: rc %d: %s\n%s", rc, errs, out)
	}
	if j := checkOut(t, out); len(j.Files) != 1 || j.Files[0].Verdict != "pass" || len(j.Files[0].Checks) != 5 {
		t.Errorf("sound file: %+v", j)
	}
	dead := deadlockNEFF(t)
	out, _, rc = runCmd(t, "check", "--json", sound, dead)
	if rc != checkFailed {
		t.Fatalf("deadlock: rc %d", rc)
	}
	j := checkOut(t, out)
	f := j.Files[1]
	got := map[string]checkItemJSON{}
	for _, c := range f.Checks {
		got[c.Check] = c
	}
	if f.Verdict != "fail" || got["runtime"].State != "pass" || got["sync"].State != "fail" || strings.Join(got["sync"].Codes, ",") != "sync.cycle" {
		t.Errorf("deadlock: %+v", f)
	}
	text, _, rc := runCmd(t, "check", dead)
	if rc != checkFailed || !strings.Contains(text, "not sound") || !strings.Contains(text, "[sync.cycle]") {
		t.Errorf("text (rc %d):\n%s", rc, text)
	}
	src, _ := os.ReadFile(sound)
	cut := filepath.Join(t.TempDir(), "cut.neff")
	os.WriteFile(cut, src[:len(src)/2], 0o644)
	if _, _, rc := runCmd(t, "check", cut); rc != checkFailed {
		t.Errorf("cut file: rc %d", rc)
	}
	if _, _, rc := runCmd(t, "check", filepath.Join(t.TempDir(), "missing.neff"), dead); rc != checkTrouble {
		t.Errorf("a missing file: rc %d, want 2", rc)
	}
	if _, usage, rc := runCmd(t, "check"); rc != checkTrouble || !strings.Contains(usage, "Exit status") {
		t.Errorf("usage: rc %d %s", rc, usage)
	}
}

// A file nothing fails on but with an undecided check (attn_v6: two instructions whose
// operands the memory model cannot place) exits 3, or 0 with --allow-undecided; a failed
// file outranks it.
func TestCheckUndecided(t *testing.T) {
	p := realfiles.Path(t, "nki-moe/attn_v6.neff")
	out, _, rc := runCmd(t, "check", "--json", p)
	j := checkOut(t, out)
	if rc != checkOpen || j.Files[0].Verdict != "open" {
		t.Fatalf("rc %d, %+v", rc, j)
	}
	if _, _, rc := runCmd(t, "check", "--allow-undecided", p); rc != checkSound {
		t.Errorf("--allow-undecided: rc %d", rc)
	}
	if _, _, rc := runCmd(t, "check", p, deadlockNEFF(t)); rc != checkFailed {
		t.Errorf("undecided then failed: rc %d, want 1", rc)
	}
}

// check reads the .dbg members too (info leaves them out): a corrupt one is an error of the
// file, so the errors check fails on it.
func TestCheckReadsDebugInfo(t *testing.T) {
	members := append(neffbuild.Sample(), neffbuild.Member{Path: "sg00/debug_info_asm_PE.dbg", Data: []byte{0x0a, 0xff, 0xff, 0xff, 0x0f, 1, 2}})
	p := filepath.Join(t.TempDir(), "bad-dbg.neff")
	os.WriteFile(p, neffbuild.Bytes(members, neffbuild.Options{}), 0o644)
	info, _, _ := runCmd(t, "info", "--json", p)
	out, _, rc := runCmd(t, "check", "--json", p)
	j := checkOut(t, out)
	var errs checkItemJSON
	for _, c := range j.Files[0].Checks {
		if c.Check == "errors" {
			errs = c
		}
	}
	if rc != checkFailed || errs.State != "fail" || !strings.Contains(strings.Join(errs.Codes, ","), "dbg.") {
		t.Errorf("rc %d, errors check %+v", rc, errs)
	}
	if strings.Contains(info, `"dbg.`) {
		t.Errorf("info reads the .dbg members now: the test no longer shows check reading more")
	}
}
