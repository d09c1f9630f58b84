package inspect

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/ncfw"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// The attrs the page reads instead of parsing display text: a context's arch and rc, a dump
// value's line, the payload's integrity and the header's feature names.
func TestAttrs(t *testing.T) {
	a := ncfw.Arches()[0]
	ctx := ncfw.SampleContext(a.ID, ncfw.SamplePatterned)
	text, rc := ncfw.Emit(ctx, "m", a.ID)
	root := OpenContext("ctx.bin", bytes.NewReader(ctx), int64(len(ctx)), a.ID, "m").Doc.Root
	if root.Attrs[doc.AttrArch] != strconv.Itoa(int(a.ID)) || root.Attrs[doc.AttrRC] != strconv.Itoa(rc) {
		t.Errorf("context attrs %v, want arch %d rc %d", root.Attrs, a.ID, rc)
	}
	// Every value of a dump read back has its line, and the line holds the value's text.
	d := Open("dump.txt", bytes.NewReader(text), int64(len(text)), Options{}).Doc
	lines := strings.Split(string(text), "\n")
	seen := 0
	d.Root.Walk(func(_ []string, n *doc.Node) bool {
		l, ok := n.Attrs[doc.AttrLine]
		if !ok {
			return true
		}
		i, err := strconv.Atoi(l)
		if err != nil || i < 1 || i > len(lines) || !strings.Contains(n.Detail, "line "+l) {
			t.Fatalf("%s: line attr %q, detail %q", n.Label, l, n.Detail)
		}
		if n.Span != nil && n.Span.Length > 0 && n.Span.Offset < int64(len(text)) {
			at := strings.Count(string(text[:n.Span.Offset]), "\n") + 1
			if at != i {
				t.Fatalf("%s: line attr %d, but its bytes start on line %d", n.Label, i, at)
			}
		}
		seen++
		return true
	})
	if seen < 10 {
		t.Errorf("only %d dump values carry a line", seen)
	}

	b := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{FeatureBits: 0x400})
	f := Open("a.neff", bytes.NewReader(b), int64(len(b)), Options{})
	if v := f.Doc.Root.Find("payload", "integrity").Attrs[doc.AttrIntegrity]; v != doc.IntegrityOK {
		t.Errorf("integrity attr %q, want ok", v)
	}
	if v, ok := f.Doc.Root.Find("header", "feature_bits").Attrs[doc.AttrFeatures]; !ok || v != "vnc" {
		t.Errorf("features attr %q, want vnc", v)
	}
	b[1024+100] ^= 0xff // a payload byte: the hash no longer matches
	f = Open("a.neff", bytes.NewReader(b), int64(len(b)), Options{})
	if v := f.Doc.Root.Find("payload", "integrity").Attrs[doc.AttrIntegrity]; v != doc.IntegrityMismatch {
		t.Errorf("integrity attr of a damaged payload %q, want mismatch", v)
	}
	none := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{})
	f = Open("b.neff", bytes.NewReader(none), int64(len(none)), Options{})
	if v, ok := f.Doc.Root.Find("header", "feature_bits").Attrs[doc.AttrFeatures]; !ok || v != "" {
		t.Errorf("features attr with no bits %q (set %v), want empty", v, ok)
	}
}
