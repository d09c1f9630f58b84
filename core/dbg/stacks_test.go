package dbg

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
	"google.golang.org/protobuf/encoding/protowire"
)

// pbMsg is a length-delimited field num holding body.
func pbMsg(b []byte, num protowire.Number, body []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, body)
}

func pbVarint(b []byte, num protowire.Number, v uint64) []byte {
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

func pbString(b []byte, num protowire.Number, s string) []byte { return pbMsg(b, num, []byte(s)) }

// stackMember is a stack-frame member in the shape of XLA's StackFrameIndexProto under field 6:
// model.py:44 forward ← train.py:12 main, and a frame whose location is past the list.
func stackMember() []byte {
	var idx []byte
	idx = pbString(idx, 1, "/src/train.py")
	idx = pbString(idx, 1, "/src/model.py")
	idx = pbString(idx, 2, "main")
	idx = pbString(idx, 2, "forward")
	var loc1, loc2 []byte
	loc1 = pbVarint(pbVarint(pbVarint(pbVarint(loc1, 1, 1), 2, 1), 3, 12), 4, 5)
	loc2 = pbVarint(pbVarint(pbVarint(loc2, 1, 2), 2, 2), 3, 44)
	idx = pbMsg(idx, 3, loc1)
	idx = pbMsg(idx, 3, loc2)
	idx = pbMsg(idx, 4, pbVarint(nil, 1, 1))                 // frame 1: train.py:12, outermost
	idx = pbMsg(idx, 4, pbVarint(pbVarint(nil, 1, 2), 2, 1)) // frame 2: model.py:44, called by 1
	idx = pbMsg(idx, 4, pbVarint(pbVarint(nil, 1, 9), 2, 3)) // frame 3: no such location, parent itself
	b := pbString(nil, 1, "XLA generated framework level stack frame index")
	return pbMsg(b, 6, idx)
}

// hloMember has two records: one naming frame 2, one naming no frame.
func hloMember() []byte {
	attr := func(k, v string) []byte { return pbString(pbString(nil, 1, k), 2, v) }
	var r1, r2 []byte
	r1 = pbVarint(r1, 1, 46)
	r1 = pbString(r1, 2, "%custom-call.1 = custom-call()")
	r1 = pbMsg(r1, 7, attr("source_file", "/src/model.py"))
	r1 = pbMsg(r1, 7, attr("source_line", "44"))
	r1 = pbVarint(r1, 8, 2)
	r2 = pbVarint(r2, 1, 1)
	r2 = pbString(r2, 2, "%p0.1 = parameter()")
	b := pbString(nil, 1, "Debug info for XLA generated HLO instructions")
	b = pbString(b, 2, "debug_info_pttf.dbg")
	return pbMsg(pbMsg(b, 3, r1), 3, r2)
}

// TestStackFrames: field 6 of the stack-frame member decodes as XLA's StackFrameIndexProto (no
// text, no UTF-8 finding, every byte named), its frames resolve by 1-based ids, the view has a
// frames table with each call chain, and an hlo record's stack_frame_id resolves to the file
// and line its source_file/source_line attributes name.
func TestStackFrames(t *testing.T) {
	const member = "debug_info/debug_info_stack_frame_index.dbg"
	b := stackMember()
	for _, f := range []*File{Decode(member, b), DecodeView(member, b)} {
		if len(f.Findings) != 0 {
			t.Errorf("findings on a valid member: %+v", f.Findings)
		}
		if c := f.Coverage; c.Named != int64(len(b)) {
			t.Errorf("coverage %+v of %d bytes: want all named", c, len(b))
		}
		st := f.Stack
		if st == nil || len(st.Files) != 2 || len(st.Functions) != 2 || len(st.Locations) != 2 || len(st.Frames) != 3 {
			t.Fatalf("stack frames %+v", st)
		}
		if fr, ok := st.Frame(2); !ok || fr.File != "/src/model.py" || fr.Line != 44 || fr.Function != "forward" {
			t.Errorf("frame 2 = %+v %v", fr, ok)
		}
		if fr, ok := st.Frame(1); !ok || fr.Column != 5 || fr.Line != 12 {
			t.Errorf("frame 1 = %+v %v", fr, ok)
		}
		for _, id := range []uint64{0, 3, 4, 1 << 40} {
			if _, ok := st.Frame(id); ok {
				t.Errorf("frame %d resolves", id)
			}
		}
		if chain := st.Stack(2, 16); len(chain) != 2 || chain[1].File != "/src/train.py" {
			t.Errorf("stack of frame 2 = %+v", chain)
		}
		table := f.Root.Children[0]
		if table.Label != "stack frames" || table.Table == nil || len(table.Table.Rows) != 3 {
			t.Fatalf("first child %+v", table)
		}
		if got := table.Table.Rows[1][6]; got != "model.py:44 (forward) ← train.py:12 (main)" {
			t.Errorf("frame 2's chain %q", got)
		}
	}
	// The scan keeps the frames and counts the table as a root child, as the view builds it.
	c := Scan(member, b)
	if c.Stack == nil || len(c.Stack.Frames) != 3 || c.RootChildren != len(DecodeView(member, b).Root.Children) {
		t.Errorf("scan: stack %+v, %d root children", c.Stack, c.RootChildren)
	}

	const hlo = "debug_info/debug_info_hlo.dbg_sg000000"
	h := DecodeViewStacks(hlo, hloMember(), c.Stack)
	recs := h.Root.Children[0]
	if recs.Table == nil || recs.Table.Columns[len(recs.Table.Columns)-1] != "stack frame" {
		t.Fatalf("hlo records table %+v", recs.Table)
	}
	if got := recs.Table.Rows[0][5]; got != "2 → model.py:44 (forward)" {
		t.Errorf("record 46's frame %q", got)
	}
	if got := recs.Table.Rows[1][5]; got != "" {
		t.Errorf("record 1 names no frame but shows %q", got)
	}
	var field *doc.Node
	h.Root.Walk(func(_ []string, n *doc.Node) bool {
		if n.Label == "stack_frame_id" {
			field = n
		}
		return field == nil
	})
	if field == nil || field.Value != "2 → model.py:44 (forward)" {
		t.Errorf("stack_frame_id node %+v", field)
	}
	// The frame is the record's source_file:source_line.
	r := Decode(hlo, hloMember()).Records[0]
	fr, _ := c.Stack.Frame(r.StackFrame)
	if file, _ := r.Attr("source_file"); file != fr.File {
		t.Errorf("source_file %q, frame %+v", file, fr)
	}
	if line, _ := r.Attr("source_line"); line != "44" || fr.Line != 44 {
		t.Errorf("source_line %q, frame %+v", line, fr)
	}
	// Rows served by range carry the same column.
	if rows := h.RecordRows(0, 1); rows.Rows[0][5] != "2 → model.py:44 (forward)" {
		t.Errorf("rows by range %+v", rows.Rows)
	}
}

// TestStackFramesOnReal: both real NEFFs with a stack-frame member (matmul_small, attn_v6) carry
// field 6 empty: an empty index, all bytes named, no finding, no frames table; their hlo records
// carry no stack_frame_id (field 8).
func TestStackFramesOnReal(t *testing.T) {
	seen := 0
	for _, path := range realfiles.NEFFs(t) {
		for p, b := range dbgMembers(t, path) {
			kind, _, ok := Match(p)
			if !ok || kind != KindStackFrames && kind != KindHLO {
				continue
			}
			f := Decode(p, b)
			if len(f.Findings) != 0 {
				t.Errorf("%s %s: findings %+v", filepath.Base(path), p, f.Findings)
			}
			if kind == KindHLO {
				for _, r := range f.Records {
					if r.StackFrame != 0 {
						t.Errorf("%s %s: record %d names frame %d", filepath.Base(path), p, r.ID, r.StackFrame)
					}
				}
				continue
			}
			seen++
			if f.Stack == nil || f.Stack.shown() || f.Coverage.Named != int64(len(b)) || !strings.Contains(f.Description, "stack frame") {
				t.Errorf("%s %s: stack %+v, coverage %+v of %d", filepath.Base(path), p, f.Stack, f.Coverage, len(b))
			}
		}
	}
	if seen == 0 {
		t.Skip("no real NEFF here has a stack-frame member")
	}
	t.Logf("%d stack-frame members", seen)
}

// TestStackFramesHostile: ids past the lists, a parent chain that loops, and a truncated entry
// resolve to nothing or stop; nothing panics.
func TestStackFramesHostile(t *testing.T) {
	var idx []byte
	idx = pbMsg(idx, 3, pbVarint(pbVarint(nil, 1, 7), 2, 1<<62)) // names past both lists
	idx = pbMsg(idx, 4, pbVarint(pbVarint(nil, 1, 1), 2, 2))
	idx = pbMsg(idx, 4, pbVarint(pbVarint(nil, 1, 1), 2, 1)) // 1 → 2 → 1 …
	b := pbMsg(nil, 6, idx)
	b = append(b, 0x32, 0x05, 0x1a) // a field 6 cut short
	f := Decode("debug_info_stack_frame_index.dbg", b)
	if f.Stack == nil {
		t.Fatal("no stack frames")
	}
	if fr, ok := f.Stack.Frame(1); !ok || fr.File != "" || fr.Function != "" {
		t.Errorf("frame 1 = %+v %v", fr, ok)
	}
	if chain := f.Stack.Stack(1, 100); len(chain) != 2 {
		t.Errorf("looping chain gave %d frames", len(chain))
	}
	if len(f.Findings) == 0 {
		t.Error("no finding for the cut field")
	}
}
