package inspect

import (
	"fmt"
	"github.com/neffscope/neffscope/core/ntff"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pwp"
)

// The overview is a NEFF's landing view: the answers a user opens the file for (what chip,
// which compiler, the inputs and outputs, how much each engine does, the activation functions
// and how far they are from the true function, DMA, memory, whether the file is sound), each
// with a Link to the node that holds the detail. The CLI can print the same node.

// Keys of File.links besides pwp refs.
const (
	linkSet    = "set:"    // + a set's profile member
	linkQueues = "queues:" // + a core name
)

// rowLinks fills a listing table's RowLinks (rows from..): an ActivationTableLoad leads to its
// set, an Activate to its function (and its plot), a DMA trigger to its block's node, else its queue's (rowlinks.go).
func (f *File) rowLinks(ps *ProgramStream, t *doc.Table, from int) {
	if len(f.links) == 0 || f.Program == nil {
		return
	}
	links := make([]string, len(t.Rows))
	any := false
	for k := range t.Rows {
		i := from + k
		if i >= ps.ISA.Len() {
			break
		}
		w := ps.ISA.Word(i)
		if isa.JoinOf(w[0]) == isa.JoinNone {
			continue
		}
		r := f.Program.Resolve(ps, i, w)
		var l string
		switch {
		case r.Function != "" && r.Set != "":
			if s := coreSet(f.Program, ps.Core, r.Set); s != nil {
				l = f.links[doc.PWPRef(s.ProfilePath, r.Function)]
			}
		case r.Set != "":
			if s := coreSet(f.Program, ps.Core, r.Set); s != nil {
				l = f.links[linkSet+s.ProfilePath]
			}
		case r.Queue != "":
			if l, _ = f.dmaLink(ps, r); l == "" { // its block's or its queue's node (rowlinks.go)
				l = f.links[linkQueues+ps.Core.Name]
			}
		}
		if l != "" {
			links[k], any = l, true
		}
	}
	if any {
		t.RowLinks = links
	}
}

// Overview section keys (children of the overview node, KindAnswer).
const (
	OverviewModel      = "model"
	OverviewIO         = "io"
	OverviewEngines    = "engines"
	OverviewActivation = "activation"
	OverviewDMA        = "dma"
	OverviewMemory     = "memory"
	OverviewSource     = "source"
	OverviewVerdict    = "verdict"
	OverviewFindings   = "findings"
)

// Attr keys of overview items (values are strings; numbers in decimal).
const (
	AttrChip      = "chip"      // model target: the chip in words
	AttrInstances = "instances" // model target: the EC2 instance families that carry it
	AttrCore      = "core"      // engine cell, activation row: the core (sgNN)
	AttrEngine    = "engine"    // engine cell: the engine name
	AttrCount     = "count"     // engine cell: instructions; activation row: Activate words
	AttrMix       = "mix"       // engine cell: the opcode mix, most used first ("MatMult 8, Copy 2")
	AttrSet       = "set"       // activation row: the set name
	AttrFunction  = "function"  // activation row: the function name ("" for a set row)
	AttrUsed      = "used"      // activation row: "called" (an Activate names it) or "loaded"
	AttrMaxAbs    = "max_abs"   // activation row: worst absolute error on the sweep
	AttrMaxULP    = "max_ulp"   // activation row: worst error in fp32 ulps on the sweep
	AttrRange     = "range"     // activation row: the sweep's input range "lo,hi" (inside doc.AttrDomain)
	AttrBytes     = "bytes"     // memory item, DMA row: bytes
	AttrCause     = "cause"     // cause group: one of the Cause* values
	AttrOK        = "ok"        // verdict items: "true" or "false"
)

// Root causes of findings (AttrCause), most fundamental first.
const (
	CauseNotNEFF   = "not-neff"  // the file is not a NEFF at all
	CauseTruncated = "truncated" // the file ends before header_size + data_size
	CauseHash      = "hash"      // the payload does not match the header's hash
	CauseOther     = "other"     // findings no root cause explains
)

// chipWords is the kelf target → chip table (evidence: libnrt's arch ids, spec neff.md §2.2,
// and the Neuron docs' instance pages: Trn1/Inf2 carry NeuronCore-v2, Trn2 NeuronCore-v3).
var chipWords = []struct{ target, chip, instances string }{
	{"sunda", "AWS Trainium (NeuronCore-v2)", "trn1, inf2"},
	{"v2", "AWS Trainium (NeuronCore-v2)", "trn1, inf2"},
	{"cayman", "AWS Trainium2 (NeuronCore-v3)", "trn2"},
	{"v3", "AWS Trainium2 (NeuronCore-v3)", "trn2"},
}

// overviewSweepPoints bounds the error sweep per activation function: a few thousand
// evaluations, well under a millisecond, so the overview never slows an open.
const overviewSweepPoints = 1025

// Overview builds the overview node of an opened NEFF whose tree (root) is complete: Links
// name nodes of root by path. It never fails; a file with no program still gets its verdict
// and findings.
func Overview(f *File, root *doc.Node) *doc.Node {
	// The var nodes first: their findings are the document's, and the walk below counts them.
	if f != nil && f.Program != nil {
		linkVars(f.Program, root)
		queueNodes(f.Program, root) // rowlinks.go
	}
	ix := indexOverviewTargets(root)
	// A member named elsewhere (Model › cores › sg00 › engines › PE › stream) leads to the
	// member itself, where its decoded view (listing, JSON tree) is.
	for _, n := range ix.toMember {
		n.Link = ix.link(ix.members[n.Ref])
	}
	if f != nil {
		keepListingLinks(f, root, ix)
	}

	ov := &doc.Node{Kind: doc.KindOverview, Key: "overview", Label: "overview", Detail: "the answers first: each item links to its detail"}
	var words []string
	if f != nil && f.Program != nil {
		words = overviewProgram(ov, f, root, ix)
	}
	if f != nil && f.Archive != nil {
		ov.Children = append([]*doc.Node{overviewVerdict(f, ix)}, ov.Children...)
	}
	overviewFindings(ov, f, ix.found, ix.paths, ix.link)
	ov.Value = strings.Join(words, " · ")
	return ov
}

// overviewTargets holds the paths of the nodes the overview links to: members, activation
// sets and functions, nodes with findings, and those find looked up.
type overviewTargets struct {
	root     *doc.Node
	paths    map[*doc.Node][]string
	members  map[string]*doc.Node // by member ref
	found    []foundAt
	toMember []*doc.Node // fields outside the archive naming a member's bytes (an engine's stream)
}

// indexOverviewTargets walks root once and keeps the paths of the nodes the overview links
// to (a document holds every member's JSON tree, so keeping every path would cost more than
// the rest of the overview).
func indexOverviewTargets(root *doc.Node) *overviewTargets {
	ix := &overviewTargets{root: root, paths: map[*doc.Node][]string{}, members: map[string]*doc.Node{}}
	var stack []string
	inMember := 0
	var walk func(n *doc.Node)
	walk = func(n *doc.Node) {
		keep := false
		if n.Kind != doc.KindMember && inMember == 0 && n.Link == "" {
			if k, _ := doc.ParseRef(n.Ref); k == doc.RefMember {
				ix.toMember = append(ix.toMember, n)
			}
		}
		switch {
		case n.Kind == doc.KindMember:
			ix.members[n.Ref], keep = n, true
			inMember++
			defer func() { inMember-- }()
		case n.Kind == pwp.KindSet || n.Kind == pwp.KindFunction:
			keep = true
		}
		if len(n.Findings) > 0 {
			keep = true
			for i, x := range n.Findings {
				ix.found = append(ix.found, foundAt{x, n, i})
			}
		}
		if keep {
			ix.paths[n] = append([]string(nil), stack...)
		}
		for _, c := range n.Children {
			if c != nil {
				stack = append(stack, c.PathKey())
				walk(c)
				stack = stack[:len(stack)-1]
			}
		}
	}
	walk(root)
	return ix
}

// link is the node link of a node whose path is kept, or "".
func (ix *overviewTargets) link(n *doc.Node) string {
	if p, ok := ix.paths[n]; ok && n != nil {
		return doc.NodeLink(p...)
	}
	return ""
}

// find returns a node by path and records its path for link.
func (ix *overviewTargets) find(p ...string) *doc.Node {
	n := ix.root.Find(p...)
	if n != nil {
		ix.paths[n] = p
	}
	return n
}

// memberLink is the link of the member at path member.
func (ix *overviewTargets) memberLink(member string) string {
	return ix.link(ix.members[doc.MemberRef(member)])
}

// keepListingLinks records what listing rows lead to: sets by profile member, functions by
// ref, queues by core.
func keepListingLinks(f *File, root *doc.Node, ix *overviewTargets) {
	f.links = map[string]string{}
	for n, p := range ix.paths {
		switch {
		case n.Kind == pwp.KindSet && n.Span != nil:
			f.links[linkSet+n.Span.Source] = doc.NodeLink(p...)
		case n.Kind == pwp.KindFunction && n.Ref != "":
			f.links[n.Ref] = doc.NodeLink(p...)
		}
	}
	if f.Program != nil {
		for _, c := range f.Program.Model.Cores {
			if ix.find("model", "cores", c.Name, "dma_queues") != nil {
				f.links[linkQueues+c.Name] = doc.NodeLink("model", "cores", c.Name, "dma_queues")
			}
		}
		f.keepQueueLinks(root)
	}
}

// overviewProgram adds the sections of a file with a program and returns the words of the
// overview's one-line value.
func overviewProgram(ov *doc.Node, f *File, root *doc.Node, ix *overviewTargets) []string {
	p := f.Program
	m := p.Model
	words := overviewModel(ov, m, ix.find, ix.link)
	cause, _ := rootCause(f)
	overviewIO(ov, m, cause, ix.find, ix.link)
	words = append(words, overviewEngines(ov, p, ix.memberLink)...)
	overviewActivation(ov, p, root, ix.link)
	overviewDMA(ov, p, ix.find, ix.link)
	overviewMemory(ov, f)
	overviewSource(ov, ix.find, ix.link)
	if f.sourcePending {
		s := section(ov, OverviewSource, "kernel source")
		s.Value = "mapping source lines…"
		s.Detail = "the .dbg debug info is read after the open; this answer fills in when it is done"
		s.SetAttr(AttrPending, "the .dbg debug info")
	}
	overviewHot(ov, f) // hotlines.go
	overviewNoLine(ov, f)
	overviewSyncStub(ov, f)
	return words
}

// overviewVerdict is the first answer: the open decides the hash, the runtime and the file's
// own errors; the sync and memory checks are pending (SyncOverview).
func overviewVerdict(f *File, ix *overviewTargets) *doc.Node {
	v := verdictFacts{a: f.Archive, program: f.Program != nil && f.Program.Model != nil}
	v.cause, v.why = rootCause(f)
	fs := make([]doc.Finding, len(ix.found))
	for i, x := range ix.found {
		fs[i] = x.f
	}
	v.addFindings(fs)
	return v.node(ix.link, ix.find)
}

// Attr keys of a variable's node (model › cores › sgNN › vars › <name>).
const (
	AttrVar   = "var"    // the var's name
	AttrVarID = "var_id" // its def.json var_id ("" when it has none)
)

// maxVarUses bounds the instructions a variable's node tables.
const maxVarUses = 4096

// linkVars gives each core's vars table one child per variable: its def.json entry (span,
// and a Link to the entry in def.json's tree) and the table of the 0xD4 instructions that name
// it (each row's span is the instruction's word, which the page opens in its listing).
func linkVars(p *Program, root *doc.Node) {
	for _, c := range p.Model.Cores {
		vars := root.Find("model", "cores", c.Name, "vars")
		if vars == nil || len(vars.Children) > 0 {
			continue
		}
		if len(c.Vars) > varNodesHeld {
			// Too many to hold: a stub, its var nodes built on demand (expandVars) from the
			// ref that also pages its table (records:<def.json>).
			vars.SetAttr(doc.AttrMore, strconv.Itoa(len(c.Vars)))
			continue
		}
		uses := p.takeVarUses(c)
		for i := range c.Vars {
			vars.Add(varNode(c, &c.Vars[i], uses, func(path ...string) bool { return root.Find(path...) != nil }))
		}
	}
}

// varNodesHeld is the most var nodes a core's vars node holds (as manifest's var table).
const varNodesHeld = 2000

// varNode is the node of one def.json var: its entry and the 0xD4 instructions that name it.
// has says whether a node path exists (the link to the var's def.json entry).
func varNode(c *manifest.Core, v *manifest.Var, uses map[int64][]VarUse, has func(...string) bool) *doc.Node {
	defDir := path.Dir(c.DefPath) + "/"
	n := &doc.Node{Kind: doc.KindField, Key: v.Name, Label: v.Name, Span: v.Entry(c.DefPath)}
	n.SetAttr(AttrVar, v.Name).SetAttr(AttrVarID, "")
	var what []string
	if v.Type != "" {
		what = append(what, v.Type)
	}
	if v.ID >= 0 {
		n.SetAttr(AttrVarID, strconv.FormatInt(v.ID, 10))
		what = append(what, "var_id "+strconv.FormatInt(v.ID, 10))
	}
	if v.Size >= 0 {
		what = append(what, neff.HumanSize(v.Size))
	}
	entry := []string{"members", defDir, path.Base(c.DefPath), "content", "var", v.Name}
	if has(entry...) {
		n.Link = doc.NodeLink(entry...)
	}
	var us []VarUse
	if v.ID >= 0 {
		us = uses[v.ID]
	}
	t := &doc.Table{Columns: []string{"stream", "#", "opcode", "as", "address"}, Rows: [][]string{}}
	for k, u := range us {
		if k == maxVarUses {
			n.SetAttr(doc.AttrViewLimit, fmt.Sprintf("only the first %d of the %d instructions of %s that name it are listed", maxVarUses, len(us), c.Name))
			break
		}
		t.Rows = append(t.Rows, []string{u.Stream.Member, strconv.Itoa(int(u.Index)), "PseudoDmaDirect2d", u.Role(), u.Addr()})
		t.RowSpans = append(t.RowSpans, doc.Span{Source: u.Stream.Member, Offset: int64(u.Index) * isa.WordSize, Length: isa.WordSize})
	}
	if len(t.Rows) > 0 {
		n.Table = t
	}
	what = append(what, plural(len(us), "instruction"))
	n.Value = strings.Join(what, " · ")
	n.Detail = "def.json var " + v.Name + " of " + c.Name + ": its entry in " + c.DefPath + ", and the PseudoDmaDirect2d (0xD4) instructions whose source or destination address names it"
	return n
}

func init() { expanders[doc.RefRecords] = expandRecords }

// expandRecords builds the children of a records: stub: a core's var nodes, or an activation
// set's bucket or ctrl records (a .dbg member's records are rows only).
func expandRecords(f *File, stub *doc.Node, from, to int) ([]*doc.Node, int, error) {
	_, member := doc.ParseRef(stub.Ref)
	if f.NTFF != nil && ntff.Owns(member) {
		return f.NTFF.Children(member, from, to)
	}
	var c *manifest.Core
	if f.Program != nil {
		c = f.Program.Model.CoreOfDef(member)
	}
	if c == nil {
		if blob, ok := f.actBlob(member); ok {
			return blob.Nodes(from, to), blob.Len(), nil
		}
		return nil, 0, fmt.Errorf("%w: %q names no def.json and no activation blob", ErrNotFound, member)
	}
	uses := f.Program.varUses(c)
	// Every var is a key of def.json's var object (a repeated name: the last one, which the
	// runtime keeps); looking each up under the stub would parse the object once per var.
	has := func(...string) bool { return true }
	from, to = clampRange(from, to, len(c.Vars))
	kids := make([]*doc.Node, 0, to-from)
	for i := from; i < to; i++ {
		kids = append(kids, varNode(c, &c.Vars[i], uses, has))
	}
	return kids, len(c.Vars), nil
}

func section(ov *doc.Node, key, label string) *doc.Node {
	return ov.Add(&doc.Node{Kind: doc.KindAnswer, Key: key, Label: label})
}

func overviewModel(ov *doc.Node, m *manifest.Model, find func(...string) *doc.Node, link func(*doc.Node) string) []string {
	s := section(ov, OverviewModel, "model")
	chip, inst := "unknown chip", ""
	for _, c := range chipWords {
		if c.target == m.Target {
			chip, inst = c.chip, c.instances
		}
	}
	t := &doc.Node{Kind: doc.KindField, Key: "target", Label: "target", Value: chip, Link: link(find("model", "target"))}
	t.SetAttr(doc.AttrTarget, m.Target).SetAttr(AttrChip, chip).SetAttr(AttrInstances, inst)
	t.Detail = fmt.Sprintf("kelf target %q", m.Target)
	if inst != "" {
		t.Detail += "; instances " + inst
	}
	s.Add(t)
	compiler := "not recorded (no info.json tool_version)"
	if m.Info != nil && m.Info.ToolVersion != "" {
		compiler = "neuronx-cc " + m.Info.ToolVersion
	}
	s.Add(&doc.Node{Kind: doc.KindField, Key: "compiler", Label: "compiler", Value: compiler, Link: link(find("model", "compiler"))})
	s.Add(&doc.Node{Kind: doc.KindField, Key: "cores", Label: "cores", Value: strconv.Itoa(len(m.Cores)), Link: link(find("model", "cores")),
		Detail: "one subgraph (sgNN) per physical NeuronCore"})
	s.Value = chip
	short := chip
	if inst != "" {
		short = strings.ToUpper(inst[:1]) + inst[1:strings.IndexAny(inst+",", ",")]
	}
	return []string{short, plural(len(m.Cores), "core")}
}

// AttrUnknown marks an answer whose figure is not known (a file cut short before what holds
// it): its value says why, and no count stands in for it.
const AttrUnknown = "unknown"

func overviewIO(ov *doc.Node, m *manifest.Model, cause string, find func(...string) *doc.Node, link func(*doc.Node) string) {
	s := section(ov, OverviewIO, "inputs and outputs")
	s.Value = ioCount(len(m.Inputs), distinctTensors(m.Inputs), "in") + ", " + ioCount(len(m.Outputs), distinctTensors(m.Outputs), "out")
	s.SetAttr(AttrInputs, strconv.Itoa(distinctTensors(m.Inputs))).SetAttr(AttrOutputs, strconv.Itoa(distinctTensors(m.Outputs)))
	if len(m.Inputs)+len(m.Outputs) == 0 && (cause == CauseTruncated || cause == CauseNotNEFF) {
		// No tensor read is no tensor known: the manifests that list them may be past the cut.
		s.Value = "not known: the file is cut short before the manifests that list them"
		s.SetAttr(AttrUnknown, "the file is cut short").SetAttr(AttrInputs, "").SetAttr(AttrOutputs, "")
	}
	t := &doc.Table{Columns: []string{"", "name", "dtype", "shape", "bytes"}, Rows: [][]string{}}
	add := func(dir string, ts []*manifest.Tensor, n *doc.Node) {
		for _, x := range ts {
			shape := make([]string, len(x.Shape))
			for i, d := range x.Shape {
				shape[i] = strconv.FormatInt(d, 10)
			}
			t.Rows = append(t.Rows, []string{dir, x.Name, x.DType, "[" + strings.Join(shape, ", ") + "]", strconv.FormatInt(x.Bytes, 10)})
			var sp doc.Span
			if x.Span != nil {
				sp = *x.Span
			}
			t.RowSpans = append(t.RowSpans, sp)
			l := ioVarLink(m, x.Name, find) // its def.json var and the instructions that touch it (rowlinks.go)
			if l == "" {
				l = link(n)
			}
			t.RowLinks = append(t.RowLinks, l)
		}
	}
	add("in", m.Inputs, find("model", "inputs"))
	add("out", m.Outputs, find("model", "outputs"))
	s.Table = t
}

// Attr keys of the inputs-and-outputs answer: how many distinct tensors each way ("" when
// not known).
const (
	AttrInputs  = "inputs"
	AttrOutputs = "outputs"
)

// distinctTensors counts tensors by name: the graph lists one output once per index of the
// device node that writes it, so one output can be listed twice.
func distinctTensors(ts []*manifest.Tensor) int {
	seen := map[string]bool{}
	for _, t := range ts {
		seen[t.Name] = true
	}
	return len(seen)
}

// ioCount is "2 in", or "1 out (listed 2 times)" when names repeat.
func ioCount(listed, distinct int, dir string) string {
	s := strconv.Itoa(distinct) + " " + dir
	if listed != distinct {
		s += " (listed " + strconv.Itoa(listed) + " times)"
	}
	return s
}

// overviewEngines is the cores × engines grid: one cell per stream, with its count and mix.
func overviewEngines(ov *doc.Node, p *Program, memberLink func(string) string) []string {
	cells := make([]engineCell, 0, len(p.Streams))
	for _, ps := range p.Streams {
		c := engineCell{core: ps.Core.Name, engine: ps.Engine.Name, member: ps.Member, size: ps.Size, count: ps.Count, link: memberLink(ps.Member)}
		if ps.ISA != nil {
			c.count = int64(ps.ISA.Len())
			cs := ps.ISA.Counts()
			sort.SliceStable(cs, func(i, j int) bool { return cs[i].Count > cs[j].Count })
			for _, x := range cs {
				c.mix = append(c.mix, fmt.Sprintf("%s %d", x.Name, x.Count))
			}
		}
		cells = append(cells, c)
	}
	return enginesSection(ov, cells)
}

// engineCell is one stream of the cores × engines grid: what the overview and the partial
// overview (partial.go, from the stream's size alone) both show.
type engineCell struct {
	core, engine, member string
	size, count          int64
	mix                  []string // "" while not known (the partial overview)
	link                 string
}

// enginesSection adds the instructions section: one engine node per cell and their table.
func enginesSection(ov *doc.Node, cells []engineCell) []string {
	s := section(ov, OverviewEngines, "instructions")
	t := &doc.Table{Columns: []string{"core", "engine", "instructions", "opcode mix"}, Rows: [][]string{}}
	var total int64
	for _, c := range cells {
		count := max(c.count, 0)
		total += count
		cell := &doc.Node{Kind: doc.KindEngine, Key: c.core + " " + c.engine, Label: c.engine, Value: strconv.FormatInt(count, 10),
			Link: c.link, Span: doc.In(c.member, 0, c.size)}
		cell.SetAttr(AttrCore, c.core).SetAttr(AttrEngine, c.engine).SetAttr(AttrCount, cell.Value).SetAttr(AttrMix, strings.Join(c.mix, ", "))
		cell.Detail = c.member
		s.Add(cell)
		t.Rows = append(t.Rows, []string{c.core, c.engine, cell.Value, cell.Attrs[AttrMix]})
		t.RowLinks = append(t.RowLinks, cell.Link)
	}
	s.Table = t
	s.Value = fmt.Sprintf("%d in %d streams", total, len(cells))
	return []string{plural(int(total), "instruction")}
}

// overviewActivation lists each core's loaded sets and their functions, the called ones (an
// Activate names them) first, each with its worst error on a bounded sweep.
func overviewActivation(ov *doc.Node, p *Program, root *doc.Node, link func(*doc.Node) string) {
	s := section(ov, OverviewActivation, "activation functions")
	type use struct{ loads, calls map[string]int }
	byCore := map[string]*use{}
	var order []string
	ow := p.walked()
	for _, ps := range p.Streams {
		sw := ow.streams[ps] // a stream not held is not walked at open (see streamNode)
		if sw == nil || !sw.used {
			continue
		}
		u := byCore[ps.Core.Name]
		if u == nil {
			u = &use{loads: map[string]int{}, calls: map[string]int{}}
			byCore[ps.Core.Name] = u
			order = append(order, ps.Core.Name)
		}
		for k, n := range sw.loads {
			u.loads[k] += n
		}
		for k, n := range sw.calls {
			u.calls[k] += n
		}
	}
	// Function nodes of the tree by their ref, for the links.
	fnNodes := map[string]*doc.Node{}
	setNodes := map[string]*doc.Node{}
	if act := root.Child("activation"); act != nil {
		for _, n := range act.Children {
			if n.Kind != pwp.KindSet || n.Span == nil {
				continue
			}
			setNodes[n.Span.Source] = n
			for _, g := range n.Children {
				for _, fn := range g.Children {
					if fn.Kind == pwp.KindFunction {
						fnNodes[fn.Ref] = fn
					}
				}
			}
		}
	}
	opt, _ := evalOptions("")
	var nCalled, nSets int
	for _, core := range order {
		u := byCore[core]
		c := p.Model.Core(core)
		var sets []string
		for name := range u.loads {
			sets = append(sets, name)
		}
		sort.Strings(sets)
		for _, name := range sets {
			set := coreSet(p, c, name)
			sn := &doc.Node{Kind: doc.KindField, Key: core + " " + name, Label: name, Value: plural(u.loads[name], "ActivationTableLoad")}
			sn.SetAttr(AttrCore, core).SetAttr(AttrSet, name).SetAttr(AttrFunction, "").SetAttr(AttrCount, strconv.Itoa(u.loads[name]))
			s.Add(sn)
			nSets++
			if set == nil {
				sn.Detail = "the set's tables are not in the archive"
				continue
			}
			sn.Link = link(setNodes[set.ProfilePath])
			sn.Detail = set.ProfilePath
			fns := append([]*pwp.Function(nil), set.Functions...)
			sort.SliceStable(fns, func(i, j int) bool {
				ci, cj := u.calls[name+"\x00"+fns[i].Name], u.calls[name+"\x00"+fns[j].Name]
				return ci > 0 && cj == 0
			})
			for _, fn := range fns {
				calls := u.calls[name+"\x00"+fn.Name]
				fnode := &doc.Node{Kind: doc.KindField, Key: core + " " + name + " " + fn.Name, Label: fn.Name}
				fnode.SetAttr(AttrCore, core).SetAttr(AttrSet, name).SetAttr(AttrFunction, fn.Name).SetAttr(AttrCount, strconv.Itoa(calls))
				if calls > 0 {
					fnode.SetAttr(AttrUsed, "called")
					nCalled++
				} else {
					fnode.SetAttr(AttrUsed, "loaded")
				}
				fnode.Link = link(fnNodes[doc.PWPRef(set.ProfilePath, fn.Name)])
				dom, known := fn.Domain()
				switch {
				case fn.Reference() == nil:
					fnode.Value = "no reference function"
				case !known:
					fnode.Value = "no domain in the catalog"
					fnode.Detail = "the catalog does not list " + fn.Bare + ", so the range its table is right on is unknown and no error is measured"
				default:
					// The error is measured where the table is meant to be right: its domain,
					// clipped to the window the plot opens on (sin_4p is right on [−π, π] only).
					lo, hi := dom.Window()
					fnode.SetAttr(AttrRange, fmtFloat(lo)+","+fmtFloat(hi)).SetAttr(doc.AttrDomain, dom.Attr())
					st := fn.Sweep(lo, hi, overviewSweepPoints, opt)
					fnode.SetAttr(AttrMaxAbs, fmtFloat(st.MaxAbs)).SetAttr(AttrMaxULP, fmtFloat(st.MaxULP))
					fnode.Value = fmt.Sprintf("max abs %.3g, %.3g ulp", st.MaxAbs, st.MaxULP)
					fnode.Detail = fmt.Sprintf("worst error against the float64 %s on %d points of [%s, %s], inside the table's range %s", fn.Bare, st.N, fmtFloat(lo), fmtFloat(hi), dom)
				}
				sn.Add(fnode)
			}
		}
	}
	// What runs: every ActivationTableLoad word, then how many distinct sets they load.
	loads, names := 0, map[string]bool{}
	for _, u := range byCore {
		for name, n := range u.loads {
			loads += n
			names[name] = true
		}
	}
	s.Value = fmt.Sprintf("%s of %s, %s called", plural(loads, "table load"), plural(len(names), "set"), plural(nCalled, "function"))
	s.SetAttr(AttrCount, strconv.Itoa(loads))
	if nSets == 0 {
		s.Value = "no ActivationTableLoad"
	}
}

// coreSet is the decoded set a core's engine lists under name.
func coreSet(p *Program, c *manifest.Core, name string) *pwp.Set {
	if p.Act == nil || c == nil {
		return nil
	}
	for _, e := range c.Engines {
		for _, as := range e.ActivationSets {
			if as.Name != name {
				continue
			}
			for _, s := range p.Act.Sets {
				if s.ProfilePath == as.ProfilePath {
					return s
				}
			}
		}
	}
	return p.Act.Set(name)
}

// overviewNoLine says on the hottest-source-lines answer how many instruction words have no
// kernel source line: every stream's words (a stream without debug info counts whole) less
// those the source index joined to a line at open (SourceIndex.WithLine: no pass here).
func overviewNoLine(ov *doc.Node, f *File) {
	s := ov.Child(OverviewHotLines)
	if s == nil || f.sourcePending || f.Program.Source == nil {
		return
	}
	var words int64
	for _, ps := range f.Program.Streams {
		words += max(ps.Count, 0)
	}
	n := max(words-int64(f.Program.Source.WithLine), 0)
	s.SetAttr(doc.AttrNoLine, strconv.FormatInt(n, 10))
	s.Detail += "; " + strconv.FormatInt(n, 10) + " of " + strconv.FormatInt(words, 10) + " instruction words have no kernel source line"
}

func fmtFloat(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func overviewDMA(ov *doc.Node, p *Program, find func(...string) *doc.Node, link func(*doc.Node) string) {
	dma, _, skipped := dmaProfile(p, true)
	s := section(ov, OverviewDMA, "DMA")
	s.Table = dma.Table
	if len(skipped) > 0 {
		s.Detail = fmt.Sprintf("the PseudoDmaDirect2d words of %s (and %d more streams, too big to hold) are not counted here; 'neffscope profile' counts them", skipped[0], len(skipped)-1)
	}
	if s.Table == nil {
		return
	}
	ci, qi, bi := col(s.Table, "core"), col(s.Table, "queue"), col(s.Table, "bytes")
	var total int64
	for _, r := range s.Table.Rows {
		var l string
		if ci >= 0 && qi >= 0 {
			l = link(find("model", "cores", r[ci], "dma_queues", r[qi])) // the queue's own row (rowlinks.go)
		}
		if l == "" && ci >= 0 {
			l = link(find("model", "cores", r[ci], "dma_queues"))
		}
		s.Table.RowLinks = append(s.Table.RowLinks, l)
		if bi >= 0 {
			if v, err := strconv.ParseInt(r[bi], 10, 64); err == nil {
				total += v
			}
		}
	}
	s.SetAttr(AttrBytes, strconv.FormatInt(total, 10))
	s.Value = fmt.Sprintf("%s, %s moved by static descriptors", plural(len(s.Table.Rows), "queue"), neff.HumanSize(total))
}

func col(t *doc.Table, name string) int {
	for i, c := range t.Columns {
		if c == name {
			return i
		}
	}
	return -1
}

// overviewMemory holds the memory budget node itself (the bars link into it).
func overviewMemory(ov *doc.Node, f *File) {
	mb := Memory(f)
	if mb == nil {
		return
	}
	n := MemoryNode(mb) // its figures carry AttrBytes for the bars
	n.Key = OverviewMemory
	ov.Add(n)
}

// overviewSource is the answer "Source: N kernel lines in K files", linking to the source
// view (model › source), with one row per file; a NEFF without debug info says so once.
func overviewSource(ov *doc.Node, find func(...string) *doc.Node, link func(*doc.Node) string) {
	src := find("model", "source")
	if src == nil {
		return
	}
	s := section(ov, OverviewSource, "kernel source")
	s.Link = link(src)
	lines := find("model", "source", SourceLines)
	if lines == nil || lines.Table == nil || col(lines.Table, "file") < 0 {
		s.Value = "no debug info"
		s.Detail = "this NEFF carries no .dbg debug info, so its instructions cannot be traced to kernel source lines"
		return
	}
	fi := col(lines.Table, "file")
	count := map[string]int{}
	var files []string
	for _, r := range lines.Table.Rows {
		if count[r[fi]] == 0 {
			files = append(files, r[fi])
		}
		count[r[fi]]++
	}
	s.Table = &doc.Table{Columns: []string{"file", "lines"}, Rows: [][]string{}}
	for _, file := range files {
		s.Table.Rows = append(s.Table.Rows, []string{file, strconv.Itoa(count[file])})
		s.Table.RowLinks = append(s.Table.RowLinks, s.Link)
	}
	s.Value = plural(len(lines.Table.Rows), "kernel line") + " in " + plural(len(files), "file")
	if len(lines.Table.Rows) == 0 {
		s.Value = "no kernel lines: the debug info names BIR instructions only"
		s.Table = nil
	}
	s.Detail = src.Value
}

// rootCause names the one fact that explains the rest, or "" when there is none.
// causeCodes are the finding codes of the root causes, for the scan's problem list.
var causeCodes = map[string]doc.Code{CauseNotNEFF: doc.CodeFileNotNEFF, CauseTruncated: doc.CodeNeffTruncated, CauseHash: doc.CodeNeffHashMismatch}

func rootCause(f *File) (cause, why string) {
	if f == nil || f.Archive == nil {
		return "", ""
	}
	a := f.Archive
	h := a.Header
	switch {
	case a.FileSize >= neff.HeaderSize && !looksLikeNEFF(a) || a.FileSize < neff.HeaderSize && !(h.PkgVersion == 1 || h.PkgVersion == 2):
		cause = CauseNotNEFF
	case h.Have >= neff.HeaderSize && uint64(a.FileSize) < h.HeaderSize+h.DataSize || a.FileSize < neff.HeaderSize:
		_, why = causeWords(CauseTruncated)
		return CauseTruncated, fmt.Sprintf("The file is cut short: it has %d bytes, its header says %d. %s", a.FileSize, h.HeaderSize+h.DataSize, why)
	case a.Payload.Integrity == doc.IntegrityMismatch:
		cause = CauseHash
	default:
		return "", ""
	}
	_, why = causeWords(cause)
	return cause, why
}

// causeWords is a root cause's label and what it tells the user: what happened and the one
// thing to do, which the advice of the findings it explains does not replace (a member cut
// short says "re-extract or recompile" whatever cut it; a file cut short needs copying again).
func causeWords(cause string) (label, why string) {
	switch cause {
	case CauseNotNEFF:
		return "not a NEFF", "This file is not a NEFF: it has no NEFF header. The findings below follow from that."
	case CauseTruncated:
		return "file cut short", "Everything missing below follows from that: whatever those findings advise, the fix is to copy the file again whole (nothing needs rebuilding)."
	case CauseHash:
		return "hash mismatch", "The payload does not match the header's hash: the file was changed after it was written. The runtime refuses it; copy it again from where it was built, or rebuild it."
	}
	return "other findings", "findings no root cause explains"
}

// RootCause is rootCause as a finding: its code and what it tells the user ("" when the file
// has no root cause). A scan record (core/fleet) lists it first.
func RootCause(f *File) (doc.Code, string) {
	if cause, why := rootCause(f); cause != "" {
		return causeCodes[cause], why
	}
	return "", ""
}

// overviewFindings groups every finding of the document under its root cause (first) and
// the rest; rows link to the node that holds the finding.
// foundAt is a finding and the node that holds it.
type foundAt struct {
	f doc.Finding
	n *doc.Node
	i int // its index in n.Findings
}

func overviewFindings(ov *doc.Node, f *File, all []foundAt, paths map[*doc.Node][]string, link func(*doc.Node) string) {
	s := section(ov, OverviewFindings, "findings")
	cause, why := rootCause(f)
	rank := map[string]int{doc.Error: 0, doc.Warning: 1, doc.Info: 2}
	sort.SliceStable(all, func(i, j int) bool { return rank[all[i].f.Severity] < rank[all[j].f.Severity] })
	group := func(c, label, detail string) *doc.Node {
		g := &doc.Node{Kind: doc.KindCause, Key: c, Label: label, Detail: detail, Table: &doc.Table{Columns: []string{"severity", "finding", "where", "code"}, Rows: [][]string{}}}
		g.SetAttr(AttrCause, c)
		return g
	}
	var explained, other *doc.Node
	if cause != "" {
		label, _ := causeWords(cause)
		explained = group(cause, label, why)
		explained.SetAttr(AttrCode, string(causeCodes[cause]))
	}
	other = group(CauseOther, "other findings", "findings no root cause explains")
	for _, h := range all {
		g := other
		if explained != nil && explains(cause, h.f, paths[h.n]) {
			g = explained
			// The finding itself says which root cause explains it (the code of the root
			// cause's own finding), for every front end to group by.
			if code := causeCodes[cause]; h.f.Code != code && h.i < len(h.n.Findings) {
				h.n.Findings[h.i].Cause = code
			}
		}
		where := strings.Join(paths[h.n], " › ")
		if h.f.Span != nil {
			where += " · " + h.f.Span.String()
		}
		g.Table.Rows = append(g.Table.Rows, []string{h.f.Severity, h.f.Message, where, string(h.f.Code)})
		var sp doc.Span
		if h.f.Span != nil {
			sp = *h.f.Span
		}
		g.Table.RowSpans = append(g.Table.RowSpans, sp)
		g.Table.RowLinks = append(g.Table.RowLinks, link(h.n))
	}
	counts := map[string]int{}
	for _, h := range all {
		counts[h.f.Severity]++
	}
	var parts []string
	for _, sev := range []string{doc.Error, doc.Warning, doc.Info} {
		if counts[sev] > 0 {
			parts = append(parts, plural(counts[sev], sev))
		}
	}
	s.Value = strings.Join(parts, ", ")
	if len(all) == 0 {
		s.Value = "none: every check passed"
	}
	if explained != nil {
		explained.Value = plural(len(explained.Table.Rows), "finding")
		s.Add(explained)
		s.SetAttr(AttrCause, cause)
	}
	if len(other.Table.Rows) > 0 || explained == nil {
		other.Value = plural(len(other.Table.Rows), "finding")
		s.Add(other)
	}
}

// explains says whether a root cause accounts for a finding: a cut file explains every
// finding past the header; a bad hash the integrity and runtime findings; a non-NEFF all.
func explains(cause string, f doc.Finding, at []string) bool {
	if code := causeCodes[cause]; code != "" && (f.Code == code || f.Cause == code) {
		// The root cause's own finding (a cut file's data_size, in the header), or one whose
		// reader named the cause (the header's hash not checked: the file is cut).
		return true
	}
	switch cause {
	case CauseNotNEFF:
		return true
	case CauseTruncated:
		return len(at) == 0 || at[0] != "header"
	case CauseHash:
		return len(at) > 0 && (at[0] == "runtime" || at[0] == "payload")
	}
	return false
}

// Plural is "1 kernel line", "2 kernel lines" (the overview's words; core/fleet says them too).
func Plural(n int, what string) string { return plural(n, what) }

func plural(n int, what string) string {
	if n == 1 || what == doc.Info {
		return strconv.Itoa(n) + " " + what
	}
	if strings.HasSuffix(what, "s") {
		return strconv.Itoa(n) + " " + what + "es"
	}
	return strconv.Itoa(n) + " " + what + "s"
}
