package srcmap

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"google.golang.org/protobuf/encoding/protowire"
)

// archiveNEFF is the NEFF interface over a bare neff.Archive: what a caller other than
// core/inspect gives the mapping.
type archiveNEFF struct {
	a      *neff.Archive
	r      io.ReaderAt
	size   int64
	b      *budget.Budget
	reads  int // members read back out of the archive (MemberBytes, Bytes)
	member []string
}

func (n *archiveNEFF) Archive() *neff.Archive       { return n.a }
func (n *archiveNEFF) Reader() (io.ReaderAt, int64) { return n.r, n.size }
func (n *archiveNEFF) Budget() *budget.Budget       { return n.b }

func (n *archiveNEFF) MemberBytes(member string, most int64) ([]byte, error) {
	m := n.a.Member(member)
	if m == nil {
		return nil, fmt.Errorf("no member %q", member)
	}
	if m.Data != nil {
		return m.Data, nil
	}
	if m.Size > most {
		return nil, fmt.Errorf("%s is over %d bytes", member, most)
	}
	n.reads++
	n.member = append(n.member, member)
	var buf bytes.Buffer
	err := n.a.ReadMember(n.r, member, 0, m.Size, &buf, 0)
	return buf.Bytes(), err
}

func (n *archiveNEFF) Bytes(member string, off, size int64) ([]byte, error) {
	b, err := n.MemberBytes(member, 1<<30)
	if err != nil {
		return nil, err
	}
	return b[min(off, int64(len(b))):min(off+size, int64(len(b)))], nil
}

// dbgNEFF builds a NEFF with a 3-word PE stream and its debug info: words 0 and 1 from
// /src/k.py line 12 (backend records 7 and 8), word 2 from line 13 (record 9).
func dbgNEFF() []byte {
	str := func(b []byte, num protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(b, num, protowire.BytesType), s)
	}
	msg := func(b []byte, num protowire.Number, m []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(b, num, protowire.BytesType), m)
	}
	var asm, be []byte
	asm = str(asm, 1, "Debug info for one engine's assembly instructions.")
	asm = str(asm, 2, "debug_info_backend_PE.dbg")
	be = str(be, 1, "Debug info for one engine's BIR Instructions.")
	for i, line := range []string{"12", "12", "13"} {
		id := uint64(7 + i)
		asm = msg(asm, 3, msg(nil, 3, protowire.AppendVarint(nil, id)))
		rec := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), id)
		rec = str(rec, 2, fmt.Sprintf("inst.%d-mm", id))
		for _, kv := range [][2]string{{"kernel_file", "0"}, {"kernel_line", line}} {
			rec = msg(rec, 7, str(str(nil, 1, kv[0]), 2, kv[1]))
		}
		be = msg(be, 3, rec)
	}
	be = str(be, 5, "/src/k.py")
	return neffbuild.Bytes([]neffbuild.Member{
		{Path: "sg00/PE.bin", Data: make([]byte, 3*64)},
		{Path: "sg00/debug_info_asm_PE.dbg", Data: asm},
		{Path: "sg00/debug_info_backend_PE.dbg", Data: be},
	}, neffbuild.Options{})
}

var peStream = &manifest.Stream{Member: "sg00/PE.bin", Size: 3 * 64, Engine: &manifest.Engine{Name: "PE"}, Core: &manifest.Core{Name: "sg00"}}

// open walks b's archive, scanning the .dbg members in the walk (inWalk) or after it, from the
// bytes read back (the members are never held).
func open(t *testing.T, b []byte, lim budget.Limits, inWalk bool) (*archiveNEFF, *Index) {
	t.Helper()
	n := &archiveNEFF{r: bytes.NewReader(b), size: int64(len(b)), b: budget.New(lim)}
	scans := NewScans(n, Options{})
	var opt neff.Options // the walk's own listing is not the mapping's to pay for
	if inWalk {
		opt.Visit = scans.Visit
	}
	n.a = neff.Open(n.r, n.size, opt)
	return n, scans.Map([]*manifest.Stream{peStream})
}

// The mapping reads an open NEFF only through the NEFF interface: a bare archive maps the same
// words to the same lines whether the .dbg members were scanned in the walk or read back after
// it, and serves a member's tree and records through MemberBytes and Bytes.
func TestMapThroughTheNEFFInterface(t *testing.T) {
	b := dbgNEFF()
	for _, inWalk := range []bool{true, false} {
		n, x := open(t, b, budget.Limits{}, inWalk)
		if len(x.Members) != 2 || x.Words != 3 || x.WithSource != 3 || x.WithLine != 3 {
			t.Fatalf("in walk %v: %d members, %d words, %d with a source, %d with a line", inWalk, len(x.Members), x.Words, x.WithSource, x.WithLine)
		}
		if got := x.Source("sg00/PE.bin", 2); got == nil || got.Text() != "k.py:13 inst.9-mm" || got.File != "/src/k.py" || got.Backend != 9 {
			t.Errorf("in walk %v: word 2's source %+v", inWalk, got)
		}
		if x.Source("sg00/PE.bin", 3) != nil || x.Source("sg00/Act.bin", 0) != nil {
			t.Error("a source past the stream, or for a stream without debug info")
		}
		lines := x.Lines()
		if len(lines) != 2 || lines[0].Line != 12 || len(lines[0].Words["sg00/PE.bin"]) != 2 || lines[1].Line != 13 {
			t.Errorf("in walk %v: lines %+v", inWalk, lines)
		}
		rows := x.Node.Find(SourceLines)
		if rows == nil || len(rows.Children) != 2 || rows.Children[0].Key != "k.py:12" || rows.Children[0].Attrs[AttrWords] != "sg00/PE.bin:0-1" {
			t.Fatalf("in walk %v: line nodes %+v", inWalk, rows)
		}
		if w := x.WordNode("sg00/PE.bin", 1); w == nil || w.Link != doc.NodeLink("model", "source", SourceLines, "k.py:12") {
			t.Errorf("in walk %v: word 1's source node %+v", inWalk, w)
		}
		h := x.HotLines(n.b)
		if len(h.Lines) != 2 || h.Lines[0].Total != 2 || h.Lines[0].Mix(h.Engines) != "PE 2" || h.Words != 3 {
			t.Errorf("in walk %v: hot lines %+v", inWalk, h)
		}
		before := n.reads
		kids, err := x.View("sg00/debug_info_backend_PE.dbg")
		if err != nil || len(kids) == 0 || n.reads != before+1 {
			t.Fatalf("in walk %v: view %d nodes, %v, %d reads", inWalk, len(kids), err, n.reads-before)
		}
		if _, err := x.View("sg00/debug_info_backend_PE.dbg"); err != nil || n.reads != before+1 {
			t.Errorf("in walk %v: the last tree built is read again", inWalk)
		}
		tab, total, err := x.Rows("sg00/debug_info_asm_PE.dbg", 1, 3, func(int) error { return nil })
		if err != nil || total != 3 || len(tab.Rows) != 2 {
			t.Errorf("in walk %v: rows %v of %d, %v", inWalk, tab, total, err)
		}
		if _, err := x.View("sg00/PE.bin"); err == nil {
			t.Errorf("in walk %v: a view of a member that is not debug info", inWalk)
		}
	}
}

// Under a memory limit too small to map them, the members are left unmapped, their charge is
// given back, and WarnSkipped says so once with the budget's code.
func TestMapSkipsWhatTheBudgetRefuses(t *testing.T) {
	b := dbgNEFF()
	n, x := open(t, b, budget.Limits{Memory: 64}, true)
	if len(x.Members) != 0 || x.WithSource != 0 {
		t.Fatalf("mapped %d members under a 64-byte limit", len(x.Members))
	}
	if held := n.b.Used(budget.Memory); held != 0 {
		t.Errorf("the budget holds %d bytes for members not mapped", held)
	}
	root := &doc.Node{}
	x.WarnSkipped(root)
	if len(root.Findings) != 1 || root.Findings[0].Code != doc.CodeBudgetMemory || !strings.Contains(root.Findings[0].Message, "debug_info_asm_PE.dbg") {
		t.Fatalf("findings %+v", root.Findings)
	}
	if x.Node.Value != "no debug info" {
		t.Errorf("source node %q", x.Node.Value)
	}
}

// FuzzMap: mutated asm and backend members mapped under a small memory limit: no panic, the
// budget within its limit, and the counts agree (every word with a line is a word with a
// source; the lines and the hot lines count the words with a line).
func FuzzMap(f *testing.F) {
	a := neff.Open(bytes.NewReader(dbgNEFF()), int64(len(dbgNEFF())), neff.Options{Keep: func(string, int64) bool { return true }})
	f.Add(a.Member("sg00/debug_info_asm_PE.dbg").Data, a.Member("sg00/debug_info_backend_PE.dbg").Data, uint8(3))
	f.Add([]byte{}, []byte{0x1a, 0xff, 0xff, 0xff, 0xff, 0x0f}, uint8(0))
	f.Fuzz(func(t *testing.T, asm, be []byte, words uint8) {
		b := neffbuild.Bytes([]neffbuild.Member{
			{Path: "sg00/PE.bin", Data: make([]byte, int(words)*64)},
			{Path: "sg00/debug_info_asm_PE.dbg", Data: asm},
			{Path: "sg00/debug_info_backend_PE.dbg", Data: be},
		}, neffbuild.Options{Plain: true, PadTo: -1})
		n := &archiveNEFF{r: bytes.NewReader(b), size: int64(len(b)), b: budget.New(budget.Limits{Memory: 1 << 20})}
		scans := NewScans(n, Options{})
		n.a = neff.Open(n.r, n.size, neff.Options{Visit: scans.Visit})
		s := *peStream
		s.Size = int64(words) * 64
		x := scans.Map([]*manifest.Stream{&s})
		if used := n.b.Used(budget.Memory); used > n.b.Limit(budget.Memory) {
			t.Fatalf("memory: used %d of %d", used, n.b.Limit(budget.Memory))
		}
		if x.WithLine > x.WithSource || x.WithSource > x.Words {
			t.Fatalf("%d words, %d with a source, %d with a line", x.Words, x.WithSource, x.WithLine)
		}
		lined := 0
		for _, l := range x.Lines() {
			for _, ws := range l.Words {
				lined += len(ws)
			}
		}
		if h := x.HotLines(nil); lined != x.WithLine || h.Words != int64(x.WithLine) {
			t.Fatalf("%d words with a line; the lines list %d, the hot lines %d", x.WithLine, lined, h.Words)
		}
	})
}
