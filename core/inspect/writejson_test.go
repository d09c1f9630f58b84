package inspect

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// openEager opens path with JSON laziness off (every JSON node held), as the document was
// before stubs.
func openEager(t *testing.T, path string) *File {
	t.Helper()
	jsonspan.Eager = true
	defer func() { jsonspan.Eager = false }()
	return openPath(t, path)
}

// expandAll replaces every stub by its children, recursively, so the document is what a
// fully held one would be; the test's oracle for WriteJSON.
func expandAll(t *testing.T, f *File, n *doc.Node) {
	if IsStub(n) {
		kids, _, err := f.children(n, 0, ChildCount(n))
		if err != nil {
			t.Fatalf("%s: %v", n.Ref, err)
		}
		delete(n.Attrs, doc.AttrMore)
		if len(n.Attrs) == 0 {
			n.Attrs = nil
		}
		if k, _ := doc.ParseRef(n.Ref); k == doc.RefJSON || k == doc.RefKlir {
			n.Ref = ""
		}
		n.Children = kids
	}
	for _, c := range n.Children {
		expandAll(t, f, c)
	}
}

func marshalDoc(t *testing.T, d *doc.Document) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", " ")
	if err := enc.Encode(d); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// WriteJSON prints the document as if every node were held: byte for byte what encoding/json
// prints for the fully expanded tree, and — for JSON members — what the eager open printed
// before stubs existed.
func TestWriteJSONEqualsEagerDocument(t *testing.T) {
	paths := realfiles.NEFFs(t)
	for _, p := range paths {
		t.Run(p[strings.LastIndexByte(p, '/')+1:], func(t *testing.T) {
			f := openPath(t, p)
			var got bytes.Buffer
			if _, err := f.WriteJSON(&got); err != nil {
				t.Fatal(err)
			}
			e := openEager(t, p)
			expandAll(t, e, e.Doc.Root)
			want := marshalDoc(t, e.Doc)
			if !bytes.Equal(got.Bytes(), want) {
				i := 0
				for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
					i++
				}
				t.Fatalf("WriteJSON differs from the eager document at byte %d:\n got %q\nwant %q", i, got.Bytes()[max(0, i-200):min(got.Len(), i+200)], want[max(0, i-200):min(len(want), i+200)])
			}
		})
	}
}

// A JSON member of a million values is browsable to its last value: nothing is cut, and what
// the open holds of it is a stub.
func TestMillionValueMemberBrowsable(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 1_000_000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(strconv.Itoa(i))
	}
	b.WriteString("]")
	ms := append(neffbuild.Sample(), neffbuild.Member{Path: "sg00/big_table.json", Data: []byte(b.String())})
	data := neffbuild.Bytes(ms, neffbuild.Options{})
	f := Open("big.neff", bytes.NewReader(data), int64(len(data)), Options{})
	if fs := f.Doc.Findings(); doc.Worst(fs) == doc.Error {
		t.Fatalf("error findings: %+v", fs)
	}
	for _, fd := range f.Doc.Findings() {
		if strings.HasPrefix(string(fd.Code), "budget.") { // a limit refused or skipped something
			t.Fatalf("a value was cut: %s", fd.Message)
		}
	}
	var member []string
	f.Walk(nil, func(p []string, n *doc.Node) bool {
		if n.Kind == doc.KindMember && n.Ref == doc.MemberRef("sg00/big_table.json") {
			member = p
			return false
		}
		return true
	})
	if member == nil {
		t.Fatal("no member node")
	}
	content, err := f.Node(append(member, "content"))
	if err != nil || !IsStub(content) || ChildCount(content) != 1_000_000 {
		t.Fatalf("content: %v stub %v count %d", err, IsStub(content), ChildCount(content))
	}
	last, err := f.Node(append(member, "content", "999999"))
	if err != nil || last.Value != "999999" || last.Span.Source != "sg00/big_table.json" || last.Span.Offset != int64(len(b.String())-7) {
		t.Fatalf("last value: %v %+v", err, last)
	}
	path, err := f.Locate("sg00/big_table.json", int64(len(b.String())-3))
	if err != nil || path[len(path)-1] != "999999" {
		t.Fatalf("locate the last value: %v %v", err, path)
	}
}
