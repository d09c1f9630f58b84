package inspect

import (
	"bytes"
	"os"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestOpensShareTheCommandBudget: files opened Within one budget hold what it allows
// together: a file that fits alone is refused (or leaves out what does not fit) when the
// others hold the rest; the command budget never passes its limit.
func TestOpensShareTheCommandBudget(t *testing.T) {
	p := realfiles.NEFFs(t)[0]
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

// TestHostileDbgClassesCoded: the hostile .dbg classes open with their faults collapsed
// into coded findings that name what was left out.
func TestHostileDbgClassesCoded(t *testing.T) {
	want := map[string]doc.Code{"dbg-wiretype": doc.CodeDbgWireType, "dbg-kernel-paths": doc.CodeDbgNamesLimit, "dbg-attrs": doc.CodeDbgAttrsLimit, "table-loads": doc.CodeISALoadsLimit}
	for name, code := range want {
		raw := hostileRaw(t, name, hostileScale(name)) // the scale where each reaches its cap
		f := Open(name+".neff", bytes.NewReader(raw), int64(len(raw)), Options{})
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
			t.Errorf("%s: %d findings coded %s", name, n, code)
		}
	}
}
