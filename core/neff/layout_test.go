package neff

import (
	"archive/tar"
	"bytes"
	"testing"
)

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

// The tar block's accessors read what Go's archive/tar writes: a header built by the standard
// library (a long name cut into prefix and name, a GNU-format one too) reads back through them,
// and its checksum is one of the block's sums.
func TestTarBlockAccessorsReadArchiveTar(t *testing.T) {
	long := "sg00/" + string(bytes.Repeat([]byte("d"), 90)) + "/debug_info_asm_PE.dbg"
	for _, format := range []tar.Format{tar.FormatUSTAR, tar.FormatGNU} {
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		name := long
		if format == tar.FormatGNU {
			name = "sg00/PE.bin" // GNU keeps long names in an 'L' entry, not in the prefix
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Size: 1234, Mode: 0o644, Typeflag: tar.TypeReg, Format: format}); err != nil {
			t.Fatal(err)
		}
		var b tarHeaderBlock
		copy(b[:], buf.Bytes())
		w := &walker{a: &Archive{}, block: b}
		h, ok := w.header(0)
		if !ok || h.name != name || h.size != 1234 || h.typeflag != tar.TypeReg || len(w.a.Findings) != 0 {
			t.Errorf("%v: read %+v (ok %v), findings %v", format, h, ok, w.a.Findings)
		}
		if !looksLikeTar(buf.Bytes()) {
			t.Errorf("%v: the magic is not found", format)
		}
	}
}
