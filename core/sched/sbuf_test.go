package sched_test

import (
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The memory model places SBUF operands by reading an address as start
// partition << 18 | byte offset (neff.md §8.4), measured first on 12 Activate words. This
// checks that reading on every operand family, on 0xD4's SBUF sides and on the engine JSON's
// DMA descriptors of every real NEFF, before anything is built on it:
//   - the start partition is a quadrant (0, 32, 64, 96) and start + partitions <= 128;
//   - the byte offset stays below the target's partition size: 192 KiB on sunda (Trn1), and on
//     cayman (Trn2) 224 KiB, the end of the evtaccel range every cayman def.json reserves
//     (runtime_statebuffer_reservation: offset 229,368, size 8, 128 partitions);
//   - a DMA descriptor's SBUF side steps partitions by 1 << 18;
//   - a PSUM operand's offset stays in one partition's 16 KiB (the window holds no partition).
func TestSBUFAddressReading(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	// extent is the bytes an operand reaches before its address (back) and from it to past its
	// last element: steps are signed elements, counts 1..65535, innermost first (neff.md §4.4;
	// Ldweights reads its rows backwards). The operands are read through the opcode table
	// (isa.Operands), the one place that says where they are.
	extent := func(o isa.Operand) (back, ahead uint32, ok bool) {
		es := uint32(o.ElemBytes)
		if es == 0 {
			return 0, 0, false
		}
		var lo, hi int64
		for d := 0; d < o.Rank; d++ {
			if o.Counts[d] == 0 {
				return 0, 0, false
			}
			if o.Steps[d] < 0 {
				lo += (o.Counts[d] - 1) * o.Steps[d]
			} else {
				hi += (o.Counts[d] - 1) * o.Steps[d]
			}
		}
		return uint32(-lo) * es, uint32(hi+1) * es, true
	}
	var operands []isa.Operand
	partitionBytes := map[string]uint32{"sunda": 192 << 10, "cayman": 224 << 10}
	var sbufOps, psumOps, d4Sides, descSides int
	for _, p := range paths {
		rel := filepath.Base(p)
		f := openPath(t, p)
		limit, ok := partitionBytes[f.Program.Model.Target]
		if !ok {
			t.Errorf("%s: target %q has no partition size", rel, f.Program.Model.Target)
			continue
		}
		check := func(where string, part, parts, off, extent uint32) {
			if part%32 != 0 || part+parts > 128 || parts == 0 {
				t.Errorf("%s %s: partitions %d..%d", rel, where, part, part+parts)
			}
			if off+extent > limit {
				t.Errorf("%s %s: bytes %d..%d past %d", rel, where, off, off+extent, limit)
			}
		}
		for _, ps := range f.Program.Streams {
			for i, w := range ps.ISA.Words() {
				where := ps.Member + " #" + itoa(i)
				operands = isa.Operands(operands[:0], w)
				for _, o := range operands {
					a := o.Addr
					back, ext, ok := extent(o)
					if !ok || o.Undecided {
						t.Errorf("%s: %s: dtype %d or a pattern not read", where, o.Name, o.Dtype)
					}
					switch {
					case a&0x1FFFFFFF >= 0x2000000 && a&0x1FFFFFFF < 0x2400000:
						psumOps++
						if a-0x2000000 < back || a-0x2000000+ext > 16<<10 {
							t.Errorf("%s: PSUM bytes %#x..%#x", where, a-0x2000000, a-0x2000000+ext)
						}
					case a&0xFE000000 == 0:
						sbufOps++
						if a&(1<<18-1) < back {
							t.Errorf("%s: reaches %d bytes before its partition", where, back-a&(1<<18-1))
						}
						check(where, a>>18, uint32(o.Partitions), a&(1<<18-1), ext)
					default:
						t.Errorf("%s: address %#x in no space", where, a)
					}
				}
				if src, dst, ok := isa.Direct2dAddrs(w); ok {
					srcPat, dstPat, _ := isa.Direct2dPatterns(w)
					pats := []isa.DmaPattern{srcPat, dstPat}
					for k, side := range []isa.DmaAddr{src, dst} {
						if side.Tag != isa.DmaTagVar || side.ID != 0 {
							continue // not the state buffer
						}
						d4Sides++
						if step := pats[k].StepElem[0]; step != 1<<18 {
							t.Errorf("%s: 0xD4 SBUF side partition step %#x", where, step)
						}
						check(where, uint32(side.Offset)>>18, uint32(pats[k].NumElem[0]), uint32(side.Offset)&(1<<18-1), 0)
					}
				}
			}
		}
		for _, c := range f.Program.Model.Cores {
			for _, e := range c.Engines {
				for _, b := range e.DMABlocks {
					for k, d := range b.Descs {
						for _, side := range []struct {
							name         string
							off          int64
							sizes, steps []int64
						}{{d.From, d.FromOff, d.FromSizes, d.FromSteps}, {d.To, d.ToOff, d.ToSizes, d.ToSteps}} {
							if !isStateBuffer(c, side.name) {
								continue
							}
							descSides++
							where := e.JSONPath + " block " + itoa(int(b.ID)) + " desc " + itoa(k)
							parts, inner := int64(1), int64(0)
							for j, st := range side.steps {
								switch {
								case st == 1<<18:
									parts = side.sizes[j]
								case j == 0:
									inner = side.sizes[j]
								}
							}
							check(where, uint32(side.off>>18), uint32(parts), uint32(side.off&(1<<18-1)), uint32(inner))
						}
					}
				}
			}
		}
	}
	t.Logf("%d SBUF and %d PSUM operands, %d 0xD4 SBUF sides, %d DMA descriptor SBUF sides read as partition << 18 | offset", sbufOps, psumOps, d4Sides, descSides)
	if descSides == 0 && realfiles.SharedDir() == "" {
		t.Skip("DMA descriptors' SBUF sides not checked: the repository's matmul_small.neff has none, and ../shared/testdata-real/ is not beside the clone")
	}
	if sbufOps == 0 || d4Sides == 0 || descSides == 0 {
		if realfiles.SharedDir() == "" {
			// A clone alone has matmul_small, which has no engine-JSON DMA descriptor.
			t.Skip("DMA descriptor SBUF sides not checked: " + realfiles.Missing("cs149-trn1/stream_256k_fd1k.neff"))
		}
		t.Errorf("nothing checked")
	}
}

func isStateBuffer(c *manifest.Core, name string) bool {
	for i := range c.Vars {
		if c.Vars[i].Name == name {
			return c.Vars[i].VarAttrs != nil && c.Vars[i].Type == "state-buffer"
		}
	}
	return false
}

func itoa(i int) string {
	if i < 0 {
		return "-" + itoa(-i)
	}
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
