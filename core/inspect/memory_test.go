package inspect

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

func memoryItems(items []*MemoryItem) map[string]*MemoryItem {
	out := map[string]*MemoryItem{}
	for _, it := range items {
		out[it.Category] = it
	}
	return out
}

// matmul_small's two def.json list the same I/O vars (x, y 65,536 B each, output0 32,768 B):
// the budget counts them once, in its per-NEFF group, and the cores hold the rest.
func TestMemoryRealNEFFs(t *testing.T) {
	f := openRealBytes(t, "nkipy/matmul_small.neff")
	mb := Memory(f)
	if len(mb.Cores) != 2 || mb.NEFF == nil || mb.NEFF.Core != MemoryGroupNEFF {
		t.Fatalf("%d cores, NEFF group %+v", len(mb.Cores), mb.NEFF)
	}
	if it := memoryItems(mb.NEFF.Items)["tensors"]; it == nil || it.Bytes != 65536*2+32768 || it.Count != 3 || it.Bound != BoundDeclared {
		t.Errorf("tensors %+v", it)
	}
	total := mb.NEFF.Total
	for _, c := range mb.Cores {
		got := memoryItems(c.Items)
		if got["tensors"] != nil {
			t.Errorf("%s counts the I/O tensors again", c.Core)
		}
		// Code: the five streams, exp_and_others' bkt and ctrl, the four DVE tables: every .bin
		// of the core's directory in this file, and no more.
		var bins int64
		for _, m := range f.Archive.Members {
			if strings.HasPrefix(m.Path, c.Core+"/") && strings.HasSuffix(m.Path, ".bin") {
				bins += m.Size
			}
		}
		code := got["model code"]
		if code.Bytes != bins || code.Count != 11 || code.Bound != BoundAtLeast || !c.AtLeast {
			t.Errorf("%s code %d B of %d parts (%s), .bin members %d B", c.Core, code.Bytes, code.Count, code.Bound, bins)
		}
		// Its split: 29 instruction words in the five streams, exp_and_others' 30,112 + 2,848 B
		// of tables, the four cayman DVE tables (4,096 + 4,096 + 16,384 + 1,024 B).
		split := memoryItems(code.Sub)
		if s := split["engine streams"]; s.Bytes != 29*64 || s.Count != 5 || s.Bound != BoundAtLeast {
			t.Errorf("%s streams %+v", c.Core, s)
		}
		if a, d := split["activation tables"], split["DVE tables"]; a.Bytes != 30112+2848 || a.Count != 2 || d.Bytes != 25600 || d.Count != 4 || len(code.Parts) != 0 || len(a.Parts) != 2 {
			t.Errorf("%s activation tables %+v, DVE tables %+v", c.Core, a, d)
		}
		if got["model constants"].Bytes != 32768 || got["scratchpad"].Bytes != 0 || got["dma rings"].Bytes != 0 || got["dma rings"].Bound != BoundAtLeast {
			t.Errorf("%s: %+v %+v %+v", c.Core, got["model constants"], got["scratchpad"], got["dma rings"])
		}
		total += c.Total
	}
	if mb.Total != total || !mb.AtLeast || mb.Overflow || len(mb.Findings) != 0 {
		t.Errorf("total %d (at least %v, overflow %v, findings %v), groups sum to %d", mb.Total, mb.AtLeast, mb.Overflow, mb.Findings, total)
	}
	n := MemoryNode(mb)
	if n.Child(MemoryGroupNEFF).Child("tensors").Attrs[AttrBytes] != "163840" || n.Child("sg00").Child("tensors") != nil {
		t.Errorf("memory node groups: %+v", n.Children)
	}
	if n.Child("sg00") == nil || n.Child("sg00").Child("model constants").Children[0].Label != "identity_82_sg0000" {
		t.Errorf("memory node: %+v", n.Child("sg00"))
	}
	if !strings.HasPrefix(n.Child("sg00").Child("model code").Value, "at least ") {
		t.Errorf("code figure %q does not say it is a lower bound", n.Child("sg00").Child("model code").Value)
	}
	// attn_v6 has 20 virtual vars of 8 bytes at backing offset 0: the high-water mark is 8.
	if _, ok := realfiles.Optional(t, "nki-moe/attn_v6.neff", "the scratchpad high-water mark"); ok {
		mb := Memory(openRealBytes(t, "nki-moe/attn_v6.neff"))
		if it := memoryItems(mb.Cores[0].Items)["scratchpad"]; it.Bytes != 8 || it.Count != 20 || len(it.Parts) != 1 || it.Parts[0].Span == nil {
			t.Errorf("attn_v6 scratchpad %+v", it)
		}
	}
}

// Every real NEFF: its I/O tensors are counted once however many cores list them (the sum of
// one def.json's I/O vars when every core lists the same), and the groups add up to the total.
func TestMemoryTensorsOncePerNEFF(t *testing.T) {
	files := realfiles.NEFFs(t)
	twoCore := 0
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := openBytes(filepath.Base(p), b)
		mb := Memory(f)
		if mb == nil {
			t.Errorf("%s: no budget", p)
			continue
		}
		cores := f.Program.Model.Cores
		perCore := make([]int64, len(cores))
		for i, c := range cores {
			for _, v := range c.Vars {
				if v.Type == "input" || v.Type == "output" {
					perCore[i] += v.Size
				}
			}
		}
		tensors := memoryItems(mb.NEFF.Items)["tensors"]
		if tensors.Bytes != perCore[0] || tensors.Bytes == 0 {
			t.Errorf("%s: tensors %d B, one core's I/O vars %v", p, tensors.Bytes, perCore)
		}
		if len(cores) == 2 {
			twoCore++
			if perCore[1] != perCore[0] {
				t.Errorf("%s: the cores list different I/O vars (%v): check the once-per-NEFF rule on it", p, perCore)
			}
		}
		sum := mb.NEFF.Total
		for _, c := range mb.Cores {
			sum += c.Total
		}
		if sum != mb.Total || mb.Overflow {
			t.Errorf("%s: total %d, groups %d", p, mb.Total, sum)
		}
	}
	if twoCore < 2 && realfiles.SharedDir() == "" {
		t.Skipf("checked on %d NEFFs, %d of them with two cores; the rule wants two or more, which ../shared/testdata-real/ holds, and it is not beside the clone", len(files), twoCore)
	}
	if twoCore < 2 {
		t.Errorf("only %d two-core NEFFs among the real files", twoCore)
	}
}

// hugeVarsSample is neffbuild.Sample whose def.json declares four constants and an input of
// 2⁶² B each, and whose SP output transfer has 2⁴⁰ × 2⁴⁰ rows: every sum passes 2⁶³.
func hugeVarsSample() []neffbuild.Member {
	const huge = "4611686018427387904" // 2⁶²
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		switch m.Path {
		case "sg00/def.json":
			m.Data = bytes.Replace(m.Data, []byte(`"input0": {"ops": [], "size": 64,`), []byte(`"input0": {"ops": [], "size": `+huge+`,`), 1)
			var consts strings.Builder
			for i, n := range []string{"w0", "w1", "w2", "w3"} {
				consts.WriteString(fmt.Sprintf(`"%s": {"ops": [], "size": %s, "type": "file", "var_id": %d},`+"\n  ", n, huge, 3+i))
			}
			consts.WriteString(`"output0"`)
			m.Data = bytes.Replace(m.Data, []byte(`"output0"`), []byte(consts.String()), 1)
		case "sg00/SP.json":
			m.Data = bytes.Replace(m.Data, []byte(`"to": "output0", "to_off": 0, "to_sizes": [64, 1]`), []byte(`"to": "output0", "to_off": 0, "to_sizes": [64, 1099511627776, 1099511627776]`), 1)
		}
		ms = append(ms, m)
	}
	return ms
}

func TestMemoryOverflow(t *testing.T) {
	f := openBytes("huge.neff", neffbuild.Bytes(hugeVarsSample(), neffbuild.Options{}))
	mb := Memory(f)
	if mb == nil {
		t.Fatal("no budget")
	}
	core := memoryItems(mb.Cores[0].Items)
	consts, rings := core["model constants"], core["dma rings"]
	if consts.Count != 4 || !consts.Overflow || consts.Bytes != math.MaxInt64 {
		t.Errorf("constants: %d vars, %d B, overflow %v", consts.Count, consts.Bytes, consts.Overflow)
	}
	if !rings.Overflow || rings.Bytes != math.MaxInt64 {
		t.Errorf("dma rings: %d B, overflow %v", rings.Bytes, rings.Overflow)
	}
	if tensors := mb.NEFF.Items[0]; tensors.Overflow || tensors.Bytes != 1<<62+64 {
		t.Errorf("tensors: %d B, overflow %v (2⁶² + 64 fits)", tensors.Bytes, tensors.Overflow)
	}
	if !mb.Overflow || mb.Total != math.MaxInt64 || !mb.Cores[0].Overflow {
		t.Errorf("total %d, overflow %v", mb.Total, mb.Overflow)
	}
	if len(mb.Findings) != 1 || mb.Findings[0].Code != MemoryOverflow || mb.Findings[0].Severity != doc.Warning {
		t.Errorf("findings %+v", mb.Findings)
	}
	n := MemoryNode(mb)
	if n.Value != "more than 2⁶³ B (static estimate)" || len(n.Findings) != 1 {
		t.Errorf("node %q, %d findings", n.Value, len(n.Findings))
	}
	if v := n.Child("sg00").Child("model constants").Value; v != "more than 2⁶³ B" {
		t.Errorf("constants figure %q", v)
	}
}

func TestMemoryArithmetic(t *testing.T) {
	for _, c := range []struct {
		a, b, sum int64
		over      bool
	}{
		{1, 2, 3, false},
		{math.MaxInt64, 0, math.MaxInt64, false},
		{math.MaxInt64, 1, math.MaxInt64, true},
		{1 << 62, 1 << 62, math.MaxInt64, true},
		{-5, 7, 7, false}, // a size of -1 (absent) counts as 0
	} {
		if s, o := addBytes(c.a, c.b); s != c.sum || o != c.over {
			t.Errorf("addBytes(%d, %d) = %d, %v", c.a, c.b, s, o)
		}
	}
	for _, c := range []struct {
		a, b, prod int64
		over       bool
	}{
		{3, 16, 48, false},
		{1 << 31, 1 << 31, 1 << 62, false},
		{1 << 32, 1 << 31, math.MaxInt64, true},
		{1 << 40, 1 << 40, math.MaxInt64, true},
	} {
		if p, o := mulBytes(c.a, c.b); p != c.prod || o != c.over {
			t.Errorf("mulBytes(%d, %d) = %d, %v", c.a, c.b, p, o)
		}
	}
}
