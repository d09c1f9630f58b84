package fleet

import (
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

func TestCompareMajority(t *testing.T) {
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	a, b := openBytes("rank0.neff", src), openBytes("rank1.neff", src)
	c := openBytes("rank2.neff", repackedMatmul(t, src))
	n := Compare([]*inspect.File{a, b, c})
	if !strings.HasPrefix(n.Value, "not the same NEFF") || !strings.Contains(n.Value, "C (rank2.neff)") || strings.Contains(n.Value, "A (") {
		t.Errorf("value %q", n.Value)
	}
	rows := n.Child("facts").Table.Rows
	odd := map[string]string{}
	for _, r := range rows {
		if r[4] == "yes" {
			odd[r[0]] = r[5]
		}
	}
	for _, want := range []string{"member sg00/def.json", "member hlo_stats.json", "member notes.json", "stream sg01/SP.bin", "instructions SP"} {
		if odd[want] != "C" {
			t.Errorf("fact %s: odd ones %q (all: %v)", want, odd[want], odd)
		}
	}
	if _, ok := odd["compiler"]; ok {
		t.Error("the compiler is the same in all three")
	}
	same := Compare([]*inspect.File{a, b})
	if !strings.HasPrefix(same.Value, "all 2 files are the same NEFF") {
		t.Errorf("same: %q", same.Value)
	}
	// Two files that differ: no majority, nobody singled out.
	two := Compare([]*inspect.File{a, c})
	if !strings.Contains(two.Value, "no majority") {
		t.Errorf("two: %q", two.Value)
	}
	if one := Compare([]*inspect.File{a}); len(one.Findings) != 1 {
		t.Errorf("one file: %+v", one)
	}
}

// compare's source facts: per kernel line, its words in each file, "—" where a file has no
// such line; a file whose lines differ is the odd one.
func TestCompareSourceFacts(t *testing.T) {
	const one, other = "cs149-trn1/file_pool_1_float16.neff", "cs149-trn1/file_pool_2_float32.neff"
	if !realfiles.Has(one) || !realfiles.Has(other) {
		t.Skip(realfiles.Missing(other))
	}
	a, c := openRealBytes(t, one), openRealBytes(t, other)
	n := Compare([]*inspect.File{a, openRealBytes(t, one), c})
	facts := map[string][]string{}
	for _, r := range n.Child("facts").Table.Rows {
		facts[r[0]] = r[1:]
	}
	ha, hc := inspect.HotLinesOf(a), inspect.HotLinesOf(c)
	seen := 0
	for _, l := range hc.Lines {
		r, ok := facts["source "+l.Name()]
		if !ok {
			continue
		}
		seen++
		inA := "—"
		for _, x := range ha.Lines {
			if x.Name() == l.Name() && x.Kernel == l.Kernel {
				inA = strconv.Itoa(int(x.Total))
			}
		}
		if r[0] != inA || r[1] != inA || r[2] != strconv.Itoa(int(l.Total)) {
			t.Errorf("source %s: %v, want %s %s %d", l.Name(), r, inA, inA, l.Total)
		}
		if (inA != r[2]) != (r[4] == "C") {
			t.Errorf("source %s: odd ones %q", l.Name(), r[4])
		}
	}
	if seen == 0 || facts["source "+hc.Lines[0].Name()] == nil {
		t.Errorf("no source facts for b's lines (hottest %s): %v", hc.Lines[0].Name(), facts)
	}
}
