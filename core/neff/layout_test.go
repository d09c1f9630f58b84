package neff

import "testing"

// The header's field accessors tile the 1024 bytes in table order, with no gap and no overlap,
// so a slip in one offset or width shows here rather than as a wrong value on some file.
func TestHeaderFieldsTileTheHeader(t *testing.T) {
	var at int64
	for i := range headerFields {
		f := &headerFields[i]
		s := f.span()
		if s.Offset != at || s.Length <= 0 {
			t.Fatalf("%s: bytes %d+%d, want it to start at %d", f.Name, s.Offset, s.Length, at)
		}
		at = s.Offset + s.Length
	}
	if at != HeaderSize {
		t.Fatalf("the fields end at %d, not %d", at, HeaderSize)
	}
}
