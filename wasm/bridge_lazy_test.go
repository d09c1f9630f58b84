//go:build js && wasm

package main

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
	"github.com/tinylib/msgp/msgp"
)

// The lazy document's calls (node, children, search, locate) answer what core/inspect's
// File.Node, Children, Search and Locate answer, whether a node is held or built on demand.

// native opens data as the bridge does (the worker's budget), for comparison.
func native(name string, data []byte) *inspect.File {
	return inspect.Open(name, bytes.NewReader(data), int64(len(data)), inspect.Options{Fingerprint: true, Limits: budget.Page()})
}

// decodeKids decodes children()'s kids: a msgpack array of nodes.
func decodeKids(t *testing.T, v js.Value) []*doc.Node {
	t.Helper()
	b := jsBytes(v)
	n, b, err := msgp.ReadArrayHeaderBytes(b)
	if err != nil {
		t.Fatalf("kids: not a msgpack array: %v", err)
	}
	out := make([]*doc.Node, n)
	for i := range out {
		out[i] = &doc.Node{}
		if b, err = out[i].UnmarshalMsg(b); err != nil {
			t.Fatalf("kids[%d] does not decode: %v", i, err)
		}
	}
	if len(b) != 0 {
		t.Fatalf("kids: %d bytes after the array", len(b))
	}
	return out
}

func jsPath(p []string) []any {
	out := make([]any, len(p))
	for i, k := range p {
		out[i] = k
	}
	return out
}

func goPath(v js.Value) []string {
	if v.IsNull() || v.IsUndefined() {
		return nil
	}
	p := make([]string, v.Length())
	for i := range p {
		p[i] = v.Index(i).String()
	}
	return p
}

// searchAll runs search until next is null, collecting the hits of every event and checking
// their batches and fields.
func (c *testCore) searchAll(h js.Value, q string, max int) (hits [][]string, calls int) {
	c.t.Helper()
	var after any
	for calls = 1; ; calls++ {
		args := map[string]any{"handle": h, "q": q, "max": max}
		if after != nil {
			args["after"] = after
		}
		var got int
		res, err := c.invoke("search", args, func(name string, data js.Value) {
			if name != "hits" {
				c.t.Errorf("search sent event %q", name)
				return
			}
			if n := data.Length(); n == 0 || n > hitsBatch {
				c.t.Errorf("a hits event of %d hits", n)
			}
			for i := range data.Length() {
				hit := data.Index(i)
				if hit.Get("kind").Type() != js.TypeString || hit.Get("label").Type() != js.TypeString {
					c.t.Errorf("hit %d has no kind or label", i)
				}
				hits = append(hits, goPath(hit.Get("path")))
				got++
			}
		})
		if err != nil {
			c.t.Fatalf("search %q: %s %s", q, err.Code, err.Message)
		}
		if got > max {
			c.t.Fatalf("search %q max %d: %d hits in one call", q, max, got)
		}
		if v := res.Get("visited").Int(); v < got || v > searchVisits {
			c.t.Errorf("search %q: visited %d for %d hits", q, v, got)
		}
		next := res.Get("next")
		if next.IsNull() {
			return hits, calls
		}
		after = jsPath(goPath(next))
		if calls > 10000 {
			c.t.Fatal("search does not end")
		}
	}
}

// nativeHits is every hit of q by inspect.Search, page by page.
func nativeHits(t *testing.T, f *inspect.File, q string) [][]string {
	var all [][]string
	var after []string
	for {
		hits, next, err := f.Search(q, after, 1000, 0)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, hits...)
		if next == nil {
			return all
		}
		after = next
	}
}

func TestLazyCallsOnHeldNodes(t *testing.T) {
	file := readFile(t, "nkipy/matmul_small.neff")
	f := native("matmul_small.neff", file)
	c := core(t)
	h := c.openBytes("matmul_small.neff", file).Get("handle")

	// node: the root, a field, and a member's decoded content, as the native Document holds them.
	root := decodeNode(t, c.must("node", map[string]any{"handle": h, "path": []any{}}).Get("node"))
	if root.Kind != f.Doc.Root.Kind || len(root.Children) != len(f.Doc.Root.Children) {
		t.Errorf("node([]) is %s with %d children, want %s with %d", root.Kind, len(root.Children), f.Doc.Root.Kind, len(f.Doc.Root.Children))
	}
	uuid := decodeNode(t, c.must("node", map[string]any{"handle": h, "path": []any{"header", "uuid"}}).Get("node"))
	if want := f.Doc.Root.Find("header", "uuid"); uuid.Value == "" || uuid.Value != want.Value {
		t.Errorf("node(header/uuid) = %q, want %q", uuid.Value, want.Value)
	}
	c.fails("node", map[string]any{"handle": h, "path": []any{"header", "no such key"}}, protocol.NotFound, "no child")
	c.fails("node", map[string]any{"handle": h, "path": "header"}, protocol.BadRequest, "argument path must be Array<string>")
	c.fails("node", map[string]any{"handle": h, "path": []any{"header", 3}}, protocol.BadRequest, "argument path must be Array<string>")
	c.fails("node", map[string]any{"handle": 9999, "path": []any{}}, protocol.NotFound, "no open file")

	// children: the header's fields in two pages, keys and values as held.
	hdr := f.Doc.Root.Child("header")
	total := len(hdr.Children)
	var keys []string
	for from := 0; from < total; from += 7 {
		res := c.must("children", map[string]any{"handle": h, "path": []any{"header"}, "from": from, "to": from + 7})
		if got := res.Get("total").Int(); got != total {
			t.Fatalf("children(header) total %d, want %d", got, total)
		}
		for _, k := range decodeKids(t, res.Get("kids")) {
			keys = append(keys, k.PathKey()+"="+k.Value)
		}
	}
	var want []string
	for _, k := range hdr.Children {
		want = append(want, k.PathKey()+"="+k.Value)
	}
	if !slices.Equal(keys, want) {
		t.Errorf("children(header) paged: %v, want %v", keys, want)
	}
	if kids := decodeKids(t, c.must("children", map[string]any{"handle": h, "path": []any{"header"}, "from": total + 5, "to": total + 9}).Get("kids")); len(kids) != 0 {
		t.Errorf("children past the end: %d kids", len(kids))
	}
	c.fails("children", map[string]any{"handle": h, "path": []any{"header"}, "from": 5, "to": 2}, protocol.BadRequest, "bad range")
	c.fails("children", map[string]any{"handle": h, "path": []any{"nope"}, "from": 0, "to": 2}, protocol.NotFound, "no child")

	// search: the same hits as inspect.Search, in the same order, through continuations.
	for _, q := range []string{"activate", "def.json", "E"} {
		got, _ := c.searchAll(h, q, 1000)
		if want := nativeHits(t, f, q); len(want) == 0 || !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("search %q: %d hits, want the %d of inspect.Search", q, len(got), len(want))
		}
	}
	// A small max pages the same hits in more calls.
	all, _ := c.searchAll(h, "sg00", 1000)
	paged, calls := c.searchAll(h, "sg00", 7)
	if len(all) < 20 || !slices.EqualFunc(all, paged, slices.Equal) || calls < len(all)/7 {
		t.Errorf("search sg00 with max 7: %d hits in %d calls, want the %d of one call", len(paged), calls, len(all))
	}
	if res := c.must("search", map[string]any{"handle": h, "q": ""}); !res.Get("next").IsNull() || res.Get("visited").Int() != 0 {
		t.Error("an empty search must find nothing and end")
	}
	c.fails("search", map[string]any{"handle": h, "q": "x", "max": 0}, protocol.BadRequest, "between 1 and")
	c.fails("search", map[string]any{"handle": h, "q": "x", "after": []any{"nope"}}, protocol.NotFound, "no child")

	// locate: the header's fields, and bytes of members, as inspect.Locate places them.
	for _, tc := range []struct {
		source string
		off    int64
	}{{"", 0}, {"", 8}, {"", 600}, {"", 1023}, {"sg00/def.json", 3}, {"sg00/def.json", 200}} {
		wantP, wantErr := f.Locate(tc.source, tc.off)
		res, err := c.invoke("locate", map[string]any{"handle": h, "source": tc.source, "off": tc.off}, nil)
		if wantErr != nil {
			if err == nil || err.Code != protocol.NotFound {
				t.Errorf("locate(%q, %d): %v, want not-found (%v)", tc.source, tc.off, err, wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("locate(%q, %d): %s %s", tc.source, tc.off, err.Code, err.Message)
			continue
		}
		if got := goPath(res.Get("path")); !slices.Equal(got, wantP) || len(got) == 0 {
			t.Errorf("locate(%q, %d) = %v, want %v", tc.source, tc.off, got, wantP)
		}
	}
	if p := goPath(c.must("locate", map[string]any{"handle": h, "off": 8}).Get("path")); len(p) < 2 || p[0] != "header" {
		t.Errorf("locate(file byte 8) = %v, want a header field", p)
	}
	c.fails("locate", map[string]any{"handle": h, "source": "no/such.bin", "off": 0}, protocol.NotFound, "no node holds")
	c.fails("locate", map[string]any{"handle": h, "off": -1}, protocol.BadRequest, "locate")
}

// bigJSON is a JSON file whose "items" array has n elements (element i is i*3), with a
// needle string as its last element's neighbour under "tail".
func bigJSON(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"meta":{"name":"big"},"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(i * 3))
	}
	b.WriteString(`],"tail":{"deep":{"needle":"zebra-quartz"}}}`)
	return []byte(b.String())
}

// A 50,000-element array opened directly: every element is reachable by children pages and
// by node, search finds what lies past it, and locate places its last byte.
func TestLazyPagesA50000ElementArray(t *testing.T) {
	const n = 50000
	data := bigJSON(n)
	f := native("big.json", data)
	c := core(t)
	h := c.openBytes("big.json", data).Get("handle")
	items := []any{"items"}

	seen := 0
	for from := 0; from < n; {
		res := c.must("children", map[string]any{"handle": h, "path": items, "from": from, "to": from + 25000})
		if total := res.Get("total").Int(); total != n {
			t.Fatalf("children(items) total %d, want %d", total, n)
		}
		kids := decodeKids(t, res.Get("kids"))
		if len(kids) == 0 || len(kids) > int(rangeMax("children")) {
			t.Fatalf("children(items, %d, %d): %d kids (at most %d a call)", from, from+25000, len(kids), int(rangeMax("children")))
		}
		for i, k := range kids {
			if k.PathKey() != strconv.Itoa(from+i) || k.Value != strconv.Itoa((from+i)*3) {
				t.Fatalf("element %d: key %q value %q", from+i, k.PathKey(), k.Value)
			}
		}
		from += len(kids)
		seen = from
	}
	if seen != n {
		t.Fatalf("paged %d elements, want %d", seen, n)
	}
	for _, i := range []int{0, 12345, n - 1} {
		nd := decodeNode(t, c.must("node", map[string]any{"handle": h, "path": []any{"items", strconv.Itoa(i)}}).Get("node"))
		if nd.Value != strconv.Itoa(i*3) || nd.Span == nil || string(data[nd.Span.Offset:nd.Span.Offset+nd.Span.Length]) != nd.Value {
			t.Errorf("node(items/%d) = %+v", i, nd)
		}
	}
	c.fails("node", map[string]any{"handle": h, "path": []any{"items", strconv.Itoa(n)}}, protocol.NotFound, "no child")

	// The needle past the array, and the last element, by search.
	hits, _ := c.searchAll(h, "ZEBRA", 1000)
	if !slices.EqualFunc(hits, [][]string{{"tail", "deep", "needle"}}, slices.Equal) {
		t.Errorf("search zebra: %v", hits)
	}
	hits, _ = c.searchAll(h, strconv.Itoa((n-1)*3), 1000)
	if !slices.ContainsFunc(hits, func(p []string) bool { return slices.Equal(p, []string{"items", strconv.Itoa(n - 1)}) }) {
		t.Errorf("search %d: %v, want items/%d among them", (n-1)*3, hits, n-1)
	}
	// Many hits: the same as inspect.Search, over several calls.
	got, calls := c.searchAll(h, "7", 1000)
	if want := nativeHits(t, f, "7"); len(want) < 2000 || !slices.EqualFunc(got, want, slices.Equal) || calls < 2 {
		t.Errorf("search 7: %d hits in %d calls, want the %d of inspect.Search", len(got), calls, len(want))
	}

	last := bytes.LastIndex(data, []byte(strconv.Itoa((n-1)*3)))
	p := goPath(c.must("locate", map[string]any{"handle": h, "off": last + 1}).Get("path"))
	if !slices.Equal(p, []string{"items", strconv.Itoa(n - 1)}) {
		t.Errorf("locate(%d) = %v, want items/%d", last+1, p, n-1)
	}
	p = goPath(c.must("locate", map[string]any{"handle": h, "source": "", "off": bytes.Index(data, []byte("zebra"))}).Get("path"))
	if !slices.Equal(p, []string{"tail", "deep", "needle"}) {
		t.Errorf("locate(zebra) = %v", p)
	}
	t.Logf("%s: %d elements paged in calls of %d", fmt.Sprint(len(data), " bytes"), n, int(rangeMax("children")))
}

// A stub comes through node as a stub (attrs.more, no children), and a stub whose ref has no
// expander here gives not-found rather than a panic or an empty page.
func TestLazyStubStaysAStub(t *testing.T) {
	stub := &doc.Node{Kind: "array", Label: "big", Ref: "nosuch:x"}
	stub.SetAttr(doc.AttrMore, "70000")
	root := &doc.Node{Kind: "json", Label: "root"}
	root.Add(stub)
	c := core(t)
	h, _, err := c.b.keep(&inspect.File{Name: "stub.json", Doc: &doc.Document{Kind: "json", Root: root}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := decodeNode(t, c.must("node", map[string]any{"handle": h, "path": []any{"big"}}).Get("node"))
	if n.Attrs[doc.AttrMore] != "70000" || len(n.Children) != 0 || n.Ref != "nosuch:x" {
		t.Errorf("node(big) = %+v, want the stub", n)
	}
	c.fails("children", map[string]any{"handle": h, "path": []any{"big"}, "from": 0, "to": 10}, protocol.NotFound, "no way to build")
	c.fails("node", map[string]any{"handle": h, "path": []any{"big", "3"}}, protocol.NotFound, "no way to build")
}
