package inspect

import (
	"fmt"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/manifest"
)

// A DMA trigger's links (issue 29 item 6): a core's DMA queues node gets one child per queue
// (its def.json entry, the row of the queue table), and each queue one child per engine JSON
// block that names it (the block's bytes). The listing's DMA trigger rows and an instruction's
// "resolved" field lead to the block when Resolve knows it, else to the queue.

// Attr keys of a queue's and a block's node, and of an instruction's resolved queue/block field.
const (
	AttrQueue    = "queue"     // the DMA queue's name
	AttrQueueRow = "queue_row" // the queue's row in the core's DMA queues table (0-based)
	AttrBlock    = "block"     // the block's id ("" when the trigger's block is not known); AttrEngine: its engine
)

// blockNodesHeld bounds the block nodes of one core's queues (a block's table is its
// descriptors, which the engine JSON's tree already shows).
const blockNodesHeld = 4000

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
		held := 0
		for _, e := range c.Engines {
			for _, b := range e.DMABlocks {
				qn := byQueue[b.Queue]
				if qn == nil || held == blockNodesHeld {
					continue
				}
				held++
				bn := &doc.Node{Kind: doc.KindField, Key: blockNodeKey(e.Name, b.ID), Label: fmt.Sprintf("block %d (%s)", b.ID, e.Name), Span: b.Span}
				bn.SetAttr(AttrQueue, b.Queue).SetAttr(AttrBlock, strconv.FormatInt(b.ID, 10)).SetAttr(AttrEngine, e.Name)
				bn.Value = plural(len(b.Descs), "descriptor")
				bn.Detail = "dma block " + strconv.FormatInt(b.ID, 10) + " of " + e.JSONPath + " on queue " + b.Queue
				qn.Add(bn)
			}
		}
	}
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
