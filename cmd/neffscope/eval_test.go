package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/pwp"
	"github.com/neffscope/neffscope/core/pwp/tablegen"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// looseSet is matmul_small's sg00 activation set as loose files (roster, profile, blobs).
func looseSet(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, n := range []string{"act_info.json", "exp_and_others.json", "exp_and_others_bkt.bin", "exp_and_others_ctrl.bin"} {
		files = append(files, realfiles.Path(t, "nkipy/matmul_small/sg00/"+n))
	}
	return files
}

func runCmd(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func TestEvalNEFF(t *testing.T) {
	realNEFF := realfiles.Path(t, "nkipy/matmul_small.neff")
	// The spec's exp vectors (activation.md §8) at exp_and_others' own indices.
	out, errs, code := runCmd(t, "eval", "--func", "exp_400p", realNEFF, "0.5", "-3", "0x42b17218")
	want := "3f000000 3fd308b1 1.6487027 pos:ctl44:sect0:bkt424\n" +
		"c0400000 3d4bed0b 0.04978661 neg:ctl20:sect4:bkt28\n" +
		"42b17218 7f800000 +Inf pos_large:bkt779\n"
	if code != 0 || out != want {
		t.Errorf("code %d\nout:\n%s\nwant:\n%s\nstderr: %s", code, out, want, errs)
	}
	// Load index 0 of sg00 and func_id 7, as an Activation instruction names them.
	out, _, code = runCmd(t, "eval", "--set", "0", "--func", "#7", realNEFF, "0.5")
	if code != 0 || out != "3f000000 3fd308b1 1.6487027 pos:ctl44:sect0:bkt424\n" {
		t.Errorf("--set 0 --func #7: %d %q", code, out)
	}
	// --sg and --set select sg01's copy of the set.
	out, _, code = runCmd(t, "eval", "--sg", "sg01", "--set", "exp_and_others", "--func", "tanh", realNEFF, "0.5")
	if code != 0 || !strings.HasPrefix(out, "3f000000 3eec9a9e 0.46211714 ") {
		t.Errorf("sg01 tanh: %d %q", code, out)
	}
	_, errs, code = runCmd(t, "eval", "--set", "1", "--func", "exp", realNEFF, "1")
	if code == 0 || !strings.Contains(errs, "sg00 loads 1 sets (exp_and_others)") {
		t.Errorf("--set 1: %d %q", code, errs)
	}
	t.Run("attn_v6", func(t *testing.T) {
		realNEFF, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "a NEFF with two sets in sg00 and none in sg01")
		if !ok {
			return
		}
		out, errs, code := runCmd(t, "eval", "--func", "exp_400p", realNEFF, "0.5", "-3", "0x42b17218")
		want := "3f000000 3fd308b1 1.6487027 pos:ctl172:sect0:bkt941\n" +
			"c0400000 3d4bed0b 0.04978661 neg:ctl148:sect4:bkt545\n" +
			"42b17218 7f800000 +Inf pos_large:bkt1296\n"
		if code != 0 || out != want {
			t.Errorf("code %d\nout:\n%s\nwant:\n%s\nstderr: %s", code, out, want, errs)
		}
		// --set and --sg select; rsqrt is in the NEFF-local set 0.
		out, _, code = runCmd(t, "eval", "--sg", "0", "--set", "reciprocal_sqrt_and_small", "--func", "reciprocal_sqrt", realNEFF, "0x3e800000")
		if code != 0 || out != "3e800000 3ffffd24 1.9999127 pos:ctl85:sect0:bkt644\n" {
			t.Errorf("rsqrt: %d %q", code, out)
		}
		out, _, code = runCmd(t, "eval", "--set", "0", "--func", "#29", realNEFF, "0x3e800000")
		if code != 0 || out != "3e800000 3ffffd24 1.9999127 pos:ctl85:sect0:bkt644\n" {
			t.Errorf("--set 0 --func #29: %d %q", code, out)
		}
		_, errs, code = runCmd(t, "eval", "--set", "2", "--func", "exp", realNEFF, "1")
		if code == 0 || !strings.Contains(errs, "sg00 loads 2 sets (reciprocal_sqrt_and_small, natural_log_exp_and_others)") {
			t.Errorf("--set 2: %d %q", code, errs)
		}
		_, errs, code = runCmd(t, "eval", "--sg", "sg01", "--func", "exp", realNEFF, "1")
		if code == 0 || !strings.Contains(errs, "no activation set among the files") {
			t.Errorf("sg01: %d %q", code, errs)
		}
	})
}

func TestEvalLooseAndModes(t *testing.T) {
	files := looseSet(t)
	out, errs, code := runCmd(t, append(append([]string{"eval", "--func", "exp", "--mode", "horner"}, files...), "-3")...)
	if code != 0 || out != "c0400000 3d4bed0c 0.049786612 neg:ctl20:sect4:bkt28\n" {
		t.Errorf("horner: %d %q %q", code, out, errs)
	}
	out, _, _ = runCmd(t, append(append([]string{"eval", "--func", "is_finite"}, files...), "nan")...)
	if out != "7fc00000 00000000 0 fnan\n" {
		t.Errorf("is_finite(NaN) default: %q", out)
	}
	out, _, _ = runCmd(t, append(append([]string{"eval", "--func", "is_finite", "--nan", "sim"}, files...), "nan")...)
	if !strings.HasPrefix(out, "7fc00000 7fc00000 NaN pos_large:bkt935") {
		t.Errorf("is_finite(NaN) sim: %q", out)
	}
	out, _, _ = runCmd(t, append(append([]string{"eval", "--func", "parametric_relu", "--alpha", "0.25"}, files...), "-2", "2")...)
	if out != "c0000000 bf000000 -0.5 prelu\n40000000 40000000 2 prelu\n" {
		t.Errorf("prelu: %q", out)
	}
	out, _, code = runCmd(t, append([]string{"eval", "--sweep", "-87", "88.72", "20000", "--func", "exp_400p"}, files...)...)
	if code != 0 || !strings.Contains(out, "20000 compared") || !strings.Contains(out, "max rel error 1.1") || !strings.Contains(out, "max ulp error") {
		t.Errorf("sweep: %d\n%s", code, out)
	}
}

func TestEvalGeneratedSet(t *testing.T) {
	res, err := tablegen.Generate("gen_set", 16, tablegen.Standard())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	for name, b := range res.Files("gen_set") {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	out, errs, code := runCmd(t, append(append([]string{"eval", "--func", "sigmoid_40p"}, files...), "0", "3", "-1e-3")...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 3 || lines[0] != "00000000 3f000000 0.5 fzero" || !strings.HasSuffix(lines[1], ":fold") || !strings.HasSuffix(lines[2], "neg_small:bkt") && !strings.Contains(lines[2], "neg_small:bkt") {
		t.Errorf("generated sigmoid: %d %q %q", code, out, errs)
	}
}

func TestEvalErrors(t *testing.T) {
	prof := looseSet(t)[1]
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"eval", prof, "1"}, "--func is required"},
		{[]string{"eval", "--func", "exp", "1"}, "no FILE given"},
		{[]string{"eval", "--func", "exp", prof, "abc"}, "neither a readable file nor a number"},
		{[]string{"eval", "--func", "gelu", prof, "realLoose", "1"}, "neither a readable file"},
		{[]string{"eval", "--func", "gelu", prof, "1"}, "no function \"gelu\""},
		{[]string{"eval", "--func", "exp", "--mode", "fast", prof, "1"}, "unknown mode"},
		{[]string{"eval", "--func", "exp", prof}, "no X given"},
		{[]string{"eval", "--func", "exp", "--sweep", "1", "0"}, "--sweep needs LO HI N"},
	}
	for _, c := range cases {
		_, errs, code := runCmd(t, c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", c.args, code, errs, c.want)
		}
	}
	// The profile alone: the blobs are missing, so exp fails per X with a reason, identity works.
	out, errs, code := runCmd(t, "eval", "--func", "exp", prof, "1")
	if code != 1 || out != "3f800000 7fc00000 NaN error\n" || !strings.Contains(errs, "missing") {
		t.Errorf("no blobs: %d %q %q", code, out, errs)
	}
}

// TestEvalEveryRealNEFF: the activation sets inside every real NEFF decode with no warning or
// error, and exp(0.5) gives the spec's bits wherever exp is loaded.
func TestEvalEveryRealNEFF(t *testing.T) {
	neffs := realfiles.Glob("*/*.neff")
	if len(neffs) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	withSets := 0
	for _, n := range neffs {
		members, err := loadActivationFiles([]string{n}, "")
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		b := pwp.OpenFiles(members)
		for _, s := range b.Sets {
			for _, f := range append(b.Findings, s.AllFindings()...) {
				if f.Severity != "info" {
					t.Errorf("%s %s: %s: %s", n, s.ProfilePath, f.Severity, f.Message)
				}
			}
		}
		if len(b.Sets) == 0 {
			continue
		}
		withSets++
		f, err := b.Function("", "exp")
		if err != nil {
			t.Errorf("%s: %v", n, err)
			continue
		}
		if y, _ := f.Evaluate(0.5); math.Float32bits(y) != 0x3fd308b1 {
			t.Errorf("%s: exp(0.5) = %08x", n, math.Float32bits(y))
		}
	}
	// matmul_small carries one; with the shared folder, 5 of its NEFFs do.
	if want := map[bool]int{true: 5, false: 1}[realfiles.SharedDir() != ""]; withSets < want {
		t.Errorf("only %d NEFFs carried activation sets, want %d", withSets, want)
	}
}

// TestEvalOutsideTheDomain: ln's table is right on [2^−64, 2^64] (catalog domain): a sweep of
// negative inputs gives no error figure, one reaching past the domain is measured inside it.
func TestEvalOutsideTheDomain(t *testing.T) {
	realNEFF, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "ln_400p's domain")
	if !ok {
		return
	}
	out, _, code := runCmd(t, "eval", "--func", "ln", "--sweep", "-2", "-1", "100", realNEFF)
	if code != 1 || strings.Contains(out, "max ulp error") {
		t.Errorf("sweep outside the domain: exit %d\n%s", code, out)
	}
	out, _, code = runCmd(t, "eval", "--func", "ln", "--sweep", "-2", "2", "100", realNEFF)
	if code != 0 || !strings.Contains(out, "max ulp error") || strings.Contains(out, "at x=-") {
		t.Errorf("sweep reaching past the domain: exit %d\n%s", code, out)
	}
}
