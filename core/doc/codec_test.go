package doc_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/tinylib/msgp/msgp"
)

// gen makes documents that reach every branch of the codecs: every msgpack width of str,
// int and array, nil against empty slices, nil children and spans, and strings JSON must
// escape.
type gen struct{ r *rand.Rand }

var (
	genInts = []int64{0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, math.MaxInt32, math.MaxInt32 + 1,
		-1, -32, -33, -128, -129, -32768, -32769, math.MinInt32, math.MinInt32 - 1, math.MaxInt64, math.MinInt64}
	genFloats = []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 1e-6, 9.99e-7, 1e-7, 1e20, 1e21, -1e21,
		123456789.125, 1.0 / 3, math.SmallestNonzeroFloat64, math.MaxFloat64, 3.4028234663852886e38, 1e-300}
	genStrings = []string{"", "a", "pe", "sg00/def.json", "<b>&amp;</b>", "quote \" back \\ slash",
		"tab\tnl\ncr\rbs\bff\f", "\x00\x01\x1f\x7f", "caf\xc3\xa9 ↔ µ", "bad \xff\xfe utf-8", "\xc3", "line\u2028para\u2029",
		"\U0001F600 emoji", strings.Repeat("x", 31), strings.Repeat("y", 32), strings.Repeat("z", 255),
		strings.Repeat("w", 256)}
)

func (g gen) str() string {
	switch g.r.IntN(200) {
	case 0:
		return strings.Repeat("v", 65535+g.r.IntN(2))
	case 1:
		return strings.Repeat("é", 20+g.r.IntN(300))
	}
	return genStrings[g.r.IntN(len(genStrings))]
}

func (g gen) int() int64 {
	if g.r.IntN(3) == 0 {
		return g.r.Int64() >> g.r.IntN(64)
	}
	return genInts[g.r.IntN(len(genInts))]
}

// count is a slice length: usually small, sometimes past the 15 of a fixarray or the 65535
// of an array16. A negative count means a nil slice.
func (g gen) count(allowHuge bool) int {
	switch g.r.IntN(30) {
	case 0:
		return 16 + g.r.IntN(20)
	case 1:
		if allowHuge && g.r.IntN(8) == 0 {
			return 65536 + g.r.IntN(3)
		}
	}
	return g.r.IntN(5) - 1
}

func (g gen) span() *doc.Span {
	if g.r.IntN(3) == 0 {
		return nil
	}
	return &doc.Span{Source: g.str(), Offset: g.int(), Length: g.int()}
}

func (g gen) strs() []string {
	n := g.count(true)
	if n < 0 {
		return nil
	}
	s := make([]string, n)
	for i := range s {
		if n > 100 {
			s[i] = genStrings[i%3] // keep array16/32 cases small
		} else {
			s[i] = g.str()
		}
	}
	return s
}

func (g gen) floats(special bool) []float64 {
	n := g.count(false)
	if n < 0 {
		return nil
	}
	f := make([]float64, n)
	for i := range f {
		f[i] = genFloats[g.r.IntN(len(genFloats))] * float64(1-2*g.r.IntN(2))
		if g.r.IntN(3) == 0 {
			f[i] = g.r.NormFloat64() * math.Pow(10, float64(g.r.IntN(60)-30))
		}
		if special && g.r.IntN(50) == 0 {
			f[i] = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[g.r.IntN(3)]
		}
	}
	return f
}

func (g gen) node(depth int, special bool) *doc.Node {
	n := &doc.Node{Kind: g.str(), Label: g.str()}
	if g.r.IntN(2) == 0 {
		n.Key, n.Value, n.Detail, n.Ref = g.str(), g.str(), g.str(), g.str()
	}
	n.Span = g.span()
	if k := g.count(false); k >= 0 {
		n.Attrs = make(map[string]string, k)
		for range k {
			n.Attrs[g.str()] = g.str()
		}
	}
	if k := g.count(false); depth < 4 && k >= 0 {
		n.Children = make([]*doc.Node, k)
		for i := range n.Children {
			if g.r.IntN(10) > 0 {
				n.Children[i] = g.node(depth+1, special)
			}
		}
	}
	if g.r.IntN(4) == 0 {
		t := &doc.Table{Columns: g.strs()}
		if k := g.count(false); k >= 0 {
			t.Rows = make([][]string, k)
			for i := range t.Rows {
				t.Rows[i] = g.strs()
			}
		}
		if k := g.count(false); k >= 0 {
			t.RowSpans = make([]doc.Span, k)
			for i := range t.RowSpans {
				t.RowSpans[i] = doc.Span{Source: g.str(), Offset: g.int(), Length: g.int()}
			}
		}
		n.Table = t
	}
	if k := g.count(false); g.r.IntN(3) == 0 && k >= 0 {
		n.Series = make([]doc.Series, k)
		for i := range n.Series {
			n.Series[i] = doc.Series{Name: g.str(), X: g.floats(special), Y: g.floats(special)}
		}
	}
	if k := g.count(false); k >= 0 {
		n.Findings = make([]doc.Finding, k)
		for i := range n.Findings {
			n.Findings[i] = doc.Finding{Code: doc.Code(g.str()), Severity: g.str(), Message: g.str(), Span: g.span()}
		}
	}
	return n
}

func (g gen) document(special bool) *doc.Document {
	d := &doc.Document{Model: int(g.int()), File: g.str(), Size: g.int(), Kind: g.str()}
	if g.r.IntN(2) == 0 {
		d.SHA256 = g.str()
	}
	if g.r.IntN(10) > 0 {
		d.Root = g.node(0, special)
	}
	return d
}

func documents(t testing.TB, special bool) []*doc.Document {
	g := gen{rand.New(rand.NewPCG(6, 8))}
	n := 400
	if testing.Short() {
		n = 60
	}
	out := make([]*doc.Document, n)
	for i := range out {
		out[i] = g.document(special)
	}
	return out
}

// TestRoundTrip: every document, node and table msgp writes reads back equal, with nothing
// left over.
func TestRoundTrip(t *testing.T) {
	for i, d := range documents(t, false) {
		b, err := d.MarshalMsg(nil)
		if err != nil {
			t.Fatal(err)
		}
		var back doc.Document
		rest, err := back.UnmarshalMsg(b)
		if err != nil || len(rest) != 0 {
			t.Fatalf("document %d: %v, %d bytes left", i, err, len(rest))
		}
		if !reflect.DeepEqual(normal(d), normal(&back)) {
			t.Fatalf("document %d does not read back equal", i)
		}
		if d.Root == nil {
			continue
		}
		nb, _ := d.Root.MarshalMsg([]byte{0xc3}) // appends
		var n doc.Node
		if rest, err := n.UnmarshalMsg(nb[1:]); err != nil || len(rest) != 0 || !reflect.DeepEqual(normal(d.Root), normal(&n)) {
			t.Fatalf("document %d: the root node does not read back equal (%v)", i, err)
		}
		d.Root.Walk(func(_ []string, n *doc.Node) bool {
			if n.Table == nil {
				return true
			}
			tb, _ := n.Table.MarshalMsg(nil)
			var back doc.Table
			if _, err := back.UnmarshalMsg(tb); err != nil || !reflect.DeepEqual(normal(n.Table), normal(&back)) {
				t.Fatalf("document %d: a table does not read back equal (%v)", i, err)
			}
			return true
		})
	}
}

// normal sets every empty slice and map under v to nil: msgpack does not tell nil from
// empty, and msgp decodes both as nil.
func normal[T any](v *T) *T {
	var rec func(r reflect.Value)
	rec = func(r reflect.Value) {
		switch r.Kind() {
		case reflect.Pointer:
			if !r.IsNil() {
				rec(r.Elem())
			}
		case reflect.Struct:
			for i := range r.NumField() {
				rec(r.Field(i))
			}
		case reflect.Slice, reflect.Map:
			if r.Len() == 0 {
				r.Set(reflect.Zero(r.Type()))
				return
			}
			if r.Kind() == reflect.Slice {
				for i := range r.Len() {
					rec(r.Index(i))
				}
			}
		}
	}
	rec(reflect.ValueOf(v))
	return v
}

// TestWireShape: the field names and omissions the page's decoder (www/src/wire.js) reads.
func TestWireShape(t *testing.T) {
	n := &doc.Node{Kind: doc.KindField, Label: "l", Attrs: map[string]string{doc.AttrLine: "7"}}
	b, _ := n.MarshalMsg(nil)
	var buf bytes.Buffer
	if _, err := msgp.UnmarshalAsJSON(&buf, b); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"kind": "field", "label": "l", "attrs": map[string]any{"line": "7"}}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("wire shape %v, want %v", m, want)
	}
}

// FuzzDecode: any bytes decode without a panic, and what decodes re-encodes to bytes that
// decode to the same thing.
func FuzzDecode(f *testing.F) {
	for _, d := range documents(f, true)[:20] {
		b, _ := d.MarshalMsg(nil)
		if len(b) < 4096 {
			f.Add(b)
		}
	}
	f.Add([]byte("\x81\xa4kids\xdd\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var d doc.Document
		if _, err := d.UnmarshalMsg(b); err == nil {
			again, err := d.MarshalMsg(nil)
			if err != nil {
				t.Fatal(err)
			}
			var back doc.Document
			if _, err := back.UnmarshalMsg(again); err != nil {
				t.Fatalf("a re-encoded document does not decode: %v", err)
			}
			j1, e1 := d.JSON()
			j2, e2 := back.JSON()
			if (e1 == nil) != (e2 == nil) || !bytes.Equal(j1, j2) {
				t.Fatal("a re-encoded document decodes differently")
			}
		}
		var n doc.Node
		n.UnmarshalMsg(b)
		var tb doc.Table
		tb.UnmarshalMsg(b)
	})
}

func TestDecodeRefusesHostileInput(t *testing.T) {
	deep := bytes.Repeat([]byte("\x81\xa4kids\x91"), 20000)
	var n doc.Node
	if _, err := n.UnmarshalMsg(deep); err == nil {
		t.Errorf("20,000 nested nodes with no end decoded without an error")
	}
	huge := []byte("\x81\xa4kids\xdd\xff\xff\xff\xff")
	if _, err := n.UnmarshalMsg(huge); !errors.Is(err, msgp.ErrLimitExceeded) {
		t.Errorf("an array of 4 G nodes in 10 bytes: %v, want a limit error", err)
	}
	if _, err := n.UnmarshalMsg([]byte("\x81\xa4kind\xc3")); err == nil || !strings.Contains(err.Error(), "Kind") {
		t.Errorf("a bool for a string: %v, want an error naming the field", err)
	}
}

// TestJSON: the JSON is encoding/json's, attrs sorted by key and left out when empty, and a
// NaN series value is an error (JSON has no NaN).
func TestJSON(t *testing.T) {
	n := doc.New(doc.KindField, "f", "1")
	n.Attrs = map[string]string{"b": "2", "a": "1"}
	b, err := doc.NodeJSON(n, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"kind\": \"field\",\n  \"label\": \"f\",\n  \"value\": \"1\",\n  \"attrs\": {\n    \"a\": \"1\",\n    \"b\": \"2\"\n  }\n}"
	if string(b) != want {
		t.Errorf("NodeJSON:\n%s\nwant\n%s", b, want)
	}
	if b, _ := doc.NodeJSON(doc.New(doc.KindField, "f", ""), 0); strings.Contains(string(b), "attrs") {
		t.Errorf("no attrs should leave the key out: %s", b)
	}
	d := &doc.Document{Root: &doc.Node{Series: []doc.Series{{X: []float64{math.NaN()}, Y: []float64{1}}}}}
	if _, err := d.JSON(); err == nil {
		t.Error("a NaN series value encoded as JSON")
	}
}

// TestGeneratedCodecIsCurrent: every wire field of every wire type is in msgp's generated
// codec, so a field added to doc.go without `go generate ./core/doc` fails here instead of
// silently never reaching the page.
func TestGeneratedCodecIsCurrent(t *testing.T) {
	gen, err := os.ReadFile("doc_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{doc.Document{}, doc.Node{}, doc.Span{}, doc.Finding{}, doc.Table{}, doc.Series{}} {
		ty := reflect.TypeOf(v)
		for i := range ty.NumField() {
			f := ty.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("msg"), ",")
			if tag == "-" { // not encoded (Node's child index)
				continue
			}
			if !bytes.Contains(gen, []byte(`case "`+tag+`":`)) || !bytes.Contains(gen, []byte("."+f.Name)) {
				t.Errorf("%s.%s (msg %q) is not in doc_gen.go: run go generate ./core/doc", ty.Name(), f.Name, tag)
			}
		}
	}
}

// TestAttrsEncodeSorted: attrs are written with their keys sorted, so a Document encodes to
// the same bytes every time, and an empty map is left out as JSON leaves it out.
func TestAttrsEncodeSorted(t *testing.T) {
	n := doc.New(doc.KindField, "f", "")
	for i := range 20 {
		n.SetAttr(string(rune('t'-i)), strconv.Itoa(i))
	}
	first, _ := n.MarshalMsg(nil)
	for range 20 {
		if again, _ := n.MarshalMsg(nil); !bytes.Equal(again, first) {
			t.Fatal("a node with 20 attrs encoded to different bytes")
		}
	}
	var buf bytes.Buffer
	if _, err := msgp.UnmarshalAsJSON(&buf, first); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.Contains(s, `"attrs":{"a":"19","b":"18",`) {
		t.Errorf("attrs not in key order: %s", s)
	}
	empty := doc.New(doc.KindField, "f", "")
	empty.Attrs = doc.Attrs{}
	if b, _ := empty.MarshalMsg(nil); bytes.Contains(b, []byte("attrs")) {
		t.Error("an empty attrs map was written")
	}
	var back doc.Node
	if _, err := back.UnmarshalMsg([]byte("\x81\xa5attrs\x81\xa1k\xc3")); err == nil || !strings.Contains(err.Error(), "Attrs") {
		t.Errorf("a bool attr value: %v, want an error naming Attrs", err)
	}
	if _, err := back.UnmarshalMsg([]byte("\x81\xa5attrs\xdf\xff\xff\xff\xff")); !errors.Is(err, msgp.ErrLimitExceeded) {
		t.Errorf("a map of 4 G attrs: %v, want a limit error", err)
	}
}
