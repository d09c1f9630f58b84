package inspect

import (
	"fmt"
	"math"
	"math/bits"
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

// The budget's finding codes, one row per kind of finding Memory can raise.
const (
	// MemoryOverflow: a sum of sizes passed 2⁶³−1 B; the figure is shown as "more than 2⁶³ B".
	MemoryOverflow = string(doc.CodeMemoryOverflow)
)

// Bounds: how a figure relates to what the runtime allocates.
const (
	// BoundDeclared is worked out from the sizes the file declares, as the runtime counts them
	// (a runtime record matched it for constants and scratchpad, neff.md §8.2).
	BoundDeclared = "declared"
	// BoundAtLeast is a lower bound: the runtime adds what the file does not hold.
	BoundAtLeast = "at least"
)

// MemoryBudget is a static estimate of the device memory one loaded NEFF takes, in the
// runtime's own categories (the Neuron docs' "Neuron device memory" page, as neuron-top shows
// them): tensors once per NEFF, and per core model code, model constants, scratchpad and dma
// rings. Not estimated: the runtime's micro-code overhead (96 MB per physical core, counted
// under model code by the runtime), profile buffers and collectives. Every sum saturates at
// math.MaxInt64 with Overflow set instead of wrapping. Method: unknowns inspect.memory-*.
type MemoryBudget struct {
	// NEFF holds what the runtime allocates once per NEFF, not per core: the I/O tensors. Its
	// Core is MemoryGroupNEFF.
	NEFF  *CoreMemory   `json:"neff"`
	Cores []*CoreMemory `json:"cores"`
	// Total sums NEFF's and every core's Total; AtLeast when any figure is a lower bound.
	Total    int64  `json:"total"`
	AtLeast  bool   `json:"at_least"`
	Overflow bool   `json:"overflow,omitempty"`
	Method   string `json:"method"`
	// Findings are about the sizes the file declares (codes: MemoryOverflow).
	Findings []MemoryFinding `json:"findings,omitempty"`
}

// MemoryFinding is one finding of the budget, with its stable code.
type MemoryFinding struct {
	Code     string    `json:"code"`
	Severity string    `json:"severity"`
	Message  string    `json:"message"`
	Span     *doc.Span `json:"span,omitempty"`
}

// CoreMemory is one core's figures (or the per-NEFF ones), in bytes. Each Item names the vars
// or members it sums.
type CoreMemory struct {
	Core     string        `json:"core"`
	Items    []*MemoryItem `json:"items"`
	Total    int64         `json:"total"`
	AtLeast  bool          `json:"at_least"`
	Overflow bool          `json:"overflow,omitempty"`
}

// MemoryItem is one row of the table.
type MemoryItem struct {
	// Category is the runtime's name: model code, model constants, scratchpad, tensors, dma rings.
	Category string `json:"category"`
	// Bytes is math.MaxInt64 when Overflow: the sum passed it.
	Bytes    int64 `json:"bytes"`
	Overflow bool  `json:"overflow,omitempty"`
	// Bound is BoundDeclared or BoundAtLeast; Method says why.
	Bound string `json:"bound"`
	// Count is how many things were summed (vars, streams, descriptors).
	Count  int64  `json:"count"`
	Method string `json:"method"`
	// Parts are the things summed: var names or member paths, with where they are written.
	// An item with Sub has its parts there.
	Parts []MemoryPart `json:"parts"`
	// Sub splits the figure where its parts differ in what is known of them (model code).
	Sub []*MemoryItem `json:"sub,omitempty"`
}

// MemoryPart is one summed thing.
type MemoryPart struct {
	Name  string    `json:"name"`
	Bytes int64     `json:"bytes"`
	Span  *doc.Span `json:"span,omitempty"`
}

// maxMemoryParts bounds the parts listed per item (the sum stays exact).
const maxMemoryParts = 200

// addBytes is a + b for sizes ≥ 0, saturating at math.MaxInt64; over reports that it did.
func addBytes(a, b int64) (sum int64, over bool) {
	s, carry := bits.Add64(uint64(max(a, 0)), uint64(max(b, 0)), 0)
	if carry != 0 || s > math.MaxInt64 {
		return math.MaxInt64, true
	}
	return int64(s), false
}

// mulBytes is a × b for counts ≥ 0, saturating like addBytes.
func mulBytes(a, b int64) (prod int64, over bool) {
	hi, lo := bits.Mul64(uint64(max(a, 0)), uint64(max(b, 0)))
	if hi != 0 || lo > math.MaxInt64 {
		return math.MaxInt64, true
	}
	return int64(lo), false
}

// ringDescriptors is how many ring descriptors one static transfer takes: one per row of each
// side (every dimension but the innermost) plus the semaphore descriptors of both sides.
func ringDescriptors(d *manifest.DMADesc) (n int64, over bool) {
	rows := func(s []int64) int64 {
		p := int64(1)
		if len(s) > 1 {
			for _, x := range s[1:] {
				var o bool
				p, o = mulBytes(p, x)
				over = over || o
			}
		}
		return p
	}
	for _, x := range []int64{rows(d.FromSizes), DMASemaphoreDescriptors, rows(d.ToSizes), DMASemaphoreDescriptors} {
		var o bool
		n, o = addBytes(n, x)
		over = over || o
	}
	return n, over
}

const memoryMethod = "static estimate from def.json vars, the .bin members and the engine JSONs' DMA blocks, in the runtime's categories: " +
	"tensors once per NEFF, the rest per core; not included: the runtime's 96 MB micro-code overhead per physical core, profile buffers, collectives; " +
	"a figure marked \"at least\" leaves out what the runtime adds and the file does not hold (unknowns inspect.memory-*)"

// Memory estimates a NEFF's device memory. It returns nil when the file has no program.
func Memory(f *File) *MemoryBudget {
	if f.Program == nil {
		return nil
	}
	mb := &MemoryBudget{Method: memoryMethod}
	var overAt []string
	mb.NEFF = &CoreMemory{Core: MemoryGroupNEFF, Items: []*MemoryItem{ioTensors(f.Program.Model.Cores)}}
	mb.NEFF.sum(&overAt)
	for _, c := range f.Program.Model.Cores {
		cm := &CoreMemory{Core: c.Name}
		consts := &MemoryItem{Category: "model constants", Bound: BoundDeclared, Method: "sizes of the def.json vars of type file (weights and constants loaded with the NEFF), per core: a runtime record counts them on each core (neff.md §8.2)"}
		for i := range c.Vars {
			if v := &c.Vars[i]; v.Type == "file" {
				consts.add(v.Name, max(v.Size, 0), v.Entry(c.DefPath))
			}
		}
		cm.Items = []*MemoryItem{modelCode(f, c), consts, scratchpad(c), dmaRings(c)}
		cm.sum(&overAt)
		mb.Cores = append(mb.Cores, cm)
	}
	for _, cm := range append([]*CoreMemory{mb.NEFF}, mb.Cores...) {
		var o bool
		mb.Total, o = addBytes(mb.Total, cm.Total)
		mb.Overflow = mb.Overflow || o || cm.Overflow
		mb.AtLeast = mb.AtLeast || cm.AtLeast
	}
	if mb.Overflow {
		where := "the total"
		if len(overAt) > 0 {
			where = strings.Join(overAt[:min(len(overAt), 4)], ", ")
			if len(overAt) > 4 {
				where += fmt.Sprintf(" and %d more", len(overAt)-4)
			}
		}
		mb.Findings = append(mb.Findings, MemoryFinding{Code: MemoryOverflow, Severity: doc.Warning,
			Message: "the memory budget passes 2⁶³ B (" + where + "): the sizes def.json or the DMA blocks declare are beyond any device; the figures show \"more than 2⁶³ B\""})
	}
	return mb
}

// sum sets the group's Total, Overflow and AtLeast from its items, and appends to overAt the
// items whose sum overflowed.
func (cm *CoreMemory) sum(overAt *[]string) {
	before := len(*overAt)
	defer func() {
		if cm.Overflow && len(*overAt) == before {
			*overAt = append(*overAt, cm.Core+" total")
		}
	}()
	for _, it := range cm.Items {
		var o bool
		cm.Total, o = addBytes(cm.Total, it.Bytes)
		cm.Overflow = cm.Overflow || o || it.Overflow
		cm.AtLeast = cm.AtLeast || it.Bound == BoundAtLeast
		if it.Overflow {
			*overAt = append(*overAt, cm.Core+" "+it.Category)
		}
	}
}

// ioTensors is the I/O vars counted once per NEFF: every core's def.json lists them, and the
// runtime allocates them once (a runtime record of a 2-core NEFF: tensors on sg00, 0 on sg01).
// A var is known by its name; if cores disagree on its size, the largest counts.
func ioTensors(cores []*manifest.Core) *MemoryItem {
	it := &MemoryItem{Category: "tensors", Bound: BoundDeclared, Method: "sizes of the def.json input and output vars, each name once per NEFF: every core's def.json lists them but the runtime allocates them once " +
		"(a runtime record of a 2-core Trn2 NEFF shows them under sg00 and 0 B under sg01, neff.md §8.2); the application allocates them, not the NEFF"}
	type tensor struct {
		part    MemoryPart
		differs bool
	}
	var list []tensor
	byName := map[string]int{}
	for _, c := range cores {
		for i := range c.Vars {
			v := &c.Vars[i]
			if v.Type != "input" && v.Type != "output" {
				continue
			}
			size := max(v.Size, 0)
			j, ok := byName[v.Name]
			if !ok {
				byName[v.Name] = len(list)
				list = append(list, tensor{part: MemoryPart{Name: v.Name, Bytes: size, Span: v.Entry(c.DefPath)}})
				continue
			}
			if t := &list[j]; size != t.part.Bytes {
				t.differs = true
				if size > t.part.Bytes {
					t.part = MemoryPart{Name: v.Name, Bytes: size, Span: v.Entry(c.DefPath)}
				}
			}
		}
	}
	for _, t := range list {
		if t.differs {
			t.part.Name += " (the cores' def.json differ on its size: the largest counted)"
		}
		it.add(t.part.Name, t.part.Bytes, t.part.Span)
	}
	if it.Overflow {
		it.Bytes = math.MaxInt64
	}
	return it
}

// modelCode is the code the runtime copies to the device that the file holds, in three parts
// (Sub): each engine's stream, the activation tables of the sets the Activation engine lists,
// and the DVE tables. A lower bound: the runtime adds a preamble and postamble to every stream.
func modelCode(f *File, c *manifest.Core) *MemoryItem {
	streams := &MemoryItem{Category: "engine streams", Bound: BoundAtLeast, Method: "at least: each engine's instruction stream as the file holds it; the runtime adds a preamble and postamble to every stream at load, " +
		"which the file does not hold (a runtime record: 77–104 instruction words per engine, neff.md §8.2; unknowns inspect.memory-code)"}
	act := &MemoryItem{Category: "activation tables", Bound: BoundDeclared, Method: "the bucket and control tables of the activation sets the Activation engine lists, as the file holds them: what the runtime's activation-table region holds; " +
		"how the runtime lays them out there is not known (a runtime record: 83,968 B on sg00 of a NEFF not among these files; unknowns inspect.memory-code)"}
	dve := &MemoryItem{Category: "DVE tables", Bound: BoundDeclared, Method: "the DVE tables the DVE engine lists, as the file holds them; the runtime record does not say under which category the runtime counts them (unknowns inspect.memory-code)"}
	for _, e := range c.Engines {
		if e.StreamPath != "" && e.StreamSize >= 0 {
			streams.add(e.StreamPath, e.StreamSize, &doc.Span{Source: e.StreamPath, Length: e.StreamSize})
		}
	}
	member := func(it *MemoryItem, path string) {
		if path == "" {
			return
		}
		if m := f.Archive.Member(path); m != nil {
			it.add(path, m.Size, &doc.Span{Source: path, Length: m.Size})
		}
	}
	for _, e := range c.Engines {
		for _, s := range e.ActivationSets {
			member(act, s.BktPath)
			member(act, s.CtrlPath)
		}
		for _, t := range e.DVETables {
			member(dve, t.Path)
		}
	}
	it := &MemoryItem{Category: "model code", Bound: BoundAtLeast, Sub: []*MemoryItem{streams, act, dve}, Method: "at least: the engine streams, the activation tables and the DVE tables as the file holds them; " +
		"the runtime adds a preamble and postamble to every stream, which the file does not hold (unknowns inspect.memory-code)"}
	for _, sub := range it.Sub {
		var o bool
		it.Bytes, o = addBytes(it.Bytes, sub.Bytes)
		it.Overflow = it.Overflow || o || sub.Overflow
		it.Count += sub.Count
	}
	if it.Overflow {
		it.Bytes = math.MaxInt64
	}
	return it
}

// dmaRings counts the ring descriptors of the static transfers: a lower bound of what the
// runtime allocates as rings (see its Method).
func dmaRings(c *manifest.Core) *MemoryItem {
	it := &MemoryItem{Category: "dma rings", Bound: BoundAtLeast, Method: fmt.Sprintf("at least: %d B per descriptor of the engine JSONs' dma blocks, each transfer taking product(from_sizes[1:]) + product(to_sizes[1:]) descriptors plus %d semaphore descriptors per side; "+
		"dynamic (DGE) DMA builds its descriptors at run time. How the runtime sizes its rings is not established: a runtime record shows io rings 65,024 B and runtime rings 32,768 B on sg00 "+
		"where this count gave 13,600 B, and 30,720 B of runtime rings on a core with no DMA block (neff.md §8.2; unknowns inspect.memory-dma-rings)", DMADescriptorBytes, DMASemaphoreDescriptors)}
	io := map[string]bool{}
	for i := range c.Vars {
		if v := &c.Vars[i]; v.Type == "input" || v.Type == "output" {
			io[v.Name] = true
		}
	}
	var sum int64
	var over bool
	for _, e := range c.Engines {
		var ioN, spillN int64
		for _, b := range e.DMABlocks {
			for _, d := range b.Descs {
				n, o := ringDescriptors(d)
				over = over || o
				if io[d.From] || io[d.To] {
					ioN, o = addBytes(ioN, n)
				} else {
					spillN, o = addBytes(spillN, n)
				}
				over = over || o
			}
		}
		n, o := addBytes(ioN, spillN)
		over = over || o
		if n == 0 {
			continue
		}
		bytes, o := mulBytes(n, DMADescriptorBytes)
		over = over || o
		if len(it.Parts) < maxMemoryParts {
			it.Parts = append(it.Parts, MemoryPart{Name: fmt.Sprintf("%s: %d descriptors (I/O %d, spill %d)", e.JSONPath, n, ioN, spillN), Bytes: bytes, Span: e.Span})
		}
		it.Count, o = addBytes(it.Count, n)
		over = over || o
		sum, o = addBytes(sum, bytes)
		over = over || o
	}
	it.Bytes, it.Overflow = sum, over
	if over {
		it.Bytes = math.MaxInt64
	}
	return it
}

func (it *MemoryItem) add(name string, n int64, span *doc.Span) {
	var o bool
	it.Bytes, o = addBytes(it.Bytes, n)
	it.Overflow = it.Overflow || o
	it.Count++
	if len(it.Parts) < maxMemoryParts {
		it.Parts = append(it.Parts, MemoryPart{Name: name, Bytes: n, Span: span})
	}
}

// scratchpad is the high-water mark of the virtual vars, max(backing_variable_off + size), per
// backing area (fabric_path or backing_buf, "main" when neither), summed over the areas. The
// offset is not in manifest.Var, read from each var's backing_variable_off and area (manifest.Var).
func scratchpad(c *manifest.Core) *MemoryItem {
	it := &MemoryItem{Category: "scratchpad", Bound: BoundDeclared, Method: "max(backing_variable_off + size) over the def.json vars of type virtual, per backing area, summed; " +
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
		end, o := addBytes(off, size)
		it.Overflow = it.Overflow || o
		if top == nil || end > top.Bytes {
			tops[area] = &MemoryPart{Name: fmt.Sprintf("%s: %s (offset %d + size %d)", area, name, off, size), Bytes: end, Span: &doc.Span{Source: c.DefPath, Offset: int64(v.ValueOff), Length: int64(v.End - v.ValueOff)}}
		}
	}
	for _, a := range areas {
		var o bool
		it.Bytes, o = addBytes(it.Bytes, tops[a].Bytes)
		it.Overflow = it.Overflow || o
		if len(it.Parts) < maxMemoryParts {
			it.Parts = append(it.Parts, *tops[a])
		}
	}
	if it.Overflow {
		it.Bytes = math.MaxInt64
	}
	return it
}

// MemoryFigure is how a figure reads, given how bytes print (human): "more than 2⁶³ B" past
// int64, "at least …" for a lower bound.
func MemoryFigure(bytes int64, overflow, atLeast bool, human func(int64) string) string {
	switch {
	case overflow:
		return "more than 2⁶³ B"
	case atLeast:
		return "at least " + human(bytes)
	}
	return human(bytes)
}

// MemoryGroupNEFF is the label of the memory node's group of per-NEFF figures (beside the
// cores' groups).
const MemoryGroupNEFF = "per NEFF"

// MemoryNode renders the budget for the page: a group for the per-NEFF figures and one per
// core, each with the runtime-style table, and one child per figure whose children are the
// vars it sums (each with its span). Every figure node carries AttrBytes.
func MemoryNode(mb *MemoryBudget) *doc.Node {
	n := &doc.Node{Kind: doc.KindMemory, Label: "memory", Value: MemoryFigure(mb.Total, mb.Overflow, mb.AtLeast, humanBytes) + " (static estimate)", Detail: mb.Method}
	for _, fd := range mb.Findings {
		n.Findings = append(n.Findings, doc.Finding{Code: doc.Code(fd.Code), Severity: fd.Severity, Message: fd.Message, Span: fd.Span})
	}
	group := func(label string, items []*MemoryItem, total int64, over, atLeast bool) {
		cn := n.Add(&doc.Node{Kind: doc.KindMemoryCore, Label: label, Value: MemoryFigure(total, over, atLeast, humanBytes)})
		cn.Table = &doc.Table{Columns: []string{"category", "bytes", "bound", "count", "method"}}
		for _, it := range items {
			exact := itoa(it.Bytes)
			if it.Overflow {
				exact = "more than 2⁶³"
			}
			cn.Table.Rows = append(cn.Table.Rows, []string{it.Category, exact, it.Bound, itoa(it.Count), it.Method})
			in := itemNode(cn, it)
			for _, sub := range it.Sub {
				itemNode(in, sub)
			}
		}
	}
	for _, c := range append([]*CoreMemory{mb.NEFF}, mb.Cores...) {
		group(c.Core, c.Items, c.Total, c.Overflow, c.AtLeast)
	}
	return n
}

// itemNode adds a figure's node to parent: its value, AttrBytes and the parts it sums.
func itemNode(parent *doc.Node, it *MemoryItem) *doc.Node {
	in := parent.Add(&doc.Node{Kind: doc.KindMemoryItem, Label: it.Category, Value: MemoryFigure(it.Bytes, it.Overflow, it.Bound == BoundAtLeast, humanBytes), Detail: it.Method})
	in.SetAttr(AttrBytes, itoa(it.Bytes))
	for _, p := range it.Parts {
		in.Add(&doc.Node{Kind: doc.KindField, Label: p.Name, Value: itoa(p.Bytes), Span: p.Span})
	}
	return in
}

var memoryUnknowns = []doc.Unknown{
	{ID: "inspect.memory-code", Spec: "neff.md §4.1, §8.2 (memory as the runtime counts it)",
		Question:   "How large the preamble and postamble are that the runtime adds to each engine's stream, how it lays out the activation-table region, and under which category it counts the DVE tables.",
		Assumption: "Not in the file, so model code is a lower bound: the streams, the activation sets' bucket and control tables and the DVE tables as the file holds them, all under model code. One runtime record of a 2-core Trn2 NEFF adds 77–104 instruction words per engine and an activation-table region of 83,968 B on sg00; that NEFF is not among the shared files (attn_v6, whose two sets hold 83,456 B of bucket and 96,416 B of bucket and control tables, is of the same order).",
		Confidence: "medium"},
	{ID: "inspect.memory-dma-rings", Spec: "neff.md §8.2 (memory as the runtime counts it)",
		Question:   "How the runtime sizes its DMA rings: io rings per NEFF and runtime rings per core.",
		Assumption: "Unknown; the budget shows the static descriptors' bytes as a lower bound. One runtime record: io rings 65,024 B and runtime rings 32,768 B on sg00, runtime rings 30,720 B on sg01, a core with no DMA block, where this count gave 13,600 B for the NEFF.",
		Confidence: "low"},
	{ID: "inspect.memory-tensors", Spec: "neff.md §8.2 (memory as the runtime counts it)",
		Question:   "On which core the runtime accounts a multi-core NEFF's I/O tensors.",
		Assumption: "Once per NEFF, in a row of its own: one runtime record of a 2-core Trn2 NEFF shows them under sg00 and 0 B under sg01, though both def.json list them; one record does not settle where other NEFFs put them.",
		Confidence: "medium"},
}
