package inspect

import (
	"errors"
	"io"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
)

// MemberHashesPending says whether the members' SHA-256 of an open NEFF are still to be
// computed (the open had Options.DeferMemberHashes).
func (f *File) MemberHashesPending() bool { return f.Archive != nil && f.Archive.MemberHashesSkipped }

// HashMembers computes the members' SHA-256 an open with DeferMemberHashes left out, reading
// the archive again (bounded memory, the open's inflate limit). It changes nothing:
// ApplyMemberHashes does, so a caller can compute on one goroutine and apply under its lock.
func (f *File) HashMembers(opt neff.HashOptions) ([]neff.MemberHash, error) {
	return f.HashMembersFrom(f.r, opt)
}

// HashMembersFrom is HashMembers reading the file through r (the same bytes as the open's
// reader: a caller running it beside other calls gives it a reader of its own).
func (f *File) HashMembersFrom(r io.ReaderAt, opt neff.HashOptions) ([]neff.MemberHash, error) {
	if f.Archive == nil {
		return nil, errors.New("not a NEFF: it has no members")
	}
	if opt.MaxInflated <= 0 {
		opt.MaxInflated = f.Budget.Limit(budget.Inflate)
	}
	return f.Archive.HashMembers(r, opt)
}

// ApplyMemberHashes sets the members' SHA-256 on the archive and in the Document (each
// member's detail, the members table's sha256 column) as an open that hashed them would have.
func (f *File) ApplyMemberHashes(list []neff.MemberHash) {
	if f.Archive == nil {
		return
	}
	f.Archive.SetMemberHashes(list)
	if f.Doc == nil || f.Doc.Root == nil {
		return
	}
	// Member nodes, by path in document order: members of one path share a directory, where
	// they stand in archive order.
	nodes := map[string][]*doc.Node{}
	var table *doc.Table
	f.Doc.Root.Walk(func(_ []string, n *doc.Node) bool {
		switch n.Kind {
		case doc.KindArchive:
			if table == nil {
				table = n.Table
			}
		case doc.KindMember:
			if _, p := doc.ParseRef(n.Ref); p != "" {
				nodes[p] = append(nodes[p], n)
			}
			return false
		}
		return true
	})
	for i, m := range f.Archive.Members {
		if q := nodes[m.Path]; len(q) > 0 {
			q[0].Detail = neff.MemberDetail(m)
			nodes[m.Path] = q[1:]
		}
		if table != nil && i < len(table.Rows) && len(table.Rows[i]) > neff.MemberTableHash && table.Rows[i][0] == m.Path {
			table.Rows[i][neff.MemberTableHash] = m.SHA256
		}
	}
}
