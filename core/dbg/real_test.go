package dbg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/internal/realfiles"
	"google.golang.org/protobuf/encoding/protowire"
)

// dbgMembers returns the .dbg and .bin members of a NEFF.
func dbgMembers(t testing.TB, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	m, err := neff.ReadMembers(f, st.Size(), func(p string, _ int64) bool {
		_, _, ok := Match(p)
		return ok || strings.HasSuffix(p, ".bin")
	})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return m
}

// TestRealMembers decodes every .dbg member of the real NEFFs: no warning or error, every byte
// under a node, records where the kind has them, and the asm record count equal to the words
// of the engine stream beside it.
func TestRealMembers(t *testing.T) {
	total := map[Kind]*Coverage{}
	for _, path := range realfiles.NEFFs(t) {
		members := dbgMembers(t, path)
		for p, b := range members {
			kind, engine, ok := Match(p)
			if !ok {
				continue
			}
			f := Decode(p, b)
			for _, fd := range f.Findings {
				if fd.Severity != doc.Info {
					t.Errorf("%s %s: %s finding on a valid file: %s", filepath.Base(path), p, fd.Severity, fd.Message)
				}
			}
			c := f.Coverage
			if sum := c.Named + c.Unknown + c.Generic + c.None; sum != int64(len(b)) {
				t.Errorf("%s %s: coverage sums to %d of %d bytes", filepath.Base(path), p, sum, len(b))
			}
			if c.None != 0 || c.Generic != 0 {
				t.Errorf("%s %s: %d bytes generic, %d unread on a valid file", filepath.Base(path), p, c.Generic, c.None)
			}
			if f.Description == "" {
				t.Errorf("%s %s: no description (field 1)", filepath.Base(path), p)
			}
			if kind == KindAsm || kind == KindBackend {
				if !f.HasEngine || EngineName(f.EngineCode) != engine {
					t.Errorf("%s %s: engine code %d (%q), member engine %s", filepath.Base(path), p, f.EngineCode, EngineName(f.EngineCode), engine)
				}
			}
			if kind == KindAsm {
				bin := filepath.Dir(p) + "/" + engine + ".bin"
				if words := len(members[bin]) / 64; words != len(f.Records) {
					t.Errorf("%s %s: %d records, %s has %d words", filepath.Base(path), p, len(f.Records), bin, words)
				}
			}
			if total[kind] == nil {
				total[kind] = &Coverage{}
			}
			total[kind].Add(c)
		}
	}
	for _, k := range Kinds {
		if c := total[k]; c != nil {
			t.Logf("%-18s named %8d  unknown-named %7d  generic %d  unread %d", k, c.Named, c.Unknown, c.Generic, c.None)
		}
	}
}

// TestMatmulSmallByHand checks facts read by hand with a protowire dump of matmul_small.neff.
func TestMatmulSmallByHand(t *testing.T) {
	var path string
	for _, p := range realfiles.NEFFs(t) {
		if filepath.Base(p) == "matmul_small.neff" {
			path = p
		}
	}
	if path == "" {
		t.Skip("matmul_small.neff absent")
	}
	m := dbgMembers(t, path)
	asm := Decode("sg00/debug_info_asm_PE.dbg", m["sg00/debug_info_asm_PE.dbg"])
	be := Decode("sg00/debug_info_backend_PE.dbg", m["sg00/debug_info_backend_PE.dbg"])
	if asm.PointsTo != "debug_info_backend_PE.dbg" || be.PointsTo != "debug_info_penguin.dbg" {
		t.Fatalf("points_to %q / %q", asm.PointsTo, be.PointsTo)
	}
	// Word 2 of PE.bin → backend 154 "I-87-0-wait-0" (no kernel line); word 7 → backend 155
	// "I-72-0-wait-0", kernel_file 0, line 58 (bytes 316.. of the backend member); field 5 is
	// the test file.
	if len(asm.Records) != 12 || len(asm.Records[0].Parents) != 0 || asm.Records[2].Parents[0] != 154 || asm.Records[7].Parents[0] != 155 {
		t.Fatalf("asm records %+v", asm.Records)
	}
	if r := be.ByID(154); r == nil || r.Name != "I-87-0-wait-0" || len(r.Attrs) != 0 {
		t.Fatalf("backend 154 = %+v", r)
	}
	r := be.ByID(155)
	if r == nil || r.Name != "I-72-0-wait-0" || r.Off != 316 {
		t.Fatalf("backend 155 = %+v", r)
	}
	if v, _ := r.Attr("kernel_line"); v != "58" {
		t.Errorf("kernel_line %q", v)
	}
	if len(be.KernelFiles) != 1 || !strings.HasSuffix(be.KernelFiles[0], "/test_spike_async.py") {
		t.Errorf("kernel files %q", be.KernelFiles)
	}
	// The tree names the field at its bytes: record 3's name (tag, length, 13 bytes) at 321.
	n := be.Root.Find("instruction[3]", "name")
	if n == nil || n.Span.Offset != 321 || n.Span.Length != 15 || n.Value != `"I-72-0-wait-0"` {
		t.Errorf("record 3 name node %+v", n)
	}
	if a := be.Root.Find("instruction[3]", "attribute[0]"); a == nil || a.Value != `kernel_file = "0"` || !strings.HasSuffix(a.Detail, "/test_spike_async.py") {
		t.Errorf("record 3 kernel_file attribute %+v", a)
	}
}

// TestTableNamesUnknowns: every guess of the shape table is a row of Unknowns.
func TestTableNamesUnknowns(t *testing.T) {
	ids := map[string]bool{}
	for _, u := range Unknowns {
		ids[u.ID] = true
	}
	for _, s := range shapeTable {
		name := s.Key
		for _, f := range s.Fields {
			if f.Unknown != "" && !ids[f.Unknown] {
				t.Errorf("%s field %d names unknown %q, which is not in Unknowns", name, f.Num, f.Unknown)
			}
			if !f.Named() && f.Unknown == "" {
				t.Errorf("%s field %d (%s) is unknown but names no Unknowns row", name, f.Num, f.Name)
			}
			if f.Meaning == "" || f.Confidence == "" || f.Evidence == "" {
				t.Errorf("%s field %d: incomplete row", name, f.Num)
			}
		}
	}
	if len(Table()) == 0 {
		t.Fatal("empty table")
	}
}

// rawRecords reads fields 4, 5, 6, 9, 10 of every backend record (what the typed view does
// not keep), with protowire directly.
type rawRecord struct {
	id              uint64
	f4, f5, f9, f10 []uint64
	f6              uint64
}

func rawBackend(b []byte) []rawRecord {
	var out []rawRecord
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if num == 3 && typ == protowire.BytesType {
			c, _ := protowire.ConsumeBytes(b[n:])
			var r rawRecord
			for len(c) > 0 {
				k, kt, kn := protowire.ConsumeTag(c)
				km := protowire.ConsumeFieldValue(k, kt, c[kn:])
				v := c[kn : kn+km]
				if kt == protowire.VarintType {
					x, _ := protowire.ConsumeVarint(v)
					if k == 1 {
						r.id = x
					} else if k == 6 {
						r.f6 = x
					}
				} else {
					s, _ := protowire.ConsumeBytes(v)
					xs, _ := packed(nil, s, 1<<20)
					switch k {
					case 4:
						r.f4 = xs
					case 5:
						r.f5 = xs
					case 9:
						r.f9 = xs
					case 10:
						r.f10 = xs
					}
				}
				c = c[kn+km:]
			}
			out = append(out, r)
		}
		b = b[n+m:]
	}
	return out
}

// TestRealShapeEvidence re-checks, over every real backend member, the evidence the table
// quotes for record fields 1, 4, 5, 6, 9, 10.
func TestRealShapeEvidence(t *testing.T) {
	var f4, f4found, f5, f5found, inverse, with9, with10, six1, six3, records int
	for _, path := range realfiles.NEFFs(t) {
		bySG := map[string][]rawRecord{}
		for p, b := range dbgMembers(t, path) {
			if k, _, _ := Match(p); k == KindBackend {
				bySG[filepath.Dir(p)] = append(bySG[filepath.Dir(p)], rawBackend(b)...)
			}
		}
		for sg, rs := range bySG {
			byID := map[uint64]*rawRecord{}
			for i := range rs {
				if byID[rs[i].id] != nil {
					t.Errorf("%s %s: id %d repeats", filepath.Base(path), sg, rs[i].id)
				}
				byID[rs[i].id] = &rs[i]
			}
			for _, r := range rs {
				records++
				for _, x := range r.f4 {
					f4++
					if byID[x] != nil {
						f4found++
					}
				}
				for _, x := range r.f5 {
					f5++
					if o := byID[x]; o != nil {
						f5found++
						for _, y := range o.f4 {
							if y == r.id {
								inverse++
							}
						}
					}
				}
				if len(r.f9) > 0 {
					with9++
					if len(r.f9) != len(r.f4) {
						t.Errorf("%s: record %d: field 9 has %d entries, field 4 %d", filepath.Base(path), r.id, len(r.f9), len(r.f4))
					}
				}
				if len(r.f10) > 0 {
					with10++
					if len(r.f10) != len(r.f5) {
						t.Errorf("%s: record %d: field 10 has %d entries, field 5 %d", filepath.Base(path), r.id, len(r.f10), len(r.f5))
					}
				}
				switch r.f6 {
				case 1:
					six1++
				case 3:
					six3++
				default:
					t.Errorf("%s: record %d: field 6 = %d", filepath.Base(path), r.id, r.f6)
				}
			}
		}
	}
	t.Logf("%d backend records; field 4: %d ids, %d resolve in the subgraph; field 5: %d ids, %d resolve, %d are field 4's inverse; field 9 in %d, field 10 in %d; field 6: 1 ×%d, 3 ×%d",
		records, f4, f4found, f5, f5found, inverse, with9, with10, six1, six3)
	if f5found != f5 || inverse != 0 {
		t.Errorf("field 5: %d of %d ids resolve, %d inverse", f5found, f5, inverse)
	}
}
