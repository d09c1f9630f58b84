// Package dvetable reads the DVE (Vector engine) tables a NEFF carries per core: the
// sgNN/default_*_table.bin members DVE.json's dve_tables names (spec neff.md §2.4, §3.5). The
// spec gives only their names and sizes; the structure here is read off the real files (unknowns
// dvetable.*): fixed-size rows, and for the opcode table one entry per instruction opcode. What
// each row's bits mean is not known, so every non-zero row is shown as an unknown… field with
// its bytes: the coverage report counts them as unknown, not as named.
package dvetable

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
)

// Layout is one table kind: its member name and how its bytes split into rows.
type Layout struct {
	Kind string // the dve_tables key: opcode_table, control_table, ...
	// Row is the row size in bytes; 0 = the size divided by Rows (the opcode table: 4 B on
	// cayman, 8 B on sunda).
	Row        int
	Rows       int // rows when Row is 0
	Meaning    string
	Confidence string
}

// Layouts is the data table of table kinds (unknowns dvetable.rows).
var Layouts = []Layout{
	{Kind: "opcode_table", Rows: 256, Meaning: "one entry per instruction opcode byte 0x00..0xFF (4 B on cayman, 8 B on sunda); non-zero exactly at DVE data-path opcodes (0x41 TensorTensorArithOp, 0x46 Copy, …), zero at control and pseudo opcodes (0xA0, 0xB1, 0xC1, 0xCC) that the streams also use; what an entry's value selects is unknown", Confidence: "medium"},
	{Kind: "control_table", Row: 16, Meaning: "16-byte control rows (sunda)", Confidence: "low"},
	{Kind: "control_fast_table", Row: 16, Meaning: "16-byte control rows, fast path (cayman)", Confidence: "low"},
	{Kind: "control_slow_table", Row: 16, Meaning: "16-byte control rows, slow path (cayman)", Confidence: "low"},
	{Kind: "datapath_table", Row: 64, Meaning: "64-byte datapath rows", Confidence: "low"},
}

// Match names a DVE table member's layout by its file name (default_<kind>.bin).
func Match(p string) (*Layout, bool) {
	base := path.Base(p)
	k, ok := strings.CutPrefix(base, "default_")
	if !ok || !strings.HasSuffix(k, "_table.bin") {
		return nil, false
	}
	k = strings.TrimSuffix(k, ".bin")
	for i := range Layouts {
		if Layouts[i].Kind == k {
			return &Layouts[i], true
		}
	}
	return nil, false
}

// maxShown bounds the row nodes of one member (real tables have at most 256 rows).
const maxShown = 4096

// Decode shows a DVE table: each non-zero row as an unknown… field with its span (all-zero rows
// are left out) (src: the member path, "" for a file opened alone). It never fails: a size that does
// not split into rows is an info finding and the member stays hex.
func Decode(member, src string, b []byte) *doc.Node {
	l, ok := Match(member)
	n := &doc.Node{Kind: doc.KindGroup, Label: "content", Value: strconv.Itoa(len(b)) + " B", Span: &doc.Span{Source: src, Length: int64(len(b))}}
	if !ok {
		n.Detail = "DVE table (kind not recognised by name)"
		return n
	}
	row := l.Row
	if row == 0 && len(b)%l.Rows == 0 {
		row = len(b) / l.Rows
	}
	if row == 0 || len(b)%row != 0 {
		n.Detail = "DVE " + l.Kind
		n.Infof(doc.CodeDVETableSize, n.Span, "%s is %d bytes, not whole %s rows as in every real NEFF; shown as hex.", member, len(b), rowText(l))
		return n
	}
	n.Detail = "DVE " + l.Kind + ": " + strconv.Itoa(len(b)/row) + " rows of " + strconv.Itoa(row) + " B; " + l.Meaning + " [confidence " + l.Confidence + "]"
	shown := 0
	for i := 0; i*row < len(b); i++ {
		r := b[i*row : (i+1)*row]
		if allZero(r) {
			continue
		}
		sp := doc.Span{Source: src, Offset: int64(i * row), Length: int64(row)}
		label := "unknown row " + strconv.Itoa(i)
		if l.Kind == "opcode_table" {
			name := isa.OpcodeName(uint8(i))
			label = "unknown entry 0x" + strconv.FormatInt(int64(i), 16) + " " + name
		}
		if shown < maxShown {
			shown++
			f := n.Add(&doc.Node{Kind: doc.KindField, Label: label, Value: hexBytes(r), Span: &sp})
			if shown == 1 {
				f.Detail = "meaning unknown (unknowns dvetable.rows)"
			}
		}
	}
	if shown == maxShown {
		n.SetAttr(doc.AttrViewLimit, fmt.Sprintf("the first %d non-zero rows are shown; the rest are in the hex view", maxShown))
	}
	return n
}

func rowText(l *Layout) string {
	if l.Row == 0 {
		return strconv.Itoa(l.Rows) + " equal"
	}
	return strconv.Itoa(l.Row) + "-byte"
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func hexBytes(b []byte) string {
	const digits = "0123456789abcdef"
	var s strings.Builder
	s.Grow(len(b)*2 + len(b)/4)
	for i, c := range b {
		if i > 0 && i%4 == 0 {
			s.WriteByte(' ')
		}
		s.WriteByte(digits[c>>4])
		s.WriteByte(digits[c&15])
	}
	return s.String()
}

// Unknowns are the guesses this package makes.
var Unknowns = []doc.Unknown{
	{ID: "dvetable.rows", Spec: "neff.md §2.4 (sizes only), §3.5",
		Question:   "The structure and meaning of the DVE tables (default_{opcode,control,control_fast,control_slow,datapath}_table.bin); the spec gives only names and sizes.",
		Assumption: "Read off the real files: the opcode table is 256 entries indexed by the opcode byte (4 B each on cayman, 8 B on sunda) — non-zero at the DVE data-path opcodes, zero at the control and pseudo opcodes the DVE streams also use (0xA0, 0xB1, 0xC1, 0xCC), plus entry 0; the control tables are 16-byte rows and the datapath table 64-byte rows (the row starts repeat at those periods). The tables are constant per target and compiler: the 3 sunda NEFFs (2.18) carry identical tables, the cayman ones two versions (2.21 cs149 vs 2.23 nki-moe/nkipy). Each non-zero row is shown as unknown….",
		Confidence: "low"},
}
