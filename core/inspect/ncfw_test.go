package inspect

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/ncfw"
)

func TestNcfwContextAndDump(t *testing.T) {
	for _, a := range ncfw.Arches() {
		ctx := ncfw.SampleContext(a.ID, ncfw.SamplePatterned)
		want, rc := ncfw.Emit(ctx, "m", a.ID)
		f := OpenContext("ctx.bin", bytes.NewReader(ctx), int64(len(ctx)), a.ID, "m")
		text := f.Doc.Root.Child("text")
		if rc != 0 || text == nil || text.Value != string(want) || len(text.Table.Rows) == 0 {
			t.Fatalf("arch %d: rc %d, text node %v", a.ID, rc, text != nil)
		}
		// The guess from the size picks this arch's chooser row.
		if arches := f.Doc.Root.Child("arch"); arches == nil || len(arches.Table.Rows) != 4 {
			t.Errorf("arch chooser %+v", arches)
		}
		// The same text dropped as a file is recognised as a dump and read back.
		d := Open("dump.txt", bytes.NewReader(want), int64(len(want)), Options{})
		if d.Doc.Kind != "ncfw-dump" || d.Doc.Root == nil {
			t.Errorf("arch %d: dump opened as %s", a.ID, d.Doc.Kind)
		}
		for _, fd := range d.Doc.Findings() {
			if fd.Severity == "error" {
				t.Errorf("arch %d: dump finding %s", a.ID, fd.Message)
			}
		}
	}
}
