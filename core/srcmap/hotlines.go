package srcmap

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

// Mix is the line's counts per engine, most first: "PE 120, ACT 4" (engines with none left
// out); engines are HotLines.Engines.
func (h *HotLine) Mix(engines []string) string {
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

// HotLines ranks the kernel source lines by the instruction words each produced. It reads the
// counts the index kept per line and stream (no pass over the words), so it costs one row per
// kernel line; the rows are taken from b's memory, and a table that does not fit is refused
// (Refused says so) rather than built.
func (x *Index) HotLines(b *budget.Budget) *HotLines {
	h := &HotLines{}
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
	if b != nil && !b.Can(budget.Memory, cost) {
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
