package isa

import (
	"bytes"
	"io"
	"testing"
)

// FuzzDecode feeds arbitrary bytes as a stream: no panic, every field inside its word, every
// listing row and node renderable, and Len/Trailing consistent with the size.
func FuzzDecode(f *testing.F) {
	f.Add(fixturePE())
	f.Add(fixturePool())
	f.Add(activateWord(7, 0x2dc06, 0x02000000))
	f.Add(append(fixturePool(), 0xC1, 0x10, 0x05))
	f.Add([]byte{0x25, 0x10})
	f.Add(bytes.Repeat([]byte{0xFF}, 130))
	for _, l := range layouts {
		w := bytes.Repeat([]byte{0xA5}, WordSize)
		w[0] = l.Opcode
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		s := NewStream("sg00/X.bin", b)
		if s.Len() != len(b)/WordSize || s.Trailing() != len(b)%WordSize {
			t.Fatalf("len %d trailing %d for %d bytes", s.Len(), s.Trailing(), len(b))
		}
		if (s.Trailing() != 0) != (len(s.Findings()) > 0 && s.Findings()[0].Severity == "error") {
			t.Fatalf("trailing %d but findings %v", s.Trailing(), s.Findings())
		}
		for i := 0; i < s.Len() && i < 64; i++ {
			in := s.Instruction(i)
			for _, fl := range in.Fields {
				if fl.Off < 0 || fl.Width <= 0 || fl.Off+fl.Width > WordSize {
					t.Fatalf("#%d %s field %q at %d+%d", i, in.Name, fl.Name, fl.Off, fl.Width)
				}
			}
			if n := s.Node(i); n == nil || n.Span.Offset != int64(i)*WordSize {
				t.Fatalf("#%d node %+v", i, n)
			}
			_ = s.AppendRow(nil, i)
			_, _ = SetIndexOf(s.Word(i))
			_, _ = QueueOf(s.Word(i))
		}
		if rows := s.Rows(0, 64); len(rows.Rows) != min(64, s.Len()) {
			t.Fatalf("%d rows", len(rows.Rows))
		}
		if len(b) <= 4096 {
			if err := s.WriteText(io.Discard); err != nil {
				t.Fatal(err)
			}
		}
		// A short single word decodes padded.
		in := Decode(b, 0)
		if want := max(0, WordSize-len(b)); in.Missing != want {
			t.Fatalf("missing %d, want %d", in.Missing, want)
		}
	})
}
