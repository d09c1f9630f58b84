package timeline

import (
	"bytes"
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
			out = append(out, Calibration{Kernel: c.kernel, Input: inputOf(nf), Measured: &r.Measured.Cores[0], Records: ReadRecords(pf.NTFF, 0, pf.Budget)})
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
		out = append(out, Calibration{Kernel: c.kernel, Input: Input{Model: model, Cores: []sched.CoreInput{in}, Target: "cayman"}, Measured: m, Records: ReadRecords(pf.NTFF, 0, pf.Budget)})
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
	// The goal's floor: span within 25 %, PE/Activation/DVE busy within 25 % and Pool's
	// within 50 %, 70 % of the blocked waits attributed; and its aim (15 %) where the model
	// meets it: the span, Activation, DVE and Pool (PE is at 19.6 %, SP has no goal).
	if worst.Span > 0.25 || worst.Busy["PE"] > 0.25 || worst.Busy["Activation"] > 0.25 || worst.Busy["DVE"] > 0.25 || worst.Busy["Pool"] > 0.50 || worst.Attributed < 0.70 {
		t.Errorf("leave-one-out misses the goal's floor: %+v", worst)
	}
	if worst.Span > 0.15 || worst.Busy["Activation"] > 0.15 || worst.Busy["DVE"] > 0.15 || worst.Busy["Pool"] > 0.15 {
		t.Errorf("leave-one-out misses the aim it met: %+v", worst)
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
	if g, w := dgeFigures(Default), dgeFigures(f); g != w {
		t.Errorf("DGE figures %+v, the fit says %+v", g, w)
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

// TestImagesRebuildTheNEFF rebuilds attn_v6 from its profile's images (ProfileInput) and holds
// it to the NEFF: every compiler word equal but the lowered ones (0xD4's addresses relocated,
// 0xC1's queue name, block id and padding), each inferred block semaphore equal to the engine
// JSON's, the same producer for every wait, the measured rows equal to the join's, and the same
// estimate.
func TestImagesRebuildTheNEFF(t *testing.T) {
	pf, nf := openFile(t, attnProfile), openFile(t, attnNEFF)
	meas := ntff.Measure(pf.NTFF, pf.Budget)
	in, notes, m, ok := ProfileInput(pf.NTFF, meas, 0)
	if !ok || notes.Triggers != 20 || notes.Inferred != 20 || len(notes.Unresolved) != 0 {
		t.Fatalf("ok %v, notes %+v", ok, notes)
	}
	neff := inputOf(nf)
	for k, s := range in.Streams {
		ns := neff.Cores[0].Streams[k]
		if s.ISA.Len() != ns.ISA.Len() {
			t.Fatalf("%s: %d words, the NEFF has %d", s.Engine.Name, s.ISA.Len(), ns.ISA.Len())
		}
		for i := range s.ISA.Len() {
			a, b := s.ISA.Word(i), ns.ISA.Word(i)
			switch {
			case b[0] == 0xD4:
				if a[0] != 0xD4 || !bytes.Equal(a[4:0x10], b[4:0x10]) || !bytes.Equal(a[0x18:0x28], b[0x18:0x28]) {
					t.Errorf("%s #%d: the rebuilt 0xD4 differs outside its addresses", s.Engine.Name, i)
				}
			case b[0] == 0xC1:
				if a[0] != 0xC1 || !bytes.Equal(a[4:12], b[4:12]) {
					t.Errorf("%s #%d: the rebuilt 0xC1's band differs", s.Engine.Name, i)
				}
			case !bytes.Equal(a, b):
				t.Errorf("%s #%d: the rebuilt word differs", s.Engine.Name, i)
			}
		}
	}
	// The inferred semaphores are DVE.json's (blocks 0–19 on S[24..39], round robin).
	dve := neff.Cores[0].Streams[3].Engine
	for j, blk := range in.Streams[3].Engine.DMABlocks {
		if truth := dve.BlocksWithID(int64(j)); len(truth) != 1 || truth[0].Semaphore != blk.Semaphore {
			t.Errorf("block %d: inferred S[%d], DVE.json says %v", j, blk.Semaphore, truth)
		}
	}
	mi, mn := sched.Build([]sched.CoreInput{in}, nil).Cores[0], neff.Model.Cores[0]
	if len(mi.Waits) != len(mn.Waits) {
		t.Fatalf("%d waits, the NEFF's model has %d", len(mi.Waits), len(mn.Waits))
	}
	for j := range mi.Waits {
		if a, b := mi.Waits[j], mn.Waits[j]; a.At != b.At || a.Producer != b.Producer || a.Code != b.Code {
			t.Errorf("wait %d: %s ← %s (%s); the NEFF's: %s ← %s (%s)", j, mi.Ref(a.At), mi.Ref(a.Producer), a.Code, mn.Ref(b.At), mn.Ref(b.Producer), b.Code)
		}
	}
	joined := Measure(pf.NTFF, nf, pf.Budget).Measured.Cores[0]
	for k, e := range m.Engines {
		je := joined.Engines[k]
		if e.BusyPS != je.BusyPS || len(e.Rows) != len(je.Rows) {
			t.Errorf("%s: busy %d, %d rows; the join's %d, %d", e.Engine, e.BusyPS, len(e.Rows), je.BusyPS, len(je.Rows))
			continue
		}
		for i := range e.Rows {
			if e.Rows[i] != je.Rows[i] {
				t.Errorf("%s row %d: %+v, the join's %+v", e.Engine, i, e.Rows[i], je.Rows[i])
				break
			}
		}
	}
}

// dgeFigures are the fitted figures of the DGE and the DMA trigger latencies.
func dgeFigures(m *CostModel) [14]float64 {
	g := m.DGE
	return [14]float64{g.IssueNS, g.IssueStepNS, g.FirstLapStepNS, g.HandoffNS, g.PostWaitNS, g.LatencyNS, g.CadenceNS,
		g.WriteNS, g.MinNS, g.PollNS, g.SlowBacklogNS, float64(g.SlowTriggers), m.DMA.TriggerDynamicNS, m.DMA.TriggerStaticNS}
}

// The DMA figures not refitted per fold (the per-element issue times, the element latency, the
// completion: measured on attn_v6's transfers) do not depend on the kernel held out: on each of
// the four, the software DGE's transfers of 128 × 256 B and 128 × 2 B take the same time from
// first packet to last within 6 % of attn_v6's.
func TestDMATransferTimesAcrossKernels(t *testing.T) {
	cals := loadCalibrations(t)
	ref := map[int64]float64{}
	for _, c := range cals {
		byBytes := map[int64][]float64{}
		core := c.Input.Model.Cores[0]
		for k, si := range c.Input.Cores[0].Streams {
			if si.ISA == nil || !Default.dgeEngine(core.Engines[k].Name) {
				continue
			}
			var sizes []int64
			queue := ""
			for i, w := range si.ISA.Words() {
				if w[0] == 0xD4 {
					sizes = append(sizes, Default.direct2dTransfer(int32(i), w, true).elemBytes)
					if q := triggerQueue(core, k, i); q != "" {
						queue = q
					}
				}
			}
			ts := c.Records.Transfers[queue]
			if len(ts) != len(sizes) {
				t.Fatalf("%s: %d transfers on %q for %d triggers", c.Kernel, len(ts), queue, len(sizes))
			}
			for j, tr := range ts {
				byBytes[sizes[j]] = append(byBytes[sizes[j]], float64(tr.Last-tr.First)/1000)
			}
		}
		for b, v := range byBytes {
			m := median(v)
			t.Logf("%s: %d transfers of 128 × %d B, first packet to last %.0f ns", c.Kernel, len(v), b, m)
			if r, ok := ref[b]; !ok {
				ref[b] = m
			} else if math.Abs(m-r)/r > 0.06 {
				t.Errorf("%s: 128 × %d B take %.0f ns, attn_v6's %.0f", c.Kernel, b, m, r)
			}
		}
	}
}
