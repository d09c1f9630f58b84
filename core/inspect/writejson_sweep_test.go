package inspect

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// WriteJSON drops the JSON stubs it made once written (the forest would keep every nested
// stub's parsed values): the output is the expanded document's, and the forest knows no more
// stubs after it than a page's worth over what it knew before.
func TestWriteJSONForgetsTheStubsItMade(t *testing.T) {
	if testing.Short() {
		t.Skip("-short skips the slow tests; make test-core runs this one")
	}
	var b strings.Builder
	b.WriteString(`{"outer": [`)
	for i := range 3000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("{")
		for k := range 30 {
			if k > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d": [%d, %d]`, k, i, k)
		}
		b.WriteString("}")
	}
	b.WriteString(`]}`)
	ms := append(neffbuild.Sample(), neffbuild.Member{Path: "sg00/nested.json", Data: []byte(b.String())})
	data := neffbuild.Bytes(ms, neffbuild.Options{})
	open := func() *File { return Open("nested.neff", bytes.NewReader(data), int64(len(data)), Options{}) }

	defer func(n int) { sweepOver = n }(sweepOver)
	sweepOver = 16
	f := open()
	fo := f.forest("sg00/nested.json")
	if fo == nil {
		t.Fatal("no forest for the member")
	}
	before := fo.StubCount()
	var got bytes.Buffer
	if _, err := f.WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	after := fo.StubCount()

	e := open()
	made := e.forest("sg00/nested.json")
	expandAll(t, e, e.Doc.Root)
	t.Logf("stubs: %d before, %d after WriteJSON; %d after expanding every one", before, after, made.StubCount())
	if made.StubCount() < before+200 {
		t.Fatalf("the member should make many nested stubs (%d)", made.StubCount())
	}
	if after > before+sweepOver {
		t.Errorf("the forest kept %d stubs after WriteJSON (%d before)", after, before)
	}
	want := marshalDoc(t, e.Doc)
	if !bytes.Equal(got.Bytes(), want) {
		i := 0
		for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
			i++
		}
		t.Fatalf("WriteJSON differs from the expanded document at byte %d:\n got %q\nwant %q", i, got.Bytes()[max(0, i-200):min(got.Len(), i+200)], want[max(0, i-200):min(len(want), i+200)])
	}
	// The stubs it knew before still build.
	var stub []string
	f.Walk(nil, func(p []string, n *doc.Node) bool {
		if IsStub(n) && strings.HasPrefix(n.Ref, "json:sg00/nested.json@") {
			stub = p
			return false
		}
		return true
	})
	if _, _, err := f.Children(stub, 0, 10); stub == nil || err != nil {
		t.Fatalf("a stub of the member after WriteJSON: %v %v", stub, err)
	}
}
