package inspect

import (
	"fmt"
	"github.com/neffscope/neffscope/core/ntff"
	"path"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/pwp"
	"github.com/neffscope/neffscope/core/srcmap"
)

// Program is a NEFF's program as the runtime sees it: the manifests resolved (core/manifest),
// each engine's instruction stream (core/isa), and the activation tables (core/pwp), joined:
// an ActivationTableLoad's set index names a set of that engine's list, an Activate's function
// code names a function of the set resident at that point, a DMA trigger's block id names a
// block of the engine JSON.
type Program struct {
	Model   *manifest.Model
	Streams []*ProgramStream
	Act     *pwp.Bundle
	// Source maps instruction words to kernel source lines through the .dbg members.
	Source *SourceIndex
	// joinFindings counts join problems per kind, reported once per stream.

	// uses caches VarUses per core for var nodes built on demand (expandRecords).
	uses map[*manifest.Core]map[int64][]VarUse
	// walk is the open's one walk over the held streams' words (openwalk.go).
	walk walkOnce
}

// ProgramStream is one engine stream with its place in the program.
type ProgramStream struct {
	manifest.Stream
	ISA *isa.Stream // nil when the stream's bytes are not held
}

// Resolved is what the joins say about one instruction.
type Resolved struct {
	Set      string `json:"set,omitempty"`
	Function string `json:"function,omitempty"`
	Queue    string `json:"queue,omitempty"`
	Block    string `json:"block,omitempty"`
	// Src and Dst are a PseudoDmaDirect2d's (0xD4) addresses joined with def.json's vars.
	Src     string `json:"src,omitempty"`
	Dst     string `json:"dst,omitempty"`
	Problem string `json:"-"`
	// block is the engine JSON block a PseudoDMATrigger (0xC1) names (nil: none known).
	block *manifest.DMABlock
}

// resolvedColumn is the extra listing column the joins fill.
const resolvedColumn = "resolved"

// newProgram resolves a NEFF's program. indexed returns the index of a stream that was not
// held (nil when it was not indexed either).
func newProgram(f *File, indexed func(*neff.Member) *isa.Stream, scans *srcmap.Scans) *Program {
	a := f.Archive
	ms := manifest.NewMemberSet()
	ms.SetReader(f.readBackJSON)
	files := map[string][]byte{}
	for _, m := range a.Members {
		data := m.Data
		if m.Truncated {
			data = nil
		}
		ms.Add(m.Path, m.Size, data)
	}
	p := &Program{Model: manifest.ResolveWith(ms, headerFacts(&a.Header), a.Budget)}
	// The activation tables: the roster, the engine JSONs' set lists and each listed set's files.
	for _, c := range p.Model.Cores {
		addFile := func(name string) {
			if m := a.Member(name); m != nil && !m.Truncated && isJSONName(name) {
				if b, err := f.memberBytes(name, manifest.MaxJSONMember); err == nil {
					files[name] = b
				}
			} else if m != nil {
				if b := f.blobBytes(m, true); b != nil {
					files[name] = b
				}
			}
		}
		addFile(path.Join(c.Dir, "act_info.json"))
		for _, e := range c.Engines {
			for _, s := range e.ActivationSets {
				addFile(e.JSONPath)
				addFile(s.ProfilePath)
				addFile(s.BktPath)
				addFile(s.CtrlPath)
			}
		}
	}
	if len(files) > 0 {
		p.Act = pwp.OpenFiles(files)
	}
	for _, s := range p.Model.Streams() {
		ps := &ProgramStream{Stream: s}
		m := a.Member(s.Member)
		switch {
		case m == nil || m.Truncated:
		case m.Data != nil:
			ps.ISA = isa.NewStream(s.Member, m.Data)
		case indexed != nil:
			ps.ISA = indexed(m)
		}
		if ps.ISA != nil {
			ps.ISA.SetResolver(resolvedColumn, func(i int, word []byte) string {
				return p.Resolve(ps, i, word).String()
			})
		}
		p.Streams = append(p.Streams, ps)
	}
	if scans != nil { // nil: the open defers the source lines (File.IndexSource)
		p.Source = mapSource(p, scans)
	}
	return p
}

// headerFacts is what the manifests are checked against of the header: the fields the compiler
// copies from them, and where each field lies.
func headerFacts(h *neff.Header) manifest.HeaderFacts {
	return manifest.HeaderFacts{Present: h.Have >= neff.HeaderSize, Name: h.Name, NumTPB: h.NumTPB,
		RequestedTPBCount: h.RequestedTPBCount, TPBPerNode: h.TPBPerNode, FeatureBits: h.FeatureBits,
		NeffVersionMajor: h.NeffVersionMajor, At: neff.HeaderFieldSpans()}
}

// Stream finds a stream by member path.
func (p *Program) Stream(member string) *ProgramStream {
	for _, s := range p.Streams {
		if s.Member == member {
			return s
		}
	}
	return nil
}

func (r Resolved) String() string {
	var parts []string
	if r.Set != "" {
		parts = append(parts, "set "+r.Set)
	}
	if r.Function != "" {
		parts = append(parts, "fn "+r.Function)
	}
	if r.Queue != "" {
		parts = append(parts, "queue "+r.Queue)
	}
	if r.Block != "" {
		parts = append(parts, r.Block)
	}
	if r.Src != "" || r.Dst != "" {
		parts = append(parts, r.Src+" → "+r.Dst)
	}
	if r.Problem != "" {
		parts = append(parts, "⚠ "+r.Problem)
	}
	return strings.Join(parts, " · ")
}

// Resolve joins instruction i (its word) of a stream with the manifests and tables.
func (p *Program) Resolve(ps *ProgramStream, i int, word []byte) Resolved {
	var r Resolved
	if len(word) < isa.WordSize || isa.JoinOf(word[0]) == isa.JoinNone { // the one list of joins
		return r
	}
	e := ps.Engine
	if idx, ok := isa.SetIndexOf(word); ok { // 0x23 ActivationTableLoad
		if s := e.ActivationSet(idx); s != nil {
			r.Set = s.Name
		} else {
			r.Problem = fmt.Sprintf("set index %d is outside %s's activation_function_sets (%d sets)", idx, e.JSONPath, len(e.ActivationSets))
		}
		return r
	}
	if code, ok := isa.FuncCodeOf(word); ok { // 0x21 Activate
		setIdx, _, loaded := ps.ISA.ResidentSet(i)
		if !ps.ISA.LoadsKnown(i) {
			r.Problem = "the table loads before it are past the index's limit (isa.table-loads-limit)"
			return r
		}
		if !loaded {
			r.Problem = fmt.Sprintf("function code %d with no ActivationTableLoad before it", code)
			if hint, ok := isa.ActFuncHint(code); ok {
				r.Function = hint + "?"
			}
			return r
		}
		s := e.ActivationSet(setIdx)
		if s == nil {
			r.Problem = fmt.Sprintf("resident set index %d is not in %s", setIdx, e.JSONPath)
			return r
		}
		r.Set = s.Name
		var set *pwp.Set
		if p.Act != nil {
			set = p.Act.Set(s.Name)
		}
		if set == nil {
			r.Problem = "the set's profile is not in the archive"
			return r
		}
		if f := set.FunctionByID(int(code)); f != nil {
			r.Function = f.Name
		} else {
			r.Problem = fmt.Sprintf("function code %d is no func_id of set %s", code, s.Name)
		}
		return r
	}
	if id, ok := isa.BlockIDOf(word); ok { // 0xC1 PseudoDMATrigger
		q, hasQ := isa.QueueOf(word)
		var b *manifest.DMABlock
		if hasQ && q != "" {
			b = e.Block(q, int64(id))
		}
		if b == nil {
			if bs := e.BlocksWithID(int64(id)); len(bs) == 1 {
				b = bs[0]
			}
		}
		if b == nil {
			r.Block = fmt.Sprintf("block %d", id)
			r.Problem = fmt.Sprintf("no DMA block %d (queue %q) in %s", id, q, e.JSONPath)
			return r
		}
		r.Queue, r.Block, r.block = b.Queue, fmt.Sprintf("block %d (%d descriptors)", b.ID, len(b.Descs)), b
	}
	if src, dst, ok := isa.Direct2dAddrs(word); ok { // 0xD4 PseudoDmaDirect2d
		var probs []string
		r.Src, probs = dmaAddrName(ps, i, src, false, probs)
		r.Dst, probs = dmaAddrName(ps, i, dst, true, probs)
		sem, _ := isa.Direct2dSemaphore(word)
		if q := dynamicQueue(ps.Core, e, int64(sem)); q != nil {
			r.Queue = q.Name
		} else {
			probs = append(probs, fmt.Sprintf("semaphore S[%d] is in no dynamic DMA queue of %s in %s", sem, e.Token, ps.Core.DefPath))
		}
		r.Problem = strings.Join(probs, "; ")
	}
	return r
}

// dmaAddrName joins address a of PseudoDmaDirect2d word i (its destination when dst) with
// def.json's vars (unknowns isa.direct2d-addresses): tag bit 0x10 names a var by id (var 0,
// SB, is the state buffer), bit 0x20 indexes the core's dge-table var, whose list holds var
// ids; with bit 0x08 the offset is a register's value (regOffset).
func dmaAddrName(ps *ProgramStream, i int, a isa.DmaAddr, dst bool, probs []string) (string, []string) {
	c := ps.Core
	off := "+0x" + strconv.FormatUint(uint64(a.Offset), 16) // per DMA word of disasm --json: no fmt
	var v *manifest.Var
	if reg, ok := a.OffsetReg(); ok {
		off = regOffset(ps, i, reg, dst)
	}
	switch a.Base() {
	case isa.DmaTagVar:
		if v = c.VarByID(int64(a.ID)); v != nil {
			if v.Type == "state-buffer" && a.Tag == isa.DmaTagVar {
				return v.Name + ":0x" + strconv.FormatUint(uint64(a.Offset), 16), probs
			}
			return v.Name + off, boundProblem(ps, i, v, dst, probs)
		}
		return fmt.Sprintf("var %d%s", a.ID, off), append(probs, fmt.Sprintf("var id %d is not in %s's var table", a.ID, c.DefPath))
	case isa.DmaTagDGE:
		table := c.DGETable()
		switch {
		case table == nil:
			return fmt.Sprintf("dge[%d]%s", a.ID, off), append(probs, fmt.Sprintf("%s has no dge-table var for DGE index %d", c.DefPath, a.ID))
		case int(a.ID) >= len(table.List):
			return fmt.Sprintf("dge[%d]%s", a.ID, off), append(probs, fmt.Sprintf("DGE index %d is outside %s's list (%d entries)", a.ID, table.Name, len(table.List)))
		}
		if v = c.VarByID(table.List[a.ID]); v != nil {
			return v.Name + off, boundProblem(ps, i, v, dst, probs)
		}
		return fmt.Sprintf("var %d%s", table.List[a.ID], off), append(probs, fmt.Sprintf("%s[%d] = var id %d, which is not in %s's var table", table.Name, a.ID, table.List[a.ID], c.DefPath))
	}
	return fmt.Sprintf("tag 0x%02x id %d%s", a.Tag, a.ID, off), probs
}

// regOffset is the offset of a PseudoDmaDirect2d address taken from register reg: the value
// the AluOp chain before word i gives it (unknowns isa.register-chain), and where that is not
// a constant, its range: the bound register (+0x26 source, +0x27 destination) and, for the
// source, the 0xDA word's src_bound_size_bytes.
func regOffset(ps *ProgramStream, i int, reg uint32, dst bool) string {
	val := isa.RegisterValue(ps.ISA.Word, i, reg)
	var b strings.Builder
	b.WriteString("+")
	if val.Known {
		fmt.Fprintf(&b, "R%d = %s", reg, val)
	} else {
		b.WriteString(val.String())
	}
	if val.Static {
		return b.String()
	}
	var rng []string
	if size, ok := srcBoundSize(ps, i); ok && !dst {
		rng = append(rng, fmt.Sprintf("src_bound_size_bytes %d", size))
	}
	if sr, dr, sOn, dOn, ok := isa.Direct2dBoundRegs(ps.ISA.Word(i)); ok {
		r, on := sr, sOn
		if dst {
			r, on = dr, dOn
		}
		if on {
			rng = append(rng, fmt.Sprintf("bound R%d", r))
		} else {
			rng = append(rng, "no bound register")
		}
	}
	if len(rng) > 0 {
		fmt.Fprintf(&b, " (range: %s)", strings.Join(rng, ", "))
	}
	return b.String()
}

// srcBoundSize is the src_bound_size_bytes of the 0xDA word that continues 0xD4 word i.
func srcBoundSize(ps *ProgramStream, i int) (uint32, bool) {
	if ps.ISA.PartOf(i+1) != i {
		return 0, false
	}
	return isa.ExtensionBoundSize(ps.ISA.Word(i + 1))
}

// boundProblem says when a register-offset source's src_bound_size_bytes is not the size of
// the var it resolves to (they are equal in every word seen, neff.md §8.1).
func boundProblem(ps *ProgramStream, i int, v *manifest.Var, dst bool, probs []string) []string {
	if dst {
		return probs
	}
	if size, ok := srcBoundSize(ps, i); ok && v.Size >= 0 && int64(size) != v.Size {
		probs = append(probs, fmt.Sprintf("src_bound_size_bytes %d (the 0xDA word) is not the size of %s (%d)", size, v.Name, v.Size))
	}
	return probs
}

// dynamicQueue is the engine's own dynamic DMA queue whose semaphore set holds sem.
func dynamicQueue(c *manifest.Core, e *manifest.Engine, sem int64) *manifest.Queue {
	for _, q := range c.Queues {
		if q.Owner != e.Token || q.Type != "dynamic" {
			continue
		}
		for _, s := range q.Semaphores {
			if s == sem {
				return q
			}
		}
	}
	return nil
}

// streamNode is the content node of a stream member: counts, findings, and the handle the page
// uses to ask for listing rows ("stream:<member>").
func (p *Program) streamNode(ps *ProgramStream, m *neff.Member) *doc.Node {
	if ps.ISA == nil {
		n := &doc.Node{Kind: doc.KindBytes, Label: "content", Value: neff.HumanSize(m.Size), Span: doc.In(m.Path, 0, m.Read), Ref: doc.MemberRef(m.Path)}
		n.Infof(doc.CodeISANotHeld, n.Span, "instruction stream %s (%s) is not held in memory, so it is not disassembled here; use 'neffscope disasm'.", m.Path, neff.HumanSize(m.Size))
		return n
	}
	n := ps.ISA.Summary()
	n.Label = "instructions"
	n.Ref = doc.StreamRef(m.Path)
	n.Detail = fmt.Sprintf("%s engine of %s: %d instructions of 64 bytes", ps.Engine.Name, ps.Core.Name, ps.ISA.Len())
	if !ps.ISA.Held() {
		n.Infof(doc.CodeISANotHeld, n.Span, "%s (%s) is more than an open holds in memory (%s), so its listing is read from the file on demand (each jump far into it reads the archive again) and its joins are not checked here; 'neffscope disasm' checks them in one pass.", m.Path, neff.HumanSize(m.Size), neff.HumanSize(streamHoldMax))
		return n
	}
	// Join problems, counted over the whole stream and reported once each with an example.
	var problems []*joinProblem
	if sw := p.walked().streams[ps]; sw != nil {
		problems = sw.problems
	}
	for _, pr := range problems {
		n.Warnf(doc.CodeISAJoin, doc.In(m.Path, int64(pr.first)*isa.WordSize, isa.WordSize), "%s: instruction %d (and %d more like it): %s. The listing shows the raw code.", m.Path, pr.first, pr.count-1, pr.text)
	}
	return n
}

// streamFor finds the disassembled stream a "stream:<member>" ref names.
func (f *File) streamFor(ref string) (*ProgramStream, error) {
	kind, member := doc.ParseRef(ref)
	if kind != doc.RefStream {
		return nil, fmt.Errorf("%q is not a stream reference (stream:<member>)", ref)
	}
	if f.Program == nil {
		return nil, fmt.Errorf("%s has no program", f.Name)
	}
	s := f.Program.Stream(member)
	if s == nil || s.ISA == nil {
		return nil, fmt.Errorf("%s has no disassembled stream %q", f.Name, member)
	}
	return s, nil
}

// Rows returns rows [from, to) of a table served by range: a stream's listing (ref
// "stream:<member>", with the joins in the last column and each row's span its 64-byte word),
// or the records of a .dbg member, a def.json's vars or an activation set's bucket / ctrl blob
// (ref "records:<member>", each row's span its record). One request
// may materialise at most the budget's rows limit (--max-rows, the page's maxRows), and its
// rows (budget.RowCost each) at most the memory limit: past either it is refused with an error
// naming the limit, never cut short silently.
func (f *File) Rows(ref string, from, to int) (*doc.Table, int, error) {
	fit := func(total int) error {
		n := int64(min(to, total) - max(from, 0))
		if n <= 0 {
			return nil
		}
		if lim := f.Budget.Limit(budget.Rows); lim > 0 && n > lim {
			return fmt.Errorf("%w: rows %d..%d of %s are %d rows, more than the rows limit lets one request materialise (%d); ask for a smaller range, or raise the limit: neffscope %s N", budget.ErrLimit, max(from, 0), min(to, total), ref, n, lim, budget.Rows.Flag())
		}
		if lim := f.Budget.Limit(budget.Memory); lim > 0 && n > lim/budget.RowCost {
			return fmt.Errorf("%w: rows %d..%d of %s are %d rows, about %d MiB, more than the memory limit allows (%s bytes held in memory, at most %d rows in one request); ask for a smaller range, or raise the limit: neffscope %s N", budget.ErrLimit, max(from, 0), min(to, total), ref, n, n*budget.RowCost>>20, budget.Human(budget.Memory, lim), lim/budget.RowCost, budget.Memory.Flag())
		}
		return nil
	}
	if kind, member := doc.ParseRef(ref); kind == doc.RefRecords {
		if f.NTFF != nil && ntff.Owns(member) {
			if err := fit(f.NTFF.Count(member)); err != nil {
				return nil, f.NTFF.Count(member), err
			}
			return f.NTFF.Rows(member, from, to)
		}
		// A def.json's var table too big to hold is served like records.
		if f.Program != nil {
			if c := f.Program.Model.CoreOfDef(member); c != nil {
				if err := fit(c.VarCount()); err != nil {
					return nil, c.VarCount(), err
				}
				return c.VarRows(from, to), c.VarCount(), nil
			}
		}
		if blob, ok := f.actBlob(member); ok {
			if err := fit(blob.Len()); err != nil {
				return nil, blob.Len(), err
			}
			return blob.Rows(from, to), blob.Len(), nil
		}
		return f.dbgRows(member, from, to, fit)
	}
	s, err := f.streamFor(ref)
	if err != nil {
		return nil, 0, err
	}
	if err := fit(s.ISA.Len()); err != nil {
		return nil, s.ISA.Len(), err
	}
	t := s.ISA.Rows(from, to)
	if err := s.ISA.Err(); err != nil {
		return nil, s.ISA.Len(), fmt.Errorf("reading %s again out of the archive: %w", s.Member, err)
	}
	if x := f.Program.Source; x != nil {
		x.AddColumn(s.Member, t, max(from, 0))
	}
	f.rowLinks(s, t, max(from, 0))
	return t, s.ISA.Len(), nil
}

// Instruction returns the full field tree of instruction i of a stream, with what the joins
// resolved.
func (f *File) Instruction(ref string, i int) (*doc.Node, error) {
	s, err := f.streamFor(ref)
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= s.ISA.Len() {
		return nil, fmt.Errorf("instruction %d is outside %s (%d instructions)", i, s.Member, s.ISA.Len())
	}
	n := s.ISA.Node(i)
	if r := f.Program.Resolve(s, i, s.ISA.Word(i)); r != (Resolved{}) {
		j := n.Add(&doc.Node{Kind: doc.KindField, Label: "resolved", Value: r.String(), Span: doc.In(s.Member, int64(i)*isa.WordSize, isa.WordSize)})
		j.Detail = "joined with " + s.Engine.JSONPath + " and the activation tables"
		if r.Problem != "" {
			j.Warnf(doc.CodeISAJoin, j.Span, "%s instruction %d: %s", s.Member, i, r.Problem)
		}
		// A PseudoDmaDirect2d's variables lead to their nodes (def.json entry, and every
		// instruction that names them).
		if src, dst, ok := isa.Direct2dAddrs(s.ISA.Word(i)); ok {
			for _, a := range []struct {
				role string
				addr isa.DmaAddr
			}{{"src", src}, {"dst", dst}} {
				id, ok := dmaVarID(s.Core, a.addr)
				if !ok {
					continue
				}
				v := s.Core.VarByID(id)
				name, _ := dmaAddrName(s, i, a.addr, a.role == "dst", nil)
				fv := j.Field(a.role+" var", name, nil)
				fv.Link = doc.NodeLink("model", "cores", s.Core.Name, "vars", v.Name)
				fv.Detail = "def.json var " + v.Name + " (var_id " + fmt.Sprint(id) + "): its entry and every instruction that names it"
			}
		}
		f.dmaFields(s, r, j) // rowlinks.go
	}
	if x := f.Program.Source; x != nil {
		if src := x.WordNode(s.Member, i); src != nil {
			n.Add(src)
		}
	}
	return n, nil
}

// VarUse is one PseudoDmaDirect2d (0xD4) word that names a def.json variable as its source
// or destination. It is 16 bytes: a big model's uses are millions (what it shows is read
// from the word again when asked).
type VarUse struct {
	Stream *ProgramStream
	Index  int32
	Dst    bool // the destination address names the var; else the source
}

// Role is "src" or "dst".
func (u VarUse) Role() string {
	if u.Dst {
		return "dst"
	}
	return "src"
}

// Addr is the address as the listing's resolved column shows it.
func (u VarUse) Addr() string {
	src, dst, ok := isa.Direct2dAddrs(u.Stream.ISA.Word(int(u.Index)))
	if !ok {
		return ""
	}
	if u.Dst {
		src = dst
	}
	name, _ := dmaAddrName(u.Stream, int(u.Index), src, u.Dst, nil)
	return name
}

// dmaVarID is the def.json var id a PseudoDmaDirect2d address names (tag bit 0x10: by id;
// bit 0x20: through the core's dge-table list; either with a register offset), or false.
func dmaVarID(c *manifest.Core, a isa.DmaAddr) (int64, bool) {
	switch a.Base() {
	case isa.DmaTagVar:
		return int64(a.ID), c.VarByID(int64(a.ID)) != nil
	case isa.DmaTagDGE:
		if t := c.DGETable(); t != nil && int(a.ID) < len(t.List) && c.VarByID(t.List[a.ID]) != nil {
			return t.List[a.ID], true
		}
	}
	return 0, false
}

// varUses is VarUses, computed once per core for the var nodes built on demand.
func (p *Program) varUses(c *manifest.Core) map[int64][]VarUse {
	if p.uses == nil {
		p.uses = map[*manifest.Core]map[int64][]VarUse{}
	}
	u, ok := p.uses[c]
	if !ok {
		u = p.VarUses(c)
		p.uses[c] = u
	}
	return u
}

// VarUses lists, per var id, the 0xD4 words of a core's streams that name the var, in stream
// order (the reverse of the listing's join: which instructions touch a variable).
func (p *Program) VarUses(c *manifest.Core) map[int64][]VarUse {
	out := map[int64][]VarUse{}
	if p == nil || c == nil {
		return out
	}
	for _, ps := range p.Streams {
		if ps.Core != c || ps.ISA == nil || !ps.ISA.Held() {
			continue // a stream not held is not walked at open (see streamNode)
		}
		for i, w := range ps.ISA.Words() {
			if collectorsOf[w[0]]&collectDirect2d != 0 {
				addVarUses(out, ps, i, w)
			}
		}
	}
	return out
}
