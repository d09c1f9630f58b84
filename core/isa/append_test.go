package isa

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// checkAppendFields holds AppendFields (and the append forms of Summary and SyncText) to
// Decode on one word.
func checkAppendFields(t *testing.T, w *[WordSize]byte, where string) {
	t.Helper()
	in := Decode(w[:], 0)
	fixed := FixedFieldsOf(w[0])
	runs := AppendUndocumentedRuns(nil, w)
	if len(fixed)+len(runs) != len(in.Fields) || FixedFields(w[0]) != len(fixed) {
		t.Fatalf("%s: %d fixed fields and %d runs, Decode has %d fields", where, len(fixed), len(runs), len(in.Fields))
	}
	for k, d := range in.Fields {
		var name, text string
		var off, width int
		if k < len(fixed) {
			f := fixed[k]
			name, off, width, text = f.Name, f.Off, f.Width, string(AppendFixedText([]byte("x"), w, k)[1:])
		} else {
			r := runs[k-len(fixed)]
			name, off, width, text = RunName(r.Off, r.End), r.Off, r.End-r.Off, string(AppendHexBytes(nil, w[r.Off:r.End]))
		}
		if name != d.Name || off != d.Off || width != d.Width || text != d.Text {
			t.Fatalf("%s field %d: %q +%d/%d %q, Decode %q +%d/%d %q", where, k, name, off, width, text, d.Name, d.Off, d.Width, d.Text)
		}
	}
	if got := string(AppendSummary([]byte("x"), w)); got != "x"+Summary(in) {
		t.Fatalf("%s: summary %q", where, got)
	}
	if got := string(AppendSyncText(nil, w)); got != SyncText(in) {
		t.Fatalf("%s: sync %q", where, got)
	}
}

func TestAppendFieldsRealWords(t *testing.T) {
	words := 0
	for _, path := range realfiles.NEFFs(t) {
		members := readNEFF(t, path)
		for member := range engineStreams(t, members) {
			s := NewStream(member, members[member])
			for i, w := range s.Words() {
				checkAppendFields(t, (*[WordSize]byte)(w), path+" "+member+" #"+itoa(i))
				words++
			}
		}
	}
	t.Logf("%d real words", words)
}

func itoa(i int) string {
	return strings.TrimSpace(string(AppendSecondWordLength(nil, i))[len("not a word length: second word of the two-word instruction at #"):])
}

// TestAppendFieldsRandomWords covers every opcode with random bytes, sparse bytes (runs of
// undocumented bytes split by zeros) and all-0xFF.
func TestAppendFieldsRandomWords(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	for op := range 256 {
		for k := range 40 {
			var w [WordSize]byte
			for b := range w {
				switch {
				case k == 0:
					w[b] = 0xFF
				case k%2 == 1:
					w[b] = uint8(r.Uint32())
				case r.IntN(3) == 0:
					w[b] = uint8(r.Uint32())
				}
			}
			w[0] = uint8(op)
			if k%5 == 0 {
				w[1] = 0x10
			}
			checkAppendFields(t, &w, "random")
		}
	}
}

func TestAppendFieldsAllocs(t *testing.T) {
	w := (*[WordSize]byte)(bytes.Repeat([]byte{0x5A}, WordSize))
	w[0] = 0x21
	var buf []byte
	var runs []Run
	n := testing.AllocsPerRun(100, func() {
		buf = buf[:0]
		for k := range FixedFieldsOf(w[0]) {
			buf = AppendFixedText(buf, w, k)
		}
		runs = AppendUndocumentedRuns(runs[:0], w)
	})
	if n != 0 {
		t.Fatalf("%v allocations per word", n)
	}
}

func TestSecondWordLengthText(t *testing.T) {
	w := make([]byte, 2*WordSize)
	w[0], w[0x17], w[1] = 0xD4, DmaTagDGEReg, 0x10
	w[WordSize] = 0xDA
	s := NewStream("sg00/SP.bin", w)
	in := s.Instruction(1)
	f, _ := in.Field("word length")
	if in.PartOf != 0 || f.Text != string(AppendSecondWordLength(nil, 0)) {
		t.Fatalf("part of %d, word length %q", in.PartOf, f.Text)
	}
}

// TestByteOnlyFields: a ByteOnly field's text does not change with the other bytes of the word
// (the opcode among them), and fields with one TextID have one name and the same texts.
func TestByteOnlyFields(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 7))
	type seen struct {
		name  string
		texts [256]string
	}
	byID := map[int]*seen{}
	for op := range 256 {
		for k, f := range FixedFieldsOf(uint8(op)) {
			if !f.ByteOnly {
				continue
			}
			if f.TextID < 0 || f.TextID >= TextIDs() {
				t.Fatalf("op %#x %s: TextID %d of %d", op, f.Name, f.TextID, TextIDs())
			}
			prev := byID[f.TextID]
			if prev == nil {
				prev = &seen{name: f.Name}
				byID[f.TextID] = prev
			} else if prev.name != f.Name {
				t.Fatalf("TextID %d names %s and %s", f.TextID, prev.name, f.Name)
			}
			for v := range 256 {
				var want string
				for try := range 4 {
					var w [WordSize]byte
					for b := range w {
						w[b] = uint8(r.Uint32())
					}
					w[0] = uint8(op)
					if try > 0 { // another opcode with this field at k, if one comes up
						if o := uint8(r.Uint32()); FixedFields(o) > k && FixedFieldsOf(o)[k].ByteOnly && FixedFieldsOf(o)[k].TextID == f.TextID {
							w[0] = o
						}
					}
					w[f.Off] = uint8(v)
					if f.Off == 0 && v != op {
						continue
					}
					got := string(AppendFixedText(nil, &w, k))
					if try == 0 {
						want = got
						if prev.texts[v] != "" && prev.texts[v] != got {
							t.Fatalf("TextID %d (%s) = %#x: %q for one opcode, %q for %#x", f.TextID, f.Name, v, prev.texts[v], got, op)
						}
						prev.texts[v] = got
					} else if got != want {
						t.Fatalf("op %#x %s = %#x: %q, then %q (opcode %#x)", op, f.Name, v, want, got, w[0])
					}
				}
			}
		}
	}
}
