package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/wasmbin"
)

func TestPackageOf(t *testing.T) {
	for name, want := range map[string]string{
		"github.com_neffscope_neffscope_core_pwp.__Set_.join":      "github.com/neffscope/neffscope/core/pwp",
		"github.com_klauspost_compress_flate.__decompressor_.Read": "github.com/klauspost/compress/flate",
		"fmt.__pp_.doPrintf": "fmt",
		"fmt.Sprintf":        "fmt",
		"internal_runtime_maps.__Map_.getWithKey":                 "internal/runtime/maps",
		"runtime.gcMarkTermination.func1":                         "runtime",
		"main.__bridge_.open":                                     "main",
		"type_.eq.github.com_neffscope_neffscope_core_ncfw.Rules": "(type algorithms)",
		"type:.eq.[5]main.note":                                   "(type algorithms)",
		"wasm_pc_f_loop":                                          "wasm_pc_f_loop",
		"slices.pdqsortOrdered_go.shape.string_":                  "slices",
	} {
		if got := packageOf(name); got != want {
			t.Errorf("packageOf(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 6031926: "6,031,926", -1234: "-1,234", 100000: "100,000"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// build builds testdata/tiny for js/wasm with extra flags.
func build(t *testing.T, flags ...string) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "tiny.wasm")
	cmd := exec.Command("go", append(append([]string{"build", "-trimpath", "-o", out}, flags...), "./testdata/tiny")...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, msg)
	}
	b, _ := os.ReadFile(out)
	return b
}

// TestReportOnAGoProgram measures a real Go module as make wasm-size does: the stripped file,
// names from a fresh build with the same flags.
func TestReportOnAGoProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds wasm programs")
	}
	brotliQuality = 4
	t.Cleanup(func() { brotliQuality = 11 })
	stripped := build(t, "-ldflags=-s -w")
	r, err := measure(stripped)
	if err != nil {
		t.Fatal(err)
	}
	if r.raw != len(stripped) || r.brotli <= 0 || r.brotli >= r.gzip || r.gzip >= r.raw {
		t.Errorf("sizes raw %d, gzip %d, brotli %d", r.raw, r.gzip, r.brotli)
	}
	if r.dataNote != "" {
		t.Fatalf("the data layout of this Go was not recognised: %s", r.dataNote)
	}
	sections, _ := wasmbin.Sections(stripped)
	for _, s := range sections {
		if s.ID != wasmbin.Data {
			continue
		}
		segs, _ := wasmbin.Segments(s.Body)
		_, mem := wasmbin.Memory(segs)
		total := 0
		for _, d := range r.data {
			total += d.raw
		}
		if total != len(mem) {
			t.Errorf("the data regions cover %d bytes of the %d the segments write", total, len(mem))
		}
	}
	byWhat := map[string]region{}
	for _, d := range r.data {
		byWhat[d.what] = d
	}
	names, find := byWhat["function names (pclntab)"], byWhat["findfunctab: pc → function, mostly zeros"]
	if names.raw == 0 || find.raw == 0 || find.brotli*20 > find.raw {
		t.Errorf("function names %+v, findfunctab %+v: want both, the findfunctab mostly zeros", names, find)
	}

	if err := r.attribute(build(t), ""); err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int{}
	sum := 0
	for _, n := range r.byName {
		sizes[n.name] = n.size
		sum += n.size
	}
	if sizes["runtime"] < sizes["main"] || sizes["fmt"] == 0 || sizes["main"] == 0 || sum >= len(r.code) || sum < len(r.code)*9/10 {
		t.Errorf("packages %v (sum %d of %d code bytes)", sizes, sum, len(r.code))
	}

	var out bytes.Buffer
	r.print(&out, "tiny.wasm", 5, true)
	for _, want := range []string{"tiny.wasm: raw ", "| package | code B | share of code |", "| runtime | ", "| function names (pclntab) | "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}

	fresh, _ := measure(stripped)
	if err := fresh.attribute(build(t, "-gcflags=all=-l"), ""); err == nil || !strings.Contains(err.Error(), "differs") {
		t.Errorf("names from a build with other flags: %v, want an error saying the code differs", err)
	}
	if err := fresh.attribute(build(t), "main.main"); err != nil || len(fresh.byName) != 1 || fresh.byName[0].name != "main.main" {
		t.Errorf("-func main.main: %v, %+v", err, fresh.byName)
	}
	if err := fresh.attribute(build(t), "internal/runtime/maps."); err != nil || len(fresh.byName) == 0 || !strings.HasPrefix(fresh.byName[0].name, "internal/runtime/maps.") {
		t.Errorf("-func internal/runtime/maps.: %v, %+v", err, fresh.byName)
	}
}

// A module path with "-" reads back wrongly from the symbol name alone; the build's import
// paths put it right.
func TestPackageOfHyphenatedPath(t *testing.T) {
	name := "github.com_hack-pad_go-indexeddb_idb.__Request_.Await"
	name = strings.ReplaceAll(name, "-", "_") // as the linker writes it
	if got := packageOf(name); got != "github.com/hack/pad/go/indexeddb/idb" {
		t.Fatalf("without the build's paths: %q", got)
	}
	importPaths[mangledPath("github.com/hack-pad/go-indexeddb/idb")] = "github.com/hack-pad/go-indexeddb/idb"
	defer delete(importPaths, mangledPath("github.com/hack-pad/go-indexeddb/idb"))
	if got := packageOf(name); got != "github.com/hack-pad/go-indexeddb/idb" {
		t.Errorf("packageOf(%q) = %q, want github.com/hack-pad/go-indexeddb/idb", name, got)
	}
}
