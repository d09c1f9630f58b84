// Command wasmpack rewrites the data section of a Go-built WebAssembly module so that it
// compresses better, without changing what the module does.
//
// The Go linker writes one data segment per run of non-zero bytes, leaving out every run of
// 8 or more zero bytes. That makes the raw file smallest, but each segment costs a header (an
// LEB128 offset and length, ~7 bytes) that compresses poorly, and runtime.findfunctab — a
// 20-byte bucket per 4 KiB of wasm "PC" space, almost all zeros, ~1 MB for neffscope — turns
// into some 50,000 tiny segments. wasmpack merges segments fewer than -gap zero bytes apart,
// writing the zeros out: they compress to almost nothing. Linear memory after instantiation
// is byte for byte what it was; wasmpack checks that before writing.
//
//	go run ./scripts/wasmpack www/neffscope.wasm
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"

	"github.com/neffscope/neffscope/internal/wasmbin"
)

func main() {
	gap := flag.Int("gap", defaultGap, "merge data segments fewer than this many zero bytes apart")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wasmpack [-gap N] FILE.wasm...   (rewrites each file in place)")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	for _, name := range flag.Args() {
		if err := packFile(name, *gap); err != nil {
			fmt.Fprintf(os.Stderr, "wasmpack: %s: %v\n", name, err)
			os.Exit(1)
		}
	}
}

// defaultGap: on neffscope.wasm, brotli is smallest from a gap of about 1 KiB (64: +0.25%,
// 16: +4.6%, 4096: +0.02%), and the raw file grows a little with the gap.
const defaultGap = 1024

func packFile(name string, gap int) error {
	module, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	packed, before, after, err := pack(module, gap)
	if err != nil {
		return err
	}
	if err := os.WriteFile(name, packed, 0o644); err != nil {
		return err
	}
	fmt.Printf("%s: data segments %d → %d, raw %d → %d B\n", name, before, after, len(module), len(packed))
	return nil
}

// pack merges the data segments of module that are fewer than gap zero bytes apart and
// returns the new module with the segment counts before and after.
func pack(module []byte, gap int) (packed []byte, before, after int, err error) {
	sections, err := wasmbin.Sections(module)
	if err != nil {
		return nil, 0, 0, err
	}
	data := slices.IndexFunc(sections, func(s wasmbin.Section) bool { return s.ID == wasmbin.Data })
	if data < 0 {
		return nil, 0, 0, errors.New("the module has no data section")
	}
	segs, err := wasmbin.Segments(sections[data].Body)
	if err != nil {
		return nil, 0, 0, err
	}
	merged, err := merge(segs, gap)
	if err != nil {
		return nil, 0, 0, err
	}
	baseBefore, memBefore := wasmbin.Memory(segs)
	baseAfter, memAfter := wasmbin.Memory(merged)
	if baseBefore != baseAfter || !bytes.Equal(memBefore, memAfter) {
		return nil, 0, 0, errors.New("internal error: the merged segments would write different memory; file left as it was")
	}
	sections[data].Body = wasmbin.EncodeSegments(merged)
	for i, s := range sections {
		if s.ID == wasmbin.DataCount { // must agree with the data section (Go writes none today)
			sections[i].Body = binary.AppendUvarint(nil, uint64(len(merged)))
		}
	}
	return wasmbin.Encode(sections), len(segs), len(merged), nil
}

// merge joins segments fewer than gap bytes apart, filling the gap with zeros. Overlapping
// segments (never written by the Go linker) are refused: which bytes win would depend on
// their order.
func merge(segs []wasmbin.Segment, gap int) ([]wasmbin.Segment, error) {
	sorted := slices.Clone(segs)
	slices.SortStableFunc(sorted, func(a, b wasmbin.Segment) int { return int(int64(a.Offset) - int64(b.Offset)) })
	var out []wasmbin.Segment
	for _, s := range sorted {
		if len(out) > 0 {
			last := &out[len(out)-1]
			switch end := last.End(); {
			case uint64(s.Offset) < end:
				return nil, fmt.Errorf("data segments at 0x%x and 0x%x overlap", last.Offset, s.Offset)
			case uint64(s.Offset)-end < uint64(gap):
				last.Data = append(last.Data, make([]byte, uint64(s.Offset)-end)...)
				last.Data = append(last.Data, s.Data...)
				continue
			}
		}
		out = append(out, wasmbin.Segment{Offset: s.Offset, Data: slices.Clone(s.Data)})
	}
	return out, nil
}
