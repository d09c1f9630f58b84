package inspect

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestRowsLimitPerRequest: one Rows request may materialise at most the budget's rows limit
// (and what the memory limit holds at budget.RowCost a row); past it the request is refused
// with an error naming the limit and the flag that raises it, never cut short.
func TestRowsLimitPerRequest(t *testing.T) {
	b := realfiles.Read(t, "nkipy/matmul_small.neff")
	open := func(l budget.Limits) *File {
		return Open("matmul_small.neff", bytes.NewReader(b), int64(len(b)), Options{Limits: l})
	}
	f := open(budget.Limits{Rows: 5})
	var s *ProgramStream
	for _, c := range f.Program.Streams {
		if c.ISA.Len() > 6 {
			s = c
			break
		}
	}
	if s == nil {
		t.Fatal("matmul_small has no stream of more than 6 instructions")
	}
	ref := doc.StreamRef(s.Member)
	if tab, total, err := f.Rows(ref, 1, 6); err != nil || len(tab.Rows) != 5 || total != s.ISA.Len() {
		t.Fatalf("5 rows under a limit of 5: %v, total %d", err, total)
	}
	// A range running past the end counts only the rows that exist.
	if tab, _, err := f.Rows(ref, s.ISA.Len()-4, s.ISA.Len()+1000); err != nil || len(tab.Rows) != 4 {
		t.Fatalf("the last 4 rows: %v", err)
	}
	// .dbg records are rows too.
	dbg := false
	for member, d := range f.Program.Source.Members {
		if d.N > 5 {
			dbg = true
			if _, _, err := f.Rows(doc.RecordsRef(member), 0, 6); err == nil || !strings.Contains(err.Error(), "rows limit") {
				t.Errorf("6 records of %s under a limit of 5: %v", member, err)
			}
			break
		}
	}
	if !dbg {
		t.Error("matmul_small has no .dbg member of more than 5 records")
	}
	tab, total, err := f.Rows(ref, 0, 6)
	if err == nil || tab != nil || total != s.ISA.Len() {
		t.Fatalf("6 rows under a limit of 5 were served (err %v)", err)
	}
	if !errors.Is(err, budget.ErrLimit) {
		t.Errorf("the refusal is not a budget.ErrLimit (the bridge answers 'limit' for those): %v", err)
	}
	for _, want := range []string{"rows 0..6", "6 rows", "rows limit", "(5)", "neffscope --max-rows N"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal lacks %q: %s", want, err)
		}
	}
	// The memory limit bounds a request too: 512 KiB holds 1,310 rows of 400 bytes, and a
	// 2,000-word PE.bin fits in it (with the rest of the sample) but its whole listing does not.
	var ms []neffbuild.Member
	for _, m := range neffbuild.Sample() {
		if m.Path == "sg00/PE.bin" {
			m.Data = bytes.Repeat(append([]byte{0xcc, 0x10}, make([]byte, 62)...), 2000)
		}
		ms = append(ms, m)
	}
	big := neffbuild.Bytes(ms, neffbuild.Options{})
	f = Open("big.neff", bytes.NewReader(big), int64(len(big)), Options{Limits: budget.Limits{Rows: 1 << 20, Memory: 512 << 10}})
	ref = doc.StreamRef("sg00/PE.bin")
	if tab, total, err := f.Rows(ref, 0, 1310); err != nil || total != 2000 || len(tab.Rows) != 1310 {
		t.Fatalf("1,310 rows under 512 KiB: %v (total %d; %s)", err, total, f.Budget.Message())
	}
	_, _, err = f.Rows(ref, 0, 2000)
	if err == nil || !strings.Contains(err.Error(), "memory limit") || !strings.Contains(err.Error(), "at most 1310 rows") || !strings.Contains(err.Error(), "neffscope --max-memory N") {
		t.Errorf("2,000 rows past a 512 KiB memory limit: %v", err)
	}
}
