package sched_test

import (
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// A Matmul's PSUM output spans the PE array's columns (+0x27), its input the rows (+0x26): NKI
// nc_matmul multiplies stationary [K, M] by moving [K, N] into [M, N]. On every real Matmul
// whose rows and columns differ (Trn1's K = 1 bias broadcasts, attn_v6's transposes), the
// model's PSUM box spans the columns, and the first access of another engine to those bytes
// reads them on as many partitions (or the next Matmul of its accumulation group writes them).
func TestMatmulPSUMPartitionsAreColumns(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	var words, readBack, accumulated int
	for _, p := range paths {
		f := openPath(t, p)
		m := f.Memmap()
		for _, c := range m.Cores {
			for k := range c.Accesses {
				a := &c.Accesses[k]
				if a.DMA || !a.Write || a.Space != sched.PSUM || c.Engines[a.At.Engine].Opcode(int(a.At.Index)) != 0x02 {
					continue
				}
				in := f.Program.Streams[streamIndex(t, f, c, a.At)].ISA.Instruction(int(a.At.Index))
				rows, _ := in.Field("rows")
				cols, _ := in.Field("columns")
				if rows.Raw == cols.Raw {
					continue
				}
				words++
				box := c.Boxes[a.BoxFrom]
				if uint64(box.Parts) != cols.Raw {
					t.Errorf("%s %s: PSUM box on %d partitions, columns %d, rows %d", filepath.Base(p), c.Ref(a.At), box.Parts, cols.Raw, rows.Raw)
				}
				// The first access of another engine to read those bytes after it, in the
				// schedule's order, with no other write of them between.
				step := c.Engines[a.At.Engine].Step(int(a.At.Index))
				stepOf := func(x *sched.Access) int32 { return c.Engines[x.At.Engine].Step(int(x.At.Index)) }
				overlaps := func(x *sched.Access) bool {
					b := c.Boxes[x.BoxFrom]
					return b.Offset <= box.Offset && box.Offset < b.Offset+b.Bytes+(max(b.Count, 1)-1)*b.Stride
				}
				var first *sched.Access
				for j := range c.Accesses {
					r := &c.Accesses[j]
					if r.Space != sched.PSUM || r == a || stepOf(r) <= step || !overlaps(r) {
						continue
					}
					if first == nil || stepOf(r) < stepOf(first) || stepOf(r) == stepOf(first) && r.Write {
						first = r
					}
				}
				if first != nil && first.Write && first.At.Engine == a.At.Engine {
					accumulated++ // the next Matmul of its accumulation group (start … stop)
					continue
				}
				if first == nil || first.Write || first.At.Engine == a.At.Engine {
					t.Errorf("%s %s: not read back", filepath.Base(p), c.Ref(a.At))
					continue
				}
				readBack++
				if rb := c.Boxes[first.BoxFrom]; uint64(rb.Parts) != cols.Raw {
					t.Errorf("%s %s: read back by %s on %d partitions, columns %d", filepath.Base(p), c.Ref(a.At), c.Ref(first.At), rb.Parts, cols.Raw)
				}
			}
		}
	}
	if words == 0 {
		t.Skip("no real Matmul whose rows and columns differ (they are in ../shared/testdata-real)")
	}
	t.Logf("%d Matmul words whose rows and columns differ: %d read back, %d accumulated into by the next of their group", words, readBack, accumulated)
	if len(paths) == 7 && (words != 26 || readBack != 24 || accumulated != 2) {
		t.Errorf("%d words, %d read back, %d accumulated; want 26, 24 and 2 on the seven shared NEFFs", words, readBack, accumulated)
	}
}

// streamIndex is the index in f's program streams of the stream an At of core c names.
func streamIndex(t *testing.T, f *inspect.File, c *sched.Core, at sched.At) int {
	t.Helper()
	member := c.Engines[at.Engine].Member
	for k, ps := range f.Program.Streams {
		if ps.Core.Name == c.Name && ps.Member == member {
			return k
		}
	}
	t.Fatalf("%s %s: no stream %s", c.Name, c.Ref(at), member)
	return -1
}
