package e2e

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/internal/wasmbin"
)

// BenchmarkPageWasmCodeCache counts, from Chrome's own trace, how much of the core's optimized
// code a returning visit gets from Chrome's wasm code cache and how much V8 optimizes again.
// It explains BenchmarkPageReturningVisit's "during-warm-up" figure: a function
// that is not in the cache runs at the baseline tier (Liftoff) until V8 has optimized it
// again, one to three seconds into the visit, on the same two cores as the user's open.
//
// Each op is one visit in a fresh tab of the same browser profile, left until its warm-up
// has ended and 4 s more. Three untimed visits come first: the first installs the service
// worker, the next two compile from its copy. Per timed visit, from the V8 trace events of
// the renderer that compiled the core:
//   - tf-cached: functions deserialized as optimized (TurboFan) code, i.e. the module's
//     functions less those the cache marks to compile at the baseline tier (eager, lazy);
//   - tf-compiled: functions V8 optimized during the visit (V8.WasmOptimization);
//   - cache-writes: times Chrome serialized the module to its cache (wasm.SerializeModule).
//
// Run it with:
//
//	make dist && go test -count=1 -run '^$' -bench PageWasmCodeCache -benchtime 5x -v ./e2e/
func BenchmarkPageWasmCodeCache(b *testing.B) {
	functions, err := wasmFunctionCount("../dist/site/neffscope.wasm")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	defer cancel()
	var mu sync.Mutex
	var events []traceEvent
	complete := make(chan struct{})
	if err := chromedp.ListenBrowser(ctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			defer mu.Unlock()
			for _, v := range e.Value {
				var te traceEvent
				if raw, err := json.Marshal(v); err == nil && json.Unmarshal(raw, &te) == nil {
					events = append(events, te)
				}
			}
		case *tracing.EventTracingComplete:
			close(complete)
		}
	}); err != nil {
		b.Fatal(err)
	}
	categories := []string{"v8.wasm", "disabled-by-default-v8.wasm.turbofan"}
	if _, err := chromedp.CallBrowser(ctx, tracing.Start, tracing.StartParams{
		TransferMode: tracing.StartTransferModeReportEvents,
		TraceConfig:  &tracing.TraceConfig{IncludedCategories: categories},
	}); err != nil {
		b.Fatal(err)
	}
	visit := func() {
		p := newPage(b, siteURL)
		p.waitFor(`neffscope.core.warm !== null`, "the warm-up to end")
		time.Sleep(4 * time.Second)
		chromedp.Cancel(p.ctx)
	}
	for range 3 {
		visit()
	}
	b.ResetTimer()
	for range b.N {
		visit()
	}
	b.StopTimer()
	if _, err := chromedp.CallBrowser(ctx, tracing.End, cdp.Empty{}); err != nil {
		b.Fatal(err)
	}
	select {
	case <-complete:
	case <-time.After(30 * time.Second):
		b.Fatal("the trace did not complete")
	}
	visits := wasmVisits(events, functions)
	if len(visits) != 3+b.N {
		b.Fatalf("the trace shows %d compiles of the core, want one per visit (%d)", len(visits), 3+b.N)
	}
	var cached, compiled, writes float64
	for i, v := range visits {
		b.Logf("visit %d: %d functions optimized from the cache, %d optimized in the visit, %d cache writes", i, v.tfCached, v.tfCompiled, v.cacheWrites)
		if i >= 3 {
			cached += float64(v.tfCached)
			compiled += float64(v.tfCompiled)
			writes += float64(v.cacheWrites)
		}
	}
	n := float64(b.N)
	b.ReportMetric(cached/n, "tf-cached")
	b.ReportMetric(compiled/n, "tf-compiled")
	b.ReportMetric(writes/n, "cache-writes")
}

// traceEvent is the part of a Chrome trace event this file reads.
type traceEvent struct {
	Name string         `json:"name"`
	PID  int            `json:"pid"`
	TS   float64        `json:"ts"`
	Args map[string]any `json:"args"`
}

// wasmVisit is what one renderer did with the core's module.
type wasmVisit struct {
	start                             float64
	tfCached, tfCompiled, cacheWrites int
}

// wasmVisits groups the trace by renderer, one per visit, in the order the visits started:
// each renderer that streamed a module (wasm.StartStreamingCompilation) and optimized or
// deserialized code is a visit. Its counts are the renderer's, so they take in the page's
// other wasm too: a module of 5 functions, of which V8 optimized at most one in these runs.
func wasmVisits(events []traceEvent, functions int) []wasmVisit {
	byPID := map[int]*wasmVisit{}
	var order []int
	for _, e := range events {
		if e.Name != "wasm.StartStreamingCompilation" {
			continue
		}
		if _, ok := byPID[e.PID]; !ok {
			byPID[e.PID] = &wasmVisit{start: e.TS}
			order = append(order, e.PID)
		}
	}
	for _, e := range events {
		v := byPID[e.PID]
		if v == nil {
			continue
		}
		switch e.Name {
		case "V8.WasmOptimization":
			v.tfCompiled++
		case "wasm.SerializeModule":
			v.cacheWrites++
		case "wasm.CompilationAfterDeserialization":
			eager, _ := e.Args["num_eager_functions"].(float64)
			lazy, _ := e.Args["num_lazy_functions"].(float64)
			v.tfCached = functions - int(eager) - int(lazy)
		}
	}
	var out []wasmVisit
	for _, pid := range order {
		if v := byPID[pid]; v.tfCompiled > 0 || v.tfCached > 0 {
			out = append(out, *v)
		}
	}
	slices.SortFunc(out, func(a, b wasmVisit) int { return cmp.Compare(a.start, b.start) })
	return out
}

// wasmFunctionCount reads the number of functions a wasm module defines (its code section's
// bodies; imports have none).
func wasmFunctionCount(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	sections, err := wasmbin.Sections(b)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	for _, s := range sections {
		if s.ID == wasmbin.Code {
			bodies, err := wasmbin.FunctionBodies(s.Body)
			return len(bodies), err
		}
	}
	return 0, errors.New(path + ": no code section")
}
