package timeline

import (
	"sort"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// lineCost is what one kernel line's row costs to hold, with its per-engine map.
const lineCost = 256

// lines ranks the NEFF's kernel source lines by measured time: each line's instructions (as
// the .dbg debug info maps words to lines, the join `profile --by-line` counts) with their
// durations summed, per engine too. Nil when the NEFF has no mapped source lines.
func (j *joiner) lines() []LineTime {
	x := j.neff.Program.Source
	if x == nil || j.neff.SourcePending() {
		return nil
	}
	at := map[inspect.LineID]int{}
	var out []LineTime
	for _, sw := range x.Streams() {
		st := j.r.Stream(sw.Stream().Member)
		engine := sw.Stream().Engine.Name
		for i := range sw.Len() {
			id, ok := sw.Line(i)
			if !ok {
				continue
			}
			k, seen := at[id]
			if !seen {
				if !j.b.Take(budget.Memory, lineCost, "the measured kernel lines") {
					j.flag(doc.CodeNTFFLimit, doc.Warning, nil, "the kernel lines past %d are not ranked by time: the memory budget is spent.", len(out))
					return sortLines(out)
				}
				k = len(out)
				at[id] = k
				out = append(out, LineTime{File: id.File, Line: id.Line, Kernel: id.Kernel, PerEngine: map[string]uint64{}})
			}
			l := &out[k]
			l.Instructions++
			if st.Timed(i) {
				d := st.End[i] - st.Start[i]
				l.Timed++
				l.TimePS += d
				l.PerEngine[engine] += d
			}
		}
	}
	return sortLines(out)
}

func sortLines(out []LineTime) []LineTime {
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].TimePS != out[b].TimePS {
			return out[a].TimePS > out[b].TimePS
		}
		if out[a].File != out[b].File {
			return out[a].File < out[b].File
		}
		return out[a].Line < out[b].Line
	})
	return out
}
