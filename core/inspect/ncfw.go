package inspect

import (
	"fmt"
	"io"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/ncfw"
)

// maxContextBytes bounds a raw libncfw context or dump read whole (real contexts are a few
// hundred KiB; a dump is cut by the library at 1 MiB).
const maxContextBytes = 64 << 20

func matchNcfwDump(_ string, head []byte, _ int64) bool { return ncfw.Sniff(head) }

// decodeNcfwDump reads libncfw ctx_log text (not strict JSON) into a tree with lines, struct
// offsets (the arch inferred from the text) and where it deviates from what the emulator prints.
func decodeNcfwDump(f *File, _ Options) *doc.Node {
	b, err := f.readAll(maxContextBytes)
	if err != nil {
		n := decodeBinary(f, Options{})
		n.Errorf(doc.CodeNcfwUnreadable, doc.At(0, f.Size), "%v", err)
		return n
	}
	n := ncfw.ReadDocument(b, 0)
	n.Label = f.Name
	n.Ref = doc.FileRef
	return n
}

func (f *File) readAll(limit int64) ([]byte, error) {
	if f.Size > limit {
		return nil, fmt.Errorf("%s is %d bytes; neffscope reads at most %d bytes of this kind of file", f.Name, f.Size, limit)
	}
	b := make([]byte, f.Size)
	n, err := f.r.ReadAt(b, 0)
	if err != nil && err != io.EOF {
		return b[:n], err
	}
	return b[:n], nil
}

// ContextArches lists the serializer's arches for a raw context of size bytes: those whose
// struct fits first, the best guess marked. The page offers them as the arch chooser.
func ContextArches(size int64) *doc.Node {
	n := &doc.Node{Kind: doc.KindNCFWArches, Label: "arch", Detail: "libncfw prints a context differently per arch; a raw context does not say which it is"}
	guess := ncfw.GuessArch(size)
	fits := map[uint32]bool{}
	for _, a := range ncfw.FittingArches(size) {
		fits[a.ID] = true
	}
	t := &doc.Table{Columns: []string{"id", "name", "min_size", "fits", "guess"}}
	for _, a := range ncfw.Arches() {
		t.Rows = append(t.Rows, []string{strconv.Itoa(int(a.ID)), a.Name, strconv.FormatInt(a.MinSize, 10), strconv.FormatBool(fits[a.ID]), strconv.FormatBool(a.ID == guess.ID)})
	}
	n.Table = t
	n.Value = fmt.Sprintf("%s (%d)", guess.Name, guess.ID)
	return n
}

// OpenContext decodes the file as a raw libncfw collective context with the arch the user chose
// (arch 0: the best guess from its size), emulating libncfw_ctx_log: the exact text, the return
// code, the field tree (spans are struct offsets in the file) and the field map linking each
// printed value's text range to its bytes.
func OpenContext(name string, r io.ReaderAt, size int64, arch uint32, model string) *File {
	f := &File{Name: name, Size: size, r: r}
	f.Doc = &doc.Document{Model: doc.ModelVersion, File: name, Size: size, Kind: doc.KindNCFWContext}
	b, err := f.readAll(maxContextBytes)
	if err != nil {
		f.Doc.Root = decodeBinary(f, Options{})
		f.Doc.Root.Errorf(doc.CodeNcfwUnreadable, doc.At(0, size), "%v", err)
		return f
	}
	if arch == 0 {
		arch = ncfw.GuessArch(size).ID
	}
	res := ncfw.EmitTree(b, model, arch)
	root := &doc.Node{Kind: doc.KindNCFWContext, Label: name, Span: doc.At(0, size), Ref: doc.FileRef}
	a, _ := ncfw.ArchByID(arch)
	root.Value = fmt.Sprintf("arch %d (%s), rc %d", arch, a.Name, res.RC)
	root.SetAttr(doc.AttrArch, strconv.FormatUint(uint64(arch), 10)).SetAttr(doc.AttrRC, strconv.Itoa(res.RC))
	switch res.RC {
	case ncfw.RCOK:
		root.Detail = "libncfw_ctx_log would print this text and return 0"
	default:
		root.Detail = fmt.Sprintf("libncfw_ctx_log returns %d", res.RC)
	}
	if res.Tree == nil { // otherwise the field tree's root carries them (once)
		root.Findings = append(root.Findings, res.Findings...)
	}
	archNode := ContextArches(size)
	archNode.Value = fmt.Sprintf("%s (%d)", a.Name, arch)
	root.Add(archNode)
	text := &doc.Node{Kind: doc.KindNCFWText, Label: "text", Value: string(res.Text), Ref: doc.NCFWTextRef}
	text.Detail = fmt.Sprintf("%d bytes, rc %d", len(res.Text), res.RC)
	text.Table = ncfw.FieldTable(res.Fields)
	root.Add(text)
	if res.Tree != nil {
		res.Tree.Label = "fields"
		root.Add(res.Tree)
	}
	f.Doc.Root = root
	return f
}
