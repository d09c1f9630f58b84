package manifest

import (
	"os"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// fuzzTargets are the members FuzzResolve replaces, one per fuzz input byte choice.
var fuzzTargets = []string{"neff.json", "kelf-0.json", "sg00/def.json", "sg00/SP.json", "sg00/Activation.json", "sg00/DVE.json", "info.json", "sg00/act_info.json", "sg00/tensor_map.json"}

// FuzzResolve replaces one JSON member of the synthetic NEFF with arbitrary bytes: Resolve
// must never panic, must keep its trees bounded, and must still resolve the other members.
func FuzzResolve(f *testing.F) {
	base, _ := synthetic(nil)
	for i, p := range fuzzTargets {
		b, _ := base.Bytes(p)
		f.Add(uint8(i), b)
	}
	f.Add(uint8(2), []byte(`{"var": {"a": {"type": "output", "var_id": 99999999999}}, "dma_queue": {"q": {"owner": 7}}}`))
	f.Add(uint8(0), []byte(`{"nodes": [{"op": "__kelf", "attrs": {"kelf": 5}}], "heads": [[-1, -1]], "arg_nodes": [1e99], "node_row_ptr": "x", "attrs": {"dltype": ["list_str", []], "shape": 3}}`))
	f.Add(uint8(3), []byte(`{"dma": [{"id": 0, "queue": "qSPIO0", "desc": [{"from": 1, "to": ["y"]}]}, 5, {"id": "x"}], "instr": ["SP.bin"]}`))
	f.Add(uint8(4), []byte(`{"activation_function_sets": [1, "nope", null], "act_info": "../act_info.json", "instr": "Activation.bin"}`))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		set, facts := synthetic(nil)
		target := fuzzTargets[int(which)%len(fuzzTargets)]
		set.Add(target, int64(len(data)), data)
		m := Resolve(set, facts)
		if m == nil || m.Overview == nil {
			t.Fatal("no model")
		}
		nodes := 0
		for _, p := range m.MemberOrder {
			m.MemberTrees[p].Walk(func(_ []string, n *doc.Node) bool { nodes++; return true })
		}
		if limit := 40*len(data) + 100000; nodes > limit {
			t.Fatalf("%d tree nodes from %d input bytes", nodes, len(data))
		}
		if target != "kelf-0.json" && target != "neff.json" && target != "sg00/def.json" && len(m.Cores) != 1 {
			t.Fatalf("the untouched chain lost its core")
		}
	})
}

// FuzzParseNPY: any bytes give a node, never a panic.
func FuzzParseNPY(f *testing.F) {
	f.Add(makeNPY("<f4", []int64{3}, func(i int) []byte { return []byte{0, 0, 0x80, 0x3f} }))
	f.Add(makeNPY("|i1", []int64{2, 2}, func(i int) []byte { return []byte{byte(i)} }))
	f.Add([]byte("\x93NUMPY\x02\x00\x10\x00\x00\x00{'descr': '>u8'}"))
	f.Add([]byte("\x93NUMPY\x01\x00\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		np, n := ParseNPY("sg00/x.npy", data, int64(len(data)))
		if np == nil || n == nil {
			t.Fatal("nil result")
		}
		if len(np.Preview) > NpyPreviewValues {
			t.Fatalf("preview of %d values", len(np.Preview))
		}
	})
}

func TestParseNPYValues(t *testing.T) {
	cases := []struct {
		descr string
		shape []int64
		value func(int) []byte
		want  string
	}{
		{"<f4", []int64{3}, func(i int) []byte { return [][]byte{{0, 0, 0x80, 0x3f}, {0, 0, 0, 0xc0}, {0, 0, 0, 0}}[i] }, "1 -2 0"},
		{"|i1", []int64{2, 2}, func(i int) []byte { return []byte{byte(0xFE + i)} }, "-2 -1 0 1"},
		{">u2", []int64{2}, func(i int) []byte { return []byte{1, byte(i)} }, "256 257"},
		{"<f2", []int64{1}, func(int) []byte { return []byte{0x00, 0x7C} }, "+Inf"},
	}
	for _, c := range cases {
		b := makeNPY(c.descr, c.shape, c.value)
		np, n := ParseNPY("a.npy", b, int64(len(b)))
		if got := strings.Join(np.Preview, " "); got != c.want || np.DType != c.descr || len(n.Findings) != 0 {
			t.Errorf("%s: preview %q, want %q (findings %v)", c.descr, got, c.want, n.Findings)
		}
		if np.DataOffset%64 != 0 {
			t.Errorf("data offset %d", np.DataOffset)
		}
	}
	if np, _ := ParseNPY("a.npy", b("\x93NUMPY\x01\x00"), 8); np.DType != "" {
		t.Errorf("short file gave dtype %q", np.DType)
	}
}

func b(s string) []byte { return []byte(s) }

// TestRealNPY: the real .npy constants are v1.0 and their values fill their def.json var.
func TestRealNPY(t *testing.T) {
	for _, c := range []struct {
		file      string
		npy, dims int
	}{
		{"nkipy/matmul_small.neff", 2, 4}, // one identity constant per core
		{"cs149-trn2/transpose_1024.neff", 3, 4},
	} {
		path, ok := realfiles.Optional(t, c.file, "its .npy constants")
		if !ok {
			continue
		}
		set, facts := loadNEFF(t, path)
		m := Resolve(set, facts)
		if len(m.NPY) != c.npy {
			t.Fatalf("%s: %d npy members, want %d", c.file, len(m.NPY), c.npy)
		}
		for _, np := range m.NPY {
			if np.DataOffset != 128 || len(np.Preview) != NpyPreviewValues || len(np.Shape) != c.dims {
				t.Errorf("%s: %s: %+v", c.file, np.Path, np)
			}
			if tree := m.MemberTrees[np.Path]; !strings.HasPrefix(tree.Detail, "initial value of") {
				t.Errorf("%s: %s not joined to its var: %q", c.file, np.Path, tree.Detail)
			}
		}
	}
}

// TestOldProducerFixture resolves the old libnrt-embedded fixture (spec examples, read in
// place): kelf-a.json, lowercase engine names, .asm members, target "*".
func TestOldProducerFixture(t *testing.T) {
	ex := realfiles.Spec(t, "examples") + "/"
	fx := realfiles.Spec(t, "fixtures") + "/"
	set := NewMemberSet()
	for member, file := range map[string]string{
		"kelf-a.json": "libnrt-fixture-kelf-a.json", "neff.json": "RECONSTRUCTED-libnrt-fixture-neff.json",
		"sg00/def.json": "RECONSTRUCTED-libnrt-fixture-sg00-def.json", "sg00/pool.json": "RECONSTRUCTED-libnrt-fixture-sg00-pool.json",
		"sg00/pe.json": "libnrt-fixture-sg00-pe.json", "sg00/sp.json": "libnrt-fixture-sg00-sp.json",
		"sg00/dve.json": "libnrt-fixture-sg00-dve.json", "sg00/act.json": "PARTIAL-libnrt-fixture-sg00-act.json",
	} {
		data, err := os.ReadFile(ex + file)
		if err != nil {
			t.Fatal(err)
		}
		set.Add(member, int64(len(data)), data)
	}
	// Sizes from the fixture's member list (spec neff.md §2.4 A).
	for p, n := range map[string]int64{"sg00/pool.bin": 192, "sg00/pe.bin": 64, "sg00/act.bin": 0, "sg00/dve.bin": 0, "sg00/sp.bin": 0,
		"sg00/sp.asm": 0, "sg00/dve.asm": 0, "sg00/pool.asm": 126, "sg00/pe.asm": 153, "sg00/act.asm": 0} {
		set.Add(p, n, nil)
	}
	hdr, err := os.ReadFile(fx + "libnrt-fixture-neff-header.bin")
	if err != nil {
		t.Fatal(err)
	}
	facts := HeaderFacts{Present: true, Name: "x", NumTPB: uint32(hdr[0xA8]), RequestedTPBCount: uint32(hdr[0x1DC]), NeffVersionMajor: uint64(hdr[0x18])}
	m := Resolve(set, facts)
	if errs := findingsOf(m, doc.Error); len(errs) > 0 {
		dumpFindings(t, m)
		t.Fatalf("%d errors", len(errs))
	}
	// The fixture lacks act_info.json, which its act.json names: the one expected warning.
	if w := findingsOf(m, doc.Warning); len(w) != 1 || w[0].Code != doc.CodeManifestMissingDebugMember || !strings.Contains(w[0].Message, "act_info.json") {
		dumpFindings(t, m)
		t.Fatalf("warnings %v", w)
	}
	c := m.Core("sg00")
	if m.Target != "*" || m.Arch != 0 || c == nil || len(c.Engines) != 5 {
		t.Fatalf("target %q arch %d core %+v", m.Target, m.Arch, c)
	}
	pool := c.Engine("pool")
	if pool.StreamPath != "sg00/pool.bin" || pool.Instructions != 3 {
		t.Errorf("pool stream %s %d", pool.StreamPath, pool.Instructions)
	}
	// Block id 0 exists on both queues: the queue name disambiguates (as the 0xC1 word carries it).
	in, out := pool.Block("q_gradient_in", 0), pool.Block("q_gradient_out", 0)
	if in == nil || out == nil || in.Descs[0].To != "gradient_in" || out.Descs[0].To != "output" || len(pool.BlocksWithID(0)) != 2 {
		t.Errorf("blocks in=%+v out=%+v", in, out)
	}
	if len(m.Inputs) != 1 || m.Inputs[0].Name != "input" || m.Inputs[0].Bytes != 128 || len(m.Outputs) != 1 || m.Outputs[0].Name != "output" {
		t.Errorf("io %+v %+v", m.Inputs, m.Outputs)
	}
}
