package fleet

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/hlo"
)

// HLODifference is one difference between two HLO modules (`diff --json`'s "differences").
type HLODifference struct {
	Class hlo.Class `json:"class"`
	// Instruction names where: "%custom-call.1 (qwen3_attn_tkg_fused) in SyncTensorsGraph.42",
	// "" for the module itself.
	Instruction string `json:"instruction"`
	// Field is what differs ("shape", "backend_config.klir_binary.binary", "operand 2").
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
	Note   string `json:"note"`
	// SpanA and SpanB are where it lies in each module's bytes: a backend_config value's
	// characters, else the instruction's (or computation's, or frontend attribute's) message;
	// absent for the module itself and on the side that lacks it. A gzip'd module's spans
	// index its inflated bytes (source "(inflated)").
	SpanA *doc.Span `json:"span_a,omitempty"`
	SpanB *doc.Span `json:"span_b,omitempty"`
}

// HLODiff is the comparison of two modules: `neffscope diff --json` of two HLO modules or
// two cache entries prints it.
type HLODiff struct {
	Kind    string   `json:"kind"` // "hlo"
	Verdict doc.Code `json:"verdict"`
	// Summary is the one sentence that says what the differences imply (and, with the NEFFs,
	// what they say).
	Summary string `json:"summary"`
	// GraphSummary is what the graph alone says, when the NEFFs add to Summary.
	GraphSummary string `json:"graph_summary,omitempty"`
	A            string `json:"a"`
	B            string `json:"b"`
	// GraphA and GraphB are the graph digests (hlo.Module.GraphDigest; "" when a model is partial).
	GraphA string `json:"graph_a"`
	GraphB string `json:"graph_b"`
	// Counts are the differences by class (all of them, listed or not).
	Counts      map[hlo.Class]int `json:"counts"`
	Differences []HLODifference   `json:"differences"`
	// Unlisted counts the differences past MaxHLODifferences.
	Unlisted int `json:"unlisted,omitempty"`
	// Cache explains the two cache keys, when both files sit in cache entries.
	Cache []string `json:"cache,omitempty"`
	// NEFF is what the entries' NEFFs say, when the diff had them.
	NEFF *NEFFVerdict `json:"neff,omitempty"`
	// Fix says how to stop the recompile, when the NEFFs show it was spurious (the summary
	// ends with it too).
	Fix string `json:"fix,omitempty"`
	// Findings are what could not be compared (a partial model, a file that is not HLO).
	Findings []doc.Finding `json:"findings,omitempty"`
}

// MaxHLODifferences bounds the differences listed (Counts stays whole).
const MaxHLODifferences = 2000

// DiffHLO compares module a with module b, matching computations and instructions by
// structure (not by ids or generated names) and classifying every difference.
func DiffHLO(a, b *hlo.Module, nameA, nameB string) *HLODiff {
	d := &HLODiff{Kind: "hlo", A: nameA, B: nameB, GraphA: a.GraphDigest(), GraphB: b.GraphDigest(), Counts: map[hlo.Class]int{}, Differences: []HLODifference{}}
	for _, x := range []struct {
		m    *hlo.Module
		name string
	}{{a, nameA}, {b, nameB}} {
		if x.m.Partial {
			d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeHLOPartial, Severity: doc.Error,
				Message: fmt.Sprintf("%s was read only in part (%s): differences past what was read are unknown", x.name, x.m.Why)})
		}
	}
	c := &hloComparer{d: d, a: a, b: b}
	c.module()
	d.Verdict, d.Summary = c.verdict()
	return d
}

type hloComparer struct {
	d    *HLODiff
	a, b *hlo.Module
	// comps maps a's computations to b's.
	comps map[*hlo.Computation]*hlo.Computation
	// kernelWhere names the custom call of the first temporary-path difference.
	tempCall, tempPath string
	tempParts          [][2]string
	// spanA and spanB are where the differences added now lie (at sets them).
	spanA, spanB *doc.Span
}

func (c *hloComparer) add(class hlo.Class, where, field, before, after, note string) {
	c.d.Counts[class]++
	if len(c.d.Differences) >= MaxHLODifferences {
		c.d.Unlisted++
		return
	}
	c.d.Differences = append(c.d.Differences, HLODifference{Class: class, Instruction: where, Field: field, Before: clipText(before), After: clipText(after), Note: note,
		SpanA: c.spanA, SpanB: c.spanB})
}

// at makes the differences added until the returned func runs lie at a (in module a) and b
// (nil: nowhere on that side).
func (c *hloComparer) at(a, b *doc.Span) (restore func()) {
	pa, pb := c.spanA, c.spanB
	c.spanA, c.spanB = a, b
	return func() { c.spanA, c.spanB = pa, pb }
}

// spanOf is a copy of s for a difference (a zero span: nowhere).
func spanOf(s doc.Span) *doc.Span {
	if s.Length == 0 && s.Offset == 0 {
		return nil
	}
	return &s
}

func clipText(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

func (c *hloComparer) module() {
	a, b := c.a, c.b
	if a.Name != b.Name {
		cl, why := hlo.ClassOf("HloModuleProto", "name")
		c.add(cl, "", "name", a.Name, b.Name, why)
	}
	c.attrs("", "frontend_attributes", a.FrontendAttrs, b.FrontendAttrs)
	c.matchComputations()
	for _, ca := range a.Computations {
		if cb := c.comps[ca]; cb != nil {
			c.computation(ca, cb)
		} else {
			done := c.at(spanOf(ca.Span), nil)
			c.add(hlo.ClassGraph, "", "computation", fmt.Sprintf("%s (%d instructions)", ca.Name, len(ca.Instructions)), "", "only in a: no computation of b matches it")
			done()
		}
	}
	matched := map[*hlo.Computation]bool{}
	for _, cb := range c.comps {
		matched[cb] = true
	}
	for _, cb := range b.Computations {
		if !matched[cb] {
			done := c.at(nil, spanOf(cb.Span))
			c.add(hlo.ClassGraph, "", "computation", "", fmt.Sprintf("%s (%d instructions)", cb.Name, len(cb.Instructions)), "only in b: no computation of a matches it")
			done()
		}
	}
}

// shapeKey is a computation's structure in a few words: its instructions' opcodes and shapes
// in order (what matching by structure compares before names).
func shapeKey(cp *hlo.Computation) string {
	var s strings.Builder
	for _, in := range cp.Instructions {
		s.WriteString(in.Opcode)
		s.WriteByte(' ')
		s.WriteString(in.Shape.Text)
		s.WriteByte(';')
	}
	return s.String()
}

// matchComputations pairs the entries, then computations of the same structure, then of the
// same name but for a generated suffix, then what is left in order.
func (c *hloComparer) matchComputations() {
	c.comps = map[*hlo.Computation]*hlo.Computation{}
	used := map[*hlo.Computation]bool{}
	pair := func(x, y *hlo.Computation) {
		if x != nil && y != nil && c.comps[x] == nil && !used[y] {
			c.comps[x], used[y] = y, true
		}
	}
	pair(c.a.Entry(), c.b.Entry())
	for _, rule := range []func(x, y *hlo.Computation) bool{
		func(x, y *hlo.Computation) bool { return shapeKey(x) == shapeKey(y) },
		func(x, y *hlo.Computation) bool {
			return x.Name == y.Name || hlo.SameButGeneratedSuffix(x.Name, y.Name)
		},
		func(x, y *hlo.Computation) bool { return true },
	} {
		for _, x := range c.a.Computations {
			if c.comps[x] != nil {
				continue
			}
			for _, y := range c.b.Computations {
				if !used[y] && rule(x, y) {
					pair(x, y)
					break
				}
			}
		}
	}
}

// matchInstructions pairs the instructions of two matched computations: parameters by number;
// then, in b's order, an instruction of a with the same opcode whose operands are already
// paired with b's; then the same opcode in order. What is left is added or removed.
func matchInstructions(ca, cb *hlo.Computation) map[*hlo.Instruction]*hlo.Instruction {
	m := map[*hlo.Instruction]*hlo.Instruction{}
	used := map[*hlo.Instruction]bool{}
	pair := func(x, y *hlo.Instruction) {
		m[x], used[y] = y, true
	}
	params := map[int64]*hlo.Instruction{}
	for _, y := range cb.Instructions {
		if y.Param >= 0 && params[y.Param] == nil {
			params[y.Param] = y
		}
	}
	for _, x := range ca.Instructions {
		if y := params[x.Param]; x.Param >= 0 && y != nil && !used[y] {
			pair(x, y)
		}
	}
	wired := func(x, y *hlo.Instruction) bool {
		if x.Opcode != y.Opcode || len(x.Operands) != len(y.Operands) {
			return false
		}
		for i, o := range x.Operands {
			xo, yo := ca.ByID(o), cb.ByID(y.Operands[i])
			if xo == nil || yo == nil || m[xo] != yo {
				return false
			}
		}
		return true
	}
	for _, rule := range []func(x, y *hlo.Instruction) bool{
		func(x, y *hlo.Instruction) bool { return wired(x, y) && x.Shape.Text == y.Shape.Text },
		wired,
		func(x, y *hlo.Instruction) bool { return x.Opcode == y.Opcode && x.Shape.Text == y.Shape.Text },
		func(x, y *hlo.Instruction) bool { return x.Opcode == y.Opcode },
	} {
		for _, y := range cb.Instructions {
			if used[y] {
				continue
			}
			for _, x := range ca.Instructions {
				if m[x] == nil && rule(x, y) {
					pair(x, y)
					break
				}
			}
		}
	}
	return m
}

// where names an instruction for a difference: "%name (kernel) in computation".
func where(in *hlo.Instruction, cp *hlo.Computation) string {
	s := "%" + in.Name
	if k := in.Kernel(); k != "" {
		s += " (" + k + ")"
	}
	return s + " in " + cp.Name
}

func (c *hloComparer) computation(ca, cb *hlo.Computation) {
	defer c.at(spanOf(ca.Span), spanOf(cb.Span))()
	m := matchInstructions(ca, cb)
	renamed := 0
	for _, x := range ca.Instructions {
		y := m[x]
		if y == nil {
			done := c.at(spanOf(x.Span), nil)
			c.add(hlo.ClassGraph, where(x, ca), "instruction", x.Text(nameIn(ca)), "", "only in a: no instruction of b matches it")
			done()
			continue
		}
		if x.Name != y.Name {
			renamed++
		}
		c.instruction(x, y, ca, cb, m)
	}
	matched := map[*hlo.Instruction]bool{}
	for _, y := range m {
		matched[y] = true
	}
	for _, y := range cb.Instructions {
		if !matched[y] {
			done := c.at(nil, spanOf(y.Span))
			c.add(hlo.ClassGraph, where(y, cb), "instruction", "", y.Text(nameIn(cb)), "only in b: no instruction of a matches it")
			done()
		}
	}
	if ra, rb := ca.Root(), cb.Root(); ra != nil && rb != nil && m[ra] != rb {
		c.add(hlo.ClassGraph, "", "root of "+cb.Name, "%"+ra.Name, "%"+rb.Name, "the computations return other instructions")
	}
	if ca.Name != cb.Name {
		cl, why := hlo.ClassOf("HloComputationProto", "name")
		c.add(cl, "", "computation name", ca.Name, cb.Name, why)
	}
	if renamed > 0 {
		cl, why := hlo.ClassOf("HloInstructionProto", "name")
		c.add(cl, "", "instruction names in "+cb.Name, fmt.Sprintf("%d differ", renamed), "", why)
	}
}

func nameIn(cp *hlo.Computation) func(int64) string {
	return func(id int64) string {
		if in := cp.ByID(id); in != nil {
			return in.Name
		}
		return "#" + strconv.FormatInt(id, 10)
	}
}

// instruction compares two matched instructions field by field.
func (c *hloComparer) instruction(x, y *hlo.Instruction, ca, cb *hlo.Computation, m map[*hlo.Instruction]*hlo.Instruction) {
	defer c.at(spanOf(x.Span), spanOf(y.Span))()
	w := where(y, cb)
	if x.Opcode != y.Opcode {
		c.add(hlo.ClassGraph, w, "opcode", x.Opcode, y.Opcode, "")
	}
	if x.Shape.Text != y.Shape.Text {
		c.add(hlo.ClassGraph, w, "shape", x.Shape.Text, y.Shape.Text, shapeNote(x.Shape, y.Shape))
	}
	if x.Param != y.Param {
		c.add(hlo.ClassGraph, w, "parameter_number", strconv.FormatInt(x.Param, 10), strconv.FormatInt(y.Param, 10), "")
	}
	c.wiring(w, "operand", x.Operands, y.Operands, ca, cb, m)
	c.wiring(w, "control predecessor", x.ControlPreds, y.ControlPreds, ca, cb, m)
	var calledA, calledB []string
	for _, k := range x.Called {
		if cx := c.a.ComputationByID(k); cx != nil && c.comps[cx] != nil {
			calledA = append(calledA, c.comps[cx].Name)
		} else {
			calledA = append(calledA, "#"+strconv.FormatInt(k, 10))
		}
	}
	for _, k := range y.Called {
		if cy := c.b.ComputationByID(k); cy != nil {
			calledB = append(calledB, cy.Name)
		} else {
			calledB = append(calledB, "#"+strconv.FormatInt(k, 10))
		}
	}
	if strings.Join(calledA, ",") != strings.Join(calledB, ",") {
		c.add(hlo.ClassGraph, w, "called computations", strings.Join(calledA, ", "), strings.Join(calledB, ", "), "a's names are those of the b computations they match")
	}
	switch {
	case x.Literal == nil && y.Literal != nil, x.Literal != nil && y.Literal == nil:
		c.add(hlo.ClassGraph, w, "literal", blobText(x.Literal), blobText(y.Literal), "a constant's value")
	case x.Literal != nil && x.Literal.Digest != y.Literal.Digest:
		c.add(hlo.ClassGraph, w, "literal", blobText(x.Literal), blobText(y.Literal), "a constant's value differs (compared by digest)")
	}
	if x.Target != y.Target {
		cl, why := hlo.ClassOf("HloInstructionProto", "custom_call_target")
		c.add(cl, w, "custom_call_target", x.Target, y.Target, why)
	}
	c.backend(w, x, y)
	c.attrs(w, "frontend_attributes", x.FrontendAttrs, y.FrontendAttrs)
	c.metadata(w, x, y)
	c.others(w, "HloInstructionProto", x.Other, y.Other)
}

func blobText(b *hlo.Blob) string {
	if b == nil {
		return ""
	}
	return fmt.Sprintf("%d B, sha256 %s…", b.Size, b.Digest)
}

func shapeNote(a, b hlo.Shape) string {
	var parts []string
	if a.DType != b.DType {
		parts = append(parts, "dtype "+a.DType+" → "+b.DType)
	}
	if fmt.Sprint(a.Dims) != fmt.Sprint(b.Dims) {
		parts = append(parts, "dimensions differ")
	}
	if a.Layout != b.Layout {
		parts = append(parts, "layout "+a.Layout+" → "+b.Layout)
	}
	if len(a.Tuple) != len(b.Tuple) || (len(parts) == 0 && a.Text != b.Text) {
		parts = append(parts, "tuple elements differ")
	}
	return strings.Join(parts, "; ")
}

// wiring compares operand lists through the matching: operand i of x must be the instruction
// paired with operand i of y.
func (c *hloComparer) wiring(w, what string, xs, ys []int64, ca, cb *hlo.Computation, m map[*hlo.Instruction]*hlo.Instruction) {
	if len(xs) != len(ys) {
		c.add(hlo.ClassGraph, w, what+"s", fmt.Sprintf("%d", len(xs)), fmt.Sprintf("%d", len(ys)), "another number of "+what+"s")
		return
	}
	for i := range xs {
		xo, yo := ca.ByID(xs[i]), cb.ByID(ys[i])
		if xo == nil || yo == nil {
			if (xo == nil) != (yo == nil) {
				c.add(hlo.ClassGraph, w, fmt.Sprintf("%s %d", what, i), "#"+strconv.FormatInt(xs[i], 10), "#"+strconv.FormatInt(ys[i], 10), "names no instruction in one of the modules")
			}
			continue
		}
		if m[xo] != yo {
			c.add(hlo.ClassGraph, w, fmt.Sprintf("%s %d", what, i), "%"+xo.Name, "%"+yo.Name, "wired to another instruction")
		}
	}
}

// backend compares backend_configs: JSON value by value (classified by hlo.LeafClass), else
// by digest. Only a custom call's config is about its kernel; another instruction's is graph.
func (c *hloComparer) backend(w string, x, y *hlo.Instruction) {
	bx, by := x.Backend, y.Backend
	if bx == nil && by == nil {
		return
	}
	custom := x.Opcode == "custom-call" || y.Opcode == "custom-call"
	class := hlo.ClassGraph
	if custom {
		class = hlo.ClassKernel
	}
	if bx == nil || by == nil || len(bx.Leaves) == 0 || len(by.Leaves) == 0 {
		dx, dy := "", ""
		if bx != nil {
			dx = blobText(&bx.Raw)
		}
		if by != nil {
			dy = blobText(&by.Raw)
		}
		if dx != dy {
			c.add(class, w, "backend_config", dx, dy, "compared by digest (not decoded)")
		}
		return
	}
	nki := bx.NKI != nil && by.NKI != nil
	vx := map[string]hlo.Leaf{}
	for _, l := range bx.Leaves {
		vx[l.Path] = l
	}
	seen := map[string]bool{}
	for _, l := range by.Leaves {
		seen[l.Path] = true
		lx, ok := vx[l.Path]
		before := lx.Value
		done := c.at(c.spanA, spanOf(l.Span))
		if ok {
			c.spanA = spanOf(lx.Span)
		}
		switch {
		case !ok:
			c.add(class, w, "backend_config."+l.Path, "", l.Value, "only in b")
		case before != l.Value:
			cl, why := hlo.LeafClass(l.Path, before, l.Value, nki)
			if !custom && cl == hlo.ClassKernel {
				cl = hlo.ClassGraph
			}
			if cl == hlo.ClassVolatile && strings.HasPrefix(l.Path, "klir_binary.binary") && c.tempCall == "" {
				c.tempCall, c.tempPath = y.Kernel(), l.Path
				ua, _ := strconv.Unquote(before)
				ub, _ := strconv.Unquote(l.Value)
				c.tempParts, _ = hlo.RandomParts(ua, ub)
			}
			if parts, ok := hlo.RandomParts(unq(before), unq(l.Value)); ok && cl == hlo.ClassVolatile {
				var ps []string
				for _, p := range parts {
					ps = append(ps, p[0]+" → "+p[1])
				}
				why += " (" + strings.Join(ps, ", ") + ")"
			}
			c.add(cl, w, "backend_config."+l.Path, before, l.Value, why)
		}
		done()
	}
	for _, l := range bx.Leaves {
		if !seen[l.Path] {
			done := c.at(spanOf(l.Span), c.spanB)
			c.add(class, w, "backend_config."+l.Path, l.Value, "", "only in a")
			done()
		}
	}
}

func unq(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

func (c *hloComparer) attrs(w, field string, xs, ys []hlo.Attr) {
	vx, sx := map[string]string{}, map[string]doc.Span{}
	for _, a := range xs {
		vx[a.Key], sx[a.Key] = a.Value, a.Span
	}
	vy, sy := map[string]string{}, map[string]doc.Span{}
	for _, a := range ys {
		vy[a.Key], sy[a.Key] = a.Value, a.Span
	}
	keys := map[string]bool{}
	for k := range vx {
		keys[k] = true
	}
	for k := range vy {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		a, okA := vx[k]
		b, okB := vy[k]
		if okA && okB && a == b {
			continue
		}
		note := "an option passed to the compiler"
		cl := hlo.ClassGraph
		if okA && okB && hlo.SameButGeneratedSuffix(a, b) {
			cl, note = hlo.ClassVolatile, "a generated name: only its .<n> suffix differs"
		}
		done := c.at(c.spanA, c.spanB)
		if okA {
			c.spanA = spanOf(sx[k])
		}
		if okB {
			c.spanB = spanOf(sy[k])
		}
		c.add(cl, w, field+"."+k, a, b, note)
		done()
	}
}

func (c *hloComparer) metadata(w string, x, y *hlo.Instruction) {
	mx, my := x.Metadata, y.Metadata
	_, why := hlo.ClassOf("HloInstructionProto", "metadata")
	if mx.OpType != my.OpType {
		c.add(hlo.ClassMetadata, w, "metadata.op_type", mx.OpType, my.OpType, why)
	}
	if mx.OpName != my.OpName {
		c.add(hlo.ClassMetadata, w, "metadata.op_name", mx.OpName, my.OpName, why)
	}
	if sx, sy := mx.Source(&c.a.Stack), my.Source(&c.b.Stack); sx != sy {
		c.add(hlo.ClassMetadata, w, "metadata.source", sx, sy, why)
	}
	c.others(w, "OpMetadata", mx.Other, my.Other)
}

// others compares fields kept by name and digest.
func (c *hloComparer) others(w, message string, xs, ys []hlo.FieldValue) {
	vx := map[string]hlo.FieldValue{}
	for _, f := range xs {
		vx[f.Name] = f
	}
	seen := map[string]bool{}
	class := func(name string) (hlo.Class, string) {
		if message == "OpMetadata" {
			cl, why := hlo.ClassOf("HloInstructionProto", "metadata")
			return cl, why
		}
		return hlo.ClassOf(message, name)
	}
	for _, f := range ys {
		seen[f.Name] = true
		g, ok := vx[f.Name]
		if ok && g.Digest == f.Digest {
			continue
		}
		cl, why := class(f.Name)
		if cl == hlo.ClassVolatile && f.Name == "id" {
			continue // ids differ freely; the matching compares what they wire
		}
		c.add(cl, w, f.Name, g.Text, f.Text, why)
	}
	for _, g := range xs {
		if !seen[g.Name] {
			cl, why := class(g.Name)
			c.add(cl, w, g.Name, g.Text, "", why)
		}
	}
}

// verdict is the worst class found and the sentence that says what it implies.
func (c *hloComparer) verdict() (doc.Code, string) {
	d := c.d
	first := func(cl hlo.Class) *HLODifference {
		for i := range d.Differences {
			if d.Differences[i].Class == cl {
				return &d.Differences[i]
			}
		}
		return nil
	}
	partial := ""
	if len(d.Findings) > 0 {
		partial = " (of what was read: a module was read only in part)"
	}
	switch {
	case d.Counts[hlo.ClassGraph] > 0:
		f := first(hlo.ClassGraph)
		return doc.CodeHLOGraphChanged, fmt.Sprintf("the graph changed%s: %s; first: %s", partial, countText(d.Counts), describe(f))
	case d.Counts[hlo.ClassKernel] > 0:
		f := first(hlo.ClassKernel)
		return doc.CodeHLOKernelChanged, fmt.Sprintf("the graph is the same%s, but a kernel call changed: %s. The kernel's own code is not in the HLO: compare the NEFFs to see what it compiled to", partial, describe(f))
	case d.Counts[hlo.ClassMetadata] > 0:
		f := first(hlo.ClassMetadata)
		return doc.CodeHLOMetadataOnly, fmt.Sprintf("the graph is the same%s except metadata (%s; first: %s): the cache key, computed from the module's bytes, changes with it although nothing compiled differs", partial, countText(d.Counts), describe(f))
	case d.Counts[hlo.ClassVolatile] > 0 && c.tempCall != "":
		s := fmt.Sprintf("the graph is the same%s except a temporary path in the call of %s", partial, c.tempCall)
		if len(c.tempParts) > 0 {
			var ps []string
			for _, p := range c.tempParts {
				ps = append(ps, p[0]+" → "+p[1])
			}
			s += " (random parts " + strings.Join(ps, ", ") + ")"
		}
		return doc.CodeHLOVolatileOnly, s + ": every trace gets a new cache key, so this cache can never hit; whether the kernel changed cannot be told from the graph — compare the NEFFs"
	case d.Counts[hlo.ClassVolatile] > 0:
		f := first(hlo.ClassVolatile)
		return doc.CodeHLOVolatileOnly, fmt.Sprintf("the graph is the same%s except volatile values (%s; first: %s): the cache key changes with them although the graph does not", partial, countText(d.Counts), describe(f))
	}
	return doc.CodeHLOSame, "the same graph" + partial + ", field for field (ids and generated names aside)"
}

func describe(f *HLODifference) string {
	if f == nil {
		return ""
	}
	s := f.Field
	if f.Instruction != "" {
		s += " of " + f.Instruction
	}
	switch {
	case f.Before != "" && f.After != "":
		s += ": " + f.Before + " → " + f.After
	case f.Before != "":
		s += ": " + f.Before + " (only in a)"
	case f.After != "":
		s += ": " + f.After + " (only in b)"
	}
	return s
}

func countText(n map[hlo.Class]int) string {
	var parts []string
	for _, cl := range []hlo.Class{hlo.ClassGraph, hlo.ClassKernel, hlo.ClassMetadata, hlo.ClassVolatile} {
		if n[cl] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[cl], cl))
		}
	}
	return strings.Join(parts, ", ")
}
