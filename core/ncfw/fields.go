package ncfw

import (
	"sort"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
)

// FormatFields renders a field map as text, one tab-separated line per printed value:
// path, struct offset (ctx+0x…, or "-" for a loop index or the model name), width (with the
// bits of a bitfield), line, and the printed value as it stands in text.
func FormatFields(text []byte, fields []Field) []byte {
	var b []byte
	for _, f := range fields {
		b = append(b, f.Path...)
		b = append(b, '\t')
		if f.Offset < 0 {
			b = append(b, '-')
		} else {
			b = append(b, "ctx+0x"...)
			b = strconv.AppendUint(b, uint64(f.Offset), 16)
		}
		b = append(b, '\t')
		switch {
		case f.Offset < 0:
			b = append(b, '-')
		case f.Mask != 0:
			b = append(b, "bits "...)
			b = strconv.AppendUint(b, uint64(f.Shift), 10)
			b = append(b, ".."...)
			b = strconv.AppendUint(b, uint64(f.Shift)+uint64(bitLen(f.Mask))-1, 10)
		default:
			b = strconv.AppendInt(b, f.Width, 10)
		}
		b = append(b, "\tline "...)
		b = strconv.AppendInt(b, int64(f.Line), 10)
		b = append(b, '\t')
		if f.TextStart >= 0 && f.TextEnd <= int64(len(text)) && f.TextStart <= f.TextEnd {
			b = append(b, text[f.TextStart:f.TextEnd]...)
		}
		b = append(b, '\n')
	}
	return b
}

// FieldAtText returns the index of the field whose printed value covers text byte pos, or -1:
// the page's "click a value, highlight its bytes". Fields are in text order.
func FieldAtText(fields []Field, pos int64) int {
	i := sort.Search(len(fields), func(i int) bool { return fields[i].TextEnd > pos })
	if i < len(fields) && fields[i].TextStart <= pos {
		return i
	}
	return -1
}

// FieldsAtOffset returns the indexes of the fields that read struct byte off (several when
// reads overlap, e.g. a long fold_n walk): the page's "click a byte, find its values".
func FieldsAtOffset(fields []Field, off int64) []int {
	var out []int
	for i, f := range fields {
		if f.Offset >= 0 && off >= f.Offset && off < f.Offset+f.Width {
			out = append(out, i)
		}
	}
	return out
}

// FieldTable renders a field map as a doc.Table (one row per printed value, RowSpans = the
// struct bytes), so a front end can carry the map over the Document wire format.
// Columns: path, offset, width, format, source, text_start, text_end, line.
func FieldTable(fields []Field) *doc.Table {
	t := &doc.Table{Columns: []string{"path", "offset", "width", "format", "source", "text_start", "text_end", "line"}}
	t.Rows = make([][]string, 0, len(fields))
	t.RowSpans = make([]doc.Span, 0, len(fields))
	for _, f := range fields {
		width := strconv.FormatInt(f.Width, 10)
		if f.Mask != 0 {
			width = "bits " + strconv.Itoa(int(f.Shift)) + ".." + strconv.Itoa(int(f.Shift)+bitLen(f.Mask)-1)
		}
		t.Rows = append(t.Rows, []string{f.Path, strconv.FormatInt(f.Offset, 10), width, f.Format, f.Source,
			strconv.FormatInt(f.TextStart, 10), strconv.FormatInt(f.TextEnd, 10), strconv.Itoa(f.Line)})
		span := doc.Span{Offset: f.Offset, Length: f.Width}
		if f.Offset < 0 {
			span = doc.Span{Offset: 0, Length: 0}
		}
		t.RowSpans = append(t.RowSpans, span)
	}
	return t
}
