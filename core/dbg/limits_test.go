package dbg

import (
	"fmt"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

func codeCount(fs []doc.Finding, c doc.Code) int {
	n := 0
	for _, f := range fs {
		if f.Code == c {
			n++
		}
	}
	return n
}

// wrongWire is an asm member of n word records (field 3, a message) written as varints.
func wrongWire(n int) []byte {
	var b []byte
	for range n {
		b = protowire.AppendTag(b, 3, protowire.VarintType)
		b = protowire.AppendVarint(b, 0)
	}
	return b
}

// TestRepeatedFindingsCollapse: a member repeating one fault lists its first maxRepeated
// findings and counts the rest in one more, the same in a decode and in a scan.
func TestRepeatedFindingsCollapse(t *testing.T) {
	const member = "sg00/debug_info_asm_PE.dbg"
	b := wrongWire(10_000)
	f := Decode(member, b)
	if got := codeCount(f.Findings, doc.CodeDbgWireType); got != maxRepeated+1 {
		t.Fatalf("decode: %d %s findings, want %d", got, doc.CodeDbgWireType, maxRepeated+1)
	}
	c := Scan(member, b)
	if c == nil || codeCount(c.Root.Findings, doc.CodeDbgWireType) != maxRepeated+1 {
		t.Fatalf("scan: %+v", c)
	}
	if c.Coverage.Generic != int64(len(b)) {
		t.Fatalf("coverage %+v: every field is still counted", c.Coverage)
	}
	// A few faults are all listed, with no count.
	if got := codeCount(Decode(member, wrongWire(maxRepeated)).Findings, doc.CodeDbgWireType); got != maxRepeated {
		t.Fatalf("%d findings for %d faults", got, maxRepeated)
	}
}

// TestKernelNamesLimit: kernel files past maxNames are counted, not kept, and named by a finding.
func TestKernelNamesLimit(t *testing.T) {
	var b []byte
	for i := range maxNames + 5 {
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendString(b, fmt.Sprintf("/k/%d.py", i))
	}
	const member = "sg00/debug_info_backend_PE.dbg"
	f := Decode(member, b)
	if len(f.KernelFiles) != maxNames || codeCount(f.Findings, doc.CodeDbgNamesLimit) != 1 {
		t.Fatalf("decode: %d files kept, findings %v", len(f.KernelFiles), f.Findings)
	}
	c := Scan(member, b)
	if c == nil || len(c.KernelFiles) != maxNames || codeCount(c.Root.Findings, doc.CodeDbgNamesLimit) != 1 {
		t.Fatal("scan: the names are not bounded")
	}
}

// record is a backend record with id and attributes kv (key, value pairs).
func record(b []byte, id uint64, kv ...string) []byte {
	var rec []byte
	rec = protowire.AppendTag(rec, 1, protowire.VarintType)
	rec = protowire.AppendVarint(rec, id)
	for i := 0; i+1 < len(kv); i += 2 {
		var a []byte
		a = protowire.AppendTag(a, 1, protowire.BytesType)
		a = protowire.AppendString(a, kv[i])
		a = protowire.AppendTag(a, 2, protowire.BytesType)
		a = protowire.AppendString(a, kv[i+1])
		rec = protowire.AppendTag(rec, 7, protowire.BytesType)
		rec = protowire.AppendBytes(rec, a)
	}
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	return protowire.AppendBytes(b, rec)
}

// TestAttrTuplesLimit: records with more distinct kernel lines than maxTuples keep the first
// maxTuples; the rest have no line, and a finding names the limit.
func TestAttrTuplesLimit(t *testing.T) {
	var b []byte
	n := maxTuples + 10
	for i := range n {
		b = record(b, uint64(i), "kernel_file", "0", "kernel_line", fmt.Sprint(i+1))
	}
	c := Scan("sg00/debug_info_backend_PE.dbg", b)
	if c == nil || c.N != n {
		t.Fatal("scan failed")
	}
	if len(c.Tuples) > maxTuples+1 || codeCount(c.Root.Findings, doc.CodeDbgAttrsLimit) != 1 {
		t.Fatalf("%d tuples kept, findings %v", len(c.Tuples), c.Root.Findings)
	}
	if a := c.Attrs(0); !a.HasLine || a.Line != "1" {
		t.Fatalf("first record: %+v", a)
	}
	if a := c.Attrs(n - 1); a.HasLine {
		t.Fatalf("a record past the limit keeps its line: %+v", a)
	}
}

// TestRecordAttrsLimit: a record's attributes past maxAttrs are counted, not kept.
func TestRecordAttrsLimit(t *testing.T) {
	var kv []string
	for i := range maxAttrs + 7 {
		kv = append(kv, fmt.Sprintf("k%d", i), "v")
	}
	f := Decode("sg00/debug_info_backend_PE.dbg", record(nil, 1, kv...))
	if len(f.Records) != 1 || len(f.Records[0].Attrs) != maxAttrs || codeCount(f.Findings, doc.CodeDbgRecordAttrs) != 1 {
		t.Fatalf("%d attributes kept, findings %v", len(f.Records[0].Attrs), f.Findings)
	}
}
