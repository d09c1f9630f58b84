package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

func TestCoverageCommand(t *testing.T) {
	files := realfiles.NEFFs(t)
	out, errs, rc := runCLI(t, append([]string{"coverage", "--json"}, files...)...)
	var c coverageJSON
	if err := json.Unmarshal([]byte(out), &c); err != nil || rc != 0 {
		t.Fatalf("rc %d %s: %v", rc, errs, err)
	}
	var sum int64
	for _, k := range c.Kinds {
		sum += k.Significant
		if k.Named+k.JSON+k.Unknown+k.Hex != k.Significant {
			t.Errorf("%s does not add up: %+v", k.Kind, k)
		}
	}
	if sum != c.Total.Significant || c.Total.Words == 0 || len(c.Files) != len(files) {
		t.Errorf("total %+v, kinds sum %d", c.Total, sum)
	}
	text, _, rc := runCLI(t, "coverage", files[0])
	if rc != 0 || !strings.Contains(text, "all members") || !strings.Contains(text, "under named fields") {
		t.Errorf("rc %d:\n%s", rc, text)
	}
	if _, _, rc := runCLI(t, "coverage"); rc != 2 {
		t.Errorf("no file: rc %d", rc)
	}
	if _, errs, rc := runCLI(t, "coverage", realfiles.Path(t, "nkipy/matmul_small/neff.json")); rc != 2 || !strings.Contains(errs, "not a NEFF") {
		t.Errorf("a JSON file: rc %d %s", rc, errs)
	}
}

// TestDisasmLayout: every instruction of disasm --json has a layout whose names are keys of
// its fields; a PseudoDmaDirect2d carries its joins.
func TestDisasmLayout(t *testing.T) {
	p := realfiles.Path(t, "nkipy/matmul_small.neff")
	out, errs, rc := runCLI(t, "disasm", "--json", "--sg", "sg00", "--engine", "Pool", p)
	var d disasmJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil || rc != 0 || len(d.Streams) != 1 {
		t.Skipf("matmul_small not readable: rc %d %s %v", rc, errs, err)
	}
	for _, in := range d.Streams[0].Instructions {
		if len(in.Layout) == 0 || in.PartOf != nil {
			t.Errorf("#%d: layout %v part_of %v", in.Index, in.Layout, in.PartOf)
		}
		for _, l := range in.Layout {
			if _, ok := in.Fields[l.Field]; !ok || l.Off < 0 || l.Off+l.Len > 64 {
				t.Errorf("#%d: layout %+v", in.Index, l)
			}
		}
	}
	in := d.Streams[0].Instructions[3]
	if in.DMA == nil || in.DMA.Src != "y+0x0" || in.DMA.Dst != "SB:0x37f00" || in.DMA.Queue != "qPoolDynamic" {
		t.Errorf("#3 dma %+v", in.DMA)
	}
}
