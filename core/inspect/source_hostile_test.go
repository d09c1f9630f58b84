package inspect

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"google.golang.org/protobuf/encoding/protowire"
)

// TestDbgHostileMembers: .dbg members that are cut, claim a length of 2^62, nest ten thousand
// deep or break the wire format give findings on their content node, never a panic; their
// trees build on demand; the open stays within a small memory limit.
func TestDbgHostileMembers(t *testing.T) {
	var good []byte
	good = protowire.AppendString(protowire.AppendTag(good, 1, protowire.BytesType), "Debug info for one engine's assembly instructions.")
	for i := range 40 {
		rec := protowire.AppendBytes(protowire.AppendTag(nil, 3, protowire.BytesType), protowire.AppendVarint(nil, uint64(i)))
		good = protowire.AppendBytes(protowire.AppendTag(good, 3, protowire.BytesType), rec)
	}
	huge := protowire.AppendVarint(protowire.AppendTag(append([]byte{}, good...), 3, protowire.BytesType), 1<<62)
	deep := []byte{}
	for range 10000 {
		deep = append([]byte{0x1a, byte(min(len(deep), 127))}, deep...)
	}
	members := neffbuild.Sample()
	bad := map[string][]byte{
		"sg00/debug_info_asm_PE.dbg":         good[:len(good)-3],
		"sg00/debug_info_backend_PE.dbg":     huge,
		"sg00/debug_info_asm_Pool.dbg":       deep,
		"sg00/debug_info_backend_Pool.dbg":   append(append([]byte{}, good...), 0x0f, 0xff),
		"debug_info/debug_info_hlo.dbg_sg00": bytes.Repeat([]byte{0xff}, 5000),
	}
	for p, b := range bad {
		members = append(members, neffbuild.Member{Path: p, Data: b})
	}
	nb := neffbuild.Bytes(members, neffbuild.Options{})
	f := Open("hostile.neff", bytes.NewReader(nb), int64(len(nb)), Options{Limits: budget.Limits{Memory: 8 << 20}})
	if f.Program == nil || f.Program.Source == nil {
		t.Fatal("no program")
	}
	for p := range bad {
		var content []string
		var node *doc.Node
		f.Walk(nil, func(path []string, n *doc.Node) bool {
			if n.Label == "content" && n.Span != nil && n.Span.Source == p {
				content, node = path, n
			}
			return content == nil
		})
		if node == nil {
			t.Errorf("%s: no content node", p)
			continue
		}
		if p != "sg00/debug_info_asm_Pool.dbg" && len(node.Findings) == 0 {
			t.Errorf("%s: no finding on its content node", p)
		}
		kids, total, err := f.Children(content, 0, 1<<20)
		if err != nil || len(kids) != total || total != ChildCount(node) {
			t.Errorf("%s: children %d of %d (stub says %d): %v", p, len(kids), total, ChildCount(node), err)
		}
	}
	for _, fd := range f.Doc.Findings() {
		if fd.Code == doc.CodeBudgetMemory {
			t.Errorf("the hostile members passed the memory limit: %s", fd.Message)
		}
	}
}
