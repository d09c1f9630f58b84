package jsonspan

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestResidentLetsGoLeastRecentlyUsed holds inputs on a set of 25 bytes: reading a third input
// of 10 lets go of the one used least recently, and what was let go reads again, the same.
func TestResidentLetsGoLeastRecentlyUsed(t *testing.T) {
	set := NewResident(25)
	reads := map[string]int{}
	mk := func(name string) *Input {
		b := []byte(strings.Repeat(name, 10))
		return set.Input(int64(len(b)), func() ([]byte, error) { reads[name]++; return append([]byte(nil), b...), nil })
	}
	a, b, c := mk("a"), mk("b"), mk("c")
	for _, in := range []*Input{a, b, a, c} { // a used after b: b is the least recent when c comes
		if _, err := in.Bytes(); err != nil {
			t.Fatal(err)
		}
	}
	if !a.Held() || b.Held() || !c.Held() || set.HeldBytes() != 20 {
		t.Fatalf("held a %v b %v c %v, %d bytes; want a and c, 20", a.Held(), b.Held(), c.Held(), set.HeldBytes())
	}
	if got, _ := b.Bytes(); string(got) != strings.Repeat("b", 10) || reads["b"] != 2 || set.Reads != 4 {
		t.Fatalf("b read again: %q, %d reads of b, %d in all", got, reads["b"], set.Reads)
	}
	set.LetGoAll()
	if a.Held() || b.Held() || c.Held() || set.HeldBytes() != 0 {
		t.Fatal("LetGoAll left bytes held")
	}
	// An input larger than the set is still read, alone.
	big := set.Input(100, func() ([]byte, error) { return make([]byte, 100), nil })
	a.Bytes()
	if got, err := big.Bytes(); err != nil || len(got) != 100 || a.Held() {
		t.Fatalf("big: %d bytes, %v; a held %v", len(got), err, a.Held())
	}
}

// TestLazyValuesReadAgain parses a lazy container over a reloadable input, lets the bytes go,
// and reads the items again: the same values, through one more read; a read that fails gives
// no items and a Forest says why.
func TestLazyValuesReadAgain(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"v": [`)
	for i := range 5000 {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(`{"n": ` + strconv.Itoa(i) + `}`)
	}
	sb.WriteString(`]}`)
	src := []byte(sb.String())
	fail := false
	set := NewResident(0)
	in := set.Input(int64(len(src)), func() ([]byte, error) {
		if fail {
			return nil, errors.New("the file changed")
		}
		return append([]byte(nil), src...), nil
	})
	b, err := in.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	v, err := ParseWith(b, Options{LazyOver: 1 << 10, Input: in})
	if err != nil || !v.Get("v").IsLazy() {
		t.Fatalf("parse: %v, lazy %v", err, v.Get("v").IsLazy())
	}
	set.LetGoAll()
	if n, _ := v.Get("v").Index(4321).Get("n").Int(); n != 4321 || set.Reads != 2 {
		t.Fatalf("item 4321 read again: n %d, %d reads", n, set.Reads)
	}
	fo := NewForestOver("m.json", in, 1<<10)
	root := fo.Tree(v, "m.json", 10)
	set.LetGoAll()
	fail = true
	_, off, ok := ParseRef(root.Children[0].Ref)
	if !ok {
		t.Fatalf("v is no stub: %+v", root.Children[0])
	}
	if _, _, err := fo.Children(off, 0, 10, 100); err == nil || !strings.Contains(err.Error(), "the file changed") {
		t.Fatalf("children of a failed read: %v", err)
	}
	fail = false
	if kids, total, err := fo.Children(off, 4990, 5000, 100); err != nil || total != 5000 || len(kids) != 10 {
		t.Fatalf("children read again: %v, %d of %d", err, len(kids), total)
	}
}
