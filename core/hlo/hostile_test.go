package hlo

import (
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/hlo/hlobuild"
	"google.golang.org/protobuf/encoding/protowire"
)

func tag(b []byte, n protowire.Number, t protowire.Type) []byte { return protowire.AppendTag(b, n, t) }

func lenField(b []byte, n protowire.Number, v []byte) []byte {
	return protowire.AppendBytes(tag(b, n, protowire.BytesType), v)
}

// inModule puts instruction bytes in a computation in a module.
func inModule(instr []byte) []byte {
	comp := lenField(nil, 2, instr)
	return lenField(lenField(nil, 1, []byte("hostile")), 3, comp)
}

func hasCode(m *Module, c doc.Code) bool {
	found := false
	m.Root.Walk(func(_ []string, n *doc.Node) bool {
		for _, f := range n.Findings {
			found = found || f.Code == c
		}
		return !found
	})
	return found
}

// limits is a small budget, so the hostile cases show they stay inside it.
var limits = budget.Limits{Memory: 32 << 20}

func open(t *testing.T, name string, b []byte) (*Module, *budget.Budget) {
	t.Helper()
	bud := budget.New(limits)
	m, _ := Open(name, bytes.NewReader(b), int64(len(b)), Options{Budget: bud})
	if used := bud.Used(budget.Memory); used > limits.Memory {
		t.Fatalf("%s: %d B held, past the %d B limit", name, used, limits.Memory)
	}
	return m, bud
}

func TestHostileDeepNesting(t *testing.T) {
	// A tuple of a tuple of … 10⁵ deep, written outside in (lengths first, then one pass).
	const depth = 100_000
	inner := hlobuild.Shape(16, []int64{1}, []int64{0})
	elem := protowire.AppendVarint(tag(nil, 2, protowire.VarintType), 13) // element_type TUPLE
	lens := make([]int, depth+1)
	lens[depth] = len(inner)
	for i := depth - 1; i >= 0; i-- {
		lens[i] = len(elem) + protowire.SizeTag(4) + protowire.SizeBytes(lens[i+1])
	}
	shape := make([]byte, 0, lens[0])
	for i := 0; i < depth; i++ {
		shape = protowire.AppendVarint(tag(append(shape, elem...), 4, protowire.BytesType), uint64(lens[i+1]))
	}
	shape = append(shape, inner...)
	m, _ := open(t, "deep.hlo_module.pb", inModule(hlobuild.Instruction("t", "tuple", 1, shape, nil, nil)))
	if !hasCode(m, doc.CodeHLODeepNesting) || m.Instructions() != 1 {
		t.Fatalf("nesting: instructions %d, findings %+v", m.Instructions(), m.Root.Findings)
	}
}

func TestHostileClaims(t *testing.T) {
	// operand_ids claiming 10⁸ varints in a few bytes, and a backend_config claiming 1 GB.
	ids := tag(hlobuild.Instruction("c", "custom-call", 1, hlobuild.Shape(16, nil, nil), nil, nil), 36, protowire.BytesType)
	ids = protowire.AppendVarint(ids, 100_000_000)
	m, _ := open(t, "claims.hlo_module.pb", inModule(append(ids, 1, 2, 3)))
	if !hasCode(m, doc.CodeHLOCorrupt) {
		t.Fatalf("10⁸ ids claimed: %+v", m.Root.Findings)
	}
	bc := tag(hlobuild.Instruction("c", "custom-call", 1, hlobuild.Shape(16, nil, nil), nil, nil), 43, protowire.BytesType)
	bc = append(protowire.AppendVarint(bc, 1<<30), "eyJmdW5jX25hbWUiOiJ4In0="...)
	m, _ = open(t, "claims.hlo_module.pb", inModule(bc))
	if !hasCode(m, doc.CodeHLOCorrupt) {
		t.Fatalf("1 GB claimed: %+v", m.Root.Findings)
	}
}

// A gzip'd module whose backend_config really is 1 GB (of "A"s: base64 for zero bytes)
// inflates only as far as the budget lets it, says so, and keeps what it read.
func TestHostileGigabyteBackendConfig(t *testing.T) {
	head := tag(hlobuild.Instruction("c", "custom-call", 1, hlobuild.Shape(16, nil, nil), nil, nil), 43, protowire.BytesType)
	head = protowire.AppendVarint(head, 1<<30)
	comp := protowire.AppendVarint(tag(lenField(nil, 1, []byte("big")), 2, protowire.BytesType), uint64(len(head))+1<<30)
	mod := protowire.AppendVarint(tag(lenField(nil, 1, []byte("gigabyte")), 3, protowire.BytesType), uint64(len(comp)+len(head))+1<<30)
	prefix := append(append(mod, comp...), head...)
	// Gzip members one after the other make one stream: the prefix, then 1 MiB of "A" 1024 times.
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(prefix)
	w.Close()
	var mib bytes.Buffer
	w = gzip.NewWriter(&mib)
	w.Write(bytes.Repeat([]byte{'A'}, 1<<20))
	w.Close()
	for range 1024 {
		gz.Write(mib.Bytes())
	}
	m, bud := open(t, "gigabyte.hlo_module.pb.gz", gz.Bytes())
	if !m.Gzip || !m.Partial || !hasCode(m, doc.CodeHLOTooBig) || bud.First() == nil {
		t.Fatalf("gzip partial %v %v, findings %+v", m.Gzip, m.Partial, m.Root.Findings)
	}
	if m.Name != "gigabyte" {
		t.Fatalf("what was read before the limit is lost: name %q", m.Name)
	}
}

// 600,000 real instructions under a small budget: the model stops with a coded finding.
func TestHostileManyInstructions(t *testing.T) {
	one := lenField(nil, 2, hlobuild.Instruction("p", "parameter", 1, nil, nil, nil))
	comp := bytes.Repeat(one, 600_000) // 12.6 MB: held, but its model passes the budget
	m, _ := open(t, "many.hlo_module.pb", lenField(nil, 3, comp))
	if !m.Partial || !hasCode(m, doc.CodeHLOPartial) || m.GraphDigest() != "" {
		t.Fatalf("partial %v (%s), findings %+v", m.Partial, m.Why, m.Root.Findings)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(hlobuild.Module(hlobuild.Default()))
	s := hlobuild.Default()
	s.Grid = []int{2, 2}
	f.Add(hlobuild.Module(s))
	f.Add([]byte{0x1a, 0x05, 0x12, 0x03, 0x0a, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		bud := budget.New(budget.Limits{Memory: 8 << 20})
		m := Decode(b, Options{Budget: bud, Name: "fuzz"})
		_ = m.GraphDigest()
		_ = m.MaskedDigest()
		if bud.Used(budget.Memory) > 8<<20 {
			t.Fatal("past the budget")
		}
	})
}

// A module cut short keeps what comes before the cut: its name and first instructions.
func TestTruncatedKeepsWhatWasRead(t *testing.T) {
	b := hlobuild.Module(hlobuild.Default())
	m, _ := open(t, "cut.hlo_module.pb", b[:len(b)*3/4])
	if m.Name != "SyncTensorsGraph.42" || m.Instructions() < 3 || !m.Partial || !hasCode(m, doc.CodeHLOCorrupt) {
		t.Fatalf("name %q, %d instructions, partial %v, findings %+v", m.Name, m.Instructions(), m.Partial, m.Root.Findings)
	}
}

// Every cut and a few byte flips at every offset of a module decode without a panic and
// within the budget (what the fuzz target does at random, done here in order).
func TestEveryCutAndFlip(t *testing.T) {
	b := hlobuild.Module(hlobuild.Default())
	for i := range b {
		for _, v := range [][]byte{b[:i], flip(b, i, 0xff), flip(b, i, 0x00), flip(b, i, 0x80)} {
			bud := budget.New(budget.Limits{Memory: 1 << 20})
			m := Decode(v, Options{Budget: bud, Name: "mutant"})
			_ = m.GraphDigest()
			if bud.Used(budget.Memory) > 1<<20 {
				t.Fatalf("offset %d: past the budget", i)
			}
		}
	}
}

func flip(b []byte, i int, v byte) []byte {
	c := append([]byte(nil), b...)
	c[i] = v
	return c
}
