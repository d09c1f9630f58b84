package dbg

import (
	"cmp"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
	"google.golang.org/protobuf/encoding/protowire"
)

// scanChunks scans b handed over in chunks of n bytes (the archive walk's chunks vary).
func scanChunks(member string, b []byte, n int) *Compact {
	s := NewScanner(member, int64(len(b)))
	for len(b) > 0 {
		k := min(n, len(b))
		s.Write(b[:k])
		b = b[k:]
	}
	return s.Close()
}

// sameAsDecode checks that a Compact holds what Decode reads of the same bytes: every record's
// span and first parent, the backend and penguin records' ids, names and kernel attributes,
// the coverage, the member fields, the findings, and the root's child count of DecodeView.
func sameAsDecode(t *testing.T, name, member string, b []byte, c *Compact) {
	t.Helper()
	f := Decode(member, b)
	if c == nil {
		t.Fatalf("%s %s: no compact", name, member)
	}
	if len(f.Records) < maxRecords && c.N != len(f.Records) {
		t.Fatalf("%s %s: %d records, Decode %d", name, member, c.N, len(f.Records))
	}
	for i := range f.Records {
		r := &f.Records[i]
		if off, n := c.Span(i); off != r.Off || n != r.Len {
			t.Fatalf("%s %s record %d: span %d+%d, Decode %d+%d", name, member, i, off, n, r.Off, r.Len)
		}
		if c.keepsFirst() {
			p, ok := c.First(i)
			if ok != (len(r.Parents) > 0) || ok && p != r.Parents[0] {
				t.Fatalf("%s %s record %d: first parent %d %v, Decode %v", name, member, i, p, ok, r.Parents)
			}
		}
		if c.keepsRecord() {
			if j, ok := c.Lookup(r.ID); !ok || f.Records[j].ID != r.ID || j > i || f.ByID(r.ID) != &f.Records[j] {
				t.Fatalf("%s %s record %d: Lookup(%d) = %d %v", name, member, i, r.ID, j, ok)
			}
			if c.ID(i) != r.ID {
				t.Fatalf("%s %s record %d: id %d, Decode %d", name, member, i, c.ID(i), r.ID)
			}
			if c.Kind == KindBackend && c.Name(i) != r.Name {
				t.Fatalf("%s %s record %d: name %q, Decode %q", name, member, i, c.Name(i), r.Name)
			}
			a := c.Attrs(i)
			for _, kv := range []struct {
				key string
				v   string
				has bool
			}{{"kernel_file", a.File, a.HasFile}, {"kernel_line", a.Line, a.HasLine}, {"kernel_name", a.Kernel, a.HasKernel}} {
				if v, ok := r.Attr(kv.key); ok != kv.has || v != kv.v {
					t.Fatalf("%s %s record %d: %s %q %v, Decode %q %v", name, member, i, kv.key, kv.v, kv.has, v, ok)
				}
			}
		}
	}
	if c.Coverage != f.Coverage || c.Description != f.Description || c.PointsTo != f.PointsTo || c.EngineCode != f.EngineCode || c.HasEngine != f.HasEngine ||
		!reflect.DeepEqual(c.KernelFiles, f.KernelFiles) || !reflect.DeepEqual(c.KernelNames, f.KernelNames) {
		t.Fatalf("%s %s: member fields differ: %+v / %+v", name, member, c.Coverage, f.Coverage)
	}
	if len(f.Records) < maxRecords && !reflect.DeepEqual(messages(c.Root.Findings), messages(f.Findings)) {
		t.Fatalf("%s %s: findings\n%v\nDecode\n%v", name, member, messages(c.Root.Findings), messages(f.Findings))
	}
	v := DecodeView(member, b)
	if c.RootChildren != len(v.Root.Children) || c.Root.Value != v.Root.Value || c.Root.Detail != v.Root.Detail {
		t.Fatalf("%s %s: root %d children %q, DecodeView %d %q", name, member, c.RootChildren, c.Root.Value, len(v.Root.Children), v.Root.Value)
	}
	if len(f.Records) < maxRecords && !reflect.DeepEqual(v.Root.Children[min(1, len(v.Root.Children)):], f.Root.Children[min(1, len(f.Root.Children)):]) {
		t.Fatalf("%s %s: DecodeView's tree differs from Decode's", name, member)
	}
}

func messages(fs []doc.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Severity+" "+f.Message)
	}
	return out
}

// TestScanEqualsDecodeOnReal: on every .dbg member of every real NEFF, the one-pass scan, fed
// in chunks of several sizes, reads what the full decode reads.
func TestScanEqualsDecodeOnReal(t *testing.T) {
	n := 0
	for _, path := range realfiles.NEFFs(t) {
		for p, b := range dbgMembers(t, path) {
			if _, _, ok := Match(p); !ok {
				continue
			}
			for _, chunk := range []int{1, 7, 300, 32 << 10, len(b) + 1} {
				sameAsDecode(t, filepath.Base(path)+fmt.Sprintf(" chunk %d", chunk), p, b, scanChunks(p, b, max(chunk, 1)))
			}
			n++
		}
	}
	t.Logf("%d members scanned", n)
}

// TestScanHostile: cut, oversized, malformed and deeply nested bytes give findings, never a
// panic, and read as Decode reads them; a length past the member is an error at once (the
// scan does not wait for bytes that will never come).
func TestScanHostile(t *testing.T) {
	rec := func(id uint64) []byte {
		var r []byte
		r = protowire.AppendTag(r, 1, protowire.VarintType)
		r = protowire.AppendVarint(r, id)
		r = protowire.AppendTag(r, 2, protowire.BytesType)
		r = protowire.AppendString(r, "inst.1-x")
		return r
	}
	var good []byte
	good = protowire.AppendTag(good, 1, protowire.BytesType)
	good = protowire.AppendString(good, "Debug info for one engine's BIR instructions")
	for i := range 50 {
		good = protowire.AppendTag(good, 3, protowire.BytesType)
		good = protowire.AppendBytes(good, rec(uint64(i)+1<<40))
	}
	huge := protowire.AppendTag(append([]byte{}, good...), 3, protowire.BytesType)
	huge = protowire.AppendVarint(huge, 1<<62)
	huge = append(huge, 1, 2, 3)
	deep := []byte{}
	for range 10000 {
		deep = append([]byte{0x1a, byte(min(len(deep), 127))}, deep...)
	}
	cases := map[string][]byte{
		"cut":        good[:len(good)-5],
		"huge":       huge,
		"deep":       deep,
		"badwire":    append(append([]byte{}, good...), 0x0f, 0xff),
		"varint":     append(append([]byte{}, good...), 0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
		"group":      append(append([]byte{}, good...), 0x0b, 0x08, 0x01),
		"empty":      nil,
		"wideid":     good,
		"onlytagcut": {0x1a},
	}
	for name, b := range cases {
		for _, member := range []string{"sg00/debug_info_backend_PE.dbg", "sg00/debug_info_asm_PE.dbg", "debug_info/debug_info_hlo.dbg_sg000000"} {
			c := scanChunks(member, b, 5)
			sameAsDecode(t, name, member, b, c)
			if name != "wideid" && name != "empty" && name != "deep" && len(c.Root.Findings) == 0 {
				t.Errorf("%s %s: no finding", name, member)
			}
		}
	}
	// The huge length is refused without buffering: the scan holds a few bytes, not 2^62.
	s := NewScanner("sg00/debug_info_backend_PE.dbg", int64(len(huge)))
	s.Write(huge)
	if s.Charged() > 1<<20 {
		t.Errorf("the scan of a 2^62-byte claim holds %d bytes", s.Charged())
	}
	// A budget that refuses growth stops the scan: Close says so.
	s = NewScanner("sg00/debug_info_backend_PE.dbg", int64(len(good)))
	s.Grow = func(int64) bool { return false }
	s.Write(good)
	if s.Close() != nil || !s.Failed() {
		t.Error("a refused scan returned a compact")
	}
}

// Lookup finds the first record (in member order) of every id, and no record for an id that is
// not there, over ids that repeat across the lookup's blocks (runs longer than a block, runs
// ending on a block's edge), are out of order, and lie below, between and above the held ones.
func TestLookupFirstOccurrence(t *testing.T) {
	shapes := map[string][]uint64{}
	var runs, edge, mixed []uint64
	for id := uint64(10); len(runs) < 5*pblock; id += 2 {
		for k := 0; k < int(id%7)*60+1; k++ { // runs of 1 to 361 records
			runs = append(runs, id)
		}
	}
	for id := uint64(0); len(edge) < 4*pblock; id++ {
		for k := 0; k < pblock/2; k++ { // every other run ends on a block's edge
			edge = append(edge, id*3)
		}
	}
	for i := range 3*pblock + 17 {
		mixed = append(mixed, uint64((i*7919)%500)) // out of order, with repeats
	}
	shapes["runs"], shapes["edge"], shapes["mixed"] = runs, edge, mixed
	shapes["one"] = []uint64{42}
	for name, ids := range shapes {
		c := &Compact{Kind: KindBackend, N: len(ids)}
		for _, id := range ids {
			c.ids.add(id)
		}
		if !c.buildLookup(nil) {
			t.Fatalf("%s: buildLookup refused", name)
		}
		first := map[uint64]int{}
		for i, id := range ids {
			if _, ok := first[id]; !ok {
				first[id] = i
			}
		}
		for id := uint64(0); id < 1200; id++ {
			want, has := first[id]
			got, ok := c.Lookup(id)
			if ok != has || ok && got != want {
				t.Fatalf("%s: Lookup(%d) = %d %v, want %d %v", name, id, got, ok, want, has)
			}
		}
	}
}

// TestSortByID: sortByID orders ids nearly in order (the insertion sort), far from it (the
// fallback past its budget) and with repeats as a stable sort by id does.
func TestSortByID(t *testing.T) {
	near, far, repeats := make([]uint64, 5000), make([]uint64, 5000), make([]uint64, 5000)
	for i := range near {
		near[i] = uint64(i/3*3 + (2 - i%3)) // runs of three, each backwards
		far[i] = uint64(len(far) - i)
		repeats[i] = uint64((i * 7919) % 300)
	}
	wide := slices.Clone(repeats)
	wide[17] = 1 << 40
	for name, ids := range map[string][]uint64{"near": near, "far": far, "repeats": repeats, "wide": wide, "one": {5}, "none": {}} {
		perm := make([]uint32, len(ids))
		for i := range perm {
			perm[i] = uint32(i)
		}
		want := slices.Clone(perm)
		slices.SortStableFunc(want, func(a, b uint32) int { return cmp.Compare(ids[a], ids[b]) })
		sorted := slices.Clone(ids)
		sortByID(sorted, perm)
		if !slices.Equal(perm, want) {
			t.Fatalf("%s: order %v…, want %v…", name, perm[:min(8, len(perm))], want[:min(8, len(want))])
		}
		for k, i := range perm {
			if sorted[k] != ids[i] {
				t.Fatalf("%s: id %d at %d is not record %d's", name, sorted[k], k, i)
			}
		}
	}
}

// birNumberRef is birNumber as strconv reads it.
func birNumberRef(name string) (uint64, bool) {
	rest, ok := strings.CutPrefix(name, "I-")
	if !ok {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest, "-")
	n, err := strconv.ParseUint(digits, 10, 64)
	return n, err == nil
}

func TestBIRNumber(t *testing.T) {
	for _, s := range []string{"I-87-0-wait-0", "I-1", "I-", "I--1", "I-0-", "X-1", "I-18446744073709551615-x", "I-18446744073709551616", "I-99999999999999999999", "I-+1", "I-1_0", "I-1a", "i-1", "", "I-٣"} {
		n, ok := birNumber(s)
		rn, rok := birNumberRef(s)
		if ok != rok || ok && n != rn { // n is read only when ok
			t.Errorf("birNumber(%q) = %d %v, strconv %d %v", s, n, ok, rn, rok)
		}
	}
}

// TestInternLimit: the first maxInterned distinct names are shared; a name first seen past
// them is stored again each time it comes.
func TestInternLimit(t *testing.T) {
	var b []byte
	names := []string{}
	for i := range maxInterned + 100 {
		names = append(names, "n"+strconv.Itoa(i))
	}
	names = append(names, "n5", "n"+strconv.Itoa(maxInterned+50), "n5")
	for i, n := range names {
		var r []byte
		r = protowire.AppendTag(r, 1, protowire.VarintType)
		r = protowire.AppendVarint(r, uint64(i))
		r = protowire.AppendTag(r, 2, protowire.BytesType)
		r = protowire.AppendString(r, n)
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		b = protowire.AppendBytes(b, r)
	}
	c := Scan("sg00/debug_info_backend_PE.dbg", b)
	for i, n := range names {
		if c.Name(i) != n {
			t.Fatalf("record %d: name %q, want %q", i, c.Name(i), n)
		}
	}
	if k := len(names); c.names.at(k-1) != 5 || c.names.at(k-3) != 5 || c.names.at(k-2) != uint64(maxInterned+100) || c.ends.n != maxInterned+101 {
		t.Errorf("names %d, %d, %d of %d", c.names.at(k-3), c.names.at(k-2), c.names.at(k-1), c.ends.n)
	}
}
