package ntff

import (
	"github.com/neffscope/neffscope/core/pbview"
	"strconv"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

// maxHeaderNodes bounds the header's tree (the largest shared header, 57 KB, makes ~3,000
// nodes: its 4,000 static DMA blocks are table rows): past it the fields are still read into
// the Profile, shown as one bytes node with a finding.
const maxHeaderNodes = 20_000

// headerNodeCost is what one header node costs to hold (charged in blocks to the budget).
const headerNodeCost = budget.NodeCost

// hdec decodes the protobuf header, driven by the shape table: it builds the node tree and
// fills the Profile's typed fields as it goes.
type hdec struct {
	p         *Profile
	b         []byte // the header
	base      int64  // file offset of b[0]
	nodes     int
	charged   int
	cut       int64 // first byte not shown for the node limit (-1: none)
	explained map[*Field]bool
	repeats   doc.Repeats
	finds     []doc.Finding

	core  *Core
	image *Image
	edits *editList
	lists []*editList // the current core's edit lists, attached to its images when it ends
	ring  *DMARing
	sec   *Section
	ver   *Version3
}

type editList struct {
	engine int
	edits  []Edit
}

func (d *hdec) span(off, n int64) *doc.Span { return doc.At(d.base+off, n) }

func (d *hdec) flag(code doc.Code, sev string, span *doc.Span, format string, args ...any) {
	d.repeats.Flag(&d.finds, code, sev, span, format, args...)
}

// room reports whether a field at off gets a node under parent; past the limit (or the
// budget) the tree stops there.
func (d *hdec) room(parent *doc.Node, off int64) bool {
	if parent == nil {
		return false
	}
	if d.nodes >= maxHeaderNodes {
		if d.cut < 0 {
			d.cut = off
		}
		return false
	}
	if d.nodes >= d.charged {
		if !d.p.b.Take(budget.Memory, 1024*headerNodeCost, "the NTFF header's tree") {
			if d.cut < 0 {
				d.cut = off
			}
			return false
		}
		d.charged += 1024
	}
	d.nodes++
	return true
}

// decodeHeader reads the header bytes b (at file offset base) into p and returns its node.
func decodeHeader(p *Profile, b []byte, base int64) *doc.Node {
	d := &hdec{p: p, b: b, base: base, cut: -1, explained: map[*Field]bool{}}
	n := &doc.Node{Kind: doc.KindMessage, Key: "header", Label: "header", Value: strconv.Itoa(len(b)) + " B", Span: d.span(0, int64(len(b)))}
	n.Detail = "the protobuf header (no schema in the file: field names are readings, each with its evidence and confidence; unknown fields are shown raw)"
	d.message(n, shape("header"), 0, int64(len(b)), 0)
	if d.cut >= 0 {
		rest := &doc.Node{Kind: doc.KindBytes, Key: "rest", Label: "rest", Value: strconv.FormatInt(int64(len(b))-d.cut, 10) + " B", Span: d.span(d.cut, int64(len(b))-d.cut)}
		n.Add(rest)
		n.Warnf(doc.CodeNTFFHeaderLimit, rest.Span, "the header's fields from byte %d on are read but not shown as nodes: the tree holds at most %d nodes (or the memory budget ran out); they are in the hex view.", d.base+d.cut, maxHeaderNodes)
	}
	n.Findings = append(n.Findings, d.finds...)
	return n
}

func (d *hdec) message(parent *doc.Node, s *Shape, lo, hi int64, depth int) {
	counts := map[protowire.Number]int{}
	var rows map[*Field]*doc.Node
	for off := lo; off < hi; {
		num, typ, n := protowire.ConsumeTag(d.b[off:hi])
		if n < 0 {
			d.broken(parent, off, hi, "a field tag", protowire.ParseError(n))
			return
		}
		vn := protowire.ConsumeFieldValue(num, typ, d.b[off+int64(n):hi])
		if vn < 0 {
			d.broken(parent, off, hi, "field "+itoa(int64(num))+" ("+pbview.WireName(typ)+")", protowire.ParseError(vn))
			return
		}
		end := off + int64(n) + int64(vn)
		k := counts[num]
		counts[num]++
		f := s.field(num)
		if f != nil && f.Type.wire() != typ {
			d.flag(doc.CodeNTFFWireType, doc.Warning, d.span(off, end-off), "header byte %d: field %d of %s has wire type %s, but the table reads it as %s; shown raw.", d.base+off, num, s.Name, pbview.WireName(typ), f.Type)
			f = nil
		}
		switch {
		case f == nil:
			d.generic(parent, off, int64(n), end, num, typ, k)
		case f.Type == Message && shape(f.Msg) != nil && shape(f.Msg).Rows:
			if rows == nil {
				rows = map[*Field]*doc.Node{}
			}
			d.row(parent, rows, f, off, int64(n), end)
		default:
			d.known(parent, s, f, off, int64(n), end, k, depth)
		}
		off = end
	}
	for i := range s.Fields {
		if f := &s.Fields[i]; f.Zero && counts[f.Num] == 0 && d.room(parent, hi) {
			n := &doc.Node{Kind: doc.KindField, Key: f.Name, Label: f.Name, Value: "0"}
			if f.Name == "engine" {
				n.Value += " (" + EngineName(0) + ")"
			}
			if f.Name == "nq_type" {
				name, _ := NQName(0)
				n.Value += " (" + name + ")"
			}
			n.Detail = "field " + itoa(int64(f.Num)) + ": not on the wire, so 0 (the writer omits zero values)"
			parent.Add(n)
		}
	}
}

// broken reports a wire error at off; the rest of the range is left to the hex view.
func (d *hdec) broken(parent *doc.Node, off, hi int64, what string, err error) {
	sp := d.span(off, hi-off)
	d.flag(doc.CodeNTFFHeaderCorrupt, doc.Error, sp, "header byte %d: %s cannot be read (%v); the %d bytes to byte %d are shown as hex. The file may be truncated or damaged: capture it again.", d.base+off, what, err, hi-off, d.base+hi)
	if d.room(parent, off) {
		parent.Add(&doc.Node{Kind: doc.KindBytes, Label: "unreadable", Value: itoa(hi-off) + " B", Span: sp, Detail: "bytes after a protobuf wire-format error"})
	}
}

// generic shows a field the table does not know: number, wire type, raw value, span. A
// length-delimited value is never parsed further (a header nested 10⁵ deep costs one node).
func (d *hdec) generic(parent *doc.Node, off, tagLen, end int64, num protowire.Number, typ protowire.Type, k int) {
	if !d.room(parent, off) {
		return
	}
	v := d.b[off+tagLen : end]
	n := &doc.Node{Kind: doc.KindProtobuf, Label: "field " + itoa(int64(num)), Key: "f" + itoa(int64(num)) + "[" + strconv.Itoa(k) + "]", Span: d.span(off, end-off)}
	n.Value = pbview.Value(typ, v, rawText)
	n.Detail = "field " + itoa(int64(num)) + ", " + pbview.WireName(typ) + ": not in neffscope's table of NTFF header shapes (kept raw)"
	parent.Add(n)
}

// known shows a field the table names and fills the Profile from it.
func (d *hdec) known(parent *doc.Node, s *Shape, f *Field, off, tagLen, end int64, k, depth int) {
	v := d.b[off+tagLen : end]
	var n *doc.Node
	if d.room(parent, off) {
		n = &doc.Node{Kind: doc.KindField, Label: f.Name, Key: f.Name, Span: d.span(off, end-off)}
		if k > 0 || f.Type == Message {
			n.Key = f.Name + "[" + strconv.Itoa(k) + "]"
		}
		n.Detail = "field " + itoa(int64(f.Num)) + " (" + f.Type.String() + ")"
		if !d.explained[f] {
			d.explained[f] = true
			n.Detail += ": " + f.Meaning + " [confidence " + f.Confidence + "; " + f.Evidence + "]"
		}
		parent.Add(n)
	}
	switch f.Type {
	case Varint:
		x, _ := protowire.ConsumeVarint(v)
		d.varint(s.Key, f, x)
		if n != nil {
			n.Value = strconv.FormatUint(x, 10)
			if f.Name == "engine" {
				n.Value += " (" + EngineName(int(x)) + ")"
			}
			if f.Name == "nq_type" {
				name, _ := NQName(x)
				n.Value += " (" + name + ")"
			}
			if f.Name == "ring_address" {
				n.Value = "0x" + strconv.FormatUint(x, 16)
			}
		}
	case String, Bytes:
		c, _ := protowire.ConsumeBytes(v)
		d.text(s.Key, f, c)
		if n != nil {
			switch {
			case f.Type == Bytes && f.Name == "neff_uuid":
				n.Value = uuidText(c)
			case f.Type == Bytes:
				n.Value = rawText(c)
			default:
				n.Value = doc.Quote(string(c), 200)
			}
		}
		if f.Type == String && !utf8.Valid(c) {
			d.flag(doc.CodeNTFFBadText, doc.Info, d.span(off, end-off), "header byte %d: %s is not valid UTF-8; shown with replacement characters.", d.base+off, f.Name)
		}
	case Message:
		c, _ := protowire.ConsumeBytes(v)
		if n != nil {
			n.Kind = doc.KindMessage
		}
		d.enter(f, off, end)
		d.message(n, shape(f.Msg), end-int64(len(c)), end, depth+1)
		d.leave(f, n)
	}
}

// row adds one occurrence of a Rows shape (a static DMA block) as a row of its table node.
func (d *hdec) row(parent *doc.Node, rows map[*Field]*doc.Node, f *Field, off, tagLen, end int64) {
	if d.ring != nil {
		d.ring.Blocks++
	}
	s := shape(f.Msg)
	t := rows[f]
	if t == nil {
		if !d.room(parent, off) {
			return
		}
		t = &doc.Node{Kind: doc.KindTable, Key: f.Name + "s", Label: f.Name + "s", Table: &doc.Table{}}
		t.Detail = "field " + itoa(int64(f.Num)) + " (repeated message): " + f.Meaning + " [confidence " + f.Confidence + "; " + f.Evidence + "]; one row each"
		for _, sf := range s.Fields {
			t.Table.Columns = append(t.Table.Columns, sf.Name)
		}
		rows[f] = t
		parent.Add(t)
	}
	if len(t.Table.Rows) >= maxTableRows {
		return
	}
	c, _ := protowire.ConsumeBytes(d.b[off+tagLen : end])
	r := make([]string, len(s.Fields))
	for i := range r {
		r[i] = "0"
	}
	for len(c) > 0 {
		num, typ, n := protowire.ConsumeTag(c)
		if n < 0 {
			break
		}
		vn := protowire.ConsumeFieldValue(num, typ, c[n:])
		if vn < 0 {
			break
		}
		for i := range s.Fields {
			if s.Fields[i].Num == num && typ == protowire.VarintType {
				x, _ := protowire.ConsumeVarint(c[n:])
				r[i] = strconv.FormatUint(x, 10)
			}
		}
		c = c[n+vn:]
	}
	t.Table.Rows = append(t.Table.Rows, r)
	t.Table.RowSpans = append(t.Table.RowSpans, *d.span(off, end-off))
	t.Value = strconv.Itoa(len(t.Table.Rows)) + " rows"
}

// maxTableRows bounds one table of the header (the largest real one has 252 rows).
const maxTableRows = 100_000

// enter opens the typed record a message fills.
func (d *hdec) enter(f *Field, off, end int64) {
	switch f.Msg {
	case "core":
		d.core = &Core{Span: d.span(off, end-off)}
		d.lists = nil
		d.p.Cores = append(d.p.Cores, d.core)
	case "image":
		d.image = &Image{Span: d.span(off, end-off)}
	case "edits":
		d.edits = &editList{}
	case "edit":
		if d.edits != nil {
			d.edits.edits = append(d.edits.edits, Edit{Kind: EditInserted, Span: d.span(off, end-off)})
		}
	case "dma_queue":
		d.ring = &DMARing{}
	case "section":
		d.sec = &Section{Entry: d.span(off, end-off)}
	case "version":
		d.ver = &Version3{Set: true}
	}
}

// leave closes it, filing it where it belongs.
func (d *hdec) leave(f *Field, n *doc.Node) {
	switch f.Msg {
	case "core":
		for _, l := range d.lists {
			if im := d.core.Image(l.engine); im != nil && !im.HasEdits {
				im.Edits, im.HasEdits = l.edits, true
			}
		}
		if n != nil && d.core.Name != "" {
			n.Label = "core " + d.core.Name
		}
		d.core = nil
	case "image":
		if d.core != nil {
			d.core.Images = append(d.core.Images, d.image)
		}
		if n != nil {
			n.Label = "image " + EngineName(d.image.Engine)
		}
		d.image = nil
	case "edits":
		if d.core != nil {
			d.lists = append(d.lists, d.edits)
		}
		if n != nil {
			n.Label = "edits " + EngineName(d.edits.engine)
		}
		d.edits = nil
	case "edit":
		if n != nil && d.edits != nil && len(d.edits.edits) > 0 {
			e := d.edits.edits[len(d.edits.edits)-1]
			what := "inserted"
			if e.Kind == EditRemoved {
				what = "removed"
			} else if e.Kind != EditInserted {
				what = "of kind " + strconv.FormatUint(e.Kind, 10)
			}
			n.Label = "edit @" + strconv.FormatInt(e.Pos, 10)
			n.Value = strconv.FormatInt(e.Words, 10) + " words " + what
		}
	case "dma_queue":
		if d.core != nil {
			d.core.Rings = append(d.core.Rings, *d.ring)
		}
		if n != nil {
			n.Label = "dma_queue " + d.ring.Name
		}
		d.ring = nil
	case "section":
		d.p.Sections = append(d.p.Sections, d.sec)
		if n != nil {
			name, _ := NQName(d.sec.Type)
			n.Label = "notification_queue " + name + " NC " + strconv.FormatUint(d.sec.NC, 10)
		}
		d.sec = nil
	case "version":
		if f.Name == "runtime_version" {
			d.p.Runtime = *d.ver
		}
		d.ver = nil
	}
}

// varint fills a typed field of a message of shape key.
func (d *hdec) varint(key string, f *Field, x uint64) {
	switch key {
	case "section":
		switch f.Name {
		case "nq_type":
			d.sec.Type = x
		case "source_kind":
			d.sec.Kind = x
		case "index":
			d.sec.Index = x
		case "offset":
			d.sec.Off = clampInt(x)
		case "bytes":
			d.sec.Bytes = clampInt(x)
		case "neuron_core":
			d.sec.NC = x
		}
	case "image":
		switch f.Name {
		case "engine":
			d.image.Engine = int(min(x, 1<<20))
		case "ring_address":
			d.image.Ring = x
		case "offset":
			d.image.Off = clampInt(x)
		case "bytes":
			d.image.Bytes = clampInt(x)
		}
	case "edits":
		d.edits.engine = int(min(x, 1<<20))
	case "edit":
		if d.edits == nil || len(d.edits.edits) == 0 {
			return
		}
		e := &d.edits.edits[len(d.edits.edits)-1]
		switch f.Name {
		case "byte_offset":
			e.Pos = clampInt(x) / WordSize
		case "words":
			e.Words = clampInt(x)
		case "kind":
			e.Kind = x
		}
	case "dma_queue":
		switch f.Name {
		case "unknown_ring":
			d.ring.Ring = x
		case "queue_index":
			d.ring.Queue = x
		}
	case "version":
		switch f.Name {
		case "major":
			d.ver.Major = x
		case "minor":
			d.ver.Minor = x
		case "patch":
			d.ver.Patch = x
		}
	case "core":
		switch f.Name {
		case "neuron_core":
			d.core.NC, d.core.HasNC = x, true
		case "exec_ps":
			d.core.ExecPS = x
		}
	case "execution":
		switch f.Name {
		case "start_ps":
			d.p.Window[0], d.p.HasWindow = x, true
		case "end_ps":
			d.p.Window[1], d.p.HasWindow = x, true
		}
	}
}

// text fills a typed string or bytes field of a message of shape key.
func (d *hdec) text(key string, f *Field, c []byte) {
	switch {
	case key == "dma_queue" && f.Name == "name":
		d.ring.Name = string(c)
	case key == "version" && f.Name == "commit":
		d.ver.Commit = string(c)
	case key == "core" && f.Name == "name":
		d.core.Name = string(c)
	case key == "header" && f.Name == "neff_name":
		d.p.NEFFName = string(c)
	case f.Name == "neff_uuid" && d.p.UUID == nil && len(c) >= 16:
		d.p.UUID = append([]byte(nil), c[:16]...)
		d.p.UUIDTail = append([]byte(nil), c[16:min(len(c), 32)]...)
	case key == "header" && f.Name == "instance_type":
		d.p.InstanceType = string(c)
	case key == "header" && f.Name == "instance_id":
		d.p.InstanceID = string(c)
	}
}

func clampInt(x uint64) int64 {
	if x > 1<<62 {
		return 1 << 62
	}
	return int64(x)
}

// rawText renders a length-delimited value of no known meaning: text, or hex (first 32 B).
func rawText(c []byte) string {
	if len(c) == 0 {
		return "(empty)"
	}
	printable := utf8.Valid(c)
	for _, r := range string(c) {
		if r < 0x20 {
			printable = false
			break
		}
	}
	if printable {
		return doc.Quote(string(c), 200)
	}
	return hexText(c, 32)
}

// uuidText is a UUID as the NEFF header shows it (8-4-4-4-12 hex), then any tail in hex.
func uuidText(c []byte) string {
	if len(c) < 16 {
		return hexText(c, 32)
	}
	h := hexText(c[:16], 16)
	s := ""
	for i := 0; i < len(h); i++ {
		if h[i] != ' ' {
			s += h[i : i+1]
		}
	}
	out := s[0:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:32]
	if len(c) > 16 {
		out += " + " + hexText(c[16:], 16)
	}
	return out
}

// UUIDString is the NEFF UUID as text ("" when absent).
func (p *Profile) UUIDString() string {
	if p.UUID == nil {
		return ""
	}
	s := uuidText(p.UUID)
	return s
}

func hexText(c []byte, max int) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 3*min(len(c), max)+2)
	for i, x := range c {
		if i == max {
			out = append(out, " …"...)
			break
		}
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, digits[x>>4], digits[x&15])
	}
	return string(out)
}
