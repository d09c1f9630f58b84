package inspect

// The source mapping (core/srcmap: each instruction word's kernel source line, through the
// .dbg debug info) as the front door shows it: srcmap reads the open NEFF through srcNEFF, and
// the program's streams are the ones it maps. A .dbg file opened on its own is a registry row
// here too.

import (
	"fmt"
	"io"
	"path"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/srcmap"
)

// srcNEFF is what the source mapping reads of f (srcmap.NEFF).
type srcNEFF struct{ f *File }

func (s srcNEFF) Archive() *neff.Archive       { return s.f.Archive }
func (s srcNEFF) Reader() (io.ReaderAt, int64) { return s.f.r, s.f.Size }
func (s srcNEFF) Budget() *budget.Budget       { return s.f.Budget }
func (s srcNEFF) MemberBytes(member string, most int64) ([]byte, error) {
	return s.f.memberBytes(member, most)
}
func (s srcNEFF) Bytes(member string, off, n int64) ([]byte, error) {
	return s.f.Bytes(member, off, n)
}

// The source mapping's names, for the packages above inspect.
type (
	// Source is where one instruction word came from (Program.Source.Source).
	Source = srcmap.Source
	// LineID names a kernel source line (SourceWords.Line).
	LineID = srcmap.LineID
	// HotLine and HotLines are the kernel lines ranked by instruction words (HotLinesOf).
	HotLine  = srcmap.HotLine
	HotLines = srcmap.HotLines
)

// Keys and attrs of the source node's lines (model › source › lines › <file:line>): srcmap's.
const (
	SourceLines    = srcmap.SourceLines
	AttrSourceFile = srcmap.AttrSourceFile
	AttrSourceLine = srcmap.AttrSourceLine
	AttrKernel     = srcmap.AttrKernel
	AttrWords      = srcmap.AttrWords
)

// SourceIndex is a program's source map (srcmap.Index), its streams named as the program's.
type SourceIndex struct {
	*srcmap.Index
	p *Program
}

// mapSource joins the scans with p's streams.
func mapSource(p *Program, scans *srcmap.Scans) *SourceIndex {
	streams := make([]*manifest.Stream, len(p.Streams))
	for i, ps := range p.Streams {
		streams[i] = &ps.Stream
	}
	return &SourceIndex{scans.Map(streams), p}
}

// Source returns the source of word i of a stream (nil when the NEFF has no debug info for it).
func (x *SourceIndex) Source(member string, i int) *Source {
	if x == nil {
		return nil
	}
	return x.Index.Source(member, i)
}

// SourceOf is Source as a value (srcmap.Index.SourceOf); ok is false on a nil index.
func (x *SourceIndex) SourceOf(member string, i int) (Source, bool) {
	if x == nil {
		return Source{}, false
	}
	return x.Index.SourceOf(member, i)
}

// SourceWords is one stream with debug info.
type SourceWords struct {
	srcmap.Words
	ps *ProgramStream
}

// Stream is the program stream.
func (w SourceWords) Stream() *ProgramStream { return w.ps }

// Streams lists the streams with debug info, in the index's order (nil on a nil index).
func (x *SourceIndex) Streams() []SourceWords {
	if x == nil {
		return nil
	}
	ws := x.Index.Streams()
	out := make([]SourceWords, len(ws))
	for i, w := range ws {
		out[i] = SourceWords{w, x.p.Stream(w.Stream().Member)}
	}
	return out
}

// HotLinesOf ranks f's kernel source lines by the instruction words each produced
// (srcmap.Index.HotLines, charged to f's budget); Pending while an open with DeferSource has
// not mapped them yet.
func HotLinesOf(f *File) *HotLines {
	switch {
	case f == nil || f.Program == nil:
		return &HotLines{}
	case f.sourcePending:
		return &HotLines{Pending: true}
	case f.Program.Source == nil:
		return &HotLines{}
	}
	return f.Program.Source.HotLines(f.Budget)
}

func (f *File) sourceIndex() *SourceIndex {
	if f.Program == nil {
		return nil
	}
	return f.Program.Source
}

func init() { expanders[doc.RefDbg] = expandDbg }

// expandDbg builds the children of a .dbg member's content stub: its tree, from its bytes.
func expandDbg(f *File, stub *doc.Node, from, to int) ([]*doc.Node, int, error) {
	_, member := doc.ParseRef(stub.Ref)
	x := f.sourceIndex()
	if x == nil || x.Members[member] == nil {
		return nil, 0, fmt.Errorf("%w: %s has no scanned .dbg member %q", ErrNotFound, f.Name, member)
	}
	kids, err := x.View(member)
	if err != nil {
		return nil, 0, err
	}
	from, to = clampRange(from, to, len(kids))
	return kids[from:to], len(kids), nil
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
	if x == nil || x.Members[member] == nil {
		return nil, 0, fmt.Errorf("%s has no decoded .dbg member %q", f.Name, member)
	}
	return x.Rows(member, from, to, fit)
}

// dbgContent is the content node of a .dbg member (nil when the member is not debug info): a
// stub whose children are built from its bytes when asked (expandDbg).
func (p *Program) dbgContent(m *neff.Member) *doc.Node {
	if p == nil || p.Source == nil {
		return nil
	}
	return p.Source.MemberContent(m.Path)
}

// ---- a .dbg file opened on its own ----

func matchDbg(name string, _ []byte, _ int64) bool {
	_, _, ok := dbg.Match(name)
	return ok
}

// maxDbgFile bounds a loose .dbg file decoded as a tree.
const maxDbgFile = 64 << 20

func decodeDbg(f *File, opt Options) *doc.Node {
	if f.Size > maxDbgFile {
		n := decodeBinary(f, opt)
		n.Findings = nil
		n.Warnf(doc.CodeFileTooBig, doc.At(0, f.Size), "%s is %s; .dbg files above %s are shown as hex only.", f.Name, neff.HumanSize(f.Size), neff.HumanSize(maxDbgFile))
		return n
	}
	b := make([]byte, f.Size)
	n, _ := f.r.ReadAt(b, 0)
	d := dbg.DecodeFile(path.Base(f.Name), b[:n])
	f.dbg = d
	d.Root.Label = f.Name
	return d.Root
}

// DbgCoverage sums, per .dbg member kind, how the members' bytes are explained (named field,
// field named unknown…, generic protobuf, unread); members not held count as unread. It is the
// .dbg part of the coverage report.
func (f *File) DbgCoverage() map[dbg.Kind]dbg.Coverage {
	out := map[dbg.Kind]dbg.Coverage{}
	if f.Archive == nil {
		return out
	}
	x := f.sourceIndex()
	for _, m := range f.Archive.Members {
		kind, _, ok := dbg.Match(m.Path)
		if !ok {
			continue
		}
		c := out[kind]
		if x != nil && x.Members[m.Path] != nil {
			c.Add(x.Members[m.Path].Coverage)
		} else {
			c.None += m.Size
		}
		out[kind] = c
	}
	return out
}
