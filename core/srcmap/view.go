package srcmap

import (
	"fmt"

	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
)

// MaxView bounds a member whose tree is built when asked (its bytes are held meanwhile).
const MaxView = 256 << 20

// View returns the children of a scanned member's content tree, built from its bytes (the last
// one built is kept).
func (x *Index) View(member string) ([]*doc.Node, error) {
	if x.Members[member] == nil {
		return nil, fmt.Errorf("no scanned .dbg member %q", member)
	}
	if x.view.member == member {
		return x.view.kids, nil
	}
	b, err := x.src.MemberBytes(member, MaxView)
	if err != nil {
		return nil, err
	}
	return x.SetView(member, b), nil
}

// Viewing is the member whose tree View built last ("": none).
func (x *Index) Viewing() string { return x.view.member }

// SetView builds the children of a member's content tree from its bytes b and keeps them as
// the last one built (b is not kept).
func (x *Index) SetView(member string, b []byte) []*doc.Node {
	v := dbg.DecodeViewStacks(member, b, x.StackFrames())
	// The member's findings are on its content node (the scan found them all): not again here.
	for _, c := range v.Root.Children {
		c.Walk(func(_ []string, n *doc.Node) bool {
			n.Findings = nil
			return true
		})
	}
	x.view.member, x.view.kids = member, v.Root.Children
	return v.Root.Children
}

// StackFrames is the NEFF's stack frames (its stack-frame member's field 6), which an hlo
// member's stack_frame_id fields name; nil when it has none.
func (x *Index) StackFrames() *dbg.StackFrames {
	for _, c := range x.Members {
		if c.Kind == dbg.KindStackFrames && c.Stack != nil {
			return c.Stack
		}
	}
	return nil
}

// Rows serves rows [from, to) of a scanned member's records table: the records are decoded
// from their bytes, read back for the range. fit refuses a range too big for the budget.
func (x *Index) Rows(member string, from, to int, fit func(total int) error) (*doc.Table, int, error) {
	c := x.Members[member]
	if c == nil {
		return nil, 0, fmt.Errorf("no scanned .dbg member %q", member)
	}
	if err := fit(c.N); err != nil {
		return nil, c.N, err
	}
	from = max(0, min(from, c.N))
	to = max(from, min(to, c.N))
	if from == to {
		return dbg.RecordRowsAt(c.Kind, member, nil, from, x.StackFrames()), c.N, nil
	}
	lo, _ := c.Span(from)
	last, n := c.Span(to - 1)
	b, err := x.src.Bytes(member, lo, last+n-lo)
	if err != nil {
		return nil, c.N, fmt.Errorf("reading %s again out of the archive: %w", member, err)
	}
	recs := dbg.RecordsIn(member, b, lo, to-from)
	return dbg.RecordRowsAt(c.Kind, member, recs, from, x.StackFrames()), c.N, nil
}
