package wirefields

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

func sample() []byte {
	var w Writer
	w.Uint(1, 300)
	w.Flag(2, false)
	w.Flag(3, true)
	w.Text(4, "sg00/def.json")
	w.Bytes(5, []byte{0, 1, 2})
	w.Packed(6, []uint64{0, 127, 128, 1 << 40})
	return w.B
}

// What a Writer writes reads back field by field, a false Flag leaving no field.
func TestRoundTrip(t *testing.T) {
	type field struct {
		num protowire.Number
		v   uint64
		s   string
	}
	var got []field
	if err := Each(sample(), func(num protowire.Number, v uint64, s []byte) error {
		got = append(got, field{num, v, string(s)})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []field{{1, 300, ""}, {3, 1, ""}, {4, 0, "sg00/def.json"}, {5, 0, "\x00\x01\x02"}}
	if len(got) != 5 || !slices.Equal(got[:4], want) {
		t.Fatalf("fields %+v", got)
	}
	vs, err := Unpack([]byte(got[4].s))
	if err != nil || len(vs) != 4 || vs[1] != 127 || vs[2] != 128 || vs[3] != 1<<40 {
		t.Errorf("packed %v %v", vs, err)
	}
}

// A bad record is an error that names the field: a cut tag, a cut value, another wire type.
func TestBadRecords(t *testing.T) {
	for _, c := range []struct {
		b    []byte
		want string
	}{
		{[]byte{0x80}, "field tag: "},
		{[]byte{0x08, 0x80}, "field 1: "},
		{[]byte{0x12, 0x05, 'a'}, "field 2: "},
		{[]byte{0x0d, 0, 0, 0, 0}, "field 1 has wire type 5"},
	} {
		err := Each(c.b, func(protowire.Number, uint64, []byte) error { return nil })
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("% x: %v, want %q", c.b, err, c.want)
		}
	}
	if _, err := Unpack([]byte{0x80}); err == nil {
		t.Error("a cut packed varint read")
	}
}

// FuzzReader: any bytes read to an error or to the end, never a panic; a record read whole,
// written back by a Writer, reads back to the same fields (the bytes may differ: a varint may
// be written longer than it needs).
func FuzzReader(f *testing.F) {
	f.Add(sample())
	f.Add([]byte{0x80})
	f.Add([]byte{0x0d, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		var w Writer
		var first []string
		err := Each(b, func(num protowire.Number, v uint64, s []byte) error {
			if s != nil {
				w.Bytes(num, s)
			} else {
				w.Uint(num, v)
			}
			first = append(first, fmt.Sprint(num, v, s))
			_, _ = Unpack(s)
			return nil
		})
		if err != nil {
			return
		}
		var again []string
		if err := Each(w.B, func(num protowire.Number, v uint64, s []byte) error {
			again = append(again, fmt.Sprint(num, v, s))
			return nil
		}); err != nil || !slices.Equal(first, again) {
			t.Fatalf("% x wrote back as % x: %v", b, w.B, err)
		}
	})
}
