package inspect

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
)

// A DMA trigger's listing row and its instruction's resolved field lead to the queue's node
// (its def.json row) and, for a PseudoDMATrigger whose block the joins name, the block's node
// (the engine JSON block's bytes); a PseudoDmaDirect2d's block is unknown, said as AttrBlock "".
func TestDMATriggerLinksToQueueAndBlock(t *testing.T) {
	for _, rel := range []string{"nki-moe/attn_v6.neff", "cs149-trn1/file_pool_1_float16.neff", "nkipy/matmul_small.neff"} {
		t.Run(rel, func(t *testing.T) {
			f := openReal(t, rel)
			blocks, queues := 0, 0
			for _, ps := range f.Program.Streams {
				if ps.ISA == nil || !ps.ISA.Held() {
					continue
				}
				tab, _, err := f.Rows(doc.StreamRef(ps.Member), 0, ps.ISA.Len())
				if err != nil {
					t.Fatal(err)
				}
				for i := range ps.ISA.Len() {
					w := ps.ISA.Word(i)
					if w[0] != 0xC1 && w[0] != 0xD4 {
						continue
					}
					r := f.Program.Resolve(ps, i, w)
					if r.Queue == "" {
						continue // the join's own finding says why
					}
					if tab.RowLinks == nil || tab.RowLinks[i] == "" {
						t.Fatalf("%s #%d (queue %s): no row link", ps.Member, i, r.Queue)
					}
					n := linkNode(t, f, tab.RowLinks[i])
					if n.Attrs[AttrQueue] != r.Queue {
						t.Errorf("%s #%d leads to %q (queue %q), want queue %s", ps.Member, i, tab.RowLinks[i], n.Attrs[AttrQueue], r.Queue)
					}
					ins, err := f.Instruction(doc.StreamRef(ps.Member), i)
					if err != nil {
						t.Fatal(err)
					}
					qf, bf := ins.Find("resolved", "queue"), ins.Find("resolved", "block")
					if qf == nil || bf == nil {
						t.Fatalf("%s #%d: resolved has no queue or block field", ps.Member, i)
					}
					q := linkNode(t, f, qf.Link)
					row, _ := strconv.Atoi(q.Attrs[AttrQueueRow])
					qt := f.Doc.Root.Find("model", "cores", ps.Core.Name, "dma_queues").Table
					if q.Attrs[AttrQueue] != r.Queue || qt.Rows[row][0] != r.Queue || *q.Span != qt.RowSpans[row] {
						t.Errorf("%s #%d: queue field leads to %+v, not the row of %s", ps.Member, i, q.Attrs, r.Queue)
					}
					queues++
					if r.block == nil {
						if bf.Attrs[AttrBlock] != "" || bf.Link != "" {
							t.Errorf("%s #%d: no block is known, but the field says %+v %q", ps.Member, i, bf.Attrs, bf.Link)
						}
						continue
					}
					b := linkNode(t, f, bf.Link)
					if b != n || b.Attrs[AttrBlock] != strconv.FormatInt(r.block.ID, 10) || b.Attrs[AttrEngine] != ps.Engine.Name || b.Span == nil || *b.Span != *r.block.Span {
						t.Errorf("%s #%d: block field leads to %+v (row link %q), want block %d of %s", ps.Member, i, b.Attrs, tab.RowLinks[i], r.block.ID, ps.Engine.Name)
					}
					blocks++
				}
			}
			t.Logf("%s: %d DMA words link to their queue, %d of them to their block", rel, queues, blocks)
			// The overview's DMA rows lead to their queue's own node.
			dma := f.Doc.Root.Children[0].Child(OverviewDMA).Table
			qi := col(dma, "queue")
			for k, r := range dma.Rows {
				if n := linkNode(t, f, dma.RowLinks[k]); n.Attrs[AttrQueue] != r[qi] {
					t.Errorf("overview DMA row %v leads to %q, not queue %s", r, dma.RowLinks[k], r[qi])
				}
			}
			if queues == 0 {
				t.Error("no DMA word links to its queue")
			}
			if rel != "nkipy/matmul_small.neff" && blocks == 0 {
				t.Error("no PseudoDMATrigger links to its block")
			}
		})
	}
}

// Each input and output of the overview leads to its def.json var: the var's node links to
// its def.json entry and tables the instructions that name it.
func TestIOLinksToTheirVar(t *testing.T) {
	f := openReal(t, "nkipy/matmul_small.neff")
	io := f.Doc.Root.Children[0].Child(OverviewIO).Table
	touched := 0
	for k, r := range io.Rows {
		n := linkNode(t, f, io.RowLinks[k])
		if n.Attrs[AttrVar] != r[1] {
			t.Errorf("io row %v leads to %q (var %q), not its var", r, io.RowLinks[k], n.Attrs[AttrVar])
			continue
		}
		if e := linkNode(t, f, n.Link); e.Span == nil || e.Span.Source != f.Program.Model.Cores[0].DefPath {
			t.Errorf("var %s links to %q, not into def.json", r[1], n.Link)
		}
		if n.Table != nil {
			touched++
			for j := range n.Table.Rows {
				if sp := n.Table.RowSpans[j]; sp.Length != isa.WordSize {
					t.Errorf("var %s row %d: span %v is not a word", r[1], j, sp)
				}
			}
		}
	}
	if touched != len(io.Rows) {
		t.Errorf("%d of %d inputs and outputs list instructions (matmul_small's 0xD4 words move x, y and output0)", touched, len(io.Rows))
	}
}

// A DMA block's node tables its descriptors as the engine JSON writes them (read here again
// with encoding/json), with their bytes (the product of from_sizes) and each row's span.
func TestDMABlockTablesItsDescriptors(t *testing.T) {
	for _, rel := range []string{"nki-moe/attn_v6.neff", "cs149-trn1/file_pool_1_float16.neff"} {
		t.Run(rel, func(t *testing.T) {
			f := openReal(t, rel)
			type desc struct {
				From      string  `json:"from"`
				To        string  `json:"to"`
				FromSizes []int64 `json:"from_sizes"`
				ToSizes   []int64 `json:"to_sizes"`
				FromDType string  `json:"from_dtype"`
				ToDType   string  `json:"to_dtype"`
				FromOff   int64   `json:"from_off"`
			}
			blocks, descs := 0, 0
			for _, c := range f.Program.Model.Cores {
				for _, e := range c.Engines {
					m := f.Archive.Member(e.JSONPath)
					if m == nil || m.Data == nil {
						continue
					}
					var ej struct {
						DMA []struct {
							ID    int64
							Queue string
							Desc  []desc
						}
					}
					if err := json.Unmarshal(m.Data, &ej); err != nil {
						t.Fatalf("%s: %v", e.JSONPath, err)
					}
					for _, b := range ej.DMA {
						n := f.Doc.Root.Find("model", "cores", c.Name, "dma_queues", b.Queue, blockNodeKey(e.Name, b.ID))
						if n == nil {
							t.Fatalf("%s block %d on %s has no node", e.JSONPath, b.ID, b.Queue)
						}
						blocks++
						if len(b.Desc) == 0 {
							continue
						}
						tab := n.Table
						if tab == nil || len(tab.Rows) != len(b.Desc) || len(tab.RowSpans) != len(b.Desc) {
							t.Fatalf("%s block %d: table %+v, want %d descriptors", e.JSONPath, b.ID, tab, len(b.Desc))
						}
						var sum int64
						for k, d := range b.Desc {
							r := tab.Rows[k]
							by := int64(1)
							for _, s := range d.FromSizes {
								by *= s
							}
							sum += by
							want := map[string]string{"from": d.From, "to": d.To, "from_dtype": d.FromDType, "to_dtype": d.ToDType,
								"from_off": strconv.FormatInt(d.FromOff, 10), "from_sizes": intList(d.FromSizes), "to_sizes": intList(d.ToSizes), "bytes": strconv.FormatInt(by, 10)}
							for c, v := range want {
								if got := r[col(tab, c)]; got != v {
									t.Errorf("%s block %d desc %d: %s %q, want %q", e.JSONPath, b.ID, k, c, got, v)
								}
							}
							if sp := tab.RowSpans[k]; sp.Source != e.JSONPath || sp.Length == 0 || !strings.HasPrefix(string(m.Data[sp.Offset:sp.Offset+sp.Length]), "{") {
								t.Errorf("%s block %d desc %d: span %+v is not the descriptor's object", e.JSONPath, b.ID, k, sp)
							}
							descs++
						}
						if n.Attrs[AttrBytes] != strconv.FormatInt(sum, 10) {
							t.Errorf("%s block %d: bytes attr %q, want %d", e.JSONPath, b.ID, n.Attrs[AttrBytes], sum)
						}
					}
				}
			}
			t.Logf("%s: %d blocks, %d descriptors tabled", rel, blocks, descs)
			if descs == 0 {
				t.Error("no descriptor tabled")
			}
		})
	}
}
