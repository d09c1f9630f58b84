package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestEvalWholeOutput pins eval's exit status, stdout and stderr whole, for each way through
// its arguments: options before and after files, --, --opt=value, a sweep, each refusal. In
// args and in the output, {neff}, {set} (the loose set's four files), {profile} and {empty}
// stand for the files' paths, {usage} for what --help prints.
func TestEvalWholeOutput(t *testing.T) {
	loose := looseSet(t)
	empty := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(empty, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{"{neff}": realfiles.Path(t, "nkipy/matmul_small.neff"), "{profile}": loose[1], "{empty}": empty}
	cases := []struct {
		args           string
		code           int
		stdout, stderr string
	}{
		{"--func exp_400p {neff} 0.5 -3 0x42b17218", 0, "3f000000 3fd308b1 1.6487027 pos:ctl44:sect0:bkt424\nc0400000 3d4bed0b 0.04978661 neg:ctl20:sect4:bkt28\n42b17218 7f800000 +Inf pos_large:bkt779\n", ""},
		{"--set 0 --func #7 {neff} 0.5", 0, "3f000000 3fd308b1 1.6487027 pos:ctl44:sect0:bkt424\n", ""},
		{"--sg sg01 --set exp_and_others --func tanh {neff} 0.5", 0, "3f000000 3eec9a9e 0.46211714 pos:ctl77:sect0:bkt837\n", ""},
		{"--sg=1 --func=tanh {neff} -0.25", 0, "be800000 be7acbf6 -0.24491867 pos:ctl76:sect0:bkt829:fold\n", ""},
		{"--set 1 --func exp {neff} 1", 1, "", "neffscope eval: --set 1: sg00 loads 1 sets (exp_and_others)\n"},
		{"--func exp --mode horner {set} -3", 0, "c0400000 3d4bed0c 0.049786612 neg:ctl20:sect4:bkt28\n", ""},
		{"--func is_finite {set} nan", 0, "7fc00000 00000000 0 fnan\n", "neffscope eval: is_finite_1p(nan): outside the table's range [−FLT_MAX, FLT_MAX]\n"},
		{"--func is_finite --nan sim {set} nan", 0, "7fc00000 7fc00000 NaN pos_large:bkt935\n", "neffscope eval: is_finite_1p(nan): outside the table's range [−FLT_MAX, FLT_MAX]\n"},
		{"--func is_finite --nan hw {set} nan", 0, "7fc00000 00000000 0 fnan\n", "neffscope eval: is_finite_1p(nan): outside the table's range [−FLT_MAX, FLT_MAX]\n"},
		{"--func exp --nan bogus {set} 1", 2, "", "neffscope eval: --nan \"bogus\": table or sim\n"},
		{"--func parametric_relu --alpha 0.25 {set} -2 2", 0, "c0000000 bf000000 -0.5 prelu\n40000000 40000000 2 prelu\n", ""},
		{"--func parametric_relu --alpha=-0.5 {set} -- -2 2", 0, "c0000000 3f800000 1 prelu\n40000000 40000000 2 prelu\n", ""},
		{"--sweep -87 88.72 2000 --func exp_400p {set}", 0, "exp_400p (set exp_and_others), mode sim, 2000 points on [-87, 88.72]: 2000 compared, 0 skipped, 0 finiteness mismatches, 0 table errors\nmax abs error 1.31044e+33 at x=87.75306 (42af8191): y=1.2902238e+38 ref=1.29023691e+38 path pos:ctl51:sect95:bkt773\nmax rel error 1.12148e-05 at x=30.00016 (41f00054): y=1.0688067e+13 ref=1.06881869e+13 path pos:ctl49:sect56:bkt542\nmax ulp error 174.014 at x=84.50061 (42a90050): y=4.9904992e+36 ref=4.99055439e+36 path pos:ctl51:sect82:bkt760\n", ""},
		{"--func exp {set} --sweep 1 2", 2, "", "neffscope eval: --sweep needs LO HI N\n"},
		{"--func ln --sweep -2 -1 10 {neff}", 1, "", "neffscope eval: no function \"ln\" in any set (functions: exp_400p, identity_1p, copy_1p, leaky_relu_1p, parametric_relu_1p, abs_1p, sign_1p, memset_zero_1p, relu_1p, tanh_4p, derivative_relu_1p, derivative_leaky_relu_1p, derivative_identity_1p, is_finite_1p, square_1p)\n"},
		{"--func ln {set} 0 -1 1e-30", 1, "", "neffscope eval: no function \"ln\" in any set (functions: exp_400p, identity_1p, copy_1p, leaky_relu_1p, parametric_relu_1p, abs_1p, sign_1p, memset_zero_1p, relu_1p, tanh_4p, derivative_relu_1p, derivative_leaky_relu_1p, derivative_identity_1p, is_finite_1p, square_1p)\n"},
		{"{profile} 1", 2, "", "neffscope eval: --func is required (e.g. --func exp)\n{usage}"},
		{"--func exp 1", 2, "", "neffscope eval: no FILE given (a .neff or loose activation files)\n"},
		{"--func exp {profile} abc", 2, "", "neffscope eval: \"abc\" is neither a readable file nor a number (decimal or 0x bits)\n"},
		{"--func gelu {profile} realLoose 1", 2, "", "neffscope eval: \"realLoose\" is neither a readable file nor a number (decimal or 0x bits)\n"},
		{"--func gelu {profile} 1", 1, "", "neffscope eval: no function \"gelu\" in any set (functions: exp_400p, identity_1p, copy_1p, leaky_relu_1p, parametric_relu_1p, abs_1p, sign_1p, memset_zero_1p, relu_1p, tanh_4p, derivative_relu_1p, derivative_leaky_relu_1p, derivative_identity_1p, is_finite_1p, square_1p)\n"},
		{"--func exp --mode fast {profile} 1", 2, "", "neffscope eval: unknown mode \"fast\" (sim or horner)\n"},
		{"--func exp {profile}", 2, "", "neffscope eval: warning: table problem: set exp_and_others: the bucket blob \"exp_and_others_bkt.bin\" is missing; no function of the set can be evaluated (drop it with the profile)\nneffscope eval: warning: table problem: set exp_and_others: the ctrl blob \"exp_and_others_ctrl.bin\" is missing; only LUT-less functions can be evaluated (drop it with the profile)\nneffscope eval: warning: table problem: square_1p: pwl_control_base_pos 88 is outside its ctrl block 88..0 (base_pos = base_neg + number of neg octaves)\nneffscope eval: no X given (e.g. 0.5 or 0x3f000000), and no --sweep\n"},
		{"--func exp --sweep 1 0", 2, "", "neffscope eval: --sweep needs LO HI N\n"},
		{"--func exp {profile} 1", 1, "3f800000 7fc00000 NaN error\n", "neffscope eval: warning: table problem: set exp_and_others: the bucket blob \"exp_and_others_bkt.bin\" is missing; no function of the set can be evaluated (drop it with the profile)\nneffscope eval: warning: table problem: set exp_and_others: the ctrl blob \"exp_and_others_ctrl.bin\" is missing; only LUT-less functions can be evaluated (drop it with the profile)\nneffscope eval: warning: table problem: square_1p: pwl_control_base_pos 88 is outside its ctrl block 88..0 (base_pos = base_neg + number of neg octaves)\nneffscope eval: exp_400p(1): the set's bucket or ctrl blob is missing\n"},
		{"--func exp {empty} 1", 1, "", "neffscope eval: no activation set among the files: no <set>.json profile (a subgraph whose engine JSON lists no activation_function_sets has none)\n  error: none of the 1 files is an activation roster (act_info.json) or set profile (<set>.json)\n"},
		{"--bogus --func exp {profile} 1", 2, "", "flag provided but not defined: -bogus\n{usage}"},
		{"--func exp {neff} - 1", 2, "", "neffscope eval: \"-\" is neither a readable file nor a number (decimal or 0x bits)\n"},
		{"--func exp -h", 0, "", "{usage}"},
	}
	_, usage, _ := runCmd(t, "eval", "-h")
	for _, c := range cases {
		var args []string
		for _, a := range strings.Fields(c.args) {
			switch {
			case a == "{set}":
				args = append(args, loose...)
			case paths[a] != "":
				args = append(args, paths[a])
			default:
				args = append(args, a)
			}
		}
		out, errs, code := runCmd(t, append([]string{"eval"}, args...)...)
		for token, p := range paths {
			errs = strings.ReplaceAll(errs, p, token)
		}
		errs = strings.ReplaceAll(errs, usage, "{usage}")
		if code != c.code || out != c.stdout || errs != c.stderr {
			t.Errorf("eval %s:\n got %d %q %q\nwant %d %q %q", c.args, code, out, errs, c.code, c.stdout, c.stderr)
		}
	}
}
