package jsonspan

import (
	"encoding/json"
	"github.com/neffscope/neffscope/core/doc"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSpansPointAtValues(t *testing.T) {
	src := "\xEF\xBB\xBF{\n  \"a\": [1, -2.5e3, \"x\\u00e9\\ud83d\\ude00\"],\n  \"b\": {\"c\": null, \"d\": true}\n}"
	v, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	a := v.Get("a")
	if a.Len() != 3 || string(src[a.Start:a.End]) != `[1, -2.5e3, "x\u00e9\ud83d\ude00"]` {
		t.Fatalf("array span %d..%d = %q", a.Start, a.End, src[a.Start:a.End])
	}
	if s, _ := a.Index(2).Text(); s != "xé😀" {
		t.Fatalf("decoded string %q", s)
	}
	if f, _ := a.Index(1).Float(); f != -2500 {
		t.Fatalf("number %v", f)
	}
	d := v.Get("b").Get("d")
	if d.Kind != Bool || !d.Bool || d.Line != 3 || src[d.Start:d.End] != "true" {
		t.Fatalf("d = %+v", d)
	}
	tree := Tree(v, "root", "m.json", 0)
	c := tree.Find("b", "c")
	if c == nil || c.Value != "null" || c.Span.Source != "m.json" || src[c.Span.Offset:c.Span.Offset+c.Span.Length] != `"c": null` {
		t.Fatalf("tree node c = %+v", c)
	}
}

func TestErrorsKeepPartialTree(t *testing.T) {
	src := `{"ok": [1,2,3], "bad": [4, 5,, 6]}`
	v, err := Parse([]byte(src))
	if err == nil {
		t.Fatal("expected an error")
	}
	e := err.(*Error)
	if e.Offset != int64(strings.Index(src, ",,")+1) {
		t.Fatalf("error offset %d: %v", e.Offset, err)
	}
	if v == nil || v.Get("ok").Len() != 3 {
		t.Fatalf("partial tree lost: %+v", v)
	}
}

func TestLenient(t *testing.T) {
	src := `{"p": (nil), "q": 0x1, "r": [1, 2,`
	v, err := ParseWith([]byte(src), Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if v.Get("p").Kind != Bare || v.Get("p").Str != "(nil)" || v.Get("q").Str != "0x1" || v.Get("r").Len() != 2 {
		t.Fatalf("lenient parse: %+v", v)
	}
	if _, err := Parse([]byte(`{"p": (nil)}`)); err == nil {
		t.Fatal("strict mode accepted a bare word")
	}
}

func TestDepthBounded(t *testing.T) {
	deep := strings.Repeat("[", 100000)
	if _, err := Parse([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nested") {
		t.Fatalf("deep nesting: %v", err)
	}
}

func TestBudget(t *testing.T) {
	v, _ := Parse([]byte(`[` + strings.Repeat(`1,`, 999) + `1]`))
	// Past the budget the array is a stub: nothing is cut, its children come page by page.
	f := NewForest("", nil, 0)
	n := f.Tree(v, "big", 100)
	if len(n.Children) != 0 || n.Attrs[doc.AttrMore] != "1000" || len(n.Findings) != 0 {
		t.Fatalf("budget: %d children, more %q, %d findings", len(n.Children), n.Attrs[doc.AttrMore], len(n.Findings))
	}
	_, off, ok := ParseRef(n.Ref)
	kids, total, err := f.Children(off, 990, 2000, 100)
	if !ok || err != nil || total != 1000 || len(kids) != 10 || kids[9].PathKey() != "999" || kids[9].Value != "1" {
		t.Fatalf("children of the stub: %v %v total %d, %d kids", ok, err, total, len(kids))
	}
}

// FuzzParse checks the parser against encoding/json: never a panic, and the same verdict on
// strict input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `[1,"a",{"b":null}]`, `"\ud800"`, `-0.5e-3`, `{"a":1,}`, `[01]`, "\xEF\xBB\xBF{}", `{"x": (nil)}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, err := Parse(b)
		_, _ = ParseWith(b, Options{Lenient: true})
		if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
			return // encoding/json rejects a BOM
		}
		if (err == nil) != json.Valid(b) {
			t.Fatalf("verdict differs from encoding/json on %q: %v", b, err)
		}
		if err == nil {
			sameValues(t, b)
		}
	})
}

// sameValues checks valid JSON's values, parsed eagerly and lazily (every container past 16
// bytes and 64 items read back item by item, by Each and by EachTransient), against
// encoding/json's.
func sameValues(t *testing.T, b []byte) {
	t.Helper()
	if !utf8.Valid(b) {
		return // encoding/json decodes bad bytes as U+FFFD; jsonspan keeps them (the spans point at them)
	}
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	var want any
	if err := d.Decode(&want); err != nil {
		return
	}
	w, _ := json.Marshal(want)
	for _, opt := range []Options{{}, {LazyOver: 16}} {
		v, err := ParseWith(b, opt)
		if err != nil {
			t.Fatalf("%+v: %v", opt, err)
		}
		got, _ := json.Marshal(asAny(v, false))
		if string(got) != string(w) {
			t.Fatalf("%+v: values differ from encoding/json's on %q:\n got %s\nwant %s", opt, b, got, w)
		}
		if got, _ = json.Marshal(asAny(v, true)); string(got) != string(w) {
			t.Fatalf("%+v: values read by EachTransient differ from encoding/json's on %q:\n got %s\nwant %s", opt, b, got, w)
		}
	}
}

// asAny is v as encoding/json decodes it with UseNumber (an object's last repeated key wins),
// its containers read by Each or (transient) EachTransient.
func asAny(v *Value, transient bool) any {
	each := v.Each
	if transient {
		each = v.EachTransient
	}
	switch v.Kind {
	case Object:
		m := map[string]any{}
		each(0, func(it Item) bool { m[it.Key] = asAny(it.V, transient); return true })
		return m
	case Array:
		a := []any{}
		each(0, func(it Item) bool { a = append(a, asAny(it.V, transient)); return true })
		return a
	case String:
		return v.Str
	case Number:
		return json.Number(v.Str)
	case Bool:
		return v.Bool
	}
	return nil
}

// Wide and nested containers (lazy ones among them) give encoding/json's values.
func TestValuesMatchEncodingJSON(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"a":[`)
	for i := range 300 {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(`{"k":"v","n":` + strings.Repeat("1", i%7+1) + `,"l":[1,2,{"x":"\u00e9"}],"k":"last"}`)
	}
	sb.WriteString(`],"b":{"c":null,"d":true,"e":"type","f":"type"}}`)
	sameValues(t, []byte(sb.String()))
	sameValues(t, defVars(500))
}
