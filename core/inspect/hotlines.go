package inspect

import (
	"path"
	"sort"
	"strconv"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
)

// HotLine is one kernel source line and the instruction words it produced, per engine.
type HotLine struct {
	File   string `json:"file"`             // as the debug info names it ("" when it names none)
	Line   int    `json:"line"`             // the line number
	Kernel string `json:"kernel,omitempty"` // the kernel (function) name, where known
	// Key is the line's node key under model › source › lines ("" when it has none).
	Key string `json:"key,omitempty"`
	// PerEngine counts the words per engine, indexed like HotLines.Engines (all cores summed).
	PerEngine []int32 `json:"per_engine"`
	Total     int32   `json:"total"`
}

// Name is the line as the listings name it: "conv2d.py:107" (the file's base name).
func (h *HotLine) Name() string {
	f := path.Base(h.File)
	if h.File == "" {
		f = "?"
	}
	return f + ":" + strconv.Itoa(h.Line)
}

// Link is the line node's link (model › source › lines › key), "" when it has no node.
func (h *HotLine) Link() string {
	if h.Key == "" {
		return ""
	}
	return doc.NodeLink("model", "source", SourceLines, h.Key)
}

// mix is the line's counts per engine, most first: "PE 120, ACT 4" (engines with none left out).
func (h *HotLine) mix(engines []string) string {
	idx := make([]int, 0, len(engines))
	for i, c := range h.PerEngine {
		if c > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool { return h.PerEngine[idx[a]] > h.PerEngine[idx[b]] })
	out := ""
	for k, i := range idx {
		if k > 0 {
			out += ", "
		}
		out += engines[i] + " " + strconv.Itoa(int(h.PerEngine[i]))
	}
	return out
}

// HotLines is every kernel source line with its instruction count per engine, most
// instructions first.
type HotLines struct {
	Engines []string  `json:"engines"` // the engines with debug info, in stream order
	Lines   []HotLine `json:"lines"`   // by Total descending, then file, line, kernel
	// Words is the words with a kernel line (the sum of the totals).
	Words int64 `json:"words"`
	// Pending: the open deferred the source lines and they are not mapped yet.
	Pending bool `json:"pending,omitempty"`
	// Refused names the limit that stopped the table ("" when it is whole).
	Refused string `json:"refused,omitempty"`
}

// hotLineCost is what one row costs to hold, before its per-engine counts.
const hotLineCost = 96

// HotLinesOf ranks f's kernel source lines by the instruction words each produced. It reads
// the counts the source index kept per line and stream at open (no pass over the words), so it
// costs one row per kernel line; the rows are taken from the open's memory budget, and a
// table that does not fit is refused (Refused says so) rather than built.
func HotLinesOf(f *File) *HotLines {
	h := &HotLines{}
	if f == nil || f.Program == nil {
		return h
	}
	if f.sourcePending {
		h.Pending = true
		return h
	}
	x := f.Program.Source
	if x == nil {
		return h
	}
	eng := map[string]int{}
	for _, s := range x.order {
		if _, ok := eng[s.ps.Engine.Name]; !ok {
			eng[s.ps.Engine.Name] = len(h.Engines)
			h.Engines = append(h.Engines, s.ps.Engine.Name)
		}
	}
	cost := int64(len(x.sorted)) * int64(hotLineCost+4*len(h.Engines))
	if f.Budget != nil && !f.Budget.Can(budget.Memory, cost) {
		h.Refused = budget.Memory.String()
		return h
	}
	counts := make([]int32, len(x.sorted)*len(h.Engines)) // one backing array for every row
	h.Lines = make([]HotLine, len(x.sorted))
	for i, l := range x.sorted {
		row := &h.Lines[i]
		row.File, row.Line, row.Kernel, row.Key = l.file, l.line, l.kernel, l.key
		row.PerEngine = counts[i*len(h.Engines) : (i+1)*len(h.Engines) : (i+1)*len(h.Engines)]
		for _, ls := range l.per {
			row.PerEngine[eng[ls.s.ps.Engine.Name]] += int32(ls.count)
			row.Total += int32(ls.count)
		}
		h.Words += int64(row.Total)
	}
	// x.sorted is by file, line, kernel: a stable sort keeps that order among equal totals.
	sort.SliceStable(h.Lines, func(i, j int) bool { return h.Lines[i].Total > h.Lines[j].Total })
	return h
}

// OverviewHotLines is the overview key of the hot-lines answer; overviewHotLines is how many
// lines it lists.
const (
	OverviewHotLines = "hot_lines"
	overviewHotLines = 5
)

// overviewHot adds the "hottest source lines" answer: the top lines by instruction words,
// each a row (and a child node) linking to its line node. A row node carries the line's
// file, line and kernel attrs (as the line node does), count (its total) and mix ("PE 120,
// ACT 4": per engine, most first). It says pending while the source
// lines are deferred, as the "kernel source" answer does, and is left out when the NEFF has
// no kernel lines.
func overviewHot(ov *doc.Node, f *File) {
	h := HotLinesOf(f)
	if h.Pending {
		s := section(ov, OverviewHotLines, "hottest source lines")
		s.Value = "mapping source lines…"
		s.SetAttr(AttrPending, "the .dbg debug info")
		return
	}
	if len(h.Lines) == 0 && h.Refused == "" {
		return
	}
	s := section(ov, OverviewHotLines, "hottest source lines")
	if h.Refused != "" {
		s.Value = "not ranked: the " + h.Refused + " limit"
		return
	}
	n := min(overviewHotLines, len(h.Lines))
	s.Value = "top " + strconv.Itoa(n) + " of " + plural(len(h.Lines), "kernel line")
	s.Detail = "the kernel source lines that produced the most instruction words, per engine (all cores summed)"
	t := &doc.Table{Columns: append([]string{"line", "kernel", "total"}, h.Engines...), Rows: [][]string{}}
	for _, l := range h.Lines[:n] {
		row := []string{l.Name(), l.Kernel, strconv.Itoa(int(l.Total))}
		for _, c := range l.PerEngine {
			row = append(row, strconv.Itoa(int(c)))
		}
		t.Rows = append(t.Rows, row)
		t.RowLinks = append(t.RowLinks, l.Link())
		c := s.Add(&doc.Node{Kind: doc.KindField, Key: l.Key, Label: l.Name(), Value: plural(int(l.Total), "instruction"), Link: l.Link()})
		c.SetAttr(AttrSourceFile, l.File).SetAttr(AttrSourceLine, strconv.Itoa(l.Line)).SetAttr(AttrKernel, l.Kernel)
		c.SetAttr(AttrCount, strconv.Itoa(int(l.Total))).SetAttr(AttrMix, l.mix(h.Engines))
	}
	s.Table = t
}
