package hlo

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

// Options tune a decode.
type Options struct {
	// Budget is the open's budget: the model and the tree are charged to it.
	Budget *budget.Budget
	// Source is the span source of the wire bytes ("" for the file itself; a gzip'd module's
	// inflated bytes have a source of their own).
	Source string
	// Name is what findings call the file.
	Name string
}

// Limits that keep hostile input bounded, whatever the budget.
const (
	// maxDepth is how deep messages are followed (XLA's own parser stops at 100 too).
	maxDepth = 100
	// maxNodes bounds the field tree; past it fields are decoded into the model, not shown.
	maxNodes = 20000
	// maxListed is how many values of a packed list a node's text shows.
	maxListed = 32
	// maxText is how many bytes of a string a node or a field value shows.
	maxText = 200
	// maxShapeText bounds a shape's text (a tuple of 10⁵ elements).
	maxShapeText = 512
	// instrCost estimates an Instruction held, besides its strings and id lists.
	instrCost = 512
)

// decoder carries one decode.
type decoder struct {
	b     []byte
	src   string
	name  string
	bud   *budget.Budget
	m     *Module
	root  *doc.Node
	nodes int
	cut   int64 // first field not shown in the tree (-1: all shown)
	// instrAt finds the typed instruction of an instruction message by its value's offset.
	instrAt map[int64]*Instruction
	// stopped: the typed model stopped at a limit (Module.Partial).
	stopped bool
	// cur is the instruction whose fields the tree is showing; compOf finds an
	// instruction's computation.
	cur    *Instruction
	compOf map[*Instruction]*Computation
	compAt map[int64]*Computation
}

// wireField is one field as read off the wire: for a length-delimited field [vlo, vhi) is its
// payload; for a scalar, u is the value and [vlo, vhi) its bytes.
type wireField struct {
	num        protowire.Number
	typ        protowire.Type
	start      int64
	vlo, vhi   int64
	u          uint64
	wireLength int64
	// cut: the field's length runs past the bytes held; [vlo, vhi) is what there is of it.
	cut bool
}

// Decode reads the wire-format HloModuleProto b. It never fails: what cannot be read is a
// finding at its byte offset, and what was read before it is kept.
func Decode(b []byte, opt Options) *Module {
	d := &decoder{b: b, src: opt.Source, name: opt.Name, bud: opt.Budget, cut: -1, instrAt: map[int64]*Instruction{}}
	d.m = &Module{WireSize: int64(len(b))}
	d.root = &doc.Node{Kind: doc.KindHLOModule, Label: opt.Name, Span: d.span(0, int64(len(b))), Ref: doc.FileRef,
		Detail: "XLA HloModuleProto (protobuf wire format; field names from XLA's hlo.proto and xla_data.proto)"}
	if opt.Source != "" {
		// The spans index another source than the file (a gzip'd module's inflated bytes):
		// the root names it, so a front end finds that source's bytes and size by it.
		d.root.Ref = doc.MemberRef(opt.Source)
	}
	d.m.Root = d.root
	if len(b) == 0 {
		d.root.Errorf(doc.CodeHLOEmpty, d.span(0, 0), "%s is empty: an HloModuleProto holds at least its computations.", opt.Name)
		return d.m
	}
	d.module()
	d.checkWiring()
	d.m.masked = d.maskedDigest()
	tree := &doc.Node{Kind: doc.KindMessage, Label: "fields", Value: messages[mHloModuleProto].name, Span: d.span(0, int64(len(b))),
		Detail: "every field of the file, with its bytes"}
	d.tree(tree, mHloModuleProto, 0, int64(len(b)), 0)
	if d.cut >= 0 {
		tree.SetAttr(doc.AttrViewLimit, fmt.Sprintf("the tree shows the first %d fields; the fields from byte %d on are decoded into the model (computations, instructions) but not shown one by one", maxNodes, d.cut))
		d.root.Warnf(doc.CodeHLONodeLimit, d.span(d.cut, int64(len(b))-d.cut), "%s: the field tree shows its first %d fields; the rest (from byte %d) are read into the graph but not shown one by one.", opt.Name, maxNodes, d.cut)
	}
	d.root.Value = d.summary()
	d.root.Add(d.overview()...)
	d.root.Add(tree)
	return d.m
}

func (d *decoder) span(off, n int64) *doc.Span {
	return &doc.Span{Source: d.src, Offset: off, Length: n}
}

func span(src string, off, n int64) *doc.Span { return &doc.Span{Source: src, Offset: off, Length: n} }

func blob(b []byte, off int64, src string) Blob {
	h := sha256.Sum256(b)
	return Blob{Size: int64(len(b)), Digest: hex.EncodeToString(h[:8]), Span: doc.Span{Source: src, Offset: off, Length: int64(len(b))}}
}

// each walks the fields of the message at [lo, hi), calling fn for each until it returns
// false. On a wire error it returns the offset where reading stopped and why (-1: none).
func (d *decoder) each(lo, hi int64, fn func(f wireField) bool) (int64, string) {
	pos := lo
	for pos < hi {
		b := d.b[pos:hi]
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return pos, protowire.ParseError(n).Error()
		}
		f := wireField{num: num, typ: typ, start: pos}
		rest := b[n:]
		var m int
		switch typ {
		case protowire.VarintType:
			f.u, m = protowire.ConsumeVarint(rest)
			f.vlo, f.vhi = pos+int64(n), pos+int64(n+max(m, 0))
		case protowire.Fixed32Type:
			var v uint32
			v, m = protowire.ConsumeFixed32(rest)
			f.u, f.vlo, f.vhi = uint64(v), pos+int64(n), pos+int64(n+max(m, 0))
		case protowire.Fixed64Type:
			f.u, m = protowire.ConsumeFixed64(rest)
			f.vlo, f.vhi = pos+int64(n), pos+int64(n+max(m, 0))
		case protowire.BytesType:
			var v []byte
			v, m = protowire.ConsumeBytes(rest)
			if m >= 0 {
				f.vhi = pos + int64(n+m)
				f.vlo = f.vhi - int64(len(v))
			} else if l, k := protowire.ConsumeVarint(rest); k > 0 && l > uint64(len(rest)-k) {
				// Cut short: what is there is read (a message's first fields), then the error.
				f.vlo, f.vhi, f.wireLength, f.cut = pos+int64(n+k), hi, hi-pos, true
				fn(f)
				return pos, protowire.ParseError(m).Error()
			}
		default:
			m = protowire.ConsumeFieldValue(num, typ, rest)
			f.vlo, f.vhi = pos+int64(n), pos+int64(n+max(m, 0))
		}
		if m < 0 {
			return pos, protowire.ParseError(m).Error()
		}
		f.wireLength = int64(n + m)
		pos += f.wireLength
		if !fn(f) {
			return -1, ""
		}
	}
	return -1, ""
}

// str returns a length-delimited field's bytes as a string (shared with the input).
func (d *decoder) str(f wireField) string {
	if f.typ != protowire.BytesType {
		return ""
	}
	return string(d.b[f.vlo:f.vhi])
}

// ints reads a repeated integer field's values: one value, or a packed list (appended to dst).
func (d *decoder) ints(dst []int64, f wireField) []int64 {
	switch f.typ {
	case protowire.VarintType:
		return append(dst, int64(f.u))
	case protowire.BytesType:
		b := d.b[f.vlo:f.vhi]
		for len(b) > 0 {
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				break
			}
			if !d.take(8, "operand ids") {
				break
			}
			dst = append(dst, int64(v))
			b = b[n:]
		}
	}
	return dst
}

// take charges n bytes of memory; a refusal stops the typed model (Module.Partial).
func (d *decoder) take(n int64, what string) bool {
	if d.stopped {
		return false
	}
	if !d.bud.Take(budget.Memory, n, d.name+": "+what) {
		d.stop(fmt.Sprintf("the memory budget refused %s", what))
		return false
	}
	return true
}

func (d *decoder) stop(why string) {
	if !d.stopped {
		d.stopped = true
		d.m.Partial, d.m.Why = true, why
		d.root.Errorf(doc.CodeHLOPartial, nil, "%s: the graph was read only in part (%s): %d computations and %d instructions are held; the diff and the graph digest cover only those.", d.name, why, len(d.m.Computations), d.m.Instructions())
	}
}

// module reads the typed model of the whole file.
func (d *decoder) module() {
	m := d.m
	at, why := d.each(0, int64(len(d.b)), func(f wireField) bool {
		switch {
		case f.num == 1 && f.typ == protowire.BytesType:
			m.Name = d.str(f)
		case f.num == 2 && f.typ == protowire.BytesType:
			m.EntryName = d.str(f)
		case f.num == 3 && f.typ == protowire.BytesType:
			if c := d.computation(f); c != nil {
				m.Computations = append(m.Computations, c)
			}
		case f.num == 5 && f.typ == protowire.VarintType:
			m.ID = int64(f.u)
		case f.num == 6 && f.typ == protowire.VarintType:
			m.EntryID = int64(f.u)
		case f.num == 17 && f.typ == protowire.BytesType:
			d.stackIndex(f)
		case f.num == 19 && f.typ == protowire.BytesType:
			m.FrontendAttrs = d.attrs(m.FrontendAttrs, f, 0)
		}
		return !d.stopped
	})
	if at >= 0 {
		m.Partial, m.Why = true, fmt.Sprintf("the wire format cannot be read from byte %d: %s", at, why)
	}
}

func (d *decoder) computation(f wireField) *Computation {
	if !d.take(256, "a computation") {
		return nil
	}
	c := &Computation{Span: *d.span(f.start, f.wireLength)}
	d.noteErr(d.each(f.vlo, f.vhi, func(g wireField) bool {
		switch {
		case g.num == 1 && g.typ == protowire.BytesType:
			c.Name = d.str(g)
		case g.num == 2 && g.typ == protowire.BytesType:
			if in := d.instruction(g); in != nil {
				c.Instructions = append(c.Instructions, in)
			}
		case g.num == 5 && g.typ == protowire.VarintType:
			c.ID = int64(g.u)
		case g.num == 6 && g.typ == protowire.VarintType:
			c.RootID = int64(g.u)
		case g.num == 7 && g.typ == protowire.VarintType:
			c.IsFusion = g.u != 0
		}
		return !d.stopped
	}))
	return c
}

func (d *decoder) instruction(f wireField) *Instruction {
	if !d.take(instrCost, "an instruction") {
		return nil
	}
	in := &Instruction{Param: -1, Span: *d.span(f.start, f.wireLength)}
	d.instrAt[f.vlo] = in
	others := map[string]int{}
	var hashes []hash.Hash
	d.noteErr(d.each(f.vlo, f.vhi, func(g wireField) bool {
		fd := fieldOf(mHloInstructionProto, g.num)
		if fd != nil && !fitsWire(fd, g.typ) {
			fd = nil // the tree flags it; the model keeps it as an other field
		}
		switch {
		case fd == nil:
		case g.num == 1:
			in.Name = d.str(g)
			return true
		case g.num == 2:
			in.Opcode = d.str(g)
			return true
		case g.num == 3:
			in.Shape = d.shape(g, 0)
			return true
		case g.num == 7:
			in.Metadata = d.metadata(g)
			return true
		case g.num == 8:
			lit := blob(d.b[g.vlo:g.vhi], g.vlo, d.src)
			in.Literal = &lit
			return true
		case g.num == 9:
			in.Param = int64(g.u)
			return true
		case g.num == 28:
			in.Target = d.str(g)
			return true
		case g.num == 35:
			in.ID = int64(g.u)
			return true
		case g.num == 36:
			in.Operands = d.ints(in.Operands, g)
			return true
		case g.num == 37:
			in.ControlPreds = d.ints(in.ControlPreds, g)
			return true
		case g.num == 38:
			in.Called = d.ints(in.Called, g)
			return true
		case g.num == 43:
			in.Backend = decodeBackend(d.b[g.vlo:g.vhi], g.vlo, d.src, d.bud, d.root)
			return true
		case g.num == 68:
			in.FrontendAttrs = d.attrs(in.FrontendAttrs, g, 0)
			return true
		}
		name := "field " + strconv.Itoa(int(g.num))
		var m msgID = noMsg
		if fd != nil {
			name, m = fd.name, fd.msg
		}
		i, ok := others[name]
		if !ok {
			if !d.take(128, "an instruction field") {
				return false
			}
			i = len(in.Other)
			others[name] = i
			in.Other = append(in.Other, FieldValue{Name: name, Span: *d.span(g.start, g.wireLength)})
			hashes = append(hashes, sha256.New())
		}
		ov := &in.Other[i]
		if ov.Text != "" {
			ov.Text += ", "
		}
		if len(ov.Text) < maxText {
			ov.Text += d.valueText(fd, m, g, 0)
		}
		hashes[i].Write(d.b[g.vlo:g.vhi])
		hashes[i].Write([]byte{byte(g.typ)})
		return !d.stopped
	}))
	for i := range in.Other {
		in.Other[i].Text = clip(in.Other[i].Text, maxText)
		in.Other[i].Digest = hex.EncodeToString(hashes[i].Sum(nil)[:8])
	}
	return in
}

// fitsWire says whether wire type t is one field fd can come in.
func fitsWire(fd *field, t protowire.Type) bool {
	return fd.kind.wireType() == t || (fd.repeated && fd.kind.packable() && t == protowire.BytesType)
}

func (d *decoder) metadata(f wireField) Metadata {
	var md Metadata
	d.each(f.vlo, f.vhi, func(g wireField) bool {
		fd := fieldOf(mOpMetadata, g.num)
		switch {
		case g.num == 1 && g.typ == protowire.BytesType:
			md.OpType = d.str(g)
		case g.num == 2 && g.typ == protowire.BytesType:
			md.OpName = d.str(g)
		case g.num == 3 && g.typ == protowire.BytesType:
			md.SourceFile = d.str(g)
		case g.num == 4 && g.typ == protowire.VarintType:
			md.SourceLine = int64(int32(g.u))
		case g.num == 15 && g.typ == protowire.VarintType:
			md.StackFrame = int64(int32(g.u))
		default:
			name, m := "field "+strconv.Itoa(int(g.num)), noMsg
			if fd != nil && fitsWire(fd, g.typ) {
				name, m = fd.name, fd.msg
			} else {
				fd = nil
			}
			h := sha256.Sum256(d.b[g.vlo:g.vhi])
			md.Other = append(md.Other, FieldValue{Name: name, Text: d.valueText(fd, m, g, 0), Digest: hex.EncodeToString(h[:8]), Span: *d.span(g.start, g.wireLength)})
		}
		return len(md.Other) < 64
	})
	return md
}

// attrs reads a FrontendAttributes message (its map entries) onto dst.
func (d *decoder) attrs(dst []Attr, f wireField, _ int) []Attr {
	d.each(f.vlo, f.vhi, func(g wireField) bool {
		if g.num != 1 || g.typ != protowire.BytesType {
			return true
		}
		var a Attr
		a.Span = *d.span(g.start, g.wireLength)
		d.each(g.vlo, g.vhi, func(h wireField) bool {
			switch {
			case h.num == 1 && h.typ == protowire.BytesType:
				a.Key = d.str(h)
			case h.num == 2 && h.typ == protowire.BytesType:
				a.Value = d.str(h)
			}
			return true
		})
		if !d.take(int64(64+len(a.Key)+len(a.Value)), "a frontend attribute") {
			return false
		}
		dst = append(dst, a)
		return true
	})
	return dst
}

func (d *decoder) stackIndex(f wireField) {
	st := &d.m.Stack
	d.each(f.vlo, f.vhi, func(g wireField) bool {
		if !d.take(32, "the stack frame index") {
			return false
		}
		switch {
		case g.num == 1 && g.typ == protowire.BytesType:
			st.Files = append(st.Files, d.str(g))
		case g.num == 3 && g.typ == protowire.BytesType:
			var loc [2]int64
			d.each(g.vlo, g.vhi, func(h wireField) bool {
				if h.typ == protowire.VarintType && h.num == 1 {
					loc[0] = int64(int32(h.u))
				} else if h.typ == protowire.VarintType && h.num == 3 {
					loc[1] = int64(int32(h.u))
				}
				return true
			})
			st.Locations = append(st.Locations, loc)
		case g.num == 4 && g.typ == protowire.BytesType:
			var id int64
			d.each(g.vlo, g.vhi, func(h wireField) bool {
				if h.typ == protowire.VarintType && h.num == 1 {
					id = int64(int32(h.u))
				}
				return true
			})
			st.Frames = append(st.Frames, id)
		}
		return true
	})
}

// shape reads a ShapeProto into its text and parts.
func (d *decoder) shape(f wireField, depth int) Shape {
	var s Shape
	if f.typ != protowire.BytesType {
		return s
	}
	if depth >= maxDepth {
		s.Text = "(nested too deep)"
		return s
	}
	elem := int64(-1)
	var dyn []bool
	d.each(f.vlo, f.vhi, func(g wireField) bool {
		switch {
		case g.num == 2 && g.typ == protowire.VarintType:
			elem = int64(g.u)
		case g.num == 3:
			s.Dims = d.ints(s.Dims, g)
		case g.num == 4 && g.typ == protowire.BytesType:
			if len(s.Tuple) < maxListed {
				s.Tuple = append(s.Tuple, d.shape(g, depth+1))
			} else {
				s.Tuple = append(s.Tuple, Shape{Text: "…"})
			}
		case g.num == 5 && g.typ == protowire.BytesType:
			s.Layout = d.layout(g)
		case g.num == 6:
			for _, v := range d.ints(nil, g) {
				dyn = append(dyn, v != 0)
			}
		}
		return len(s.Tuple) <= maxListed
	})
	s.DType = strings.ToLower(enumName(ePrimitiveType, elem))
	if s.DType == "" && elem >= 0 {
		s.DType = "type" + strconv.FormatInt(elem, 10)
	}
	var t strings.Builder
	if s.DType == "tuple" || len(s.Tuple) > 0 {
		t.WriteString("(")
		for i, e := range s.Tuple {
			if i > 0 {
				t.WriteString(", ")
			}
			t.WriteString(e.Text)
			if t.Len() > maxShapeText {
				break
			}
		}
		t.WriteString(")")
	} else {
		t.WriteString(s.DType)
		t.WriteString("[")
		for i, v := range s.Dims {
			if i > 0 {
				t.WriteString(",")
			}
			if i < len(dyn) && dyn[i] {
				t.WriteString("<=")
			}
			t.WriteString(strconv.FormatInt(v, 10))
			if t.Len() > maxShapeText {
				break
			}
		}
		t.WriteString("]")
		t.WriteString(s.Layout)
	}
	s.Text = clip(t.String(), maxShapeText)
	return s
}

// layout reads a LayoutProto as XLA prints it: "{1,0}", with the other fields after a colon.
func (d *decoder) layout(f wireField) string {
	var mtm []int64
	var extra []string
	d.each(f.vlo, f.vhi, func(g wireField) bool {
		if g.num == 1 {
			mtm = d.ints(mtm, g)
			return len(mtm) < 1024
		}
		fd := fieldOf(mLayoutProto, g.num)
		name := "field " + strconv.Itoa(int(g.num))
		if fd != nil && fitsWire(fd, g.typ) {
			name = fd.name
		} else {
			fd = nil
		}
		m := noMsg
		if fd != nil {
			m = fd.msg
		}
		v := d.valueText(fd, m, g, 0)
		if name == "tail_padding_alignment_in_elements" && (v == "0" || v == "1") {
			return true // XLA treats 0 and 1 alike and does not print either
		}
		extra = append(extra, name+"="+v)
		return len(extra) < 16
	})
	parts := make([]string, len(mtm))
	for i, v := range mtm {
		parts[i] = strconv.FormatInt(v, 10)
	}
	s := "{" + strings.Join(parts, ",")
	if len(extra) > 0 {
		s += ":" + strings.Join(extra, " ")
	}
	return s + "}"
}

// valueText renders a field's value in a few words: a scalar, an enum name, a packed list, a
// quoted string, or a message's fields (fd nil: generically, by wire type).
func (d *decoder) valueText(fd *field, m msgID, f wireField, depth int) string {
	if fd == nil {
		switch f.typ {
		case protowire.VarintType:
			return strconv.FormatUint(f.u, 10)
		case protowire.Fixed32Type:
			return fmt.Sprintf("0x%08x", f.u)
		case protowire.Fixed64Type:
			return fmt.Sprintf("0x%016x", f.u)
		case protowire.BytesType:
			b := d.b[f.vlo:f.vhi]
			if utf8.Valid(b) && printable(b) {
				return strconv.Quote(clip(string(b), maxText))
			}
			return fmt.Sprintf("%d B", len(b))
		}
		return "?"
	}
	switch fd.kind {
	case kMessage:
		if depth >= 4 || f.vhi-f.vlo > 4096 {
			return fmt.Sprintf("{%d B}", f.vhi-f.vlo)
		}
		var parts []string
		d.each(f.vlo, f.vhi, func(g wireField) bool {
			gd := fieldOf(m, g.num)
			name := "field " + strconv.Itoa(int(g.num))
			gm := noMsg
			if gd != nil && fitsWire(gd, g.typ) {
				name, gm = gd.name, gd.msg
			} else {
				gd = nil
			}
			parts = append(parts, name+": "+d.valueText(gd, gm, g, depth+1))
			return len(parts) < 16
		})
		return clip("{"+strings.Join(parts, ", ")+"}", maxText)
	case kString:
		return strconv.Quote(clip(d.str(f), maxText))
	case kBytes:
		b := d.b[f.vlo:f.vhi]
		if len(b) <= 64 && utf8.Valid(b) && printable(b) {
			return strconv.Quote(string(b))
		}
		h := sha256.Sum256(b)
		return fmt.Sprintf("%d B, sha256 %x…", len(b), h[:6])
	}
	if f.typ == protowire.BytesType { // packed
		var vals []string
		n := 0
		b := d.b[f.vlo:f.vhi]
		for len(b) > 0 {
			v, k := scalarOf(fd.kind, b)
			if k < 0 {
				vals = append(vals, "(cut)")
				break
			}
			if n < maxListed {
				vals = append(vals, scalarText(fd, v))
			}
			n++
			b = b[k:]
		}
		if n > maxListed {
			vals = append(vals, fmt.Sprintf("… %d values", n))
		}
		return "[" + strings.Join(vals, ", ") + "]"
	}
	return scalarText(fd, f.u)
}

// scalarOf reads one packed value of kind k.
func scalarOf(k kind, b []byte) (uint64, int) {
	switch k.wireType() {
	case protowire.Fixed32Type:
		v, n := protowire.ConsumeFixed32(b)
		return uint64(v), n
	case protowire.Fixed64Type:
		return protowire.ConsumeFixed64(b)
	}
	return protowire.ConsumeVarint(b)
}

// scalarText renders a scalar of field fd from its raw wire value.
func scalarText(fd *field, u uint64) string {
	switch fd.kind {
	case kBool:
		return strconv.FormatBool(u != 0)
	case kEnum:
		if n := enumName(fd.enum, int64(int32(u))); n != "" {
			return n
		}
		return strconv.FormatInt(int64(int32(u)), 10)
	case kInt32:
		return strconv.FormatInt(int64(int32(u)), 10)
	case kSint32, kSint64:
		return strconv.FormatInt(protowire.DecodeZigZag(u), 10)
	case kInt64, kSfixed64:
		return strconv.FormatInt(int64(u), 10)
	case kSfixed32:
		return strconv.FormatInt(int64(int32(u)), 10)
	case kFloat:
		return strconv.FormatFloat(float64(math.Float32frombits(uint32(u))), 'g', -1, 32)
	case kDouble:
		return strconv.FormatFloat(math.Float64frombits(u), 'g', -1, 64)
	}
	return strconv.FormatUint(u, 10)
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// summary is the root's one line.
func (d *decoder) summary() string {
	m := d.m
	s := fmt.Sprintf("%s: %d computations, %d instructions", m.Name, len(m.Computations), m.Instructions())
	var calls []string
	for _, c := range m.Computations {
		for _, in := range c.Instructions {
			if k := in.Kernel(); k != "" && len(calls) < 4 {
				calls = append(calls, k)
			}
		}
	}
	if len(calls) > 0 {
		s += "; calls " + strings.Join(calls, ", ")
	}
	return s
}

// maskedDigest is the digest of the wire bytes with each NKI backend_config that names a
// temporary path replaced by its values, the path masked ("" when the model is partial).
func (d *decoder) maskedDigest() string {
	if d.m.Partial {
		return ""
	}
	h := sha256.New()
	pos := int64(0)
	for _, c := range d.m.Computations {
		for _, in := range c.Instructions {
			bc := in.Backend
			if bc == nil || bc.NKI == nil || !TemporaryPath(bc.NKI.Binary) || bc.Raw.Span.Offset < pos {
				continue
			}
			h.Write(d.b[pos:bc.Raw.Span.Offset])
			digestBackend(func(parts ...string) {
				for _, p := range parts {
					h.Write([]byte(p))
					h.Write([]byte{0})
				}
			}, in)
			pos = bc.Raw.Span.Offset + bc.Raw.Span.Length
		}
	}
	h.Write(d.b[pos:])
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// noteErr marks the model partial when a computation or instruction does not read to its end:
// a graph digest of what was read would name a graph the file does not hold.
func (d *decoder) noteErr(at int64, why string) {
	if at >= 0 && !d.m.Partial {
		d.m.Partial, d.m.Why = true, fmt.Sprintf("the wire format cannot be read from byte %d: %s", at, why)
	}
}
