package manifest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/featurebits"
)

// overview builds the "Model" tree: target, inputs and outputs, cores with their engines,
// activation sets, features, and the member roster with who refers to each member.
func (r *resolver) overview() {
	m, root := r.m, r.root
	r.targetNodes()
	in := &doc.Node{Kind: doc.KindTensors, Key: "inputs", Label: "inputs", Value: strconv.Itoa(len(m.Inputs)), Table: ioTable(m.Inputs), Detail: "neff.json arg_nodes; bytes = product(shape) × dtype size"}
	out := &doc.Node{Kind: doc.KindTensors, Key: "outputs", Label: "outputs", Value: strconv.Itoa(len(m.Outputs)), Table: ioTable(m.Outputs), Detail: "neff.json heads"}
	root.Add(in, out)
	cores := &doc.Node{Kind: doc.KindCores, Key: "cores", Label: "cores", Value: strconv.Itoa(len(m.Cores)), Detail: "one subgraph (sgNN) per physical NeuronCore"}
	root.Add(cores)
	for _, c := range m.Cores {
		cores.Add(r.coreNode(c))
	}
	sets := root.Add(&doc.Node{Kind: doc.KindActivationSets, Key: "activation_sets", Label: "activation sets used", Value: strconv.Itoa(len(m.ActivationSetsUsed))})
	for i, s := range m.ActivationSetsUsed {
		if i == maxSetsListed {
			sets.Field("more", fmt.Sprintf("and %d more", len(m.ActivationSetsUsed)-i), nil).Detail = "the engine JSONs name them; the activation node decodes each set"
			break
		}
		sets.Field(strconv.Itoa(i), s, nil)
	}
	root.Add(r.featuresNode())
	if m.Info != nil {
		root.Field("compiler", m.Info.ToolVersion, r.memberSpan("info.json"))
	}
	root.Add(r.membersNode())
}

// targetNodes are the kelf's target (with its arch) and version.
func (r *resolver) targetNodes() {
	m, root := r.m, r.root
	target := m.Target
	if len(m.KelfPaths) == 0 {
		target = "?"
	}
	tn := root.Field("target", strconv.Quote(target), r.valueSpan(m.KelfPaths, "target"))
	tn.SetAttr(doc.AttrTarget, target)
	if m.Arch >= 0 {
		tn.SetAttr(doc.AttrArchName, m.ArchName)
		tn.Explain("arch %d: %s", m.Arch, m.ArchName)
	} else {
		tn.Explain("unknown arch")
	}
	if m.KelfVersion != "" {
		root.Field("kelf version", m.KelfVersion, r.valueSpan(m.KelfPaths, "version"))
	}
}

// ioTable is the inputs' or the outputs' table.
func ioTable(ts []*Tensor) *doc.Table {
	t := &doc.Table{Rows: [][]string{}, Columns: []string{"name", "dtype", "shape", "bytes", "entry"}}
	for _, x := range ts {
		t.Rows = append(t.Rows, []string{x.Name, x.DType, fmtShape(x.Shape), fmtInt(x.Bytes), strconv.Itoa(x.EntryID)})
		t.RowSpans = append(t.RowSpans, *x.Span)
	}
	return t
}

// coreNode is one core: its engines (a table, then a node each), variables, DMA queues,
// features and collectives.
func (r *resolver) coreNode(c *Core) *doc.Node {
	cn := &doc.Node{Kind: doc.KindCore, Key: c.Name, Label: c.Name, Value: c.DefPath, Span: r.memberSpan(c.DefPath)}
	c.Node = cn
	et := &doc.Table{Rows: [][]string{}, Columns: []string{"engine", "json", "stream", "bytes", "instructions", "dma blocks", "activation sets"}}
	for _, e := range c.Engines {
		var sets []string
		for _, s := range e.ActivationSets {
			sets = append(sets, fmt.Sprintf("%d:%s", s.Index, s.Name))
		}
		et.Rows = append(et.Rows, []string{e.Name, e.JSONPath, e.StreamPath, fmtInt(e.StreamSize), fmtInt(max(e.Instructions, 0)), strconv.Itoa(len(e.DMABlocks)), strings.Join(sets, ", ")})
		et.RowSpans = append(et.RowSpans, deref(r.memberSpan(e.JSONPath)))
	}
	en := &doc.Node{Kind: doc.KindEngines, Key: "engines", Label: "engines", Value: strconv.Itoa(len(c.Engines)), Table: et}
	cn.Add(en)
	for _, e := range c.Engines {
		en.Add(r.engineNode(e))
	}
	if c.VarTable != nil {
		cn.Add(&doc.Node{Kind: doc.KindVars, Key: "vars", Label: "variables", Value: strconv.Itoa(len(c.Vars)), Table: c.VarTable, Span: c.VarSpan, Detail: "def.json var, by var_id"})
	} else if len(c.Vars) > 0 {
		// Too many to hold: the table is paged like a listing (records:<def.json>).
		cn.Add(&doc.Node{Kind: doc.KindVars, Key: "vars", Label: "variables", Value: strconv.Itoa(len(c.Vars)), Ref: doc.RecordsRef(c.DefPath), Span: c.VarSpan, Detail: "def.json var, by var_id (" + strconv.Itoa(len(c.Vars)) + " rows, served a page at a time)"})
	}
	if c.QueueTable != nil {
		cn.Add(&doc.Node{Kind: doc.KindQueues, Key: "dma_queues", Label: "DMA queues", Value: strconv.Itoa(len(c.Queues)), Table: c.QueueTable, Span: c.QueueSpan})
	}
	if len(c.Features) > 0 {
		cn.Field("neff_features", strings.Join(c.Features, ", "), nil)
	}
	if c.RankWorldSize > 0 || len(c.ReplicaGroups) > 0 || c.CCStreams > 0 {
		cn.Field("collectives", fmt.Sprintf("world size %d, %d replica group(s), %d CC stream(s)", c.RankWorldSize, len(c.ReplicaGroups), c.CCStreams), nil)
	}
	return cn
}

// engineNode is one engine: its JSON and stream members, activation sets, DMA blocks and DVE
// tables.
func (r *resolver) engineNode(e *Engine) *doc.Node {
	n := &doc.Node{Kind: doc.KindEngine, Key: e.Name, Label: e.Name, Value: fmt.Sprintf("%s instructions", fmtInt(max(e.Instructions, 0))), Span: r.memberSpan(e.JSONPath)}
	if ek, ok := engineKey(e.Token); ok {
		n.Detail = ek.Also
	}
	e.Node = n
	n.Field("json", e.JSONPath, r.memberSpan(e.JSONPath))
	sn := n.Field("stream", e.StreamPath, r.memberSpan(e.StreamPath))
	if e.StreamPath != "" {
		sn.Ref = doc.MemberRef(e.StreamPath)
		sn.Explain("%s bytes, %s instructions of %d bytes", fmtInt(e.StreamSize), fmtInt(max(e.Instructions, 0)), WordSize)
	}
	if len(e.ActivationSets) > 0 {
		an := n.Add(&doc.Node{Kind: doc.KindActivationSets, Key: "activation_function_sets", Label: "activation sets", Value: strconv.Itoa(len(e.ActivationSets)), Detail: "index = ActivationTableLoad (0x23) set index"})
		for i, s := range e.ActivationSets {
			if i == maxSetsListed {
				an.Field("more", fmt.Sprintf("and %d more", len(e.ActivationSets)-i), nil).Detail = "the engine JSON's activation_function_sets lists them"
				break
			}
			an.Field(strconv.Itoa(s.Index), s.Name, s.Span).Explain("%s, %s, %s", s.ProfilePath, s.BktPath, s.CtrlPath)
		}
	}
	if len(e.DMABlocks) > 0 {
		n.Add(dmaBlocksNode(e))
	}
	for _, t := range e.DVETables {
		n.Field(t.Kind, t.Path, t.Span).Explain("%s bytes", fmtInt(t.Size))
	}
	return n
}

// dmaBlocksNode is an engine's DMA blocks, a row each with its first moves.
func dmaBlocksNode(e *Engine) *doc.Node {
	bt := &doc.Table{Rows: [][]string{}, Columns: []string{"#", "id", "queue", "semaphore", "descriptors", "from → to", "comment"}}
	for _, b := range e.DMABlocks {
		var moves []string
		for _, ds := range b.Descs {
			if len(moves) == 3 {
				moves = append(moves, "…")
				break
			}
			moves = append(moves, ds.From+" → "+ds.To)
		}
		bt.Rows = append(bt.Rows, []string{strconv.Itoa(b.Index), fmtInt(b.ID), b.Queue, fmtInt(b.Semaphore), strconv.Itoa(len(b.Descs)), strings.Join(moves, "; "), b.Comment})
		bt.RowSpans = append(bt.RowSpans, *b.Span)
	}
	return &doc.Node{Kind: doc.KindDMABlocks, Key: "dma", Label: "DMA blocks", Value: strconv.Itoa(len(e.DMABlocks)), Table: bt, Detail: "a trigger instruction (0xC1) names a block by queue and id"}
}

// featuresNode is the header's feature bits, a field per bit set, beside def.json's
// neff_features.
func (r *resolver) featuresNode() *doc.Node {
	m := r.m
	fn := &doc.Node{Kind: doc.KindFeatures, Key: "features", Label: "features", Value: fmt.Sprintf("0x%X", m.FeatureBits), Detail: "header feature_bits; def.json neff_features: " + strings.Join(m.FeatureNames, ", ")}
	if !r.facts.Present {
		fn.Value = "(no header)"
		return fn
	}
	fn.Span = r.facts.span("feature_bits")
	for bit := 0; bit < 64; bit++ {
		v := uint64(1) << bit
		if m.FeatureBits&v == 0 {
			continue
		}
		f, ok := featurebits.ByBit(v)
		label := fmt.Sprintf("0x%X", v)
		if !ok {
			fn.Field(label, "(no known name)", r.facts.span("feature_bits"))
			continue
		}
		fn.Field(label, f.Name, r.facts.span("feature_bits")).Explain("%s [%s]", f.Meaning, f.Confidence)
	}
	return fn
}

// membersNode is every member and what refers to it.
func (r *resolver) membersNode() *doc.Node {
	mt := &doc.Table{Rows: [][]string{}, Columns: []string{"member", "bytes", "referred to by"}}
	for _, p := range r.a.paths {
		who := strings.Join(r.a.refs[p], "; ")
		if who == "" {
			if role, ok := sidecarRole(p); ok {
				who = "(found by name: " + role + ")"
			} else {
				who = "(nothing)"
			}
		}
		mt.Rows = append(mt.Rows, []string{p, fmtInt(r.a.size(p)), who})
		mt.RowSpans = append(mt.RowSpans, deref(r.memberSpan(p)))
	}
	return &doc.Node{Kind: doc.KindMembers, Key: "members", Label: "members", Value: strconv.Itoa(len(r.a.paths)), Table: mt, Detail: "every member and what refers to it"}
}

// memberSpan is the whole of a member (nil when there is none).
func (r *resolver) memberSpan(p string) *doc.Span {
	if p == "" || !r.a.has(p) {
		return nil
	}
	return doc.In(p, 0, r.a.size(p))
}

// valueSpan is the span of a top-level key's value in the first member that has it.
func (r *resolver) valueSpan(paths []string, key string) *doc.Span {
	for _, p := range paths {
		if d := r.docs[p]; d != nil && d.v != nil {
			if v := d.v.Get(key); v != nil {
				return d.span(v)
			}
		}
	}
	return nil
}

// maxSetsListed bounds the overview's list of activation set names (a name list of a hostile
// file can be as long as its bytes allow); past it one field counts the rest.
const maxSetsListed = 256

// deref is a row span; a missing span becomes an empty one.
func deref(s *doc.Span) doc.Span {
	if s == nil {
		return doc.Span{}
	}
	return *s
}
