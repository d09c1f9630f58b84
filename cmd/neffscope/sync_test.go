package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// keysOf lists an object's keys, sorted.
func keysOf(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// On every real NEFF, `sync --json` keeps its contract: cores, each wait with engine, index,
// semaphore, value and its producer (dma on a DMA trigger), no lint; and `--trace` is a Chrome
// trace with a slice per instruction and an arrow (s and f) per wait.
func TestSyncJSONAndTraceOnRealNEFFs(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	for _, p := range paths {
		out, errs, code := runCmd(t, "sync", "--json", p)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", p, code, errs)
		}
		var got struct {
			Cores []map[string]any `json:"cores"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Cores) == 0 {
			t.Fatalf("%s: %v", p, err)
		}
		waits, dma := 0, 0
		for _, c := range got.Cores {
			if k := keysOf(c); k != "core,lints,undecided,waits" {
				t.Errorf("%s: core keys %s", p, k)
			}
			if ls := c["lints"].([]any); len(ls) != 0 {
				t.Errorf("%s %v: lints %v", p, c["core"], ls)
			}
			if us := c["undecided"].([]any); len(us) != 0 {
				t.Errorf("%s %v: undecided %v", p, c["core"], us)
			}
			for _, w := range c["waits"].([]any) {
				w := w.(map[string]any)
				waits++
				if k := keysOf(w); k != "engine,index,producer,semaphore,value" {
					t.Fatalf("%s: wait keys %s: %v", p, k, w)
				}
				prod, ok := w["producer"].(map[string]any)
				if !ok {
					t.Fatalf("%s: wait without producer: %v", p, w)
				}
				switch k := keysOf(prod); k {
				case "dma,engine,index":
					dma++
				case "engine,index":
				default:
					t.Fatalf("%s: producer keys %s", p, k)
				}
			}
		}
		tr := filepath.Join(t.TempDir(), "trace.json")
		if _, errs, code := runCmd(t, "sync", "--trace", tr, p); code != 0 {
			t.Fatalf("%s: --trace exit %d: %s", p, code, errs)
		}
		b, err := os.ReadFile(tr)
		if err != nil {
			t.Fatal(err)
		}
		var trace struct {
			TraceEvents []struct {
				Ph  string `json:"ph"`
				Pid *int   `json:"pid"`
				Tid *int   `json:"tid"`
				Ts  *int   `json:"ts"`
				ID  int    `json:"id"`
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal(b, &trace); err != nil {
			t.Fatalf("%s: trace: %v", p, err)
		}
		ph := map[string]int{}
		for _, e := range trace.TraceEvents {
			ph[e.Ph]++
			if e.Ph != "M" && (e.Pid == nil || e.Tid == nil || e.Ts == nil) {
				t.Fatalf("%s: trace event without pid, tid or ts: %+v", p, e)
			}
		}
		if ph["s"] != waits || ph["f"] != waits || ph["X"] == 0 {
			t.Errorf("%s: trace has %v for %d waits", p, ph, waits)
		}
		t.Logf("%s: %d waits (%d by DMA), %d slices", filepath.Base(p), waits, dma, ph["X"])
	}
}

// A deadlock built from matmul_small (Activation #3 made to wait for PE #9, which comes after
// PE #8's wait for Activation #3): `sync --json` names both waits with sync.cycle and exits 1,
// and the text says so.
func TestSyncDeadlock(t *testing.T) {
	p := deadlockNEFF(t)
	out, errs, code := runCmd(t, "sync", "--json", p)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errs)
	}
	var got struct {
		Cores []struct {
			Core  string `json:"core"`
			Lints []struct {
				Code   string `json:"code"`
				Engine string `json:"engine"`
				Index  int    `json:"index"`
				Other  struct {
					Engine string `json:"engine"`
					Index  int    `json:"index"`
				} `json:"other"`
				Message string `json:"message"`
			} `json:"lints"`
		} `json:"cores"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	var lints []string
	for _, c := range got.Cores {
		for _, l := range c.Lints {
			lints = append(lints, c.Core+" "+l.Code+" "+l.Engine+"#"+itoaTest(l.Index)+" <- "+l.Other.Engine+"#"+itoaTest(l.Other.Index))
			if l.Message == "" {
				t.Errorf("lint without a message: %+v", l)
			}
		}
	}
	sort.Strings(lints)
	want := []string{"sg00 sync.cycle Activation#3 <- PE#9", "sg00 sync.cycle PE#8 <- Activation#3"}
	if strings.Join(lints, "\n") != strings.Join(want, "\n") {
		t.Errorf("lints:\n%s\nwant:\n%s", strings.Join(lints, "\n"), strings.Join(want, "\n"))
	}
	text, _, code := runCmd(t, "sync", p)
	if code != 1 || !strings.Contains(text, "sync.cycle") || !strings.Contains(text, "sg01: 9 waits, all resolved") {
		t.Errorf("text (exit %d):\n%s", code, text)
	}
	// The memory model runs over a deadlock too: what never runs is not swept.
	if out, errs, code := runCmd(t, "memmap", "--json", p); code == 2 || !json.Valid([]byte(out)) {
		t.Errorf("memmap on a deadlock: exit %d: %s", code, errs)
	}
}

func itoaTest(i int) string { b, _ := json.Marshal(i); return string(b) }

// On every real NEFF, `memmap --json` keeps its contract: per core sbuf and psum (capacity,
// peak, where), every access with engine, index, space, write and its boxes, and no lint.
func TestMemmapJSONOnRealNEFFs(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	for _, p := range paths {
		out, errs, code := runCmd(t, "memmap", "--json", p)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", p, code, errs)
		}
		var got struct {
			Cores []map[string]any `json:"cores"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Cores) == 0 {
			t.Fatalf("%s: %v", p, err)
		}
		for _, c := range got.Cores {
			if k := keysOf(c); k != "accesses,core,lints,psum,sbuf,undecided,unplaced" {
				t.Errorf("%s: core keys %s", p, k)
			}
			for _, space := range []string{"sbuf", "psum"} {
				if k := keysOf(c[space].(map[string]any)); k != "live_at_peak,partition_bytes,partitions,peak_at,peak_bytes,unswept" {
					t.Errorf("%s: %s keys %s", p, space, k)
				}
			}
			if ls := c["lints"].([]any); len(ls) != 0 {
				t.Errorf("%s %v: lints %v", p, c["core"], ls)
			}
			for _, a := range c["accesses"].([]any) {
				a := a.(map[string]any)
				if k := strings.Replace(keysOf(a), "dma,", "", 1); k != "boxes,engine,index,space,write" {
					t.Fatalf("%s: access keys %s", p, k)
				}
				for _, b := range a["boxes"].([]any) {
					k := keysOf(b.(map[string]any))
					if k != "bytes,offset,partition,partitions" && k != "bytes,count,offset,partition,partitions,stride" {
						t.Fatalf("%s: box keys %s", p, k)
					}
				}
			}
		}
	}
}

// hostileName is hostileCoreJSON's runes as a Go string: NUL, ESC, DEL, a C1 control, a bidi
// override, the line separator, a non-BMP format character and invalid UTF-8.
const hostileName = "sg\x00\x1b[2J\x7f\u0085\u202e\u2028\U000E0001\xff\xfex"

// Every Chrome trace sync writes (in steps, --estimated, --ntff) of a NEFF whose core and DMA
// queue names hold hostileName's runes (and a profile whose core and ring do) is JSON that
// encoding/json parses, valid UTF-8 with none of those runes raw, and names the core by the
// escapes.
func TestTraceOfHostileNamesIsJSON(t *testing.T) {
	dir := t.TempDir()
	p := hostileCoreNEFF(t, dir)
	spec := ntffbuild.Sample()
	spec.Cores[0].Name, spec.Cores[0].Rings[0].Name = hostileName, hostileName
	prof := filepath.Join(dir, "hostile.ntff")
	if err := os.WriteFile(prof, ntffbuild.Bytes(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--estimated"}, {"--ntff", prof}} {
		out := filepath.Join(t.TempDir(), "trace.json")
		args := append(append([]string{"sync", "--trace", out}, extra...), p)
		if _, errs, rc := runCmd(t, args...); rc == 2 {
			t.Fatalf("%v: rc %d: %s", extra, rc, errs)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var trace struct {
			Events []struct {
				Ph   string         `json:"ph"`
				Name string         `json:"name"`
				Args map[string]any `json:"args"`
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal(b, &trace); err != nil {
			t.Fatalf("%v: the trace is not JSON: %v", extra, err)
		}
		if !utf8.Valid(b) || bytes.ContainsFunc(b, func(r rune) bool { return r != '\n' && doc.Escapes(r) }) {
			t.Errorf("%v: the trace holds invalid UTF-8 or a rune output escapes (beside its line ends)", extra)
		}
		named := false
		for _, e := range trace.Events {
			if e.Ph == "M" && e.Name == "process_name" {
				name, _ := e.Args["name"].(string)
				named = named || strings.HasPrefix(name, "sg\x00\x1b[2J\x7f\u0085\u202e\u2028\U000E0001\ufffd")
			}
		}
		if !named {
			t.Errorf("%v: no process named with the core's runes", extra)
		}
	}
}

// A trace's instruction slice carries what a reader needs beside the bar, in every trace sync
// writes: matmul_small's PE #8 (Ldweights, waiting for Activation #3's increment of S[4]) has
// its operands, its sync band, its waits with their producer, and from the debug info its name
// and kernel line.
func TestTraceSlicesCarryTheInstruction(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	for _, extra := range [][]string{nil, {"--estimated"}} {
		out := filepath.Join(t.TempDir(), "trace.json")
		if _, errs, rc := runCmd(t, append(append([]string{"sync", "--trace", out}, extra...), p)...); rc != 0 {
			t.Fatalf("%v: rc %d: %s", extra, rc, errs)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var trace struct {
			Events []struct {
				Ph   string         `json:"ph"`
				Tid  int            `json:"tid"`
				Name string         `json:"name"`
				Args map[string]any `json:"args"`
			} `json:"traceEvents"`
		}
		if err := json.Unmarshal(b, &trace); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, e := range trace.Events {
			if e.Ph != "X" || e.Tid != 0 || e.Args["index"] != 8.0 {
				continue
			}
			found = true
			a := e.Args
			waits, _ := json.Marshal(a["waits"])
			if e.Name != "Ldweights" || a["operands"] != "src=SBUF:0x40fe[32,1,4] dtype=fp16" || a["sync"] != "wait S[4]>=1" || a["name"] != "I-72-0" ||
				!strings.HasSuffix(a["source"].(string), "/test_spike_async.py:58") || string(waits) != `[{"producer":"Activation #3","semaphore":4,"value":1}]` {
				t.Errorf("%v: PE #8's slice: %s %v", extra, e.Name, a)
			}
		}
		if !found {
			t.Errorf("%v: no slice of PE #8", extra)
		}
	}
}
