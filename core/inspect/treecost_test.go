package inspect

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// manyCores is matmul_small with its sg00 repeated as n cores (each with its DVE tables and
// activation set, as every core of a NEFF carries its own).
func manyCores(t *testing.T, n int) []byte {
	t.Helper()
	src := realfiles.Read(t, "nkipy/matmul_small.neff")
	members, err := neff.ReadMembers(bytes.NewReader(src), int64(len(src)), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := neff.Open(bytes.NewReader(src), int64(len(src)), neff.Options{})
	var kelf strings.Builder
	kelf.WriteString(`{"version": "0.5", "target": "cayman", "graphs": [`)
	for i := range n {
		if i > 0 {
			kelf.WriteByte(',')
		}
		d := "sg" + strconv.Itoa(i)
		kelf.WriteString(`{"definition": "` + d + `/def.json", "name": "` + d + `"}`)
	}
	kelf.WriteString("]}")
	var ms []neffbuild.Member
	for _, m := range a.Members {
		switch {
		case m.Path == "kelf-0.json":
			ms = append(ms, neffbuild.Member{Path: m.Path, Data: []byte(kelf.String())})
		case strings.HasPrefix(m.Path, "sg00/"):
			for i := range n {
				ms = append(ms, neffbuild.Member{Path: "sg" + strconv.Itoa(i) + "/" + strings.TrimPrefix(m.Path, "sg00/"), Data: members[m.Path]})
			}
		case strings.HasPrefix(m.Path, "sg01/"):
		default:
			ms = append(ms, neffbuild.Member{Path: m.Path, Data: members[m.Path]})
		}
	}
	return neffbuild.Bytes(ms, neffbuild.Options{FeatureBits: a.Header.FeatureBits, LNCSize: a.Header.LNCSize})
}

// The decoded DVE tables and activation tables of every core are charged to the open's
// budget: under a limit that the rest of the open fits in but not every core's DVE tables,
// those past it are shown as bytes with budget.skipped, instead of held uncharged (1,000
// cores of matmul_small held 495 MiB after an open whose budget said 256).
func TestDecodedTablesAreCharged(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: two opens of 150 cores")
	}
	b := manyCores(t, 150)
	dve := func(f *File) (decoded, skipped int, cost int64) {
		f.Doc.Root.Walk(func(_ []string, n *doc.Node) bool {
			if n.Label != "content" || n.Span == nil || !looksDVETable(n.Span.Source) {
				return true
			}
			if n.Kind != doc.KindBytes {
				decoded++
				cost += treeCost(n)
			}
			for _, fd := range n.Findings {
				if fd.Code == doc.CodeBudgetSkipped {
					skipped++
				}
			}
			return false
		})
		return decoded, skipped, cost
	}
	open := func(limit int64) *File {
		return Open("cores.neff", bytes.NewReader(b), int64(len(b)), Options{DeferSource: true, Limits: budget.Limits{Memory: limit}})
	}
	whole := open(1 << 30)
	all, _, cost := dve(whole)
	used := whole.Budget.Used(budget.Memory)
	f := open(used - cost/2)
	decoded, skipped, _ := dve(f)
	t.Logf("%d DVE tables (%d B), budget used %d; under %d: %d decoded, %d skipped", all, cost, used, used-cost/2, decoded, skipped)
	if all != 600 || decoded == 0 || skipped == 0 || decoded+skipped != all {
		t.Errorf("%d DVE tables: %d decoded, %d skipped by the budget", all, decoded, skipped)
	}
}
