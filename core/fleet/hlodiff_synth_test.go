package fleet

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/hlo"
	"github.com/neffscope/neffscope/core/hlo/hlobuild"
)

func module(t *testing.T, s hlobuild.Spec) *hlo.Module {
	t.Helper()
	b := hlobuild.Module(s)
	m, _ := hlo.Open("m.hlo_module.pb", bytes.NewReader(b), int64(len(b)), hlo.Options{})
	if m.Partial || len(m.Root.Findings) > 0 {
		t.Fatalf("synthetic module: partial %v, findings %+v", m.Partial, m.Root.Findings)
	}
	return m
}

// Each kind of change gives its verdict, its class and the field it is in; ids and generated
// names renumbered by another trace are not a change of the graph.
func TestDiffHLOClasses(t *testing.T) {
	base := hlobuild.Default()
	for _, c := range []struct {
		name    string
		change  func(*hlobuild.Spec)
		verdict doc.Code
		class   hlo.Class
		field   string
	}{
		{"same", func(*hlobuild.Spec) {}, doc.CodeHLOSame, "", ""},
		{"temporary path", func(s *hlobuild.Spec) {
			s.Binary = "/tmp/klir_binaries/qwen3_attn_tkg_fused_88ixmrh0/qwen3_attn_tkg_fusedfdhbut50.klir"
		}, doc.CodeHLOVolatileOnly, hlo.ClassVolatile, "backend_config.klir_binary.binary"},
		{"ids and names renumbered", func(s *hlobuild.Spec) { s.IDBase, s.NameSuffix = 1000, ".9" }, doc.CodeHLOVolatileOnly, hlo.ClassVolatile, "instruction names in SyncTensorsGraph.42"},
		{"source line", func(s *hlobuild.Spec) { s.SourceLine = 18 }, doc.CodeHLOMetadataOnly, hlo.ClassMetadata, "metadata.source"},
		{"op name", func(s *hlobuild.Spec) { s.OpName = "aten__add_2" }, doc.CodeHLOMetadataOnly, hlo.ClassMetadata, "metadata.op_name"},
		{"kernel name", func(s *hlobuild.Spec) { s.Kernel = "qwen3_attn_tkg_fused_v2" }, doc.CodeHLOKernelChanged, hlo.ClassKernel, "backend_config.func_name"},
		{"grid", func(s *hlobuild.Spec) { s.Grid = []int{2} }, doc.CodeHLOKernelChanged, hlo.ClassKernel, "backend_config.grid"},
		{"stable binary path", func(s *hlobuild.Spec) { s.Binary = "/opt/kernels/attn_v7.klir" }, doc.CodeHLOKernelChanged, hlo.ClassKernel, "backend_config.klir_binary.binary"},
		{"dtype", func(s *hlobuild.Spec) { s.DType = 11 }, doc.CodeHLOGraphChanged, hlo.ClassGraph, "shape"},
		{"layout", func(s *hlobuild.Spec) { s.Layout = []int64{0, 1} }, doc.CodeHLOGraphChanged, hlo.ClassGraph, "shape"},
		{"constant", func(s *hlobuild.Spec) { s.Constant = []byte{1, 2, 3, 5} }, doc.CodeHLOGraphChanged, hlo.ClassGraph, "literal"},
		{"wiring", func(s *hlobuild.Spec) { s.SwapOperands = true }, doc.CodeHLOGraphChanged, hlo.ClassGraph, "operand 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			other := base
			c.change(&other)
			d := DiffHLO(module(t, base), module(t, other), "a", "b")
			if d.Verdict != c.verdict {
				t.Fatalf("verdict %s, want %s: %s\n%+v", d.Verdict, c.verdict, d.Summary, d.Differences)
			}
			if c.class == "" {
				if len(d.Differences) != 0 {
					t.Fatalf("differences %+v", d.Differences)
				}
				return
			}
			found := false
			for _, x := range d.Differences {
				if x.Class.Rank() > c.class.Rank() {
					t.Fatalf("a %s difference %+v where only %s was changed", x.Class, x, c.class)
				}
				found = found || (x.Class == c.class && x.Field == c.field)
			}
			if !found {
				t.Fatalf("no %s difference in %s: %+v", c.class, c.field, d.Differences)
			}
		})
	}
}

// The graph digest leaves out what the diff calls volatile or metadata, and keeps the rest.
func TestGraphDigestClasses(t *testing.T) {
	base := hlobuild.Default()
	d0 := module(t, base).GraphDigest()
	for name, ch := range map[string]func(*hlobuild.Spec){
		"temporary path": func(s *hlobuild.Spec) { s.Binary = "/tmp/klir_binaries/x_abcdefgh/xijklmnop.klir" },
		"renumbered":     func(s *hlobuild.Spec) { s.IDBase, s.NameSuffix = 50, ".3" },
		"source line":    func(s *hlobuild.Spec) { s.SourceLine = 99 },
	} {
		s := base
		ch(&s)
		if d := module(t, s).GraphDigest(); d != d0 {
			t.Errorf("%s changed the graph digest", name)
		}
	}
	for name, ch := range map[string]func(*hlobuild.Spec){
		"kernel":   func(s *hlobuild.Spec) { s.Kernel = "other" },
		"dtype":    func(s *hlobuild.Spec) { s.DType = 11 },
		"wiring":   func(s *hlobuild.Spec) { s.SwapOperands = true },
		"constant": func(s *hlobuild.Spec) { s.Constant = []byte{9} },
	} {
		s := base
		ch(&s)
		if d := module(t, s).GraphDigest(); d == d0 {
			t.Errorf("%s left the graph digest unchanged", name)
		}
	}
}
