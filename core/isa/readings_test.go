package isa

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"

	"github.com/neffscope/neffscope/internal/realfiles"
)

func TestImmediateText(t *testing.T) {
	for bits, want := range map[uint32][]string{
		0x358637BD: {"u32 897988541", "hex 0x358637bd", "fp32 1e-06", "bf16 2.2530556e-05", "fp16 0.48364258"},
		0x00003F80: {"u32 16256", "fp32 2.278e-41", "bf16 1 ", "fp16 1.875"},
		0xCE6E6B28: {"i32 -831624408", "fp32 -1e+09"},
		0x00003C00: {"fp16 1"},
		0x00000001: {"fp16 5.9604645e-08"}, // the smallest fp16 subnormal
		0x0000FC00: {"fp16 -Inf"},
	} {
		got := ImmediateText(bits) + " "
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%#x: %q lacks %q", bits, got, w)
			}
		}
	}
}

func TestActivateScaleByForm(t *testing.T) {
	w := activateWord(7, 0x100, 0x200)
	for bits, want := range map[uint32]string{
		0x3F800000: "1",
		0xBF800000: "-1",
		0x3C000000: "0.0078125",
		0:          "0",
		0x00810000: "0x810000 (address-shaped, not a float; its form is unknown)",
		0x00817200: "0x817200 (address-shaped",
		0x00037F00: "0x37f00 (address-shaped",
	} {
		binary.LittleEndian.PutUint32(w[0x24:], bits)
		f, _ := Decode(w, 0).Field("scale")
		if !strings.HasPrefix(f.Text, want) {
			t.Errorf("scale %#x: %q, want %q", bits, f.Text, want)
		}
		if (f.Immediate != "") != ScaleIsFloat(bits) {
			t.Errorf("scale %#x: immediate readings %q", bits, f.Immediate)
		}
	}
	// An inline float imm0 shows every reading in its node.
	w[0x0F] = 1
	binary.LittleEndian.PutUint32(w[0x28:], 0x358637BD)
	in := Decode(w, 0)
	if f, _ := in.Field("imm0"); f.Text != "1e-06" || !strings.Contains(f.Immediate, "hex 0x358637bd") {
		t.Errorf("imm0 %+v", f)
	}
	found := false
	in.Node("").Walk(func(_ []string, n *doc.Node) bool {
		found = found || n.Label == "imm0" && strings.Contains(n.Detail, "fp32 1e-06 · bf16")
		return true
	})
	if !found {
		t.Error("the imm0 node does not show the immediate's readings")
	}
}

// direct2d builds a PseudoDmaDirect2d word.
func direct2d(tag0 uint8, sem uint8) []byte {
	w := newWord(0xD4)
	w[0x0D], w[0x0E] = sem, 0x10
	binary.LittleEndian.PutUint64(w[0x10:], uint64(tag0)<<56|1<<32|0x8000)
	binary.LittleEndian.PutUint64(w[0x28:], uint64(DmaTagVar)<<56|0x37c00)
	binary.LittleEndian.PutUint16(w[0x20:], 128)
	w[0x3E], w[0x3F] = 7, 7
	return w
}

func TestDirect2dFields(t *testing.T) {
	in := Decode(direct2d(DmaTagDGE, 24), 0)
	for name, want := range map[string]string{"addr0": "dge[1]+0x8000", "addr1": "SB:0x37c00", "queue semaphore": "S[24]",
		"src num elem[0]": "128", "dst dtype": "fp16", "sem increment": "16", "dge op": "0", "src bound reg": "none"} {
		if f, ok := in.Field(name); !ok || f.Text != want {
			t.Errorf("%s = %q, want %q", name, f.Text, want)
		}
	}
	src, dst, ok := Direct2dAddrs(in.Word[:])
	if !ok || src != (DmaAddr{Tag: DmaTagDGE, ID: 1, Offset: 0x8000}) || dst != (DmaAddr{Tag: DmaTagVar, Offset: 0x37c00}) {
		t.Errorf("addrs %+v %+v", src, dst)
	}
}

// TestTwoWordDirect2d: a 0xDA after a 0xD4 whose addr0 tag is 0x28 is the second word of one
// instruction (no word-length finding, part_of in the listing and the node); a 0xDA anywhere
// else is still reported.
func TestTwoWordDirect2d(t *testing.T) {
	second := newWord(0xDA)
	second[1], second[0x20] = 0x00, 0x55
	lone := newWord(0xDA)
	lone[1] = 0x00
	var b []byte
	b = append(b, direct2d(DmaTagDGEReg, 8)...) // #0
	b = append(b, second...)                    // #1: part of #0
	b = append(b, direct2d(DmaTagDGE, 9)...)    // #2
	b = append(b, lone...)                      // #3: not after a two-word 0xD4
	s := NewStream("sg00/Pool.bin", b)
	if s.PartOf(1) != 0 || s.PartOf(0) != -1 || s.PartOf(3) != -1 {
		t.Fatalf("part of: %d %d %d", s.PartOf(0), s.PartOf(1), s.PartOf(3))
	}
	var warns []doc.Finding
	for _, f := range s.Findings() {
		if f.Severity == doc.Warning {
			warns = append(warns, f)
		}
	}
	if len(warns) != 1 || warns[0].Code != doc.CodeISAWordLength || warns[0].Span.Offset != 3*WordSize+1 {
		t.Errorf("findings %+v", warns)
	}
	if sw := s.Node(0).Child("second word"); sw == nil || sw.Value != "#1" || sw.Span.Offset != WordSize {
		t.Errorf("first word: second word %+v", sw)
	}
	if s.Instruction(2).SecondWord != -1 {
		t.Error("a one-word 0xD4 claims a second word")
	}
	n := s.Node(1)
	if pf := n.Child("part of"); pf == nil || pf.Value != "#0" {
		t.Errorf("node %+v", n)
	}
	n.Walk(func(_ []string, c *doc.Node) bool {
		for _, f := range c.Findings {
			if f.Severity != doc.Info {
				t.Errorf("second word: %s", f.Message)
			}
		}
		return true
	})
	if len(s.Node(3).Findings) == 0 {
		t.Error("a lone 0xDA has no word-length finding")
	}
	if row := s.Rows(1, 2).Rows[0]; !strings.Contains(row[4], "part_of=#0") {
		t.Errorf("row %q", row)
	}
	if line := string(s.AppendRow(nil, 1)); !strings.Contains(line, "part_of=#0") {
		t.Errorf("line %q", line)
	}
	if f, _ := s.Instruction(1).Field("unknown extension"); f.Text == "" {
		t.Error("the second word's bytes are not shown as unknown")
	}
}

// TestLayoutCoversRealWords: on every real word, the layout spans name every non-zero byte
// (a named field or an unknown… one), and every layout name is a key of the fields.
func TestLayoutCoversRealWords(t *testing.T) {
	for _, path := range realfiles.NEFFs(t) {
		members := readNEFF(t, path)
		for member := range engineStreams(t, members) {
			s := NewStream(member, members[member])
			for _, in := range s.All() {
				var covered [WordSize]bool
				fields := in.FieldMap()
				for _, l := range in.Layout() {
					if _, ok := fields[l.Field]; !ok {
						t.Fatalf("%s #%d: layout %q is no field", member, in.Index, l.Field)
					}
					for b := l.Off; b < l.Off+l.Len; b++ {
						covered[b] = true
					}
				}
				for b, c := range in.Word {
					if c != 0 && !covered[b] {
						t.Fatalf("%s #%d: byte +%#x is in no layout span", member, in.Index, b)
					}
				}
			}
		}
	}
}

// TestDmaAddrTagBits: the tag's bits are var id 0x10, table 0x20, register offset 0x08; with
// 0x08 the low u32 is a register number.
func TestDmaAddrTagBits(t *testing.T) {
	for _, c := range []struct {
		v    uint64
		base uint8
		reg  uint32
		isR  bool
		text string
	}{
		{uint64(DmaTagDGEReg)<<56 | 3<<32 | 31, DmaTagDGE, 31, true, "dge[3]+R31"},
		{uint64(DmaTagVar|DmaTagOffsetReg)<<56 | 5<<32 | 2, DmaTagVar, 2, true, "var 5+R2"},
		{uint64(DmaTagVar|DmaTagOffsetReg)<<56 | 7, DmaTagVar, 7, true, "var 0+R7"},
		{uint64(DmaTagDGE)<<56 | 1<<32 | 0x8000, DmaTagDGE, 0, false, "dge[1]+0x8000"},
		{uint64(DmaTagVar)<<56 | 0x37c00, DmaTagVar, 0, false, "SB:0x37c00"},
		{uint64(0x48)<<56 | 9, 0x40, 0, false, "tag 0x48 id 0+0x9"},
	} {
		a := SplitDmaAddr(c.v)
		r, isR := a.OffsetReg()
		if a.Base() != c.base || isR != c.isR || (isR && r != c.reg) {
			t.Errorf("%#x: base %#x reg %d %v", c.v, a.Base(), r, isR)
		}
		if got := string(appendDmaAddr(nil, c.v)); got != c.text {
			t.Errorf("%#x: %q, want %q", c.v, got, c.text)
		}
	}
	for raw, want := range map[uint64]string{0: "none", 0xBD: "R61", 0x80: "R0", 0x3D: "0x3d (enable bit clear)"} {
		if got := string(appendBoundReg(nil, raw)); got != want {
			t.Errorf("bound reg %#x: %q, want %q", raw, got, want)
		}
	}
}

// TestRegisterValue follows a register back through PseudoTensorLoad and AluOps: mult and add
// are computed (uint32 wraps), another op or a clobbering word leaves it unknown.
func TestRegisterValue(t *testing.T) {
	alu := func(op byte, src, dst, imm uint32) []byte {
		w := newWord(0xA8)
		w[0x0C], w[0x0D] = op, 9
		binary.LittleEndian.PutUint32(w[0x10:], src)
		binary.LittleEndian.PutUint32(w[0x14:], dst)
		binary.LittleEndian.PutUint32(w[0x18:], imm)
		return w
	}
	load := newWord(0xCE)
	binary.LittleEndian.PutUint32(load[0x14:], 0x2000)
	binary.LittleEndian.PutUint32(load[0x20:], 1)
	words := [][]byte{
		load,                     // #0: R1 = SBUF[0x2000]
		alu(6, 1, 2, 0x10),       // #1: R2 = R1 × 16
		alu(4, 2, 2, 0xFFFFFFF0), // #2: R2 = R2 + 0xfffffff0
		alu(6, 9, 3, 0),          // #3: R3 = 0
		alu(4, 3, 3, 0x500),      // #4: R3 = 0x500
		alu(5, 1, 4, 1),          // #5: R4 = R1 - 1: not followed
		alu(4, 12, 5, 8),         // #6: R5 = R12 + 8, R12 unknown
		alu(4, 3, 6, 0xFFFFFF00), // #7: R6 = 0x500 + 0xffffff00 = 0x400 (uint32 wraps)
		newWord(0xA7),            // #8: Move clobbers
		newWord(0xA4),            // #9: the DMA would be here
	}
	word := func(j int) []byte { return words[j] }
	for _, c := range []struct {
		at   int
		reg  uint32
		want RegValue
		text string
	}{
		{3, 2, RegValue{Reg: 2, Known: true, Base: 0xFFFFFFF0, Scale: 0x10, Loaded: true, Load: 0x2000, LoadAt: 0, Writer: 2}, "0xfffffff0 + 0x10 × SBUF[0x2000] (loaded at #0)"},
		{5, 3, RegValue{Reg: 3, Known: true, Static: true, Base: 0x500, Writer: 4, From: 9}, "0x500"},
		{7, 4, RegValue{Reg: 4, Writer: 5}, "R4 (written at #5 by an op not followed)"},
		{7, 5, RegValue{Reg: 5, Known: true, Base: 8, Scale: 1, From: 12, Writer: 6}, "0x8 + R12"},
		{8, 6, RegValue{Reg: 6, Known: true, Static: true, Base: 0x400, Writer: 7, From: 9}, "0x400"},
		{9, 3, RegValue{Reg: 3, Writer: -1}, "R3 (no AluOp or PseudoTensorLoad writes it in the 64 words before)"},
	} {
		got := RegisterValue(word, c.at, c.reg)
		if got != c.want || got.String() != c.text {
			t.Errorf("R%d at #%d: %+v %q, want %+v %q", c.reg, c.at, got, got.String(), c.want, c.text)
		}
	}
}

// The named PE, Activate and Memset bytes of neff.md §8.1 render their meaning.
func TestEvidenceFieldTexts(t *testing.T) {
	mm := newWord(0x02)
	mm[0x20], mm[0x21], mm[0x2B], mm[0x2C], mm[0x2D], mm[0x2E] = 10, 3, 5, 0x0F, 0x03, 0x10
	act := activateWord(7, 0x100, 0x200)
	act[0x0D] = 1
	binary.LittleEndian.PutUint32(act[0x24:], 0x810000)
	fill := func(dtype byte, bits uint32) []byte {
		w := newWord(0x49)
		w[0x20] = dtype
		binary.LittleEndian.PutUint32(w[0x28:], bits)
		return w
	}
	for _, c := range []struct {
		word       []byte
		field      string
		want       string
		immediates bool
	}{
		{mm, "fp32 mode", "0x3", false},
		{mm, "accumulate", "start+accumulate", false},
		{mm, "row group", "0xf (all quadrants, untiled)", false},
		{mm, "column group", "0x3 (quadrants 0 1)", false},
		{mm, "trn1 mode", "0x10", false},
		{act, "scale source", "SBUF pointer", false},
		{act, "scale", "pointer to a scale tensor at SBUF 0x810000", false},
		{fill(10, 3463342888), "value", "-1e+09", true},
		{fill(6, 16256), "value", "1", true},
		{fill(8, 0xFFFFFFFF), "value", "-1", true},
	} {
		f, ok := Decode(c.word, 0).Field(c.field)
		if !ok || f.Text != c.want || (f.Immediate != "") != c.immediates {
			t.Errorf("%#x %s: %q (immediate %q), want %q", c.word[0], c.field, f.Text, f.Immediate, c.want)
		}
	}
	if f, _ := Decode(mm, 0).Field("unknown 0x2e"); f.Name != "" {
		t.Errorf("Matmul +0x2E is named: %+v", f)
	}
	ld := newWord(0x01)
	ld[0x2E] = 2
	if f, ok := Decode(ld, 0).Field("unknown 0x2e"); !ok || f.Group != GroupUndocumented {
		t.Errorf("Ldweights +0x2E should stay unknown: %+v", f)
	}
}
