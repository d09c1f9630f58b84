package inspect

import (
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestRealNEFFsHaveNoFalseAlarms: valid compiler output gets no warning or error finding from
// the whole Open (every package's findings), nor from any instruction the page may ask for
// (its field tree and its joins).
func TestRealNEFFsHaveNoFalseAlarms(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		f := openPath(t, p)
		report := func(where string, n *doc.Node) {
			n.Walk(func(_ []string, n *doc.Node) bool {
				for _, fd := range n.Findings {
					if fd.Severity == doc.Warning || fd.Severity == doc.Error {
						t.Errorf("%s %s: %s: %s", p, where, fd.Severity, fd.Message)
					}
				}
				return true
			})
		}
		report("document", f.Doc.Root)
		if f.Program == nil {
			t.Errorf("%s: no program", p)
			continue
		}
		for _, s := range f.Program.Streams {
			if s.ISA == nil {
				continue
			}
			for i := range s.ISA.Len() {
				n, err := f.Instruction("stream:"+s.Member, i)
				if err != nil {
					t.Fatal(err)
				}
				report(s.Member, n)
			}
		}
	}
}

// TestDirect2dJoins: a PseudoDmaDirect2d's addresses name def.json vars (through the DGE
// table and by var id) and its semaphore names the engine's dynamic queue.
func TestDirect2dJoins(t *testing.T) {
	f := openReal(t, "nkipy/matmul_small.neff")
	want := map[string][]string{
		"sg00/Pool.bin": {2: "queue qPoolDynamic · x+0x0 → SB:0x37c00", 4: "queue qPoolDynamic · y+0x8000 → SB:0x37e00", 5: "queue qPoolDynamic · SB:0x4200 → output0+0x0"},
		"sg00/SP.bin":   {2: "queue qSPDynamicHW · identity_82_sg0000+0x0 → SB:0x37b00"},
	}
	for member, rows := range want {
		s := f.Program.Stream(member)
		for i, w := range rows {
			if w == "" {
				continue
			}
			if got := f.Program.Resolve(s, i, s.ISA.Word(i)).String(); got != w {
				t.Errorf("%s #%d: %q, want %q", member, i, got, w)
			}
		}
	}
	// A var id the table lacks and a semaphore of no queue are problems.
	s := f.Program.Stream("sg00/Pool.bin")
	w := append([]byte(nil), s.ISA.Word(2)...)
	w[0x0D], w[0x14], w[0x17] = 99, 77, isa.DmaTagVar
	r := f.Program.Resolve(s, 2, w)
	if !strings.Contains(r.Problem, "var id 77") || !strings.Contains(r.Problem, "S[99]") {
		t.Errorf("problem %q", r.Problem)
	}
}
