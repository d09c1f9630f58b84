package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestDisasmMeasured: `disasm --ntff` gives each instruction its measured duration (text) and
// times (JSON); the dropped PseudoBranchLabel has none.
func TestDisasmMeasured(t *testing.T) {
	neffPath, profPath := realfiles.Path(t, attnNEFF), realfiles.Path(t, attnProfile)
	out, errs, code := runCmd(t, "disasm", "--sg", "sg00", "--engine", "PE", "--ntff", profPath, neffPath)
	lines := strings.Split(out, "\n")
	if code != 0 || len(lines) < 5 || !strings.HasPrefix(lines[2], "     44.2       0  000000  b1 SetOrderingMode") || !strings.HasPrefix(lines[3], "        -       1  000040  cc PseudoBranchLabel") {
		t.Fatalf("exit %d: %s\n%s", code, errs, strings.Join(lines[:min(5, len(lines))], "\n"))
	}
	out, _, code = runCmd(t, "disasm", "--json", "--sg", "sg00", "--engine", "PE", "--ntff", profPath, neffPath)
	var got struct {
		Streams []struct {
			Instructions []struct {
				Index    int `json:"index"`
				Measured *struct {
					Start uint64 `json:"start_ps"`
					End   uint64 `json:"end_ps"`
				} `json:"measured"`
			} `json:"instructions"`
		} `json:"streams"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 0 {
		t.Fatalf("exit %d: %v", code, err)
	}
	ins := got.Streams[0].Instructions
	timed := 0
	for _, in := range ins {
		if in.Measured != nil {
			timed++
		}
	}
	if timed != 780 || ins[1].Measured != nil || ins[0].Measured == nil || ins[0].Measured.End-ins[0].Measured.Start != 44166 {
		t.Errorf("%d of %d timed; #0 %+v #1 %+v", timed, len(ins), ins[0].Measured, ins[1].Measured)
	}
}

// TestProfileMeasured: `profile --ntff` puts the measured medians beside the static counts:
// those of spec ntff.md §6.1 (attn_v6 sg00, ns).
func TestProfileMeasured(t *testing.T) {
	neffPath, profPath := realfiles.Path(t, attnNEFF), realfiles.Path(t, attnProfile)
	out, errs, code := runCmd(t, "profile", "--csv", "--ntff", profPath, neffPath)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want := map[string]string{"PE/Matmul": "165.0", "PE/Ldweights": "104.2", "Activation/Activate": "294.6", "Activation/ActivationTableLoad": "1283.3",
		"DVE/TensorTensorArithOp": "158.9", "DVE/Copy": "160.4", "DVE/Memset": "91.7", "DVE/Cast": "157.3", "DVE/TensorReduceArithOp": "280.2",
		"Pool/PseudoDmaDirect2d": "309.6", "SP/PseudoDmaDirect2d": "519.6", "PE/EventSemaphore": "52.5", "DVE/EventSemaphore": "26.0", "Pool/EventSemaphore": "19.2", "SP/EventSemaphore": "18.3"}
	seen := 0
	for _, l := range strings.Split(out, "\n") {
		f := strings.Split(l, ",")
		if len(f) < 10 || f[0] != "opcodes" || f[1] != "sg00" {
			continue
		}
		if w, ok := want[f[2]+"/"+f[4]]; ok {
			seen++
			if f[8] != w {
				t.Errorf("%s %s median %s ns, want %s", f[2], f[4], f[8], w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("%d of %d opcodes found:\n%s", seen, len(want), out)
	}
}

// TestSyncTraceMeasured: `sync --trace --ntff` is a Chrome trace in real time: a slice per timed
// instruction at its measured start (µs from the window's start), an arrow per wait, the
// runtime's words, DMA queues and semaphore counters.
func TestSyncTraceMeasured(t *testing.T) {
	neffPath, profPath := realfiles.Path(t, attnNEFF), realfiles.Path(t, attnProfile)
	trace := filepath.Join(t.TempDir(), "t.json")
	if _, errs, code := runCmd(t, "sync", "--trace", trace, "--ntff", profPath, neffPath); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(trace)
	var got struct {
		Other struct {
			Origin      string  `json:"origin_ps"`
			WindowStart float64 `json:"window_start_us"`
		} `json:"otherData"`
		Events []struct {
			Ph   string         `json:"ph"`
			Cat  string         `json:"cat"`
			Name string         `json:"name"`
			Pid  int            `json:"pid"`
			Tid  int            `json:"tid"`
			Ts   float64        `json:"ts"`
			Dur  float64        `json:"dur"`
			Args map[string]any `json:"args"`
		} `json:"traceEvents"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range got.Events {
		count[e.Ph+"/"+e.Cat]++
		if e.Cat == "instruction" {
			for _, k := range []string{"operands", "waits", "name", "source"} {
				if e.Args[k] != nil {
					count["args/"+k]++
				}
			}
		}
		if e.Ts < 0 {
			t.Fatalf("event before the origin: %+v", e)
		}
		if e.Cat == "instruction" && e.Pid == 0 && e.Tid == 0 && e.Args["index"] == 0.0 && (fixed3(e.Ts-got.Other.WindowStart) != "13.337" || e.Dur != 0.044166) {
			t.Errorf("PE #0 at %v µs (window at %v) for %v µs, want 13.337 µs into the window and 0.044166", e.Ts, got.Other.WindowStart, e.Dur)
		}
	}
	if count["X/instruction"] != 1961 || count["s/sync"] != 1369 || count["f/sync"] != 1369 || count["X/runtime"] == 0 || count["X/dma"] == 0 || count["C/"] == 0 {
		t.Errorf("events %v", count)
	}
	// The instructions' slices carry their operands, waits, names and source lines.
	if count["args/operands"] == 0 || count["args/waits"] == 0 || count["args/name"] == 0 || count["args/source"] == 0 {
		t.Errorf("instruction args %v", count)
	}
}

func fixed3(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

// TestExportMeasured: `export --parquet --ntff` fills measured_start_ps and measured_end_ps
// where the profile timed the instruction, null elsewhere; a profile of no FILE exits 1.
func TestExportMeasured(t *testing.T) {
	neffPath, profPath := realfiles.Path(t, attnNEFF), realfiles.Path(t, attnProfile)
	dir := t.TempDir()
	if _, errs, code := runCmd(t, "export", "--parquet", dir, "--ntff", profPath, neffPath); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err := parquet.ReadFile[exportInstRow](filepath.Join(dir, exportInstructions))
	if err != nil {
		t.Fatal(err)
	}
	timed := 0
	for _, r := range rows {
		if (r.MeasuredStartPS == nil) != (r.MeasuredEndPS == nil) {
			t.Fatalf("row %+v", r)
		}
		if r.MeasuredStartPS != nil {
			timed++
			if *r.MeasuredEndPS < *r.MeasuredStartPS {
				t.Errorf("row %+v ends before it starts", r)
			}
		} else if r.OpcodeName != "PseudoBranchLabel" {
			t.Errorf("%s %s #%d %s has no measured time", r.Core, r.Engine, r.InstructionIndex, r.OpcodeName)
		}
	}
	if len(rows) != 1971 || timed != 1961 {
		t.Errorf("%d of %d rows timed", timed, len(rows))
	}
	other := realfiles.Path(t, "nki-moe/profile_v2_new_exec_2.ntff")
	_, errs, code := runCmd(t, "export", "--parquet", t.TempDir(), "--ntff", other, neffPath)
	if code != 1 || !strings.Contains(errs, "ntff.uuid-mismatch") {
		t.Errorf("a profile of no FILE: exit %d: %s", code, errs)
	}
}
