package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
)

// allRealNEFFs lists every real NEFF: the shared corpus and the repository's testdata/real.
func allRealNEFFs(t *testing.T) []string {
	t.Helper()
	var paths []string
	for _, dir := range []string{realDir, "../../testdata/real"} {
		filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".neff") {
				paths = append(paths, p)
			}
			return nil
		})
	}
	if len(paths) == 0 {
		t.Skipf("no real NEFFs under %s or testdata/real", realDir)
	}
	return paths
}

func openPath(t *testing.T, p string) *File {
	t.Helper()
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, _ := fh.Stat()
	return Open(filepath.Base(p), fh, st.Size(), Options{})
}

// TestRealNEFFsHaveNoFalseAlarms: valid compiler output gets no warning or error finding from
// the whole Open (every package's findings), nor from any instruction the page may ask for
// (its field tree and its joins).
func TestRealNEFFsHaveNoFalseAlarms(t *testing.T) {
	for _, p := range allRealNEFFs(t) {
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

// TestCoverageOnRealNEFFs: the classes add up to the significant bytes, every member is
// counted once, and the instruction streams are counted word by word.
func TestCoverageOnRealNEFFs(t *testing.T) {
	for _, p := range allRealNEFFs(t) {
		f := openPath(t, p)
		c := f.Coverage()
		members, words := 0, 0
		for _, k := range c.Kinds {
			if k.Named+k.JSON+k.Unknown+k.Hex != k.Significant || k.Significant > k.Bytes {
				t.Errorf("%s %s: %+v does not add up", p, k.Kind, k)
			}
			if k.InstrNamed > k.InstrNonZero {
				t.Errorf("%s %s: %d named of %d non-zero", p, k.Kind, k.InstrNamed, k.InstrNonZero)
			}
			members += k.Members
		}
		for _, s := range f.Program.Streams {
			words += s.ISA.Len()
		}
		if members != len(f.Archive.Members) || c.Total.Members != members || c.Total.Words != words {
			t.Errorf("%s: %d members counted of %d, %d words of %d", p, members, len(f.Archive.Members), c.Total.Words, words)
		}
		if k := kindOf(c, "sgNN/def.json"); k == nil || k.Named == 0 || k.JSON+k.Named != k.Significant {
			t.Errorf("%s: def.json coverage %+v", p, k)
		}
		if k := kindOf(c, "sgNN/<Engine>.bin"); k == nil || k.Named == 0 || k.Words == 0 {
			t.Errorf("%s: stream coverage %+v", p, k)
		}
	}
}

func kindOf(c *Coverage, kind string) *CoverageKind {
	for _, k := range c.Kinds {
		if k.Kind == kind {
			return k
		}
	}
	return nil
}

// TestCoverageDeepestSpanOwns: a byte belongs to the deepest node holding it, and zero bytes
// and JSON whitespace are not significant.
func TestCoverageDeepestSpanOwns(t *testing.T) {
	f := &File{}
	data := []byte("{ \"a\": 1,\n \"b\": \"xy\" }\x00\x00")
	f.Name = "m.json"
	f.r = strings.NewReader(string(data))
	f.Size = int64(len(data))
	k := &CoverageKind{}
	spans := []covSpan{
		{0, 23, 0, 1, covJSON},     // the object
		{2, 8, 1, 2, covNamed},     // "a": 1 (explained)
		{11, 21, 1, 3, covJSON},    // "b": "xy"
		{16, 20, 2, 4, covUnknown}, // a deeper node inside it
	}
	f.countMember(k, "m.json", int64(len(data)), true, spans)
	// significant: the 16 bytes that are neither whitespace nor zero
	if k.Significant != 16 || k.Named != 5 || k.Unknown != 4 || k.JSON != 7 || k.Hex != 0 {
		t.Errorf("%+v", k)
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
