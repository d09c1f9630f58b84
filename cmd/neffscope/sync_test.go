package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

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
