package inspect

import (
	"github.com/neffscope/neffscope/internal/realfiles"
	"slices"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
)

// TestDbgRecordsByRange: every record of every .dbg member is reachable through Rows
// ("records:<member>"), past the 2,048 rows the Document's table holds, and the first rows
// equal the Document's.
func TestDbgRecordsByRange(t *testing.T) {
	if testing.Short() {
		t.Skip("-short skips the slow tests; make test-core runs this one")
	}
	past := 0
	for _, p := range realfiles.NEFFs(t) {
		f := openPath(t, p)
		// One walk finds every records table (a walk per member built every stub of the
		// document again each time: three minutes natively, a quarter of an hour in wasm).
		tables := map[string]*doc.Node{}
		f.Walk(nil, func(_ []string, n *doc.Node) bool {
			if kind, _ := doc.ParseRef(n.Ref); kind == doc.RefRecords && n.Table != nil && tables[n.Ref] == nil {
				tables[n.Ref] = n
			}
			return true
		})
		for member, d := range f.Program.Source.Members {
			ref := doc.RecordsRef(member)
			node := tables[ref]
			if d.N == 0 {
				continue
			}
			if node == nil {
				t.Errorf("%s %s: no records table with ref %q", p, member, ref)
				continue
			}
			all, total, err := f.Rows(ref, 0, d.N)
			if err != nil || total != d.N || len(all.Rows) != total || len(all.RowSpans) != total {
				t.Fatalf("%s %s: Rows: %v, total %d, %d rows, want %d", p, member, err, total, len(all.Rows), d.N)
			}
			for i, r := range node.Table.Rows {
				if !slices.Equal(r, all.Rows[i]) || node.Table.RowSpans[i] != all.RowSpans[i] {
					t.Fatalf("%s %s row %d: document %v, by range %v", p, member, i, r, all.Rows[i])
				}
			}
			if total > len(node.Table.Rows) {
				past++
				// A window past the document's rows: spans inside the member, in order.
				w, _, _ := f.Rows(ref, total-3, total+10)
				if len(w.Rows) != 3 || w.Rows[2][0] != all.Rows[total-1][0] || w.RowSpans[2].Source != member {
					t.Errorf("%s %s: last rows %v", p, member, w.Rows)
				}
			}
		}
	}
	// matmul_small's members are small; the shared NEFFs (file_pool_*) have members past the
	// table's cap, so the range path is checked wherever they sit beside the clone.
	if past == 0 {
		if realfiles.Has("cs149-trn1/file_pool_2_float32.neff") {
			t.Error("no real .dbg member has more records than the Document's table holds: the range path is untested")
		} else {
			t.Log("the range past the Document's table is checked only with ../shared/testdata-real (file_pool_2's members): " + realfiles.Missing("cs149-trn1/file_pool_2_float32.neff"))
		}
	}
	if _, _, err := openBytes("x.neff", nil).Rows(doc.RecordsRef("sg00/debug_info_asm_PE.dbg"), 0, 10); err == nil {
		t.Error("records of a file without debug info: no error")
	}
}

// TestLooseDbgRecordsByRange: a .dbg file opened on its own serves its records too.
func TestLooseDbgRecordsByRange(t *testing.T) {
	f := openReal(t, "nkipy/matmul_small.neff")
	const member = "sg00/debug_info_backend_Pool.dbg"
	b, err := f.Bytes(member, 0, 1<<20)
	if err != nil || len(b) == 0 {
		t.Fatalf("%s: %v", member, err)
	}
	loose := openBytes("debug_info_backend_Pool.dbg", b)
	rows, n, err := loose.Rows(doc.RecordsRef(""), 0, 5)
	want := f.Program.Source.Members[member].N
	if err != nil || n != want || len(rows.Rows) != min(5, want) {
		t.Fatalf("loose: %v, total %d (want %d), %d rows", err, n, want, len(rows.Rows))
	}
	if rows.RowSpans[0].Source != "" {
		t.Errorf("a loose file's row spans index the file itself, got source %q", rows.RowSpans[0].Source)
	}
}
