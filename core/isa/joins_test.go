package isa

import "testing"

// TestJoinsMatchAccessors: an opcode is in the joins table exactly when one of the accessors
// the joins read answers for it, and with the join that accessor feeds.
func TestJoinsMatchAccessors(t *testing.T) {
	for op := range 256 {
		w := make([]byte, WordSize)
		w[0] = byte(op)
		want := JoinNone
		_, set := SetIndexOf(w)
		_, fn := FuncCodeOf(w)
		if set || fn {
			want = JoinActivation
		}
		_, block := BlockIDOf(w)
		_, _, direct := Direct2dAddrs(w)
		if block || direct {
			if want != JoinNone {
				t.Fatalf("opcode %#x feeds two joins", op)
			}
			want = JoinDMA
		}
		if got := JoinOf(uint8(op)); got != want {
			t.Errorf("opcode %#x: JoinOf %d, its accessors say %d", op, got, want)
		}
	}
}
