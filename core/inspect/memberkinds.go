package inspect

import (
	"path"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/dvetable"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
)

// memberKind is one kind of NEFF member (the roster of spec neff.md §2.4): how its path is
// matched, what the archive walk does with its bytes, what its content node is, and how
// `neffscope coverage` counts it. A new member kind is a decoder file and one row here.
type memberKind struct {
	name  string                // stable, for tests
	match func(p string) bool   // by path; no two rows match one path (nil: the fallback, last)
	hold  func(size int64) bool // the archive walk holds its bytes whole
	// stream: it may be an engine instruction stream (the manifests say for sure once read):
	// indexed as it streams past, never held whole, read again on demand.
	stream   bool
	describe string                                                 // its bytes node's one line when no builder decodes it
	content  func(f *File, prog *Program, m *neff.Member) *doc.Node // nil, or it returns nil: its bytes
	coverage func(f *File, p string) string                         // its coverage class; nil: its path with sgNN
	// activation: it may belong to the activation tables, and `neffscope eval` reads it at this
	// size (nil: never).
	activation func(p string, size int64) bool
}

// memberKinds is the one table of member kinds. The last row takes every path.
var memberKinds = []memberKind{
	{name: "json", match: isJSONName, hold: func(n int64) bool { return n <= jsonHoldMax }, content: jsonContent, coverage: jsonClass, activation: activationJSON},
	{name: "activation-buckets", match: baseSuffix("_bkt.bin"), hold: holdBlob, describe: "activation-table bucket records (32 bytes each)", coverage: setClass("_bkt.bin"), activation: activationTable},
	{name: "activation-control", match: baseSuffix("_ctrl.bin"), hold: holdBlob, describe: "activation-table octave control words", coverage: setClass("_ctrl.bin"), activation: activationTable},
	{name: "dve-table", match: isDVETable, hold: holdBlob, describe: "DVE table", content: dveContent},
	// A default_*_table.bin of no known layout: the manifests say whether it is a stream.
	{name: "dve-table-unknown", match: func(p string) bool { return looksDVETable(p) && !isDVETable(p) }, hold: never, stream: true, describe: "DVE table", content: streamContent},
	{name: "instruction-stream", match: isStreamName, hold: never, stream: true, describe: "engine instruction stream (64-byte words)", content: streamContent, coverage: streamClass},
	{name: "numpy", match: baseSuffix(".npy"), hold: upTo(manifest.NpyHeldBytes), describe: "NumPy array (constant)", coverage: func(_ *File, p string) string { return dirOf(p) + "*.npy" }},
	// The .dbg members are scanned as they stream past (srcmap.Scans), never held for the joins;
	// small ones are held so their tree is built on demand without reading the archive again.
	{name: "debug-info", match: isDbgName, hold: func(n int64) bool { return n <= dbgHoldMax }, describe: "debug information (protobuf)", content: dbgContent, coverage: dbgClass},
	{name: "other", hold: upTo(1 << 20), describe: "binary data"},
}

// dbgHoldMax is the largest .dbg member the walk holds (a var so tests can send them all to
// the read-back path, where the page's pool scans them).
var dbgHoldMax int64 = 1 << 20

// memberKindOf is the row of a member path.
func memberKindOf(p string) *memberKind {
	for i := range memberKinds {
		if m := memberKinds[i].match; m != nil && m(p) {
			return &memberKinds[i]
		}
	}
	return &memberKinds[len(memberKinds)-1]
}

// kindIn is the row of a member once the manifests are read: a member they name as an
// engine's stream is a stream whatever its name.
func kindIn(prog *Program, p string) *memberKind {
	if prog != nil && prog.Stream(p) != nil {
		return kindNamed("instruction-stream")
	}
	return memberKindOf(p)
}

func kindNamed(name string) *memberKind {
	for i := range memberKinds {
		if memberKinds[i].name == name {
			return &memberKinds[i]
		}
	}
	return nil
}

// ActivationMember says whether a NEFF member may belong to the activation tables (the
// members `neffscope eval` reads).
func ActivationMember(p string, size int64) bool {
	a := memberKindOf(p).activation
	return a != nil && a(p, size)
}

// activationJSON: act_info.json, an engine JSON or a set's profile, not a debug tree.
func activationJSON(p string, size int64) bool {
	return size <= 8<<20 && !strings.HasPrefix(path.Base(p), "debug")
}

func activationTable(_ string, size int64) bool { return size <= 64<<20 }

// keepInMemory says which members a NEFF open holds whole (neff.Options.Keep).
func keepInMemory(p string, size int64) bool { return memberKindOf(p).hold(size) }

// maybeStream says whether a member may be an engine instruction stream.
func maybeStream(p string) bool { return memberKindOf(p).stream }

func baseSuffix(s string) func(string) bool {
	return func(p string) bool { return strings.HasSuffix(path.Base(p), s) }
}

func upTo(max int64) func(int64) bool { return func(n int64) bool { return n <= max } }

func never(int64) bool { return false }

// blobHoldMax is the largest activation blob or DVE table the archive walk holds (real ones are
// at most 43 KB). A bigger one is read back when it is used, charged to the budget first
// (blobBytes): forty 60 MiB bucket blobs named by no set were 240 MiB held for nothing.
var blobHoldMax int64 = 1 << 20 // a var so tests can force the read-back path

func holdBlob(n int64) bool { return n <= blobHoldMax }

// blobMax bounds the blob a read back takes: past a bucket table's 2^20 records of 32 bytes
// nothing is decoded.
const blobMax = 32 << 20

// blobBytes is a binary member the decoders use (an activation blob, a DVE table): held, or
// read back when the budget grants its size first. keep says the caller holds the bytes for
// the open's life; otherwise the charge is given back (the caller drops them once decoded).
// A refusal is the budget's finding; the bytes are then nil, as for a member that cannot be
// read.
func (f *File) blobBytes(m *neff.Member, keep bool) []byte {
	if m.Truncated {
		return nil
	}
	if m.Data != nil {
		return m.Data
	}
	if m.Size > blobMax || !f.Budget.Take(budget.Memory, m.Size, "member "+strconv.Quote(m.Path)) {
		return nil
	}
	b, err := f.memberBytes(m.Path, blobMax)
	if !keep || err != nil {
		f.Budget.Release(budget.Memory, m.Size)
	}
	if err != nil {
		return nil
	}
	return b
}

func isDVETable(p string) bool { _, ok := dvetable.Match(p); return ok }

// isStreamName: a .bin that no other .bin row takes.
func isStreamName(p string) bool {
	base := path.Base(p)
	return strings.HasSuffix(base, ".bin") && !strings.HasSuffix(base, "_bkt.bin") && !strings.HasSuffix(base, "_ctrl.bin") && !looksDVETable(p)
}

// isDbgName: a name with ".dbg" in it (debug_info_penguin.dbg_sg00 too) that no suffix row takes.
func isDbgName(p string) bool {
	base := path.Base(p)
	return strings.Contains(base, ".dbg") && !isJSONName(p) && !strings.HasSuffix(base, ".bin") && !strings.HasSuffix(base, ".npy")
}

func looksDVETable(p string) bool {
	base := path.Base(p)
	return strings.HasPrefix(base, "default_") && strings.HasSuffix(base, "_table.bin")
}

func streamContent(_ *File, prog *Program, m *neff.Member) *doc.Node {
	if prog == nil {
		return nil
	}
	if ps := prog.Stream(m.Path); ps != nil {
		return prog.streamNode(ps, m)
	}
	return nil
}

func dbgContent(_ *File, prog *Program, m *neff.Member) *doc.Node { return prog.dbgContent(m) }

func dveContent(f *File, _ *Program, m *neff.Member) *doc.Node {
	b := f.blobBytes(m, false)
	if b == nil {
		return nil
	}
	t := dvetable.Decode(m.Path, m.Path, b)
	if !f.keepTree(t, "DVE table "+strconv.Quote(m.Path)) {
		n := &doc.Node{Kind: doc.KindBytes, Label: "content", Value: neff.HumanSize(m.Size), Span: doc.In(m.Path, 0, m.Size), Ref: doc.MemberRef(m.Path)}
		n.Infof(doc.CodeBudgetSkipped, n.Span, "DVE table %s is not decoded: the memory limit was reached (the file's finding says how to raise it); its bytes are in the hex view.", m.Path)
		return n
	}
	t.Ref = doc.MemberRef(m.Path)
	return t
}

// jsonContent is a JSON member as a tree: held, read back, or (too big, or the budget spent)
// its bytes with a finding that says why.
func jsonContent(f *File, _ *Program, m *neff.Member) *doc.Node {
	b := f.Budget
	switch {
	case m.Data != nil:
		return f.jsonNode(m.Data, nil, "content", m.Path)
	case m.Size <= manifest.MaxJSONMember && !m.Truncated && b.First() == nil:
		if in, err := f.readBackJSON(m.Path, m.Size); err == nil {
			if data, err := in.Bytes(); err == nil {
				return f.jsonNode(data, in, "content", m.Path)
			}
		}
	}
	n := &doc.Node{Kind: doc.KindBytes, Label: "content", Value: neff.HumanSize(m.Size), Span: doc.In(m.Path, 0, m.Size), Ref: doc.MemberRef(m.Path)}
	if m.Size > 64<<20 {
		n.Infof(doc.CodeFileTooBig, n.Span, "JSON member %s is %s, larger than the 64 MiB neffscope decodes as a tree; its bytes are in the hex view.", m.Path, neff.HumanSize(m.Size))
	} else if e := b.First(); e != nil {
		n.Infof(doc.CodeBudgetSkipped, n.Span, "JSON member %s (%s) is not decoded as a tree: the %s limit was reached before it (the file's finding says how to raise it); its bytes are in the hex view.", m.Path, neff.HumanSize(m.Size), e.Kind)
	}
	return n
}

// The coverage classes replace subgraph, engine and activation-set names by placeholders, so
// the NEFFs of a corpus add up.

func streamClass(_ *File, p string) string { return dirOf(p) + "<Engine>.bin" }

func jsonClass(f *File, p string) string {
	if f.Program != nil {
		base := path.Base(p)
		for _, c := range f.Program.Model.Cores {
			for _, e := range c.Engines {
				if e.JSONPath == p {
					return dirOf(p) + "<Engine>.json"
				}
				for _, s := range e.ActivationSets {
					if base == s.Name+".json" {
						return dirOf(p) + "<set>.json"
					}
				}
			}
		}
	}
	return normalizeSG(p)
}

func setClass(suffix string) func(*File, string) string {
	return func(f *File, p string) string {
		if f.Program != nil {
			base := path.Base(p)
			for _, c := range f.Program.Model.Cores {
				for _, e := range c.Engines {
					for _, s := range e.ActivationSets {
						if base == s.Name+suffix {
							return dirOf(p) + "<set>" + suffix
						}
					}
				}
			}
		}
		return normalizeSG(p)
	}
}

func dbgClass(_ *File, p string) string {
	dir, base := path.Split(normalizeSG(p))
	for _, eng := range []string{"Activation", "Pool", "PE", "DVE", "SP", "DMA"} {
		if strings.HasSuffix(base, "_"+eng+".dbg") {
			return dir + strings.TrimSuffix(base, eng+".dbg") + "<Engine>.dbg"
		}
	}
	return dir + base
}

// dirOf is the sgNN-normalised directory of a member path, with its slash ("" at the top).
func dirOf(p string) string { dir, _ := path.Split(normalizeSG(p)); return dir }

// normalizeSG replaces every "sg" followed by digits with "sgNN".
func normalizeSG(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == 's' && i+2 < len(p) && p[i+1] == 'g' && p[i+2] >= '0' && p[i+2] <= '9' {
			b.WriteString("sgNN")
			i += 2
			for i+1 < len(p) && p[i+1] >= '0' && p[i+1] <= '9' {
				i++
			}
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
