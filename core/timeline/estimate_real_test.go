package timeline

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/sched"
)

// calibrationProfiles are the shared profiles the model is fitted on and held to: attn_v6 with
// its NEFF, the three others from the images they carry (spec ntff.md §4.5).
var calibrationProfiles = []struct{ kernel, profile, neff string }{
	{"attn_v6", attnProfile, attnNEFF},
	{"attn_v4_new", "nki-moe/profile_attn_v4_new_exec_2.ntff", ""},
	{"attn_v5_new", "nki-moe/profile_attn_v5_new_exec_2.ntff", ""},
	{"v2_new", "nki-moe/profile_v2_new_exec_2.ntff", ""},
}

// loadCalibrations reads the four kernels (skipping the test when the shared files are absent).
func loadCalibrations(t *testing.T) []Calibration {
	t.Helper()
	var out []Calibration
	for _, c := range calibrationProfiles {
		pf := openFile(t, c.profile)
		if c.neff != "" {
			nf := openFile(t, c.neff)
			r := Measure(pf.NTFF, nf, pf.Budget)
			if !r.Measured.Joined || len(r.Measured.Cores) == 0 {
				t.Fatalf("%s: not joined", c.kernel)
			}
			out = append(out, Calibration{Kernel: c.kernel, Input: inputOf(nf), Measured: &r.Measured.Cores[0]})
			continue
		}
		meas := ntff.Measure(pf.NTFF, pf.Budget)
		in, notes, m, ok := ProfileInput(pf.NTFF, meas, 0)
		if !ok {
			t.Fatalf("%s: the images do not lay out", c.kernel)
		}
		if len(notes.Unresolved) > 0 || notes.Inferred != notes.Triggers {
			t.Errorf("%s: %d of %d triggers got a semaphore; unresolved %v", c.kernel, notes.Inferred, notes.Triggers, notes.Unresolved)
		}
		model := sched.Build([]sched.CoreInput{in}, nil)
		out = append(out, Calibration{Kernel: c.kernel, Input: Input{Model: model, Cores: []sched.CoreInput{in}, Target: "cayman"}, Measured: m})
	}
	return out
}

// inputOf is InputOf for a NEFF the test opened.
func inputOf(f *inspect.File) Input { return *InputOf(f) }

// errorTable is the leave-one-out table as docs/estimate.md shows it.
func errorTable(kes []KernelError) string {
	var b strings.Builder
	b.WriteString("| kernel | span | PE busy | Activation busy | DVE busy | Pool busy | SP busy | engine waits attributed |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, ke := range kes {
		fmt.Fprintf(&b, "| %s | %+.1f %% | %+.1f %% | %+.1f %% | %+.1f %% | %+.1f %% | %+.1f %% | %.1f %% |\n", ke.Kernel, 100*ke.Span,
			100*ke.Busy["PE"], 100*ke.Busy["Activation"], 100*ke.Busy["DVE"], 100*ke.Busy["Pool"], 100*ke.Busy["SP"], 100*ke.Attributed)
	}
	return b.String()
}

// TestLeaveOneOut predicts each shared kernel with the model fitted on the other three, and
// holds the errors to what docs/estimate.md and Validation state.
func TestLeaveOneOut(t *testing.T) {
	cals := loadCalibrations(t)
	kes := LeaveOneOut(Default, cals)
	t.Logf("leave-one-out:\n%s", errorTable(kes))
	worst := worstOf(kes)
	// The committed table is this run's: a model change that moves a figure updates it
	// (and docs/estimate.md) with the literal printed here.
	committed := KernelError{Span: Validation.Span, Busy: Validation.Busy, Attributed: Validation.Attributed}
	if !sameErrors(worst, committed) || len(kes) != len(Validation.PerKernel) {
		t.Errorf("Validation is not this leave-one-out; commit:\n%s", validationLiteral(worst, kes))
	}
	for k, ke := range kes {
		if k < len(Validation.PerKernel) && !sameErrors(ke, Validation.PerKernel[k]) {
			t.Errorf("%s: %+v, Validation.PerKernel says %+v", ke.Kernel, ke, Validation.PerKernel[k])
		}
	}
	// The goal's floor (issue 42): span within 25 %, PE/Activation/DVE busy within 25 %, 70 %
	// of the blocked waits attributed. Pool's busy time is not within its 50 %: docs/estimate.md
	// says why, and the CLI says it beside the figure.
	if worst.Span > 0.25 || worst.Busy["PE"] > 0.25 || worst.Busy["Activation"] > 0.25 || worst.Busy["DVE"] > 0.25 || worst.Attributed < 0.70 {
		t.Errorf("leave-one-out misses the goal: %+v", worst)
	}
}

// sameErrors says whether two error sets agree to the table's precision (0.1 %).
func sameErrors(a, b KernelError) bool {
	close := func(x, y float64) bool { return math.Abs(x-y) < 0.0015 }
	if !close(a.Span, b.Span) || !close(a.Attributed, b.Attributed) || len(a.Busy) != len(b.Busy) {
		return false
	}
	for e, v := range a.Busy {
		if !close(v, b.Busy[e]) {
			return false
		}
	}
	return true
}

// validationLiteral is the Go literal of Validation for a leave-one-out run.
func validationLiteral(worst KernelError, kes []KernelError) string {
	busy := func(m map[string]float64) string {
		var parts []string
		for _, e := range []string{"PE", "Activation", "Pool", "DVE", "SP"} {
			if v, ok := m[e]; ok {
				parts = append(parts, fmt.Sprintf("%q: %.3f", e, v))
			}
		}
		return "map[string]float64{" + strings.Join(parts, ", ") + "}"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Span: %.3f, Busy: %s, Attributed: %.3f,\nPerKernel: []KernelError{\n", worst.Span, busy(worst.Busy), worst.Attributed)
	for _, ke := range kes {
		fmt.Fprintf(&b, "\t{Kernel: %q, Span: %.3f, Busy: %s, Attributed: %.3f},\n", ke.Kernel, ke.Span, busy(ke.Busy), ke.Attributed)
	}
	b.WriteString("},")
	return b.String()
}

// worstOf is the largest |error| of each figure and the smallest attribution.
func worstOf(kes []KernelError) KernelError {
	w := KernelError{Busy: map[string]float64{}, Attributed: 1}
	for _, ke := range kes {
		w.Span = max(w.Span, math.Abs(ke.Span))
		for e, v := range ke.Busy {
			w.Busy[e] = max(w.Busy[e], math.Abs(v))
		}
		w.Attributed = min(w.Attributed, ke.Attributed)
	}
	return w
}

// TestCostTableIsTheFit holds the committed cost table to the fit on all four kernels: a
// figure that drifts from what the profiles measure fails here with the value to commit.
func TestCostTableIsTheFit(t *testing.T) {
	cals := loadCalibrations(t)
	f := Fit(Default, cals)
	for i := range f.Ops {
		got, want := Default.Ops[i], f.Ops[i]
		if math.Abs(got.Latency-want.Latency) > 0.51 || math.Abs(got.Issue-want.Issue) > 0.51 {
			t.Errorf("%s 0x%02x: issue %g latency %g, the fit says %g %g", got.Engine, got.Opcode, got.Issue, got.Latency, want.Issue, want.Latency)
		}
	}
	if Default.Semaphore.SameEngine != f.Semaphore.SameEngine || Default.Semaphore.OtherEngine != f.Semaphore.OtherEngine {
		t.Errorf("semaphore latency %g/%g, the fit says %g/%g", Default.Semaphore.SameEngine, Default.Semaphore.OtherEngine, f.Semaphore.SameEngine, f.Semaphore.OtherEngine)
	}
	if Default.Retire.IntervalNS != f.Retire.IntervalNS {
		t.Errorf("retire interval %g ns, the fit says %g", Default.Retire.IntervalNS, f.Retire.IntervalNS)
	}
	keys := []string{}
	for _, c := range cals {
		keys = append(keys, c.Kernel)
	}
	sort.Strings(keys)
	if strings.Join(CalibratedOn, ",") != strings.Join(keys, ",") {
		t.Errorf("CalibratedOn %v, fitted on %v", CalibratedOn, keys)
	}
}
