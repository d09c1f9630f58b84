package inspect

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/neff"
)

// Source is where one instruction word came from, by the compiler's debug info (spec neff.md
// §4.7): asm record i of the stream → its first backend id → that BIR instruction's name and
// kernel_file / kernel_line / kernel_name attributes.
type Source struct {
	BIR    string `json:"bir"`
	File   string `json:"file,omitempty"` // "" when the record names no kernel file
	Line   int    `json:"line,omitempty"` // 0 when it names no line
	Kernel string `json:"kernel,omitempty"`
	// Via is "penguin" when the file and line come from the backend record's penguin parent
	// (unknowns dbg.penguin-fallback), "" when from the backend record itself.
	Via     string `json:"via,omitempty"`
	Backend uint64 `json:"backend_id"`
	// backend is the record's member and span (the bytes behind the BIR name).
	backend    string
	bOff, bLen int64
}

// Text is the listing form: "file.py:42 inst.329-wait-0" (the file's base name).
func (s *Source) Text() string {
	if s == nil {
		return ""
	}
	if s.File == "" && s.Line == 0 {
		return s.BIR
	}
	f := path.Base(s.File)
	if s.File == "" {
		f = "?"
	}
	return f + ":" + strconv.Itoa(s.Line) + " " + s.BIR
}

// SourceIndex answers (stream, word) → source and (file, line) → words, for one NEFF.
type SourceIndex struct {
	// Members are the decoded .dbg members by path.
	Members map[string]*dbg.File
	streams map[string]*streamSources
	order   []*streamSources
	// Words, WithSource and WithLine count instruction words over every stream with debug info.
	Words, WithSource, WithLine int
	Node                        *doc.Node
	// lineKey is the key of the line node (model › source › lines) of each word, by stream.
	lineKey map[string]map[int]string
}

// streamSources is one stream's words mapped to their sources.
type streamSources struct {
	ps   *ProgramStream
	asm  *dbg.File
	srcs []Source
	word []int32 // per word: index into srcs, -1 none
}

// SourceLine is one kernel source line and the words it produced.
type SourceLine struct {
	File   string
	Line   int
	Kernel string
	// Words lists word indexes by stream member.
	Words map[string][]int
}

// Source returns the source of word i of a stream (nil when the NEFF has no debug info for it).
func (x *SourceIndex) Source(member string, i int) *Source {
	if x == nil {
		return nil
	}
	s := x.streams[member]
	if s == nil || i < 0 || i >= len(s.word) || s.word[i] < 0 {
		return nil
	}
	return &s.srcs[s.word[i]]
}

// asmRecord returns the span of asm record i of a stream's debug info.
func (x *SourceIndex) asmRecord(member string, i int) *doc.Span {
	s := x.streams[member]
	if s == nil || s.asm == nil || i < 0 || i >= len(s.asm.Records) {
		return nil
	}
	r := &s.asm.Records[i]
	return doc.In(s.asm.Member, r.Off, r.Len)
}

// Lines lists every kernel source line with its words per stream, by file then line.
func (x *SourceIndex) Lines() []*SourceLine {
	if x == nil {
		return nil
	}
	type key struct {
		file, kernel string
		line         int
	}
	by := map[key]*SourceLine{}
	var out []*SourceLine
	for _, s := range x.order {
		for i, k := range s.word {
			if k < 0 || s.srcs[k].Line == 0 {
				continue
			}
			src := &s.srcs[k]
			kk := key{src.File, src.Kernel, src.Line}
			l := by[kk]
			if l == nil {
				l = &SourceLine{File: src.File, Line: src.Line, Kernel: src.Kernel, Words: map[string][]int{}}
				by[kk] = l
				out = append(out, l)
			}
			l.Words[s.ps.Member] = append(l.Words[s.ps.Member], i)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		if out[i].Line != out[j].Line {
			return out[i].Line < out[j].Line
		}
		return out[i].Kernel < out[j].Kernel
	})
	return out
}

// WordsAt lists the words a kernel line produced, by stream member.
func (x *SourceIndex) WordsAt(file string, line int) map[string][]int {
	out := map[string][]int{}
	for _, l := range x.Lines() {
		if l.File == file && l.Line == line {
			for m, ws := range l.Words {
				out[m] = append(out[m], ws...)
			}
		}
	}
	return out
}

// dbgDecodeCost is what a decoded .dbg member's records cost on the heap, per byte of it.
const dbgDecodeCost = 5

// keepDbg says whether a .dbg member is held for decoding (keepInMemory).
func keepDbg(p string, size int64) bool {
	_, _, ok := dbg.Match(p)
	return ok && size <= 64<<20
}

// newSourceIndex decodes every .dbg member held and maps each stream's words to sources.
func newSourceIndex(a *neff.Archive, p *Program) *SourceIndex {
	x := &SourceIndex{Members: map[string]*dbg.File{}, streams: map[string]*streamSources{}}
	var penguins []*dbg.File
	for _, m := range a.Members {
		kind, _, ok := dbg.Match(m.Path)
		if !ok || m.Data == nil || m.Truncated {
			continue
		}
		// Decoded records cost about five times their bytes (measured: 4.6× for an asm
		// member, 5.7× for a backend one); past the memory limit the member stays bytes.
		if !a.Budget.Take(budget.Memory, dbgDecodeCost*int64(len(m.Data)), "debug info "+strconv.Quote(m.Path)) {
			continue
		}
		f := dbg.Decode(m.Path, m.Data)
		x.Members[m.Path] = f
		if kind == dbg.KindPenguin {
			penguins = append(penguins, f)
		}
	}
	x.Node = &doc.Node{Kind: doc.KindSource, Label: "source", Detail: "kernel source lines and the instructions each produced, per engine (from the compiler's .dbg debug info)"}
	// Backend records by id, per subgraph directory: asm ids may point into any of the
	// subgraph's backend members (ids are unique across them).
	type at struct {
		f *dbg.File
		r *dbg.Record
	}
	byDir := map[string]map[uint64]at{}
	for mp, f := range x.Members {
		if f.Kind != dbg.KindBackend {
			continue
		}
		dir := path.Dir(mp)
		if byDir[dir] == nil {
			byDir[dir] = map[uint64]at{}
		}
		for i := range f.Records {
			if _, dup := byDir[dir][f.Records[i].ID]; !dup {
				byDir[dir][f.Records[i].ID] = at{f, &f.Records[i]}
			}
		}
	}
	for _, ps := range p.Streams {
		asmPath := path.Join(path.Dir(ps.Member), "debug_info_asm_"+ps.Engine.Name+".dbg")
		asm := x.Members[asmPath]
		if asm == nil {
			continue
		}
		words := int(ps.Size / isa.WordSize)
		s := &streamSources{ps: ps, asm: asm, word: make([]int32, words)}
		x.streams[ps.Member] = s
		x.order = append(x.order, s)
		if len(asm.Records) != words {
			x.Node.Warnf(doc.In(asmPath, 0, 0), "%s has %d records but %s has %d words: the asm debug info has one record per 64-byte word (neff.md §4.7), so the two do not belong together; words past the shorter one have no source.", asmPath, len(asm.Records), ps.Member, words)
		}
		penguin := penguinFor(penguins, ps.Core.Name)
		seen := map[*dbg.Record]int32{}
		backends := byDir[path.Dir(asmPath)]
		missing, firstMissing := 0, -1
		for i := range s.word {
			s.word[i] = -1
			if i >= len(asm.Records) || len(asm.Records[i].Parents) == 0 {
				continue
			}
			id := asm.Records[i].Parents[0]
			b, ok := backends[id]
			if !ok {
				if missing == 0 {
					firstMissing = i
				}
				missing++
				continue
			}
			k, ok := seen[b.r]
			if !ok {
				k = int32(len(s.srcs))
				s.srcs = append(s.srcs, sourceOf(b.f, b.r, penguin, x.Node))
				seen[b.r] = k
			}
			s.word[i] = k
		}
		if missing > 0 {
			x.Node.Warnf(doc.In(asmPath, asm.Records[firstMissing].Off, asm.Records[firstMissing].Len), "%s: %d words (first: word %d) name a backend id that no debug_info_backend_*.dbg of %s holds; they have no source.", asmPath, missing, firstMissing, path.Dir(asmPath))
		}
		for _, k := range s.word {
			x.Words++
			if k >= 0 {
				x.WithSource++
				if s.srcs[k].Line > 0 {
					x.WithLine++
				}
			}
		}
	}
	x.fillNode(p)
	return x
}

// penguinFor picks the penguin member for a subgraph (unknowns dbg.penguin-subgraph-suffix).
func penguinFor(ps []*dbg.File, core string) *dbg.File {
	if len(ps) == 1 {
		return ps[0]
	}
	n := strings.TrimLeft(strings.TrimPrefix(core, "sg"), "0")
	for _, p := range ps {
		_, suffix, _ := strings.Cut(path.Base(p.Member), ".dbg_sg")
		if strings.TrimLeft(suffix, "0") == n {
			return p
		}
	}
	return nil
}

// sourceOf reads a backend record's name and kernel attributes.
func sourceOf(f *dbg.File, r *dbg.Record, penguin *dbg.File, report *doc.Node) Source {
	s := Source{BIR: r.Name, Backend: r.ID, backend: f.Member, bOff: r.Off, bLen: r.Len}
	file, line, kernel := kernelAttrs(f, r, report)
	if line == 0 && penguin != nil && len(r.Parents) > 0 {
		if pr := penguin.ByID(r.Parents[0]); pr != nil {
			if pf, pl, _ := kernelAttrs(penguin, pr, report); pl > 0 {
				file, line, s.Via = pf, pl, "penguin"
			}
		}
	}
	s.File, s.Line, s.Kernel = file, line, kernel
	return s
}

// kernelAttrs resolves kernel_file / kernel_line / kernel_name of a record through its member's
// own lists (fields 5 and 7; unknowns dbg.kernel-file-index).
func kernelAttrs(f *dbg.File, r *dbg.Record, report *doc.Node) (file string, line int, kernel string) {
	if v, ok := r.Attr("kernel_line"); ok {
		line, _ = strconv.Atoi(v)
	}
	index := func(key string, list []string) string {
		v, ok := r.Attr(key)
		if !ok {
			return ""
		}
		i, err := strconv.Atoi(v)
		if err != nil || i < 0 || i >= len(list) {
			// One finding per member: a bad table would otherwise give one per record.
			for _, fd := range report.Findings {
				if strings.HasPrefix(fd.Message, f.Member+": record ") {
					return v
				}
			}
			report.Infof(doc.In(f.Member, r.Off, r.Len), "%s: record %d (%s) has %s %q, which is not an index of its %d entries; shown raw.", f.Member, r.ID, r.Name, key, v, len(list))
			return v
		}
		return list[i]
	}
	return index("kernel_file", f.KernelFiles), line, index("kernel_name", f.KernelNames)
}

// fillNode builds the "source" node: coverage, then one row per kernel line with the words it
// produced per engine.
func (x *SourceIndex) fillNode(p *Program) {
	n := x.Node
	if len(x.Members) == 0 {
		n.Value = "no debug info"
		n.Infof(nil, "This NEFF carries no .dbg debug info (sgNN/debug_info_asm_<Engine>.dbg and debug_info_backend_<Engine>.dbg), so instructions cannot be traced to source lines. The compiler writes it by default; it is missing when the NEFF was stripped (neuron-packager optimize).")
		return
	}
	n.Value = strconv.Itoa(x.WithLine) + " of " + strconv.Itoa(x.Words) + " words with a source line"
	n.Field("words with a BIR instruction", strconv.Itoa(x.WithSource)+" of "+strconv.Itoa(x.Words), nil)
	n.Field("words with a kernel line", strconv.Itoa(x.WithLine)+" of "+strconv.Itoa(x.Words), nil)
	var engines []string
	seen := map[string]bool{}
	for _, s := range x.order {
		if !seen[s.ps.Engine.Name] {
			seen[s.ps.Engine.Name] = true
			engines = append(engines, s.ps.Engine.Name)
		}
	}
	t := &doc.Table{Columns: []string{"file", "line", "kernel"}}
	var lineNodes []*doc.Node
	for _, e := range engines {
		t.Columns = append(t.Columns, e)
	}
	for _, e := range engines {
		t.Columns = append(t.Columns, e+" first")
	}
	keys := map[string]int{}
	for _, l := range x.Lines() {
		row := []string{l.File, strconv.Itoa(l.Line), l.Kernel}
		counts := make([]int, len(engines))
		firsts := make([]string, len(engines))
		var span doc.Span
		first := -1
		for _, s := range x.order {
			ws := l.Words[s.ps.Member]
			if len(ws) == 0 {
				continue
			}
			e := indexOf(engines, s.ps.Engine.Name)
			counts[e] += len(ws)
			if firsts[e] == "" {
				firsts[e] = s.ps.Core.Name + " #" + strconv.Itoa(ws[0])
			}
			if first < 0 {
				first = ws[0]
				span = doc.Span{Source: s.ps.Member, Offset: int64(ws[0]) * isa.WordSize, Length: isa.WordSize}
			}
		}
		for _, c := range counts {
			row = append(row, strconv.Itoa(c))
		}
		row = append(row, firsts...)
		t.Rows = append(t.Rows, row)
		t.RowSpans = append(t.RowSpans, span)
		lineNodes = append(lineNodes, x.lineNode(l, keys, engines, counts))
	}
	lines := &doc.Node{Kind: doc.KindTable, Key: SourceLines, Label: SourceLines, Value: strconv.Itoa(len(t.Rows)), Table: t,
		Detail: "each kernel source line, the instruction words it produced per engine, and the first of them (sgNN #index)"}
	lines.Children = lineNodes
	n.Add(lines)
}

// Keys and attrs of the source node's lines (model › source › lines › <file:line>).
const (
	SourceLines    = "lines"
	AttrSourceFile = "file"   // a line node: the kernel file path as the debug info names it
	AttrSourceLine = "line"   // a line node: the line number
	AttrKernel     = "kernel" // a line node: the kernel (function) name
	// AttrWords lists a line's instruction words per stream: "member:ranges;member:ranges",
	// ranges "a-b,c" of word indexes in stream order (at most maxLineWords words in all).
	AttrWords = "words"
	// AttrWordsCut is set ("true") when a line has more words than AttrWords lists.
	AttrWordsCut = "words_cut"
)

// maxLineWords bounds the word indexes one line node lists (the Document stays bounded on a
// kernel line that unrolls into a huge loop); the table's counts stay exact.
const maxLineWords = 1 << 16

// lineNode is one kernel line as a node: its words per stream (AttrWords) for the page's
// source view, and the key an instruction's source field links to.
func (x *SourceIndex) lineNode(l *SourceLine, keys map[string]int, engines []string, counts []int) *doc.Node {
	key := path.Base(l.File) + ":" + strconv.Itoa(l.Line)
	if l.File == "" {
		key = "?:" + strconv.Itoa(l.Line)
	}
	if keys[key]++; keys[key] > 1 {
		key += " (" + strconv.Itoa(keys[key]) + ")"
	}
	n := &doc.Node{Kind: doc.KindField, Key: key, Label: key}
	var parts []string
	for i, e := range engines {
		if counts[i] > 0 {
			parts = append(parts, e+" "+strconv.Itoa(counts[i]))
		}
	}
	total := 0
	for _, c := range counts {
		total += c
	}
	n.Value = plural(total, "instruction")
	if len(parts) > 0 {
		n.Value += ": " + strings.Join(parts, ", ")
	}
	n.Detail = l.File + " line " + strconv.Itoa(l.Line)
	if l.Kernel != "" {
		n.Detail += " (kernel " + l.Kernel + ")"
	}
	n.SetAttr(AttrSourceFile, l.File).SetAttr(AttrSourceLine, strconv.Itoa(l.Line)).SetAttr(AttrKernel, l.Kernel)
	var b strings.Builder
	listed := 0
	for _, s := range x.order {
		ws := l.Words[s.ps.Member]
		if len(ws) == 0 || listed >= maxLineWords {
			continue
		}
		if len(ws) > maxLineWords-listed {
			ws = ws[:maxLineWords-listed]
			n.SetAttr(AttrWordsCut, "true")
		}
		listed += len(ws)
		if b.Len() > 0 {
			b.WriteByte(';')
		}
		b.WriteString(s.ps.Member)
		b.WriteByte(':')
		for i := 0; i < len(ws); {
			j := i
			for j+1 < len(ws) && ws[j+1] == ws[j]+1 {
				j++
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(ws[i]))
			if j > i {
				b.WriteByte('-')
				b.WriteString(strconv.Itoa(ws[j]))
			}
			i = j + 1
		}
		for _, w := range ws {
			if x.lineKey == nil {
				x.lineKey = map[string]map[int]string{}
			}
			if x.lineKey[s.ps.Member] == nil {
				x.lineKey[s.ps.Member] = map[int]string{}
			}
			x.lineKey[s.ps.Member][w] = key
		}
	}
	n.SetAttr(AttrWords, b.String())
	return n
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}

// dbgContent is the content node of a .dbg member (nil when the member is not debug info).
func (p *Program) dbgContent(m *neff.Member) *doc.Node {
	if p == nil || p.Source == nil {
		return nil
	}
	f := p.Source.Members[m.Path]
	if f == nil {
		return nil
	}
	f.Root.Label = "content"
	return f.Root
}

// addSourceColumn appends the "source" column to listing rows [from, …) of a stream.
func (p *Program) addSourceColumn(s *ProgramStream, t *doc.Table, from int) {
	if p.Source == nil || p.Source.streams[s.Member] == nil {
		return
	}
	t.Columns = append(t.Columns[:len(t.Columns):len(t.Columns)], "source")
	for k := range t.Rows {
		t.Rows[k] = append(t.Rows[k], p.Source.Source(s.Member, from+k).Text())
	}
}

// sourceNode is an instruction's "source" field: the asm record's bytes, with the BIR
// instruction, file, line and kernel under it.
func (p *Program) sourceNode(s *ProgramStream, i int) *doc.Node {
	src := p.Source.Source(s.Member, i)
	if src == nil {
		return nil
	}
	n := &doc.Node{Kind: doc.KindField, Label: "source", Value: src.Text(), Span: p.Source.asmRecord(s.Member, i)}
	if key, ok := p.Source.lineKey[s.Member][i]; ok {
		// The line's row in the source view, with every instruction it produced.
		n.Link = doc.NodeLink("model", "source", SourceLines, key)
	}
	n.Detail = "from the compiler's debug info: asm record " + strconv.Itoa(i) + " → backend record " + strconv.FormatUint(src.Backend, 10)
	n.Field("bir", src.BIR, doc.In(src.backend, src.bOff, src.bLen)).Explain("the BIR instruction this word was generated from")
	if src.File != "" {
		n.Field("file", src.File, nil)
	}
	if src.Line > 0 {
		f := n.Field("line", strconv.Itoa(src.Line), nil)
		if src.Via != "" {
			f.Detail = "from the backend record's penguin parent (the backend record names no line)"
		}
	}
	if src.Kernel != "" {
		n.Field("kernel", src.Kernel, nil)
	}
	return n
}

// ---- a .dbg file opened on its own ----

func matchDbg(name string, _ []byte, _ int64) bool {
	_, _, ok := dbg.Match(name)
	return ok
}

// maxDbgFile bounds a loose .dbg file decoded as a tree.
const maxDbgFile = 64 << 20

func decodeDbg(f *File, opt Options) *doc.Node {
	if f.Size > maxDbgFile {
		n := decodeBinary(f, opt)
		n.Findings = nil
		n.Warnf(doc.At(0, f.Size), "%s is %s; .dbg files above %s are shown as hex only.", f.Name, neff.HumanSize(f.Size), neff.HumanSize(maxDbgFile))
		return n
	}
	b := make([]byte, f.Size)
	n, _ := f.r.ReadAt(b, 0)
	d := dbg.DecodeFile(path.Base(f.Name), b[:n])
	f.dbg = d
	d.Root.Label = f.Name
	return d.Root
}

// dbgFor finds the decoded .dbg member a "records:<member>" ref names ("": the .dbg file
// opened alone).
func (f *File) dbgFor(member string) (*dbg.File, error) {
	if member == "" && f.dbg != nil {
		return f.dbg, nil
	}
	if f.Program != nil && f.Program.Source != nil {
		if d := f.Program.Source.Members[member]; d != nil {
			return d, nil
		}
	}
	return nil, fmt.Errorf("%s has no decoded .dbg member %q", f.Name, member)
}

// DbgCoverage sums, per .dbg member kind, how the members' bytes are explained (named field,
// field named unknown…, generic protobuf, unread); members not held count as unread. It is the
// .dbg part of the coverage report.
func (f *File) DbgCoverage() map[dbg.Kind]dbg.Coverage {
	out := map[dbg.Kind]dbg.Coverage{}
	if f.Archive == nil {
		return out
	}
	for _, m := range f.Archive.Members {
		kind, _, ok := dbg.Match(m.Path)
		if !ok {
			continue
		}
		c := out[kind]
		if f.Program != nil && f.Program.Source != nil && f.Program.Source.Members[m.Path] != nil {
			c.Add(f.Program.Source.Members[m.Path].Coverage)
		} else {
			c.None += m.Size
		}
		out[kind] = c
	}
	return out
}
