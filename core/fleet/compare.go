package fleet

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
)

// Compare lines up N files (the ranks of one compile, or one model across compiler versions)
// in one table of facts: compiler, target, cores, features, inputs, outputs, instructions per
// engine and per stream, and every member by SHA-256. A fact whose values differ names the
// files that disagree with the majority. The root's Value answers "are these the same NEFF?";
// its children are "facts" (the table: fact, one column per file, "differs", "odd ones") and
// "files" (one child per file: how many facts it is the odd one out in).
func Compare(files []*inspect.File) *doc.Node {
	root := &doc.Node{Kind: doc.KindCompare, Label: "compare"}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = f.Name
	}
	root.Detail = fmt.Sprintf("%d files: %s", len(files), strings.Join(names, ", "))
	if len(files) < 2 {
		root.Value = "nothing to compare"
		root.Infof(doc.CodeCompareTooFew, nil, "compare needs two or more files; it got %d.", len(files))
		return root
	}
	facts := &doc.Node{Kind: doc.KindCompareSection, Label: "facts"}
	cols := []string{"fact"}
	for i := range files {
		cols = append(cols, fmt.Sprintf("%c", 'A'+rune(i%26))+suffix(i))
	}
	cols = append(cols, "differs", "odd ones")
	facts.Table = &doc.Table{Columns: cols}

	rows := compareFacts(files)
	odd := make([]int, len(files))
	oddFacts := make([][]string, len(files))
	differing := 0
	for _, r := range rows {
		minority := majorityOdd(r.values)
		mark, who := "", []string{}
		if len(minority) > 0 || !allEqual(r.values) {
			mark = "yes"
			differing++
			for _, i := range minority {
				odd[i]++
				oddFacts[i] = append(oddFacts[i], r.name)
				who = append(who, cols[i+1])
			}
		}
		row := append([]string{r.name}, r.values...)
		facts.Table.Rows = append(facts.Table.Rows, append(row, mark, strings.Join(who, " ")))
	}
	facts.Value = fmt.Sprintf("%d of %d facts differ", differing, len(rows))
	filesNode := &doc.Node{Kind: doc.KindCompareSection, Label: "files"}
	for i, f := range files {
		c := filesNode.Add(&doc.Node{Kind: doc.KindCompareFile, Label: cols[i+1], Value: f.Name, Detail: neff.HumanSize(f.Size)})
		if odd[i] > 0 {
			c.Value += fmt.Sprintf(" · differs from the rest in %d facts: %s", odd[i], capList(oddFacts[i], 8))
		}
	}
	root.Add(facts, filesNode)
	switch {
	case differing == 0:
		root.Value = fmt.Sprintf("all %d files are the same NEFF (every member's SHA-256 and every fact agree)", len(files))
	default:
		var outliers []string
		for i := range files {
			if odd[i] > 0 {
				outliers = append(outliers, fmt.Sprintf("%s (%s)", cols[i+1], files[i].Name))
			}
		}
		if len(outliers) == 0 {
			root.Value = fmt.Sprintf("the files differ in %d facts with no majority", differing)
		} else {
			root.Value = fmt.Sprintf("not the same NEFF: %d facts differ; differing from the majority: %s", differing, strings.Join(outliers, ", "))
		}
	}
	for _, f := range files {
		if f.Archive == nil {
			root.Warnf(doc.CodeCompareNotNEFF, nil, "%s is not a NEFF (it opened as %s); only its size is compared.", f.Name, f.Doc.Kind)
		}
	}
	return root
}

func suffix(i int) string {
	if i < 26 {
		return ""
	}
	return strconv.Itoa(i / 26)
}

type factRow struct {
	name   string
	values []string
}

// compareFacts builds the rows, in a fixed order: file facts, model facts, engines, streams,
// members.
func compareFacts(files []*inspect.File) []factRow {
	n := len(files)
	var rows []factRow
	add := func(name string, get func(f *inspect.File) string) {
		r := factRow{name: name, values: make([]string, n)}
		for i, f := range files {
			r.values[i] = get(f)
		}
		rows = append(rows, r)
	}
	add("size", func(f *inspect.File) string { return strconv.FormatInt(f.Size, 10) })
	add("uuid", func(f *inspect.File) string {
		if f.Archive == nil {
			return "—"
		}
		return f.Archive.Header.UUIDString()
	})
	model := func(get func(p *inspect.Program) string) func(f *inspect.File) string {
		return func(f *inspect.File) string {
			if f.Program == nil {
				return "—"
			}
			return get(f.Program)
		}
	}
	add("compiler", model(func(p *inspect.Program) string {
		if p.Model.Info == nil {
			return "—"
		}
		return p.Model.Info.ToolVersion
	}))
	add("target", model(func(p *inspect.Program) string { return p.Model.Target }))
	add("cores", model(func(p *inspect.Program) string { return strconv.Itoa(len(p.Model.Cores)) }))
	add("features", model(func(p *inspect.Program) string { return strings.Join(p.Model.FeatureNames, ", ") }))
	add("inputs", model(func(p *inspect.Program) string { return tensorList(p.Model.Inputs) }))
	add("outputs", model(func(p *inspect.Program) string { return tensorList(p.Model.Outputs) }))
	// Instructions per engine (summed over cores), then per stream.
	engines := map[string]bool{}
	streams := map[string]bool{}
	members := map[string]bool{}
	for _, f := range files {
		if f.Program != nil {
			for _, s := range f.Program.Streams {
				engines[s.Engine.Name] = true
				streams[s.Member] = true
			}
		}
		if f.Archive != nil {
			for _, m := range f.Archive.Members {
				members[m.Path] = true
			}
		}
	}
	for _, e := range sortedKeys(engines) {
		add("instructions "+e, model(func(p *inspect.Program) string {
			var t int64
			for _, s := range p.Streams {
				if s.Engine.Name == e {
					t += s.Count
				}
			}
			return strconv.FormatInt(t, 10)
		}))
	}
	for _, s := range sortedKeys(streams) {
		add("stream "+s, model(func(p *inspect.Program) string {
			if ps := p.Stream(s); ps != nil {
				return strconv.FormatInt(ps.Count, 10)
			}
			return "—"
		}))
	}
	rows = append(rows, sourceFacts(files)...)
	mp := sortedKeys(members)
	sort.Strings(mp)
	for _, p := range mp {
		add("member "+p, func(f *inspect.File) string {
			if f.Archive == nil {
				return "—"
			}
			if m := f.Archive.Member(p); m != nil {
				if len(m.SHA256) >= 12 {
					return m.SHA256[:12]
				}
				return m.SHA256
			}
			return "—"
		})
	}
	return rows
}

func allEqual(v []string) bool {
	for _, x := range v[1:] {
		if x != v[0] {
			return false
		}
	}
	return true
}

// majorityOdd returns the indices whose value is not the majority's. With no strict majority
// (more than half), nobody is singled out, except with two files: then there is no majority
// and nobody is singled out either.
func majorityOdd(v []string) []int {
	count := map[string]int{}
	for _, x := range v {
		count[x]++
	}
	best, bestN := "", 0
	for _, x := range v { // first-seen order keeps ties deterministic
		if count[x] > bestN {
			best, bestN = x, count[x]
		}
	}
	if bestN*2 <= len(v) {
		return nil
	}
	var out []int
	for i, x := range v {
		if x != best {
			out = append(out, i)
		}
	}
	return out
}

func capList(s []string, n int) string {
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + fmt.Sprintf(", … (%d more)", len(s)-n)
}

// maxSourceFacts bounds the source-line facts of an N-way compare.
const maxSourceFacts = 30

// sourceFacts are compare's "source" facts: per kernel line (base name, line, kernel), the
// instruction words it produced in each file ("—": not in that file), for the lines with the
// most words in any file. They come from the counts the source index keeps (no pass over the
// words), so a line with the same count but other operands does not show here: diff's
// source lines section compares the words themselves.
func sourceFacts(files []*inspect.File) []factRow {
	type key struct {
		name, kernel string
	}
	counts := map[key][]string{}
	most := map[key]int32{}
	var keys []key
	any := false
	pending := make([]bool, len(files))
	for i, f := range files {
		h := inspect.HotLinesOf(f)
		pending[i] = h.Pending
		for _, l := range h.Lines {
			k := key{l.Name(), l.Kernel}
			if counts[k] == nil {
				counts[k] = make([]string, len(files))
				for j := range counts[k] {
					counts[k][j] = "—"
				}
				keys = append(keys, k)
			}
			counts[k][i] = strconv.Itoa(int(l.Total))
			most[k] = max(most[k], l.Total)
			any = true
		}
	}
	if !any {
		return nil
	}
	for i := range files {
		if pending[i] {
			for _, k := range keys {
				counts[k][i] = "pending"
			}
		}
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if most[keys[i]] != most[keys[j]] {
			return most[keys[i]] > most[keys[j]]
		}
		return keys[i].name < keys[j].name
	})
	rows := make([]factRow, 0, min(len(keys), maxSourceFacts))
	for _, k := range keys[:min(len(keys), maxSourceFacts)] {
		name := "source " + k.name
		if k.kernel != "" {
			name += " (" + k.kernel + ")"
		}
		rows = append(rows, factRow{name: name, values: counts[k]})
	}
	return rows
}
