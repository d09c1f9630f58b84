package neff

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// readPlanned reads [from, to) of the tar through a plan that went through its encoding, as a
// pool worker gets it.
func readPlanned(t *testing.T, a *Archive, r *bytes.Reader, from, to int64) ([]byte, error) {
	t.Helper()
	p, ok := a.PlanSpan(from, to)
	if !ok {
		t.Fatalf("no plan for [%d, %d)", from, to)
	}
	q, err := ParseSpanPlan(p.AppendBinary(nil))
	if err != nil {
		t.Fatalf("the plan does not read back: %v", err)
	}
	var out bytes.Buffer
	next := from
	err = q.Read(r, "a stretch", func(off int64, b []byte) error {
		if off != next {
			t.Fatalf("a piece at tar byte %d, want %d", off, next)
		}
		next += int64(len(b))
		out.Write(b)
		return nil
	}, 0)
	return out.Bytes(), err
}

// A stretch over several members, read through an encoded plan, is the bytes the members
// hold, whatever checkpoint it starts after; a whole-archive plan too.
func TestSpanPlanReadsMembers(t *testing.T) {
	withSpacing(t, 256<<10, 16)
	b, ms := indexSample(t)
	r := bytes.NewReader(b)
	a := Open(r, int64(len(b)), Options{})
	if !a.Complete {
		t.Fatalf("open incomplete: %v", a.Findings)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range a.Members {
		for j := i; j < len(a.Members); j++ {
			if rng.IntN(3) != 0 && j != i {
				continue
			}
			lo, hi := a.Members[i], a.Members[j]
			got, err := readPlanned(t, a, r, lo.DataOffset, hi.DataOffset+hi.Size)
			if err != nil {
				t.Fatalf("%s..%s: %v", lo.Path, hi.Path, err)
			}
			for k := i; k <= j; k++ {
				m := a.Members[k]
				at := m.DataOffset - lo.DataOffset
				if !bytes.Equal(got[at:at+m.Size], ms[k].Data) {
					t.Fatalf("%s..%s: %s differs", lo.Path, hi.Path, m.Path)
				}
			}
		}
	}
}

// A plan read from a file that changed since the open fails (or gives the bytes opened),
// as ReadMember does; a plain tar is read in place.
func TestSpanPlanChangedAndTar(t *testing.T) {
	withSpacing(t, 256<<10, 256)
	b, ms := indexSample(t)
	a := Open(bytes.NewReader(b), int64(len(b)), Options{})
	m := a.Member("sg00/ACT.bin")
	c := bytes.Clone(b)
	c[len(c)/2] ^= 0x40
	got, err := readPlanned(t, a, bytes.NewReader(c), 0, a.index.end)
	if err == nil && !bytes.Equal(got[m.DataOffset:m.DataOffset+m.Size], ms[3].Data) {
		t.Fatal("a changed file read back wrong, without an error")
	}

	tm := neffbuild.Sample()
	tb := neffbuild.Bytes(tm, neffbuild.Options{Plain: true, PkgVersion: 1})
	ta := Open(bytes.NewReader(tb), int64(len(tb)), Options{})
	last := ta.Members[len(ta.Members)-1]
	got, err = readPlanned(t, ta, bytes.NewReader(tb), ta.Members[0].DataOffset, last.DataOffset+last.Size)
	if err != nil || !bytes.Equal(got[last.DataOffset-ta.Members[0].DataOffset:], tm[len(tm)-1].Data) {
		t.Fatalf("a plain tar's stretch: %v", err)
	}
}

// ParseSpanPlan never panics, and what it accepts is a plan whose offsets are in order.
func FuzzParseSpanPlan(f *testing.F) {
	withSpacingF(f, 256<<10, 16)
	b, _ := indexSample(f)
	a := Open(bytes.NewReader(b), int64(len(b)), Options{})
	for _, m := range a.Members {
		if p, ok := a.PlanSpan(m.DataOffset, m.DataOffset+m.Size); ok {
			f.Add(p.AppendBinary(nil))
		}
	}
	f.Add([]byte{})
	f.Add([]byte{8, 1, 18, 3, 't', 'a', 'r', 40, 5, 48, 2})
	f.Fuzz(func(t *testing.T, enc []byte) {
		p, err := ParseSpanPlan(enc)
		if err != nil {
			return
		}
		if p.To < p.From || len(p.Resume.Window) > 32<<10 {
			t.Fatalf("accepted a bad plan: %+v", p)
		}
		// Reading it from the sample fails or gives bytes; never a panic.
		p.Read(bytes.NewReader(b), "fuzz", func(int64, []byte) error { return nil }, 1<<20)
	})
}

// withSpacingF is withSpacing for a fuzz target's setup.
func withSpacingF(f *testing.F, spacing int64, points int) {
	old, oldN := indexSpacing, indexMaxPoints
	indexSpacing, indexMaxPoints = spacing, points
	f.Cleanup(func() { indexSpacing, indexMaxPoints = old, oldN })
}
