package dbg

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
	"google.golang.org/protobuf/encoding/protowire"
)

// walkScan is Scan with the fast path off: every record read by decoder.message.
func walkScan(member string, b []byte) *Compact {
	s := NewScanner(member, int64(len(b)))
	s.fast = nil
	s.Write(b)
	return s.Close()
}

// sameAsWalk fails when the scan of b with the fast path differs from the scan without it in
// any byte of the Compact's wire form or in what it holds.
func sameAsWalk(t *testing.T, name, member string, b []byte) {
	t.Helper()
	fast, walk := Scan(member, b), walkScan(member, b)
	fw, err := fast.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	ww, err := walk.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fw, ww) || fast.Held() != walk.Held() {
		t.Fatalf("%s %s: the fast path's Compact (%d B, holds %d) differs from the walk's (%d B, holds %d)", name, member, len(fw), fast.Held(), len(ww), walk.Held())
	}
}

// TestFastPathSameAsWalk: on the hostile members, matmul_small and (beside the shared folder)
// every real NEFF, the fast path reads what the walk reads.
func TestFastPathSameAsWalk(t *testing.T) {
	h := hostileMembers()
	for _, p := range sortedKeys(h) {
		sameAsWalk(t, "hostile", p, h[p])
	}
	paths := []string{realfiles.Path(t, "nkipy/matmul_small.neff")}
	if realfiles.SharedDir() != "" {
		paths = realfiles.NEFFs(t)
	}
	for _, path := range paths {
		for p, b := range dbgMembers(t, path) {
			if _, _, ok := Match(p); ok {
				sameAsWalk(t, path, p, b)
			}
		}
	}
}

// fuzzMember is a member of kind's path: enough good records for the tree's node budget to be
// spent, then rec as one record of field 3, then a good record.
func fuzzMember(member string, rec []byte) []byte {
	good := func(id uint64) []byte { return hostileRec(id, "I-1-0", 12) }
	if k, _, _ := Match(member); k == KindAsm {
		good = func(id uint64) []byte {
			return protowire.AppendBytes(protowire.AppendTag(nil, 3, protowire.BytesType), protowire.AppendVarint(nil, id))
		}
	}
	var b []byte
	for i := range maxNodes/2 + 1 { // two nodes or more a record
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendBytes(b, good(uint64(i)))
	}
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	b = protowire.AppendBytes(b, rec)
	b = protowire.AppendTag(b, 3, protowire.BytesType)
	return protowire.AppendBytes(b, good(1<<20))
}

// FuzzFastRecord: any record past the node budget reads the same with the fast path and
// without it (a Compact equal byte for byte, findings included), and the fast path's varint
// and packed-list readers agree with protowire's.
func FuzzFastRecord(f *testing.F) {
	for _, r := range hostileFaults() {
		f.Add(r)
	}
	f.Add(hostileRec(1, "I-1-0", 3))
	f.Add([]byte{0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02})
	f.Add([]byte{0x1a, 0x0a, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01})
	f.Fuzz(func(t *testing.T, rec []byte) {
		x, xn := uvarint(rec, 0)
		px, pn := protowire.ConsumeVarint(rec)
		if (xn < 0) != (pn < 0) || xn >= 0 && (x != px || xn != pn) {
			t.Fatalf("uvarint(% x) = %d, %d; protowire %d, %d", rec, x, xn, px, pn)
		}
		n, ok := birNumber(string(rec))
		if rn, rok := birNumberRef(string(rec)); ok != rok || ok && n != rn {
			t.Fatalf("birNumber(%q) = %d %v, strconv %d %v", rec, n, ok, rn, rok)
		}
		if _, ok := packed(nil, rec, 0); ok != validPacked(rec) {
			t.Fatalf("validPacked(% x) = %v, packed says %v", rec, !ok, ok)
		}
		// One kind a run, by the record's length (a run scans its member twice, tree and all).
		member := []string{"sg00/debug_info_backend_PE.dbg", "sg00/debug_info_asm_PE.dbg", "debug_info/debug_info_penguin.dbg"}[len(rec)%3]
		b := fuzzMember(member, rec)
		if _, cut := Scan(member, b).Root.Attrs[doc.AttrViewLimit]; !cut {
			t.Fatalf("%s: the tree holds every field: the fast path is not tried", member)
		}
		sameAsWalk(t, "fuzz", member, b)
	})
}
