package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/core/timeline"
	"github.com/neffscope/neffscope/internal/realfiles"
)

const (
	attnNEFF    = "nki-moe/attn_v6.neff"
	attnProfile = "nki-moe/profile_attn_v6_exec_2.ntff"
)

// timelineJSON runs `timeline --json` and decodes its report.
func timelineJSON(t *testing.T, args ...string) (timeline.Report, string, int) {
	t.Helper()
	out, errs, code := runCmd(t, append([]string{"timeline", "--json"}, args...)...)
	var rep timeline.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("timeline --json %v: %v\n%s\nstderr: %s", args, err, out, errs)
	}
	return rep, errs, code
}

// TestTimelineJoined: `timeline --json --ntff` on attn_v6 is the contract's measured part with
// the spec's figures (ntff.md §4.3, §5).
func TestTimelineJoined(t *testing.T) {
	neffPath, profPath := realfiles.Path(t, attnNEFF), realfiles.Path(t, attnProfile)
	rep, errs, code := timelineJSON(t, "--ntff", profPath, neffPath)
	if code != 0 || rep.Measured == nil || rep.NEFFUUID != "0ec6131a-ecd8-4683-b3a8-b8f19256750e" {
		t.Fatalf("exit %d, uuid %q, measured %v: %s", code, rep.NEFFUUID, rep.Measured != nil, errs)
	}
	m := rep.Measured
	rows := 0
	for _, c := range m.Cores {
		for _, e := range c.Engines {
			rows += len(e.Rows)
		}
	}
	pe := m.Cores[0].Engines[0]
	if rows != 1961 || pe.Engine != "PE" || pe.Instructions != 781 || pe.Timed != 780 || pe.BusyPS != 40235771 {
		t.Errorf("%d rows; PE %d instructions, %d timed, busy %d ps", rows, pe.Instructions, pe.Timed, pe.BusyPS)
	}
	if ck := m.Checks; ck.WaitsInOrder != 688 || ck.WaitsMetInside != 1 || ck.WaitsViolated != 0 {
		t.Errorf("checks %+v", ck)
	}
	if m.WindowPS != [2]uint64{371297009799126533, 371297010159000554} {
		t.Errorf("window %v", m.WindowPS)
	}
	text, _, code := runCmd(t, "timeline", "--ntff", profPath, neffPath)
	for _, want := range []string{"measured: window 359.874 µs", "waits 688 in order, 1 met inside, 0 violated", "v6_ultimate.py:273", "sg00 PE #166", "qPoolDynamic", "estimated from the NEFF alone", "against this profile: span"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("exit %d; the text lacks %q:\n%s", code, want, text)
		}
	}
}

// TestTimelineAlone: each shared capture opens alone, rows being image words.
func TestTimelineAlone(t *testing.T) {
	paths := realfiles.Glob("nki-moe/*.ntff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("nki-moe/*.ntff"))
	}
	for _, p := range paths {
		rep, errs, code := timelineJSON(t, p)
		if code != 0 || rep.Measured == nil || rep.Estimated != nil || rep.Measured.Joined || len(rep.Measured.Cores) != 2 {
			t.Fatalf("%s: exit %d: %s", p, code, errs)
		}
		if e := rep.Measured.Cores[0].Engines[0]; e.NEFFInstructions == 0 || e.Timed == 0 {
			t.Errorf("%s: sg00 PE %+v", p, e.Runtime)
		}
	}
}

// TestTimelineWrongNEFF: a profile of another NEFF joins nothing and exits 1 with its code.
func TestTimelineWrongNEFF(t *testing.T) {
	neffPath, profPath := realfiles.Path(t, attnNEFF), realfiles.Path(t, "nki-moe/profile_v2_new_exec_2.ntff")
	rep, _, code := timelineJSON(t, "--ntff", profPath, neffPath)
	if code != 1 || rep.Measured == nil || len(rep.Measured.Cores) != 0 || len(rep.Measured.Findings) != 1 || rep.Measured.Findings[0].Code != "ntff.uuid-mismatch" {
		t.Fatalf("exit %d, measured %+v", code, rep.Measured)
	}
	text, _, code := runCmd(t, "timeline", "--ntff", profPath, neffPath)
	if code != 1 || !strings.Contains(text, "[ntff.uuid-mismatch]") {
		t.Errorf("exit %d:\n%s", code, text)
	}
	// Another kind of file as the profile: refused (exit 2) with its code.
	_, errs, code := runCmd(t, "timeline", "--ntff", neffPath, neffPath)
	if code != 2 || !strings.Contains(errs, "ntff.not-profile") {
		t.Errorf("a NEFF as --ntff: exit %d: %s", code, errs)
	}
}

// TestTimelineSample: a synthetic profile (no shared files needed) opens alone, and a cut one
// exits 1 with its finding.
func TestTimelineSample(t *testing.T) {
	dir := t.TempDir()
	b := ntffbuild.Bytes(ntffbuild.Sample())
	full, cut := filepath.Join(dir, "s.ntff"), filepath.Join(dir, "cut.ntff")
	os.WriteFile(full, b, 0o644)
	os.WriteFile(cut, b[:len(b)-20], 0o644)
	rep, errs, code := timelineJSON(t, full)
	if code != 0 || rep.Measured == nil || rep.Measured.Cores[0].Engines[0].Timed != 5 {
		t.Fatalf("exit %d: %s %+v", code, errs, rep.Measured)
	}
	rep, _, code = timelineJSON(t, cut)
	found := false
	for _, fd := range rep.Measured.Findings {
		found = found || fd.Code == "ntff.section-bounds"
	}
	if code != 1 || !found {
		t.Errorf("cut profile: exit %d, findings %+v", code, rep.Measured.Findings)
	}
}
