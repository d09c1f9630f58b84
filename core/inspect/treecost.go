package inspect

import (
	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
)

// treeCost estimates what a decoded tree holds: budget.NodeCost a node, plus its text.
func treeCost(n *doc.Node) int64 {
	var cost int64
	n.Walk(func(_ []string, c *doc.Node) bool {
		cost += budget.NodeCost + int64(len(c.Label)+len(c.Value)+len(c.Detail))
		if c.Table != nil {
			for _, r := range c.Table.Rows {
				for _, v := range r {
					cost += 16 + int64(len(v))
				}
			}
		}
		return true
	})
	return cost
}

// keepTree charges a decoded tree to the open's budget: false when the budget refuses it, so
// the caller shows the bytes instead. Every core of a NEFF carries its own DVE tables and
// activation tables; decoded for a thousand cores they held more than the budget, uncharged.
func (f *File) keepTree(n *doc.Node, what string) bool {
	return f.Budget.Take(budget.Memory, treeCost(n), what)
}
