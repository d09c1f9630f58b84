// Package dbg decodes the compiler's protobuf debug info (.dbg members of a NEFF, spec neff.md
// §4.7): the asm files (one record per instruction word), the backend files (BIR instructions
// with their kernel file, line and name), and the penguin, hlo, pttf and stack-frame files.
// No .proto is published: field names come from a data table of shapes inferred from real
// files (schema.go); fields the table does not know are shown as generic protobuf. Every byte
// of a member lies under some node, with its span.
package dbg

import (
	"fmt"
	"github.com/neffscope/neffscope/core/pbview"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

// Kind is a .dbg member kind.
type Kind string

const (
	KindAsm         Kind = "asm"
	KindBackend     Kind = "backend"
	KindPenguin     Kind = "penguin"
	KindHLO         Kind = "hlo"
	KindPTTF        Kind = "pttf"
	KindStackFrames Kind = "stack_frame_index"
)

// Kinds lists every kind, in chain order (instruction word → framework op).
var Kinds = []Kind{KindAsm, KindBackend, KindPenguin, KindHLO, KindPTTF, KindStackFrames}

// Match names the kind of a .dbg member path, and for sgNN members the engine (PE, DMA, ...).
func Match(p string) (kind Kind, engine string, ok bool) {
	base := path.Base(p)
	if e, found := strings.CutPrefix(base, "debug_info_asm_"); found && strings.HasSuffix(e, ".dbg") {
		return KindAsm, strings.TrimSuffix(e, ".dbg"), true
	}
	if e, found := strings.CutPrefix(base, "debug_info_backend_"); found && strings.HasSuffix(e, ".dbg") {
		return KindBackend, strings.TrimSuffix(e, ".dbg"), true
	}
	for _, k := range []Kind{KindPenguin, KindHLO, KindPTTF} {
		if strings.HasPrefix(base, "debug_info_"+string(k)+".dbg") {
			return k, "", true
		}
	}
	if base == "debug_info_stack_frame_index.dbg" {
		return KindStackFrames, "", true
	}
	return "", "", false
}

// Attr is one key/value attribute of a record.
type Attr struct{ Key, Value string }

// Record is one record of field 3 (an asm word, a BIR instruction, a tensor, ...).
type Record struct {
	ID      uint64
	Name    string
	Parents []uint64 // field 3: ids one level up (asm: backend ids); at most maxParents kept
	Attrs   []Attr
	Off     int64 // span of the whole field in the member
	Len     int64
	// StackFrame is field 8 (hlo records): a 1-based frame of the stack-frame member, 0 none.
	StackFrame uint64
	// TransposeCode is field 6 (3: a PE transpose; 1 and 2: unknown), 0 when absent.
	TransposeCode uint64
}

// reset makes r an empty record at [off, off+n) that keeps its slices' room (a scan reuses
// one Record). Field by field: a whole Record stored at once goes through the collector's
// bulk write barrier, costly while it marks.
func (r *Record) reset(off, n int64) {
	r.ID, r.Off, r.Len, r.StackFrame, r.TransposeCode = 0, off, n, 0, 0
	if r.Name != "" {
		r.Name = ""
	}
	r.Parents, r.Attrs = r.Parents[:0], r.Attrs[:0]
}

// Attr returns the value of attribute key.
func (r *Record) Attr(key string) (string, bool) {
	for _, a := range r.Attrs {
		if a.Key == key {
			return a.Value, true
		}
	}
	return "", false
}

// Coverage counts a member's bytes by how well they are explained.
type Coverage struct {
	Named   int64 // under a field of the table whose meaning is known
	Unknown int64 // under a table field named unknown… (shape known, meaning not)
	Generic int64 // under a generic protobuf node (field number not in the table)
	None    int64 // after a wire-format error: shown as hex only
}

// Add sums coverages.
func (c *Coverage) Add(o Coverage) {
	c.Named += o.Named
	c.Unknown += o.Unknown
	c.Generic += o.Generic
	c.None += o.None
}

// File is a decoded .dbg member.
type File struct {
	Member      string
	Kind        Kind
	Engine      string // from the member name (sgNN members)
	Description string
	PointsTo    string
	EngineCode  uint64
	HasEngine   bool
	Records     []Record
	KernelFiles []string
	KernelNames []string
	// Stack is the stack-frame member's field 6 (nil for other kinds, or when absent).
	Stack    *StackFrames
	Coverage Coverage
	Findings []doc.Finding
	// Root is the member's content node: every field with its span (bounded, see maxNodes).
	Root *doc.Node
	byID map[uint64]int32
	src  string // span source of the records (the member path, "" for a file opened alone)
	nrec int    // records of field 3 (Records keeps at most a cap of them)
	// stacks is the NEFF's stack frames an hlo member's records are resolved through.
	stacks *StackFrames
}

// RecordCount is the number of records of field 3, kept or not.
func (f *File) RecordCount() int { return f.nrec }

// Limits that keep hostile input bounded in memory.
const (
	maxNodes   = 1500    // tree nodes per member; past it, fields are counted but not shown
	maxRecords = 1 << 20 // typed records kept per member (a 64 MiB stream, the most kept, has 1 Mi words)
	maxRows    = 2048    // rows of the records table in the document
	maxParents = 8       // parent ids kept per record (the first is the one the joins use)
	maxListed  = 32      // values shown in a packed list's node text
	maxText    = 200     // runes of a string shown in a node
	// maxRepeated is how many findings of one code a member lists; the rest are counted in one
	// finding more (a hostile member repeats one fault millions of times).
	maxRepeated = 3
	// maxNames bounds the kernel files and kernel names kept per member (fields 5 and 7).
	maxNames = 1 << 16
	// maxAttrs bounds the attributes kept per record (the joins read the first kernel_file,
	// kernel_line and kernel_name; the real records carry at most seven).
	maxAttrs = 64
)

// ByID finds a record by its id (nil if none).
func (f *File) ByID(id uint64) *Record {
	if f.byID == nil {
		f.byID = make(map[uint64]int32, len(f.Records))
		for i := range f.Records {
			if _, dup := f.byID[f.Records[i].ID]; !dup {
				f.byID[f.Records[i].ID] = int32(i)
			}
		}
	}
	if i, ok := f.byID[id]; ok {
		return &f.Records[i]
	}
	return nil
}

// decoder carries the state of one member's decode.
type decoder struct {
	f     *File
	src   string // span source: the member path, or "" for a file opened alone
	b     []byte // the member's bytes from offset base on (a whole member, or one top-level field of a scan)
	base  int64
	nodes int
	cut   int64 // first field offset not shown as a node (-1: all shown)
	// explained marks the table fields whose meaning a node has shown already: later nodes of
	// the same field get a short detail, so a member's tree does not repeat it thousands of times.
	explained map[*Field]bool
	records   bool     // typed records still collected
	emit      SpanFunc // Spans: every field's span, class and depth (nil when decoding)
	keep      int      // typed records kept at most (File.Records)
	nrec      int      // records of field 3 seen
	// bare says the tree is only counted (a scan: its nodes give the root's child count and
	// carry the findings, in their order, and are dropped at Close): nodes get no text.
	bare bool
	slab []doc.Node // where bare nodes come from: one allocation for many
	// onRecord, when set, receives each record of field 3 as it is read (a scan: no typed
	// records are kept); the record is reused after it returns, and its strings point into
	// the bytes being scanned: what is kept must be copied (strings.Clone).
	onRecord func(r *Record)
	tmp      Record
	// sinks are a scan's record and attribute sinks by depth, reused record after record
	// (one allocation per message and attribute was most of a scan's garbage).
	sinks [maxSinkDepth]recordSink
	top   map[protowire.Number]int // field counts of the top-level message (kept across a scan's calls)
	// stacks resolves hlo records' stack_frame_id in the view (the stack-frame member's
	// field 6, from another member; nil: shown as numbers).
	stacks *StackFrames
	// stackAt points at the fields of the stack-frame entry being read (by field number - 1).
	stackAt []*uint64
	// repeats counts the findings of each code (past maxRepeated they are counted, not listed).
	repeats map[doc.Code]*repeatCount
	// textHeld is the bytes of the member-level strings kept (kernel files and names), charged
	// by a scan as they grow; namesCut and attrsCut count what the limits left out.
	textHeld           int64
	namesCut, attrsCut int
}

type repeatCount struct {
	n   int
	sev string
}

// note counts a finding of code and says whether it is still listed (one of the first
// maxRepeated of its code in the member).
func (d *decoder) note(code doc.Code, sev string) bool {
	if d.repeats == nil {
		d.repeats = map[doc.Code]*repeatCount{}
	}
	r := d.repeats[code]
	if r == nil {
		r = &repeatCount{sev: sev}
		d.repeats[code] = r
	}
	r.n++
	return r.n <= maxRepeated
}

// closeRepeats adds, on the member's root, one finding per code that was counted past
// maxRepeated, and one per limit that left something out.
func (d *decoder) closeRepeats() {
	root := d.f.Root
	codes := make([]doc.Code, 0, len(d.repeats))
	for c := range d.repeats {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	for _, c := range codes {
		if r := d.repeats[c]; r.n > maxRepeated {
			root.Flag(c, r.sev, root.Span, "%s: %d more findings like the %d listed (%d in all) are counted, not listed one by one.", d.f.Member, r.n-maxRepeated, maxRepeated, r.n)
		}
	}
	if d.namesCut > 0 {
		root.Flag(doc.CodeDbgNamesLimit, doc.Warning, root.Span, "%s lists more than %d kernel files or kernel names (fields 5 and 7); the first %d of each are kept and %d more are counted: attributes naming an index past them are shown raw.", d.f.Member, maxNames, maxNames, d.namesCut)
	}
	if d.attrsCut > 0 {
		root.Flag(doc.CodeDbgRecordAttrs, doc.Warning, root.Span, "%s: records carry more than %d attributes each; the first %d of a record are kept and %d more are counted.", d.f.Member, maxAttrs, maxAttrs, d.attrsCut)
	}
}

// at returns the bytes of [lo, hi) that the decoder holds (a scan holds one top-level field, or
// less at a wire error: what lies past them reads as missing, like the end of the member).
func (d *decoder) at(lo, hi int64) []byte {
	lo, hi = lo-d.base, hi-d.base
	lo = max(0, min(lo, int64(len(d.b))))
	hi = max(lo, min(hi, int64(len(d.b))))
	return d.b[lo:hi]
}

// Decode reads a .dbg member. It never fails: wire errors are findings at their byte offset and
// the bytes after them are one hex node.
func Decode(member string, b []byte) *File { return decode(member, member, b) }

// DecodeFile reads a .dbg file opened on its own: spans index the file itself.
func DecodeFile(name string, b []byte) *File { return decode(name, "", b) }

func decode(member, src string, b []byte) *File {
	d := newDecoder(member, src, int64(len(b)), maxRecords)
	d.b = b
	d.message(d.f.Root, shape(kindShape(d.f.Kind)), 0, int64(len(b)), 0, nil)
	return d.finish(int64(len(b)), len(d.f.Records))
}

// DecodeView is Decode keeping only the records the records table shows (its first rows): the
// member's tree for its own view, without the typed records the joins need (see Scan).
func DecodeView(member string, b []byte) *File { return DecodeViewStacks(member, b, nil) }

// DecodeViewStacks is DecodeView with the NEFF's stack frames (StackFrames of its stack-frame
// member), which an hlo member's stack_frame_id fields and records table are resolved through.
func DecodeViewStacks(member string, b []byte, st *StackFrames) *File {
	d := newDecoder(member, member, int64(len(b)), maxRows)
	d.b = b
	d.stacks, d.f.stacks = st, st
	d.message(d.f.Root, shape(kindShape(d.f.Kind)), 0, int64(len(b)), 0, nil)
	return d.finish(int64(len(b)), d.nrec)
}

func newDecoder(member, src string, size int64, keep int) *decoder {
	kind, engine, _ := Match(member)
	f := &File{Member: member, Kind: kind, Engine: engine, src: src}
	d := &decoder{f: f, src: src, cut: -1, records: true, explained: map[*Field]bool{}, keep: keep, top: map[protowire.Number]int{}}
	shape := shape(kindShape(kind))
	f.Root = &doc.Node{Kind: doc.KindProtobuf, Label: "content", Value: strconv.FormatInt(size, 10) + " B",
		Span: d.span(0, size), Ref: "member:" + member}
	if src == "" {
		f.Root.Ref = "file:"
	}
	if shape != nil {
		f.Root.Detail = shape.Name + " (protobuf wire format; field names from neffscope's table of inferred shapes)"
	} else {
		f.Root.Detail = "protobuf wire format (kind not recognised by name: every field shown generically)"
	}
	return d
}

// cutNote is the root's view limit when the tree stops at maxNodes fields (a limit of the
// tree, not a fault of the file: doc.AttrViewLimit, not a finding).
func cutNote(cut int64) string {
	return fmt.Sprintf("the tree shows the first %d fields; the fields from byte %d on are decoded and counted (records table, coverage) but not shown one by one", maxNodes, cut)
}

// finish adds the root's closing findings, the kernel-name notes and the records table
// (count records in all).
func (d *decoder) finish(size int64, count int) *File {
	f := d.f
	f.nrec = d.nrec
	if d.cut >= 0 {
		f.Root.SetAttr(doc.AttrViewLimit, cutNote(d.cut))
	}
	if !d.records && d.keep == maxRecords {
		f.Root.Warnf(doc.CodeDbgTooManyRecords, f.Root.Span, "%s holds more than %d records; only the first %d are kept for the source joins.", f.Member, maxRecords, maxRecords)
	}
	d.stackCut()
	d.closeRepeats()
	f.nameIndexes()
	if t := recordsTable(f, d.src, count, d.stacks); t != nil {
		f.Root.Children = append([]*doc.Node{t}, f.Root.Children...)
	}
	if t := f.Stack.framesTable(); t != nil {
		f.Root.Children = append([]*doc.Node{t}, f.Root.Children...)
	}
	f.Findings = collect(f.Root)
	return f
}

// nameIndexes says, on each kernel_file / kernel_name attribute node, which entry of the
// member's fields 5 and 7 its index names (those lists come after the records in the file).
func (f *File) nameIndexes() {
	if len(f.KernelFiles) == 0 && len(f.KernelNames) == 0 {
		return
	}
	f.Root.Walk(func(_ []string, n *doc.Node) bool {
		if n.Label != "attribute" {
			return true
		}
		for key, list := range map[string][]string{"kernel_file": f.KernelFiles, "kernel_name": f.KernelNames} {
			if v, ok := strings.CutPrefix(n.Value, key+" = \""); ok {
				if i, err := strconv.Atoi(strings.TrimSuffix(v, "\"")); err == nil && i >= 0 && i < len(list) {
					n.Detail = "index " + strconv.Itoa(i) + " → " + list[i]
				}
			}
		}
		return false
	})
}

func collect(n *doc.Node) []doc.Finding {
	var all []doc.Finding
	n.Walk(func(_ []string, c *doc.Node) bool {
		all = append(all, c.Findings...)
		return true
	})
	return all
}

func (d *decoder) span(off, n int64) *doc.Span {
	return &doc.Span{Source: d.src, Offset: off, Length: n}
}

// recordSink collects the typed view of one record while its fields are walked.
type recordSink struct {
	rec  *Record
	attr *Attr
	a    Attr // what attr points at in a scan's reused sinks
}

// maxSinkDepth is how deep a scan's sinks are reused (the table's shapes are at most three
// deep); deeper ones are allocated.
const maxSinkDepth = 4

// sinkAt is a sink for a message at depth: a scan's reused one, else a new one.
func (d *decoder) sinkAt(depth int) *recordSink {
	if d.onRecord != nil && depth < maxSinkDepth {
		s := &d.sinks[depth]
		// Field by field, and only what is set: storing a whole zero sink (four pointers) for
		// every record and attribute went through the collector's bulk write barrier, which
		// with Record.reset's was ~1.4 s of the 32 MB real-shaped NEFF's source lines in wasm.
		if s.rec != nil {
			s.rec = nil
		}
		if s.attr != nil {
			s.attr = nil
		}
		if s.a.Key != "" {
			s.a.Key = ""
		}
		if s.a.Value != "" {
			s.a.Value = ""
		}
		return s
	}
	return &recordSink{}
}

// scanText is c as a string: in a scan, one pointing into c (valid until the record is handed
// over: onRecord copies what it keeps), else a copy.
func (d *decoder) scanText(c []byte) string {
	if d.onRecord != nil && len(c) > 0 {
		return unsafe.String(&c[0], len(c))
	}
	return string(c)
}

// message walks b[lo:hi] as a message of shape s (nil: generic), adding field nodes to parent
// (nil: past the node budget, count only). depth is the nesting level (the table's shapes are at
// most three deep; generic length-delimited fields are never parsed as messages).
func (d *decoder) message(parent *doc.Node, s *Shape, lo, hi int64, depth int, sink *recordSink) {
	// Field counts name the nodes (f5[2], instruction[3]): not needed past the node budget.
	var counts map[protowire.Number]int
	switch {
	case depth == 0 && d.top != nil:
		counts = d.top
	case parent != nil:
		counts = map[protowire.Number]int{}
	}
	for off := lo; off < hi; {
		num, typ, n := protowire.ConsumeTag(d.at(off, hi))
		if n < 0 {
			d.broken(parent, off, hi, "field tag", protowire.ParseError(n))
			return
		}
		vn := protowire.ConsumeFieldValue(num, typ, d.at(off+int64(n), hi))
		if vn < 0 {
			d.broken(parent, off, hi, "field "+itoa(int64(num))+" ("+pbview.WireName(typ)+")", protowire.ParseError(vn))
			return
		}
		end := off + int64(n) + int64(vn)
		k := 0
		if counts != nil {
			k = counts[num]
			counts[num]++
		}
		f := s.field(num)
		if f != nil && f.Type.wire() != typ {
			if d.note(doc.CodeDbgWireType, doc.Warning) {
				d.f.Root.Flag(doc.CodeDbgWireType, doc.Warning, d.span(off, end-off), "%s at byte %d: field %d of %s has wire type %s, but the table reads it as %s; shown generically.", d.f.Member, off, num, s.Name, pbview.WireName(typ), f.Type)
			}
			f = nil
		}
		if d.emit != nil {
			c := ClassGeneric
			switch {
			case f != nil && f.Named():
				c = ClassNamed
			case f != nil:
				c = ClassUnknown
			}
			d.emit(off, end-off, depth, c)
		}
		if f == nil {
			d.generic(parent, off, int64(n), end, num, typ, k)
		} else {
			d.known(parent, f, off, int64(n), end, k, depth, sink)
		}
		off = end
	}
}

// broken reports a wire error at off and puts the rest of the range under one hex node.
func (d *decoder) broken(parent *doc.Node, off, hi int64, what string, err error) {
	d.f.Coverage.None += hi - off
	if d.emit != nil {
		d.emit(off, hi-off, 0, ClassNone)
		return
	}
	n := &doc.Node{Kind: doc.KindBytes, Label: "unreadable", Value: itoa(hi-off) + " B", Span: d.span(off, hi-off)}
	n.Detail = "bytes after a protobuf wire-format error; shown as hex"
	n.Errorf(doc.CodeDbgCorrupt, n.Span, "%s at byte %d: the %s cannot be read (%v); the %d bytes from here to byte %d are shown as hex. The member may be truncated or corrupt: re-extract it or recompile.", d.f.Member, off, what, err, hi-off, hi)
	if d.room(parent, off) {
		d.nodes++
		parent.Add(n)
	} else {
		// The finding must not be lost with the node: keep it on the root.
		d.f.Root.Findings = append(d.f.Root.Findings, n.Findings...)
	}
}

// generic shows a field the table does not know: number, wire type, value, span.
func (d *decoder) generic(parent *doc.Node, off, tagLen, end int64, num protowire.Number, typ protowire.Type, k int) {
	d.f.Coverage.Generic += end - off
	if !d.room(parent, off) {
		return
	}
	if d.bare {
		parent.Add(d.bareNode(doc.KindProtobuf))
		return
	}
	v := d.at(off+tagLen, end)
	n := &doc.Node{Kind: doc.KindProtobuf, Label: "field " + itoa(int64(num)), Key: "f" + itoa(int64(num)) + "[" + strconv.Itoa(k) + "]", Span: d.span(off, end-off)}
	n.Value = pbview.Value(typ, v, guessBytes)
	n.Detail = "field " + itoa(int64(num)) + ", " + pbview.WireName(typ) + ": not in neffscope's table of .dbg shapes"
	d.nodes++
	parent.Add(n)
}

// known shows a field the table names, and fills the typed view. Past the node budget the
// field is only read (typed view, coverage, findings on the root), not rendered.
func (d *decoder) known(parent *doc.Node, f *Field, off, tagLen, end int64, k, depth int, sink *recordSink) {
	v := d.at(off+tagLen, end)
	cov := &d.f.Coverage.Named
	if !f.Named() {
		cov = &d.f.Coverage.Unknown
	}
	n := d.fieldNode(parent, f, off, end, k)
	switch f.Type {
	case Varint:
		*cov += end - off
		x, _ := protowire.ConsumeVarint(v)
		d.varint(f, x, sink)
		if n != nil && !d.bare {
			n.Value = d.varintText(f, x)
		}
	case String:
		*cov += end - off
		c, _ := protowire.ConsumeBytes(v)
		d.knownString(n, f, c, off, end, sink)
	case Packed:
		*cov += end - off
		c, _ := protowire.ConsumeBytes(v)
		d.knownPacked(n, f, c, off, end, sink)
	case Message:
		c, _ := protowire.ConsumeBytes(v)
		*cov += end - off - int64(len(c))
		d.knownMessage(n, f, c, off, end, k, depth, sink)
	}
}

// fieldNode is a named field's node, added under parent (nil past the node budget).
func (d *decoder) fieldNode(parent *doc.Node, f *Field, off, end int64, k int) *doc.Node {
	if !d.room(parent, off) {
		return nil
	}
	if d.bare {
		return parent.Add(d.bareNode(doc.KindField))
	}
	n := &doc.Node{Kind: doc.KindField, Label: f.Name, Key: f.Name, Span: d.span(off, end-off)}
	if k > 0 || f.Type == Message {
		n.Key = f.Name + "[" + strconv.Itoa(k) + "]"
	}
	n.Detail = "field " + itoa(int64(f.Num)) + " (" + f.Type.String() + ")"
	if !d.explained[f] {
		d.explained[f] = true
		n.Detail += ": " + f.Meaning + " [confidence " + f.Confidence + "]"
	}
	d.nodes++
	parent.Add(n)
	return n
}

// bareNode is a new node of a scan's tree, of kind only, counted. Nodes come from slabs of
// 16 to 256 (a node a malloc was most of a small member's scan in the wasm), and go with the
// tree at Close.
func (d *decoder) bareNode(kind string) *doc.Node {
	if len(d.slab) == cap(d.slab) {
		d.slab = make([]doc.Node, 0, min(256, max(16, 2*cap(d.slab))))
	}
	d.slab = append(d.slab, doc.Node{Kind: kind})
	d.nodes++
	return &d.slab[len(d.slab)-1]
}

// findingsOn is where a field's findings go: its node, or the root when it has none.
func (d *decoder) findingsOn(n *doc.Node) *doc.Node {
	if n == nil {
		return d.f.Root
	}
	return n
}

// varintText is a varint field's value, with the engine or stack frame it names.
func (d *decoder) varintText(f *Field, x uint64) string {
	s := strconv.FormatUint(x, 10)
	if e := EngineName(x); f.Name == "engine" && e != "" {
		s += " (" + e + ")"
	}
	if fr, ok := d.stacks.Frame(x); ok && f.Name == "stack_frame_id" {
		s += " → " + fr.Text()
	}
	return s
}

func (d *decoder) knownString(n *doc.Node, f *Field, c []byte, off, end int64, sink *recordSink) {
	if n != nil && !d.bare {
		n.Value = doc.Quote(string(c), maxText)
	}
	if !utf8.Valid(c) && d.note(doc.CodeDbgBadUTF8, doc.Info) {
		d.findingsOn(n).Flag(doc.CodeDbgBadUTF8, doc.Info, d.span(off, end-off), "%s at byte %d: %s is not valid UTF-8; shown with replacement characters.", d.f.Member, off, f.Name)
	}
	if sink != nil {
		d.text(f, d.scanText(c), sink)
	} else {
		d.text(f, string(c), sink)
	}
}

func (d *decoder) knownPacked(n *doc.Node, f *Field, c []byte, off, end int64, sink *recordSink) {
	// Only a record's parents are kept (the rest is checked, not stored); a scan's record
	// reuses its slice.
	var buf []uint64
	keep := 0
	if f.Num == 3 && sink != nil && sink.rec != nil {
		keep = maxParents
		if sink.rec == &d.tmp && sink.attr == nil {
			buf = d.tmp.Parents[:0]
		}
	}
	xs, ok := packed(buf, c, keep)
	if keep > 0 {
		sink.rec.Parents = xs
	}
	if n != nil && !d.bare {
		shown, _ := packed(nil, c, maxListed+1)
		n.Value = listText(shown, maxListed)
		if cnt := countVarints(c); cnt > maxListed {
			n.Value += " (" + strconv.Itoa(cnt) + " values)"
		}
	}
	if !ok && d.note(doc.CodeDbgPackedCut, doc.Warning) {
		d.findingsOn(n).Flag(doc.CodeDbgPackedCut, doc.Warning, d.span(off, end-off), "%s at byte %d: %s should be a list of varints, but its last varint is cut off.", d.f.Member, off, f.Name)
	}
}

// knownMessage reads a message field c: into a record, an attribute or the stack frames when
// it is one, and shows it.
func (d *decoder) knownMessage(n *doc.Node, f *Field, c []byte, off, end int64, k, depth int, sink *recordSink) {
	child := d.childSink(f, off, end, depth, sink)
	d.message(n, shape(f.Msg), end-int64(len(c)), end, depth+1, child)
	d.stackAt = nil
	if child != nil && child.attr != nil {
		if len(child.rec.Attrs) < maxAttrs {
			child.rec.Attrs = append(child.rec.Attrs, *child.attr)
		} else {
			d.attrsCut++
		}
	}
	if child != nil && child.attr == nil && child.rec == &d.tmp && d.onRecord != nil {
		defer d.onRecord(&d.tmp) // after the node's value is set from it
	}
	if n != nil && !d.bare {
		n.Kind = doc.KindMessage
		switch {
		case child != nil && child.attr != nil:
			n.Value = child.attr.Key + " = " + doc.Quote(child.attr.Value, maxText)
		case child != nil && child.rec != nil:
			n.Label = f.Name + " " + strconv.Itoa(k)
			n.Value = recordValue(d.f.Kind, child.rec)
		case depth == 0 && f.Num == 3:
			n.Label = f.Name + " " + strconv.Itoa(k)
		}
	}
}

// childSink is where a message field's contents go (nil: nowhere but the tree): a record of
// field 3 (the typed view keeps it; a scan hands it on), or a record's attribute. A stack
// frames message, or an entry of it, is begun here too.
func (d *decoder) childSink(f *Field, off, end int64, depth int, sink *recordSink) *recordSink {
	switch {
	case depth == 0 && f.Num == 3:
		d.nrec++
		switch {
		case d.onRecord != nil:
			d.tmp.reset(off, end-off)
			child := d.sinkAt(depth)
			child.rec = &d.tmp
			return child
		case d.records && len(d.f.Records) < d.keep:
			d.f.Records = append(d.f.Records, Record{Off: off, Len: end - off})
			return &recordSink{rec: &d.f.Records[len(d.f.Records)-1]}
		default:
			d.records = false
		}
	case f.Msg == "attr" && sink != nil && sink.rec != nil:
		child := d.sinkAt(depth)
		child.rec, child.attr = sink.rec, &child.a
		return child
	case depth == 0 && f.Msg == "xla_stack_frames" && d.f.Stack == nil:
		d.f.Stack = &StackFrames{}
	case depth > 0 && sink == nil && d.f.Stack != nil:
		d.stackEntry(f.Msg)
	}
	return nil
}

// room reports whether a field at off gets a node under parent; the first field refused for
// the budget marks where the tree stops.
func (d *decoder) room(parent *doc.Node, off int64) bool {
	if parent == nil {
		return false
	}
	if d.nodes >= maxNodes {
		if d.cut < 0 {
			d.cut = off
		}
		return false
	}
	return true
}

func (d *decoder) varint(f *Field, x uint64, sink *recordSink) {
	switch {
	case sink == nil && d.stackAt != nil:
		d.stackValue(f.Num, x)
	case sink == nil && f.Name == "engine":
		d.f.EngineCode, d.f.HasEngine = x, true
	case sink == nil || sink.attr != nil:
	case f.Num == 1:
		sink.rec.ID = x
	case f.Num == 6:
		sink.rec.TransposeCode = x
	case f.Num == 8:
		sink.rec.StackFrame = x
	}
}

func (d *decoder) text(f *Field, s string, sink *recordSink) {
	switch {
	case sink == nil:
		switch f.Name {
		case "description":
			d.f.Description = s
		case "points_to":
			d.f.PointsTo = s
		case "kernel_files":
			d.f.KernelFiles = d.keepName(d.f.KernelFiles, s)
		case "kernel_names":
			d.f.KernelNames = d.keepName(d.f.KernelNames, s)
		case "file_names", "function_names":
			d.stackName(f.Name, s)
		}
	case sink.attr != nil:
		if f.Num == 1 {
			sink.attr.Key = s
		} else {
			sink.attr.Value = s
		}
	case f.Num == 2:
		sink.rec.Name = s
	}
}

// keepName appends s to a member's list of kernel files or names, up to maxNames.
func (d *decoder) keepName(list []string, s string) []string {
	if len(list) >= maxNames {
		d.namesCut++
		return list
	}
	d.textHeld += int64(len(s)) + 16
	return append(list, s)
}
