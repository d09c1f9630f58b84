package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pwp"
)

func init() {
	commands["eval"] = command{summary: "run an activation function's PWP table at given inputs, or sweep its error", run: runEval}
}

const evalUsage = `usage: neffscope eval [--sg SG] [--set SET] --func FUNC [--mode sim|horner] [--nan table|sim] [--alpha A] FILE... X...
       neffscope eval --sweep LO HI N [--sg SG] [--set SET] --func FUNC [--mode sim|horner] FILE...

FILE is a .neff or loose activation files (act_info.json, <set>.json, <set>_bkt.bin,
<set>_ctrl.bin). FUNC is bare (exp), full (exp_400p) or #ID (the func_id an Activation
instruction names, e.g. #7). SET is a name or, in a NEFF, the index a LoadActFuncSet
names (the engine JSON's activation_function_sets order). X is a decimal float or a
0x-prefixed f32 bit pattern. Each X prints one line: x_bits y_bits y path.
--sweep prints the max abs / rel / ulp error against the float64 reference over N points.

` + exitHelp + `; 1 also when an X falls
where the table has no answer, FUNC is not in the files, or a sweep has no error figure.
`

// evalValued lists the options that take a value (parsed by hand so that negative numbers
// like -3 are inputs, not options).
var evalValued = map[string]bool{"sg": true, "set": true, "func": true, "mode": true, "nan": true, "alpha": true}

// parseX reads a decimal float or a 0x-prefixed bit pattern.
func parseX(s string) (float32, bool) {
	if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
		u, err := strconv.ParseUint(s[2:], 16, 32)
		return math.Float32frombits(uint32(u)), err == nil
	}
	f, err := strconv.ParseFloat(s, 32)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return float32(f), true
}

func runEval(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, evalUsage); fs.PrintDefaults() }
	sg := fs.String("sg", "", "subgraph of a NEFF (sg00, 00 or 0); default: all")
	set := fs.String("set", "", "set name; default: the first set (load order) holding FUNC")
	fn := fs.String("func", "", "function, bare (exp) or full (exp_400p)")
	modeS := fs.String("mode", "sim", "arithmetic: sim (bit-exact simulator model) or horner (fp32 Horner)")
	nanS := fs.String("nan", "table", "NaN input: table (fnan_result, HW-like) or sim (falls through)")
	alpha := fs.Float64("alpha", 0, "parametric_relu slope for x ≤ 0")
	flagArgs, pos, sweep, err := splitEvalArgs(args)
	if err != nil {
		fmt.Fprintln(stderr, "neffscope eval:", err)
		return 2
	}
	if err := fs.Parse(flagArgs); err != nil {
		return parseExit(err)
	}
	opt, err := evalOptions(*modeS, *nanS, *alpha)
	if err != nil {
		fmt.Fprintln(stderr, "neffscope eval:", err)
		return 2
	}
	if *fn == "" {
		fmt.Fprintln(stderr, "neffscope eval: --func is required (e.g. --func exp)")
		fs.Usage()
		return 2
	}
	files, xs, xText, err := splitFilesAndXs(pos)
	if err != nil {
		fmt.Fprintln(stderr, "neffscope eval:", err)
		return 2
	}
	members, err := loadActivationFiles(files, *sg)
	if err != nil {
		fmt.Fprintln(stderr, "neffscope eval:", err)
		if errors.As(err, new(unreadableError)) {
			return 2
		}
		return 1
	}
	b := pwp.OpenFiles(members)
	f, err := findFunction(b, *set, *fn, sgDir(*sg))
	if err != nil {
		fmt.Fprintln(stderr, "neffscope eval:", err)
		for _, fd := range b.Findings {
			fmt.Fprintf(stderr, "  %s: %s\n", fd.Severity, fd.Message)
		}
		return 1
	}
	for _, fd := range f.Set.AllFindings() {
		if fd.Severity == "error" {
			fmt.Fprintf(stderr, "neffscope eval: warning: table problem: %s\n", fd.Message)
		}
	}
	if sweep != nil {
		return runSweep(f, sweep, opt, stdout, stderr)
	}
	if len(xs) == 0 {
		fmt.Fprintln(stderr, "neffscope eval: no X given (e.g. 0.5 or 0x3f000000), and no --sweep")
		return 2
	}
	return evalEach(f, xs, xText, opt, stdout, stderr)
}

// splitEvalArgs parses eval's arguments by hand, so that a negative number is an X, not an
// option: it returns the options for the flag set, the positionals, and --sweep's LO HI N.
func splitEvalArgs(args []string) (flagArgs, pos, sweep []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if _, isNum := parseX(a); isNum || !strings.HasPrefix(a, "-") || a == "-" {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		eq := strings.IndexByte(name, '=')
		if eq >= 0 {
			name = name[:eq]
		}
		switch {
		case name == "sweep":
			if i+3 >= len(args) {
				return nil, nil, nil, errors.New("--sweep needs LO HI N")
			}
			sweep = args[i+1 : i+4]
			i += 3
		case evalValued[name] && eq < 0 && i+1 < len(args):
			flagArgs = append(flagArgs, a, args[i+1])
			i++
		default:
			flagArgs = append(flagArgs, a)
		}
	}
	return flagArgs, pos, sweep, nil
}

// evalOptions reads --mode, --nan and --alpha.
func evalOptions(mode, nan string, alpha float64) (pwp.Options, error) {
	m, err := pwp.ParseMode(mode)
	if err != nil {
		return pwp.Options{}, err
	}
	opt := pwp.Options{Mode: m, Alpha: float32(alpha)}
	switch nan {
	case "table", "hw":
	case "sim":
		opt.NaN = pwp.NaNSim
	default:
		return pwp.Options{}, fmt.Errorf("--nan %q: table or sim", nan)
	}
	return opt, nil
}

// splitFilesAndXs sorts the positionals: files first; a token that parses as a number and
// names no file is an X (xText keeps each as given).
func splitFilesAndXs(pos []string) (files []string, xs []float32, xText []string, err error) {
	for _, p := range pos {
		if _, err := os.Stat(p); err == nil && len(xs) == 0 {
			files = append(files, p)
			continue
		}
		x, ok := parseX(p)
		if !ok {
			return nil, nil, nil, fmt.Errorf("%q is neither a readable file nor a number (decimal or 0x bits)", p)
		}
		xs, xText = append(xs, x), append(xText, p)
	}
	if len(files) == 0 {
		return nil, nil, nil, errors.New("no FILE given (a .neff or loose activation files)")
	}
	return files, xs, xText, nil
}

// evalEach prints one line per X (x bits, y bits, y, the table's path) and says on stderr
// when an X is outside the table's range or has no answer (exit 1).
func evalEach(f *pwp.Function, xs []float32, xText []string, opt pwp.Options, stdout, stderr io.Writer) int {
	code := 0
	for i, x := range xs {
		y, tr := f.EvaluateWith(x, opt)
		fmt.Fprintf(stdout, "%08x %08x %s %s\n", math.Float32bits(x), math.Float32bits(y), pwp.FormatFloat32(y), tr)
		if dom, ok := f.Domain(); ok && !dom.Contains(float64(x)) {
			fmt.Fprintf(stderr, "neffscope eval: %s(%s): outside the table's range %s\n", f.Name, xText[i], dom)
		}
		if tr.Err != nil {
			fmt.Fprintf(stderr, "neffscope eval: %s(%s): %v\n", f.Name, xText[i], tr.Err)
			code = 1
		}
	}
	return code
}

func runSweep(f *pwp.Function, args []string, opt pwp.Options, stdout, stderr io.Writer) int {
	lo, err1 := strconv.ParseFloat(args[0], 64)
	hi, err2 := strconv.ParseFloat(args[1], 64)
	n, err3 := strconv.Atoi(args[2])
	if err1 != nil || err2 != nil || err3 != nil || n < 1 || !(lo <= hi) {
		fmt.Fprintf(stderr, "neffscope eval: --sweep %s %s %s: want LO ≤ HI (numbers) and N ≥ 1\n", args[0], args[1], args[2])
		return 2
	}
	ref := f.Reference()
	if ref == nil {
		fmt.Fprintf(stderr, "neffscope eval: %s has no reference function to compare with\n", f.Name)
		return 1
	}
	// The error is measured only where the table is meant to be right (its catalog domain).
	if dom, ok := f.Domain(); ok {
		clo, chi := max(lo, dom.Lo), min(hi, dom.Hi)
		if clo > chi {
			fmt.Fprintf(stdout, "%s (set %s): [%g, %g] is outside the table's range %s; no error figure\n", f.Name, f.Set.Name, lo, hi, dom)
			return 1
		}
		if clo != lo || chi != hi {
			fmt.Fprintf(stdout, "%s (set %s): [%g, %g] reaches outside the table's range %s; the sweep covers [%g, %g]\n", f.Name, f.Set.Name, lo, hi, dom, clo, chi)
			lo, hi = clo, chi
		}
	}
	st := f.Sweep(lo, hi, n, opt)
	points := fmt.Sprintf("%d points", n)
	if n > pwp.MaxSweepPoints { // say what was evaluated, not what was asked
		points = fmt.Sprintf("%d points (of the %d asked: a sweep evaluates at most %d)", pwp.MaxSweepPoints, n, pwp.MaxSweepPoints)
	}
	fmt.Fprintf(stdout, "%s (set %s), mode %s, %s on [%g, %g]: %d compared, %d skipped, %d finiteness mismatches, %d table errors\n",
		f.Name, f.Set.Name, opt.Mode, points, lo, hi, st.N, st.Skipped, st.Mismatched, st.Failed)
	if st.N == 0 {
		fmt.Fprintf(stderr, "neffscope eval: no point of the sweep could be compared (%d skipped, %d table errors): there is no error figure\n", st.Skipped, st.Failed)
		return 1
	}
	for _, w := range []struct {
		what string
		v    float64
		at   float32
	}{{"abs", st.MaxAbs, st.AtAbs}, {"rel", st.MaxRel, st.AtRel}, {"ulp", st.MaxULP, st.AtULP}} {
		y, tr := f.EvaluateWith(w.at, opt)
		fmt.Fprintf(stdout, "max %s error %.6g at x=%s (%08x): y=%s ref=%.9g path %s\n", w.what, w.v, pwp.FormatFloat32(w.at), math.Float32bits(w.at),
			pwp.FormatFloat32(y), ref(float64(w.at), float64(opt.Alpha)), tr)
	}
	if st.Mismatched > 0 {
		fmt.Fprintf(stdout, "first finiteness mismatch at x=%s\n", pwp.FormatFloat32(st.FirstMismatch))
	}
	return 0
}

// sgDir normalises --sg: "0", "00" or "sg00" → "sg00".
func sgDir(sg string) string {
	if sg == "" || strings.HasPrefix(sg, "sg") {
		return sg
	}
	if n, err := strconv.Atoi(sg); err == nil {
		return fmt.Sprintf("sg%02d", n)
	}
	return sg
}

// loadActivationFiles reads NEFFs (their activation members, keyed "<neff>:<member>" when
// several NEFFs are given) and loose files (keyed by base name).
// unreadableError is a FILE that could not be read at all (exit 2), not one without tables.
type unreadableError struct{ error }

func (e unreadableError) Unwrap() error { return e.error }

func loadActivationFiles(files []string, sg string) (map[string][]byte, error) {
	sg = sgDir(sg)
	out := map[string][]byte{}
	neffs := 0
	for _, p := range files {
		if strings.HasSuffix(strings.ToLower(p), ".neff") {
			neffs++
		}
	}
	for _, p := range files {
		if !strings.HasSuffix(strings.ToLower(p), ".neff") {
			b, more, err := readBounded(p, maxLooseTable)
			if err != nil {
				return nil, unreadableError{err}
			}
			if more {
				return nil, fmt.Errorf("%s is larger than %d bytes, more than any activation-table file; it is not read", safe(p), maxLooseTable)
			}
			out[filepath.Base(p)] = b
			continue
		}
		fh, size, err := openInputSize(p)
		if err != nil {
			return nil, unreadableError{err}
		}
		m, err := neff.ReadMembersLimit(fh, size, maxLooseTable*2, func(path string, size int64) bool {
			if sg != "" && !strings.HasPrefix(path, sg+"/") {
				return false
			}
			return inspect.ActivationMember(path, size)
		})
		fh.Close()
		if err != nil && len(m) == 0 {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("%s has no activation tables%s", p, map[bool]string{true: " in " + sg, false: ""}[sg != ""])
		}
		names := make([]string, 0, len(m))
		for k := range m {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			key := k
			if neffs > 1 {
				key = filepath.Base(p) + ":" + k
			}
			out[key] = m[k]
		}
	}
	return out, nil
}

// findFunction resolves --set (a name, or a NEFF-local load index) and --func.
func findFunction(b *pwp.Bundle, set, fn, dir string) (*pwp.Function, error) {
	i, err := strconv.Atoi(set)
	if err != nil {
		return b.Function(set, fn)
	}
	if dir == "" {
		dirs := make([]string, 0, len(b.LoadOrders))
		for d := range b.LoadOrders {
			dirs = append(dirs, d)
		}
		sort.Strings(dirs)
		if len(dirs) == 0 {
			return nil, fmt.Errorf("--set %d is a load index, but no engine JSON (Activation.json) lists activation_function_sets", i)
		}
		dir = dirs[0]
	}
	s := b.LoadedSet(dir, i)
	if s == nil {
		return nil, fmt.Errorf("--set %d: %s loads %d sets (%s)", i, dir, len(b.LoadOrders[dir]), strings.Join(b.LoadOrders[dir], ", "))
	}
	if f := s.Function(fn); f != nil {
		return f, nil
	}
	return b.Function(s.Name, fn)
}
