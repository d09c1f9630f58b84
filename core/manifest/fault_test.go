package manifest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

func TestSyntheticResolvesClean(t *testing.T) {
	set, facts := synthetic(nil)
	m := Resolve(set, facts)
	if fs := m.Findings(); len(fs) > 0 {
		dumpFindings(t, m)
		t.Fatalf("%d findings on a consistent NEFF", len(fs))
	}
	c := m.Core("sg00")
	if m.Target != "sunda" || m.Arch != 2 || c == nil || len(c.Engines) != 5 {
		t.Fatalf("model: target %q arch %d core %+v", m.Target, m.Arch, c)
	}
	wantInstr := map[string]int64{"PE": 3, "Activation": 2, "Pool": 1, "DVE": 1, "SP": 4}
	for _, e := range c.Engines {
		if e.StreamPath != "sg00/"+e.Name+".bin" || e.Instructions != wantInstr[e.Name] {
			t.Errorf("%s: %s, %d instructions", e.Name, e.StreamPath, e.Instructions)
		}
	}
	if st := m.Streams(); len(st) != 5 || st[1].Member != "sg00/Activation.bin" || st[1].Count != 2 || st[1].Core != c {
		t.Errorf("streams %+v", st)
	}
	if in := m.Inputs; len(in) != 1 || in[0].Name != "x" || in[0].Bytes != 64 || in[0].DType != "float16" {
		t.Errorf("inputs %+v", in[0])
	}
	if out := m.Outputs; len(out) != 1 || out[0].Name != "y" || out[0].Bytes != 128 || out[0].EntryID != 1 {
		t.Errorf("outputs %+v", out[0])
	}
	sp := c.Engine("sp")
	if b := sp.Block("qSPIO0", 1); b == nil || b.Comment != "b1" || b.QueueRef != c.Queue("qSPIO0") || b.Descs[0].To != "y" || b.Descs[0].FromSizes[0] != 128 {
		t.Errorf("block (qSPIO0, 1) = %+v", b)
	}
	if got := sp.BlocksWithID(0); len(got) != 1 || got[0].Semaphore != 8 {
		t.Errorf("BlocksWithID(0) = %+v", got)
	}
	act := c.Engine("Activation").ActivationSet(0)
	if act == nil || act.Name != "exp_and_others" || act.BktPath != "sg00/exp_and_others_bkt.bin" || act.CtrlPath != "sg00/exp_and_others_ctrl.bin" {
		t.Errorf("set 0 = %+v", act)
	}
	if len(m.NPY) != 1 || m.NPY[0].DType != "<f2" || !reflect.DeepEqual(m.NPY[0].Shape, []int64{2, 4}) ||
		strings.Join(m.NPY[0].Preview, " ") != "1 2 -2 0.5 1 2 -2 0.5" {
		t.Errorf("npy %+v", m.NPY[0])
	}
	if c.VarTable.Rows[4][1] != "T" || c.VarTable.Rows[4][6] != "var_ids [1, 2]" {
		t.Errorf("var table row 4 = %v", c.VarTable.Rows[4])
	}
	tree := m.MemberTrees["sg00/def.json"]
	if n := tree.Find("var", "x", "type"); n == nil || !strings.Contains(n.Detail, "memory kind") {
		t.Errorf("var type node has no explanation: %+v", n)
	}
	if n := m.MemberTrees["neff.json"].Find("nodes", "1", "attrs", "kelf"); n == nil || !strings.Contains(n.Detail, "KELF descriptor") {
		t.Errorf("kelf attr node: %+v", n)
	}
	// Row spans cover the var's key and value in def.json.
	def, _ := set.Bytes("sg00/def.json")
	s := c.VarTable.RowSpans[1]
	if got := string(def[s.Offset : s.Offset+s.Length]); !strings.HasPrefix(got, `"x": {`) || !strings.HasSuffix(got, "}") {
		t.Errorf("row span of x = %q", got)
	}
}

// A fault case edits the synthetic NEFF and expects a finding of its code whose message names
// both ends.
type fault struct {
	name     string
	edit     func(path, text string) string
	mutate   func(set *MemberSet, facts *HeaderFacts)
	severity string
	code     doc.Code
	mention  []string // names and numbers the message must carry
	// still checks that the rest resolved.
	still func(t *testing.T, m *Model)
}

func replaceIn(member, old, new string) func(path, text string) string {
	return func(path, text string) string {
		if path == member {
			if !strings.Contains(text, old) {
				panic("fault edit does not apply: " + old)
			}
			return strings.Replace(text, old, new, 1)
		}
		return text
	}
}

func streamsStillFound(t *testing.T, m *Model) {
	t.Helper()
	n := 0
	for _, c := range m.Cores {
		for _, e := range c.Engines {
			if e.StreamSize > 0 {
				n++
			}
		}
	}
	if n < 4 {
		t.Errorf("only %d streams resolved after the fault", n)
	}
}

func TestFaults(t *testing.T) {
	faults := []fault{
		{name: "missing stream", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Remove("sg00/PE.bin") },
			severity: doc.Error, code: doc.CodeManifestMissingMember, mention: []string{"sg00/PE.json", "sg00/PE.bin"}, still: streamsStillFound},
		{name: "missing engine JSON", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Remove("sg00/SP.json") },
			severity: doc.Error, code: doc.CodeManifestMissingMember, mention: []string{"sg00/def.json", "sg00/SP.json"},
			still: func(t *testing.T, m *Model) {
				if e := m.Core("sg00").Engine("SP"); e.StreamPath != "sg00/SP.bin" || e.StreamSize != 256 {
					t.Errorf("SP stream not found through sp_instr: %+v", e)
				}
			}},
		{name: "stream not a multiple of 64", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Add("sg00/Pool.bin", 100, nil) },
			severity: doc.Error, code: doc.CodeManifestStreamSize, mention: []string{"sg00/Pool.bin", "sg00/Pool.json", "100"},
			still: func(t *testing.T, m *Model) {
				if e := m.Core("sg00").Engine("Pool"); e.Instructions != 1 {
					t.Errorf("Pool instructions %d, want 1 (100>>6)", e.Instructions)
				}
			}},
		{name: "dangling var in a descriptor", edit: replaceIn("sg00/SP.json", `"to": "y"`, `"to": "nowhere"`),
			severity: doc.Error, code: doc.CodeManifestDanglingRef, mention: []string{"sg00/SP.json", "nowhere", "sg00/def.json"}, still: streamsStillFound},
		{name: "dangling queue", edit: replaceIn("sg00/SP.json", `"queue": "qSPIO0", "semaphore": 9`, `"queue": "qGone", "semaphore": 9`),
			severity: doc.Error, code: doc.CodeManifestDanglingRef, mention: []string{"sg00/SP.json", "qGone", "sg00/def.json"},
			still: func(t *testing.T, m *Model) {
				if m.Core("sg00").Engine("SP").Block("qSPIO0", 0) == nil {
					t.Errorf("the intact block was lost")
				}
			}},
		{name: "var_id gap", edit: replaceIn("sg00/def.json", `"type": "dge-table", "var_id": 4`, `"type": "dge-table", "var_id": 7`),
			severity: doc.Error, code: doc.CodeManifestSparseVarIDs, mention: []string{"sg00/def.json", "4, 5, 6"}, still: streamsStillFound},
		{name: "duplicate var_id", edit: replaceIn("sg00/def.json", `"type": "dge-table", "var_id": 4`, `"type": "dge-table", "var_id": 3`),
			severity: doc.Error, code: doc.CodeManifestDuplicateID, mention: []string{`"T"`, `"c"`, "3"}},
		{name: "dge-table lists a missing var", edit: replaceIn("sg00/def.json", `"list": [1, 2]`, `"list": [1, 9]`),
			severity: doc.Error, code: doc.CodeManifestDanglingRef, mention: []string{`"T"`, "9", "sg00/def.json"}},
		{name: "queue owner is no engine", edit: replaceIn("sg00/def.json", `"owner": "sp"`, `"owner": "gpu"`),
			severity: doc.Error, code: doc.CodeManifestBadDMAQueue, mention: []string{"qSPIO0", `"gpu"`}},
		{name: "queue owner engine absent", edit: func(p, s string) string {
			if p == "sg00/def.json" {
				s = strings.Replace(s, `"owner": "sp"`, `"owner": "pool"`, 1)
				s = strings.Replace(s, `"pool": "Pool.json", "pool_instr": "Pool.bin",`, "", 1)
			}
			return s
		}, severity: doc.Warning, code: doc.CodeManifestBadDMAQueue, mention: []string{"qSPIO0", `"pool"`}},
		{name: "missing var file", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Remove("sg00/value_c.npy") },
			severity: doc.Error, code: doc.CodeManifestMissingMember, mention: []string{"sg00/def.json", "sg00/value_c.npy", `"c"`}, still: streamsStillFound},
		{name: "missing activation table", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Remove("sg00/exp_and_others_ctrl.bin") },
			severity: doc.Error, code: doc.CodeManifestMissingMember, mention: []string{"sg00/Activation.json", "sg00/exp_and_others_ctrl.bin"},
			still: func(t *testing.T, m *Model) {
				if s := m.Core("sg00").Engine("act").ActivationSet(0); s == nil || s.Name != "exp_and_others" {
					t.Errorf("set index 0 lost: %+v", s)
				}
			}},
		{name: "missing DVE table", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Remove("sg00/default_control_table.bin") },
			severity: doc.Error, code: doc.CodeManifestMissingMember, mention: []string{"sg00/DVE.json", "sg00/default_control_table.bin"}},
		{name: "missing def.json", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Remove("sg00/def.json") },
			severity: doc.Error, code: doc.CodeManifestMissingMember, mention: []string{"kelf-0.json", "sg00/def.json"},
			still: func(t *testing.T, m *Model) {
				if len(m.Inputs) != 1 || m.Target != "sunda" {
					t.Errorf("inputs/target lost: %d %q", len(m.Inputs), m.Target)
				}
			}},
		{name: "missing kelf", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Remove("kelf-0.json") },
			severity: doc.Error, code: doc.CodeManifestMissingMember, mention: []string{"neff.json", "kelf-0.json"}, still: streamsStillFound},
		{name: "missing neff.json", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Remove("neff.json") },
			severity: doc.Error, code: doc.CodeManifestMissingMember, mention: []string{"neff.json"},
			still: func(t *testing.T, m *Model) {
				streamsStillFound(t, m)
				if m.Target != "sunda" {
					t.Errorf("kelf fallback failed: target %q", m.Target)
				}
			}},
		{name: "no kelf node", edit: replaceIn("neff.json", `"func_name": "__kelf"`, `"func_name": "other"`),
			severity: doc.Error, code: doc.CodeManifestNoDeviceNode, still: streamsStillFound},
		{name: "kelf node by op", edit: func(p, s string) string {
			if p == "neff.json" {
				s = strings.Replace(s, `"op": "tvm_op"`, `"op": "__kelf"`, 1)
				s = strings.Replace(s, `"func_name": "__kelf"`, `"func_name": "0"`, 1)
			}
			return s
		}, severity: "", still: streamsStillFound},
		{name: "EID out of bounds", edit: replaceIn("neff.json", `"heads": [[1, 0, 0]]`, `"heads": [[1, 3, 0]]`),
			severity: doc.Error, code: doc.CodeManifestBadGraph, mention: []string{"4"}},
		{name: "unknown target", edit: replaceIn("kelf-0.json", `"sunda"`, `"tonga"`),
			severity: doc.Error, code: doc.CodeManifestBadTarget, mention: []string{"kelf-0.json", `"tonga"`}, still: streamsStillFound},
		{name: "unreferenced member", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Add("sg00/stray.bin", 64, nil) },
			severity: doc.Warning, code: doc.CodeManifestUnreferenced, mention: []string{"sg00/stray.bin"}},
		{name: "feature bit without a name", mutate: func(_ *MemberSet, f *HeaderFacts) { f.FeatureBits, f.NeffVersionMajor = 0x40000, 2 },
			severity: doc.Warning, code: doc.CodeNeffFeatureUnknown, mention: []string{"18", "0x40000"}},
		{name: "def.json feature the header lacks", edit: replaceIn("sg00/def.json", `"neff_features": []`, `"neff_features": ["neff_feature_vnc"]`),
			severity: doc.Warning, code: doc.CodeManifestFeatureMismatch, mention: []string{"sg00/def.json", "neff_feature_vnc", "0x400"}},
		{name: "header feature def.json lacks", mutate: func(_ *MemberSet, f *HeaderFacts) { f.FeatureBits, f.NeffVersionMajor = 0x400, 2 },
			severity: doc.Warning, code: doc.CodeManifestFeatureMismatch, mention: []string{"0x400", "sg00/def.json", "neff_feature_vnc"}},
		{name: "info.json disagrees with the header", mutate: func(_ *MemberSet, f *HeaderFacts) { f.NumTPB = 2 },
			severity: doc.Warning, code: doc.CodeManifestInfoMismatch, mention: []string{"num_tpb", "0xA8"}},
		{name: "input size disagrees with def.json", edit: replaceIn("sg00/def.json", `"size": 64, "type": "input"`, `"size": 60, "type": "input"`),
			severity: doc.Warning, code: doc.CodeManifestSizeMismatch, mention: []string{`"x"`, "64", "sg00/def.json", "60"}},
		{name: "npy shape disagrees with the var", edit: replaceIn("sg00/def.json", `"size": 16, "type": "file"`, `"size": 32, "type": "file"`),
			severity: doc.Warning, code: doc.CodeManifestSizeMismatch, mention: []string{"sg00/value_c.npy", "16", `"c"`, "32"}},
		{name: "broken JSON", edit: replaceIn("sg00/def.json", `"name": "definition",`, `"name": "definition",,`),
			severity: doc.Error, code: doc.CodeJSONSyntax, mention: []string{"sg00/def.json"}},
		{name: "signature disagrees", edit: replaceIn("neff.json", `"dtype": "float16", "shape": [4, 8]}`, `"dtype": "float32", "shape": [4, 8]}`),
			severity: doc.Warning, code: doc.CodeManifestSignatureMismatch, mention: []string{`"x"`, "float32", "float16"}},
		{name: "legacy kelp.json", mutate: func(s *MemberSet, _ *HeaderFacts) {
			b, _ := s.Bytes("neff.json")
			s.Remove("neff.json")
			s.Add("kelp.json", int64(len(b)), b)
		}, severity: doc.Info, code: doc.CodeManifestLegacyKelp, mention: []string{"kelp.json"}, still: streamsStillFound},
		{name: "JSON bytes not held", mutate: func(s *MemberSet, _ *HeaderFacts) { s.Add("sg00/PE.json", 44, nil) },
			severity: doc.Warning, code: doc.CodeManifestUnread, mention: []string{"sg00/PE.json"},
			still: func(t *testing.T, m *Model) {
				if e := m.Core("sg00").Engine("PE"); e.StreamPath != "sg00/PE.bin" {
					t.Errorf("PE stream not found through pe_instr: %+v", e)
				}
			}},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			set, facts := synthetic(f.edit)
			if f.mutate != nil {
				f.mutate(set, &facts)
			}
			m := Resolve(set, facts)
			if f.severity == "" {
				if fs := m.Findings(); len(fs) > 0 {
					dumpFindings(t, m)
					t.Fatalf("expected no findings")
				}
			} else if !hasFinding(m, f.severity, f.code, f.mention...) {
				dumpFindings(t, m)
				t.Fatalf("no %s finding mentioning %q", f.severity, f.mention)
			}
			for _, fd := range m.Findings() {
				if fd.Message == "" {
					t.Errorf("empty finding")
				}
			}
			if f.still != nil {
				f.still(t, m)
			}
		})
	}
}

// TestFaultsOnRealNEFF applies faults to a real NEFF: findings name both ends, the rest resolves.
func TestFaultsOnRealNEFF(t *testing.T) {
	set, facts := loadNEFF(t, realfiles.Path(t, "nkipy/matmul_small.neff"))
	set.Remove("sg00/DVE.bin")
	set.Add("sg01/Pool.bin", 130, nil)
	m := Resolve(set, facts)
	for _, want := range []struct {
		code    doc.Code
		mention []string
	}{
		{doc.CodeManifestMissingMember, []string{"sg00/DVE.json", "sg00/DVE.bin"}},
		{doc.CodeManifestStreamSize, []string{"sg01/Pool.bin", "sg01/Pool.json", "130"}},
	} {
		if !hasFinding(m, doc.Error, want.code, want.mention...) {
			dumpFindings(t, m)
			t.Fatalf("no %s error mentioning %q", want.code, want.mention)
		}
	}
	if n := len(findingsOf(m, doc.Error)); n != 2 {
		dumpFindings(t, m)
		t.Errorf("%d errors, want 2", n)
	}
	if s := m.Core("sg00").Engine("Activation").ActivationSet(0); s == nil || s.Name != "exp_and_others" {
		t.Errorf("activation set 0 = %+v", s)
	}
	if e := m.Core("sg00").Engine("PE"); e.Instructions != 768/64 {
		t.Errorf("PE instructions %d", e.Instructions)
	}

	// attn_v6 has DMA queues to break as well (matmul_small's engines list none).
	t.Run("attn_v6", func(t *testing.T) {
		path, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "a broken DMA queue reference")
		if !ok {
			return
		}
		set, facts := loadNEFF(t, path)
		set.Remove("sg00/DVE.bin")
		set.Add("sg01/Pool.bin", 130, nil)
		dve, _ := set.Bytes("sg00/DVE.json")
		set.Add("sg00/DVE.json", int64(len(dve)), []byte(strings.Replace(string(dve), `"queue":"qDVESpillReload0","semaphore":25`, `"queue":"qNone","semaphore":25`, 1)))
		m := Resolve(set, facts)
		for _, want := range []struct {
			code    doc.Code
			mention []string
		}{
			{doc.CodeManifestMissingMember, []string{"sg00/DVE.json", "sg00/DVE.bin"}},
			{doc.CodeManifestStreamSize, []string{"sg01/Pool.bin", "sg01/Pool.json", "130"}},
			{doc.CodeManifestDanglingRef, []string{"sg00/DVE.json dma[1]", "qNone", "sg00/def.json"}},
		} {
			if !hasFinding(m, doc.Error, want.code, want.mention...) {
				dumpFindings(t, m)
				t.Fatalf("no %s error mentioning %q", want.code, want.mention)
			}
		}
		if n := len(findingsOf(m, doc.Error)); n != 3 {
			dumpFindings(t, m)
			t.Errorf("%d errors, want 3", n)
		}
		if s := m.Core("sg00").Engine("Activation").ActivationSet(1); s == nil || s.Name != "natural_log_exp_and_others" {
			t.Errorf("activation set 1 = %+v", s)
		}
		if e := m.Core("sg00").Engine("PE"); e.Instructions != 49984/64 {
			t.Errorf("PE instructions %d", e.Instructions)
		}
	})
}

func TestResolveNothing(t *testing.T) {
	for _, m := range []*Model{Resolve(nil, HeaderFacts{}), Resolve(NewMemberSet(), HeaderFacts{Present: true})} {
		if m.Overview == nil || len(m.Cores) != 0 || !hasFinding(m, doc.Error, doc.CodeManifestMissingMember, "neff.json") || !hasFinding(m, doc.Error, doc.CodeManifestNoCore) {
			dumpFindings(t, m)
			t.Fatalf("empty archive: %+v", m)
		}
	}
}

func TestManyStraysAreSummarised(t *testing.T) {
	set, facts := synthetic(nil)
	for i := 0; i < 60; i++ {
		set.Add(fmt.Sprintf("stray/%02d.bin", i), 64, nil)
	}
	m := Resolve(set, facts)
	if n := len(findingsOf(m, doc.Warning)); n != maxUnreferencedReported+1 || !hasFinding(m, doc.Warning, doc.CodeManifestUnreferenced, "10") {
		t.Fatalf("%d warnings", n)
	}
	rows := 0
	for _, r := range m.Overview.Child("members").Table.Rows {
		if r[2] == "(nothing)" {
			rows++
		}
	}
	if rows != 60 {
		t.Errorf("%d stray rows", rows)
	}
}
