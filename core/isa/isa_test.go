package isa

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

// Word builders for unit tests and the benchmark generator: they stamp bytes at the offsets
// of the layout table, so they exercise the same data the decoder reads.

func newWord(op uint8) []byte {
	w := make([]byte, WordSize)
	w[0], w[1] = op, 0x10
	return w
}

func putSync(w []byte, waitMode, waitSem, updMode, updSem uint8, value uint32) {
	w[4], w[5], w[6], w[7] = waitMode, waitSem, updMode, updSem
	binary.LittleEndian.PutUint32(w[8:], value)
}

func putDesc(w []byte, off int, addr uint32, steps []int16, counts []uint16) {
	binary.LittleEndian.PutUint32(w[off:], addr)
	for k, s := range steps {
		binary.LittleEndian.PutUint16(w[off+4+2*k:], uint16(s))
	}
	for k, c := range counts {
		binary.LittleEndian.PutUint16(w[off+4+2*len(steps)+2*k:], c)
	}
}

// activateWord builds a real-shaped Activate (compare the 2.18 word in activation.md §11.2).
func activateWord(fn uint8, src, dst uint32) []byte {
	w := newWord(0x21)
	putSync(w, 0x05, 8, 0x13, 4, 16)
	w[0x0F] = 1 // imm0 inline float
	putDesc(w, 0x10, src, []int16{9, 1, 1}, []uint16{128, 3, 1})
	w[0x20], w[0x21], w[0x22], w[0x23] = 0xA7, 0x07, 0x80, fn
	binary.LittleEndian.PutUint32(w[0x24:], math.Float32bits(1))
	binary.LittleEndian.PutUint32(w[0x28:], math.Float32bits(-0.5))
	putDesc(w, 0x30, dst, []int16{1, 1, 1}, []uint16{384, 1, 1})
	return w
}

func TestActivateFields(t *testing.T) {
	in := Decode(activateWord(7, 0x2dc06, 0x4300), 5)
	if in.Offset != 5*64 || in.Name != "Activate" || in.Family != "A" || !in.Documented {
		t.Fatalf("%+v", in)
	}
	checkFields(t, in, []want{
		{"wait mode", 4, 5, "S>=imm (0x5)"},
		{"imm0 source", 0x0F, 1, "float"},
		{"in dtype", 0x20, 7, "fp16"},
		{"imm dtype", 0x20, 10, "fp32"},
		{"out dtype", 0x21, 7, "fp16"},
		{"active channels", 0x22, 128, "128"},
		{"func", 0x23, 7, "exp(7)"},
		{"scale", 0x24, uint64(math.Float32bits(1)), "1"},
		{"imm0", 0x28, uint64(math.Float32bits(-0.5)), "-0.5"},
	})
	src := fieldOf(t, in, "src")
	if src.Off != 0x10 || src.Width != 16 || src.Raw != 0x2dc06 || src.Text != "SBUF:0x2dc06 counts=128,3,1 steps=9,1,1" {
		t.Errorf("src %+v", src)
	}
	if len(src.Parts) != 7 || src.Parts[1].Name != "step[0]" || src.Parts[1].Off != 0x14 || src.Parts[4].Name != "count[0]" || src.Parts[4].Off != 0x1A || src.Parts[4].Raw != 128 {
		t.Errorf("src parts %+v", src.Parts)
	}
	if got := Summary(in); got != "func=exp(7) src=SBUF:0x2dc06[128,3] dst=SBUF:0x4300[384] in_dtype=fp16 out_dtype=fp16" {
		t.Errorf("summary %q", got)
	}
	if got := SyncText(in); got != "wait S[8]>=16, inc S[4]" {
		t.Errorf("sync %q", got)
	}
	if code, ok := in.FuncCode(); !ok || code != 7 {
		t.Errorf("FuncCode %d %v", code, ok)
	}
	if _, ok := in.SetIndex(); ok {
		t.Error("SetIndex on an Activate")
	}
	for _, f := range in.Fields {
		if f.Group == GroupUndocumented {
			t.Errorf("undocumented bytes in a fully documented Activate: %+v", f)
		}
	}
}

func TestAddr4Spaces(t *testing.T) {
	for _, c := range []struct {
		addr uint32
		text string
	}{
		{0x0002dc06, "SBUF:0x2dc06"},
		{0x02000000, "PSUM:0x0"},
		{0x02000200, "PSUM:0x200"},
		{0x023FFFFF, "PSUM:0x3fffff"},
		{0x02400000, "addr:0x2400000"}, // bits 25..28 set, outside the PSUM window
		{0x80000005, "R5"},
		{0x80001005, "R5(bits 0x80001005)"},
		{0x20000010, "SBUF:0x10+ind"},
		{0x40000010, "SBUF:0x10+dyn"},
	} {
		if got := string(appendAddr4(nil, c.addr)); got != c.text {
			t.Errorf("%#x: %q, want %q", c.addr, got, c.text)
		}
	}
}

func TestOpcodeTable(t *testing.T) {
	modern := 0
	for code := 0; code < 256; code++ {
		if opcodeTable[code].Source == SourceModern {
			modern++
		}
	}
	if modern != 161 { // neff.md §4.3: "161 opcodes are live"
		t.Errorf("%d modern opcodes, the spec lists 161", modern)
	}
	seen := map[string]uint8{}
	for _, r := range modernOpcodes {
		if prev, dup := seen[r.Name]; dup {
			t.Errorf("name %s used by %#x and %#x", r.Name, prev, r.Code)
		}
		seen[r.Name] = r.Code
	}
	for code, name := range map[uint8]string{0x01: "Ldweights", 0x21: "Activate", 0x23: "ActivationTableLoad",
		0xA0: "EventSemaphore", 0xB1: "SetOrderingMode", 0xC1: "PseudoDMATrigger", 0xC8: "PseudoTriggerCollective",
		0xCC: "PseudoBranchLabel", 0xD4: "PseudoDmaDirect2d", 0xE3: "QuantizeMX", 0xFF: "Invalid"} {
		if o := Opcode(code); o.Name != name || o.Source != SourceModern {
			t.Errorf("%#x: %+v, want %s", code, o, name)
		}
	}
	if o := Opcode(0x61); o.Name != "BatchNormStats2" || o.Legacy != "EVENT_WAIT" {
		t.Errorf("0x61 %+v: modern name first, Tonga kept as legacy", o)
	}
	if o := Opcode(0xC8); o.Legacy != "READ_VAR_ADDR" {
		t.Errorf("0xC8 legacy %q", o.Legacy)
	}
	for _, code := range []uint8{0x0B, 0x20, 0x50, 0x75, 0x80, 0xF3} {
		o := Opcode(code)
		if o.Known() || o.Name != "op_"+hex2(code) {
			t.Errorf("%#x should be unknown, got %+v", code, o)
		}
	}
	if OpcodeName(0x0b) != "op_0x0b" {
		t.Errorf("raw name %q", OpcodeName(0x0b))
	}
}

func TestLayoutTable(t *testing.T) {
	seen := map[uint8]bool{}
	for _, l := range layouts {
		if seen[l.Opcode] {
			t.Errorf("layout %#x twice", l.Opcode)
		}
		seen[l.Opcode] = true
		if !Opcode(l.Opcode).Known() {
			t.Errorf("layout for %#x, which has no name", l.Opcode)
		}
		if l.Source == "" {
			t.Errorf("layout %#x has no source", l.Opcode)
		}
		if got := len(layoutIndex[l.Opcode].summary); got != len(l.Summary) {
			t.Errorf("layout %#x: %d of %d summary names resolve", l.Opcode, got, len(l.Summary))
		}
		owner := [64]string{}
		claim := func(name string, off, width int, shareable bool) {
			if off < 0x0C || off+width > WordSize {
				t.Errorf("layout %#x %s: bytes %#x..%#x outside +0x0C..+0x3F", l.Opcode, name, off, off+width)
				return
			}
			for b := off; b < off+width; b++ {
				if owner[b] != "" && !shareable {
					t.Errorf("layout %#x: %s overlaps %s at +%#x", l.Opcode, name, owner[b], b)
				}
				owner[b] = name
			}
		}
		for _, f := range l.Fields {
			claim(f.Name, int(f.Off), int(f.Width), f.Kind == kDtypeHi) // the hi nibble shares its byte
		}
		for _, d := range l.Descs {
			claim(d.Name, int(d.Off), 4+4*int(d.Rank), false)
		}
	}
}

func TestTrailingBytesFinding(t *testing.T) {
	b := append(bytes.Repeat(activateWord(7, 0x100, 0x200), 3), 1, 2, 3, 4, 5)
	s := NewStream("sg00/Activation.bin", b)
	if s.Len() != 3 || s.Trailing() != 5 {
		t.Fatalf("len %d trailing %d", s.Len(), s.Trailing())
	}
	fs := s.Findings()
	if len(fs) != 1 || fs[0].Severity != doc.Error || fs[0].Code != doc.CodeISAStreamSize ||
		!strings.Contains(fs[0].Message, "sg00/Activation.bin") || fs[0].Span.Offset != 192 || fs[0].Span.Length != 5 {
		t.Fatalf("findings %+v", fs)
	}
	for i := 0; i < 3; i++ {
		if in := s.Instruction(i); in.Name != "Activate" {
			t.Errorf("#%d %s", i, in.Name)
		}
	}
	if s.Word(3) != nil || s.Node(3) != nil || s.Node(-1) != nil {
		t.Error("out-of-range access returned data")
	}
}

func TestStreamFindingsForUnknownOpcodesAndBadLength(t *testing.T) {
	unknown := newWord(0x0B)
	bad := activateWord(1, 0, 0)
	bad[1] = 0x20
	s := NewStream("", append(append(newWord(0xB1), unknown...), bad...))
	// The unknown opcode at its first word (index 1), the bad length byte at +0x01 of word 2.
	got := map[doc.Code]string{}
	for _, f := range s.Findings() {
		got[f.Code] = fmt.Sprintf("%s@%d", f.Severity, f.Span.Offset)
	}
	if got[doc.CodeISAUnknownOpcode] != "info@64" || got[doc.CodeISAWordLength] != "warning@129" || len(got) != 2 {
		t.Errorf("findings %v", got)
	}
	n := s.Node(1)
	if n.Label != "#1 op_0x0b" || len(n.Findings) != 1 || n.Findings[0].Span.Source != "" {
		t.Errorf("unknown node %+v", n)
	}
	n = s.Node(2)
	if len(n.Findings) != 1 || n.Findings[0].Severity != doc.Warning || n.Findings[0].Span.Offset != 2*64+1 {
		t.Errorf("bad length node findings %+v", n.Findings)
	}
}

func TestRowsAndResidentSet(t *testing.T) {
	load := func(set uint8) []byte { w := newWord(0x23); w[0x23] = set; return w }
	var b []byte
	b = append(b, activateWord(1, 0, 0)...) // 0: no set yet
	b = append(b, load(1)...)               // 1
	b = append(b, activateWord(7, 0, 0)...) // 2
	b = append(b, load(0)...)               // 3
	b = append(b, activateWord(29, 0, 0)...)
	s := NewStream("sg00/Activation.bin", b)
	if _, _, ok := s.ResidentSet(0); ok {
		t.Error("word 0 has a resident set")
	}
	for i, want := range map[int][2]int{1: {0, -1}, 2: {1, 1}, 3: {1, 1}, 4: {0, 3}} {
		set, at, ok := s.ResidentSet(i)
		if want[1] == -1 {
			if ok {
				t.Errorf("#%d: resident %d at %d", i, set, at)
			}
			continue
		}
		if !ok || set != want[0] || at != want[1] {
			t.Errorf("#%d: resident set %d at %d (%v), want %v", i, set, at, ok, want)
		}
	}
	s.SetResolver("set", func(i int, w []byte) string {
		if set, _, ok := s.ResidentSet(i); ok && w[0] == 0x21 {
			return []string{"reciprocal_sqrt_and_small", "natural_log_exp_and_others"}[set]
		}
		return ""
	})
	tab := s.Rows(-5, 99)
	if len(tab.Rows) != 5 || len(tab.Columns) != 7 || tab.Columns[6] != "set" {
		t.Fatalf("rows %d cols %v", len(tab.Rows), tab.Columns)
	}
	r := tab.Rows[2]
	if r[0] != "2" || r[1] != "0x80" || r[2] != "0x21" || r[3] != "Activate" || !strings.HasPrefix(r[4], "func=exp(7) ") ||
		r[5] != "wait S[8]>=16, inc S[4]" || r[6] != "natural_log_exp_and_others" {
		t.Errorf("row 2 %q", r)
	}
	if tab.Rows[3][4] != "set_index=0" || tab.RowSpans[3] != (doc.Span{Source: "sg00/Activation.bin", Offset: 192, Length: 64}) {
		t.Errorf("row 3 %q %+v", tab.Rows[3], tab.RowSpans[3])
	}
	if got := s.Rows(3, 2); len(got.Rows) != 0 {
		t.Errorf("empty range gave %d rows", len(got.Rows))
	}
	counts := s.Counts()
	if len(counts) != 2 || counts[0].Opcode != 0x21 || counts[0].Count != 3 || counts[1].Count != 2 || counts[1].First != 1 {
		t.Errorf("counts %+v", counts)
	}
	sum := s.Summary()
	if sum.Value != "5" || sum.Children[0].Table.Rows[0][1] != "Activate" || sum.Children[0].Table.Rows[0][2] != "3" {
		t.Errorf("summary %+v", sum.Children[0].Table)
	}
}

func TestNodeSpans(t *testing.T) {
	s := NewStream("sg00/Activation.bin", append(newWord(0xB1), activateWord(7, 0x2dc06, 0x4300)...))
	n := s.Node(1)
	if n.Span.Source != "sg00/Activation.bin" || n.Span.Offset != 64 || n.Span.Length != 64 || n.Value != "0x21" {
		t.Fatalf("node %+v", n)
	}
	fn := n.Find("operand", "func")
	if fn == nil || fn.Value != "exp(7)" || fn.Span.Offset != 64+0x23 || fn.Span.Length != 1 {
		t.Fatalf("func node %+v", fn)
	}
	cnt := n.Find("operand", "dst", "count[0]")
	if cnt == nil || cnt.Value != "384" || cnt.Span.Offset != 64+0x3A || cnt.Span.Length != 2 {
		t.Fatalf("dst count node %+v", cnt)
	}
	wm := n.Find("sync", "wait mode")
	if wm == nil || wm.Span.Offset != 64+4 || wm.Detail != "raw 0x05 at +0x04" {
		t.Fatalf("wait mode node %+v", wm)
	}
	// Every non-zero byte of the word lies in some leaf's span.
	w := s.Word(1)
	for off, c := range w {
		if c == 0 {
			continue
		}
		hit := false
		n.Walk(func(_ []string, x *doc.Node) bool {
			if len(x.Children) == 0 && x.Span != nil && int64(64+off) >= x.Span.Offset && int64(64+off) < x.Span.Offset+x.Span.Length {
				hit = true
			}
			return true
		})
		if !hit {
			t.Errorf("byte +%#x (%#x) is in no field", off, c)
		}
	}
}

func TestUndocumentedBytesAndCompleteLayouts(t *testing.T) {
	w := newWord(0x23)
	w[0x23] = 1
	w[0x30], w[0x31], w[0x33] = 0xAA, 0xBB, 0xCC
	in := Decode(w, 0)
	f, ok := in.Field("unknown 0x30..0x33")
	if !ok || f.Text != "aabb00cc" || f.Width != 4 {
		t.Fatalf("undocumented field %+v (fields %+v)", f, in.Fields)
	}
	n := in.Node("")
	if len(n.Findings) != 1 || n.Findings[0].Code != doc.CodeISAReservedNonzero || n.Findings[0].Span.Offset != 0x30 {
		t.Errorf("findings %+v", n.Findings)
	}
	short := Decode([]byte{0x21, 0x10}, 0)
	if short.Missing != 62 || short.Name != "Activate" {
		t.Errorf("short %+v", short)
	}
}

func TestSyncModes(t *testing.T) {
	for _, c := range []struct {
		band [8]byte
		text string
	}{
		{[8]byte{}, ""},
		{[8]byte{0x04, 11}, "wait S[11]>0"},
		{[8]byte{0x05, 8, 0x13, 4, 16}, "wait S[8]>=16, inc S[4]"},
		{[8]byte{0x85, 8, 0x01, 4, 3}, "wait S[8]>=R3, inc S[4]"},
		{[8]byte{0x00, 0, 0x00, 9}, "set? S[9]"},
		{[8]byte{0x07, 2, 0x42, 3, 1}, "wait?0x7 S[2] 1, update?0x42 S[3]"},
	} {
		var w [WordSize]byte
		copy(w[firstBand:], c.band[:])
		if got := string(appendSync(nil, &w)); got != c.text {
			t.Errorf("% x: %q, want %q", c.band, got, c.text)
		}
	}
	w := newWord(0xA0)
	putSync(w, 0x05, 0x31, 0, 0, 0x60)
	copy(w[0x20:], []byte{0x05, 0x12, 0, 0, 0xb0})
	in := Decode(w, 0)
	if got := Summary(in); got != "second_wait=wait S[18]>=176" {
		t.Errorf("EventSemaphore second band %q", got)
	}
}

func TestIteratorFieldMapAndLegacyTables(t *testing.T) {
	s := NewStream("sg00/pe.bin", append(fixturePE(), fixturePool()...))
	var names []string
	for i, in := range s.All() {
		if in.Index != i {
			t.Fatalf("index %d at %d", in.Index, i)
		}
		names = append(names, in.Name)
	}
	if strings.Join(names, ",") != "PseudoTriggerCollective,PseudoDMATrigger,PseudoDMATrigger,EventSemaphore" {
		t.Errorf("names %v", names)
	}
	m := s.Instruction(0).FieldMap()
	if m["opcode"] != "PseudoTriggerCollective (0xc8)" || m["collective"] != "AllReduce" || m["num elements"] != "32" {
		t.Errorf("field map %v", m)
	}
	if name, ok := LegacySPOpcodeName(0x39); !ok || name != "BRANCH_C_CNTR_NZ" {
		t.Errorf("legacy SP 0x39 = %q %v", name, ok)
	}
	if _, ok := LegacySPOpcodeName(0x7F); ok {
		t.Error("legacy SP 0x7f named")
	}
}

// TestUnknownsAreCitedAndListed: every unknowns ID the code names is in Unknowns, and every
// row of Unknowns is named somewhere in the code.
func TestUnknownsAreCitedAndListed(t *testing.T) {
	listed := map[string]bool{}
	for _, u := range Unknowns {
		if u.ID == "" || u.Spec == "" || u.Question == "" || u.Assumption == "" || u.Confidence == "" {
			t.Errorf("incomplete row %+v", u)
		}
		if listed[u.ID] {
			t.Errorf("duplicate %s", u.ID)
		}
		listed[u.ID] = true
	}
	cited := map[string]bool{}
	id := regexp.MustCompile(`isa\.[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)+`)
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "unknowns.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range id.FindAllString(string(src), -1) {
			cited[m] = true
			if !listed[m] {
				t.Errorf("%s names %s, which Unknowns lacks", f, m)
			}
		}
	}
	for u := range listed {
		if !cited[u] {
			t.Errorf("Unknowns row %s is named by no code", u)
		}
	}
}

// Labels say what they count: every step of a layout reads signed (a step may go backwards, as
// the operand descriptors' do), and a PseudoDmaDirect2d's elem size says it is bytes. A word
// with step_elem[0] = 0xFFFFFFFF and elem_size 512 shows "-1" and "512 bytes".
func TestStepsSignedAndElemSizeInBytes(t *testing.T) {
	for _, l := range layouts {
		for _, f := range l.Fields {
			if strings.Contains(f.Name, "step") && f.Kind != kI32 {
				t.Errorf("0x%02X %q: a step read unsigned (kind %d)", l.Opcode, f.Name, f.Kind)
			}
			if strings.HasSuffix(f.Name, "elem size") && f.Kind != kByteCount {
				t.Errorf("0x%02X %q: a size in bytes that does not say so (kind %d)", l.Opcode, f.Name, f.Kind)
			}
		}
	}
	w := make([]byte, WordSize)
	w[0], w[1] = 0xD4, 0x10
	binary.LittleEndian.PutUint32(w[0x18:], 0xFFFFFFFF)
	binary.LittleEndian.PutUint16(w[0x24:], 512)
	binary.LittleEndian.PutUint16(w[0x3C:], 1)
	want := map[string]string{"src step elem[0]": "-1", "src elem size": "512 bytes", "dst elem size": "1 byte"}
	for _, f := range Decode(w, 0).Fields {
		if v, ok := want[f.Name]; ok {
			if f.Text != v {
				t.Errorf("%s = %q, want %q", f.Name, f.Text, v)
			}
			delete(want, f.Name)
		}
	}
	if len(want) != 0 {
		t.Errorf("fields not decoded: %v", want)
	}
	if src, _, ok := Direct2dPatterns(w); !ok || src.StepElem[0] != -1 {
		t.Errorf("Direct2dPatterns: step %d, %v", src.StepElem[0], ok)
	}
}
