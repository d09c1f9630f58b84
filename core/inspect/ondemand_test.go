package inspect

import (
	"bytes"
	"math/rand/v2"
	"os"
	"reflect"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestStreamsServedOnDemand opens every real NEFF twice: holding its engine streams, and with
// the hold limit at 0, so every stream is indexed as it streams past and its words are read
// back from the archive when asked for (what a NEFF of hundreds of MB of streams gets). The
// instruction counts, listings, instruction trees and the profile must be the same; the open
// that does not hold them says so once per stream, and holds none of their bytes.
func TestStreamsServedOnDemand(t *testing.T) {
	paths := realfiles.NEFFs(t)
	for _, p := range paths {
		held := openPath(t, p)
		saved := streamHoldMax
		streamHoldMax = 0
		lazy := openPath(t, p)
		streamHoldMax = saved
		if held.Program == nil || lazy.Program == nil || len(held.Program.Streams) != len(lazy.Program.Streams) {
			t.Fatalf("%s: programs differ", p)
		}
		for k, hs := range held.Program.Streams {
			ls := lazy.Program.Streams[k]
			if hs.ISA == nil {
				continue
			}
			if ls.ISA == nil || ls.ISA.Held() || !hs.ISA.Held() {
				t.Fatalf("%s %s: the lazy open holds the stream (or has none)", p, hs.Member)
			}
			if m := lazy.Archive.Member(hs.Member); m.Data != nil {
				t.Fatalf("%s %s: %d bytes held", p, hs.Member, len(m.Data))
			}
			if !reflect.DeepEqual(hs.ISA.Counts(), ls.ISA.Counts()) {
				t.Fatalf("%s %s: opcode counts differ", p, hs.Member)
			}
			n := hs.ISA.Len()
			ref := doc.StreamRef(hs.Member)
			for _, r := range [][2]int{{0, 100}, {n - 10, n}} {
				ht, _, err1 := held.Rows(ref, r[0], r[1])
				lt, _, err2 := lazy.Rows(ref, r[0], r[1])
				if err1 != nil || err2 != nil || !reflect.DeepEqual(ht, lt) {
					t.Fatalf("%s %s rows %v differ (errors %v, %v)", p, hs.Member, r, err1, err2)
				}
			}
			hn, err1 := held.Instruction(ref, n-1)
			ln, err2 := lazy.Instruction(ref, n-1)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(hn, ln) {
				t.Fatalf("%s %s: the last instruction differs (errors %v, %v)", p, hs.Member, err1, err2)
			}
			said := 0
			lazy.Doc.Root.Walk(func(_ []string, c *doc.Node) bool {
				for _, f := range c.Findings {
					if f.Span != nil && f.Span.Source == hs.Member && f.Severity == doc.Info && f.Code == doc.CodeISANotHeld {
						said++
					}
				}
				return true
			})
			if said != 1 {
				t.Fatalf("%s %s: %d findings say the stream is read on demand, want 1", p, hs.Member, said)
			}
		}
		if !reflect.DeepEqual(Profile(held), Profile(lazy)) {
			t.Fatalf("%s: the profiles differ", p)
		}
		if e := lazy.Budget.First(); e != nil {
			t.Fatalf("%s: the lazy open reports a limit: %v", p, e)
		}
	}
}

// TestStreamsHeldPacked checks how an open holds the engine streams it walks: none whole (no
// member Data), each packed (neff.Packed) and charged to the budget at its packed size, with
// the member's bytes served from the pack as the archive has them.
func TestStreamsHeldPacked(t *testing.T) {
	p := "../../testdata/real/nkipy/matmul_small.neff"
	f := openPath(t, p)
	if f.Program == nil || len(f.Program.Streams) == 0 {
		t.Fatalf("%s: no streams", p)
	}
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	for _, s := range f.Program.Streams {
		if s.ISA == nil {
			continue
		}
		m := f.Archive.Member(s.Member)
		pk := f.packed[m]
		if m.Data != nil || pk == nil || !s.ISA.Held() || s.ISA.InPlace() {
			t.Fatalf("%s: held whole %v, packed %v, Held %v, InPlace %v", s.Member, m.Data != nil, pk != nil, s.ISA.Held(), s.ISA.InPlace())
		}
		var want bytes.Buffer
		if err := f.Archive.ReadMember(fh, m.Path, 0, m.Size, &want, 0); err != nil {
			t.Fatal(err)
		}
		for _, r := range [][2]int64{{0, m.Size}, {m.Size / 2, 100}, {m.Size - 5, 64}} {
			got, err := f.Bytes(m.Path, r[0], r[1])
			hi := min(r[0]+r[1], m.Size)
			if err != nil || !bytes.Equal(got, want.Bytes()[r[0]:hi]) {
				t.Fatalf("%s bytes %v: %d bytes, err %v", m.Path, r, len(got), err)
			}
		}
		if whole, err := f.memberBytes(m.Path, m.Size); err != nil || !bytes.Equal(whole, want.Bytes()) {
			t.Fatalf("%s: memberBytes gave %d bytes, err %v", m.Path, len(whole), err)
		}
	}
}

// TestStreamPackRefused packs an incompressible stream under a memory limit too small for it:
// the pack is let go (the stream is then read from the file on demand) and the budget gets
// back what it gave.
func TestStreamPackRefused(t *testing.T) {
	f := &File{Budget: budget.New(budget.Limits{Memory: 256 << 10})}
	before := f.Budget.Used(budget.Memory)
	m := &neff.Member{Path: "sg00/SP.bin", Size: 1 << 20}
	chunk := make([]byte, 64<<10)
	r := rand.New(rand.NewPCG(3, 4))
	pk := &streamPacker{f: f}
	for off := int64(0); off < m.Size; off += int64(len(chunk)) {
		for i := range chunk {
			chunk[i] = byte(r.Uint32())
		}
		pk.visit(m, off, chunk)
	}
	pk.end()
	if f.packed[m] != nil {
		t.Fatalf("a 1 MiB random stream was packed under a 256 KiB limit")
	}
	if used := f.Budget.Used(budget.Memory); used != before {
		t.Fatalf("the budget holds %d bytes after the pack was let go (%d before)", used, before)
	}
	small := &neff.Member{Path: "sg00/DVE.bin", Size: 64 << 10}
	pk.visit(small, 0, make([]byte, 64<<10))
	pk.end()
	if f.packed[small] == nil || f.Budget.Used(budget.Memory) <= before {
		t.Fatalf("a 64 KiB stream of zeros was not packed and charged after the refusal")
	}
}
