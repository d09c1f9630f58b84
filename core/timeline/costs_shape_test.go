package timeline

import (
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/isa"
)

// TestShapeSlotsMatchISA holds the cost model's operand slots to core/isa's layout table: each
// slot is a descriptor isa decodes at that offset with that rank, and its dtype byte is a field
// isa names a dtype.
func TestShapeSlotsMatchISA(t *testing.T) {
	check := func(op uint8, s *shapeSlot) {
		w := make([]byte, isa.WordSize)
		w[0], w[1] = op, 0x10
		in := isa.Decode(w, 0)
		desc, dtype := false, false
		for _, f := range in.Fields {
			if f.Group == isa.GroupDescriptor && f.Off == int(s.Off) && f.Width == 4+4*int(s.Rank) {
				desc = true
			}
			if f.Off == int(s.DtypeOff) && strings.Contains(f.Name, "dtype") {
				dtype = true
			}
		}
		if !desc || !dtype {
			t.Errorf("0x%02x %s: isa has no %d-D descriptor at +0x%02x (%v) or no dtype at +0x%02x (%v)", op, isa.OpcodeName(op), s.Rank, s.Off, desc, s.DtypeOff, dtype)
		}
	}
	for op, s := range shapeSlots {
		if s != nil {
			check(uint8(op), s)
		}
	}
	for op, s := range outSlots {
		if s != nil {
			check(uint8(op), s)
		}
	}
}
