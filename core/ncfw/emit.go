package ncfw

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
)

// Field is one printed value and the struct bytes behind it: the field map that lets a page
// highlight the bytes of a value, and the value of a byte.
type Field struct {
	// Path is the value's place in the printed tree: keys and array indexes joined by "/"
	// ("ncfw_ctx_top_sp/configs/algo/ring/channels/3/fold_n"); a key repeated inside one
	// object gets "#n" from its second occurrence on.
	Path string `json:"path"`
	// Offset and Width are the struct bytes read, from the start of the context. For a value
	// that is not read from the struct (a loop index, the model name) Offset is -1.
	Offset int64 `json:"offset"`
	Width  int64 `json:"width"`
	// Shift and Mask select a bitfield inside those bytes (Mask 0: the whole field).
	Shift uint   `json:"shift,omitempty"`
	Mask  uint64 `json:"mask,omitempty"`
	// Format is the printf conversion ("%u", "%p", "0x%016lX", ...).
	Format string `json:"format"`
	// Source is "field", "index" (the loop index), "address" (the field's own address, ncfw.pring-address)
	// or "argument" (the model name).
	Source string `json:"source"`
	// TextStart and TextEnd are the printed value's bytes in Text ([start, end), quotes
	// included for the "0x…" strings); Line is its 1-based line.
	TextStart int64 `json:"text_start"`
	TextEnd   int64 `json:"text_end"`
	Line      int   `json:"line"`
	// PastEnd is set when some of the bytes lie beyond the supplied context and read as 0.
	PastEnd bool `json:"past_end,omitempty"`
}

// Result is one emulated call.
type Result struct {
	Arch  Arch   `json:"arch"`
	Model string `json:"model"`
	// Text is what the library leaves in its buffer before the first NUL; nil for rc 22.
	Text []byte `json:"-"`
	RC   int    `json:"rc"`
	// Fields are the printed values in text order (EmitMapped and Document only).
	Fields   []Field       `json:"fields,omitempty"`
	Findings []doc.Finding `json:"findings,omitempty"`
	// Tree is the field tree (Document only).
	Tree *doc.Node `json:"-"`
}

// Emit returns the text libncfw_ctx_log(ctx, out, model, arch) writes and its return code: 0,
// 22 (unknown arch or nil ctx: nothing written, text nil) or 28 (buffer full: the text is cut
// at MaxText bytes). The model name is printed raw up to its first NUL (ncfw.model-escaping).
func Emit(ctx []byte, model string, arch uint32) (text []byte, rc int) {
	r := emit(defaultSchema, ctx, model, arch, false, false)
	return r.Text, r.RC
}

// EmitMapped is Emit plus the field map and the findings (a context shorter than the arch
// reads, reads past its end).
func EmitMapped(ctx []byte, model string, arch uint32) *Result {
	return emit(defaultSchema, ctx, model, arch, true, false)
}

// EmitTree is EmitMapped plus the field tree in Result.Tree: one node per printed value with
// the Span of its struct bytes (doc.At, the raw context being the opened file), the printed
// text as Value, and the text line in Detail; containers span their children's bytes.
func EmitTree(ctx []byte, model string, arch uint32) *Result {
	return emit(defaultSchema, ctx, model, arch, true, true)
}

// Document is the field tree of EmitTree, with the findings (and rc) on its root; nil for an
// arch the library rejects (rc 22).
func Document(ctx []byte, model string, arch uint32) *doc.Node {
	return EmitTree(ctx, model, arch).Tree
}

// Session emulates one process that loads libncfw once: with Rules.StickyLatch a clone whose
// buffer once filled keeps returning 28 (ncfw.latch-lifetime's alternative). The zero Session uses DefaultRules.
type Session struct {
	Rules   *Rules
	schema  *schema
	latched map[uint32]bool
}

// NewSession builds a session with the given rules (nil: DefaultRules).
func NewSession(r *Rules) *Session {
	if r == nil {
		r = &DefaultRules
	}
	return &Session{Rules: r, schema: buildSchema(*r), latched: map[uint32]bool{}}
}

// Emit is EmitMapped under the session's rules.
func (s *Session) Emit(ctx []byte, model string, arch uint32, tree bool) *Result {
	if s.schema == nil {
		*s = *NewSession(s.Rules)
	}
	r := emit(s.schema, ctx, model, arch, true, tree)
	if s.schema.rules.StickyLatch && r.RC != RCInvalid { // ncfw.latch-lifetime
		if s.latched[arch] {
			r.RC = RCBufferFull
		}
		if r.RC == RCBufferFull {
			s.latched[arch] = true
		}
	}
	return r
}

// FamilyOptions place one family printed on its own (EmitFamily).
type FamilyOptions struct {
	Key    string // the key it is printed under; "" prints the bare "{" / "[" form
	Indent int
	Last   bool // the family is the last member of its parent (inline shapes' close)
	Trail  bool // ncfw_log_addr's trail flag
	Count  int  // element count for a fixed-count array family (ncfw_log_soc_addr: its count source is unknown)
	Index  int  // the loop index printed by channel_id / event_id style members
}

// EmitFamily prints one family (Families lists them, including the two the root never
// reaches: ncfw_log_soc_addr and ncfw_log_dma_reprogram_info) over data, which is the struct the
// family receives. rc is 22 for an unknown family or arch, 28 when the text passes MaxText.
func EmitFamily(name string, data []byte, arch uint32, opt FamilyOptions) *Result {
	return emitFamily(name, data, arch, opt, MaxText)
}

// emitFamily is EmitFamily stopping once limit bytes are written (rc 28 then says the text
// is longer than limit), as emitPrefix does for the whole context.
func emitFamily(name string, data []byte, arch uint32, opt FamilyOptions, limit int) *Result {
	a, ok := ArchByID(arch)
	f := defaultSchema.families[name]
	if !ok || f == nil || data == nil {
		return &Result{Arch: a, RC: RCInvalid}
	}
	e := newEmitter(defaultSchema, &a, data, true, false, min(4096, limit+1))
	e.limit = min(max(limit, 0), MaxText)
	n := min(max(opt.Indent, 0), 256)
	if f.array {
		if opt.Count > 0 && f.count == countFixed {
			e.countOverride = min(opt.Count, 1<<16)
		}
		e.array(f, opt.Key, 0, n, opt.Index)
	} else {
		e.object(f, opt.Key, 0, n, e.closeFor(f, opt.Last, opt.Trail), opt.Index)
	}
	return e.result("")
}

func emit(s *schema, ctx []byte, model string, arch uint32, mapping, tree bool) *Result {
	return emitPrefix(s, ctx, model, arch, mapping, tree, MaxText)
}

// emitPrefix stops once limit bytes are written (rc then says 28 whenever the text is longer
// than limit); limit MaxText is the library itself.
func emitPrefix(s *schema, ctx []byte, model string, arch uint32, mapping, tree bool, limit int) *Result {
	a, ok := ArchByID(arch)
	if !ok || ctx == nil { // ncfw.short-context: a nil slice models ctx == NULL
		return &Result{Arch: a, Model: model, RC: RCInvalid}
	}
	if i := strings.IndexByte(model, 0); i >= 0 { // ncfw.model-escaping: %s stops at the first NUL
		model = model[:i]
	}
	// The whole buffer up front: a full context prints 157 KB to 1 MiB, and growing costs
	// more than the allocation.
	e := newEmitter(s, &a, ctx, mapping, tree, min(estimateText(ctx, &a, len(model)), limit+1))
	e.limit = min(limit, MaxText)
	r := &s.rules
	e.put(r.RootOpen)
	e.put(s.modelHead)
	start := e.pos()
	e.put(model)
	if mapping && start >= 0 {
		e.addField(Field{Offset: -1, Format: "%s", Source: "argument",
			TextStart: start, TextEnd: int64(len(e.out)), Line: 2}, []byte("model_name"))
		if tree {
			e.top().Add(&doc.Node{Kind: doc.KindField, Label: "model_name", Value: doc.Quote(model, 256),
				Detail: "the model_name argument, printed raw (no escaping) · line 2"})
		}
	}
	e.put(s.modelTail)
	e.push(r.RootKey)
	e.object(s.root, r.RootKey, 0, r.RootIndent, r.CloseLast, -1)
	e.pop()
	e.put(r.RootClose)
	short := int64(len(ctx)) < a.MinSize
	if short {
		e.pastReads = 0 // the short-context warning below says it all
	}
	res := e.result(model)
	if short {
		res.Findings = append(res.Findings, doc.Finding{Code: doc.CodeNcfwShortContext, Severity: doc.Warning, Span: doc.At(int64(len(ctx)), 0),
			Message: fmt.Sprintf("the context is %d bytes but the %s serializer reads at least %d (0x%X); bytes %d..%d read as zero, as if the context were padded (ncfw.short-context). Check the arch, or supply the whole context.",
				len(ctx), a.Name, a.MinSize, a.MinSize, len(ctx), a.MinSize-1)})
	}
	if tree {
		res.Tree.Findings = append(res.Tree.Findings, res.Findings...)
	}
	return res
}

// estimateText guesses the text length from the counts that drive it (fold_n walks, basic-
// block tables, the model name) so the buffer is allocated once at about the right size.
func estimateText(ctx []byte, a *Arch, model int) int {
	u8 := func(off int64) int {
		if off < int64(len(ctx)) {
			return int(ctx[off])
		}
		return 0
	}
	records := func(off int64) int {
		n := 0
		for n < 256 && u8(off+int64(4*n))|u8(off+int64(4*n)+1) != 0 {
			n++
		}
		return n
	}
	est := 180_000 + 85_000*(a.MeshN/100) + model
	for ch := int64(0); ch < 32; ch++ {
		est += 40 * (u8(ch*148+24) + u8(ch*148+28+24))
	}
	est += 130 * (records(a.CfgNeff+0x9C0) + records(a.NeffCtx+0x20+56))
	return min(est, BufferSize)
}

const spaces = "                                                                                                                                                                                                                                                                " // 256

var indexText = func() (t [256]string) {
	for i := range t {
		t[i] = strconv.Itoa(i)
	}
	return
}()

func itoa(i int) string {
	if i >= 0 && i < len(indexText) {
		return indexText[i]
	}
	return strconv.Itoa(i)
}

type emitter struct {
	s       *schema
	a       *Arch
	ctx     []byte
	out     []byte
	full    bool // a fragment did not fit: rc 28, and nothing more can be written
	mapping bool
	line    int
	fields  []Field
	// The fields' paths, end to end: one string is cut from it in result (a string per
	// field was 20,000 allocations on a large context, most of EmitMapped's time).
	pathArena []byte
	pathEnds  []int
	segs      []string // the path to the value being printed, as segments
	path      []byte   // the same joined by "/", kept up to date while mapping
	pathLen   []int
	scratch   [40]byte
	// reads past the end of ctx (ncfw.read-past-end)
	pastReads int
	pastMax   int64
	pastFlag  bool
	// tree building
	tree   bool
	stack  []*doc.Node
	bounds [][2]int64 // per open node: the struct range its family declares (-1: none)

	countOverride int
	limit         int // MaxText; less when only a prefix is wanted (the reader's comparison)
	// split fragments
	objHead, objTail, arrHead, arrTail, keyHead, keyTail string
}

func newEmitter(s *schema, a *Arch, ctx []byte, mapping, tree bool, capacity int) *emitter {
	e := &emitter{s: s, a: a, ctx: ctx, mapping: mapping || tree, tree: tree, line: 1, limit: MaxText}
	e.out = make([]byte, 0, capacity)
	if e.mapping { // about one printed value per 45 bytes of text, each path ~70 bytes
		e.fields = make([]Field, 0, capacity/40+16)
		e.pathEnds = make([]int, 0, cap(e.fields))
		e.pathArena = make([]byte, 0, cap(e.fields)*72)
	}
	r := &s.rules
	e.objHead, e.objTail, _ = strings.Cut(r.ObjOpen, "%s")
	e.arrHead, e.arrTail, _ = strings.Cut(r.ArrOpen, "%s")
	e.keyHead, e.keyTail, _ = strings.Cut(r.ScalarKey, "%s")
	if tree {
		e.stack = []*doc.Node{{Kind: doc.KindNCFW, Label: "libncfw ctx_log (" + a.Codename + ")"}}
	}
	return e
}

func (e *emitter) result(model string) *Result {
	res := &Result{Arch: *e.a, Model: model, Text: e.out, RC: RCOK, Fields: e.fields}
	if len(e.pathEnds) > 0 {
		all, start := string(e.pathArena), 0
		for i, end := range e.pathEnds {
			e.fields[i].Path, start = all[start:end], end
		}
	}
	if e.full {
		res.RC = RCBufferFull
		res.Findings = append(res.Findings, doc.Finding{Code: doc.CodeNcfwBufferFull, Severity: doc.Warning, Span: nil,
			Message: fmt.Sprintf("the text does not fit libncfw's 1 MiB buffer: it is cut at %d bytes and the call returns 28; the rest of the context is not printed (long fold_n walks, basic-block tables or a long model name cause this).", MaxText)})
	}
	if e.pastReads > 0 {
		res.Findings = append(res.Findings, doc.Finding{Code: doc.CodeNcfwReadPastEnd, Severity: doc.Info, Span: doc.At(int64(len(e.ctx)), 0),
			Message: fmt.Sprintf("%d reads went beyond the %d-byte context (up to byte %d); those bytes print as zero (ncfw.read-past-end).", e.pastReads, len(e.ctx), e.pastMax)})
	}
	if e.tree {
		res.Tree = e.stack[0]
		res.Tree.Value = fmt.Sprintf("rc %d, %d bytes of text", res.RC, len(e.out))
		res.Tree.Span = doc.At(0, int64(len(e.ctx)))
	}
	return res
}

// pos is where the next byte lands, or -1 once the buffer is full.
func (e *emitter) pos() int64 {
	if e.full {
		return -1
	}
	return int64(len(e.out))
}

// put appends one fragment under the closed form of spec §1: a fragment that does not fit is
// cut at MaxText, and once full nothing more is written.
func (e *emitter) put(s string) {
	if len(s) == 0 || e.full {
		if len(s) > 0 {
			e.full = true
		}
		return
	}
	room := e.limit - len(e.out)
	if len(s) > room {
		s = s[:room]
		e.full = true
	}
	e.out = append(e.out, s...)
	if e.mapping {
		e.line += strings.Count(s, "\n")
	}
}

func (e *emitter) putBytes(b []byte) {
	if len(b) == 0 || e.full {
		if len(b) > 0 {
			e.full = true
		}
		return
	}
	room := e.limit - len(e.out)
	if len(b) > room {
		b = b[:room]
		e.full = true
	}
	e.out = append(e.out, b...)
}

func (e *emitter) indent(n int) { e.put(spaces[:min(n, len(spaces))]) }

// read returns the little-endian value of width bytes at off; bytes beyond ctx read as 0
// (ncfw.read-past-end, U-14).
func (e *emitter) read(off, width int64) uint64 {
	if off >= 0 && off+width <= int64(len(e.ctx)) {
		b := e.ctx[off:]
		switch width {
		case 1:
			return uint64(b[0])
		case 2:
			return uint64(binary.LittleEndian.Uint16(b))
		case 4:
			return uint64(binary.LittleEndian.Uint32(b))
		case 8:
			return binary.LittleEndian.Uint64(b)
		}
	}
	var v uint64
	for i := int64(0); i < width; i++ {
		if p := off + i; p >= 0 && p < int64(len(e.ctx)) {
			v |= uint64(e.ctx[p]) << (8 * i)
		}
	}
	e.pastReads++
	e.pastFlag = true
	e.pastMax = max(e.pastMax, off+width-1)
	return v
}

func (e *emitter) closeFor(f *family, last, trail bool) string {
	r := &e.s.rules
	switch f.close {
	case closeByPosition:
		if last {
			return r.CloseLast
		}
		return r.CloseComma
	case closeByTrail: // ncfw_log_addr: "}" then ",\n" or "\n" by its first argument (C4)
		if trail {
			return e.s.trailClose
		}
		return e.s.lastClose
	}
	return f.closeText
}

func (e *emitter) push(seg string) {
	e.segs = append(e.segs, seg)
	if e.mapping {
		e.pathLen = append(e.pathLen, len(e.path))
		if len(e.path) > 0 {
			e.path = append(e.path, '/')
		}
		e.path = append(e.path, seg...)
	}
}

func (e *emitter) pop() {
	e.segs = e.segs[:len(e.segs)-1]
	if e.mapping {
		e.path = e.path[:e.pathLen[len(e.pathLen)-1]]
		e.pathLen = e.pathLen[:len(e.pathLen)-1]
	}
}

func (e *emitter) top() *doc.Node { return e.stack[len(e.stack)-1] }

func (e *emitter) openNode(kind, label string, base, size int64) {
	if !e.tree {
		return
	}
	if size > 0 {
		e.bounds = append(e.bounds, [2]int64{base, base + size})
	} else {
		e.bounds = append(e.bounds, [2]int64{-1, -1})
	}
	n := &doc.Node{Kind: kind, Label: label}
	if seg := e.segs[len(e.segs)-1]; seg != label {
		n.Key = seg
	}
	e.top().Add(n)
	e.stack = append(e.stack, n)
	n.Detail = "line " + strconv.Itoa(e.line-1) // the open line was just written
}

// closeNode gives a container the span of all its children's struct bytes.
func (e *emitter) closeNode() {
	if !e.tree {
		return
	}
	n := e.top()
	e.stack = e.stack[:len(e.stack)-1]
	b := e.bounds[len(e.bounds)-1]
	e.bounds = e.bounds[:len(e.bounds)-1]
	lo, hi := b[0], b[1]
	for _, c := range n.Children {
		if c.Span == nil {
			continue
		}
		if lo < 0 || c.Span.Offset < lo {
			lo = c.Span.Offset
		}
		hi = max(hi, c.Span.Offset+c.Span.Length)
	}
	n.Detail += "–" + strconv.Itoa(e.line-1)
	if lo >= 0 {
		n.Span = doc.At(lo, hi-lo)
		n.Detail += fmt.Sprintf(" · struct bytes 0x%X..0x%X", lo, hi-1)
	}
	if n.Kind == doc.KindArray {
		n.Value = "[" + strconv.Itoa(len(n.Children)) + "]"
	} else {
		n.Value = "{" + strconv.Itoa(len(n.Children)) + "}"
	}
}

// object prints an object family at indent n: its open line, its members at n+2, its close.
func (e *emitter) object(f *family, key string, base int64, n int, closeText string, idx int) {
	e.indent(n)
	if key == "" {
		e.put(e.s.rules.BareObjOpen)
	} else {
		e.put(e.objHead)
		e.put(key)
		e.put(e.objTail)
	}
	label := key
	if key == "" && idx >= 0 {
		label = itoa(idx)
	}
	if e.tree && len(e.segs) > 0 {
		e.openNode(doc.KindObject, label, base, f.size)
	}
	e.members(f, base, n+2, idx)
	e.indent(n)
	e.put(closeText)
	if e.tree && len(e.segs) > 0 {
		e.closeNode()
	}
}

func (e *emitter) members(f *family, base int64, n int, idx int) {
	ms := f.members
	for i := range ms {
		m := &ms[i]
		for j := range m.keys {
			if e.full {
				return
			}
			last := i == len(ms)-1 && j == len(m.keys)-1
			off := base + m.off + m.param.of(e.a) + int64(j)*m.repStride
			e.push(m.segs[j])
			switch m.kind {
			case mCall:
				if m.fam.array {
					e.array(m.fam, m.keys[j], off, n, idx)
				} else {
					e.object(m.fam, m.keys[j], off, n, e.closeFor(m.fam, last, m.trail), idx)
				}
			case mScalar:
				e.scalar(m, m.keys[j], off, n, last, idx)
			case mAddrLine:
				e.indent(n)
				e.put(e.keyHead)
				e.put(m.keys[j])
				e.put(e.keyTail)
				e.hex(off)
				e.put(e.s.rules.AddrLineEnd)
			}
			e.pop()
		}
	}
}

func (e *emitter) elementCount(f *family, base int64) int {
	switch f.count {
	case countMeshN:
		return e.a.MeshN
	case countU8Field:
		return int(e.read(base+f.countField, 1))
	case countZeroU16:
		return f.maxCount // bounded below by the zero record
	}
	if e.countOverride > 0 {
		c := e.countOverride
		e.countOverride = 0
		return c
	}
	return f.countN
}

// array prints an array family at indent n; its elements sit at n+2 (ncfw.array-framing).
func (e *emitter) array(f *family, key string, base int64, n int, idx int) {
	r := &e.s.rules
	e.indent(n)
	if key == "" {
		e.put(r.BareArrOpen)
	} else {
		e.put(e.arrHead)
		e.put(key)
		e.put(e.arrTail)
	}
	if e.tree && len(e.segs) > 0 {
		e.openNode(doc.KindArray, key, base, 0)
	}
	count := e.elementCount(f, base)
	for i := 0; i < count && !e.full; i++ {
		at := base + int64(i)*f.stride
		if f.count == countZeroU16 && e.read(at, 2) == 0 {
			break
		}
		var last bool
		switch {
		case f.count != countZeroU16:
			last = i == count-1
		case f.lookahead: // ncfw.bb-table-close: the element close looks at the next record
			last = i == count-1 || e.read(at+f.stride, 2) == 0
		}
		e.push(itoa(i))
		if f.hexItems { // ARRSTR (+0x109): "0x%016lX" then ",\n" or "\n"
			e.indent(n + 2)
			e.hex(at)
			if last {
				e.put(r.LastSep)
			} else {
				e.put(r.Sep)
			}
		} else {
			closeText := r.CloseComma
			if last {
				closeText = r.CloseLast
			}
			e.object(f.elem, "", at, n+2, closeText, i)
		}
		e.pop()
	}
	e.indent(n)
	e.put(f.arrClose)
	if e.tree && len(e.segs) > 0 {
		e.closeNode()
	}
}

const hexDigitsUpper = "0123456789ABCDEF"

// hex prints "0x%016lX" (quotes included) of the u64 at off.
func (e *emitter) hex(off int64) {
	e.pastFlag = false
	v := e.read(off, 8)
	b := e.scratch[:0]
	b = append(b, '"', '0', 'x')
	for s := 60; s >= 0; s -= 4 {
		b = append(b, hexDigitsUpper[(v>>uint(s))&0xF])
	}
	b = append(b, '"')
	start, line := e.pos(), e.line
	e.putBytes(b)
	if e.mapping && start >= 0 {
		e.record(Field{Offset: off, Width: 8, Format: "0x%016lX", Source: "field", TextStart: start,
			TextEnd: int64(len(e.out)), Line: line, PastEnd: e.pastFlag})
	}
}

func (e *emitter) scalar(m *member, key string, off int64, n int, last bool, idx int) {
	r := &e.s.rules
	e.indent(n)
	e.put(e.keyHead)
	e.put(key)
	e.put(e.keyTail)
	e.pastFlag = false
	var v uint64
	switch m.src {
	case srcIndex:
		v = uint64(max(idx, 0))
	case srcAddress: // ncfw.pring-address: "%p" of the field's own address
		v = r.HostBase + uint64(off)
	default:
		v = e.read(off, m.width)
		if m.mask != 0 {
			v = (v >> m.shift) & m.mask
		}
	}
	b := formatValue(e.scratch[:0], m.fmt, v)
	start, line := e.pos(), e.line
	e.putBytes(b)
	if e.mapping && start >= 0 {
		f := Field{Offset: off, Width: m.width, Shift: m.shift, Mask: m.mask, Format: m.fmt.String(),
			Source: "field", TextStart: start, TextEnd: int64(len(e.out)), Line: line, PastEnd: e.pastFlag}
		switch m.src {
		case srcIndex:
			f.Offset, f.Width, f.Source = -1, 0, "index"
		case srcAddress:
			f.Source = "address"
		}
		e.record(f)
	}
	if last { // model M1 (ncfw.comma-model)
		e.put(r.LastSep)
	} else {
		e.put(r.Sep)
	}
}

func formatValue(b []byte, f format, v uint64) []byte {
	switch f {
	case fmtP:
		if v == 0 {
			return append(b, "(nil)"...)
		}
		return strconv.AppendUint(append(b, '0', 'x'), v, 16)
	case fmtX:
		return strconv.AppendUint(b, v, 16)
	case fmtD:
		return strconv.AppendInt(b, int64(int32(v)), 10)
	}
	return strconv.AppendUint(b, v, 10)
}

// addField adds a field whose path is path (Path is filled in by result).
func (e *emitter) addField(f Field, path []byte) {
	e.pathArena = append(e.pathArena, path...)
	e.pathEnds = append(e.pathEnds, len(e.pathArena))
	e.fields = append(e.fields, f)
}

// record adds a field (and its tree node) for the value just printed.
func (e *emitter) record(f Field) {
	e.addField(f, e.path)
	if !e.tree {
		return
	}
	label := e.segs[len(e.segs)-1]
	node := &doc.Node{Kind: doc.KindField, Label: label, Value: string(e.out[f.TextStart:f.TextEnd])}
	switch f.Source {
	case "index":
		node.Detail = fmt.Sprintf("the loop index, %s (no struct byte is read) · line %d", f.Format, f.Line)
	case "address":
		node.Span = doc.At(f.Offset, f.Width)
		node.Detail = fmt.Sprintf("%%p of this field's own address: HostBase 0x%X + ctx offset 0x%X (ncfw.pring-address) · line %d", e.s.rules.HostBase, f.Offset, f.Line)
	default:
		node.Span = doc.At(f.Offset, f.Width)
		where := fmt.Sprintf("%s at ctx+0x%X", widthName(f.Width), f.Offset)
		if f.Mask != 0 {
			where = fmt.Sprintf("bits %d..%d of the u8 at ctx+0x%X", f.Shift, f.Shift+uint(bitLen(f.Mask))-1, f.Offset)
		}
		node.Detail = fmt.Sprintf("%s, printed with %s · line %d", where, f.Format, f.Line)
		if f.PastEnd {
			node.Detail += " · beyond the supplied context: read as zero"
		}
	}
	if base, _, dup := strings.Cut(label, "#"); dup {
		node.Label, node.Key = base, label
	}
	e.top().Add(node)
}

func widthName(w int64) string {
	switch w {
	case 1:
		return "u8"
	case 2:
		return "u16"
	case 4:
		return "u32"
	case 8:
		return "u64"
	}
	return strconv.FormatInt(w, 10) + " bytes"
}

func bitLen(m uint64) int {
	n := 0
	for m != 0 {
		n++
		m >>= 1
	}
	return n
}
