package inspect

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// An NTFF opens through the registry as the page's tree and hex view see it: its own kind, the
// header's fields with their spans, the images' words and the queues' records built on demand
// (records: stubs, as children and as rows), a byte located to its field. Another version
// named .ntff is refused with its finding; the other real files are not taken for one.
func TestOpenNTFF(t *testing.T) {
	b := ntffbuild.Bytes(ntffbuild.Sample())
	if p, ok := realfiles.Find("nki-moe/profile_attn_v6_exec_2.ntff"); ok {
		var err error
		if b, err = os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}
	f := Open("p.ntff", bytes.NewReader(b), int64(len(b)), Options{})
	if f.Doc.Kind != "ntff" || f.NTFF == nil || f.Doc.Root.Kind != doc.KindNTFF {
		t.Fatalf("kind %s, root %s", f.Doc.Kind, f.Doc.Root.Kind)
	}
	q, err := f.Node([]string{"data", "queues", "nq0"})
	if err != nil || !IsStub(q) {
		t.Fatalf("the first queue: %v (stub %v)", err, IsStub(q))
	}
	kids, total, err := f.Children([]string{"data", "queues", "nq0"}, 0, 3)
	if err != nil || len(kids) != 3 || total < 3 || kids[2].Kind != doc.KindNTFFRecord || kids[2].Span.Length != 16 || len(kids[2].Children) == 0 {
		t.Fatalf("records: %d of %d, %v", len(kids), total, err)
	}
	rows, _, err := f.Rows(q.Ref, 0, 5)
	if err != nil || len(rows.Rows) != 5 || len(rows.RowSpans) != 5 {
		t.Fatalf("rows: %v %v", rows, err)
	}
	img := f.Doc.Root.Child("data").Child("images").Children[0]
	words, _, err := f.ChildrenOf(img, 0, 2)
	if err != nil || len(words) != 2 || words[0].Kind != doc.KindNTFFWord || !strings.Contains(words[0].Value, "runtime preamble") {
		t.Fatalf("image words %v %v", words, err)
	}
	path, err := f.Locate("", 0x80+2)
	if err != nil || len(path) < 2 || path[0] != "header" {
		t.Errorf("byte 0x82 is under %v (%v), want the header's first field", path, err)
	}
	v5 := append([]byte(nil), b...)
	v5[0] = 5
	g := Open("old.ntff", bytes.NewReader(v5), int64(len(v5)), Options{})
	if g.Doc.Kind != "ntff" || len(g.Doc.Root.Findings) == 0 || g.Doc.Root.Findings[0].Code != doc.CodeNTFFVersion {
		t.Errorf("version 5: kind %s, findings %v", g.Doc.Kind, g.Doc.Root.Findings)
	}
	ids := map[string]bool{}
	for _, u := range Unknowns() {
		ids[u.ID] = true
	}
	if !ids["ntff.host-memory"] || !ids["ntff.trace-b"] {
		t.Error("the NTFF unknowns are not in the joined table")
	}
	// Glob gives paths, not names to Find: each real NEFF is opened (matmul_small at least).
	opened := 0
	for _, p := range realfiles.Glob("*/*.neff") {
		opened++
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if h := Open(filepath.Base(p), bytes.NewReader(data), int64(len(data)), Options{DeferSource: true}); h.Doc.Kind == "ntff" {
			t.Errorf("%s opens as an NTFF", p)
		}
	}
	if opened == 0 {
		t.Error("no real NEFF was opened to check that none reads as an NTFF")
	}
}
