package hlo

import (
	"fmt"
	"github.com/neffscope/neffscope/core/pbview"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

// tree adds a node per field of message m at [lo, hi) to parent, recursing into messages.
func (d *decoder) tree(parent *doc.Node, m msgID, lo, hi int64, depth int) {
	counts := map[protowire.Number]int{}
	at, why := d.each(lo, hi, func(f wireField) bool {
		if d.nodes >= maxNodes || !d.bud.Take(budget.Memory, budget.NodeCost, d.name+": the field tree") {
			if d.cut < 0 {
				d.cut = f.start
			}
			return false
		}
		d.nodes++
		n := d.fieldNode(m, f, depth)
		i := counts[f.num]
		counts[f.num]++
		if fd := fieldOf(m, f.num); (fd != nil && fd.repeated) || i > 0 {
			n.Key = n.Label + "#" + strconv.Itoa(i)
		}
		parent.Children = append(parent.Children, n)
		return true
	})
	if at >= 0 {
		parent.Errorf(doc.CodeHLOCorrupt, d.span(at, hi-at), "%s: the protobuf wire format cannot be read from byte %d (%s); the %d bytes from there to the end of this %s are shown as bytes. The file is cut short or damaged: copy it again from the cache.",
			d.name, at, why, hi-at, messages[m].name)
		parent.Add(&doc.Node{Kind: doc.KindBytes, Label: "unread", Value: fmt.Sprintf("%d B", hi-at), Span: d.span(at, hi-at)})
	}
}

// fieldNode is one field's node: a message (with its fields below it), a value, or a generic
// protobuf field when XLA's schema does not name it or its wire type disagrees.
func (d *decoder) fieldNode(m msgID, f wireField, depth int) *doc.Node {
	sp := d.span(f.start, f.wireLength)
	fd := fieldOf(m, f.num)
	if fd == nil {
		d.root.FlagRepeated(doc.CodeHLOUnknownField, doc.Info, sp, "%s: field %d of %s (byte %d) is not in XLA's hlo.proto at the kept commit: shown by its wire type, compared by its bytes.", d.name, f.num, messages[m].name, f.start)
		return &doc.Node{Kind: doc.KindProtobuf, Label: "field " + strconv.Itoa(int(f.num)), Value: d.valueText(nil, noMsg, f, 0), Span: sp,
			Detail: "a field number XLA's schema does not name (" + pbview.WireName(f.typ) + ")"}
	}
	if !fitsWire(fd, f.typ) {
		d.root.FlagRepeated(doc.CodeHLOWireType, doc.Warning, sp, "%s: %s.%s (field %d, byte %d) comes as %s where XLA's schema says %s; shown generically.", d.name, messages[m].name, fd.name, f.num, f.start, pbview.WireName(f.typ), pbview.WireName(fd.kind.wireType()))
		return &doc.Node{Kind: doc.KindProtobuf, Label: fd.name, Value: d.valueText(nil, noMsg, f, 0), Span: sp}
	}
	switch fd.kind {
	case kMessage:
		kind := doc.KindMessage
		switch fd.msg {
		case mHloComputationProto:
			kind = doc.KindHLOComputation
		case mHloInstructionProto:
			kind = doc.KindHLOInstruction
		}
		n := &doc.Node{Kind: kind, Label: fd.name, Value: d.messageValue(fd.msg, f), Span: sp}
		if fd.msg == mHloInstructionProto {
			prev := d.cur
			d.cur = d.instrAt[f.vlo]
			defer func() { d.cur = prev }()
		}
		if depth+1 >= maxDepth {
			n.Kind = doc.KindBytes
			d.root.FlagRepeated(doc.CodeHLODeepNesting, doc.Warning, sp, "%s: messages nest more than %d deep at byte %d (%s inside %s); the deeper bytes are shown as bytes.", d.name, maxDepth, f.start, messages[fd.msg].name, messages[m].name)
			return n
		}
		d.tree(n, fd.msg, f.vlo, f.vhi, depth+1)
		return n
	case kString:
		b := d.b[f.vlo:f.vhi]
		if !utf8.Valid(b) {
			d.root.FlagRepeated(doc.CodeHLOBadUTF8, doc.Info, sp, "%s: %s.%s at byte %d is not valid UTF-8.", d.name, messages[m].name, fd.name, f.start)
		}
	case kBytes:
		if m == mHloInstructionProto && f.num == 43 {
			return d.backendNode(f, sp)
		}
	}
	return &doc.Node{Kind: doc.KindField, Label: fd.name, Value: d.valueText(fd, fd.msg, f, 0), Span: sp}
}

// backendNode shows a backend_config: its bytes, and its decoded JSON values with their spans.
func (d *decoder) backendNode(f wireField, sp *doc.Span) *doc.Node {
	n := &doc.Node{Kind: doc.KindField, Label: "backend_config", Span: sp, Value: fmt.Sprintf("%d B", f.vhi-f.vlo)}
	in := d.cur
	if in == nil || in.Backend == nil {
		return n
	}
	bc := in.Backend
	n.Value = fmt.Sprintf("%d B, %s", bc.Raw.Size, bc.Encoding)
	if bc.NKI != nil {
		n.Detail = "an NKI kernel call: " + bc.NKI.FuncName
	}
	for i, l := range bc.Leaves {
		if i >= maxListed*4 {
			n.SetAttr(doc.AttrViewLimit, fmt.Sprintf("the first %d of %d values are shown", i, len(bc.Leaves)))
			break
		}
		c := &doc.Node{Kind: doc.KindField, Label: l.Path, Value: l.Value, Span: &doc.Span{Source: l.Span.Source, Offset: l.Span.Offset, Length: l.Span.Length}}
		if l.Path == "" {
			c.Label = "(value)"
		}
		c.Detail = leafMeaning(l.Path, bc.NKI != nil)
		n.Add(c)
	}
	return n
}

// leafMeaning says what an NKI backend_config value is (nkiFields), "" for others.
func leafMeaning(path string, nki bool) string {
	if !nki {
		return ""
	}
	p := path
	if i := strings.IndexByte(p, '['); i >= 0 {
		p = p[:i]
	}
	for _, f := range nkiFields {
		if f.Path == p {
			return f.Meaning + " (confidence " + f.Confidence + ")"
		}
	}
	return ""
}

// messageValue is a message node's text: what it is at a glance.
func (d *decoder) messageValue(m msgID, f wireField) string {
	switch m {
	case mHloComputationProto:
		if d.compAt == nil {
			d.compAt = map[int64]*Computation{}
			for _, c := range d.m.Computations {
				d.compAt[c.Span.Offset] = c
			}
		}
		if c := d.compAt[f.start]; c != nil {
			return fmt.Sprintf("%s (%d instructions)", c.Name, len(c.Instructions))
		}
	case mHloInstructionProto:
		if in := d.instrAt[f.vlo]; in != nil {
			return in.Text(d.nameByID(in))
		}
	case mShapeProto:
		return d.shape(f, 0).Text
	case mOpMetadata:
		md := d.metadata(f)
		parts := []string{}
		for _, s := range []string{md.OpType, md.OpName, md.Source(&d.m.Stack)} {
			if s != "" {
				parts = append(parts, s)
			}
		}
		return clip(strings.Join(parts, " · "), maxText)
	case mFrontendAttributes:
		n := 0
		d.each(f.vlo, f.vhi, func(wireField) bool { n++; return true })
		return fmt.Sprintf("%d attributes", n)
	case mFrontendAttributes_MapEntry:
		var k, v string
		d.each(f.vlo, f.vhi, func(g wireField) bool {
			if g.num == 1 {
				k = d.str(g)
			} else if g.num == 2 {
				v = d.str(g)
			}
			return true
		})
		return clip(k+" = "+strconv.Quote(v), maxText)
	}
	return fmt.Sprintf("%d B", f.vhi-f.vlo)
}

// nameByID names instructions by id within in's computation.
func (d *decoder) nameByID(in *Instruction) func(int64) string {
	if d.compOf == nil {
		d.compOf = map[*Instruction]*Computation{}
		for _, c := range d.m.Computations {
			for _, x := range c.Instructions {
				d.compOf[x] = c
			}
		}
	}
	c := d.compOf[in]
	return func(id int64) string {
		if c != nil {
			if y := c.byID(id); y != nil {
				return y.Name
			}
		}
		return "#" + strconv.FormatInt(id, 10)
	}
}
