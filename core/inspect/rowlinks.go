package inspect

import (
	"fmt"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
)

// A DMA trigger's links: a core's DMA queues node gets one child per queue
// (its def.json entry, the row of the queue table), and each queue one child per engine JSON
// block that names it (the block's bytes, its descriptors as a table). The listing's DMA trigger rows and an instruction's
// "resolved" field lead to the block when Resolve knows it, else to the queue.

// Attr keys of a queue's and a block's node, and of an instruction's resolved queue/block field.
const (
	AttrQueue    = "queue"     // the DMA queue's name
	AttrQueueRow = "queue_row" // the queue's row in the core's DMA queues table (0-based)
	AttrBlock    = "block"     // the block's id ("" when the trigger's block is not known); AttrEngine: its engine
)

// blockNodesHeld bounds the block nodes of one core's queues; descRowsHeld the descriptor
// rows of their tables (the engine JSON's tree holds every descriptor all the same).
const (
	blockNodesHeld = 4000
	descRowsHeld   = 16384
)

// descColumns are a block's descriptor table: the engine JSON's own desc[] keys (neff.md §3.5
// lists them; sizes and steps are bytes, innermost first, §8.1), then "bytes", the product of
// from_sizes (descBytes: what profile and memory count), "" where from_sizes is missing.
var descColumns = []string{"#", "op", "from", "from_off", "from_sizes", "from_steps", "from_dtype", "to", "to_off", "to_sizes", "to_steps", "to_dtype", "bytes"}

// blockTable is a block's descriptors as rows (at most room of them), and the bytes they
// move (known: false when a descriptor has no from_sizes).
func blockTable(b *manifest.DMABlock, room int) (t *doc.Table, moved int64, known bool) {
	t = &doc.Table{Columns: descColumns, Rows: [][]string{}}
	known = true
	for i, d := range b.Descs {
		n, ok := descBytes(d)
		if ok {
			moved, _ = addBytes(moved, n)
		} else {
			known = false
		}
		if i >= room {
			continue
		}
		by := ""
		if ok {
			by = strconv.FormatInt(n, 10)
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(i), d.Op, d.From, strconv.FormatInt(d.FromOff, 10), intList(d.FromSizes), intList(d.FromSteps), d.FromDType,
			d.To, strconv.FormatInt(d.ToOff, 10), intList(d.ToSizes), intList(d.ToSteps), d.ToDType, by})
		if d.Span != nil {
			t.RowSpans = append(t.RowSpans, *d.Span)
		} else {
			t.RowSpans = append(t.RowSpans, doc.Span{})
		}
	}
	return t, moved, known
}

// intList is a descriptor's sizes or steps as the engine JSON writes them: "[128,1]".
func intList(xs []int64) string {
	if xs == nil {
		return ""
	}
	out := "["
	for i, x := range xs {
		if i > 0 {
			out += ","
		}
		out += strconv.FormatInt(x, 10)
	}
	return out + "]"
}

// blockKey is the key of a block's node under its queue: blocks are per engine.
func blockNodeKey(engine string, id int64) string { return engine + "." + strconv.FormatInt(id, 10) }

// queueNodes gives each core's dma_queues node its queue and block children.
func queueNodes(p *Program, root *doc.Node) {
	for _, c := range p.Model.Cores {
		qs := root.Find("model", "cores", c.Name, "dma_queues")
		if qs == nil || len(qs.Children) > 0 {
			continue
		}
		byQueue := map[string]*doc.Node{}
		for k, q := range c.Queues {
			n := &doc.Node{Kind: doc.KindField, Key: q.Name, Label: q.Name, Span: q.Span}
			n.SetAttr(AttrQueue, q.Name).SetAttr(AttrQueueRow, strconv.Itoa(k))
			n.Value = "type " + q.Type + " · owner " + q.Owner + " · " + plural(q.UsedByBlocks, "block")
			n.Detail = "def.json dma_queue " + q.Name + " of " + c.Name + ", and the engine JSON blocks that name it"
			byQueue[q.Name] = qs.Add(n)
		}
		held, rows := 0, 0
		for _, e := range c.Engines {
			for _, b := range e.DMABlocks {
				qn := byQueue[b.Queue]
				if qn == nil || held == blockNodesHeld {
					continue
				}
				held++
				bn := &doc.Node{Kind: doc.KindField, Key: blockNodeKey(e.Name, b.ID), Label: fmt.Sprintf("block %d (%s)", b.ID, e.Name), Span: b.Span}
				bn.SetAttr(AttrQueue, b.Queue).SetAttr(AttrBlock, strconv.FormatInt(b.ID, 10)).SetAttr(AttrEngine, e.Name)
				bn.Detail = "dma block " + strconv.FormatInt(b.ID, 10) + " of " + e.JSONPath + " on queue " + b.Queue + blockDetail(b)
				t, moved, known := blockTable(b, descRowsHeld-rows)
				rows += len(t.Rows)
				bn.Value = plural(len(b.Descs), "descriptor")
				if known && len(b.Descs) > 0 {
					bn.Value += " · " + neff.HumanSize(moved)
					bn.SetAttr(AttrBytes, strconv.FormatInt(moved, 10))
				}
				if len(b.Descs) > 0 {
					bn.Table = t
				}
				if len(t.Rows) < len(b.Descs) {
					bn.SetAttr(doc.AttrViewLimit, fmt.Sprintf("only the first %d of the block's %d descriptors are tabled here (%d per core); the engine JSON's tree (%s) holds them all", len(t.Rows), len(b.Descs), descRowsHeld, e.JSONPath))
				}
				qn.Add(bn)
			}
		}
	}
}

// blockDetail says what a block carries besides its descriptors (semaphore, comment), in
// the engine JSON's own words.
func blockDetail(b *manifest.DMABlock) string {
	s := ""
	if b.Semaphore >= 0 {
		s += "; semaphore " + strconv.FormatInt(b.Semaphore, 10) + " (a completed block adds 16 to it, neff.md §8.3)"
	}
	if b.Comment != "" {
		s += "; #comment " + strconv.Quote(b.Comment)
	}
	if len(b.Descs) > 0 {
		s += ". Its descriptors: sizes and steps in bytes, innermost first (neff.md §8.1); bytes = the product of from_sizes"
	}
	return s
}

// dmaLink is the node a DMA trigger of stream ps leads to: its block's node when r names a
// block that has one, else its queue's node ("" when the core has neither).
func (f *File) dmaLink(ps *ProgramStream, r Resolved) (link string, block bool) {
	if r.Queue == "" {
		return "", false
	}
	qp := []string{"model", "cores", ps.Core.Name, "dma_queues", r.Queue}
	if r.block != nil {
		if l := f.links[linkQueues+doc.NodeLink(append(qp, blockNodeKey(ps.Engine.Name, r.block.ID))...)]; l != "" {
			return l, true
		}
	}
	return f.links[linkQueues+doc.NodeLink(qp...)], false
}

// keepQueueLinks records the queue and block nodes under root for dmaLink (keyed by their
// own link: a link is kept only for a node that exists).
func (f *File) keepQueueLinks(root *doc.Node) {
	if f.Program == nil {
		return
	}
	for _, c := range f.Program.Model.Cores {
		qs := root.Find("model", "cores", c.Name, "dma_queues")
		if qs == nil {
			continue
		}
		for _, q := range qs.Children {
			ql := doc.NodeLink("model", "cores", c.Name, "dma_queues", q.Key)
			f.links[linkQueues+ql] = ql
			for _, b := range q.Children {
				bl := doc.NodeLink("model", "cores", c.Name, "dma_queues", q.Key, b.Key)
				f.links[linkQueues+bl] = bl
			}
		}
	}
}

// dmaFields adds to an instruction's resolved field the queue and the block it triggers, each
// a link; a block the evidence does not name is said to be unknown (AttrBlock "").
func (f *File) dmaFields(ps *ProgramStream, r Resolved, j *doc.Node) {
	if r.Queue == "" {
		return
	}
	qp := []string{"model", "cores", ps.Core.Name, "dma_queues", r.Queue}
	q := j.Field("queue", r.Queue, nil)
	q.SetAttr(AttrQueue, r.Queue)
	if l := f.links[linkQueues+doc.NodeLink(qp...)]; l != "" {
		q.Link = l
		q.Detail = "its row of " + ps.Core.Name + "'s DMA queues (def.json dma_queue)"
	}
	if r.block == nil {
		b := j.Field("block", "unknown", nil)
		b.SetAttr(AttrQueue, r.Queue).SetAttr(AttrBlock, "")
		b.Detail = "the word names no engine JSON block: its descriptor is built at run time from the word's own addresses"
		return
	}
	b := j.Field("block", fmt.Sprintf("block %d (%s)", r.block.ID, plural(len(r.block.Descs), "descriptor")), nil)
	b.SetAttr(AttrQueue, r.Queue).SetAttr(AttrBlock, strconv.FormatInt(r.block.ID, 10))
	b.Span = r.block.Span
	if l, ok := f.dmaLink(ps, r); ok {
		b.Link = l
	}
	b.Detail = "dma block " + strconv.FormatInt(r.block.ID, 10) + " of " + ps.Engine.JSONPath
}

// ioVarLink is the node of the def.json var an input or output of neff.json names (the var of
// that name, of type input or output, in the first core that has one): the var's node holds
// its def.json entry (Link) and the instructions that name it. "" when no core has it.
func ioVarLink(m *manifest.Model, name string, find func(...string) *doc.Node) string {
	for _, c := range m.Cores {
		v := c.Var(name)
		if v == nil || v.VarAttrs == nil || (v.Type != "input" && v.Type != "output") {
			continue
		}
		vars := find("model", "cores", c.Name, "vars")
		if vars == nil {
			continue
		}
		if vars.Child(name) != nil || vars.Attrs[doc.AttrMore] != "" {
			// Held, or built on demand under the stub: the page fetches the path either way.
			return doc.NodeLink("model", "cores", c.Name, "vars", name)
		}
	}
	return ""
}
