package dbg

import (
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
)

// The records table of a .dbg member: one row per record of field 3, served by range.

// recordValue is a record node's one-line value.
func recordValue(k Kind, r *Record) string {
	if k == KindAsm {
		if len(r.Parents) == 0 {
			return "(no backend record)"
		}
		return "→ backend " + listText(r.Parents, maxParents)
	}
	v := "id " + strconv.FormatUint(r.ID, 10)
	if r.Name != "" {
		v += " " + doc.Quote(r.Name, 80)
	}
	if line, ok := r.Attr("kernel_line"); ok {
		v += " line " + line
	} else if line, ok := r.Attr("source_line"); ok && line != "0" {
		v += " line " + line
	}
	return v
}

// recordsTable is the records node: its table holds the first maxRows records (the Document
// stays bounded); its Ref serves any range of them (File.RecordRows).
func recordsTable(f *File, src string, count int, st *StackFrames) *doc.Node {
	if count == 0 {
		return nil
	}
	label := "records"
	if f.Kind == KindAsm {
		label = "words"
	}
	n := &doc.Node{Kind: doc.KindTable, Label: label, Value: strconv.Itoa(count), Table: recordRows(f.Kind, f.src, f.Records[:min(maxRows, len(f.Records))], 0, st),
		Detail: "every record of field 3 (the tree below shows them field by field)", Ref: doc.RecordsRef(src)}
	if count > maxRows {
		n.Detail = "the first " + strconv.Itoa(maxRows) + " of " + strconv.Itoa(count) + " records of field 3 (the rest by range: rows of " + n.Ref + ")"
	}
	return n
}

// RecordRows is rows [from, to) of the records table (clamped to the records kept), each row's
// span its record's bytes.
func (f *File) RecordRows(from, to int) *doc.Table {
	from, to = max(from, 0), min(to, len(f.Records))
	return recordRows(f.Kind, f.src, f.Records[from:max(from, to)], from, f.stacks)
}

// recordRows is the records table's rows of recs, the first of them record first. An hlo
// member's table, given the NEFF's stack frames, has a column more: each record's frame.
func recordRows(kind Kind, src string, recs []Record, first int, st *StackFrames) *doc.Table {
	var t *doc.Table
	if kind == KindAsm {
		t = &doc.Table{Columns: []string{"word", "offset in stream", "backend ids"}}
	} else {
		t = &doc.Table{Columns: []string{"index", "id", "name", "parent ids", "attributes"}}
	}
	frames := kind == KindHLO && st != nil && len(st.Frames) > 0
	if frames {
		t.Columns = append(t.Columns, "stack frame")
	}
	t.Rows = make([][]string, 0, len(recs))
	t.RowSpans = make([]doc.Span, 0, len(recs))
	for k := range recs {
		r, i := &recs[k], first+k
		if kind == KindAsm {
			t.Rows = append(t.Rows, []string{strconv.Itoa(i), "0x" + strconv.FormatInt(int64(i)*64, 16), listText(r.Parents, maxParents)})
		} else {
			var attrs []string
			for _, a := range r.Attrs {
				attrs = append(attrs, a.Key+"="+a.Value)
			}
			row := []string{strconv.Itoa(i), strconv.FormatUint(r.ID, 10), r.Name, listText(r.Parents, maxParents), strings.Join(attrs, " ")}
			if frames {
				row = append(row, frameText(st, r.StackFrame))
			}
			t.Rows = append(t.Rows, row)
		}
		t.RowSpans = append(t.RowSpans, doc.Span{Source: src, Offset: r.Off, Length: r.Len})
	}
	return t
}
