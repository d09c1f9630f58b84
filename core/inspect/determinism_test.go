package inspect

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The Document of a file is the same on every open (no map order leaks into it).
func TestDocumentIsDeterministic(t *testing.T) {
	f := openReal(t, "nkipy/matmul_small.neff")
	first, _ := json.Marshal(f.Doc)
	for range 10 {
		g := openReal(t, "nkipy/matmul_small.neff")
		again, _ := json.Marshal(g.Doc)
		if !bytes.Equal(first, again) {
			t.Fatal("two opens of the same NEFF gave different documents")
		}
	}
}
