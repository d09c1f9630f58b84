package dbg

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

// sample builds a small backend member: description, points_to, one record with attributes,
// engine, one kernel file.
func sample() []byte {
	var rec []byte
	rec = protowire.AppendTag(rec, 1, protowire.VarintType)
	rec = protowire.AppendVarint(rec, 155)
	rec = protowire.AppendTag(rec, 2, protowire.BytesType)
	rec = protowire.AppendString(rec, "inst.1-wait-0")
	for _, kv := range [][2]string{{"kernel_file", "0"}, {"kernel_line", "42"}} {
		var a []byte
		a = protowire.AppendTag(a, 1, protowire.BytesType)
		a = protowire.AppendString(a, kv[0])
		a = protowire.AppendTag(a, 2, protowire.BytesType)
		a = protowire.AppendString(a, kv[1])
		rec = protowire.AppendTag(rec, 7, protowire.BytesType)
		rec = protowire.AppendBytes(rec, a)
	}
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, "Debug info for one engine's BIR Instructions.")
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendString(b, "debug_info_penguin.dbg")
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendBytes(b, rec)
	b = protowire.AppendTag(b, 4, protowire.VarintType)
	b = protowire.AppendVarint(b, 1)
	b = protowire.AppendTag(b, 5, protowire.BytesType)
	b = protowire.AppendString(b, "/src/kernel.py")
	return b
}

func errorsOf(f *File) []doc.Finding {
	var out []doc.Finding
	for _, fd := range f.Findings {
		if fd.Severity != doc.Info {
			out = append(out, fd)
		}
	}
	return out
}

func TestSampleDecodes(t *testing.T) {
	f := Decode("sg00/debug_info_backend_PE.dbg", sample())
	if len(errorsOf(f)) != 0 || len(f.Records) != 1 || f.Records[0].Name != "inst.1-wait-0" || f.KernelFiles[0] != "/src/kernel.py" {
		t.Fatalf("%+v", f)
	}
	if v, _ := f.Records[0].Attr("kernel_line"); v != "42" {
		t.Fatalf("kernel_line %q", v)
	}
	if f.Coverage.Named != int64(len(sample())) {
		t.Fatalf("coverage %+v of %d", f.Coverage, len(sample()))
	}
}

// TestBadInput: every damaged form gives a finding naming the member and the byte offset, the
// coverage still adds up to the size, and nothing panics.
func TestBadInput(t *testing.T) {
	good := sample()
	unknownField := protowire.AppendTag(append([]byte{}, good...), 99, protowire.Fixed32Type)
	unknownField = protowire.AppendFixed32(unknownField, 7)
	wrongType := protowire.AppendTag(append([]byte{}, good...), 2, protowire.VarintType)
	wrongType = protowire.AppendVarint(wrongType, 3)
	cases := []struct {
		name    string
		b       []byte
		want    doc.Code // the code of a warning/error finding ("" = none expected)
		at      int64    // the byte it is placed at (-1: any)
		atLeast int64    // bytes expected under "None"
	}{
		{"truncated varint", append(append([]byte{}, good...), 0x20, 0xFF), doc.CodeDbgCorrupt, int64(len(good)), 2},
		{"length past end", append([]byte{}, good[:len(good)-3]...), doc.CodeDbgCorrupt, -1, 1},
		{"bad tag", []byte{0x00, 0x01}, doc.CodeDbgCorrupt, 0, 2},
		{"group", []byte{0x7B, 0x7C}, "", -1, 0}, // field 15: a start group followed by its end: a valid generic field
		{"wrong wire type", wrongType, doc.CodeDbgWireType, int64(len(good)), 0},
		{"unknown field", unknownField, "", -1, 0},
	}
	for _, c := range cases {
		f := Decode("sg00/debug_info_backend_PE.dbg", c.b)
		cv := f.Coverage
		if cv.Named+cv.Unknown+cv.Generic+cv.None != int64(len(c.b)) {
			t.Errorf("%s: coverage %+v of %d bytes", c.name, cv, len(c.b))
		}
		if cv.None < c.atLeast {
			t.Errorf("%s: %d unread bytes, want ≥ %d", c.name, cv.None, c.atLeast)
		}
		errs := errorsOf(f)
		if c.want == "" {
			if len(errs) != 0 {
				t.Errorf("%s: unexpected findings %v", c.name, errs)
			}
			continue
		}
		found := false
		for _, e := range errs {
			if e.Code == c.want && e.Span != nil && e.Span.Source == "sg00/debug_info_backend_PE.dbg" && (c.at < 0 || e.Span.Offset == c.at) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no %s finding at byte %d: %v", c.name, c.want, c.at, errs)
		}
	}
}

// TestHugeRepeated: a member of a million tiny records is bounded in nodes and gives one info
// view limit for the cut (not a finding), while every record is still counted.
func TestHugeRepeated(t *testing.T) {
	one := protowire.AppendTag(nil, 3, protowire.BytesType)
	one = protowire.AppendBytes(one, []byte{0x1a, 0x01, 0x05})
	b := bytes.Repeat(one, 300000)
	// A last record past the node budget whose packed list ends mid-varint: its warning must
	// survive although its node is not rendered.
	b = append(b, 0x1a, 0x03, 0x1a, 0x01, 0x85)
	f := Decode("sg00/debug_info_asm_PE.dbg", b)
	nodes := 0
	f.Root.Walk(func(_ []string, _ *doc.Node) bool { nodes++; return true })
	if nodes > maxNodes+10 {
		t.Fatalf("%d nodes", nodes)
	}
	if len(f.Records) != 300001 || f.Records[299999].Parents[0] != 5 {
		t.Fatalf("%d records", len(f.Records))
	}
	if len(errorsOf(f)) != 1 || errorsOf(f)[0].Code != doc.CodeDbgPackedCut || errorsOf(f)[0].Span.Offset != int64(len(b)-3) {
		t.Errorf("findings past the budget: %v", errorsOf(f))
	}
	// The cut is a limit of the tree, said on the root (doc.AttrViewLimit), not a finding.
	if f.Root.Attrs[doc.AttrViewLimit] == "" || len(f.Findings) != 1 || f.Coverage.Named != int64(len(b)) {
		t.Fatalf("view limit %q, findings %v, coverage %+v", f.Root.Attrs[doc.AttrViewLimit], f.Findings, f.Coverage)
	}
}

// FuzzDecode: any bytes, any kind: no panic, coverage adds up, spans inside the member, the
// node count bounded.
func FuzzDecode(f *testing.F) {
	f.Add(sample(), uint8(1))
	f.Add([]byte{0x1a, 0x03, 0x1a, 0x01, 0x9a}, uint8(0))
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f}, uint8(2))
	f.Add(bytes.Repeat([]byte{0x1a, 0x02, 0x3a, 0x00}, 50), uint8(1))
	names := []string{"sg00/debug_info_asm_PE.dbg", "sg00/debug_info_backend_DMA.dbg", "debug_info/debug_info_penguin.dbg_sg000000",
		"debug_info/debug_info_hlo.dbg_sg000000", "debug_info/debug_info_pttf.dbg_sg000000", "debug_info/debug_info_stack_frame_index.dbg", "x.dbg"}
	f.Fuzz(func(t *testing.T, b []byte, k uint8) {
		member := names[int(k)%len(names)]
		d := Decode(member, b)
		c := d.Coverage
		if c.Named+c.Unknown+c.Generic+c.None != int64(len(b)) {
			t.Fatalf("coverage %+v of %d", c, len(b))
		}
		nodes := 0
		d.Root.Walk(func(_ []string, n *doc.Node) bool {
			nodes++
			if n.Span != nil && (n.Span.Offset < 0 || n.Span.Offset+n.Span.Length > int64(len(b))) {
				t.Fatalf("node %q span %+v outside %d bytes", n.Label, n.Span, len(b))
			}
			return true
		})
		if nodes > maxNodes+10 {
			t.Fatalf("%d nodes", nodes)
		}
		// The scan (records reused, their strings into the bytes) reads what Decode reads.
		if _, _, ok := Match(member); ok {
			sameAsDecode(t, "fuzz", member, b, scanChunks(member, b, 7))
		}
	})
}
