package ntff

import (
	"bytes"
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
	"google.golang.org/protobuf/encoding/protowire"
)

// readAll reads and measures b under a small budget and walks every stub's first children, as
// the page and the CLI would; it returns every finding code.
func readAll(t testing.TB, b []byte, mem int64) (*Profile, *Measurement, map[doc.Code]string, *budget.Budget) {
	t.Helper()
	bud := budget.New(budget.Limits{Memory: mem})
	p := Read("hostile.ntff", bytes.NewReader(b), int64(len(b)), bud)
	m := Measure(p, bud)
	codes := map[doc.Code]string{}
	p.Root.Walk(func(_ []string, n *doc.Node) bool {
		for _, fd := range n.Findings {
			codes[fd.Code] = fd.Message
		}
		if Owns(strings.TrimPrefix(n.Ref, "records:")) {
			if kids, _, err := p.Children(strings.TrimPrefix(n.Ref, "records:"), 0, 8); err == nil && len(kids) > 8 {
				t.Fatalf("%d children asked 8", len(kids))
			}
		}
		return true
	})
	for _, fd := range m.Findings {
		codes[fd.Code] = fd.Message
	}
	if bud.Used(budget.Memory) > mem {
		t.Fatalf("budget used %d of %d", bud.Used(budget.Memory), mem)
	}
	return p, m, codes, bud
}

func TestSample(t *testing.T) {
	p, m, codes, _ := readAll(t, ntffbuild.Bytes(ntffbuild.Sample()), 1<<20)
	if !p.OK || len(codes) != 0 {
		t.Fatalf("ok %v findings %v", p.OK, codes)
	}
	e := m.Cores[0].Engines[0]
	n := 0
	for i := range e.End {
		if e.Traced(i) {
			n++
		}
	}
	if l := e.Image.Layout(); n != 5 || l.Preamble != 2 || l.Postamble != 1 || l.Compiler != 3 {
		t.Errorf("%d traced, layout %+v", n, l)
	}
	q := m.Cores[0].Queues
	if len(q) != 1 || q[0].Name != "qPoolDynamic" || q[0].Bytes != 2048 || q[0].Packets != 1 || q[0].Busy.Length() != 1000 {
		t.Errorf("queues %+v", q)
	}
	if s := m.Cores[0].Semaphores; len(s) != 1 || s[0].ID != 5 || s[0].Peak != 2 {
		t.Errorf("semaphores %+v", s)
	}
}

// TestHostile: each class of broken or hostile profile gives its coded finding within the
// budget, never a panic, and what can still be read is read.
func TestHostile(t *testing.T) {
	mod := func(f func(*ntffbuild.Spec)) []byte {
		s := ntffbuild.Sample()
		f(&s)
		return ntffbuild.Bytes(s)
	}
	cases := []struct {
		name string
		b    []byte
		code doc.Code
		text string // the message names it
	}{
		{"version 5", mod(func(s *ntffbuild.Spec) { s.Version = 5 }), doc.CodeNTFFVersion, "NTFF version 5"},
		{"section outside the file", mod(func(s *ntffbuild.Spec) { s.Sections[0].Off = ntffbuild.Int64(1 << 40) }), doc.CodeNTFFSectionBounds, "outside"},
		{"10^8 records claimed", mod(func(s *ntffbuild.Spec) { s.Sections[2].Bytes = ntffbuild.Int64(16 * 100_000_000) }), doc.CodeNTFFSectionBounds, "1600000000"},
		{"image outside the file", mod(func(s *ntffbuild.Spec) { s.Cores[0].Images[0].Bytes = ntffbuild.Int64(64 << 30) }), doc.CodeNTFFSectionBounds, "image"},
		{"overlapping sections", mod(func(s *ntffbuild.Spec) { s.Sections[1].Off = ntffbuild.Int64(0) }), doc.CodeNTFFSectionOverlap, "overlaps"},
		{"unclaimed bytes", append(ntffbuild.Bytes(ntffbuild.Sample()), make([]byte, 100)...), doc.CodeNTFFTiling, "claimed by no"},
		{"PCs outside every image", mod(func(s *ntffbuild.Spec) {
			for k := range s.Sections[0].Records {
				s.Sections[0].Records[k].A += 1000
			}
		}), doc.CodeNTFFPCOutside, "outside its image"},
		{"timestamps backwards", mod(func(s *ntffbuild.Spec) { s.Sections[0].Records[5].T = 1 }), doc.CodeNTFFTimeBackwards, "end before they start"},
		{"DMA end without start", mod(func(s *ntffbuild.Spec) { s.Sections[2].Records = s.Sections[2].Records[2:] }), doc.CodeNTFFDMAUnpaired, "no whole packet"},
		{"records of no core", mod(func(s *ntffbuild.Spec) { s.Sections[1].NC = 9 }), doc.CodeNTFFNoCore, "NeuronCore 9"},
		{"edit list longer than the image", mod(func(s *ntffbuild.Spec) { s.Cores[0].Images[0].Preamble = 100 }), doc.CodeNTFFEditList, "does not describe it"},
		{"edit of another kind", mod(func(s *ntffbuild.Spec) { s.Cores[0].Images[0].Removed = []int{70} }), doc.CodeNTFFEditList, "outside the program part"},
		{"wire type", mod(func(s *ntffbuild.Spec) { s.ExtraHeader = []byte{0x48, 0x05} }), "", ""}, // field 9 as a varint: shown raw
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, codes, _ := readAll(t, c.b, 4<<20)
			if c.code == "" {
				if _, ok := codes[doc.CodeNTFFWireType]; !ok {
					t.Errorf("findings %v, want %s", codes, doc.CodeNTFFWireType)
				}
				return
			}
			msg, ok := codes[c.code]
			if !ok || !strings.Contains(msg, c.text) {
				t.Errorf("findings %v, want %s naming %q", codes, c.code, c.text)
			}
		})
	}
}

// TestDeepHeader: a header field nested 10⁵ deep, unknown or inside a known message, costs a
// node, not a recursion.
func TestDeepHeader(t *testing.T) {
	for _, num := range []int{99, 4, 15} {
		s := ntffbuild.Sample()
		s.ExtraHeader = ntffbuild.Nested(protowireNumber(num), 100_000)
		p, m, _, _ := readAll(t, ntffbuild.Bytes(s), 4<<20)
		if !p.OK || len(m.Cores) != 1 {
			t.Errorf("field %d nested 10⁵ deep: ok %v, %d cores", num, p.OK, len(m.Cores))
		}
	}
}

// TestTruncated cuts the sample at every length and a real capture at many: a coded finding
// whenever bytes are missing, never a panic.
func TestTruncated(t *testing.T) {
	full := ntffbuild.Bytes(ntffbuild.Sample())
	for n := range len(full) {
		p, _, codes, _ := readAll(t, full[:n], 1<<20)
		if len(codes) == 0 {
			t.Fatalf("cut at %d of %d: no finding (ok %v)", n, len(full), p.OK)
		}
	}
	path, ok := realfiles.Find(captures[0].file)
	if !ok {
		t.Skip(realfiles.Missing(captures[0].file))
	}
	real, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(real); n += 7919 {
		_, _, codes, _ := readAll(t, real[:n], 64<<20)
		if len(codes) == 0 {
			t.Fatalf("real capture cut at %d: no finding", n)
		}
	}
}

// TestSniff: the four captures and the sample sniff as NTFF; a NEFF, JSON and short or random
// files do not.
func TestSniff(t *testing.T) {
	sample := ntffbuild.Bytes(ntffbuild.Sample())
	if !Sniff(sample, int64(len(sample))) {
		t.Error("the sample does not sniff")
	}
	for _, c := range captures {
		if p, ok := realfiles.Find(c.file); ok {
			b, _ := os.ReadFile(p)
			if !Sniff(b[:4096], int64(len(b))) {
				t.Errorf("%s does not sniff", c.file)
			}
		}
	}
	v5 := append([]byte(nil), sample...)
	v5[0] = 5
	if Sniff(v5, int64(len(v5))) {
		t.Error("a version-5 profile sniffs: another version is taken by its name only")
	}
	garbage := append([]byte(nil), sample[:0x80]...)
	garbage = append(garbage, 0x0A, 0x03, 'a', 'b', 'c', 0xFF, 0xFF, 0xFF)
	garbage = append(garbage, make([]byte, len(sample))...)
	if Sniff(garbage, int64(len(garbage))) {
		t.Error("a header that does not parse sniffs")
	}
	neff := make([]byte, 4096)
	binary.LittleEndian.PutUint64(neff, 2)
	for _, b := range [][]byte{neff, []byte(`{"a": 1}`), nil, bytes.Repeat([]byte{6}, 200), append([]byte{6, 0x10, 0, 0, 0, 0, 0, 0}, make([]byte, 0x100)...)} {
		if Sniff(b, int64(len(b))) {
			t.Errorf("% x… sniffs as an NTFF", b[:min(len(b), 16)])
		}
	}
}

func protowireNumber(n int) protowire.Number { return protowire.Number(n) }
