package inspect

import (
	"bytes"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"google.golang.org/protobuf/encoding/protowire"
)

// TestStackFramesInNEFF: a NEFF whose stack-frame member holds XLA's StackFrameIndexProto in
// field 6 and whose hlo record names frame 2 (field 8): the open has no finding about them (no
// "not valid UTF-8"), the stack-frame member's tree starts with its frames table, and the hlo
// member's records table (first rows and rows by range) and tree resolve the record's frame to
// the file and line its source_file / source_line attributes name.
func TestStackFramesInNEFF(t *testing.T) {
	str := func(b []byte, num protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
	}
	msg := func(b []byte, num protowire.Number, m []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), m)
	}
	vi := func(b []byte, num protowire.Number, v uint64) []byte {
		return protowire.AppendVarint(protowire.AppendTag(b, num, protowire.VarintType), v)
	}
	var idx []byte
	idx = str(idx, 1, "/site-packages/torch_xla/core/xla_op_registry.py")
	idx = str(idx, 1, "/work/model.py")
	idx = str(idx, 2, "__call__")
	idx = str(idx, 2, "forward")
	idx = msg(idx, 3, vi(vi(vi(nil, 1, 2), 2, 2), 3, 17))
	idx = msg(idx, 3, vi(vi(vi(nil, 1, 1), 2, 1), 3, 44))
	idx = msg(idx, 4, vi(nil, 1, 1))           // frame 1: model.py:17 forward
	idx = msg(idx, 4, vi(vi(nil, 1, 2), 2, 1)) // frame 2: xla_op_registry.py:44, called from frame 1
	stack := msg(str(nil, 1, "XLA generated framework level stack frame index"), 6, idx)

	var rec []byte
	rec = vi(rec, 1, 46)
	rec = str(rec, 2, "%custom-call.1 = custom-call()")
	rec = msg(rec, 7, str(str(nil, 1, "source_file"), 2, "/site-packages/torch_xla/core/xla_op_registry.py"))
	rec = msg(rec, 7, str(str(nil, 1, "source_line"), 2, "44"))
	rec = vi(rec, 8, 2)
	hlo := msg(str(str(nil, 1, "Debug info for XLA generated HLO instructions"), 2, "debug_info_pttf.dbg"), 3, rec)

	const stackPath, hloPath = "debug_info/debug_info_stack_frame_index.dbg", "debug_info/debug_info_hlo.dbg_sg000000"
	members := append(neffbuild.Sample(), neffbuild.Member{Path: stackPath, Data: stack}, neffbuild.Member{Path: hloPath, Data: hlo})
	b := neffbuild.Bytes(members, neffbuild.Options{})
	f := Open("stacks.neff", bytes.NewReader(b), int64(len(b)), Options{})
	for _, fd := range f.Doc.Findings() {
		if fd.Span != nil && (fd.Span.Source == stackPath || fd.Span.Source == hloPath) {
			t.Errorf("finding on a valid member: %s", fd.Message)
		}
	}
	x := f.Program.Source
	if x == nil || x.Members[stackPath] == nil || x.Members[hloPath] == nil {
		t.Fatal("the .dbg members were not scanned")
	}
	if fr, ok := x.StackFrames().Frame(2); !ok || fr.Line != 44 || !strings.HasSuffix(fr.File, "xla_op_registry.py") {
		t.Fatalf("frame 2 = %+v %v", fr, ok)
	}
	content := func(member string) []string {
		var at []string
		f.Walk(nil, func(p []string, n *doc.Node) bool {
			if n.Ref == doc.DbgRef(member) {
				at = p
			}
			return at == nil
		})
		if at == nil {
			t.Fatalf("no content stub for %s", member)
		}
		return at
	}
	kids, _, err := f.Children(content(stackPath), 0, 100)
	if err != nil || len(kids) == 0 || kids[0].Label != "stack frames" || len(kids[0].Table.Rows) != 2 {
		t.Fatalf("stack-frame member's children: %v %+v", err, kids)
	}
	if got := kids[0].Table.Rows[1][6]; got != "xla_op_registry.py:44 (__call__) ← model.py:17 (forward)" {
		t.Errorf("frame 2's chain %q", got)
	}
	kids, _, err = f.Children(content(hloPath), 0, 100)
	if err != nil || len(kids) == 0 || kids[0].Table == nil {
		t.Fatalf("hlo member's children: %v %+v", err, kids)
	}
	const want = "2 → xla_op_registry.py:44 (__call__)"
	if row := kids[0].Table.Rows[0]; row[len(row)-1] != want {
		t.Errorf("hlo records table row %v", row)
	}
	rows, _, err := f.Rows(doc.RecordsRef(hloPath), 0, 1)
	if err != nil || rows.Rows[0][len(rows.Rows[0])-1] != want {
		t.Errorf("hlo rows by range: %v %+v", err, rows)
	}
	found := false
	for _, k := range kids {
		k.Walk(func(_ []string, n *doc.Node) bool {
			found = found || n.Label == "stack_frame_id" && n.Value == want
			return !found
		})
	}
	if !found {
		t.Error("no stack_frame_id node resolved in the hlo member's tree")
	}
}
