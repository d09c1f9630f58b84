package hlo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
)

// byID finds an instruction of c by id (nil when none; the first when ids repeat).
func (c *Computation) byID(id int64) *Instruction {
	if c.ids == nil {
		c.ids = make(map[int64]*Instruction, len(c.Instructions))
		for _, in := range c.Instructions {
			if _, dup := c.ids[in.ID]; !dup {
				c.ids[in.ID] = in
			}
		}
	}
	return c.ids[id]
}

// ByID finds an instruction of c by id (nil when none).
func (c *Computation) ByID(id int64) *Instruction { return c.byID(id) }

// Root is the computation's root instruction (by root_id, else its last).
func (c *Computation) Root() *Instruction {
	if in := c.byID(c.RootID); in != nil {
		return in
	}
	if n := len(c.Instructions); n > 0 {
		return c.Instructions[n-1]
	}
	return nil
}

// ComputationByID finds a computation of m by id.
func (m *Module) ComputationByID(id int64) *Computation {
	for _, c := range m.Computations {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// checkWiring flags ids that repeat and operands or called computations that name nothing.
func (d *decoder) checkWiring() {
	m := d.m
	compIDs := map[int64]bool{}
	for _, c := range m.Computations {
		if compIDs[c.ID] {
			d.root.FlagRepeated(doc.CodeHLODuplicateID, doc.Warning, &c.Span, "%s: computation id %d is used twice (%s): calls through it are ambiguous.", d.name, c.ID, c.Name)
		}
		compIDs[c.ID] = true
	}
	for _, c := range m.Computations {
		seen := map[int64]bool{}
		for _, in := range c.Instructions {
			if seen[in.ID] {
				d.root.FlagRepeated(doc.CodeHLODuplicateID, doc.Warning, &in.Span, "%s: instruction id %d is used twice in computation %s (%s): operands naming it are ambiguous.", d.name, in.ID, c.Name, in.Name)
			}
			seen[in.ID] = true
		}
		for _, in := range c.Instructions {
			for _, o := range in.Operands {
				if c.byID(o) == nil && !m.Partial {
					d.root.FlagRepeated(doc.CodeHLODanglingOperand, doc.Warning, &in.Span, "%s: %s in computation %s names operand id %d, which no instruction of that computation has.", d.name, in.Name, c.Name, o)
				}
			}
			for _, k := range in.Called {
				if !compIDs[k] && !m.Partial {
					d.root.FlagRepeated(doc.CodeHLODanglingOperand, doc.Warning, &in.Span, "%s: %s calls computation id %d, which the module does not hold.", d.name, in.Name, k)
				}
			}
		}
	}
	if len(m.Computations) > 0 && !m.Partial {
		if e := m.Entry(); e == nil || (e.ID != m.EntryID && e.Name != m.EntryName) {
			d.root.Warnf(doc.CodeHLONoEntry, nil, "%s names entry computation %q (id %d), which it does not hold; the last computation is taken as the entry.", d.name, m.EntryName, m.EntryID)
		}
	}
}

// maxRows bounds the overview's instruction table.
const maxRows = 10000

// overview is what a reader wants first: the custom calls (which kernel, from where), the
// instructions as a table, and the module's frontend attributes.
func (d *decoder) overview() []*doc.Node {
	m := d.m
	var out []*doc.Node
	calls := &doc.Node{Kind: doc.KindGroup, Label: "kernel calls", Detail: "custom calls: the kernel each names and its backend_config"}
	t := &doc.Table{Columns: []string{"computation", "id", "name", "opcode", "shape", "operands", "calls", "source"}}
	for _, c := range m.Computations {
		for _, in := range c.Instructions {
			if len(t.Rows) < maxRows {
				var ops []string
				for _, o := range in.Operands {
					if x := c.byID(o); x != nil {
						ops = append(ops, x.Name)
					} else {
						ops = append(ops, "#"+strconv.FormatInt(o, 10))
					}
				}
				t.Rows = append(t.Rows, []string{c.Name, strconv.FormatInt(in.ID, 10), in.Name, in.Opcode, in.Shape.Text,
					clip(strings.Join(ops, ", "), maxText), in.Kernel(), in.Metadata.Source(&m.Stack)})
				t.RowSpans = append(t.RowSpans, in.Span)
			}
			if in.Target == "" || len(calls.Children) >= maxListed {
				continue
			}
			n := &doc.Node{Kind: doc.KindHLOInstruction, Key: "call#" + strconv.Itoa(len(calls.Children)), Label: in.Kernel(), Value: in.Target, Span: &in.Span,
				Detail: fmt.Sprintf("%%%s in %s", in.Name, c.Name)}
			if nk := in.Backend; nk != nil && nk.NKI != nil {
				for _, l := range nk.Leaves {
					if !strings.Contains(l.Path, "_names[") {
						n.Add(&doc.Node{Kind: doc.KindField, Label: l.Path, Value: l.Value, Span: &doc.Span{Source: l.Span.Source, Offset: l.Span.Offset, Length: l.Span.Length}, Detail: leafMeaning(l.Path, true)})
					}
				}
				if TemporaryPath(nk.NKI.Binary) {
					n.Warnf(doc.CodeHLOTemporaryPath, nil, "%s: the kernel's compiled binary is referenced by a temporary path (%s): its random parts change on every trace, and the compile cache's key with them, so this entry can never be hit by another process. The kernel itself is not in the HLO: compare the NEFFs to tell whether it changed.", in.Kernel(), nk.NKI.Binary)
				}
			}
			calls.Add(n)
		}
	}
	calls.Value = inspectPlural(len(calls.Children), "custom call")
	if len(calls.Children) > 0 {
		out = append(out, calls)
	}
	out = append(out, &doc.Node{Kind: doc.KindTable, Label: "instructions", Value: inspectPlural(m.Instructions(), "instruction"), Table: t})
	if len(m.FrontendAttrs) > 0 {
		at := &doc.Table{Columns: []string{"key", "value"}}
		for _, a := range m.FrontendAttrs {
			if len(at.Rows) >= maxRows {
				break
			}
			at.Rows = append(at.Rows, []string{a.Key, clip(a.Value, maxText)})
			at.RowSpans = append(at.RowSpans, a.Span)
		}
		out = append(out, &doc.Node{Kind: doc.KindTable, Label: "frontend attributes", Value: inspectPlural(len(m.FrontendAttrs), "attribute"),
			Detail: "the module's frontend_attributes (field 19): options the framework passed to the compiler", Table: at})
	}
	return out
}

func inspectPlural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}
