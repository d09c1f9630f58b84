package inspect

// An open with Options.DeferSource leaves out the .dbg scans and the source-line joins: info
// prints neither, and the page shows the overview first (they were a third of a small NEFF's
// open in wasm, half of a big one's natively). IndexSource maps them afterwards, in one more
// pass over the archive for the members not held, and ApplySource puts them in the Document as
// an eager open would have: the model's source node, the .dbg members' content, the findings
// and the overview's source answer.

import (
	"context"
	"errors"
	"io"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/srcmap"
)

// SourcePending says whether an open NEFF's source lines are still to be mapped (the open had
// Options.DeferSource and the NEFF has .dbg members).
func (f *File) SourcePending() bool { return f.sourcePending }

// MappedSource is what IndexSource mapped, for ApplySource.
type MappedSource struct {
	x *SourceIndex
}

// IndexSource maps the source lines an open with DeferSource left out, reading the members not
// held back out of the archive through r (nil: the open's reader; a caller running it beside
// other calls gives it a reader of its own). It changes nothing: ApplySource does. Members
// are admitted on half of what the memory limit leaves, as an eager open's second pass does.
func (f *File) IndexSource(ctx context.Context, r io.ReaderAt) (*MappedSource, error) {
	return f.IndexSourceWith(ctx, r, nil)
}

// IndexSourceWith is IndexSource calling pause (when not nil) between pieces of its work:
// every 64 KiB of a .dbg member scanned, every scan closed, every 4,096 words joined. The
// page's worker has one thread, and its other calls are answered only while it pauses (a 32
// MB file's mapping held the worker ~15 s without one: a listing clicked meanwhile waited).
func (f *File) IndexSourceWith(ctx context.Context, r io.ReaderAt, pause func()) (*MappedSource, error) {
	return f.indexSource(ctx, srcmap.Options{Reader: r, Pause: pause})
}

// indexSource maps the source lines with opt (its Context: ctx).
func (f *File) indexSource(ctx context.Context, opt srcmap.Options) (*MappedSource, error) {
	if !f.sourcePending || f.Program == nil {
		return nil, errors.New("nothing to map: the open mapped the source lines, or the file has no .dbg members")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	opt.Context = ctx
	x := mapSource(f.Program, srcmap.NewScans(srcNEFF{f}, opt))
	if err := ctx.Err(); err != nil {
		// A scan cut short would read as refused by the budget: give its memory back.
		for _, c := range x.Members {
			f.Budget.Release(budget.Memory, c.Held())
		}
		return nil, err
	}
	return &MappedSource{x: x}, nil
}

// ApplySource puts what IndexSource mapped in the Document; SourcePending is false after.
func (f *File) ApplySource(s *MappedSource) {
	if s == nil || !f.sourcePending {
		return
	}
	f.sourcePending = false
	p := f.Program
	p.Source = s.x
	root := f.Doc.Root
	if ov := p.Model.Overview; ov != nil && len(p.Streams) > 0 {
		ov.Add(s.x.Node)
	}
	if members := root.Child("members"); members != nil {
		members.Walk(func(_ []string, n *doc.Node) bool {
			if n.Kind != doc.KindMember {
				return true
			}
			_, mp := doc.ParseRef(n.Ref)
			m := f.Archive.Member(mp)
			if m == nil {
				return false
			}
			if t := p.dbgContent(m); t != nil {
				for i, c := range n.Children {
					if c.Label == "content" {
						n.Children[i] = t
					}
				}
			}
			return false
		})
	}
	s.x.WarnSkipped(root)
	if len(root.Children) > 0 && root.Children[0].Kind == doc.KindOverview {
		rest := *root
		rest.Children = root.Children[1:]
		root.Children[0] = Overview(f, &rest)
	}
}

// mapsInOpen says whether a deferred open maps the source lines all the same: the NEFF has
// no .dbg members (nothing to read), or they are all held and hold at most
// Options.DeferSourceOver bytes, and no limit has been reached.
func mapsInOpen(f *File, opt Options) bool {
	n, size := DbgMembers(f.Archive)
	if n == 0 {
		return true
	}
	if opt.DeferSourceOver <= 0 || size > opt.DeferSourceOver || f.Budget.First() != nil {
		return false
	}
	for _, m := range f.Archive.Members {
		if _, _, ok := dbg.Match(m.Path); ok && !m.Truncated && m.Data == nil {
			return false // read back out of the archive: the background's work
		}
	}
	return true
}

// DbgMembers counts the whole .dbg members of a and their bytes (what IndexSource reads).
func DbgMembers(a *neff.Archive) (n int, size int64) {
	if a == nil {
		return 0, 0
	}
	for _, m := range a.Members {
		if _, _, ok := dbg.Match(m.Path); ok && !m.Truncated {
			n++
			size += m.Size
		}
	}
	return n, size
}
