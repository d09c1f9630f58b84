package inspect

import (
	"fmt"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/manifest"
)

// DMADescriptorBytes is the size of one DMA descriptor in a ring; DMASemaphoreDescriptors the
// descriptors each side of a transfer adds for its semaphore update (the counts neuronx-cc's
// own artifact analyser uses, per the public estimator cited in unknowns inspect.memory-budget).
const (
	DMADescriptorBytes      = 16
	DMASemaphoreDescriptors = 16
)

// ringDescriptors is how many ring descriptors one static transfer takes: one per row of each
// side (every dimension but the innermost) plus the semaphore descriptors of both sides.
func ringDescriptors(d *manifest.DMADesc) int64 {
	prod := func(s []int64) int64 {
		n := int64(1)
		if len(s) > 1 {
			for _, x := range s[1:] {
				if x > 0 && n <= 1<<40/x {
					n *= x
				}
			}
		}
		return n
	}
	return prod(d.FromSizes) + DMASemaphoreDescriptors + prod(d.ToSizes) + DMASemaphoreDescriptors
}

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
	mb := &MemoryBudget{Method: "static estimate from def.json vars, the .bin members and the engine JSONs' DMA blocks, in the runtime's categories; not included: the runtime's 96 MB micro-code overhead per physical core, profile buffers, collectives (unknowns inspect.memory-budget)"}
	for _, c := range f.Program.Model.Cores {
		cm := &CoreMemory{Core: c.Name}
		code := &MemoryItem{Category: "model code", Method: "bytes of every .bin member under the core's directory: engine instruction streams, activation and DVE tables, all copied to the device at load"}
		for _, m := range f.Archive.Members {
			if strings.HasPrefix(m.Path, c.Dir+"/") && strings.HasSuffix(m.Path, ".bin") {
				code.add(m.Path, m.Size, &doc.Span{Source: m.Path, Length: m.Size})
			}
		}
		consts := &MemoryItem{Category: "model constants", Method: "sizes of the def.json vars of type file (weights and constants loaded with the NEFF)"}
		tensors := &MemoryItem{Category: "tensors", Method: "sizes of the def.json input and output vars (the I/O tensors the application allocates, not the NEFF)"}
		io := map[string]bool{}
		for i := range c.Vars {
			switch v := &c.Vars[i]; v.Type {
			case "file":
				consts.add(v.Name, max(v.Size, 0), v.Entry(c.DefPath))
			case "input", "output":
				tensors.add(v.Name, max(v.Size, 0), v.Entry(c.DefPath))
				io[v.Name] = true
			}
		}
		scratch := scratchpad(f, c)
		rings := &MemoryItem{Category: "dma rings", Method: fmt.Sprintf("%d B per descriptor of the engine JSONs' dma blocks: each transfer takes product(from_sizes[1:]) + product(to_sizes[1:]) descriptors plus %d semaphore descriptors per side; "+
			"dynamic (DGE) DMA builds its descriptors at run time and takes no ring", DMADescriptorBytes, DMASemaphoreDescriptors)}
		for _, e := range c.Engines {
			var ioN, spillN int64
			for _, b := range e.DMABlocks {
				for _, d := range b.Descs {
					n := ringDescriptors(d)
					if io[d.From] || io[d.To] {
						ioN += n
					} else {
						spillN += n
					}
				}
			}
			if n := ioN + spillN; n > 0 {
				rings.add(fmt.Sprintf("%s: %d descriptors (I/O %d, spill %d)", e.JSONPath, n, ioN, spillN), n*DMADescriptorBytes, e.Span)
				rings.Count += n - 1 // add counted the engine once; Count is descriptors
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

// scratchpad is the high-water mark of the virtual vars, max(backing_variable_off + size), per
// backing area (fabric_path or backing_buf, "main" when neither), summed over the areas. The
// offset is not in manifest.Var, read from each var's backing_variable_off and area (manifest.Var).
func scratchpad(f *File, c *manifest.Core) *MemoryItem {
	it := &MemoryItem{Category: "scratchpad", Method: "max(backing_variable_off + size) over the def.json vars of type virtual, per backing area, summed; " +
		"the runtime holds one shared scratchpad per logical core, the largest any loaded NEFF needs, rounded up to its page (64 MiB by default)"}
	tops := map[string]*MemoryPart{}
	var areas []string
	for i := range c.Vars {
		v := &c.Vars[i]
		if v.Type != "virtual" {
			continue
		}
		name, off, size := v.Name, v.Backing, v.Size
		if off < 0 || size < 0 {
			continue
		}
		area := v.Area
		if area == "" {
			area = "main"
		}
		it.Count++
		top := tops[area]
		if top == nil {
			areas = append(areas, area)
		}
		if end := off + size; top == nil || end > top.Bytes {
			tops[area] = &MemoryPart{Name: fmt.Sprintf("%s: %s (offset %d + size %d)", area, name, off, size), Bytes: end, Span: &doc.Span{Source: c.DefPath, Offset: int64(v.ValueOff), Length: int64(v.End - v.ValueOff)}}
		}
	}
	for _, a := range areas {
		it.Bytes += tops[a].Bytes
		it.Parts = append(it.Parts, *tops[a])
	}
	return it
}

// MemoryNode renders the budget for the page: one child per core with the runtime-style table,
// and one child per figure whose children are the vars it sums (each with its span).
func MemoryNode(mb *MemoryBudget) *doc.Node {
	n := &doc.Node{Kind: doc.KindMemory, Label: "memory", Value: humanBytes(mb.Total) + " (static estimate)", Detail: mb.Method}
	for _, c := range mb.Cores {
		cn := n.Add(&doc.Node{Kind: doc.KindMemoryCore, Label: c.Core, Value: humanBytes(c.Total)})
		cn.Table = &doc.Table{Columns: []string{"category", "bytes", "size", "count", "method"}}
		for _, it := range c.Items {
			cn.Table.Rows = append(cn.Table.Rows, []string{it.Category, itoa(it.Bytes), humanBytes(it.Bytes), itoa(it.Count), it.Method})
			in := cn.Add(&doc.Node{Kind: doc.KindMemoryItem, Label: it.Category, Value: humanBytes(it.Bytes), Detail: it.Method})
			for _, p := range it.Parts {
				in.Add(&doc.Node{Kind: doc.KindField, Label: p.Name, Value: itoa(p.Bytes), Span: p.Span})
			}
		}
	}
	return n
}
