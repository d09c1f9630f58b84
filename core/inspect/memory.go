package inspect

import (
	"fmt"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
	"github.com/neffscope/neffscope/core/manifest"
)

// DMADescriptorBytes is the size of one DMA descriptor in a ring.
const DMADescriptorBytes = 16

// MemoryBudget is a static estimate of the device memory one loaded NEFF takes, per core, in
// the runtime's own categories (the Neuron docs' "Neuron device memory" page, as neuron-top
// shows them): tensors, model constants, model code, scratchpad, dma rings. Not estimated: the
// runtime's micro-code overhead (96 MB per physical core, counted under model code by the
// runtime), profile buffers and collectives. Method: unknowns inspect.memory-budget.
type MemoryBudget struct {
	Cores []*CoreMemory `json:"cores"`
	// Total sums every core's Total.
	Total  int64  `json:"total"`
	Method string `json:"method"`
}

// CoreMemory is one core's figures, in bytes. Each Item names the vars or members it sums.
type CoreMemory struct {
	Core  string        `json:"core"`
	Items []*MemoryItem `json:"items"`
	Total int64         `json:"total"`
}

// MemoryItem is one row of the table.
type MemoryItem struct {
	// Category is the runtime's name: model code, model constants, scratchpad, tensors, dma rings.
	Category string `json:"category"`
	Bytes    int64  `json:"bytes"`
	// Count is how many things were summed (vars, streams, descriptors).
	Count  int64  `json:"count"`
	Method string `json:"method"`
	// Parts are the things summed: var names or member paths, with where they are written.
	Parts []MemoryPart `json:"parts"`
}

// MemoryPart is one summed thing.
type MemoryPart struct {
	Name  string    `json:"name"`
	Bytes int64     `json:"bytes"`
	Span  *doc.Span `json:"span,omitempty"`
}

// maxMemoryParts bounds the parts listed per item (the sum stays exact).
const maxMemoryParts = 200

// Memory estimates a NEFF's device memory. It returns nil when the file has no program.
func Memory(f *File) *MemoryBudget {
	if f.Program == nil {
		return nil
	}
	mb := &MemoryBudget{Method: "static estimate from def.json vars, the engine streams and the engine JSONs' DMA blocks, in the runtime's categories; not included: the runtime's 96 MB micro-code overhead per physical core, profile buffers, collectives (unknowns inspect.memory-budget)"}
	for _, c := range f.Program.Model.Cores {
		cm := &CoreMemory{Core: c.Name}
		code := &MemoryItem{Category: "model code", Method: "bytes of the core's engine instruction streams"}
		for _, e := range c.Engines {
			if e.StreamPath != "" && e.StreamSize > 0 {
				code.add(e.StreamPath, e.StreamSize, &doc.Span{Source: e.StreamPath, Length: e.StreamSize})
			}
		}
		consts := &MemoryItem{Category: "model constants", Method: "sizes of the def.json vars of type file (weights and constants loaded with the NEFF)"}
		tensors := &MemoryItem{Category: "tensors", Method: "sizes of the def.json input and output vars (the I/O tensors the application allocates)"}
		for _, v := range c.Vars {
			switch v.Type {
			case "file":
				consts.add(v.Name, max(v.Size, 0), v.Span)
			case "input", "output":
				tensors.add(v.Name, max(v.Size, 0), v.Span)
			}
		}
		scratch := scratchpad(f, c)
		rings := &MemoryItem{Category: "dma rings", Method: fmt.Sprintf("%d B per static DMA descriptor, plus one %d-B semaphore descriptor per block that signals a semaphore", DMADescriptorBytes, DMADescriptorBytes)}
		for _, e := range c.Engines {
			var n int64
			for _, b := range e.DMABlocks {
				n += int64(len(b.Descs))
				if b.Semaphore >= 0 {
					n++
				}
			}
			if n > 0 {
				rings.add(fmt.Sprintf("%s: %d descriptors", e.JSONPath, n), n*DMADescriptorBytes, e.Span)
				rings.Count += n - 1 // add counted the engine once; count descriptors
			}
		}
		cm.Items = []*MemoryItem{code, consts, scratch, tensors, rings}
		for _, it := range cm.Items {
			cm.Total += it.Bytes
		}
		mb.Cores = append(mb.Cores, cm)
		mb.Total += cm.Total
	}
	return mb
}

func (it *MemoryItem) add(name string, n int64, span *doc.Span) {
	it.Bytes += n
	it.Count++
	if len(it.Parts) < maxMemoryParts {
		it.Parts = append(it.Parts, MemoryPart{Name: name, Bytes: n, Span: span})
	}
}

// scratchpad is the high-water mark of the virtual vars: max(backing_variable_off + size). The
// offset is not in manifest.Var, so def.json's var object is read again here.
func scratchpad(f *File, c *manifest.Core) *MemoryItem {
	it := &MemoryItem{Category: "scratchpad", Method: "max(backing_variable_off + size) over def.json vars of type virtual"}
	m := f.Archive.Member(c.DefPath)
	if m == nil || m.Data == nil {
		return it
	}
	root, err := jsonspan.Parse(m.Data)
	if err != nil {
		return it
	}
	vars := root.Get("var")
	if vars == nil {
		return it
	}
	var top *MemoryPart
	for i, name := range vars.Keys {
		v := vars.Items[i]
		if t, _ := v.Get("type").Text(); t != "virtual" {
			continue
		}
		off, ok1 := v.Get("backing_variable_off").Int()
		size, ok2 := v.Get("size").Int()
		if !ok1 || !ok2 || off < 0 || size < 0 {
			continue
		}
		it.Count++
		if end := off + size; top == nil || end > top.Bytes {
			top = &MemoryPart{Name: fmt.Sprintf("%s (offset %d + size %d)", name, off, size), Bytes: end, Span: &doc.Span{Source: m.Path, Offset: v.Start, Length: v.End - v.Start}}
		}
	}
	if top != nil {
		it.Bytes = top.Bytes
		it.Parts = []MemoryPart{*top}
	}
	return it
}

// MemoryNode renders the budget for the page: one child per core with the runtime-style table,
// and one child per figure whose children are the vars it sums (each with its span).
func MemoryNode(mb *MemoryBudget) *doc.Node {
	n := &doc.Node{Kind: "memory", Label: "memory", Value: humanBytes(mb.Total) + " (static estimate)", Detail: mb.Method}
	for _, c := range mb.Cores {
		cn := n.Add(&doc.Node{Kind: "memory-core", Label: c.Core, Value: humanBytes(c.Total)})
		cn.Table = &doc.Table{Columns: []string{"category", "bytes", "size", "count", "method"}}
		for _, it := range c.Items {
			cn.Table.Rows = append(cn.Table.Rows, []string{it.Category, itoa(it.Bytes), humanBytes(it.Bytes), itoa(it.Count), it.Method})
			in := cn.Add(&doc.Node{Kind: "memory-item", Label: it.Category, Value: humanBytes(it.Bytes), Detail: it.Method})
			for _, p := range it.Parts {
				in.Add(&doc.Node{Kind: "field", Label: p.Name, Value: itoa(p.Bytes), Span: p.Span})
			}
		}
	}
	return n
}
