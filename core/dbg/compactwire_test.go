package dbg

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// throughWire is c after its wire form: what the worker holding the open gets from a pool
// worker's scan.
func throughWire(t testing.TB, c *Compact) *Compact {
	t.Helper()
	enc, err := c.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseCompact(enc)
	if err != nil {
		t.Fatalf("%s: its wire form does not read back: %v", c.Member, err)
	}
	again, err := d.AppendBinary(nil)
	if err != nil || !bytes.Equal(again, enc) {
		t.Fatalf("%s: the wire form read back encodes differently (%v)", c.Member, err)
	}
	return d
}

// On every .dbg member of every real NEFF, a Compact through its wire form answers as the scan
// does (sameAsDecode: every record's span, parent, id, name and attributes, the lookup, the
// member's fields and findings), and holds about what it held.
func TestCompactWireOnReal(t *testing.T) {
	n := 0
	for _, path := range realfiles.NEFFs(t) {
		for p, b := range dbgMembers(t, path) {
			if _, _, ok := Match(p); !ok {
				continue
			}
			c := Scan(p, b)
			d := throughWire(t, c)
			// The scan's columns hold the blocks its lookup decoded last (up to pways each);
			// the wire's hold none yet.
			if h, k := c.Held(), d.Held(); k > h+h/16+1024 || k < h-h/16-int64(len(c.cols())*pways*(pblock*8+32)) {
				t.Errorf("%s: holds %d through the wire, %d scanned", p, k, h)
			}
			sameAsDecode(t, filepath.Base(path)+" through the wire", p, b, d)
			n++
		}
	}
	t.Logf("%d members through the wire", n)
}

// The hostile members of TestScanHostile through the wire: the same answers.
func TestCompactWireHostile(t *testing.T) {
	for _, member := range []string{"sg00/debug_info_backend_PE.dbg", "sg00/debug_info_asm_PE.dbg", "debug_info/debug_info_stack_frame_index.dbg"} {
		for _, b := range [][]byte{sample(), stackMember(), hloMember(), nil, {0x1a}} {
			c := scanChunks(member, b, 5)
			sameAsDecode(t, "hostile through the wire", member, b, throughWire(t, c))
		}
	}
}

// ParseCompact never panics, and a Compact it accepts answers for every record without one.
func FuzzParseCompact(f *testing.F) {
	for _, member := range []string{"sg00/debug_info_backend_PE.dbg", "sg00/debug_info_asm_PE.dbg", "debug_info/debug_info_stack_frame_index.dbg"} {
		for _, b := range [][]byte{sample(), stackMember(), hloMember()} {
			if enc, err := Scan(member, b).AppendBinary(nil); err == nil {
				f.Add(enc)
			}
		}
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, enc []byte) {
		c, err := ParseCompact(enc)
		if err != nil {
			return
		}
		for i := range min(c.N, 1000) {
			c.Span(i)
			c.First(i)
			if c.keepsRecord() {
				c.Lookup(c.ID(i))
				c.Name(i)
				c.Attrs(i)
			}
		}
		c.Held()
	})
}
