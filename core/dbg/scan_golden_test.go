package dbg

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/golden"
	"github.com/neffscope/neffscope/internal/realfiles"
	"google.golang.org/protobuf/encoding/protowire"
)

// The scan's answer (a Compact's wire form, what it holds and its record count) is pinned
// member by member, so a change to the decoder made for speed is seen to change no byte: on
// matmul_small and hostile members built here (always), on every real NEFF (beside the
// shared folder), and on the 32 MiB real-shaped NEFF when testdata/gen holds it.

// addScans adds the scan of every .dbg member of members, in path order, under title. Each is
// scanned whole and in chunks (the archive walk hands it over so): both must be equal.
func addScans(t *testing.T, sums *golden.Sums, title string, members map[string][]byte) {
	t.Helper()
	paths := make([]string, 0, len(members))
	for p := range members {
		if _, _, ok := Match(p); ok {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		b := members[p]
		c := Scan(p, b)
		if c == nil {
			t.Fatalf("%s %s: no compact", title, p)
		}
		// The protobuf module writes the space after "proto:" in its errors as a space or a
		// no-break space, chosen per binary (internal/detrand) so that no one matches its text:
		// a finding quoting one is made the same in every build.
		for i := range c.Root.Findings {
			c.Root.Findings[i].Message = strings.ReplaceAll(c.Root.Findings[i].Message, "proto:\u00a0", "proto: ")
		}
		w, err := c.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		chunk := 4093
		if len(b) < 1<<20 {
			chunk = 7
		}
		cc := scanChunks(p, b, chunk)
		for i := range cc.Root.Findings {
			cc.Root.Findings[i].Message = strings.ReplaceAll(cc.Root.Findings[i].Message, "proto:\u00a0", "proto: ")
		}
		wc, err := cc.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w, wc) {
			t.Errorf("%s %s: the scan in chunks of %d differs from the scan whole", title, p, chunk)
		}
		sums.Add(fmt.Sprintf("%s %s records=%d held=%d", title, p, c.N, c.Held()), w)
	}
}

// TestScanGolden pins the scan of matmul_small (kept in the repository) and of hostile members
// whose faults lie past the tree's node budget, where the scan reads records without a tree.
func TestScanGolden(t *testing.T) {
	var sums golden.Sums
	addScans(t, &sums, "nkipy/matmul_small.neff", dbgMembers(t, realfiles.Path(t, "nkipy/matmul_small.neff")))
	hostile := hostileMembers()
	for _, p := range sortedKeys(hostile) {
		sameAsDecode(t, "hostile", p, hostile[p], Scan(p, hostile[p]))
	}
	addScans(t, &sums, "hostile", hostile)
	sums.Check(t, "testdata/scan_golden.sha256")
}

// TestScanGoldenReal pins the scan of every .dbg member of every real NEFF.
func TestScanGoldenReal(t *testing.T) {
	var sums golden.Sums
	for _, p := range golden.SharedNEFFs(t) {
		rel := filepath.ToSlash(filepath.Join(filepath.Base(filepath.Dir(p)), filepath.Base(p)))
		addScans(t, &sums, rel, dbgMembers(t, p))
	}
	sums.Check(t, "testdata/scan_golden_real.sha256")
}

// genNEFF is the 32 MiB real-shaped NEFF (go run ./scripts/benchneff -shape real -sizes 32
// -gen-only), or "" when testdata/gen does not hold it.
func genNEFF(t testing.TB) string {
	t.Helper()
	root, err := realfiles.RepoRoot()
	if err != nil {
		return ""
	}
	p := filepath.Join(root, "testdata", "gen", "real-v1-32mib.neff")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// TestScanGoldenRealShaped pins the scan of every .dbg member of the 32 MiB real-shaped NEFF.
// Its sums are those of one generator's output: the file's own SHA-256 is the first line, and
// a file generated otherwise is skipped, not failed.
func TestScanGoldenRealShaped(t *testing.T) {
	p := genNEFF(t)
	if p == "" {
		t.Skip("testdata/gen/real-v1-32mib.neff is not there (go run ./scripts/benchneff -shape real -sizes 32 -gen-only)")
	}
	const sumsFile = "testdata/scan_golden_realshaped.sha256"
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	// The first line is golden.Sums's line of the input itself.
	input := fmt.Sprintf("input real-v1-32mib.neff\tsha256:%x\t%d bytes", sha256.Sum256(data), len(data))
	if b, err := os.ReadFile(sumsFile); err == nil {
		if first, _, _ := strings.Cut(string(b), "\n"); first != input {
			t.Skipf("%s is not the file %s was made from (%s)", p, sumsFile, first)
		}
	}
	var sums golden.Sums
	sums.Add("input real-v1-32mib.neff", data)
	addScans(t, &sums, "real-v1-32mib.neff", dbgMembers(t, p))
	sums.Check(t, sumsFile)
}

func sortedKeys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// hostileAttr is an attribute's bytes, extra appended.
func hostileAttr(k, v string, extra ...byte) []byte {
	var a []byte
	a = protowire.AppendTag(a, 1, protowire.BytesType)
	a = protowire.AppendString(a, k)
	a = protowire.AppendTag(a, 2, protowire.BytesType)
	a = protowire.AppendString(a, v)
	return append(a, extra...)
}

// hostileRec is a record of every field the table knows, extra appended.
func hostileRec(id uint64, name string, line int, extra ...byte) []byte {
	var r []byte
	r = protowire.AppendTag(r, 1, protowire.VarintType)
	r = protowire.AppendVarint(r, id)
	r = protowire.AppendTag(r, 2, protowire.BytesType)
	r = protowire.AppendString(r, name)
	r = protowire.AppendTag(r, 3, protowire.BytesType)
	r = protowire.AppendBytes(r, protowire.AppendVarint(protowire.AppendVarint(nil, id/2), 300))
	r = protowire.AppendTag(r, 4, protowire.BytesType)
	r = protowire.AppendBytes(r, []byte{1, 2, 0x80, 1})
	r = protowire.AppendTag(r, 9, protowire.BytesType) // a field named unknown…
	r = protowire.AppendBytes(r, []byte{2, 3, 4})
	r = protowire.AppendTag(r, 6, protowire.VarintType)
	r = protowire.AppendVarint(r, 1+id%3)
	for _, a := range [][2]string{{"kernel_file", "0"}, {"kernel_line", fmt.Sprint(line)}, {"kernel_name", "0"}, {"op_type", "x"}} {
		r = protowire.AppendTag(r, 7, protowire.BytesType)
		r = protowire.AppendBytes(r, hostileAttr(a[0], a[1]))
	}
	r = protowire.AppendTag(r, 8, protowire.VarintType)
	r = protowire.AppendVarint(r, id%5)
	return append(r, extra...)
}

// hostileFaults is a record of each fault the decoder knows of one, and of each form the
// table does not know.
func hostileFaults() [][]byte {
	rec, attr := hostileRec, hostileAttr
	tag := func(n protowire.Number, typ protowire.Type) []byte { return protowire.AppendTag(nil, n, typ) }
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	field7 := func(a []byte) []byte { return protowire.AppendBytes(tag(7, protowire.BytesType), a) }
	manyAttrs := rec(7, "I-7-0", 3)
	for range maxAttrs + 2 {
		manyAttrs = append(manyAttrs, field7(attr("k", "v"))...)
	}
	return [][]byte{
		rec(1, "bad\xffutf8", 1), // a name not UTF-8
		rec(2, "I-2-0", 2, cat(tag(3, protowire.BytesType), []byte{1, 0x80})...), // a packed list cut
		rec(3, "I-3-0", 3, cat(tag(2, protowire.VarintType), []byte{5})...),      // a wire type the table does not read
		rec(4, "I-4-0", 4, cat(tag(11, protowire.Fixed32Type), []byte{1, 2, 3, 4})...),
		rec(5, "I-5-0", 5, field7(attr("a", "b", 0x18, 1))...),                                   // an attribute with a field of its own
		rec(6, "I-6-0", 6, field7(attr("a\xfe", "b"))...),                                        // an attribute key not UTF-8
		rec(8, "I-8-0", 8, cat(tag(7, protowire.BytesType), []byte{3}, []byte{0x0a, 5, 'x'})...), // an attribute cut inside
		rec(9, "I-9-0", 9, cat(tag(12, protowire.StartGroupType), tag(1, protowire.VarintType), []byte{1}, tag(12, protowire.EndGroupType))...),
		rec(10, "I-10-0", 10, cat(tag(7, protowire.VarintType), []byte{1})...), // a message field as a varint
		rec(11, "I-11-0", 11, 0x08), // a varint cut at the record's end
		manyAttrs,
		rec(12, "", 0, cat(tag(1, protowire.VarintType), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})...), // a second, widest id
		{},
		rec(13, "I-13-0", 13, cat(tag(3, protowire.BytesType), []byte{0})...),                                            // an empty parent list after one
		rec(14, "I-14-0", 14, cat(tag(3, protowire.BytesType), []byte{10}, bytes.Repeat([]byte{0x80}, 9), []byte{2})...), // a parent id of eleven bytes
		rec(15, "I-15-0", 15, field7(attr("kernel_line", "\xc3"))...),                                                    // a value not UTF-8
		rec(16, "I-16-0", 16, field7(append(attr("kernel_line", "1"), attr("kernel_line", "2")...))...),                  // key and value twice
		rec(17, "I-17-0", 17, cat(tag(16, protowire.VarintType), []byte{1})...),                                          // a two-byte tag
	}
}

// hostileMembers builds backend, penguin and asm members of many good records (past the tree's
// node budget) with one faulty record after every few good ones (hostileFaults), and a
// top-level field between records now and then.
func hostileMembers() map[string][]byte {
	rec, tag, faults := hostileRec, func(n protowire.Number, typ protowire.Type) []byte { return protowire.AppendTag(nil, n, typ) }, hostileFaults()
	cat := func(bs ...[]byte) []byte { return bytes.Join(bs, nil) }
	member := func(top protowire.Number, recs [][]byte, trailer []byte) []byte {
		var b []byte
		b = protowire.AppendTag(b, 1, protowire.BytesType)
		b = protowire.AppendString(b, "hostile")
		for i, r := range recs {
			if i%40 == 39 {
				b = protowire.AppendTag(b, 9, protowire.VarintType) // a top-level field between records
				b = protowire.AppendVarint(b, uint64(i))
			}
			b = protowire.AppendTag(b, top, protowire.BytesType)
			b = protowire.AppendBytes(b, r)
		}
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendString(b, "/k.py")
		return append(b, trailer...)
	}
	var recs [][]byte
	for i := range 600 {
		recs = append(recs, rec(uint64(1000+i), fmt.Sprintf("I-%d-0-x", 1000+i-i%7), 10+i/9))
		if i >= 300 && i%9 == 0 {
			recs = append(recs, faults[(i/9)%len(faults)])
		}
	}
	var asm [][]byte
	for i := range 3000 {
		var r []byte
		r = protowire.AppendTag(r, 3, protowire.BytesType)
		r = protowire.AppendBytes(r, protowire.AppendVarint(nil, uint64(i/3)))
		switch {
		case i%5 == 0:
			r = nil // a word of no record
		case i > 2000 && i%97 == 0:
			r = append(r, cat(tag(3, protowire.BytesType), []byte{2, 0x81})...) // a packed list cut
		case i > 2000 && i%89 == 0:
			r = append(r, cat(tag(4, protowire.VarintType), []byte{1})...) // a field the table does not know
		case i > 2000 && i%83 == 0:
			r = append(r, cat(tag(3, protowire.VarintType), []byte{1})...) // a wire type the table does not read
		}
		asm = append(asm, r)
	}
	return map[string][]byte{
		"sg00/debug_info_backend_PE.dbg":         member(3, recs, nil),
		"sg00/debug_info_backend_Pool.dbg":       member(3, append(append([][]byte{}, faults...), recs[:100]...), nil), // the faults in the tree
		"sg00/debug_info_backend_DMA.dbg":        member(3, recs, []byte{0x1a, 0x80, 0x80, 0x80, 0x80, 0x01, 1}),       // a length past the member
		"debug_info/debug_info_penguin.dbg":      member(3, recs, []byte{0x0f}),                                        // a wire type that is none
		"debug_info/debug_info_hlo.dbg_sg000000": member(3, recs[:200], nil),
		"sg00/debug_info_asm_PE.dbg":             member(3, asm, nil),
		"sg00/debug_info_asm_DMA.dbg":            member(3, asm, []byte{0x1a, 0x05, 0x18}), // a record cut at the end
	}
}
