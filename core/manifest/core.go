package manifest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// WordSize is the instruction word of every modern engine stream (spec neff.md §4.1); libnrt
// counts size>>6 instructions.
const WordSize = 64

// varTypesNeedingSize are the var types libnrt requires a size for (spec neff.md §3.4).
var varTypesNeedingSize = map[string]bool{"input": true, "output": true, "tmp-buf": true, "virtual": true}

// core reads one sgNN/def.json and its engines.
func (r *resolver) core(c *Core) {
	c.queueByName = map[string]*Queue{}
	d := r.load(c.DefPath, "def.json")
	if d == nil || d.v == nil {
		return
	}
	top := d.v
	if top.Kind != jsonspan.Object {
		d.errorf(doc.CodeManifestWrongType, top, "%s is a JSON %s, not an object", c.DefPath, top.Kind)
		return
	}
	r.vars(c, d)
	r.queues(c, d)
	c.Features = strs(top.Get("neff_features"))
	c.RankWorldSize = intOr(top.Get("#rank_world_size"), 0)
	c.CCStreams = intOr(top.Get("cc_streams").Get("num_streams"), 0)
	if rg := top.Get("replica_groups"); rg != nil {
		for _, g := range items(rg) {
			var grp [][]int64
			for _, sub := range items(g) {
				ids, _ := ints(sub)
				grp = append(grp, ids)
			}
			c.ReplicaGroups = append(c.ReplicaGroups, grp)
		}
	}
	for _, it := range items(top.Get("runtime_statebuffer_reservation")) {
		typ, _ := it.Get("type").Text()
		c.Reserved = append(c.Reserved, Reservation{Type: typ, Offset: intOr(it.Get("offset"), -1), Size: intOr(it.Get("size"), -1),
			BasePartition: intOr(it.Get("base_partition"), -1), Partitions: intOr(it.Get("partitions"), -1)})
	}
	// Unknown-ID: manifest.statebuffer-reservation.
	if r.m.Arch == 3 && top.Get("runtime_statebuffer_reservation") == nil {
		d.errorf(doc.CodeManifestMissingField, top, "%s has no runtime_statebuffer_reservation, which the runtime requires on cayman (%s): it refuses the NEFF unless NEURON_RT_ALLOW_LEGACY_NEFF=1", c.DefPath, r.m.KelfPaths)
	}
	// Debug members def.json names: the runtime does not need them, so a missing one is a warning.
	for _, m := range top.Members() {
		if k := m.Key; k == "dma_dbg" || strings.HasSuffix(k, "_dbg") {
			for _, it := range items(m.V) {
				if name, ok := it.Text(); ok {
					p := joinSG(c.Dir, name)
					r.a.ref(p, c.DefPath+" "+k)
					if !r.a.has(p) {
						d.warnf(doc.CodeManifestMissingDebugMember, it, "%s %s names %q, but the NEFF has no member %s; only debug information is lost", c.DefPath, k, name, p)
					}
				}
			}
		}
	}
	if wg := top.Get("debug_info").Get("wavegraph"); wg != nil {
		if name, ok := wg.Text(); ok {
			p := joinSG(c.Dir, name)
			r.a.ref(p, c.DefPath+" debug_info.wavegraph")
			if !r.a.has(p) {
				d.infof(doc.CodeManifestMissingDebugMember, wg, "%s debug_info.wavegraph names %s, which is not in the NEFF (the loader drops wavegraph members anyway)", c.DefPath, p)
			}
		}
	}
	if ul := top.Get("ucode_lib"); ul != nil {
		for _, lib := range items(ul) {
			lv := lib.Get("library")
			if name, ok := lv.Text(); ok {
				p := joinSG(c.Dir, name)
				r.a.ref(p, c.DefPath+" ucode_lib")
				if !r.a.has(p) {
					r.missing(d, lv, "the custom-op µcode library", p, "the runtime cannot load the GPSIMD custom ops")
				}
			}
		}
	}
	for _, ek := range EngineKeys {
		r.engine(c, d, ek)
	}
	r.checkQueueOwners(c, d)
	c.VarTable = varTable(c)
	c.QueueTable = queueTable(c)
	if v := top.Get("var"); v != nil {
		c.VarSpan = d.span(v)
	}
	if v := top.Get("dma_queue"); v != nil {
		c.QueueSpan = d.span(v)
	}
	if n := d.nodes[top.Get("var")]; n != nil {
		n.Table = c.VarTable
	}
	if n := d.nodes[top.Get("dma_queue")]; n != nil {
		n.Table = c.QueueTable
	}
}

// vars reads def.json's var object into c.Vars (one pass: it may be lazy, tens of MB, parsed
// item by item), then checks what the runtime checks of them as a whole: an output exists,
// the ids are dense, and the references between vars name vars that exist.
func (r *resolver) vars(c *Core, d *jdoc) {
	vv := d.v.Get("var")
	if vv == nil || vv.Kind != jsonspan.Object {
		d.errorf(doc.CodeManifestMissingField, d.v, "%s has no var object: the runtime requires it and refuses the NEFF", c.DefPath)
		return
	}
	// Sized once (no growing as they are read), for as many vars as the budget lets the model
	// hold; ids past that size go to the id index's map.
	n := min(int64(vv.Len()), 1<<20)
	if r.budget != nil {
		n = max(0, min(n, r.budget.Left(budget.Memory)/budget.VarCost))
	}
	c.Vars = make([]Var, 0, n)
	p := &varPass{r: r, c: c, d: d, ids: newIDIndex(int(n)), dge: noVar}
	vv.EachTransient(0, p.add)
	c.varIDs = p.ids
	packVarNames(c.Vars)
	c.varNames = newNameIndex(c.Vars)
	if p.dge != noVar {
		c.dgeTable = &c.Vars[p.dge]
	}
	if p.outputs == 0 && len(c.Vars) > 0 {
		d.errorf(doc.CodeManifestNoOutput, vv, "%s defines no output variable; the runtime requires at least one", c.DefPath)
	}
	p.checkDense(vv)
	p.checkRefs()
}

// varPass is one pass over a def.json var object. The items it is handed are parsed into
// memory reused from var to var (nothing handed to add outlives the call): what the checks
// after the pass need is copied out per var.
type varPass struct {
	r       *resolver
	c       *Core
	d       *jdoc
	ids     idIndex
	attrs   attrsTable
	dge     int // the dge-table var's index (noVar: none)
	outputs int
	later   []varRefs
}

// varRefs is a var's references to other vars: its list, its pointer.
type varRefs struct {
	name    string
	list    []jsonspan.Value
	pointer *jsonspan.Value
}

// add reads one var: its name, id, size and attributes, each checked as the runtime does.
func (p *varPass) add(m jsonspan.Item) bool {
	c, d := p.c, p.d
	name, e := m.Key, m.V
	v := Var{Name: name, ID: -1, Size: -1, KeyStart: int32(m.KeyStart), End: int32(e.End), ValueOff: int32(e.Start)}
	if m.Repeated {
		d.warnf(doc.CodeManifestDuplicateVar, e, "%s var %q is defined twice; the runtime keeps the last definition", c.DefPath, name)
	}
	if e.Kind != jsonspan.Object {
		d.errorf(doc.CodeManifestWrongType, e, "%s var %q is a %s, not an object", c.DefPath, name, e.Kind)
		return true
	}
	var a VarAttrs
	tv := e.Get("type")
	a.Type = str(tv)
	if tv == nil {
		d.errorf(doc.CodeManifestMissingField, e, "%s var %q has no type: the runtime refuses the NEFF", c.DefPath, name)
	}
	if a.Type == "output" {
		p.outputs++
	}
	idv := e.Get("var_id")
	if id, ok := idv.Int(); ok {
		v.ID = id
	} else {
		d.errorf(doc.CodeManifestMissingField, e, "%s var %q has no integer var_id: the runtime refuses the NEFF", c.DefPath, name)
	}
	v.Size = intOr(e.Get("size"), -1)
	if v.Size < 0 && varTypesNeedingSize[a.Type] {
		d.warnf(doc.CodeManifestMissingField, e, "%s var %q (%s) has no size; the runtime requires one for %s variables", c.DefPath, name, a.Type, a.Type)
	}
	v.Backing = intOr(e.Get("backing_variable_off"), -1)
	p.readAttrs(name, e, &a)
	v.VarAttrs = p.attrs.intern(&a)
	i := len(c.Vars)
	if p.dge == noVar && a.Type == "dge-table" {
		p.dge = i
	}
	c.Vars = append(c.Vars, v)
	p.r.budget.Take(budget.Memory, budget.VarCost, c.DefPath)
	if v.ID >= 0 {
		if other := p.ids.add(v.ID, i); other != i {
			d.errorf(doc.CodeManifestDuplicateID, idv, "%s var %q has var_id %d, already used by var %q: ids must be unique", c.DefPath, name, v.ID, c.Vars[other].Name)
		}
	}
	return true
}

// readAttrs reads a var's other attributes into a: dtype, area, shape, alignment, list (and
// its references, kept for checkRefs) and file.
func (p *varPass) readAttrs(name string, e *jsonspan.Value, a *VarAttrs) {
	c, d := p.c, p.d
	a.DType = str(e.Get("dtype"))
	if s, ok := e.Get("fabric_path").Text(); ok {
		a.Area = s
	} else if s, ok := e.Get("backing_buf").Text(); ok {
		a.Area = s
	}
	a.Shape, _ = ints(e.Get("shape"))
	if a.Shape == nil {
		a.Shape, _ = ints(e.Get("internal_shape"))
	}
	if al := e.Get("alignment"); al != nil {
		a.Alignment = intOr(al, 0)
		if a.Alignment <= 0 || a.Alignment&(a.Alignment-1) != 0 {
			d.warnf(doc.CodeManifestBadAlignment, al, "%s var %q alignment %s is not a power of 2; the runtime refuses it", c.DefPath, name, al.Str)
		}
	}
	if lv := e.Get("list"); lv != nil {
		a.List, _ = ints(lv)
	}
	if lv, rv := e.Get("list"), e.Get("referenced_var_id"); lv != nil || rv != nil {
		rf := varRefs{name: name, pointer: rv.Clone()}
		for _, it := range items(lv) {
			rf.list = append(rf.list, *it) // a list of numbers: each Value whole
		}
		p.later = append(p.later, rf)
	}
	if fv := e.Get("file_name"); fv != nil {
		a.FileName = str(fv)
		a.FilePath = joinSG(c.Dir, a.FileName)
		p.r.a.ref(a.FilePath, c.DefPath+" var "+name)
		if !p.r.a.has(a.FilePath) {
			p.r.missing(d, fv, "the file of var "+strconv.Quote(name), a.FilePath, "the runtime cannot load that variable's initial bytes and refuses the NEFF")
		} else {
			d.explain(fv, "member %s (%d bytes)", a.FilePath, p.r.a.size(a.FilePath))
		}
	}
}

// checkDense: the var ids are 0..N-1 (libnrt: "Unexpected var_ids set! max=%u, size=%lu").
func (p *varPass) checkDense(vv *jsonspan.Value) {
	if n, maxID := int64(p.ids.count), p.ids.max; maxID+1 != n {
		var gaps []string
		for id := int64(0); id <= maxID && len(gaps) < 10; id++ {
			if p.ids.find(id) == noVar {
				gaps = append(gaps, strconv.FormatInt(id, 10))
			}
		}
		p.d.errorf(doc.CodeManifestSparseVarIDs, vv, "%s var_ids are not dense 0..%d: %d ids, largest %d, missing %s: the runtime refuses the NEFF (\"Unexpected var_ids set! max=%d, size=%d\")", p.c.DefPath, n-1, n, maxID, strings.Join(gaps, ", "), maxID, n)
	}
}

// checkRefs: the dge-table lists and the pointers name var_ids that exist.
func (p *varPass) checkRefs() {
	c, d := p.c, p.d
	for _, rf := range p.later {
		for k := range rf.list {
			it := &rf.list[k]
			id, ok := it.Int()
			if !ok {
				continue
			}
			if t := c.VarByID(id); t == nil {
				d.errorf(doc.CodeManifestDanglingRef, it, "%s var %q lists var_id %d, which no variable of %s has (a dangling reference)", c.DefPath, rf.name, id, c.DefPath)
			} else {
				d.explain(it, "var %s (%s)", t.Name, t.Type)
			}
		}
		if rv := rf.pointer; rv != nil {
			if id, ok := rv.Int(); ok && c.VarByID(id) == nil {
				d.errorf(doc.CodeManifestDanglingRef, rv, "%s pointer var %q references var_id %d, which no variable of %s has", c.DefPath, rf.name, id, c.DefPath)
			}
		}
	}
}

// packVarNames copies the vars' names into one string, each Name a substring of it: one
// allocation instead of one a var.
func packVarNames(vars []Var) {
	total := 0
	for i := range vars {
		total += len(vars[i].Name)
	}
	var b strings.Builder
	b.Grow(total)
	for i := range vars {
		b.WriteString(vars[i].Name)
	}
	all, off := b.String(), 0
	for i := range vars {
		n := len(vars[i].Name)
		vars[i].Name = all[off : off+n]
		off += n
	}
}

func (r *resolver) queues(c *Core, d *jdoc) {
	qv := d.v.Get("dma_queue")
	if qv == nil {
		return
	}
	if qv.Kind != jsonspan.Object {
		d.errorf(doc.CodeManifestWrongType, qv, "%s dma_queue is a %s, not an object", c.DefPath, qv.Kind)
		return
	}
	c.queueVal = map[string]*jsonspan.Value{}
	for _, m := range qv.Members() {
		name, e := m.Key, m.V
		c.queueVal[name] = e
		q := &Queue{Name: name, Span: doc.In(d.path, m.KeyStart, e.End-m.KeyStart), NumQueues: -1}
		q.Type = str(e.Get("type"))
		q.Owner = str(e.Get("owner"))
		q.NumQueues = intOr(e.Get("num_queues"), -1)
		q.Semaphores, _ = ints(e.Get("semaphore_set"))
		if s := e.Get("semaphore"); s != nil {
			if n, ok := s.Int(); ok {
				q.Semaphores = append(q.Semaphores, n)
			}
		}
		q.FabricPath = str(e.Get("fabric_path"))
		q.Dynamic = e.Get("dynamic_dma") != nil
		if q.NumQueues > 16 {
			d.warnf(doc.CodeManifestBadDMAQueue, e.Get("num_queues"), "%s DMA queue %q has num_queues %d; the hardware has at most 16 rings per queue", c.DefPath, name, q.NumQueues)
		}
		c.Queues = append(c.Queues, q)
		c.queueByName[name] = q
	}
}

// checkQueueOwners: libnrt refuses a queue whose owner is not an engine token, and an owner
// that names an engine def.json does not define points nowhere.
func (r *resolver) checkQueueOwners(c *Core, d *jdoc) {
	for _, q := range c.Queues {
		e := c.queueVal[q.Name]
		ov := e.Get("owner")
		switch _, known := engineKey(q.Owner); {
		case ov == nil:
			d.errorf(doc.CodeManifestBadDMAQueue, e, "%s DMA queue %q has no owner: the runtime refuses it (\"Invalid owner '' for DMA queue %s\"); set owner to pe, act, pool, dve or sp", c.DefPath, q.Name, q.Name)
		case !known:
			d.errorf(doc.CodeManifestBadDMAQueue, ov, "%s DMA queue %q has owner %q, which is no engine (pe, act, pool, dve, sp): the runtime refuses it (\"Invalid owner '%s' for DMA queue %s\")", c.DefPath, q.Name, q.Owner, q.Owner, q.Name)
		case c.Engine(q.Owner) == nil:
			d.warnf(doc.CodeManifestBadDMAQueue, ov, "%s DMA queue %q is owned by engine %q, which %s does not define: nothing can trigger the queue", c.DefPath, q.Name, q.Owner, c.DefPath)
		}
	}
	// The entries' JSON is let go with the open's resident set, whose charge it was: held on
	// here, a def.json of 20,000 queues kept 17 MiB of parsed values past the open, uncharged.
	c.queueVal = nil
}

// engine resolves one engine: def.json key → engine JSON → instr → stream.
func (r *resolver) engine(c *Core, d *jdoc, ek EngineKey) {
	top := d.v
	jv := top.Get(ek.Token)
	iv := top.Get(ek.Token + "_instr")
	if jv == nil && iv == nil {
		d.warnf(doc.CodeManifestMissingEngine, top, "%s names no %s engine (key %q): the runtime warns \"Engine %s not found\" and leaves the slot empty", c.DefPath, ek.Name, ek.Token, ek.Token)
		return
	}
	e := &Engine{Token: ek.Token, Name: ek.Name, StreamSize: -1, ActSemaphore: -1, blocks: map[blockKey]*DMABlock{}}
	c.Engines = append(c.Engines, e)
	var ej *jdoc
	if jv != nil {
		name, ok := jv.Text()
		if !ok {
			d.errorf(doc.CodeManifestWrongType, jv, "%s %q must name the engine JSON member, not be a %s", c.DefPath, ek.Token, jv.Kind)
		} else {
			p := joinSG(c.Dir, name)
			r.a.ref(p, c.DefPath+" "+ek.Token)
			if !r.a.has(p) {
				r.missing(d, jv, "the "+ek.Name+" engine JSON", p, "that engine's DMA blocks are lost; its stream is looked up through "+ek.Token+"_instr")
			} else {
				e.JSONPath = p
				d.explain(jv, "%s engine JSON: member %s", ek.Name, p)
				ej = r.load(p, "engine")
			}
		}
	}
	// The stream: libnrt reads the engine JSON's instr; def.json <eng>_instr names the same file
	// in real NEFFs (spec neff.md §3.5, §7.8). Unknown-ID: manifest.instr-source.
	instr, instrFrom, instrAt := "", d, iv
	defInstr := str(iv)
	if ej != nil && ej.v != nil {
		if v := ej.v.Get("instr"); v != nil {
			if s, ok := v.Text(); ok {
				instr, instrFrom, instrAt = s, ej, v
			} else {
				ej.errorf(doc.CodeManifestWrongType, v, "%s instr is a %s; it must name the stream member", ej.path, v.Kind)
			}
		}
	}
	if instr == "" {
		instr = defInstr
	} else if defInstr != "" && normPath(defInstr) != normPath(instr) {
		d.warnf(doc.CodeManifestInstrMismatch, iv, "%s %s_instr names %q but %s instr names %q; the runtime uses the engine JSON's", c.DefPath, ek.Token, defInstr, ej.path, instr)
		r.a.ref(joinSG(c.Dir, defInstr), c.DefPath+" "+ek.Token+"_instr")
	}
	if instr == "" {
		at := jv
		if ej != nil {
			at = ej.v
			ej.errorf(doc.CodeManifestNoStream, at, "%s has no instr and %s has no %s_instr: the %s engine has no instruction stream", e.JSONPath, c.DefPath, ek.Token, ek.Name)
		} else {
			d.errorf(doc.CodeManifestNoStream, at, "%s %s engine has no instruction stream: neither an engine JSON instr nor %s_instr names one", c.DefPath, ek.Name, ek.Token)
		}
	} else {
		e.StreamPath = joinSG(c.Dir, instr)
		if instrFrom == d {
			r.a.ref(e.StreamPath, c.DefPath+" "+ek.Token+"_instr")
		} else {
			r.a.ref(e.StreamPath, instrFrom.path+" instr")
			if defInstr != "" {
				r.a.ref(e.StreamPath, c.DefPath+" "+ek.Token+"_instr")
			}
		}
		if !r.a.has(e.StreamPath) {
			r.missing(instrFrom, instrAt, "the "+ek.Name+" instruction stream", e.StreamPath, "that engine runs nothing; the runtime fails to load the NEFF")
		} else {
			e.StreamSize = r.a.size(e.StreamPath)
			e.Instructions = e.StreamSize / WordSize
			if e.StreamSize%WordSize != 0 {
				instrFrom.errorf(doc.CodeManifestStreamSize, instrAt, "stream %s named by %s is %d bytes, not a multiple of the %d-byte instruction word: the runtime reads %d instructions and the last %d bytes are not a whole instruction (the member is truncated or is not a modern stream)", e.StreamPath, instrFrom.path, e.StreamSize, WordSize, e.Instructions, e.StreamSize%WordSize)
			} else {
				instrFrom.explain(instrAt, "stream member %s: %d bytes = %d instructions of %d bytes", e.StreamPath, e.StreamSize, e.Instructions, WordSize)
			}
		}
		// The old producer ships a text disassembly beside each stream (spec neff.md §2.4 A, §4.6).
		if asm := strings.TrimSuffix(e.StreamPath, ".bin") + ".asm"; asm != e.StreamPath && r.a.has(asm) {
			r.a.ref(asm, "disassembly text of "+e.StreamPath)
		}
	}
	if ej == nil || ej.v == nil || ej.v.Kind != jsonspan.Object {
		if ej != nil && ej.v != nil {
			ej.errorf(doc.CodeManifestWrongType, ej.v, "%s is a JSON %s, not an object", ej.path, ej.v.Kind)
		}
		return
	}
	e.Span = ej.span(ej.v)
	r.dmaBlocks(c, e, ej)
	if ek.Token == "act" || ej.v.Get("activation_function_sets") != nil {
		r.activation(c, e, ej)
	}
	if dt := ej.v.Get("dve_tables"); dt != nil {
		r.dveTables(c, e, ej, dt)
	}
}

func (r *resolver) dmaBlocks(c *Core, e *Engine, ej *jdoc) {
	dv := ej.v.Get("dma")
	if dv == nil {
		return
	}
	if dv.Kind != jsonspan.Array {
		ej.errorf(doc.CodeManifestWrongType, dv, "%s dma is a %s, not a list of blocks", ej.path, dv.Kind)
		return
	}
	for i, bv := range items(dv) {
		b := &DMABlock{Index: i, ID: -1, Semaphore: -1, Span: ej.span(bv)}
		if bv.Kind != jsonspan.Object {
			ej.errorf(doc.CodeManifestWrongType, bv, "%s dma[%d] is a %s, not a block object", ej.path, i, bv.Kind)
			continue
		}
		idv := bv.Get("id")
		if id, ok := idv.Int(); ok {
			b.ID = id
		} else {
			ej.errorf(doc.CodeManifestMissingField, bv, "%s dma[%d] has no integer id: no trigger instruction can reach it", ej.path, i)
		}
		qv := bv.Get("queue")
		if qv == nil {
			qv = bv.Get("instance_name")
		}
		b.Queue = str(qv)
		b.Semaphore = intOr(bv.Get("semaphore"), -1)
		b.Comment = str(bv.Get("#comment"))
		switch {
		case qv == nil:
			ej.errorf(doc.CodeManifestMissingField, bv, "%s dma[%d] (id %d) names no queue", ej.path, i, b.ID)
		default:
			b.QueueRef = c.Queue(b.Queue)
			if b.QueueRef == nil {
				ej.errorf(doc.CodeManifestDanglingRef, qv, "%s dma[%d] (id %d) runs on queue %q, which %s dma_queue does not define (a dangling reference): the runtime cannot place the block", ej.path, i, b.ID, b.Queue, c.DefPath)
			} else {
				b.QueueRef.UsedByBlocks++
				if b.QueueRef.Owner != "" && b.QueueRef.Owner != e.Token {
					ej.warnf(doc.CodeManifestBadDMAQueue, qv, "%s dma[%d] is on queue %q, which %s gives to engine %q, not to %s (%s)", ej.path, i, b.Queue, c.DefPath, b.QueueRef.Owner, e.Name, e.Token)
				}
				ej.explain(qv, "queue %s: owner %s, type %s, %s rings", b.Queue, b.QueueRef.Owner, b.QueueRef.Type, fmtInt(b.QueueRef.NumQueues))
			}
		}
		if b.ID >= 0 && qv != nil {
			k := blockKey{b.Queue, b.ID}
			if prev := e.blocks[k]; prev != nil {
				ej.warnf(doc.CodeManifestDuplicateID, idv, "%s dma[%d] repeats id %d on queue %q (first at dma[%d]): a trigger for that id is ambiguous", ej.path, i, b.ID, b.Queue, prev.Index)
			} else {
				e.blocks[k] = b
			}
		}
		for j, dsv := range items(bv.Get("desc")) {
			ds := &DMADesc{Span: ej.span(dsv)}
			ds.Op = str(dsv.Get("op"))
			ds.From, ds.To = str(dsv.Get("from")), str(dsv.Get("to"))
			ds.FromOff, ds.ToOff = intOr(dsv.Get("from_off"), 0), intOr(dsv.Get("to_off"), 0)
			ds.FromSizes, _ = ints(dsv.Get("from_sizes"))
			ds.ToSizes, _ = ints(dsv.Get("to_sizes"))
			ds.FromSteps, _ = ints(dsv.Get("from_steps"))
			ds.ToSteps, _ = ints(dsv.Get("to_steps"))
			ds.FromDType, ds.ToDType = str(dsv.Get("from_dtype")), str(dsv.Get("to_dtype"))
			for _, side := range []string{"from", "to"} {
				sv := dsv.Get(side)
				name, ok := sv.Text()
				if !ok {
					continue
				}
				if v := c.Var(name); v == nil {
					ej.errorf(doc.CodeManifestDanglingRef, sv, "%s dma[%d].desc[%d].%s names variable %q, which %s var does not define (a dangling reference): the runtime cannot resolve the descriptor", ej.path, i, j, side, name, c.DefPath)
				} else {
					ej.explain(sv, "var %s: %s, %s bytes", v.Name, v.Type, fmtInt(v.Size))
				}
			}
			b.Descs = append(b.Descs, ds)
		}
		e.DMABlocks = append(e.DMABlocks, b)
	}
}

// activation reads activation_function_sets and resolves each set's three members through
// the act_info.json roster (spec activation.md §1, §1.1).
func (r *resolver) activation(c *Core, e *Engine, ej *jdoc) {
	e.ActSemaphore = intOr(ej.v.Get("act_semaphore"), -1)
	var roster *jdoc
	if av := ej.v.Get("act_info"); av != nil {
		if name, ok := av.Text(); ok {
			p := joinSG(c.Dir, name)
			r.a.ref(p, ej.path+" act_info")
			if !r.a.has(p) {
				ej.warnf(doc.CodeManifestMissingDebugMember, av, "%s act_info names %q, but the NEFF has no member %s; set members are looked up by their default names", ej.path, name, p)
			} else {
				roster = r.load(p, "act_info")
			}
		}
	}
	sv := ej.v.Get("activation_function_sets")
	if sv == nil {
		return
	}
	if sv.Kind != jsonspan.Array {
		ej.errorf(doc.CodeManifestWrongType, sv, "%s activation_function_sets is a %s, not a list of set names", ej.path, sv.Kind)
		return
	}
	// The roster's sets by name, the first of a name winning (a scan of the roster per set
	// was the product of the two counts).
	var rosterSets map[string]*jsonspan.Value
	if roster != nil && roster.v != nil {
		rosterSets = map[string]*jsonspan.Value{}
		for _, rs := range items(roster.v.Get("act_func_sets")) {
			if n := str(rs.Get("name")); rosterSets[n] == nil {
				rosterSets[n] = rs
			}
		}
	}
	for i, it := range items(sv) {
		name, ok := it.Text()
		if !ok {
			ej.errorf(doc.CodeManifestWrongType, it, "%s activation_function_sets[%d] is a %s, not a set name", ej.path, i, it.Kind)
			continue
		}
		set := &ActivationSet{Index: i, Name: name, Span: ej.span(it),
			ProfilePath: joinSG(c.Dir, name+".json"), BktPath: joinSG(c.Dir, name+"_bkt.bin"), CtrlPath: joinSG(c.Dir, name+"_ctrl.bin")}
		// The roster names each set's files; follow its strings, not the key spelling
		// (ctrl_bin vs ctl_bin, spec activation.md §1).
		if rosterSets != nil {
			if rs := rosterSets[name]; rs != nil {
				if s := str(rs.Get("profile_json")); s != "" {
					set.ProfilePath = joinSG(c.Dir, s)
				}
				if s := str(rs.Get("bkt_bin")); s != "" {
					set.BktPath = joinSG(c.Dir, s)
				}
				if s := str(rs.Get("ctrl_bin")); s != "" {
					set.CtrlPath = joinSG(c.Dir, s)
				}
			} else if !ej.holdBack() {
				ej.node(it).FlagRepeated(doc.CodeManifestUnknownSet, doc.Warning, ej.span(it), "%s lists set %q, which the roster %s does not have; its members are looked up by their default names", ej.path, name, roster.path)
			}
		}
		who := fmt.Sprintf("%s activation_function_sets[%d]", ej.path, i)
		for _, p := range []string{set.ProfilePath, set.BktPath, set.CtrlPath} {
			r.a.ref(p, who)
			if !r.a.has(p) {
				r.missing(ej, it, "activation set "+strconv.Quote(name)+", whose table member", p, "the runtime cannot load that set, and ActivationTableLoad index "+strconv.Itoa(i)+" has no tables")
			}
		}
		if prof := r.load(set.ProfilePath, "act_profile"); prof != nil && prof.v != nil {
			for _, k := range []string{"bkt_bin", "ctl_bin", "ctrl_bin"} {
				if s := str(prof.v.Get(k)); s != "" {
					p := joinSG(c.Dir, s)
					r.a.ref(p, prof.path+" "+k)
					if p != set.BktPath && p != set.CtrlPath && !r.a.has(p) {
						r.missing(prof, prof.v.Get(k), "its "+k, p, "that table of the set cannot be loaded")
					}
				}
			}
		}
		ej.explain(it, "ActivationTableLoad (0x23) set index %d → %s, %s, %s", i, set.ProfilePath, set.BktPath, set.CtrlPath)
		e.ActivationSets = append(e.ActivationSets, set)
		if !r.setsUsed[name] { // a set, not a scan of the list: 100,000 sets were quadratic
			if r.setsUsed == nil {
				r.setsUsed = map[string]bool{}
			}
			r.setsUsed[name] = true
			r.m.ActivationSetsUsed = append(r.m.ActivationSetsUsed, name)
		}
	}
}

func (r *resolver) dveTables(c *Core, e *Engine, ej *jdoc, dt *jsonspan.Value) {
	for i, tv := range items(dt) {
		for _, kind := range sortedKeys(tv) {
			v := tv.Get(kind)
			name, ok := v.Text()
			if !ok {
				continue
			}
			p := joinSG(c.Dir, name)
			r.a.ref(p, fmt.Sprintf("%s dve_tables[%d].%s", ej.path, i, kind))
			t := &DVETable{Kind: kind, Path: p, Size: r.a.size(p), Span: ej.span(v)}
			if !r.a.has(p) {
				r.missing(ej, v, "the DVE "+kind, p, "the runtime cannot program the Vector engine")
			} else {
				ej.explain(v, "member %s (%d bytes)", p, t.Size)
			}
			e.DVETables = append(e.DVETables, t)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// varTableHeld is the most variables a core's var table holds in the document; a bigger
// one is served by range (Core.VarRows, the records:<def.json> ref) like a listing.
const varTableHeld = 2000

// varTable is the var table, or nil when it is served by range (varTableHeld).
func varTable(c *Core) *doc.Table {
	c.varsByID = byIDOrder(c.Vars, &c.varIDs)
	if len(c.Vars) > varTableHeld {
		return nil
	}
	return c.VarRows(0, len(c.Vars))
}

// VarRows is rows [from, to) of the var table, by var_id (clamped).
func (c *Core) VarRows(from, to int) *doc.Table {
	t := &doc.Table{Rows: [][]string{}, Columns: []string{"var_id", "name", "type", "size", "dtype", "shape", "file"}}
	from, to = max(0, min(from, len(c.varsByID))), max(0, min(to, len(c.varsByID)))
	for _, i := range c.varsByID[from:max(from, to)] {
		v := &c.Vars[i]
		shape := ""
		if v.Shape != nil {
			shape = fmtShape(v.Shape)
		}
		file := v.FilePath
		if v.List != nil {
			file = "var_ids " + fmtShape(v.List)
		}
		t.Rows = append(t.Rows, []string{fmtInt(v.ID), v.Name, v.Type, fmtInt(v.Size), v.DType, shape, file})
		t.RowSpans = append(t.RowSpans, *v.Entry(c.DefPath))
	}
	return t
}

func queueTable(c *Core) *doc.Table {
	t := &doc.Table{Rows: [][]string{}, Columns: []string{"name", "owner", "type", "num_queues", "semaphores", "fabric", "blocks"}}
	for _, q := range c.Queues {
		sem := ""
		if len(q.Semaphores) > 0 {
			sem = fmt.Sprintf("%d..%d (%d)", slicesMin(q.Semaphores), slicesMax(q.Semaphores), len(q.Semaphores))
		}
		typ := q.Type
		if q.Dynamic {
			typ += " (dynamic DMA)"
		}
		t.Rows = append(t.Rows, []string{q.Name, q.Owner, typ, fmtInt(q.NumQueues), sem, q.FabricPath, strconv.Itoa(q.UsedByBlocks)})
		t.RowSpans = append(t.RowSpans, *q.Span)
	}
	return t
}

func slicesMin(s []int64) int64 {
	m := s[0]
	for _, x := range s {
		m = min(m, x)
	}
	return m
}

func slicesMax(s []int64) int64 {
	m := s[0]
	for _, x := range s {
		m = max(m, x)
	}
	return m
}
