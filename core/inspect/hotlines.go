package inspect

import (
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/srcmap"
)

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
		c.SetAttr(srcmap.AttrSourceFile, l.File).SetAttr(srcmap.AttrSourceLine, strconv.Itoa(l.Line)).SetAttr(srcmap.AttrKernel, l.Kernel)
		c.SetAttr(AttrCount, strconv.Itoa(int(l.Total))).SetAttr(AttrMix, l.Mix(h.Engines))
	}
	s.Table = t
}
