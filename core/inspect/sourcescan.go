package inspect

// The .dbg members of a NEFF are scanned as they stream past the archive walk (dbg.Scanner):
// their bytes are not held for the joins, only what the joins need (dbg.Compact), charged to
// the open's memory budget as it grows. A member's own tree is built on demand, from its bytes
// (held when small, read back out of the archive otherwise), by the "dbg:" expander.

import (
	"fmt"
	"strconv"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
)

// dbgScanCost is what a scan holds of a .dbg member, per byte of it, by kind, in per cent
// (measured on the real-shaped NEFFs of internal/bigneff, dbg.Compact.Held after the scan: an asm
// record, ~6.6 bytes a word, keeps its first parent and its length in packed columns, ~2.9
// bytes; a backend record, ~59 bytes, keeps its id, name, attributes, length, first parent and
// its place in the id lookup, ~7.5 bytes). The budget is charged what a scan really holds, as it
// grows; this is the estimate a member is admitted on.
var dbgScanCost = map[dbg.Kind]int64{dbg.KindAsm: 55, dbg.KindBackend: 15}

const dbgScanCostOther = 50

// dbgCost is the estimated cost of scanning and joining a member of size bytes.
func dbgCost(p string, size int64) int64 {
	kind, _, _ := dbg.Match(p)
	c, ok := dbgScanCost[kind]
	if !ok {
		c = dbgScanCostOther
	}
	return size * c / 100
}

// dbgScans runs the scans of one open.
type dbgScans struct {
	b       *budget.Budget
	scans   map[*neff.Member]*dbg.Scanner
	admit   map[string]bool
	refused []string // scans the budget stopped midway, in archive order
	// admitted sums the estimated cost of the members admitted
	admitted int64
}

// dbgShare: the scans may take at most 1/dbgShare of the memory limit in all (the debug info
// of one subgraph comes before its def.json in the archive: on the 32 MB real-shaped NEFF
// 8 MiB of scans before sg00/def.json still leave it room to find the model's streams, 16 do
// not).
const dbgShare = 4

func newDbgScans(b *budget.Budget) *dbgScans {
	return &dbgScans{b: b, scans: map[*neff.Member]*dbg.Scanner{}, admit: map[string]bool{}}
}

// admits decides, before a member streams past, whether it is scanned: its estimated cost may
// take at most half of the memory left and the scans together a quarter of the limit, so the
// manifests after them still fit (the model matters more than its source lines).
func (s *dbgScans) admits(p string, size int64) bool {
	// All scans together may take at most dbgShare of the limit: the manifests that follow
	// (def.json: tens of MB of JSON on a big NEFF) need the rest to find the model's streams.
	cost := dbgCost(p, size)
	ok := cost <= s.b.Left(budget.Memory)/2 && s.admitted+cost <= s.b.Limit(budget.Memory)/dbgShare
	if ok {
		s.admitted += cost
	}
	s.admit[p] = ok
	return ok
}

// visit feeds a member's bytes to its scan.
func (s *dbgScans) visit(m *neff.Member, off int64, chunk []byte) {
	sc := s.scans[m]
	if sc == nil {
		if off != 0 || !s.admit[m.Path] {
			return
		}
		if _, _, ok := dbg.Match(m.Path); !ok {
			return
		}
		sc = dbg.NewScanner(m.Path, m.Size)
		where := "debug info " + strconv.Quote(m.Path)
		sc.Grow = func(n int64) bool { return s.b.Take(budget.Memory, n, where) }
		s.scans[m] = sc
	}
	if sc.Failed() {
		return
	}
	sc.Write(chunk)
	if sc.Failed() {
		s.b.Release(budget.Memory, sc.Charged())
		s.refused = append(s.refused, m.Path)
	}
}

// result is a member's Compact (nil: not scanned, refused, or cut short).
func (s *dbgScans) result(m *neff.Member) *dbg.Compact {
	if s == nil {
		return nil
	}
	sc := s.scans[m]
	if sc == nil || sc.Failed() {
		return nil
	}
	delete(s.scans, m)
	c := sc.Close()
	if c == nil {
		s.b.Release(budget.Memory, sc.Charged())
		return nil
	}
	// Settle the charge on what the Compact holds (the scan's buffers are gone).
	if h := c.Held(); h < sc.Charged() {
		s.b.Release(budget.Memory, sc.Charged()-h)
	}
	return c
}

func (s *dbgScans) take(n int64, where string) bool {
	return s == nil || s.b.Take(budget.Memory, n, where)
}

func (s *dbgScans) release(n int64) {
	if s != nil {
		s.b.Release(budget.Memory, n)
	}
}

func (s *dbgScans) limit() int64 {
	if s == nil {
		return 0
	}
	return s.b.Limit(budget.Memory)
}

func init() { expanders[doc.RefDbg] = expandDbg }

// expandDbg builds the children of a .dbg member's content stub: its tree, from its bytes.
func expandDbg(f *File, stub *doc.Node, from, to int) ([]*doc.Node, int, error) {
	_, member := doc.ParseRef(stub.Ref)
	kids, err := f.dbgView(member)
	if err != nil {
		return nil, 0, err
	}
	from, to = clampRange(from, to, len(kids))
	return kids[from:to], len(kids), nil
}

// maxDbgView bounds a member whose tree is built on demand (its bytes are held meanwhile).
const maxDbgView = 256 << 20

// dbgView returns the children of a member's content tree (the last one built is kept).
func (f *File) dbgView(member string) ([]*doc.Node, error) {
	x := f.sourceIndex()
	if x == nil || x.Members[member] == nil {
		return nil, fmt.Errorf("%s: %s has no scanned .dbg member %q", NotFound, f.Name, member)
	}
	if x.view.member == member {
		return x.view.kids, nil
	}
	b, err := f.memberBytes(member, maxDbgView)
	if err != nil {
		return nil, err
	}
	v := dbg.DecodeView(member, b)
	// The member's findings are on its content node (the scan found them all): not again here.
	for _, c := range v.Root.Children {
		c.Walk(func(_ []string, n *doc.Node) bool {
			n.Findings = nil
			return true
		})
	}
	x.view.member, x.view.kids = member, v.Root.Children
	return v.Root.Children, nil
}

func (f *File) sourceIndex() *SourceIndex {
	if f.Program == nil {
		return nil
	}
	return f.Program.Source
}

// memberBytes returns a whole member's bytes: held, or read back out of the archive.
func (f *File) memberBytes(member string, most int64) ([]byte, error) {
	m := f.Archive.Member(member)
	if m == nil {
		return nil, fmt.Errorf("%s: %s has no member %q", NotFound, f.Name, member)
	}
	if m.Data != nil && !m.Truncated {
		return m.Data, nil
	}
	if m.Size > most {
		return nil, fmt.Errorf("%w: %s is %s, more than the %s neffscope reads back to build a .dbg member's tree", budget.ErrLimit, member, neff.HumanSize(m.Size), neff.HumanSize(most))
	}
	buf := limitedBuffer{max: m.Size, b: make([]byte, 0, m.Size)}
	if err := neff.ReadMemberLimit(f.r, f.Size, member, 0, m.Size, &buf, f.Budget.Limit(budget.Inflate)); err != nil {
		return nil, fmt.Errorf("reading %s again out of the archive: %w", member, err)
	}
	return buf.b, nil
}

// dbgRows serves rows [from, to) of a .dbg member's records table ("records:<member>"; "" the
// .dbg file opened alone): the records are decoded from their bytes, read back for the range.
func (f *File) dbgRows(member string, from, to int, fit func(total int) error) (*doc.Table, int, error) {
	if member == "" && f.dbg != nil {
		d := f.dbg
		if err := fit(len(d.Records)); err != nil {
			return nil, len(d.Records), err
		}
		return d.RecordRows(from, to), len(d.Records), nil
	}
	x := f.sourceIndex()
	var c *dbg.Compact
	if x != nil {
		c = x.Members[member]
	}
	if c == nil {
		return nil, 0, fmt.Errorf("%s has no decoded .dbg member %q", f.Name, member)
	}
	if err := fit(c.N); err != nil {
		return nil, c.N, err
	}
	from, to = clampRange(from, to, c.N)
	if from == to {
		return dbg.RecordRowsAt(c.Kind, member, nil, from), c.N, nil
	}
	lo, _ := c.Span(from)
	last, n := c.Span(to - 1)
	b, err := f.Bytes(member, lo, last+n-lo)
	if err != nil {
		return nil, c.N, fmt.Errorf("reading %s again out of the archive: %w", member, err)
	}
	recs := dbg.RecordsIn(member, b, lo, to-from)
	return dbg.RecordRowsAt(c.Kind, member, recs, from), c.N, nil
}
