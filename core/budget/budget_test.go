package budget

import (
	"strings"
	"testing"
)

func TestTakeRefusesPastTheLimitAndRemembersTheFirst(t *testing.T) {
	b := New(Limits{Values: 10, Memory: 1 << 20})
	if !b.Take(Values, 10, "a") || b.Take(Values, 1, "a.json byte 7") {
		t.Fatal("the 11th value was granted")
	}
	if b.Used(Values) != 10 || b.Left(Values) != 0 {
		t.Fatalf("used %d left %d", b.Used(Values), b.Left(Values))
	}
	if b.Take(Memory, 2<<20, "m") {
		t.Fatal("memory past the limit was granted")
	}
	e := b.First()
	if e == nil || e.Kind != Values || e.Where != "a.json byte 7" {
		t.Fatalf("first refusal %+v", e)
	}
	msg := b.Message()
	for _, s := range []string{"values limit", "a.json byte 7", "memory limit was also reached", "neffscope --max-values N"} {
		if !strings.Contains(msg, s) {
			t.Errorf("message lacks %q: %s", s, msg)
		}
	}
	if b.Limit(Inflate) != Native().Inflate {
		t.Error("a zero limit does not take the native default")
	}
	if b.Take(Values, -1, "x") {
		t.Error("a negative amount was granted")
	}
}

func TestNilBudgetGrantsEverything(t *testing.T) {
	var b *Budget
	if !b.Take(Memory, 1<<40, "x") || !b.Can(Values, 1<<40) || b.First() != nil || b.Message() != "" {
		t.Fatal("a nil budget refused or reported")
	}
}
