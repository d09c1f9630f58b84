package inspect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// openReal opens a real file by its name under testdata-real (internal/realfiles finds it).
func openReal(t *testing.T, rel string) *File {
	t.Helper()
	return openPath(t, realfiles.Path(t, rel))
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

func TestProgramOnRealNEFFs(t *testing.T) {
	paths := realfiles.NEFFs(t)
	for _, p := range paths {
		rel := filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
		t.Run(rel, func(t *testing.T) {
			f := openPath(t, p)
			for _, fd := range f.Doc.Findings() {
				if fd.Severity != doc.Info {
					t.Errorf("%s finding on a real NEFF: %s", fd.Severity, fd.Message)
				}
			}
			prog := f.Program
			if prog == nil || len(prog.Streams) != 5*len(prog.Model.Cores) {
				t.Fatalf("program %+v", prog)
			}
			loads, acts := 0, 0
			for _, s := range prog.Streams {
				m := f.Archive.Member(s.Member)
				if s.ISA == nil || int64(s.ISA.Len())*64 != m.Size || s.ISA.Trailing() != 0 {
					t.Fatalf("stream %s: isa %v, %d bytes", s.Member, s.ISA != nil, m.Size)
				}
				for i, in := range s.ISA.All() {
					if !in.Known {
						t.Errorf("%s #%d: unknown opcode 0x%02x", s.Member, i, in.Opcode)
					}
					r := prog.Resolve(s, i, s.ISA.Word(i))
					if r.Problem != "" {
						t.Errorf("%s #%d: %s", s.Member, i, r.Problem)
					}
					switch in.Opcode {
					case 0x23:
						loads++
						if r.Set == "" {
							t.Errorf("%s #%d: load without a set", s.Member, i)
						}
					case 0x21:
						acts++
						setIdx, _, ok := s.ISA.ResidentSet(i)
						if !ok || r.Set != s.Engine.ActivationSet(setIdx).Name || r.Function == "" {
							t.Errorf("%s #%d: Activate resolves to %+v (resident %d, %v)", s.Member, i, r, setIdx, ok)
						}
					}
				}
				// The page's listing: rows with the resolved column, spans on the words.
				rows := s.ISA.Rows(0, 3)
				if rows.Columns[len(rows.Columns)-1] != resolvedColumn || len(rows.Rows) != min(3, s.ISA.Len()) {
					t.Errorf("rows %+v", rows.Columns)
				}
			}
			if strings.Contains(rel, "attn_v6") && (loads != 11 || acts != 136) {
				t.Errorf("attn_v6: %d loads, %d activates (the disassembly showed 11 and 136)", loads, acts)
			}
			if strings.Contains(rel, "matmul_small") && (loads != 2 || acts != 0) {
				t.Errorf("matmul_small: %d loads, %d activates (the disassembly shows one load per core and no Activate)", loads, acts)
			}
		})
	}
}

// The document of a real NEFF: the overview (the landing view) first, then the runtime
// verdict and the model, each stream member with its listing
// handle; and in attn_v6 every exp activation follows a load of natural_log_exp_and_others.
func TestExpFollowsItsSet(t *testing.T) {
	f := openReal(t, "nkipy/matmul_small.neff")
	kids := f.Doc.Root.Children
	if kids[0].Key != "overview" || kids[1].Label != "runtime" || kids[2].Key != "model" {
		t.Errorf("top level: %s, %s, %s", kids[0].Key, kids[1].Label, kids[2].Key)
	}
	for _, sg := range []string{"sg00/", "sg01/"} {
		n := f.Doc.Root.Find("members", sg, "Activation.bin")
		if n == nil || len(n.Children) != 1 || n.Children[0].Ref != "stream:"+sg+"Activation.bin" {
			t.Fatalf("stream member node %+v", n)
		}
	}
	// matmul_small loads exp_and_others: the load names it.
	s := f.Program.Stream("sg00/Activation.bin")
	loads := 0
	for i := range s.ISA.Len() {
		if w := s.ISA.Word(i); w[0] == 0x23 {
			loads++
			if r := f.Program.Resolve(s, i, w); r.Set != "exp_and_others" {
				t.Errorf("#%d: load resolves to %+v", i, r)
			}
		}
	}
	if loads != 1 {
		t.Errorf("%d loads in sg00/Activation.bin, want 1", loads)
	}
	if isa.OpcodeName(0x21) != "Activate" {
		t.Error("opcode table")
	}
	t.Run("attn_v6", func(t *testing.T) {
		p, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "exp activations against their set")
		if !ok {
			return
		}
		f := openPath(t, p)
		s := f.Program.Stream("sg00/Activation.bin")
		exps := 0
		for i := range s.ISA.Len() {
			w := s.ISA.Word(i)
			if w[0] != 0x21 {
				continue
			}
			r := f.Program.Resolve(s, i, w)
			if strings.HasPrefix(r.Function, "exp") {
				exps++
				if r.Function != "exp_400p" || r.Set != "natural_log_exp_and_others" {
					t.Errorf("#%d: %+v", i, r)
				}
			}
		}
		if exps != 48 {
			t.Errorf("%d exp activations, want 48", exps)
		}
	})
}

// A stream whose size is not a multiple of 64, and a missing engine JSON: findings name both
// ends and everything else still decodes.
func TestProgramFaults(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	members, err := neff.ReadMembers(bytes.NewReader(src), int64(len(src)), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := neff.Open(bytes.NewReader(src), int64(len(src)), neff.Options{})
	var ms []neffbuild.Member
	for _, m := range a.Members {
		switch m.Path {
		case "sg00/PE.json":
			continue // missing engine JSON
		case "sg00/Activation.bin":
			ms = append(ms, neffbuild.Member{Path: m.Path, Data: members[m.Path][:100]}) // 1 word + 36 bytes
			continue
		}
		ms = append(ms, neffbuild.Member{Path: m.Path, Data: members[m.Path]})
	}
	b := neffbuild.Bytes(ms, neffbuild.Options{FeatureBits: a.Header.FeatureBits, LNCSize: a.Header.LNCSize, Name: a.Header.Name})
	f := Open("faulty.neff", bytes.NewReader(b), int64(len(b)), Options{})
	var all []string
	for _, fd := range f.Doc.Findings() {
		all = append(all, fd.Severity+": "+fd.Message)
	}
	joined := strings.Join(all, "\n")
	for _, want := range []string{"sg00/PE.json", "sg00/def.json", "sg00/Activation.bin", "36"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no finding names %q:\n%s", want, joined)
		}
	}
	s := f.Program.Stream("sg00/Activation.bin")
	if s == nil || s.ISA == nil || s.ISA.Len() != 1 || s.ISA.Trailing() != 36 {
		t.Fatalf("short stream: %+v", s)
	}
	if dve := f.Program.Stream("sg00/DVE.bin"); dve == nil || dve.ISA.Len() != 128/64 {
		t.Errorf("the other streams must still decode")
	}
}
