package sched_test

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/sched"
)

// activate writes an Activate (0x21) word over w: fp32 in, out and imm (neff.md §4.5), 128
// active channels, src and dst one element each, and imm0 read per its source byte (0: an
// SBUF/PSUM pointer, 1: an inline float, 2: a register).
func activate(w []byte, src, dst, imm0 uint32, immSource byte) {
	clear(w)
	w[0], w[1] = 0x21, 0x10
	desc := func(off int, addr uint32) {
		binary.LittleEndian.PutUint32(w[off:], addr)
		for d := range 3 {
			binary.LittleEndian.PutUint16(w[off+4+2*d:], 1) // step
			binary.LittleEndian.PutUint16(w[off+10+2*d:], 1)
		}
	}
	desc(0x10, src)
	desc(0x30, dst)
	w[0x0F] = immSource
	w[0x20], w[0x21], w[0x22], w[0x23] = 0xAA, 10, 128, 1
	binary.LittleEndian.PutUint32(w[0x24:], math.Float32bits(1))
	binary.LittleEndian.PutUint32(w[0x28:], imm0)
}

// memFound lists a model's memory lints as "code A / B space" (the pair sorted) and its
// undecided memory entries as "code What (count)".
func memFound(m *sched.Model) (lints, undecided []string) {
	for _, c := range m.Cores {
		for _, l := range c.MemLints {
			pair := []string{c.Ref(c.Accesses[l.Access].At), c.Ref(c.Accesses[l.Other].At)}
			if c.Accesses[l.Other].DMA {
				pair[1] += "'s DMA"
			}
			if c.Accesses[l.Access].DMA {
				pair[0] += "'s DMA"
			}
			sort.Strings(pair)
			lints = append(lints, c.Name+" "+l.Code.String()+" "+strings.Join(pair, " / ")+" "+c.Accesses[l.Access].Space.String())
		}
		for _, u := range c.MemIssues {
			undecided = append(undecided, fmt.Sprintf("%s %s %s (%d)", c.Name, u.Code, u.What, u.Count))
		}
	}
	return lints, undecided
}

// An Activate whose bias (imm0, source 0) points at the SBUF bytes Pool's first DMA of
// matmul_small writes (x → SB:0x37c00, 128 partitions), with no wait between them: the race
// runs through the bias pointer alone, which the model places as one element per partition.
func TestActivateBiasRace(t *testing.T) {
	f := mutated(t, func(path string, b []byte) []byte {
		if path == "sg00/Activation.bin" {
			activate(word(b, 1), 0x100, 0x200, 0x37c00, 0)
		}
		return b
	})
	lints, undecided := memFound(f.Memmap())
	want := []string{"sg00 mem.unsync Activation #1 / Pool #2's DMA SBUF"}
	if strings.Join(lints, "\n") != strings.Join(want, "\n") || len(undecided) != 0 {
		t.Errorf("lints %q, undecided %q; want %q", lints, undecided, want)
	}
	// The same word with an inline bias (source 1) or a register (2) reads no memory there.
	for _, src := range []byte{1, 2} {
		f := mutated(t, func(path string, b []byte) []byte {
			if path == "sg00/Activation.bin" {
				activate(word(b, 1), 0x100, 0x200, 0x37c00, src)
			}
			return b
		})
		if lints, undecided := memFound(f.Memmap()); len(lints)+len(undecided) != 0 {
			t.Errorf("imm0 source %d: lints %q, undecided %q", src, lints, undecided)
		}
	}
}

// Every operand the model does not place is an undecided entry, counted per engine and kind:
// an imm0 source the spec does not name, a scale pointer in a register, a PseudoDmaDirect2d
// side whose DGE-table index names no var. No lint is given from them.
func TestUnplacedOperandsAreUndecided(t *testing.T) {
	f := mutated(t, func(path string, b []byte) []byte {
		switch path {
		case "sg00/Activation.bin":
			activate(word(b, 1), 0x100, 0x200, 0x37c00, 7)
		case "sg00/DVE.bin":
			activate(word(b, 1), 0x300, 0x400, 0, 1)
			word(b, 1)[0x0D] = 1                                         // the scale is a pointer…
			binary.LittleEndian.PutUint32(word(b, 1)[0x24:], 0x80000005) // …in register R5
		case "sg00/Pool.bin":
			word(b, 3)[0x14] = 9 // addr0 dge[9]: matmul_small's table has 3 entries
		}
		return b
	})
	lints, undecided := memFound(f.Memmap())
	want := []string{
		"sg00 mem.unknown-operands Activate imm0 (1)",
		"sg00 mem.unknown-operands PseudoDmaDirect2d side naming no var of def.json (1)",
		"sg00 mem.unknown-operands Activate scale (1)",
	}
	sort.Strings(undecided)
	sort.Strings(want)
	if len(lints) != 0 || strings.Join(undecided, "\n") != strings.Join(want, "\n") {
		t.Errorf("lints %q\nundecided:\n%s\nwant:\n%s", lints, strings.Join(undecided, "\n"), strings.Join(want, "\n"))
	}
}
