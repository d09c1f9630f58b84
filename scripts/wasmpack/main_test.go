package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/wasmbin"
)

// module makes a minimal module: a memory section, the data segments, and a custom section
// that must come through untouched.
func module(segs []wasmbin.Segment, dataCount bool) []byte {
	sections := []wasmbin.Section{{ID: 5, Body: []byte{1, 0, 1}}} // one memory, min 1 page
	if dataCount {
		sections = append(sections, wasmbin.Section{ID: wasmbin.DataCount, Body: binary.AppendUvarint(nil, uint64(len(segs)))})
	}
	sections = append(sections,
		wasmbin.Section{ID: wasmbin.Data, Body: wasmbin.EncodeSegments(segs)},
		wasmbin.Section{ID: wasmbin.Custom, Body: append([]byte{4}, "note\x00\x01"...)})
	return wasmbin.Encode(sections)
}

func TestPackMergesNearSegmentsAndKeepsMemory(t *testing.T) {
	segs := []wasmbin.Segment{
		{Offset: 100, Data: []byte{1, 2, 3}},
		{Offset: 40, Data: []byte{9}},       // out of order: sorted first
		{Offset: 110, Data: []byte{4}},      // 7 zero bytes after the first: merged
		{Offset: 2000, Data: []byte{5, 6}},  // far: its own segment
		{Offset: 2002, Data: []byte{7}},     // adjacent: merged
		{Offset: 70000, Data: []byte{0x7f}}, // offset needing a 3-byte LEB128
	}
	for _, dataCount := range []bool{false, true} {
		in := module(segs, dataCount)
		out, before, after, err := pack(in, 64)
		if err != nil {
			t.Fatal(err)
		}
		if before != 6 || after != 3 {
			t.Errorf("segments %d → %d, want 6 → 3", before, after)
		}
		secIn, _ := wasmbin.Sections(in)
		secOut, err := wasmbin.Sections(out)
		if err != nil || len(secOut) != len(secIn) {
			t.Fatalf("packed module: %v, %d sections (want %d)", err, len(secOut), len(secIn))
		}
		for i := range secIn {
			switch secIn[i].ID {
			case wasmbin.Data:
				got, _ := wasmbin.Segments(secOut[i].Body)
				b1, m1 := wasmbin.Memory(segs)
				b2, m2 := wasmbin.Memory(got)
				if b1 != b2 || !bytes.Equal(m1, m2) {
					t.Error("the packed segments write different memory")
				}
				if got[0].Offset != 40 || len(got[0].Data) != 71 || got[2].Offset != 70000 {
					t.Errorf("packed segments %+v", got)
				}
			case wasmbin.DataCount:
				if n, _ := binary.Uvarint(secOut[i].Body); n != 3 {
					t.Errorf("data count section says %d, want 3", n)
				}
			default:
				if secIn[i].ID != secOut[i].ID || !bytes.Equal(secIn[i].Body, secOut[i].Body) {
					t.Errorf("section %d (id %d) changed", i, secIn[i].ID)
				}
			}
		}
		again, _, n, err := pack(out, 64)
		if err != nil || n != 3 || !bytes.Equal(again, out) {
			t.Errorf("packing twice: %v, %d segments, same bytes %v", err, n, bytes.Equal(again, out))
		}
	}
}

func TestPackRefusesWhatItCannotKeep(t *testing.T) {
	overlap := module([]wasmbin.Segment{{Offset: 10, Data: []byte{1, 2, 3}}, {Offset: 11, Data: []byte{4}}}, false)
	if _, _, _, err := pack(overlap, 64); err == nil || !strings.Contains(err.Error(), "overlap") {
		t.Errorf("overlapping segments: %v, want an overlap error", err)
	}
	passive := wasmbin.Encode([]wasmbin.Section{{ID: wasmbin.Data, Body: []byte{1, 1, 2, 0xaa, 0xbb}}})
	if _, _, _, err := pack(passive, 64); err == nil || !strings.Contains(err.Error(), "only active segments") {
		t.Errorf("a passive segment: %v, want an error", err)
	}
	for name, in := range map[string][]byte{
		"no data section": wasmbin.Encode(nil),
		"not wasm":        []byte("\x7fELF...."),
		"truncated":       module([]wasmbin.Segment{{Offset: 1, Data: []byte{1, 2}}}, false)[:14],
	} {
		if _, _, _, err := pack(in, 64); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestPackedGoProgramRunsTheSame builds a small Go program for js/wasm, packs it, and runs
// both under Node: same output, fewer segments, and a smaller brotli-friendly file is the
// point, but the same behaviour is the requirement.
func TestPackedGoProgramRunsTheSame(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a wasm program")
	}
	execWasm := filepath.Join(runtime.GOROOT(), "lib", "wasm", "go_js_wasm_exec")
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	plain, packed := filepath.Join(dir, "plain.wasm"), filepath.Join(dir, "packed.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", plain, "./testdata/hello")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	raw, _ := os.ReadFile(plain)
	out, before, after, err := pack(raw, defaultGap)
	if err != nil {
		t.Fatal(err)
	}
	if after >= before/10 {
		t.Errorf("data segments %d → %d: the Go linker's many small segments were not merged", before, after)
	}
	os.WriteFile(packed, out, 0o755)
	run := func(file string) string {
		cmd := exec.Command(execWasm, file)
		cmd.Env = os.Environ()
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("running %s: %v\n%s", filepath.Base(file), err, b)
		}
		return string(b)
	}
	want, got := run(plain), run(packed)
	if got != want {
		t.Errorf("the packed program prints\n%s\nthe original\n%s", got, want)
	}
	if !strings.Contains(want, "frame main.main") || !strings.Contains(want, "main.go:") {
		t.Errorf("the test program's output lacks its own frames: %s", want)
	}
}
