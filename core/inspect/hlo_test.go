package inspect

import (
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/hlo"
	"github.com/neffscope/neffscope/core/hlo/hlobuild"
)

// An HLO module opens through the registry, plain and gzip'd; a gzip'd one's spans index its
// inflated bytes, which File.Bytes serves; the root carries the graph digest.
func TestOpenHLOModule(t *testing.T) {
	b := hlobuild.Module(hlobuild.Default())
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(b)
	w.Close()
	for _, c := range []struct {
		name string
		data []byte
		src  string
	}{{"model.hlo_module.pb", b, ""}, {"model.hlo_module.pb.gz", gz.Bytes(), hlo.InflatedSource}} {
		f := Open(c.name, bytes.NewReader(c.data), int64(len(c.data)), Options{})
		if f.Doc.Kind != "hlo-module" || f.HLO == nil || f.HLO.Instructions() != 5 || f.Doc.Root.Kind != doc.KindHLOModule {
			t.Fatalf("%s: kind %s, model %v", c.name, f.Doc.Kind, f.HLO)
		}
		// The root carries the graph digest scan and diff name the module by.
		if g := f.Doc.Root.Attrs[AttrGraph]; g == "" || g != f.HLO.GraphDigest() {
			t.Errorf("%s: attrs.graph %q, want %q", c.name, g, f.HLO.GraphDigest())
		}
		var call *doc.Node
		f.Doc.Root.Walk(func(_ []string, n *doc.Node) bool {
			if n.Label == "func_name" && call == nil {
				call = n
			}
			return true
		})
		// A gzip'd module's root names the inflated bytes its spans index.
		if c.src != "" && f.Doc.Root.Ref != doc.MemberRef(c.src) {
			t.Errorf("%s: root ref %q", c.name, f.Doc.Root.Ref)
		}
		if call == nil || call.Span == nil || call.Span.Source != c.src {
			t.Fatalf("%s: the kernel name node %+v", c.name, call)
		}
		got, err := f.Bytes(call.Span.Source, call.Span.Offset, call.Span.Length)
		if err != nil || len(got) != int(call.Span.Length) {
			t.Fatalf("%s: bytes %v %d", c.name, err, len(got))
		}
	}
}
