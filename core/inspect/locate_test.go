package inspect

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// Locate finds a byte deep in a JSON stub by halving its items (itemAt): every byte of a
// lazy array of objects, nested arrays and strings — an item's first and last byte, a byte
// inside a nested value, the commas and spaces between items, the brackets — locates the node
// the walk over every page locates.
func TestLocateHalvingAgreesWithTheWalk(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\"tag\": \"x\", \"items\": [")
	for i := range 6000 {
		if i > 0 {
			b.WriteString(", ")
		}
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, `{"id": %d, "name": "v%d", "shape": [%d, 4]}`, i, i, i%7)
		case 1:
			fmt.Fprintf(&b, `"s%d"`, i)
		default:
			fmt.Fprintf(&b, "%d", i*11)
		}
	}
	b.WriteString("], \"tail\": {\"deep\": [1, 2, 3]}}")
	body := []byte(b.String())
	ms := append(neffbuild.Sample(), neffbuild.Member{Path: "sg00/items.json", Data: body})
	data := neffbuild.Bytes(ms, neffbuild.Options{})
	f := Open("loc.neff", bytes.NewReader(data), int64(len(data)), Options{})
	const src = "sg00/items.json"
	// Bytes across the whole member (an odd stride, so they fall on every kind of byte), and
	// around a few items: the byte before an item, its first and last, the one after.
	var offs []int64
	for off := int64(0); off < int64(len(body)); off += int64(len(body))/150 | 1 {
		offs = append(offs, off)
	}
	for _, needle := range []string{`{"id": 0,`, `"s1"`, `{"id": 3000,`, `"s5998"`, "65989"} {
		at := int64(bytes.Index(body, []byte(needle)))
		end := at + int64(len(needle))
		offs = append(offs, at-1, at, at+2, end-1, end)
	}
	offs = append(offs, int64(len(body))-1, int64(bytes.LastIndex(body, []byte("]"))))
	halved := 0
	for _, off := range offs {
		got, gerr := f.Locate(src, off)
		locateLinear = true
		want, werr := f.Locate(src, off)
		locateLinear = false
		if (gerr == nil) != (werr == nil) || !slices.Equal(got, want) {
			t.Fatalf("byte %d (%q): halving %v %v, the walk %v %v", off, body[off:min(off+12, int64(len(body)))], got, gerr, want, werr)
		}
		if i := slices.Index(got, "items"); i >= 0 && i+1 < len(got) {
			halved++ // an item of the stub, or a node inside one
		}
	}
	if halved < len(offs)/2 {
		t.Errorf("only %d of %d bytes located under items: the array was not a stub", halved, len(offs))
	}
}
