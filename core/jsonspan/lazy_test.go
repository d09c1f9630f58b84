package jsonspan

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
)

// bigDef is a def.json-like object: a few top keys and one "var" object of n small objects.
func bigDef(n int) []byte {
	var b strings.Builder
	b.WriteString("{\n  \"name\": \"x\",\n  \"var\": {\n")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `    "v%d": {"type": "virtual", "size": %d, "var_id": %d, "ops": []}`, i, i*64, i)
	}
	b.WriteString("\n  },\n  \"tail\": [1, 2, 3]\n}\n")
	return []byte(b.String())
}

// A lazy parse gives the same items, keys, spans and lines as the eager one, builds only
// the container's span, and charges the budget for what it built.
func TestLazyEqualsEager(t *testing.T) {
	src := bigDef(5000)
	eager, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	bud := budget.New(budget.Limits{})
	lazy, err := ParseWith(src, Options{LazyOver: 4096, Budget: bud})
	if err != nil {
		t.Fatal(err)
	}
	if lazy.IsLazy() || !lazy.Get("var").IsLazy() || lazy.Get("tail").IsLazy() {
		t.Fatalf("lazy: root %v var %v tail %v", lazy.IsLazy(), lazy.Get("var").IsLazy(), lazy.Get("tail").IsLazy())
	}
	if got := bud.Used(budget.Values); got > 20 {
		t.Fatalf("the lazy parse kept %d values charged", got)
	}
	ev, lv := eager.Get("var"), lazy.Get("var")
	if ev.Len() != lv.Len() || lv.Len() != 5000 || ev.Start != lv.Start || ev.End != lv.End || ev.Line != lv.Line {
		t.Fatalf("var: eager %d [%d,%d) line %d, lazy %d [%d,%d) line %d", ev.Len(), ev.Start, ev.End, ev.Line, lv.Len(), lv.Start, lv.End, lv.Line)
	}
	i := 0
	for _, it := range lv.Members() {
		e := ev.Items[i]
		if it.Index != i || it.Key != ev.Keys[i] || it.KeyStart != ev.KeyStart[i] || it.V.Start != e.Start || it.V.End != e.End || it.V.Line != e.Line {
			t.Fatalf("item %d: %+v vs eager key %q at %d, [%d,%d) line %d", i, it, ev.Keys[i], ev.KeyStart[i], e.Start, e.End, e.Line)
		}
		if a, b := it.V.Get("size"), e.Get("size"); a.Str != b.Str || a.Start != b.Start {
			t.Fatalf("item %d size %+v vs %+v", i, a, b)
		}
		i++
	}
	if i != 5000 {
		t.Fatalf("All yielded %d items", i)
	}
	if lv.Get("v4999").Get("var_id").Str != "4999" || lv.Get("nope") != nil {
		t.Fatal("Get on a lazy object")
	}
	lv.Each(4998, func(it Item) bool {
		if it.Index != 4998 || it.Key != "v4998" {
			t.Fatalf("Each from 4998: %+v", it)
		}
		return false
	})
	if w := NewForest("m", src, 4096).ValueAt(lv.Get("v17").Start, 2); w == nil || w.Get("var_id").Str != "17" || w.Line != ev.Items[17].Line {
		t.Fatalf("At: %+v", w)
	}
}

// A syntax error inside a lazy container is found by the check pass at its exact byte, and
// the items before it are still listed.
func TestLazySyntaxError(t *testing.T) {
	src := []byte(`[` + strings.Repeat(`"abcdefgh",`, 2000) + `1,,2]`)
	_, eerr := Parse(src)
	v, err := ParseWith(src, Options{LazyOver: 1024})
	if err == nil || eerr == nil || err.Error() != eerr.Error() {
		t.Fatalf("lazy error %v, eager %v", err, eerr)
	}
	if !v.IsLazy() || v.Len() != 2001 {
		t.Fatalf("partial lazy array: lazy %v, %d items", v.IsLazy(), v.Len())
	}
	n := len(v.List())
	if n != 2001 {
		t.Fatalf("All after an error yielded %d", n)
	}
}

// Repeated keys of a lazy object are found (by hash, then bytes) and marked on the item that
// JSON readers ignore.
func TestLazyRepeatedKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 3000 {
		fmt.Fprintf(&b, `"k%d": %d,`, i%1000, i)
	}
	b.WriteString(`"end": 0}`)
	v, err := ParseWith([]byte(b.String()), Options{LazyOver: 1024})
	if err != nil || !v.IsLazy() {
		t.Fatalf("%v lazy %v", err, v.IsLazy())
	}
	dups, n := v.Dups()
	if n != 2000 || len(dups) != maxDups || dups[0].Key != "k0" {
		t.Fatalf("dups %d %+v", n, dups)
	}
	var want map[string]any
	json.Unmarshal([]byte(b.String()), &want)
	rep := 0
	for _, it := range v.Members() {
		if it.Repeated {
			rep++
			continue
		}
		if fmt.Sprint(want[it.Key]) != it.V.Str {
			t.Fatalf("%s: kept %s, encoding/json keeps %v", it.Key, it.V.Str, want[it.Key])
		}
	}
	if rep != 2000 || v.Get("k5").Str != "2005" {
		t.Fatalf("repeated %d, k5 %s", rep, v.Get("k5").Str)
	}
}

// A million-value member parses lazily in bounded memory: the budget of values is charged
// only for what is built (the first 64 KiB, given back when the array turns lazy), so
// nothing is cut.
func TestLazyMillionValues(t *testing.T) {
	src := []byte(`[` + strings.Repeat(`0,`, 999_999) + `0]`)
	bud := budget.New(budget.Limits{Values: 100_000})
	v, err := ParseWith(src, Options{LazyOver: 64 << 10, Budget: bud})
	if err != nil || v.Len() != 1_000_000 {
		t.Fatalf("%v: %d items", err, v.Len())
	}
	if v.Index(999_999).Str != "0" || v.Index(1_000_000) != nil {
		t.Fatal("last item")
	}
	if bud.Used(budget.Values) != 1 || bud.First() != nil {
		t.Fatalf("values charged %d, refusal %+v", bud.Used(budget.Values), bud.First())
	}
}

// nested is a klir-like tree: lists of objects whose "children" are lists again, wide enough
// at several levels to be lazy; one nested object repeats a key.
func nested(depth, width int, b *strings.Builder) {
	b.WriteString("[")
	for i := range width {
		if i > 0 {
			b.WriteString(",\n")
		}
		if depth == 0 {
			fmt.Fprintf(b, `{"inst": {"name": "op%d", "line": %d}}`, i, i)
			continue
		}
		fmt.Fprintf(b, `{"func": {"name": "f%d", "dup": 1, "children": `, i)
		nested(depth-1, width, b)
		b.WriteString(`, "dup": 2}}`)
	}
	b.WriteString("]")
}

// sameTree walks a lazy value and its eager twin together, every item at every depth.
func sameTree(t *testing.T, path string, l, e *Value) int {
	t.Helper()
	if l.Kind != e.Kind || l.Start != e.Start || l.End != e.End || l.Line != e.Line || l.Str != e.Str || l.Len() != e.Len() {
		t.Fatalf("%s: lazy %v [%d,%d) line %d %q len %d, eager %v [%d,%d) line %d %q len %d", path, l.Kind, l.Start, l.End, l.Line, l.Str, l.Len(), e.Kind, e.Start, e.End, e.Line, e.Str, e.Len())
	}
	n := 1
	var eitems []Item
	e.Each(0, func(it Item) bool { eitems = append(eitems, it); return true })
	i := 0
	l.Each(0, func(it Item) bool {
		ei := eitems[i]
		if it.Key != ei.Key || it.KeyStart != ei.KeyStart || it.Repeated != ei.Repeated {
			t.Fatalf("%s[%d]: lazy key %q at %d repeated %v, eager %q at %d repeated %v", path, i, it.Key, it.KeyStart, it.Repeated, ei.Key, ei.KeyStart, ei.Repeated)
		}
		n += sameTree(t, fmt.Sprintf("%s/%d", path, i), it.V, ei.V)
		i++
		return true
	})
	return n
}

// Containers nested in a lazy one are lazy in turn when reached, checked once: the source
// remembers them from the outer check pass, and the tree read through them is the eager one
// (spans, lines, keys, repeated keys, pages from marks).
func TestLazyNestedCheckedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the 12 MB nested sweep runs in make test-core")
	}
	var b strings.Builder
	nested(2, 70, &b) // 70³ leaves, 12 MB
	src := []byte(b.String())
	eager, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	lazy, err := ParseWith(src, Options{LazyOver: 4096})
	if err != nil {
		t.Fatal(err)
	}
	if !lazy.IsLazy() {
		t.Fatal("the top list is not lazy")
	}
	if got := len(lazy.lazy.src.checked); got != 70 {
		t.Fatalf("the check pass remembered %d nested lazy containers, want the 70 children lists of the top list's items (theirs are too small to be lazy)", got)
	}
	first := lazy.Index(7).Get("func").Get("children")
	if !first.IsLazy() {
		t.Fatal("a nested children list is not lazy")
	}
	if k, ok := lazy.lazy.src.recall(int(first.Start)); !ok || k.info != first.lazy {
		t.Fatal("the nested list was checked again instead of recalled")
	}
	if n := sameTree(t, "", lazy, eager); n < 70*70*70 {
		t.Fatalf("walked %d values", n)
	}
	// a page deep in a nested list, from its marks
	deep := lazy.Index(69).Get("func").Get("children")
	deep.Each(65, func(it Item) bool {
		if it.Index != 65 || it.V.Get("func").Get("name").Str != "f65" {
			t.Fatalf("Each from 65: %+v", it)
		}
		return false
	})
}
