package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// memoryRows reads printMemory's table back: group label → its figure, and "group/category" →
// the row's cells after the category (figure, "N summed").
func memoryRows(t *testing.T, out string) (groups map[string]string, rows map[string][]string) {
	t.Helper()
	groups, rows = map[string]string{}, map[string][]string{}
	group := ""
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "    ") && group != "" && !strings.Contains(l, ": "):
			cells := strings.Split(strings.TrimSpace(l), "  ")
			var kept []string
			for _, c := range cells {
				if c = strings.TrimSpace(c); c != "" {
					kept = append(kept, c)
				}
			}
			rows[group+"/"+kept[0]] = kept[1:]
		case strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "   "):
			label, fig, ok := strings.Cut(strings.TrimSpace(l), "  ")
			if ok && !strings.Contains(l, ": ") {
				group, groups[label] = label, fig
			} else {
				group = ""
			}
		}
	}
	return groups, rows
}

func subItems(items []*inspect.MemoryItem) []*inspect.MemoryItem {
	var out []*inspect.MemoryItem
	for _, it := range items {
		out = append(out, it.Sub...)
	}
	return out
}

// On every real NEFF, 'memory' and 'memory --json' say the same: each group's and row's figure
// once, as the JSON's bytes, bound and overflow make it; the two-core files list their I/O
// tensors once, in the per-NEFF group.
func TestMemoryTextMatchesJSON(t *testing.T) {
	files := realfiles.Glob("*/*.neff")
	if len(files) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	for _, p := range files {
		js, _, rc := runCLI(t, "memory", "--json", p)
		var mb inspect.MemoryBudget
		if err := json.Unmarshal([]byte(js), &mb); err != nil || rc != 0 {
			t.Fatalf("%s: rc %d, %v", p, rc, err)
		}
		out, _, rc := runCLI(t, "memory", p)
		if rc != 0 {
			t.Fatalf("%s: rc %d", p, rc)
		}
		fig := func(b int64, over, atLeast bool) string {
			return inspect.MemoryFigure(b, over, atLeast, neff.HumanSize)
		}
		if !strings.Contains(out, "Device memory (static estimate, "+fig(mb.Total, mb.Overflow, mb.AtLeast)+" in all):") {
			t.Errorf("%s: the total %d is not in the text:\n%s", p, mb.Total, out)
		}
		groups, rows := memoryRows(t, out)
		all := append([]*inspect.CoreMemory{mb.NEFF}, mb.Cores...)
		if len(groups) != len(all) {
			t.Errorf("%s: text groups %v, JSON %d", p, groups, len(all))
		}
		for _, g := range all {
			if groups[g.Core] != fig(g.Total, g.Overflow, g.AtLeast) {
				t.Errorf("%s %s: text %q, JSON %d", p, g.Core, groups[g.Core], g.Total)
			}
			for _, it := range append(append([]*inspect.MemoryItem{}, g.Items...), subItems(g.Items)...) {
				want := []string{fig(it.Bytes, it.Overflow, it.Bound == inspect.BoundAtLeast), fmt.Sprintf("%d summed", it.Count)}
				if got := rows[g.Core+"/"+it.Category]; strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("%s %s %s: text %q, JSON %q", p, g.Core, it.Category, got, want)
				}
				// The figure once: no bare byte count beside the grouped one.
				if it.Bytes >= 1000 && strings.Contains(out, fmt.Sprintf("%d B", it.Bytes)) {
					t.Errorf("%s %s %s: %d printed twice", p, g.Core, it.Category, it.Bytes)
				}
			}
		}
		if len(mb.Cores) == 2 {
			if _, ok := rows["sg00/tensors"]; ok {
				t.Errorf("%s: sg00 lists the I/O tensors", p)
			}
			if _, ok := rows[inspect.MemoryGroupNEFF+"/tensors"]; !ok {
				t.Errorf("%s: no per-NEFF tensors row:\n%s", p, out)
			}
		}
	}
}

// A NEFF whose def.json declares four constants of 2⁶² B: the constants and the total read
// "more than 2⁶³ B" in text and JSON, with the memory.overflow finding, never a wrapped sum.
func TestMemoryOverflowCLI(t *testing.T) {
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "sg00/def.json" {
			var consts strings.Builder
			for i := range 4 {
				fmt.Fprintf(&consts, `"w%d": {"ops": [], "size": 4611686018427387904, "type": "file", "var_id": %d}, `, i, 3+i)
			}
			m.Data = bytes.Replace(m.Data, []byte(`"output0"`), []byte(consts.String()+`"output0"`), 1)
		}
		ms = append(ms, m)
	}
	p := writeNEFF(t, "huge.neff", ms, neffbuild.Options{})
	out, _, _ := runCLI(t, "memory", p)
	groups, rows := memoryRows(t, out)
	if c := rows["sg00/model constants"]; len(c) != 2 || c[0] != "more than 2⁶³ B" || c[1] != "4 summed" {
		t.Errorf("constants row %q:\n%s", c, out)
	}
	if groups["sg00"] != "more than 2⁶³ B" || !strings.Contains(out, "static estimate, more than 2⁶³ B in all") || !strings.Contains(out, inspect.MemoryOverflow+":") {
		t.Errorf("text:\n%s", out)
	}
	js, _, _ := runCLI(t, "memory", "--json", p)
	var mb inspect.MemoryBudget
	if err := json.Unmarshal([]byte(js), &mb); err != nil {
		t.Fatal(err)
	}
	if !mb.Overflow || len(mb.Findings) != 1 || mb.Findings[0].Code != inspect.MemoryOverflow || !mb.Cores[0].Items[1].Overflow {
		t.Errorf("JSON: overflow %v, findings %+v", mb.Overflow, mb.Findings)
	}
}
