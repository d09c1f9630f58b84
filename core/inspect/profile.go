package inspect

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/jsonspan"
	"github.com/neffscope/neffscope/core/manifest"
)

// Profile is the static engine profile of a NEFF, read from the file alone (no device, no
// trace): what each core's engines are asked to do. Its children, each with a table the page
// can chart and the CLI prints (`neffscope profile`):
//
//   - "engines": instructions per core and engine;
//   - "opcodes": instructions per core, engine and opcode;
//   - "dma": per core and DMA queue, the blocks, descriptors and bytes the engine JSONs list
//     (static DMA) and the PseudoDmaDirect2d (0xD4) words issued on it (dynamic DMA);
//   - "reloads": per core and tensor (var), how many times it is copied into the state buffer
//     (SBUF), by static descriptors and by 0xD4 words (a register-offset 0xD4 counts against
//     the var its DGE index names), and the bytes that moves against the tensor's size (the
//     reload factor);
//   - "hlo": hlo_stats.json's figures.
func Profile(f *File) *doc.Node {
	root := &doc.Node{Kind: doc.KindProfile, Label: "static profile"}
	if f.Program == nil {
		root.Value = "no program"
		root.Infof(doc.CodeProfileNoProgram, nil, "%s has no resolvable program (no NEFF manifests), so there is nothing to profile.", f.Name)
		return root
	}
	m := f.Program.Model
	engines := &doc.Node{Kind: doc.KindProfileSection, Label: "engines", Table: &doc.Table{Columns: []string{"core", "engine", "instructions", "bytes", "stream"}}}
	opcodes := &doc.Node{Kind: doc.KindProfileSection, Label: "opcodes", Table: &doc.Table{Columns: []string{"core", "engine", "opcode", "name", "count", "share"}}}
	var total int64
	for _, ps := range f.Program.Streams {
		engines.Table.Rows = append(engines.Table.Rows, []string{ps.Core.Name, ps.Engine.Name, itoa(ps.Count), itoa(ps.Size), ps.Member})
		engines.Table.RowSpans = append(engines.Table.RowSpans, doc.Span{Source: ps.Member, Length: ps.Size})
		total += ps.Count
		if ps.ISA == nil {
			continue
		}
		for _, oc := range ps.ISA.Counts() {
			share := "0%"
			if n := ps.ISA.Len(); n > 0 {
				share = fmt.Sprintf("%.1f%%", 100*float64(oc.Count)/float64(n))
			}
			opcodes.Table.Rows = append(opcodes.Table.Rows, []string{ps.Core.Name, ps.Engine.Name, fmt.Sprintf("0x%02x", oc.Opcode), oc.Name, strconv.Itoa(oc.Count), share})
			opcodes.Table.RowSpans = append(opcodes.Table.RowSpans, doc.Span{Source: ps.Member, Offset: int64(oc.First) * isa.WordSize, Length: isa.WordSize})
		}
	}
	engines.Value = fmt.Sprintf("%d instructions in %d streams of %d cores", total, len(f.Program.Streams), len(m.Cores))
	opcodes.Value = fmt.Sprintf("%d opcode rows", len(opcodes.Table.Rows))
	dma, reloads, _ := dmaProfile(f.Program, false)
	root.Add(engines, opcodes, dma, reloads, hloProfile(f))
	root.Value = fmt.Sprintf("%d cores, %d instructions", len(m.Cores), total)
	return root
}

type queueUse struct {
	core, queue   string
	q             *manifest.Queue
	blocks, descs int64
	bytes         int64
	unknownBytes  int64 // descriptors whose dtype or sizes are unknown
	direct2d      int64
	firstBlock    *doc.Span
	engines       map[string]bool
}

type varLoads struct {
	core          *manifest.Core
	v             *manifest.Var
	static        int64
	bytes         int64 // by static descriptors
	direct2d      int64
	direct2dBytes int64
	firstDesc     *doc.Span
}

// dmaProfile walks every engine's DMA blocks and every 0xD4 word; with heldOnly, only the
// words of streams held in memory (the overview, at open: a stream not held would be read
// out of the archive again), and skipped names those it left out.
func dmaProfile(p *Program, heldOnly bool) (dma, reloads *doc.Node, skipped []string) {
	t := &dmaTally{qByKey: map[string]*queueUse{}, lByKey: map[*manifest.Var]*varLoads{}}
	t.addBlocks(p)
	skipped = t.addDirect2d(p, heldOnly)
	return t.dmaNode(), t.reloadsNode(), skipped
}

// dmaTally counts the DMA per queue and the loads into SBUF per tensor, each in the order
// first met.
type dmaTally struct {
	queues []*queueUse
	qByKey map[string]*queueUse
	loads  []*varLoads
	lByKey map[*manifest.Var]*varLoads
}

func (t *dmaTally) queue(c *manifest.Core, name string) *queueUse {
	k := c.Name + "\x00" + name
	if u := t.qByKey[k]; u != nil {
		return u
	}
	u := &queueUse{core: c.Name, queue: name, q: c.Queue(name), engines: map[string]bool{}}
	t.qByKey[k] = u
	t.queues = append(t.queues, u)
	return u
}

func (t *dmaTally) load(c *manifest.Core, v *manifest.Var) *varLoads {
	if l := t.lByKey[v]; l != nil {
		return l
	}
	l := &varLoads{core: c, v: v}
	t.lByKey[v] = l
	t.loads = append(t.loads, l)
	return l
}

// addBlocks counts the engine JSONs' static DMA blocks: per queue, and per tensor the
// descriptors that load it into the state buffer.
func (t *dmaTally) addBlocks(p *Program) {
	for _, c := range p.Model.Cores {
		for _, q := range c.Queues {
			t.queue(c, q.Name)
		}
		for _, e := range c.Engines {
			for _, b := range e.DMABlocks {
				u := t.queue(c, b.Queue)
				u.blocks++
				u.engines[e.Name] = true
				if u.firstBlock == nil {
					u.firstBlock = b.Span
				}
				for _, d := range b.Descs {
					u.descs++
					n, ok := descBytes(d)
					if ok {
						u.bytes += n
					} else {
						u.unknownBytes++
					}
					to, from := c.Var(d.To), c.Var(d.From)
					if to != nil && to.Type == "state-buffer" && from != nil && from.Type != "state-buffer" {
						l := t.load(c, from)
						l.static++
						l.bytes += n
						if l.firstDesc == nil {
							l.firstDesc = d.Span
						}
					}
				}
			}
		}
	}
}

// addDirect2d counts the 0xD4 words per queue and per tensor loaded; with heldOnly it leaves
// out the streams not held, and names them.
func (t *dmaTally) addDirect2d(p *Program, heldOnly bool) (skipped []string) {
	for _, ps := range p.Streams {
		if ps.ISA == nil {
			continue
		}
		if heldOnly && !ps.ISA.Held() {
			skipped = append(skipped, ps.Member)
			continue
		}
		var d2 *direct2dUses
		if sw := p.walked().streams[ps]; sw != nil {
			d2 = &sw.d2
		} else { // a stream not held: the profile reads it out of the archive
			d2 = &direct2dUses{}
			for _, w := range ps.ISA.Words() {
				if collectorsOf[w[0]]&collectDirect2d != 0 {
					d2.add(ps, w)
				}
			}
		}
		for _, q := range d2.queues {
			u := t.queue(ps.Core, q.name)
			u.direct2d += q.count
			u.engines[ps.Engine.Name] = true
		}
		for _, l := range d2.loads {
			vl := t.load(ps.Core, l.v)
			vl.direct2d += l.count
			vl.direct2dBytes += l.bytes
		}
	}
	return skipped
}

// dmaNode is the "dma" table: one row per queue.
func (t *dmaTally) dmaNode() *doc.Node {
	dma := &doc.Node{Kind: doc.KindProfileSection, Label: "dma", Table: &doc.Table{Columns: []string{"core", "queue", "type", "owner", "num_queues", "engines", "blocks", "descriptors", "bytes", "0xD4 words"}}}
	var descs, bytes int64
	for _, u := range t.queues {
		typ, owner, rings := "", "", ""
		var span doc.Span
		if u.q != nil {
			typ, owner, rings = u.q.Type, u.q.Owner, itoa(u.q.NumQueues)
			if u.q.Span != nil {
				span = *u.q.Span
			}
		} else if u.firstBlock != nil {
			span = *u.firstBlock
		}
		b := itoa(u.bytes)
		if u.unknownBytes > 0 {
			b += fmt.Sprintf(" (+%d descriptors of unknown size)", u.unknownBytes)
		}
		engs := sortedKeys(u.engines)
		dma.Table.Rows = append(dma.Table.Rows, []string{u.core, u.queue, typ, owner, rings, joinComma(engs), itoa(u.blocks), itoa(u.descs), b, itoa(u.direct2d)})
		dma.Table.RowSpans = append(dma.Table.RowSpans, span)
		descs += u.descs
		bytes += u.bytes
	}
	dma.Value = fmt.Sprintf("%d descriptors, %s in static DMA blocks", descs, humanBytes(bytes))
	dma.Detail = "static: the engine JSONs' dma blocks (bytes = product of from_sizes, which are bytes: neff.md §3.5); dynamic: 0xD4 words, counted per queue by their semaphore"
	return dma
}

// reloadsNode is the "reloads" table: one row per tensor loaded into SBUF, most loads first.
func (t *dmaTally) reloadsNode() *doc.Node {
	loads := t.loads
	sort.SliceStable(loads, func(i, j int) bool {
		return loads[i].static+loads[i].direct2d > loads[j].static+loads[j].direct2d
	})
	reloads := &doc.Node{Kind: doc.KindProfileSection, Label: "reloads", Table: &doc.Table{Columns: []string{"core", "var", "type", "size", "loads (static)", "loads (0xD4)", "bytes loaded (static)", "bytes loaded (0xD4)", "reload factor"}}}
	for _, l := range loads {
		factor := ""
		if moved := l.bytes + l.direct2dBytes; l.v.Size > 0 && moved > 0 {
			factor = fmt.Sprintf("%.2f", float64(moved)/float64(l.v.Size))
		}
		reloads.Table.Rows = append(reloads.Table.Rows, []string{l.core.Name, l.v.Name, l.v.Type, itoa(l.v.Size), itoa(l.static), itoa(l.direct2d), itoa(l.bytes), itoa(l.direct2dBytes), factor})
		reloads.Table.RowSpans = append(reloads.Table.RowSpans, *l.v.Entry(l.core.DefPath))
	}
	reloads.Value = fmt.Sprintf("%d tensors loaded into SBUF", len(loads))
	reloads.Detail = "a load is a DMA whose destination is the state buffer and whose source is the tensor (a 0xD4 whose offset is a register counts against the var its DGE index names); " +
		"bytes: a static descriptor moves product(from_sizes) bytes (neff.md §3.5), a 0xD4 num_elem[0] × num_elem[1] × src elem size (a broadcast, step 0, reads the same bytes once per partition); " +
		"reload factor = bytes loaded / tensor size (1.00: read once)"
	return reloads
}

// addrVar is the def.json var a 0xD4 address names (tag bit 0x10 by id, bit 0x20 through the
// dge-table, either with a register offset), or nil.
func addrVar(c *manifest.Core, a isa.DmaAddr) *manifest.Var {
	switch a.Base() {
	case isa.DmaTagVar:
		return c.VarByID(int64(a.ID))
	case isa.DmaTagDGE:
		if t := c.DGETable(); t != nil && int(a.ID) < len(t.List) {
			return c.VarByID(t.List[a.ID])
		}
		// An index past the first dge-table's list: a later dge-table var (a broken def.json
		// has two) may hold it.
		for i := range c.Vars {
			if v := &c.Vars[i]; v.Type == "dge-table" && int(a.ID) < len(v.List) {
				return c.VarByID(v.List[a.ID])
			}
		}
	}
	return nil
}

// descBytes is a descriptor's payload: the product of from_sizes, which are bytes (neff.md
// §3.5; unknowns inspect.dma-desc-bytes).
func descBytes(d *manifest.DMADesc) (int64, bool) {
	if len(d.FromSizes) == 0 {
		return 0, false
	}
	n := int64(1)
	for _, s := range d.FromSizes {
		if s < 0 || s > 1<<40 || n > 1<<40 {
			return 0, false
		}
		n *= s
	}
	return n, true
}

// hloProfile lists hlo_stats.json's figures (the compiler's summary of the HLO module).
func hloProfile(f *File) *doc.Node {
	n := &doc.Node{Kind: doc.KindProfileSection, Label: "hlo", Table: &doc.Table{Columns: []string{"statistic", "value"}}}
	m := f.Archive.Member("hlo_stats.json")
	if m == nil || m.Data == nil {
		n.Value = "no hlo_stats.json"
		return n
	}
	v, err := jsonspan.ParseWith(m.Data, jsonspan.Options{Budget: f.Budget, Where: m.Path})
	if err != nil || v.Kind != jsonspan.Object {
		n.Value = "hlo_stats.json is not a JSON object"
		n.Warnf(doc.CodeProfileBadStats, doc.In(m.Path, 0, m.Size), "hlo_stats.json does not parse as a JSON object: %v", err)
		return n
	}
	for i, k := range v.Keys {
		it := v.Items[i]
		val := it.Str
		if it.Kind != jsonspan.Number && it.Kind != jsonspan.String {
			val = string(m.Data[it.Start:it.End])
		}
		n.Table.Rows = append(n.Table.Rows, []string{k, val})
		n.Table.RowSpans = append(n.Table.RowSpans, doc.Span{Source: m.Path, Offset: it.Start, Length: it.End - it.Start})
	}
	n.Value = fmt.Sprintf("%d statistics", len(v.Keys))
	n.Detail = "hlo_stats.json: the compiler's figures for the HLO module (MAC count, traffic); the op list itself is in the debug info"
	return n
}

var profileUnknowns = []doc.Unknown{
	{ID: "inspect.dma-desc-bytes", Spec: "neff.md §3.5 (engine JSON dma)",
		Question:   "Whether from_sizes count elements or bytes.",
		Assumption: "Bytes, as neff.md §3.5 says: a descriptor moves product(from_sizes) bytes. Summed so, every output and weight var's descriptors equal its size on the real NEFFs (cs149 stream_256k: a_vec, b_vec, out 1,024,000 = 2 × 512,000; transpose_1024: a_tensor, out 4,194,304 in 64; file_pool_*: W, bias, the identity constant and X_out exactly), and no descriptor reaches past its var; read as elements × dtype size, 40 of them overrun their var (54 with the MoE NEFFs of neff.md §8.1).",
		Confidence: "high"},
	{ID: "inspect.memory-budget", Spec: "issue 14 (memory budget)",
		Question: "How the runtime sizes a loaded NEFF's device memory.",
		Assumption: "Per NEFF: tensors = the I/O vars, each name once (inspect.memory-tensors). Per core: model code = the engine streams, the activation sets' tables and the DVE tables, at least (inspect.memory-code); model constants = the file vars; scratchpad = max(backing_variable_off + size) over virtual vars per backing area, summed (the runtime rounds the shared scratchpad up to a 64 MiB page and keeps the largest over loaded NEFFs); " +
			"dma rings, at least = 16 B × (product(from_sizes[1:]) + product(to_sizes[1:]) + 2 × 16 semaphore descriptors) per static transfer, none for DGE (inspect.memory-dma-rings). " +
			"Constants and scratchpad matched a runtime record of a 2-core Trn2 NEFF exactly (neff.md §8.2). Descriptor counts from the public estimator jinhuang12/vllm-neuron neff_memory.py, which cites neuronx-cc's analyze_neff_artifacts.py for them and reports 1347 MiB estimated against 1305.8 MiB held by runtime 2.34 on a 15-graph load; " +
			"gathered transfers (from_arr) are not counted.",
		Confidence: "medium"},
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// sortedKeys lists a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// DMAMoves is what a DMA word of ps moves and on which queue (ok false for another word, or
// one whose queue the manifests do not name): a PseudoDmaDirect2d (0xD4) its source bytes on
// the engine's dynamic queue its semaphore names; a PseudoDMATrigger (0xC1) its engine-JSON
// block's descriptors' product(from_sizes) (unknown sizes count 0). One DMA either way: the
// device profile's byte check (spec ntff.md §5 check 8) adds 64 B of semaphore writes to each.
func DMAMoves(ps *ProgramStream, w []byte) (queue string, bytes int64, ok bool) {
	switch w[0] {
	case 0xD4:
		sem, _ := isa.Direct2dSemaphore(w)
		q := dynamicQueue(ps.Core, ps.Engine, int64(sem))
		if q == nil {
			return "", 0, false
		}
		n, _ := isa.Direct2dSrcBytes(w)
		return q.Name, n, true
	case 0xC1:
		id, _ := isa.BlockIDOf(w)
		qn, _ := isa.QueueOf(w)
		b := ps.Engine.Block(qn, int64(id))
		if b == nil {
			if bs := ps.Engine.BlocksWithID(int64(id)); len(bs) == 1 {
				b = bs[0]
			}
		}
		if b == nil {
			return "", 0, false
		}
		for _, d := range b.Descs {
			if n, ok := descBytes(d); ok {
				bytes += n
			}
		}
		return b.Queue, bytes, true
	}
	return "", 0, false
}
