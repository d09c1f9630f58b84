package sched_test

import (
	"encoding/binary"
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
	// Operand slots (neff.md §4.4) and where each opcode keeps its partition count.
	// dtype reads each slot's wire dtype tag (neff.md §4.4; the isa layouts' dtype fields);
	// PE's PSUM output is taken as fp32 (10), what the accumulation holds.
	type slot struct {
		off, rank int
		dtype     func(w []byte) uint8
	}
	at := func(off int) func(w []byte) uint8 { return func(w []byte) uint8 { return w[off] } }
	lo := func(off int) func(w []byte) uint8 { return func(w []byte) uint8 { return w[off] & 15 } }
	hi := func(off int) func(w []byte) uint8 { return func(w []byte) uint8 { return w[off] >> 4 } }
	fp32 := func([]byte) uint8 { return 10 }
	ops := map[uint8]struct {
		slots []slot
		parts func(w []byte) int
	}{
		0x01: {[]slot{{0x10, 3, at(0x20)}}, func(w []byte) int { return int(w[0x26]) }},                  // Ldweights: rows
		0x02: {[]slot{{0x10, 3, at(0x20)}, {0x30, 3, fp32}}, func(w []byte) int { return int(w[0x26]) }}, // Matmul: rows
		0x21: {[]slot{{0x10, 3, lo(0x20)}, {0x30, 3, at(0x21)}}, func(w []byte) int { return int(w[0x22]) }},
		0x41: {[]slot{{0x10, 3, at(0x0D)}, {0x20, 3, lo(0x0C)}, {0x30, 3, hi(0x0C)}}, func(w []byte) int { return int(w[0x0F]) }},
		0x42: {[]slot{{0x0C, 4, at(0x20)}, {0x2C, 4, at(0x21)}}, func(w []byte) int { return int(w[0x22]) }},
		0x46: {[]slot{{0x0C, 4, at(0x20)}, {0x2C, 4, at(0x21)}}, func(w []byte) int { return int(w[0x22]) }},
		0x47: {[]slot{{0x0C, 4, at(0x20)}, {0x2C, 4, at(0x21)}}, func(w []byte) int { return int(w[0x22]) }},
		0x49: {[]slot{{0x2C, 4, at(0x20)}}, func(w []byte) int { return int(w[0x22]) }},
	}
	elemBytes := map[uint8]uint32{1: 8, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 2, 8: 4, 9: 4, 10: 4, 11: 4, 12: 8, 13: 1, 14: 1, 15: 1}
	// extent is the bytes an access pattern reaches before its address (back) and from it to
	// past its last element: steps are signed elements, counts 1..65535, innermost first
	// (neff.md §4.4; Ldweights reads its rows backwards).
	extent := func(w []byte, s slot) (back, ahead uint32, ok bool) {
		es, ok := elemBytes[s.dtype(w)]
		if !ok {
			return 0, 0, false
		}
		var lo, hi int64
		for d := 0; d < s.rank; d++ {
			step := int64(int16(binary.LittleEndian.Uint16(w[s.off+4+2*d:])))
			count := int64(binary.LittleEndian.Uint16(w[s.off+4+2*s.rank+2*d:]))
			if count == 0 {
				return 0, 0, false
			}
			if step < 0 {
				lo += (count - 1) * step
			} else {
				hi += (count - 1) * step
			}
		}
		return uint32(-lo) * es, uint32(hi+1) * es, true
	}
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
				if o, ok := ops[w[0]]; ok {
					for _, s := range o.slots {
						a := binary.LittleEndian.Uint32(w[s.off:])
						back, ext, ok := extent(w, s)
						if !ok {
							t.Errorf("%s: slot +%#x: dtype %d or a pattern not read", where, s.off, s.dtype(w))
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
							check(where, a>>18, uint32(o.parts(w)), a&(1<<18-1), ext)
						default:
							t.Errorf("%s: address %#x in no space", where, a)
						}
					}
				}
				if src, dst, ok := isa.Direct2dAddrs(w); ok {
					for k, side := range []isa.DmaAddr{src, dst} {
						base := 0x18 + 0x18*k // the side's access pattern: partition step, elem step, partitions
						if side.Tag != isa.DmaTagVar || side.ID != 0 {
							continue // not the state buffer
						}
						d4Sides++
						if step := binary.LittleEndian.Uint32(w[base:]); step != 1<<18 {
							t.Errorf("%s: 0xD4 SBUF side partition step %#x", where, step)
						}
						check(where, uint32(side.Offset)>>18, uint32(binary.LittleEndian.Uint16(w[base+8:])), uint32(side.Offset)&(1<<18-1), 0)
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
