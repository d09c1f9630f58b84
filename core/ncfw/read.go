package ncfw

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// Dump is a libncfw ctx_log text read back: the tree of what it prints, each value mapped to
// the struct bytes it came from, the context those values rebuild, and where the text differs
// from what the emulator prints for that context.
type Dump struct {
	Arch Arch `json:"arch"`
	// ArchInferred is set when the arch was not given and was read off the text (mesh event
	// count, pring addresses); arches 12, 20 and 28 print identical text.
	ArchInferred bool   `json:"arch_inferred"`
	Model        string `json:"model"`
	// Start and End bound the dump inside the input (a log prefix or the buffer's NULs are
	// outside).
	Start int64 `json:"start"`
	End   int64 `json:"end"`
	// Cut is set when the text ends before the root object closes (the 1 MiB buffer, or a
	// truncated log).
	Cut bool `json:"cut"`
	// Context is the context rebuilt from the printed values; Known has a 1 for every bit some
	// printed value determined (bits nothing printed are 0 in Context).
	Context []byte `json:"-"`
	Known   []byte `json:"-"`
	// Fields are the printed values, with TextStart/TextEnd in the input and Offset/Width in
	// the context.
	Fields []Field `json:"fields,omitempty"`
	// Deviation is the input offset of the first byte that differs from the emulator's text
	// for (Context, Model, Arch), or -1 when the text is exactly what libncfw would print.
	Deviation int64         `json:"deviation"`
	Findings  []doc.Finding `json:"findings,omitempty"`
	Tree      *doc.Node     `json:"-"`
}

// ReadDocument is Read's tree: every value with its line and span in b, mapped values with
// their struct offsets in Detail, findings on the root.
func ReadDocument(b []byte, arch uint32) *doc.Node { return Read(b, arch).Tree }

// maxDumpBytes bounds the text read: libncfw never writes more than MaxText, so anything past
// its buffer is not its output and would only cost memory (the parse tree grows with the text).
const maxDumpBytes = BufferSize

// maxRebuilt bounds the rebuilt context: every schema offset lies below it, so a hostile dump
// with huge arrays cannot make the reader allocate more.
const maxRebuilt = 1 << 16

// maxTreeNodes bounds the tree made from a dump (a 1 MiB text holds about 60,000 values).
const maxTreeNodes = 1 << 16

// maxDumpValues bounds the JSON values the reader parses (twice what a real 1 MiB dump holds):
// a text of bare values ([0,0,…]) would otherwise cost hundreds of MB; past it the values
// before the limit are read and a finding names it.
const maxDumpValues = 1 << 17

var (
	sniffKeyTop   = []byte(`"ncfw_ctx_top_sp"`)
	sniffKeyModel = []byte(`"model_name"`)
)

// Sniff reports whether b looks like a libncfw ctx_log dump: the "ncfw_ctx_top_sp" key near
// the start, or an object whose first key is "model_name" (the model name may be long).
func Sniff(b []byte) bool {
	head := b[:min(len(b), 1<<16)]
	if bytes.Contains(head, sniffKeyTop) {
		return true
	}
	t := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	t = bytes.TrimLeft(t[1:], " \t\r\n")
	return bytes.HasPrefix(t, sniffKeyModel)
}

// Read reads a dump (strict JSON is not required: (nil), 0x1, a cut at 1 MiB, a raw model
// name are all libncfw output). arch 0 infers the arch from the text. Read never fails: what
// it cannot read becomes findings.
func Read(b []byte, arch uint32) *Dump { return readWith(defaultSchema, b, arch) }

// Read reads a dump under the session's rules.
func (s *Session) Read(b []byte, arch uint32) *Dump {
	if s.schema == nil {
		*s = *NewSession(s.Rules)
	}
	return readWith(s.schema, b, arch)
}

func readWith(s *schema, b []byte, arch uint32) *Dump {
	d := &Dump{Deviation: -1}
	r := &s.rules
	root := &doc.Node{Kind: doc.KindNCFWDump, Label: "libncfw ctx_log dump"}
	d.Tree = root
	start, end := d.bounds(s, b)
	text := b[start:end]
	work, modelStart := d.takeModel(s, text)
	v := d.parse(b, start, work, text)

	top := v.Get(r.RootKey)
	d.inferArch(s, top, arch, work)
	// Lines are counted in the input: the prefix's, and the model name's own line breaks,
	// which the blanked copy does not have.
	lineBase := bytes.Count(b[:start], []byte{'\n'})
	rd := d.mapValues(s, v, top, start, lineBase, len(text))
	d.compare(s, text, lineBase)

	// The tree: every value with its line, mapped values with their struct bytes.
	root.Value = fmt.Sprintf("%s, %d bytes of text", d.Arch.Codename, len(text))
	if d.Model != "" || bytes.HasPrefix(text, []byte(r.RootOpen+s.modelHead)) {
		line := strconv.Itoa(lineBase + 2)
		root.Add(&doc.Node{Kind: doc.KindString, Label: "model_name", Value: doc.Quote(d.Model, 256),
			Span: doc.At(int64(start+modelStart), int64(len(d.Model))), Detail: "printed raw (no escaping) · line " + line,
			Attrs: map[string]string{doc.AttrLine: line}})
	}
	if top != nil {
		t := &treeBuilder{rd: rd, left: maxTreeNodes}
		root.Add(t.node(top, r.RootKey, r.RootKey, -1))
		if t.cut > 0 {
			root.SetAttr(doc.AttrViewLimit, fmt.Sprintf("%d values beyond the first %d are not shown as tree rows", t.cut, maxTreeNodes))
		}
	}
	root.Findings = append(root.Findings, d.Findings...)
	return d
}

// bounds finds the dump in b: from its opening brace (past a BOM, blanks or a log prefix) to
// the first NUL (the rest of libncfw's zeroed buffer), at most maxDumpBytes.
func (d *Dump) bounds(s *schema, b []byte) (start, end int) {
	r := &s.rules
	if bytes.HasPrefix(b, []byte("\xEF\xBB\xBF")) {
		start = 3
	}
	for start < len(b) && (b[start] == ' ' || b[start] == '\t' || b[start] == '\r' || b[start] == '\n') {
		start++
	}
	if start >= len(b) || b[start] != '{' {
		if i := bytes.Index(b, []byte(r.RootOpen+s.modelHead)); i >= 0 {
			start = i
		} else if i := bytes.Index(b, sniffKeyModel); i >= 0 && bytes.LastIndexByte(b[:i], '{') >= 0 {
			start = bytes.LastIndexByte(b[:i], '{')
		} else if i := bytes.IndexByte(b, '{'); i >= 0 {
			start = i
		}
		if start > 0 && start < len(b) {
			d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeNcfwPrefix, Severity: doc.Info, Span: doc.At(0, int64(start)),
				Message: fmt.Sprintf("the dump starts at byte %d; the %d bytes before it (a log prefix?) are not part of it", start, start)})
		}
	}
	end = len(b)
	if i := bytes.IndexByte(b[min(start, len(b)):], 0); i >= 0 {
		end = start + i
		d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeNcfwNulTail, Severity: doc.Info, Span: doc.At(int64(end), int64(len(b)-end)),
			Message: fmt.Sprintf("the text ends at the first NUL, byte %d; the %d bytes after it are the rest of libncfw's zeroed buffer", end, len(b)-end)})
	}
	if end-start > maxDumpBytes {
		d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeNcfwTooLong, Severity: doc.Warning, Span: doc.At(int64(start+maxDumpBytes), int64(end-start-maxDumpBytes)),
			Message: fmt.Sprintf("the text runs %d bytes; libncfw writes at most %d, so only the first %d are read", end-start, MaxText, maxDumpBytes)})
		end = start + maxDumpBytes
	}
	d.Start, d.End = int64(start), int64(end)
	return start, end
}

// takeModel reads the model name, which libncfw prints raw (U-16, ncfw.model-escaping), from
// the framing, and returns a copy of the text with it blanked, so quotes or line breaks in it
// cannot derail the JSON reading; modelStart is where it begins in the text.
func (d *Dump) takeModel(s *schema, text []byte) (work []byte, modelStart int) {
	r := &s.rules
	work = append([]byte(nil), text...)
	modelStart = len(r.RootOpen) + len(s.modelHead)
	if bytes.HasPrefix(text, []byte(r.RootOpen+s.modelHead)) {
		tail := []byte(s.modelTail + spaces[:r.RootIndent] + strings.Replace(r.ObjOpen, "%s", r.RootKey, 1))
		mEnd := bytes.Index(text[modelStart:], tail)
		if mEnd < 0 {
			mEnd = bytes.Index(text[modelStart:], []byte(s.modelTail))
		}
		if mEnd < 0 { // cut inside the model name
			mEnd = len(text) - modelStart
		}
		d.Model = string(text[modelStart : modelStart+mEnd])
		for i := modelStart; i < modelStart+mEnd; i++ {
			work[i] = 'm'
		}
	}
	return work, modelStart
}

// parse reads the blanked text as lenient JSON under the dump's own budget of values; what
// it cannot read, and a dump cut short, are findings.
func (d *Dump) parse(b []byte, start int, work, text []byte) *jsonspan.Value {
	bud := budget.New(budget.Limits{Values: maxDumpValues, Memory: 2 * maxDumpValues * budget.ValueCost})
	v, err := jsonspan.ParseWith(work, jsonspan.Options{Lenient: true, Budget: bud})
	d.Cut = v != nil && !balanced(work)
	if err != nil {
		sev, off, msg := doc.Error, int64(0), err.Error()
		if je, ok := err.(*jsonspan.Error); ok && je.Limit {
			off = je.Offset
			line := je.Line + bytes.Count(b[:start], []byte{'\n'}) + strings.Count(d.Model, "\n")
			sev, msg = doc.Warning, fmt.Sprintf("the dump holds more than %d values (a real one holds about 60,000): the values from line %d (byte %d) on are not read", maxDumpValues, line, int64(start)+je.Offset)
		} else if je, ok := err.(*jsonspan.Error); ok {
			off = je.Offset
			line := je.Line + bytes.Count(b[:start], []byte{'\n'}) + strings.Count(d.Model, "\n")
			msg = fmt.Sprintf("the dump cannot be read past line %d (byte %d): %s; what came before is shown", line, int64(start)+je.Offset, je.Msg)
		}
		if off >= int64(len(text))-1 {
			sev = doc.Warning
		}
		code := doc.CodeNcfwUnreadable
		if je, ok := err.(*jsonspan.Error); ok && je.Limit {
			code = doc.CodeNcfwReadLimit
		}
		d.Findings = append(d.Findings, doc.Finding{Code: code, Severity: sev, Span: doc.At(int64(start)+off, 1), Message: msg})
	}
	if d.Cut {
		why := "the text stops before the root object closes: the dump is truncated"
		if len(text) == MaxText {
			why = fmt.Sprintf("the text is exactly %d bytes and unclosed: libncfw's 1 MiB buffer filled (the call returned 28), so the rest of the context was never printed", MaxText)
		}
		d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeNcfwTruncated, Severity: doc.Warning, Span: doc.At(d.End, 0), Message: why})
	}
	return v
}

// mapValues maps the values under the root key back to the context's bytes (Context, Known,
// Fields), with the findings of what does not fit the schema.
func (d *Dump) mapValues(s *schema, v, top *jsonspan.Value, start, lineBase, textLen int) *reader {
	r := &s.rules
	rd := &reader{s: s, a: &d.Arch, base: int64(start), lineBase: lineBase + strings.Count(d.Model, "\n"), textLen: int64(textLen), ann: map[*jsonspan.Value]int{},
		ctx: make([]byte, d.Arch.Padded), known: make([]byte, d.Arch.Padded)}
	if v != nil && v.Kind != jsonspan.Object {
		rd.deviate(v, "the dump is not a JSON object")
	} else if v != nil {
		if top == nil {
			if !d.Cut {
				rd.deviate(v, "the %q member is missing", r.RootKey)
			}
		} else {
			rd.segs = []string{r.RootKey}
			rd.object(s.root, top, 0, -1)
		}
	}
	d.Context, d.Known, d.Fields = rd.ctx, rd.known, rd.fields
	d.Findings = append(d.Findings, rd.findings...)
	if rd.conflicts > maxConflictFindings {
		d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeNcfwConflict, Severity: doc.Warning,
			Message: fmt.Sprintf("%d more values disagree with bytes already given by earlier values", rd.conflicts-maxConflictFindings)})
	}
	return rd
}

// balanced reports whether every bracket opened outside strings is closed by the end of b.
func balanced(b []byte) bool {
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return depth <= 0 && !inString
}

func (d *Dump) inferArch(s *schema, top *jsonspan.Value, arch uint32, work []byte) {
	events := top.Get("configs").Get("algo").Get("mesh").Get("events")
	if a, ok := ArchByID(arch); ok {
		d.Arch = a
		if n := events.Len(); n != a.MeshN && events != nil && events.End > 0 && work[events.End-1] == ']' {
			for _, o := range arches {
				if o.MeshN == n {
					d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeNcfwArch, Severity: doc.Warning,
						Message: fmt.Sprintf("the dump prints %d mesh events, as %s does, not %d as %s does: it was probably written by arch %d, so offsets below are %s's and may be wrong", n, o.Name, a.MeshN, a.Name, o.ID, a.Name)})
					break
				}
			}
		}
		return
	}
	d.ArchInferred = true
	guess, how := uint32(0), ""
	for _, a := range arches {
		if events.Len() == a.MeshN {
			guess, how = a.ID, fmt.Sprintf("%d mesh events", a.MeshN)
			break
		}
	}
	if guess == 0 {
		if p := top.Get("configs").Get("neff").Get("basic_block_configs").Get("pring_base_addr"); p != nil {
			for _, a := range arches {
				if p.Str == "0x"+strconv.FormatUint(s.rules.HostBase+uint64(a.CfgNeff+0x9C0+0x408), 16) {
					guess, how = a.ID, "pring_base_addr "+p.Str
					break
				}
			}
		}
	}
	sev := doc.Info
	if guess == 0 {
		guess, how, sev = 12, "nothing in the text tells the arch; cayman's layout is assumed", doc.Warning
	}
	d.Arch, _ = ArchByID(guess)
	msg := fmt.Sprintf("arch read off the text (%s): %s", how, d.Arch.Codename)
	if guess != 5 {
		msg += "; cayman, mariana and mariana_plus print identical text, so the dump fits any of 12, 20, 28"
	}
	d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeNcfwArch, Severity: sev, Message: msg})
}

// compare re-emits the rebuilt context and finds the first byte where the dump differs.
func (d *Dump) compare(s *schema, text []byte, lineBase int) {
	// Only a prefix one byte longer than the dump is needed to compare.
	res := emitPrefix(s, d.Context, d.Model, d.Arch.ID, false, false, len(text)+1)
	if res.RC == RCInvalid {
		return
	}
	want := res.Text
	n := min(len(want), len(text))
	i := 0
	for i < n && want[i] == text[i] {
		i++
	}
	switch {
	case i == len(text) && i == len(want):
		return
	case i == len(text) && d.Cut:
		return // a cut dump is a prefix of the full text
	case i == n && len(text) > len(want):
		d.Deviation = d.Start + int64(i)
		d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeNcfwDeviation, Severity: doc.Warning, Span: doc.At(d.Deviation, int64(len(text)-i)),
			Message: fmt.Sprintf("%d bytes follow where libncfw's text would end (line %d)", len(text)-i, lineBase+lineAt(text, i))})
		return
	}
	if d.Cut && lineAt(text, i) == lineAt(text, len(text)) {
		return // the last, cut line cannot be judged (a cut value, a look-ahead close)
	}
	d.Deviation = d.Start + int64(i)
	line, col := lineBase+lineAt(text, i), i-bytes.LastIndexByte(text[:i], '\n')
	d.Findings = append(d.Findings, doc.Finding{Code: doc.CodeNcfwDeviation, Severity: doc.Warning, Span: doc.At(d.Deviation, 1),
		Message: fmt.Sprintf("line %d column %d differs from what libncfw 2.31 prints for these values: it has %s where %s is expected (a hand-edited dump, another libncfw version, or one of the spec's unknowns)",
			line, col, snippet(text, i), snippet(want, i))})
}

func lineAt(b []byte, i int) int { return bytes.Count(b[:min(i, len(b))], []byte{'\n'}) + 1 }

func snippet(b []byte, i int) string {
	if i >= len(b) {
		return "the end of the text"
	}
	e := min(len(b), i+24)
	if j := bytes.IndexByte(b[i:e], '\n'); j >= 0 {
		e = i + j + 1
	}
	return strconv.Quote(string(b[i:e]))
}

const maxConflictFindings = 20

type reader struct {
	s         *schema
	a         *Arch
	base      int64 // the dump's offset in the input
	lineBase  int   // lines of the input before the dump
	textLen   int64
	ctx       []byte
	known     []byte
	fields    []Field
	ann       map[*jsonspan.Value]int
	segs      []string
	findings  []doc.Finding
	conflicts int
	devs      int
}

const maxDeviationFindings = 50

func (rd *reader) deviate(v *jsonspan.Value, format string, args ...any) {
	rd.devs++
	if rd.devs > maxDeviationFindings {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if v != nil {
		msg = fmt.Sprintf("line %d, %s: %s", v.Line+rd.lineBase, strings.Join(rd.segs, "/"), msg)
	}
	f := doc.Finding{Code: doc.CodeNcfwDeviation, Severity: doc.Warning, Message: msg}
	if v != nil {
		f.Span = doc.At(rd.base+v.Start, v.End-v.Start)
	}
	rd.findings = append(rd.findings, f)
}

// atEnd: the value runs to the end of the text, so members missing from it were cut off.
func (rd *reader) atEnd(v *jsonspan.Value) bool { return v.End >= rd.textLen-1 }

func (rd *reader) object(f *family, v *jsonspan.Value, base int64, idx int) {
	if v.Kind != jsonspan.Object {
		rd.deviate(v, "an object was expected, not %s", v.Kind)
		return
	}
	k := 0
	for i := range f.members {
		m := &f.members[i]
		for j := range m.keys {
			key := m.keys[j]
			if k >= len(v.Items) {
				if !rd.atEnd(v) {
					rd.deviate(v, "member %q is missing", key)
				}
				continue
			}
			if v.Keys[k] != key {
				found := -1
				for t := k + 1; t < len(v.Items); t++ {
					if v.Keys[t] == key {
						found = t
						break
					}
				}
				if found < 0 {
					rd.deviate(v.Items[k], "member %q is missing (found %q)", key, v.Keys[k])
					continue
				}
				for t := k; t < found; t++ {
					rd.deviate(v.Items[t], "unexpected member %q", v.Keys[t])
				}
				k = found
			}
			item := v.Items[k]
			k++
			off := base + m.off + m.param.of(rd.a) + int64(j)*m.repStride
			rd.segs = append(rd.segs, m.segs[j])
			switch m.kind {
			case mCall:
				if m.fam.array {
					rd.array(m.fam, item, off)
				} else {
					rd.object(m.fam, item, off, idx)
				}
			case mScalar:
				rd.scalar(m, item, off, idx)
			case mAddrLine:
				rd.hexValue(item, off)
			}
			rd.segs = rd.segs[:len(rd.segs)-1]
		}
	}
	for ; k < len(v.Items); k++ {
		rd.deviate(v.Items[k], "unexpected member %q", v.Keys[k])
	}
}

func (rd *reader) array(f *family, v *jsonspan.Value, base int64) {
	if v.Kind != jsonspan.Array {
		rd.deviate(v, "an array was expected, not %s", v.Kind)
		return
	}
	n := len(v.Items)
	want := -1
	switch f.count {
	case countFixed:
		want = f.countN
	case countMeshN:
		want = rd.a.MeshN
	case countU8Field:
		if c := base + f.countField; c < int64(len(rd.known)) && rd.known[c] == 0xFF {
			want = int(rd.ctx[base+f.countField])
		}
	case countZeroU16:
		if n < f.maxCount { // the zero record that stopped the walk
			rd.write(v, base+int64(n)*f.stride, 2, 0, 0, 0)
		}
	}
	if want >= 0 && n != want && !(n < want && rd.atEnd(v)) {
		rd.deviate(v, "%d elements where the context says %d", n, want)
	}
	limit := n
	if f.maxCount > 0 {
		limit = min(n, f.maxCount)
	}
	if want >= 0 {
		limit = min(n, want)
	}
	for i := 0; i < limit; i++ {
		rd.segs = append(rd.segs, itoa(i))
		at := base + int64(i)*f.stride
		if f.hexItems {
			rd.hexValue(v.Items[i], at)
		} else {
			rd.object(f.elem, v.Items[i], at, i)
		}
		rd.segs = rd.segs[:len(rd.segs)-1]
	}
}

func (rd *reader) record(v *jsonspan.Value, f Field) {
	f.Path = strings.Join(rd.segs, "/")
	f.TextStart, f.TextEnd, f.Line = rd.base+v.Start, rd.base+v.End, v.Line+rd.lineBase
	rd.ann[v] = len(rd.fields)
	rd.fields = append(rd.fields, f)
}

func (rd *reader) hexValue(v *jsonspan.Value, off int64) {
	val, ok := uint64(0), false
	if v.Kind == jsonspan.String && len(v.Str) == 18 && strings.HasPrefix(v.Str, "0x") {
		val, ok = parseHex(v.Str[2:])
	}
	if !ok && !(rd.atEnd(v)) {
		rd.deviate(v, "a \"0x%%016lX\" string was expected, not %s", clip(v))
		return
	}
	rd.write(v, off, 8, 0, 0, val)
	rd.record(v, Field{Offset: off, Width: 8, Format: "0x%016lX", Source: "field"})
}

func (rd *reader) scalar(m *member, v *jsonspan.Value, off int64, idx int) {
	val, ok := parseValue(m.fmt, v)
	if !ok {
		if !rd.atEnd(v) {
			rd.deviate(v, "%s is not what %s prints", clip(v), m.fmt)
		}
		return
	}
	f := Field{Offset: off, Width: m.width, Shift: m.shift, Mask: m.mask, Format: m.fmt.String(), Source: "field"}
	switch m.src {
	case srcIndex:
		f.Offset, f.Width, f.Source = -1, 0, "index"
		if val != uint64(idx) && !rd.atEnd(v) {
			rd.deviate(v, "prints %d where the loop index is %d", val, idx)
		}
	case srcAddress:
		f.Source = "address"
		if want := rd.s.rules.HostBase + uint64(off); val != want {
			rd.deviate(v, "prints %s where the field's own address is 0x%x (ncfw.pring-address: HostBase 0x%x)", clip(v), want, rd.s.rules.HostBase)
		}
	default:
		limit := m.mask
		if limit == 0 {
			limit = 1<<(8*uint(m.width)) - 1
		}
		if val > limit {
			rd.deviate(v, "%d does not fit the %s field (at most %d)", val, widthName(m.width), limit)
			val &= limit
		}
		rd.write(v, off, m.width, m.shift, m.mask, val)
	}
	rd.record(v, f)
}

// write puts a value's bits into the rebuilt context and checks them against bits an earlier
// value already gave (overlapping reads: fold_n walks, the basic-block tables, s2m_low twice).
func (rd *reader) write(v *jsonspan.Value, off, width int64, shift uint, mask uint64, val uint64) {
	if off < 0 || off+width > maxRebuilt {
		return
	}
	if need := off + width; need > int64(len(rd.ctx)) {
		rd.ctx = append(rd.ctx, make([]byte, need-int64(len(rd.ctx)))...)
		rd.known = append(rd.known, make([]byte, need-int64(len(rd.known)))...)
	}
	fieldMask := ^uint64(0)
	if mask != 0 {
		fieldMask = mask << shift
	}
	bits := (val << shift) & fieldMask
	conflict := false
	for i := int64(0); i < width; i++ {
		fm, nv := byte(fieldMask>>(8*i)), byte(bits>>(8*i))
		o := off + i
		if rd.known[o]&fm&(rd.ctx[o]^nv) != 0 {
			conflict = true
		}
		rd.ctx[o] = rd.ctx[o]&^fm | nv&fm
		rd.known[o] |= fm
	}
	if conflict {
		rd.conflicts++
		if rd.conflicts <= maxConflictFindings {
			rd.findings = append(rd.findings, doc.Finding{Code: doc.CodeNcfwConflict, Severity: doc.Warning, Span: doc.At(rd.base+v.Start, v.End-v.Start),
				Message: fmt.Sprintf("line %d, %s: this value disagrees with ctx bytes 0x%X..0x%X as an earlier value printed them; one context cannot print both (the later value is kept)",
					v.Line+rd.lineBase, strings.Join(rd.segs, "/"), off, off+width-1)})
		}
	}
}

func parseHex(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 16, 64)
	return n, err == nil
}

func parseValue(f format, v *jsonspan.Value) (uint64, bool) {
	if v.Kind != jsonspan.Number && v.Kind != jsonspan.Bare {
		return 0, false
	}
	s := v.Str
	switch f {
	case fmtP:
		if s == "(nil)" {
			return 0, true
		}
		if !strings.HasPrefix(s, "0x") {
			return 0, false
		}
		return parseHex(s[2:])
	case fmtX:
		return parseHex(s)
	case fmtD:
		n, err := strconv.ParseInt(s, 10, 32)
		return uint64(uint32(n)), err == nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return n, err == nil
}

func clip(v *jsonspan.Value) string {
	s := v.Str
	if v.Kind != jsonspan.String && v.Kind != jsonspan.Number && v.Kind != jsonspan.Bare {
		s = v.Kind.String()
	}
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return strconv.Quote(s)
}

type treeBuilder struct {
	rd   *reader
	left int
	cut  int
}

func (t *treeBuilder) node(v *jsonspan.Value, label, key string, keyStart int64) *doc.Node {
	t.left--
	start := v.Start
	if keyStart >= 0 {
		start = keyStart
	}
	line := strconv.Itoa(v.Line + t.rd.lineBase)
	n := &doc.Node{Kind: v.Kind.String(), Label: label, Span: doc.At(t.rd.base+start, v.End-start),
		Detail: "line " + line, Attrs: map[string]string{doc.AttrLine: line}}
	if key != label {
		n.Key = key
	}
	switch v.Kind {
	case jsonspan.Object:
		n.Value = "{" + strconv.Itoa(len(v.Items)) + "}"
		seen := map[string]int{}
		for i, it := range v.Items {
			if t.left <= 0 {
				t.cut += len(v.Items) - i
				break
			}
			k := v.Keys[i]
			seg := k
			if c := seen[k]; c > 0 {
				seg = k + "#" + strconv.Itoa(c)
			}
			seen[k]++
			n.Add(t.node(it, k, seg, v.KeyStart[i]))
		}
	case jsonspan.Array:
		n.Value = "[" + strconv.Itoa(len(v.Items)) + "]"
		for i, it := range v.Items {
			if t.left <= 0 {
				t.cut += len(v.Items) - i
				break
			}
			s := itoa(i)
			n.Add(t.node(it, s, s, -1))
		}
	case jsonspan.String:
		n.Value = doc.Quote(v.Str, jsonspan.MaxStringShown)
	case jsonspan.Bool:
		n.Value = strconv.FormatBool(v.Bool)
	case jsonspan.Null:
		n.Value = "null"
	default:
		n.Value = v.Str
	}
	if i, ok := t.rd.ann[v]; ok {
		f := t.rd.fields[i]
		n.Kind = doc.KindField
		switch f.Source {
		case "index":
			n.Detail += " · the loop index (no struct byte)"
		case "address":
			n.Detail += fmt.Sprintf(" · %%p of the field's own address ctx+0x%X", f.Offset)
		default:
			where := fmt.Sprintf("%s at ctx+0x%X", widthName(f.Width), f.Offset)
			if f.Mask != 0 {
				where = fmt.Sprintf("bits %d..%d of the u8 at ctx+0x%X", f.Shift, f.Shift+uint(bitLen(f.Mask))-1, f.Offset)
			}
			n.Detail += " · " + where + ", " + f.Format
		}
	}
	return n
}
