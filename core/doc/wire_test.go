package doc_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/tinylib/msgp/msgp"
)

// TestReferenceTypesMatch keeps the msgp reference types (msgpref_test.go) equal to the wire
// types: same fields, same types, same tags. A field added to doc without updating the
// reference (and so the hand-written codecs, which the reference checks) fails here.
func TestReferenceTypesMatch(t *testing.T) {
	pairs := []struct{ real, ref any }{
		{doc.Span{}, refSpan{}}, {doc.Finding{}, refFinding{}}, {doc.Table{}, refTable{}},
		{doc.Series{}, refSeries{}}, {doc.Node{}, refNode{}}, {doc.Document{}, refDocument{}},
	}
	typeName := func(ty reflect.Type) string { // "[]*doc.Node" and "[]*doc_test.refNode" → "[]*Node"
		s := strings.ReplaceAll(ty.String(), "doc_test.ref", "")
		return strings.ReplaceAll(s, "doc.", "")
	}
	for _, p := range pairs {
		real, ref := reflect.TypeOf(p.real), reflect.TypeOf(p.ref)
		if real.NumField() != ref.NumField() {
			t.Errorf("%s has %d fields, its msgp reference %s %d", real, real.NumField(), ref, ref.NumField())
			continue
		}
		for i := range real.NumField() {
			a, b := real.Field(i), ref.Field(i)
			if a.Name != b.Name || a.Tag != b.Tag || typeName(a.Type) != typeName(b.Type) {
				t.Errorf("%s field %d is %s %s `%s`; the msgp reference has %s %s `%s`",
					real, i, a.Name, a.Type, a.Tag, b.Name, b.Type, b.Tag)
			}
		}
	}
}

// Conversions to the reference types.

func refOfSpan(s *doc.Span) *refSpan {
	if s == nil {
		return nil
	}
	r := refSpan(*s)
	return &r
}

func refOfTable(t *doc.Table) *refTable {
	if t == nil {
		return nil
	}
	r := &refTable{Columns: t.Columns, Rows: t.Rows}
	if t.RowSpans != nil {
		r.RowSpans = make([]refSpan, len(t.RowSpans))
		for i, s := range t.RowSpans {
			r.RowSpans[i] = refSpan(s)
		}
	}
	return r
}

func refOfNode(n *doc.Node) *refNode {
	if n == nil {
		return nil
	}
	r := &refNode{Kind: n.Kind, Key: n.Key, Label: n.Label, Value: n.Value, Detail: n.Detail,
		Span: refOfSpan(n.Span), Table: refOfTable(n.Table), Ref: n.Ref}
	if n.Children != nil {
		r.Children = make([]*refNode, len(n.Children))
		for i, c := range n.Children {
			r.Children[i] = refOfNode(c)
		}
	}
	if n.Series != nil {
		r.Series = make([]refSeries, len(n.Series))
		for i, s := range n.Series {
			r.Series[i] = refSeries(s)
		}
	}
	if n.Findings != nil {
		r.Findings = make([]refFinding, len(n.Findings))
		for i, f := range n.Findings {
			r.Findings[i] = refFinding{Severity: f.Severity, Message: f.Message, Span: refOfSpan(f.Span)}
		}
	}
	return r
}

func refOf(d *doc.Document) *refDocument {
	return &refDocument{Model: d.Model, File: d.File, Size: d.Size, Kind: d.Kind, SHA256: d.SHA256, Root: refOfNode(d.Root)}
}

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
			n.Findings[i] = doc.Finding{Severity: g.str(), Message: g.str(), Span: g.span()}
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

// TestWireMatchesMsgp: the hand-written encoder writes the bytes msgp's generated code
// writes, for documents, nodes and tables.
func TestWireMatchesMsgp(t *testing.T) {
	for i, d := range documents(t, true) {
		got, _ := d.MarshalMsg(nil)
		want, err := refOf(d).MarshalMsg(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("document %d: the encoding differs from msgp's at byte %d of %d", i, firstDiff(got, want), len(want))
		}
		if d.Root == nil {
			continue
		}
		got, _ = d.Root.MarshalMsg([]byte{0xc3}) // appends
		want, _ = refOfNode(d.Root).MarshalMsg([]byte{0xc3})
		if !bytes.Equal(got, want) {
			t.Fatalf("document %d: the root node's encoding differs from msgp's", i)
		}
		var tables func(n *doc.Node)
		tables = func(n *doc.Node) {
			if n == nil {
				return
			}
			if n.Table != nil {
				got, _ = n.Table.MarshalMsg(nil)
				want, _ = refOfTable(n.Table).MarshalMsg(nil)
				if !bytes.Equal(got, want) {
					t.Fatalf("document %d: a table's encoding differs from msgp's", i)
				}
			}
			for _, c := range n.Children {
				tables(c)
			}
		}
		tables(d.Root)
	}
	var nilNode *doc.Node
	var nilTable *doc.Table
	if b, _ := nilNode.MarshalMsg(nil); !bytes.Equal(b, []byte{0xc0}) {
		t.Errorf("nil node encodes as % x, want c0", b)
	}
	if b, _ := nilTable.MarshalMsg(nil); !bytes.Equal(b, []byte{0xc0}) {
		t.Errorf("nil table encodes as % x, want c0", b)
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// decodeBoth decodes b as a Document with the hand-written decoder and with msgp's, and
// says whether they agree: both fail, or both succeed with the same rest and the same value
// (compared through msgp's encoder, so NaNs compare equal).
func decodeBoth(t *testing.T, b []byte) {
	t.Helper()
	var mine doc.Document
	restMine, errMine := mine.UnmarshalMsg(b)
	if _, err := msgp.Skip(b); err != nil {
		return // malformed: msgp's decoder may allocate what the input claims; mine must just not panic
	}
	var ref refDocument
	restRef, errRef := ref.UnmarshalMsg(b)
	if (errMine == nil) != (errRef == nil) {
		t.Fatalf("decoding % x: mine says %v, msgp says %v", b, errMine, errRef)
	}
	if errMine != nil {
		return
	}
	if len(restMine) != len(restRef) {
		t.Fatalf("decoding % x: mine leaves %d bytes, msgp %d", b, len(restMine), len(restRef))
	}
	got, _ := refOf(&mine).MarshalMsg(nil)
	want, _ := ref.MarshalMsg(nil)
	if !bytes.Equal(got, want) {
		t.Fatalf("decoding % x: mine and msgp's decode different documents", b)
	}
}

func TestWireDecodeMatchesMsgp(t *testing.T) {
	for _, d := range documents(t, true) {
		b, _ := d.MarshalMsg(nil)
		decodeBoth(t, b)
		var back doc.Document
		if rest, err := back.UnmarshalMsg(append(b, 0x2a)); err != nil || !bytes.Equal(rest, []byte{0x2a}) {
			t.Fatalf("round trip: %v, rest % x", err, rest)
		}
		again, _ := back.MarshalMsg(nil)
		want, _ := refOf(d).MarshalMsg(nil)
		var viaRef refDocument
		viaRef.UnmarshalMsg(want)
		wantAgain, _ := viaRef.MarshalMsg(nil)
		if !bytes.Equal(again, wantAgain) {
			t.Fatal("a round trip through the hand-written codec differs from one through msgp's")
		}
	}
	for name, b := range nonCanonical() {
		t.Run(name, func(t *testing.T) { decodeBoth(t, b) })
	}
}

// nonCanonical are inputs msgp never writes but its decoder reads: wide headers, unsigned
// and float32 numbers, bin keys, unknown keys of every type, repeated keys, truncations.
func nonCanonical() map[string][]byte {
	node := func(extra ...func([]byte) []byte) []byte {
		b := msgp.AppendMapHeader(nil, uint32(2+len(extra)))
		b = msgp.AppendString(msgp.AppendString(b, "kind"), "k")
		b = msgp.AppendString(msgp.AppendString(b, "label"), "l")
		for _, e := range extra {
			b = e(b)
		}
		return b
	}
	docWith := func(root []byte, extra ...func([]byte) []byte) []byte {
		b := append([]byte{0xde, 0, byte(2 + len(extra))}, "\xa4file\xd9\x03a.b\xa4root"...) // map16
		b = append(b, root...)
		for _, e := range extra {
			b = e(b)
		}
		return b
	}
	kv := func(key string, val func([]byte) []byte) func([]byte) []byte {
		return func(b []byte) []byte { return val(msgp.AppendString(b, key)) }
	}
	raw := func(v ...byte) func([]byte) []byte { return func(b []byte) []byte { return append(b, v...) } }
	cases := map[string][]byte{
		"map32 and str16": append([]byte{0xdf, 0, 0, 0, 1, 0xda, 0, 4}, "kind\xdb\x00\x00\x00\x01x"...),
		"uint sizes": docWith(node(), kv("size", raw(0xcf, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)),
			kv("model", raw(0xcd, 0x12, 0x34))),
		"uint64 overflow": docWith(node(), kv("size", raw(0xcf, 0x80, 0, 0, 0, 0, 0, 0, 0))),
		"int8 in int":     docWith(node(), kv("size", raw(0xd0, 0x80))),
		"bin key":         docWith(node(func(b []byte) []byte { return msgp.AppendString(msgp.AppendBytes(b, []byte("ref")), "r") })),
		"unknown keys": docWith(node(
			kv("x1", raw(0xc7, 3, 5, 1, 2, 3)), kv("x8", raw(0xc8, 0, 1, 5, 9)),
			kv("x2", raw(0xd4, 1, 2)), kv("x3", raw(0xd8, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
			kv("x4", raw(0x82, 0xa1, 'a', 0x91, 0xc2, 0xa1, 'b', 0xca, 0, 0, 0, 0)),
			kv("x5", raw(0xc4, 2, 9, 9)), kv("x6", raw(0xcb, 0, 0, 0, 0, 0, 0, 0, 0)), kv("x7", raw(0xc3)))),
		"unknown key bad byte": docWith(node(kv("x", raw(0xc1)))),
		"float32 series": docWith(node(kv("series", raw(0x91, 0x83, 0xa4, 'n', 'a', 'm', 'e', 0xa0,
			0xa1, 'x', 0x92, 0xca, 0x3f, 0xc0, 0, 0, 0xcb, 0x40, 0, 0, 0, 0, 0, 0, 0, 0xa1, 'y', 0x90)))),
		"nil for floats":    docWith(node(kv("series", raw(0x91, 0x81, 0xa1, 'y', 0xc0)))),
		"float32 truncated": docWith(node(kv("series", raw(0x91, 0x81, 0xa1, 'x', 0x91, 0xca, 0x3f)))),
		"int as float":      docWith(node(kv("series", raw(0x91, 0x81, 0xa1, 'x', 0x91, 0x01)))),
		"nil kids and span": docWith(node(kv("kids", raw(0x92, 0xc0, 0x80)), kv("span", raw(0xc0)), kv("table", raw(0xc0)))),
		"repeated keys": docWith(node(kv("kids", raw(0x91, 0x81, 0xa3, 'k', 'e', 'y', 0xa1, 'a')),
			kv("kids", raw(0x92, 0x81, 0xa5, 'l', 'a', 'b', 'e', 'l', 0xa1, 'b', 0x80)),
			kv("span", raw(0x81, 0xa3, 'o', 'f', 'f', 0x05)), kv("span", raw(0x81, 0xa3, 'l', 'e', 'n', 0x06)))),
		"empty arrays": docWith(node(kv("kids", raw(0x90)), kv("finds", raw(0xdc, 0, 0)), kv("series", raw(0xdd, 0, 0, 0, 0)),
			kv("table", raw(0x83, 0xa4, 'c', 'o', 'l', 's', 0x90, 0xa4, 'r', 'o', 'w', 's', 0x91, 0x90, 0xa6, 'r', 's', 'p', 'a', 'n', 's', 0x90)))),
		"nil root":          docWith([]byte{0xc0}),
		"str for int":       docWith(node(), kv("size", raw(0xa1, '1'))),
		"not a map":         {0x93, 1, 2, 3},
		"empty":             {},
		"truncated":         docWith(node())[:20],
		"key not string":    {0x81, 0x01, 0x02},
		"array claims more": docWith(node(kv("kids", raw(0xdd, 0xff, 0xff, 0xff, 0xff)))),
		"trailing bytes":    append(docWith(node()), 1, 2, 3),
	}
	return cases
}

// FuzzWireDecode: any bytes decode without a panic, and agree with msgp's decoder.
func FuzzWireDecode(f *testing.F) {
	for _, b := range nonCanonical() {
		f.Add(b)
	}
	for _, d := range documents(f, true)[:20] {
		b, _ := d.MarshalMsg(nil)
		if len(b) < 4096 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeBoth(t, b)
		var n doc.Node
		n.UnmarshalMsg(b)
		var tb doc.Table
		tb.UnmarshalMsg(b)
	})
}

func TestWireDecodeRefusesHostileInput(t *testing.T) {
	deep := bytes.Repeat([]byte("\x81\xa4kids\x91"), 20000)
	var n doc.Node
	if _, err := n.UnmarshalMsg(deep); err == nil || !strings.Contains(err.Error(), "too deep") {
		t.Errorf("20,000 nested nodes: %v, want a nesting error", err)
	}
	huge := []byte("\x81\xa4kids\xdd\xff\xff\xff\xff")
	if _, err := n.UnmarshalMsg(huge); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("an array of 4 G nodes in 10 bytes: %v, want a length error", err)
	}
	if _, err := n.UnmarshalMsg([]byte("\x81\xa4kind\xc3")); err == nil || err.Error() != "kind: msgpack: want str, found type byte 0xc3" {
		t.Errorf("a bool for a string: %v, want an error naming the field", err)
	}
}

// TestJSONMatchesEncodingJSON: Document.JSON writes what json.MarshalIndent(d, "", " ")
// writes, and fails where it fails (NaN and infinities).
func TestJSONMatchesEncodingJSON(t *testing.T) {
	var failures int
	for i, d := range documents(t, true) {
		got, gotErr := d.JSON()
		want, wantErr := json.MarshalIndent(d, "", " ")
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("document %d: error %v, encoding/json says %v", i, gotErr, wantErr)
		}
		if gotErr != nil {
			failures++
			if gotErr.Error() != wantErr.Error() {
				t.Errorf("document %d: error %q, encoding/json says %q", i, gotErr, wantErr)
			}
			continue
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("document %d: JSON differs from encoding/json's at byte %d:\n%s\n---\n%s", i, firstDiff(got, want),
				clip(got, firstDiff(got, want)), clip(want, firstDiff(got, want)))
		}
	}
	if failures == 0 {
		t.Error("no document had a NaN or infinity: the error path is untested")
	}
}

// TestNodeJSONMatchesEncodingJSON: NodeJSON(n, k) writes what json.MarshalIndent(n, "", k
// spaces) writes, for every indent the CLI uses (diff --json: 2) and others.
func TestNodeJSONMatchesEncodingJSON(t *testing.T) {
	checked := 0
	for i, d := range documents(t, true) {
		for _, k := range []int{0, 1, 2, 4} {
			got, gotErr := doc.NodeJSON(d.Root, k)
			want, wantErr := json.MarshalIndent(d.Root, "", strings.Repeat(" ", k))
			if (gotErr == nil) != (wantErr == nil) {
				t.Fatalf("document %d, indent %d: error %v, encoding/json says %v", i, k, gotErr, wantErr)
			}
			if gotErr != nil {
				continue
			}
			if !bytes.Equal(got, want) {
				at := firstDiff(got, want)
				t.Fatalf("document %d, indent %d: JSON differs from encoding/json's at byte %d:\n%s\n---\n%s", i, k, at, clip(got, at), clip(want, at))
			}
			checked++
		}
	}
	if got, _ := doc.NodeJSON(nil, 2); string(got) != "null" {
		t.Errorf("NodeJSON(nil) = %q, want null", got)
	}
	if checked == 0 {
		t.Fatal("no node was compared")
	}
}

func clip(b []byte, at int) []byte { return b[max(0, at-80):min(len(b), at+80)] }

// FuzzJSONString: any string, wherever it sits, is escaped as encoding/json escapes it.
func FuzzJSONString(f *testing.F) {
	for _, s := range genStrings {
		f.Add(s, 1.5)
	}
	f.Add("\u2029\xed\xa0\x80", 1e-7)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		d := &doc.Document{File: s, Root: &doc.Node{Kind: s, Label: "l", Value: s,
			Table:  &doc.Table{Columns: []string{s}, Rows: [][]string{{s, s}}},
			Series: []doc.Series{{Name: s, X: []float64{x}, Y: []float64{-x}}}}}
		got, gotErr := d.JSON()
		want, wantErr := json.MarshalIndent(d, "", " ")
		if (gotErr == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%q, %v: JSON\n%s (%v)\nencoding/json\n%s (%v)", s, x, got, gotErr, want, wantErr)
		}
	})
}

func TestWireDecodeErrorPath(t *testing.T) {
	b := []byte("\x81\xa4root\x81\xa4kids\x92\x80\x81\xa4span\x81\xa3off\xa1x")
	var d doc.Document
	_, err := d.UnmarshalMsg(b)
	if want := "root.kids.1.span.off: msgpack: want int, found type byte 0xa1"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestWireEncodesInOneAllocation: the size bound holds, so encoding never copies the bytes
// it has written into a bigger array.
func TestWireEncodesInOneAllocation(t *testing.T) {
	for i, d := range documents(t, true)[:100] {
		if n := testing.AllocsPerRun(1, func() { d.MarshalMsg(nil) }); n != 1 {
			t.Errorf("document %d: %v allocations", i, n)
		}
		if d.Root == nil {
			continue
		}
		if n := testing.AllocsPerRun(1, func() { d.Root.MarshalMsg(nil) }); n != 1 {
			t.Errorf("document %d root node: %v allocations", i, n)
		}
	}
}
