package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestTimelineEstimated: `timeline` on a NEFF alone estimates it: the JSON has a row for every
// instruction that runs, each with why it waited, the critical path, busy and idle by cause,
// and the model's measured error and what it leaves out; the text says the same beside its
// figures.
func TestTimelineEstimated(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	rep, errs, code := timelineJSON(t, p)
	if code != 0 || rep.Measured != nil || rep.Estimated == nil || len(rep.Estimated.Cores) != 2 {
		t.Fatalf("exit %d, measured %v, estimated %+v: %s", code, rep.Measured != nil, rep.Estimated, errs)
	}
	e := rep.Estimated
	if e.Model.Error.Span <= 0 || len(e.Model.Error.PerKernel) == 0 || len(e.Model.NotCovered) == 0 || e.Model.Target != "cayman" {
		t.Errorf("model %+v", e.Model)
	}
	c := e.Cores[0]
	rows := 0
	reasons := map[string]int{}
	for _, eng := range c.Engines {
		rows += len(eng.Rows)
		var idle int64
		for _, ic := range eng.Idle {
			idle += ic.PS
		}
		if idle != eng.IdlePS || eng.BusyPS+eng.IdlePS < c.SpanPS {
			t.Errorf("%s: busy %d + idle %d (causes %d) does not cover the span %d", eng.Engine, eng.BusyPS, eng.IdlePS, idle, c.SpanPS)
		}
		for _, r := range eng.Rows {
			reasons[r.Waited.Reason]++
			if r.EndPS < r.StartPS || r.StartPS < 0 || r.EndPS > c.SpanPS {
				t.Errorf("%s #%d: [%d, %d] outside the span %d", eng.Engine, r.Index, r.StartPS, r.EndPS, c.SpanPS)
			}
			if (r.Waited.Reason == "semaphore" || r.Waited.Reason == "dma") && r.Waited.Producer == nil {
				t.Errorf("%s #%d waited on %s without a producer", eng.Engine, r.Index, r.Waited.Reason)
			}
		}
	}
	// matmul_small sg00: 29 words (12 PE, 5 Activation, 7 Pool, 2 DVE, 3 SP), every one a row (a PseudoBranchLabel too, of no time).
	if rows != 29 || reasons["dma"] == 0 || reasons["semaphore"] == 0 || len(c.CriticalPath) < 2 {
		t.Errorf("%d rows, reasons %v, critical path %v", rows, reasons, c.CriticalPath)
	}
	text, _, code := runCmd(t, "timeline", p)
	for _, want := range []string{"estimated from the NEFF alone", "Measured error (leave-one-out", "Not modelled: collectives", "sg00: estimated span", "critical path:", "idle, by what it waited for", "test_spike_async.py:58"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("exit %d; the text lacks %q:\n%s", code, want, text)
		}
	}
}

// export --parquet's estimated_start_ps and estimated_end_ps are timeline --json's estimated
// rows, instruction for instruction.
func TestExportEstimatedColumns(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	rep, _, code := timelineJSON(t, p)
	if code != 0 || rep.Estimated == nil {
		t.Fatalf("timeline exit %d", code)
	}
	want := map[exportKey][2]int64{}
	for _, c := range rep.Estimated.Cores {
		for _, e := range c.Engines {
			for _, r := range e.Rows {
				want[exportKey{c.Core, e.Engine, r.Index}] = [2]int64{r.StartPS, r.EndPS}
			}
		}
	}
	dir := t.TempDir()
	if _, errs, code := runCmd(t, "export", "--parquet", dir, p); code != 0 {
		t.Fatalf("export exit %d: %s", code, errs)
	}
	insts, err := parquet.ReadFile[exportInstRow](filepath.Join(dir, exportInstructions))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range insts {
		w, ok := want[exportKey{r.Core, r.Engine, r.InstructionIndex}]
		if !ok || r.EstimatedStartPS == nil || r.EstimatedEndPS == nil || *r.EstimatedStartPS != w[0] || *r.EstimatedEndPS != w[1] {
			t.Fatalf("%s %s #%d: estimated %v..%v, timeline --json %v (%v)", r.Core, r.Engine, r.InstructionIndex, r.EstimatedStartPS, r.EstimatedEndPS, w, ok)
		}
	}
	if len(insts) != len(want) {
		t.Errorf("%d rows, timeline --json has %d", len(insts), len(want))
	}
}

// sync --trace --estimated is a Chrome trace in estimated time: a slice per instruction that
// runs, its args timeline --json's row; an arrow per wait that set a start.
func TestSyncTraceEstimated(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	rep, _, _ := timelineJSON(t, p)
	out := filepath.Join(t.TempDir(), "trace.json")
	if _, errs, code := runCmd(t, "sync", "--trace", out, "--estimated", p); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var tr struct {
		TraceEvents []struct {
			Ph, Cat string
			Pid     int
			Args    struct {
				Index            int32
				EstimatedStartPS int64 `json:"estimated_start_ps"`
				EstimatedEndPS   int64 `json:"estimated_end_ps"`
			}
		}
	}
	if err := json.Unmarshal(b, &tr); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	slices, flows := 0, 0
	for _, e := range tr.TraceEvents {
		switch e.Ph {
		case "X":
			slices++
		case "s":
			flows++
		}
	}
	rows, caused := 0, 0
	for _, c := range rep.Estimated.Cores {
		for _, e := range c.Engines {
			rows += len(e.Rows)
			for _, r := range e.Rows {
				if r.Waited.Reason == "semaphore" || r.Waited.Reason == "dma" {
					caused++
				}
			}
		}
	}
	if slices != rows || flows != caused {
		t.Errorf("%d slices, %d arrows; timeline --json has %d rows, %d waits that set a start", slices, flows, rows, caused)
	}
	if _, errs, code := runCmd(t, "sync", "--trace", out+"2", "--estimated", "--ntff", p, p); code != 2 || !strings.Contains(errs, "give one") {
		t.Errorf("--estimated with --ntff: exit %d: %s", code, errs)
	}
}

// With a profile of the NEFF, each estimated row carries its error against the measured time
// (every instruction the profile times has one) and each engine its distribution; the text
// prints the median and p90 of |start error| and |duration error| per engine.
func TestTimelineRowErrors(t *testing.T) {
	neffPath, profPath := realfiles.Path(t, attnNEFF), realfiles.Path(t, attnProfile)
	rep, errs, code := timelineJSON(t, "--ntff", profPath, neffPath)
	if code != 0 || rep.Measured == nil || rep.Estimated == nil {
		t.Fatalf("exit %d: %s", code, errs)
	}
	timed := map[string]map[int32]bool{}
	for _, c := range rep.Measured.Cores {
		for _, e := range c.Engines {
			timed[c.Core+"/"+e.Engine] = map[int32]bool{}
			for _, r := range e.Rows {
				timed[c.Core+"/"+e.Engine][r.Index] = true
			}
		}
	}
	with := 0
	for _, c := range rep.Estimated.Cores {
		for _, e := range c.Engines {
			n := 0
			for _, r := range e.Rows {
				if (r.Error != nil) != timed[c.Core+"/"+e.Engine][r.Index] {
					t.Errorf("%s %s #%d: error %+v, measured %v", c.Core, e.Engine, r.Index, r.Error, timed[c.Core+"/"+e.Engine][r.Index])
				}
				if r.Error != nil {
					n++
				}
			}
			with += n
			if e.RowErrors == nil || e.RowErrors.Rows != n || e.RowErrors.StartP90PS < e.RowErrors.StartMedianPS || e.RowErrors.DurationP90PS < e.RowErrors.DurationMedianPS {
				t.Errorf("%s %s: %d rows with errors, distribution %+v", c.Core, e.Engine, n, e.RowErrors)
			}
		}
	}
	// Every instruction that runs is timed (ntff.md §4.3: 1,961 of 1,971).
	if with != 1961 {
		t.Errorf("%d rows with errors, want 1,961", with)
	}
	text, _, code := runCmd(t, "timeline", "--ntff", profPath, neffPath)
	if code != 0 || !strings.Contains(text, "per instruction, estimate against measured") || !strings.Contains(text, "start median") || !strings.Contains(text, "duration p90") {
		t.Errorf("exit %d; the text lacks the per-instruction errors:\n%s", code, text)
	}
}
