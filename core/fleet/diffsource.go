package fleet

// The diff's "source lines" and "source instructions" sections: what changed in the kernel,
// line by line, rather than which bytes changed.
//
// What "differs" means. Each file's words are grouped by the kernel line the debug info maps
// them to (SourceIndex). For each line it keeps, per engine, the word count; the multiset of
// opcodes; and a hash (FNV-1a 64) of its words' bytes in stream order with the sync band
// (+0x04..+0x0B: wait and update semaphores, spec neff.md §4.2) left out, because the
// scheduler renumbers semaphores whenever any code moves, which would mark every line
// changed. A line of A and a line of B differ when any of the three differs: "count" (the
// words per engine), "opcodes" (same counts, other opcodes), "operands" (same opcodes, other
// bytes outside the sync band: addresses included, so code that only moved to other SBUF
// addresses counts as changed). A line in one file only is "added" or "removed".
//
// How lines are matched. By the file's base name, the kernel (function) name and the line
// number. When a kernel's first line differs between A and B (the kernel file was edited above
// it, or the kernel moved) and matching by offset from the kernel's first line pairs more of
// its lines than matching by number, its lines are matched by that offset, and the row says
// both numbers (line_b). Otherwise by line number: a line inserted inside a kernel shifts the
// lines below it, and they show as removed and added.

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
)

// Keys of the diff's source sections and the attrs of their change nodes.
const (
	DiffSourceLines = "source lines"
	DiffSourceWords = "source instructions"
	// AttrLineB is a source-line change's line number in b when lines shifted ("" otherwise).
	AttrLineB = "line_b"
	// AttrDelta is the change in instruction words (b − a, signed).
	AttrDelta = "delta"
	// AttrOpcodes lists the opcodes added and removed: "+Matmul 2, -Ldweights 1".
	AttrOpcodes = "opcodes"
	// AttrWhy says how a line differs: one of the lineChange* values.
	AttrWhy = "why"
)

// How a source line differs (AttrWhy and the table's change column), most visible first.
const (
	lineChangeCount    = "count"
	lineChangeOpcodes  = "opcodes"
	lineChangeOperands = "operands"
)

// maxSourceDiffRows bounds the source-line rows (as MaxJSONDifferences, the JSON paths);
// maxSourceWordLines the changed lines whose words are compared one by one, maxLineWordsCmp
// the words per line and engine compared, and maxWordDiffs the differing words listed per line
// and engine.
const (
	maxSourceDiffRows  = 2000
	maxSourceWordLines = 20
	maxLineWordsCmp    = 4096
	maxWordDiffs       = 3
)

// srcKey is a line as the diff matches it: the file's base name, the kernel, the line (or its
// offset from the kernel's first line, when that matches lines better).
type srcKey struct {
	base, kernel string
	line         int
}

// lineSig is what the diff compares of one kernel line: words per engine, opcode multiset,
// and the hash of its words without the sync band.
type lineSig struct {
	id     inspect.LineID
	counts map[string]int32 // engine → words
	ops    map[uint8]int32
	hash   uint64
	total  int32
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// hashWord folds a word into h, the sync band left out.
func hashWord(h uint64, w []byte) uint64 {
	for k, c := range w {
		if k >= 4 && k < 12 {
			continue
		}
		h ^= uint64(c)
		h *= fnvPrime
	}
	return h
}

// sameWord says whether two words are equal outside the sync band.
func sameWord(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if (k < 4 || k >= 12) && a[k] != b[k] {
			return false
		}
	}
	return true
}

// lineSigs walks every word of p's streams with debug info once and groups it by kernel line.
func lineSigs(p *inspect.Program) map[inspect.LineID]*lineSig {
	out := map[inspect.LineID]*lineSig{}
	for _, s := range p.Source.Streams() {
		ps := s.Stream()
		if ps.ISA == nil {
			continue
		}
		engine := ps.Engine.Name
		var last inspect.LineID
		var sig *lineSig
		for i, w := range ps.ISA.Words() {
			if i >= s.Len() {
				break
			}
			l, ok := s.Line(i)
			if !ok {
				continue
			}
			if sig == nil || l != last {
				last = l
				if sig = out[l]; sig == nil {
					sig = &lineSig{id: l, counts: map[string]int32{}, ops: map[uint8]int32{}, hash: fnvOffset}
					out[l] = sig
				}
			}
			sig.counts[engine]++
			sig.ops[w[0]]++
			sig.total++
			sig.hash = hashWord(sig.hash, w)
		}
	}
	return out
}

// keyLines gives each line its match key; shifted names the kernels matched by offset, with
// their first line in a and b.
func keyLines(a, b map[inspect.LineID]*lineSig) (ka, kb map[srcKey]*lineSig, shifted map[[2]string][2]int) {
	first := func(m map[inspect.LineID]*lineSig) map[[2]string]int {
		out := map[[2]string]int{}
		for id := range m {
			g := [2]string{path.Base(id.File), id.Kernel}
			if f, ok := out[g]; !ok || id.Line < f {
				out[g] = id.Line
			}
		}
		return out
	}
	fa, fb := first(a), first(b)
	shifted = map[[2]string][2]int{}
	for g, la := range fa {
		lb, ok := fb[g]
		if !ok || la == lb {
			continue
		}
		// Count the pairs each way of matching would make in this kernel.
		inB := map[int]bool{}
		for id := range b {
			if path.Base(id.File) == g[0] && id.Kernel == g[1] {
				inB[id.Line] = true
			}
		}
		byNumber, byOffset := 0, 0
		for id := range a {
			if path.Base(id.File) == g[0] && id.Kernel == g[1] {
				if inB[id.Line] {
					byNumber++
				}
				if inB[id.Line-la+lb] {
					byOffset++
				}
			}
		}
		if byOffset > byNumber {
			shifted[g] = [2]int{la, lb}
		}
	}
	key := func(m map[inspect.LineID]*lineSig, side int) map[srcKey]*lineSig {
		out := make(map[srcKey]*lineSig, len(m))
		for id, s := range m {
			g := [2]string{path.Base(id.File), id.Kernel}
			k := srcKey{g[0], g[1], id.Line}
			if sh, ok := shifted[g]; ok {
				k.line -= sh[side]
			}
			out[k] = s
		}
		return out
	}
	return key(a, 0), key(b, 1), shifted
}

// srcRow is one source line that differs.
type srcRow struct {
	a, b     *lineSig
	change   string // DiffChanged, DiffAdded, DiffRemoved
	why      string
	delta    int
	engines  string // "PE 4→6, ACT 2→2": the engines whose counts differ
	opcodes  string
	name     string // "conv2d.py:107", or "conv2d.py:107→110" when the line moved
	kernel   string
	lineB    int
	ordering int // |delta|, for the sort
}

// diffSource builds the "source lines" and "source instructions" sections and returns how
// many lines differ and the first one's name. Both are nil when neither file has source lines
// to compare (no .dbg debug info, or no program).
func diffSource(fa, fb *inspect.File) (*doc.Node, *doc.Node, int, string) {
	n := &doc.Node{Kind: doc.KindDiffSection, Key: DiffSourceLines, Label: DiffSourceLines,
		Detail: "kernel source lines whose instructions differ: words per engine, opcodes, or bytes outside the sync band (which the scheduler renumbers); lines match by file base name, kernel and line number"}
	words := &doc.Node{Kind: doc.KindDiffSection, Key: DiffSourceWords, Label: DiffSourceWords,
		Detail: "for the changed lines, the first words that differ (sync band left out), in the order each engine runs the line's words"}
	missing := missingSource(fa, fb)
	if len(missing) == 2 && !fa.SourcePending() && !fb.SourcePending() {
		return nil, nil, 0, "" // neither has source lines: nothing to say
	}
	if len(missing) > 0 {
		n.Value = "not compared: " + strings.Join(missing, "; ")
		words.Value = n.Value
		return n, words, 0, ""
	}
	ka, kb, shifted := keyLines(lineSigs(fa.Program), lineSigs(fb.Program))
	rows := differingLines(ka, kb)
	sortSourceRows(rows)
	counts := addSourceRows(n, rows)
	n.Value = fmt.Sprintf("%d changed, %d added, %d removed, %d equal", counts[DiffChanged], counts[DiffAdded], counts[DiffRemoved], len(ka)-counts[DiffChanged]-counts[DiffRemoved])
	if len(shifted) > 0 {
		n.Detail += "; lines moved, matched by their offset from the kernel's first line: " + shiftedKernels(shifted)
	}
	sourceWords(words, fa, fb, rows)
	first := ""
	if len(rows) > 0 {
		first = rows[0].name
	}
	return n, words, len(rows), first
}

// missingSource says, per file, why its source lines cannot be compared.
func missingSource(fa, fb *inspect.File) []string {
	var missing []string
	for _, f := range []*inspect.File{fa, fb} {
		switch {
		case f.Program == nil:
			missing = append(missing, f.Name+" has no program")
		case f.SourcePending():
			missing = append(missing, f.Name+"'s source lines are not mapped yet")
		case f.Program.Source == nil || len(f.Program.Source.Members) == 0:
			missing = append(missing, f.Name+" has no .dbg debug info")
		}
	}
	return missing
}

// differingLines pairs the lines of a and b by key: a line only in a is removed, only in b
// added, in both changed when its counts, opcodes or operand bytes differ (why says which).
// Each row is filled in and its ordering set.
func differingLines(ka, kb map[srcKey]*lineSig) []srcRow {
	var rows []srcRow
	for k, a := range ka {
		b := kb[k]
		if b == nil {
			rows = append(rows, srcRow{a: a, change: DiffRemoved, delta: -int(a.total)})
			continue
		}
		why := ""
		switch {
		case !sameCounts(a.counts, b.counts):
			why = lineChangeCount
		case !sameOps(a.ops, b.ops):
			why = lineChangeOpcodes
		case a.hash != b.hash:
			why = lineChangeOperands
		default:
			continue
		}
		rows = append(rows, srcRow{a: a, b: b, change: DiffChanged, why: why, delta: int(b.total) - int(a.total)})
	}
	for k, b := range kb {
		if ka[k] == nil {
			rows = append(rows, srcRow{b: b, change: DiffAdded, delta: int(b.total)})
		}
	}
	for i := range rows {
		r := &rows[i]
		r.ordering = max(r.delta, -r.delta)
		r.fill()
	}
	return rows
}

// sortSourceRows puts the largest change in words first; then a change of count before one
// of opcodes before one of operands; then by name, kernel and file.
func sortSourceRows(rows []srcRow) {
	whyRank := map[string]int{lineChangeCount: 0, lineChangeOpcodes: 1, lineChangeOperands: 2, "": 3}
	sort.Slice(rows, func(i, j int) bool {
		x, y := &rows[i], &rows[j]
		if x.ordering != y.ordering {
			return x.ordering > y.ordering
		}
		if whyRank[x.why] != whyRank[y.why] {
			return whyRank[x.why] < whyRank[y.why]
		}
		if x.name != y.name {
			return x.name < y.name
		}
		if x.kernel != y.kernel {
			return x.kernel < y.kernel
		}
		return x.file() < y.file()
	})
}

// addSourceRows lists the first maxSourceDiffRows rows in n's table and as its children, says
// when the list is cut, and returns how many rows there are of each change.
func addSourceRows(n *doc.Node, rows []srcRow) map[string]int {
	n.Table = &doc.Table{Columns: []string{"line", "kernel", "count a", "count b", "delta", "engines", "opcodes", "change"}, Rows: [][]string{}}
	keys := map[string]int{}
	counts := map[string]int{}
	for i, r := range rows {
		counts[r.change]++
		if i >= maxSourceDiffRows {
			continue
		}
		ca, cb := "", ""
		if r.a != nil {
			ca = strconv.Itoa(int(r.a.total))
		}
		if r.b != nil {
			cb = strconv.Itoa(int(r.b.total))
		}
		mark := r.change
		if r.why != "" {
			mark = r.why
		}
		n.Table.Rows = append(n.Table.Rows, []string{r.name, r.kernel, ca, cb, fmt.Sprintf("%+d", r.delta), r.engines, r.opcodes, mark})
		c := change(r.change, r.name, ca, cb, r.a != nil, r.b != nil)
		key := r.name
		if keys[key]++; keys[key] > 1 {
			key += " (" + strconv.Itoa(keys[key]) + ")"
		}
		c.Key = key
		describeSourceRow(c, &r, mark)
		n.Add(c)
	}
	if len(rows) > maxSourceDiffRows {
		n.Infof(doc.CodeDiffListCut, nil, "%d source lines differ; only the first %d are listed.", len(rows), maxSourceDiffRows)
	}
	return counts
}

// describeSourceRow gives a row's node its detail (file, line, kernel, where it moved to)
// and its attributes.
func describeSourceRow(c *doc.Node, r *srcRow, mark string) {
	id := r.a
	if id == nil {
		id = r.b
	}
	c.Detail = id.id.File + " line " + strconv.Itoa(id.id.Line)
	if r.kernel != "" {
		c.Detail += " (kernel " + r.kernel + ")"
	}
	c.SetAttr(inspect.AttrSourceFile, id.id.File).SetAttr(inspect.AttrSourceLine, strconv.Itoa(id.id.Line)).SetAttr(inspect.AttrKernel, r.kernel).
		SetAttr(AttrDelta, fmt.Sprintf("%+d", r.delta)).SetAttr(AttrOpcodes, r.opcodes).SetAttr(AttrWhy, mark)
	if r.lineB != 0 {
		c.SetAttr(AttrLineB, strconv.Itoa(r.lineB))
		c.Detail += "; line " + strconv.Itoa(r.lineB) + " in b"
	}
}

// shiftedKernels says, kernel by kernel, where each moved kernel starts in a and in b.
func shiftedKernels(shifted map[[2]string][2]int) string {
	var gs []string
	for g, sh := range shifted {
		gs = append(gs, fmt.Sprintf("%s kernel %q starts at line %d in a and %d in b", g[0], g[1], sh[0], sh[1]))
	}
	sort.Strings(gs)
	return strings.Join(gs, "; ")
}

func (r *srcRow) file() string {
	if r.a != nil {
		return r.a.id.File
	}
	return r.b.id.File
}

// fill sets a row's name, kernel, engines and opcodes columns.
func (r *srcRow) fill() {
	id := r.a
	if id == nil {
		id = r.b
	}
	base := path.Base(id.id.File)
	if id.id.File == "" {
		base = "?"
	}
	r.name, r.kernel = base+":"+strconv.Itoa(id.id.Line), id.id.Kernel
	if r.a != nil && r.b != nil && r.b.id.Line != r.a.id.Line {
		r.lineB = r.b.id.Line
		r.name += "→" + strconv.Itoa(r.lineB)
	}
	var ea, eb map[string]int32
	var oa, ob map[uint8]int32
	if r.a != nil {
		ea, oa = r.a.counts, r.a.ops
	}
	if r.b != nil {
		eb, ob = r.b.counts, r.b.ops
	}
	engines := unionKeys(ea, eb)
	var parts []string
	for _, e := range engines {
		if ea[e] != eb[e] {
			parts = append(parts, fmt.Sprintf("%s %d→%d", e, ea[e], eb[e]))
		}
	}
	r.engines = strings.Join(parts, ", ")
	var ops []int
	for op := range oa {
		ops = append(ops, int(op))
	}
	for op := range ob {
		if _, ok := oa[op]; !ok {
			ops = append(ops, int(op))
		}
	}
	sort.Ints(ops)
	parts = parts[:0]
	for _, op := range ops {
		if d := ob[uint8(op)] - oa[uint8(op)]; d != 0 {
			parts = append(parts, fmt.Sprintf("%+d %s", d, opName(uint8(op))))
		}
	}
	r.opcodes = strings.Join(parts, ", ")
}

func opName(op uint8) string {
	if name := isa.OpcodeName(op); name != "" {
		return name
	}
	return fmt.Sprintf("0x%02x", op)
}

func sameCounts(a, b map[string]int32) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func sameOps(a, b map[uint8]int32) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// lineWord is one word of a line: its stream and index.
type lineWord struct {
	s *inspect.ProgramStream
	i int
}

// wordsOf lists, for the lines in want, their words per engine in stream order (at most
// maxLineWordsCmp each): one more walk of the joins, no word read.
func wordsOf(p *inspect.Program, want map[inspect.LineID]bool) map[inspect.LineID]map[string][]lineWord {
	out := map[inspect.LineID]map[string][]lineWord{}
	for _, s := range p.Source.Streams() {
		ps := s.Stream()
		if ps.ISA == nil {
			continue // lineSigs did not count it either
		}
		engine := ps.Engine.Name
		for i := range min(s.Len(), ps.ISA.Len()) {
			l, ok := s.Line(i)
			if !ok || !want[l] {
				continue
			}
			m := out[l]
			if m == nil {
				m = map[string][]lineWord{}
				out[l] = m
			}
			if len(m[engine]) < maxLineWordsCmp {
				m[engine] = append(m[engine], lineWord{ps, i})
			}
		}
	}
	return out
}

// sourceWords fills the "source instructions" section: for the first maxSourceWordLines
// changed lines, per engine, the first maxWordDiffs positions where the line's words differ.
func sourceWords(n *doc.Node, fa, fb *inspect.File, rows []srcRow) {
	n.Table = &doc.Table{Columns: []string{"line", "engine", "word of line", "a stream", "a index", "a", "b stream", "b index", "b"}, Rows: [][]string{}}
	wa, wb := map[inspect.LineID]bool{}, map[inspect.LineID]bool{}
	var picked []srcRow
	for _, r := range rows {
		if r.change != DiffChanged {
			continue
		}
		if len(picked) == maxSourceWordLines {
			break
		}
		picked = append(picked, r)
		wa[r.a.id], wb[r.b.id] = true, true
	}
	if len(picked) == 0 {
		n.Value = "no changed line in both files"
		return
	}
	la, lb := wordsOf(fa.Program, wa), wordsOf(fb.Program, wb)
	text := func(w lineWord) (string, string, string, []byte) {
		if w.s == nil {
			return "", "", "", nil
		}
		word := w.s.ISA.Word(w.i)
		if word == nil {
			return "", "", "", nil
		}
		in := w.s.ISA.Instruction(w.i)
		return w.s.Member, strconv.Itoa(w.i), strings.TrimSpace(opName(word[0]) + " " + isa.Summary(in)), word
	}
	listed := 0
	for _, r := range picked {
		ea, eb := la[r.a.id], lb[r.b.id]
		engines := unionKeys(ea, eb)
		for _, e := range engines {
			xs, ys := ea[e], eb[e]
			found := 0
			for k := 0; k < max(len(xs), len(ys)) && found < maxWordDiffs; k++ {
				var x, y lineWord
				if k < len(xs) {
					x = xs[k]
				}
				if k < len(ys) {
					y = ys[k]
				}
				sa, ia, ta, wa := text(x)
				sb, ib, tb, wb := text(y)
				if wa != nil && wb != nil && sameWord(wa, wb) {
					continue
				}
				found++
				row := []string{r.name, e, strconv.Itoa(k), sa, ia, ta, sb, ib, tb}
				n.Table.Rows = append(n.Table.Rows, row)
				// [k]: the k-th word (from 0) the line produced on this engine.
				label := r.name + " " + e + " [" + strconv.Itoa(k) + "]"
				c := &doc.Node{Kind: DiffChanged, Key: label, Label: label}
				switch {
				case wa == nil:
					c.Kind = DiffAdded
				case wb == nil:
					c.Kind = DiffRemoved
				}
				if wa != nil {
					c.Add(&doc.Node{Kind: doc.KindField, Label: "a", Value: ta, Detail: sa + " #" + ia})
				}
				if wb != nil {
					c.Add(&doc.Node{Kind: doc.KindField, Label: "b", Value: tb, Detail: sb + " #" + ib})
				}
				c.Value = ta + " → " + tb
				n.Add(c)
			}
			listed += found
		}
	}
	n.Value = fmt.Sprintf("%d differing words in %d changed lines", listed, len(picked))
}
