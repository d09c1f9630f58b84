package pwp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/pwp/tablegen"
)

func genSet(t testing.TB, stride int) *tablegen.Result {
	t.Helper()
	res, err := tablegen.Generate("gen_set", stride, tablegen.Standard())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func setFrom(res *tablegen.Result, profile, bkt, ctrl []byte) *Set {
	return NewSet(SetFiles{Name: "gen_set", ProfilePath: "gen_set.json", Profile: profile, BktPath: "gen_set_bkt.bin", Bkt: bkt, CtrlPath: "gen_set_ctrl.bin", Ctrl: ctrl})
}

func clone(b []byte) []byte { return append([]byte(nil), b...) }

func TestFaultWrongSizes(t *testing.T) {
	res := genSet(t, 32)
	s := setFrom(res, res.Profile, res.Bkt[:len(res.Bkt)-10], res.Ctrl[:len(res.Ctrl)-8])
	// The bucket blob is not whole records and disagrees with bkt_entry_cnt; the ctrl blob
	// is not ctl_entry_cnt whole records.
	for blob, want := range map[string]int{"gen_set_bkt.bin": 2, "gen_set_ctrl.bin": 1} {
		if n := countFindings(s.Findings, doc.Error, doc.CodePwpBadBlob, blob); n != want {
			t.Errorf("%d %s errors on %s, want %d: %v", n, doc.CodePwpBadBlob, blob, want, s.Findings)
		}
	}
	// The last function (sigmoid) lost its last bucket: its slots point past the table.
	sg := s.Function("sigmoid")
	if _, tr := sg.Evaluate(100); tr.Path != PathError || !strings.Contains(tr.Err.Error(), "outside the table") {
		t.Errorf("sigmoid(100) with a truncated blob: %s %v", tr, tr.Err)
	}
	// Evaluations elsewhere still work.
	if y, _ := s.Function("exp").Evaluate(1); math.Abs(float64(y)-math.E) > 1e-4 {
		t.Errorf("exp(1) = %g", y)
	}
}

func TestFaultBadIndices(t *testing.T) {
	res := genSet(t, 32)
	ctrl := clone(res.Ctrl)
	// exp's pos octave E0 (ctrl 19 + 12): point its base far away and give it a huge size.
	i := 19 + 12
	binary.LittleEndian.PutUint32(ctrl[i*32:], 0x7ff|30<<16)
	s := setFrom(res, res.Profile, res.Bkt, ctrl)
	if !hasFinding(s.Function("exp").Findings, doc.Error, doc.CodePwpCtrlWord) {
		t.Errorf("findings: %v", s.Function("exp").Findings)
	}
	if y, tr := s.Function("exp").Evaluate(1.5); tr.Path != PathError || y == y {
		t.Errorf("exp(1.5) with a bad ctrl word = %g via %s", y, tr)
	}
	binary.LittleEndian.PutUint32(ctrl[i*32:], 0x7ff|2<<16|21<<11)
	s = setFrom(res, res.Profile, res.Bkt, ctrl)
	if _, tr := s.Function("exp").Evaluate(1.5); tr.Path != PathError || !strings.Contains(tr.Err.Error(), "outside the function's LUT") {
		t.Errorf("exp(1.5) with an out-of-block base: %s %v", tr, tr.Err)
	}
	if !hasFinding(s.Function("exp").Findings, doc.Error, doc.CodePwpBadLayout) {
		t.Errorf("findings: %v", s.Function("exp").Findings)
	}
	// A saturation pointer out of range and a non-consecutive one.
	slot := setFrom(res, res.Profile, res.Bkt, res.Ctrl).Functions[0].Slots[SlotNegLarge]
	prof := bytes.Replace(res.Profile, []byte(fmt.Sprintf(`"neg_large_signal_pwl_control": %d`, slot)), []byte(`"neg_large_signal_pwl_control": 99993`), 1)
	s = setFrom(res, prof, res.Bkt, res.Ctrl)
	f := s.Functions[0]
	if countFindings(f.Findings, doc.Error, doc.CodePwpBadLayout, "") < 2 { // outside the table, and not consecutive
		t.Errorf("findings: %v", f.Findings)
	}
	if _, tr := f.Evaluate(-200); tr.Path != PathError {
		t.Errorf("exp(-200) through a bad slot: %s", tr)
	}
	// Padding that is not zero.
	bkt := clone(res.Bkt)
	bkt[25] = 1
	s = setFrom(res, res.Profile, bkt, res.Ctrl)
	if !hasFinding(s.Findings, doc.Warning, doc.CodePwpBlobUnusual) {
		t.Errorf("findings: %v", s.Findings)
	}
}

func TestFaultBadProfile(t *testing.T) {
	res := genSet(t, 16)
	cut := res.Profile[:len(res.Profile)/2]
	s := setFrom(res, cut, res.Bkt, res.Ctrl)
	if !hasFinding(s.Findings, doc.Error, doc.CodeJSONSyntax) && !hasFinding(s.Findings, doc.Error, doc.CodePwpBadProfile) {
		t.Errorf("truncated profile findings: %v", s.Findings)
	}
	if len(s.Functions) == 0 {
		t.Errorf("a truncated profile should still yield the records before the cut")
	}
	s = setFrom(res, []byte(`[1,2]`), res.Bkt, res.Ctrl)
	if !hasFinding(s.Findings, doc.Error, doc.CodePwpBadProfile) || len(s.Functions) != 0 {
		t.Errorf("array profile: %v", s.Findings)
	}
	// Spelling skew: ctrl_bin instead of ctl_bin is followed, and noted.
	p := DecodeProfile("x.json", bytes.Replace(res.Profile, []byte(`"ctl_bin"`), []byte(`"ctrl_bin"`), 1))
	if p.CtlBin != "gen_set_ctrl.bin" || p.CtlBinKey != "ctrl_bin" || !hasFinding(p.Findings, doc.Info, doc.CodePwpProfileUnusual) {
		t.Errorf("ctrl_bin skew: %q %q %v", p.CtlBin, p.CtlBinKey, p.Findings)
	}
	// A roster whose budget disagrees with the suffix rule.
	r := DecodeRoster("act_info.json", bytes.Replace(res.Roster, []byte(`"tanh": 4`), []byte(`"tanh": 40`), 1))
	s = NewSet(SetFiles{ProfilePath: "gen_set.json", Profile: res.Profile, Bkt: res.Bkt, Ctrl: res.Ctrl, Roster: r.Set("gen_set")})
	if !hasFinding(s.Function("tanh").Findings, doc.Error, doc.CodePwpFunctionName) {
		t.Errorf("budget mismatch findings: %v", s.Function("tanh").Findings)
	}
}

func TestBareName(t *testing.T) {
	for _, c := range []struct {
		in   string
		bare string
		n    int
		ok   bool
	}{{"exp_400p", "exp", 400, true}, {"reciprocal_sqrt_40000p", "reciprocal_sqrt", 40000, true}, {"identity_1p", "identity", 1, true}, {"exp", "exp", 0, false}, {"x_p", "x_p", 0, false}, {"_4p", "_4p", 0, false}} {
		b, n, ok := BareName(c.in)
		if b != c.bare || n != c.n || ok != c.ok {
			t.Errorf("BareName(%q) = %q %d %v", c.in, b, n, ok)
		}
		if ok && FullName(b, n) != c.in {
			t.Errorf("FullName round trip of %q", c.in)
		}
	}
}
