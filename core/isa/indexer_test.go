package isa

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// sliceSource serves a stream's bytes as a WordSource would from an archive, counting reads.
type sliceSource struct {
	b            []byte
	reads, scans int
	fail         bool
}

func (s *sliceSource) ReadAt(p []byte, off int64) (int, error) {
	s.reads++
	if s.fail {
		return 0, errors.New("the archive cannot be read")
	}
	return copy(p, s.b[off:]), nil
}

func (s *sliceSource) Scan(fn func([]byte) bool) error {
	s.scans++
	for b := s.b; len(b) > 0; {
		n := min(len(b), 4093) // chunks that split words, as an inflater's do
		if !fn(b[:n]) {
			return nil
		}
		b = b[n:]
	}
	return nil
}

// TestIndexedStreamMatchesHeld: a stream indexed chunk by chunk as it streams past, its words
// read back on demand, shows exactly what the held stream shows (counts, findings, two-word
// pairs, rows, text, instructions), on every real stream and on one with a trailing partial
// word and a 0xD4+0xDA pair split across chunks.
func TestIndexedStreamMatchesHeld(t *testing.T) {
	streams := map[string][]byte{}
	for _, p := range realfiles.NEFFs(t) {
		for m, b := range readNEFF(t, p) {
			if strings.HasSuffix(m, ".bin") && len(b) >= WordSize && !strings.Contains(m, "_bkt") && !strings.Contains(m, "_ctrl") && !strings.Contains(m, "table") {
				streams[p+"!"+m] = b
			}
		}
	}
	pair := make([]byte, 3*WordSize+7)
	pair[0], pair[1], pair[0x17] = 0xD4, 0x10, 0x28
	pair[WordSize], pair[2*WordSize], pair[2*WordSize+1] = 0xDA, 0x99, 0x10
	streams["synthetic"] = pair
	for name, b := range streams {
		held := NewStream("s", b)
		x := NewIndexer("s")
		for rest := b; len(rest) > 0; {
			n := min(len(rest), 61) // never a whole word: every word crosses a chunk
			x.Write(rest[:n])
			rest = rest[n:]
		}
		src := &sliceSource{b: b}
		lazy := x.Stream(src)
		if lazy.Held() || !held.Held() {
			t.Fatalf("%s: Held %v/%v", name, held.Held(), lazy.Held())
		}
		if held.Len() != lazy.Len() || held.Trailing() != lazy.Trailing() || !reflect.DeepEqual(held.Counts(), lazy.Counts()) ||
			!reflect.DeepEqual(held.Findings(), lazy.Findings()) || !reflect.DeepEqual(held.seconds, lazy.seconds) || !reflect.DeepEqual(held.loads, lazy.loads) {
			t.Fatalf("%s: the index differs: %d/%d words, findings %v / %v", name, held.Len(), lazy.Len(), held.Findings(), lazy.Findings())
		}
		n := held.Len()
		for _, r := range [][2]int{{0, 50}, {n - 40, n}, {n / 2, n/2 + 30}} {
			if !reflect.DeepEqual(held.Rows(r[0], r[1]), lazy.Rows(r[0], r[1])) {
				t.Fatalf("%s: rows %v differ", name, r)
			}
		}
		if !reflect.DeepEqual(held.Node(n-1), lazy.Node(n-1)) || !reflect.DeepEqual(held.Summary(), lazy.Summary()) {
			t.Fatalf("%s: the last instruction or the summary differs", name)
		}
		var ht, lt bytes.Buffer
		held.WriteText(&ht)
		scans := src.scans
		lazy.WriteText(&lt)
		if ht.String() != lt.String() || src.scans != scans+1 {
			t.Fatalf("%s: the text listing differs (or took %d passes)", name, src.scans-scans)
		}
		k := 0
		for i, in := range lazy.All() {
			if i != k || !reflect.DeepEqual(in, held.Instruction(i)) {
				t.Fatalf("%s: All differs at %d", name, i)
			}
			k++
		}
		if k != n || lazy.Err() != nil {
			t.Fatalf("%s: All gave %d of %d words (err %v)", name, k, n, lazy.Err())
		}
	}
	// A read that fails reads as zeros and is reported, never a panic.
	x := NewIndexer("s")
	x.Write(pair)
	bad := x.Stream(&sliceSource{b: pair, fail: true})
	if rows := bad.Rows(0, 3); len(rows.Rows) != 3 || bad.Err() == nil {
		t.Fatalf("a failing read: %d rows, err %v", len(rows.Rows), bad.Err())
	}
}
