package inspect

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// TestOpensShareTheCommandBudget: files opened Within one budget hold what it allows
// together: a file that fits alone is refused (or leaves out what does not fit) when the
// others hold the rest; the command budget never passes its limit.
func TestOpensShareTheCommandBudget(t *testing.T) {
	p := allRealNEFFs(t)[0]
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	alone := Open(p, bytes.NewReader(raw), int64(len(raw)), Options{DeferSource: true})
	used := alone.Budget.Used(budget.Memory)
	if used == 0 {
		t.Fatalf("%s: the open holds nothing", p)
	}
	// An open takes more while it runs than it holds after (peak): the least limit a lone
	// open fits in, of a few tried.
	peak := int64(0)
	for try := used; try < 64*used; try += used {
		f := Open(p, bytes.NewReader(raw), int64(len(raw)), Options{Limits: budget.Limits{Memory: try}, DeferSource: true})
		if f.Budget.First() == nil {
			peak = try
			break
		}
	}
	if peak == 0 {
		t.Fatal("no limit tried fits a lone open")
	}
	// The first open fits; the second, while the first holds what it holds, does not.
	cmd := budget.New(budget.Limits{Memory: peak}) // what the first leaves is peak-used: refused alone
	var files []*File
	for range 2 {
		files = append(files, Open(p, bytes.NewReader(raw), int64(len(raw)), Options{Within: cmd, DeferSource: true}))
	}
	if files[0].Budget.First() != nil || files[0].Budget.Used(budget.Memory) != used {
		t.Fatalf("the first open did not fit: %+v", files[0].Budget.First())
	}
	// The second is refused memory, or leaves out what did not fit.
	if e := files[1].Budget.First(); (e == nil || e.Kind != budget.Memory) && files[1].Budget.Used(budget.Memory) >= used {
		t.Fatalf("the second open got all a lone open holds: %+v", e)
	}
	if cmd.Used(budget.Memory) > cmd.Limit(budget.Memory) {
		t.Fatalf("the command holds %d of %d", cmd.Used(budget.Memory), cmd.Limit(budget.Memory))
	}
	for _, f := range files {
		f.Budget.Done()
	}
	if cmd.Used(budget.Memory) != 0 {
		t.Fatalf("%d held after every open is done", cmd.Used(budget.Memory))
	}
}

// TestDiffManyKeysAndRepeats: an object of many keys is compared key by key (through an
// index), and a repeated key compares by its last value, as Value.Get reads it.
func TestDiffManyKeysAndRepeats(t *testing.T) {
	obj := func(n int, last string) []byte {
		var b strings.Builder
		b.WriteString(`{"r":1,`)
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		b.WriteString(`"r":2,"z":` + last + "}")
		return []byte(b.String())
	}
	n := &doc.Node{}
	diffJSON(n, "m.json", obj(20_000, "0"), obj(20_000, "1"), budget.Native())
	if len(n.Children) != 1 || n.Children[0].Key != "z" || n.Children[0].Kind != DiffChanged {
		t.Fatalf("%d differences: %+v", len(n.Children), n.Children)
	}
	n = &doc.Node{}
	diffJSON(n, "m.json", []byte(`{"x":1,"x":2,"y":1}`), []byte(`{"x":2,"w":3}`), budget.Native())
	if len(n.Children) != 2 || n.Children[0].Key != "y" || n.Children[0].Kind != DiffRemoved || n.Children[1].Key != "w" || n.Children[1].Kind != DiffAdded {
		t.Fatalf("repeated keys: %+v", n.Children)
	}
	// An index the budget refuses: the object is compared by its item count, and a warning
	// names the limit.
	n = &doc.Node{}
	diffJSON(n, "m.json", obj(20_000, "0"), obj(20_000, "1"), budget.Limits{Memory: 1 << 20})
	if len(n.Findings) != 1 || n.Findings[0].Severity != doc.Warning {
		t.Fatalf("past the budget: %+v", n.Findings)
	}
}

// TestHostileDbgClassesCoded: the .dbg classes of issue 30 open with their faults collapsed
// into coded findings that name what was left out.
func TestHostileDbgClassesCoded(t *testing.T) {
	want := map[string]doc.Code{"dbg-wiretype": doc.CodeDbgWireType, "dbg-kernel-paths": doc.CodeDbgNamesLimit, "dbg-attrs": doc.CodeDbgAttrsLimit, "table-loads": doc.CodeISALoadsLimit}
	scale := map[string]float64{"dbg-wiretype": 0.01, "dbg-kernel-paths": 0.07, "dbg-attrs": 0.04, "table-loads": 0.3}
	for _, h := range neffbuild.HostileClasses() {
		code, ok := want[h.Name]
		if !ok {
			continue
		}
		raw := h.Build(scale[h.Name])
		f := Open(h.Name+".neff", bytes.NewReader(raw), int64(len(raw)), Options{})
		n := 0
		f.Doc.Root.Walk(func(_ []string, c *doc.Node) bool {
			for _, fd := range c.Findings {
				if fd.Code == code {
					n++
				}
			}
			return true
		})
		if n == 0 || n > 4 {
			t.Errorf("%s: %d findings coded %s", h.Name, n, code)
		}
	}
}
