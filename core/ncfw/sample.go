package ncfw

import "encoding/binary"

// Sample contexts: the project's own generator of raw CC contexts for tests, goldens, the
// page's demo and benchmarks (no real capture exists, spec §9).
const (
	SampleZero      = "zero"      // all zero, the arch's padded size
	SamplePatterned = "patterned" // every byte patterned, counts chosen to exercise each quirk
	SampleLarge     = "large"     // every count at its maximum: text near the 1 MiB buffer
)

// SampleContext builds a context of the arch's padded size (nil for an unknown arch or kind).
//
// The patterned context (spec §9 test 1): byte i = i·37+11 everywhere, then fold_n = i mod 4
// for next_neigh and (i+1) mod 4 for prev_neigh of channel i except the last channel's
// prev_neigh walks 5 (past its 3 slots, U-14); execute_device_barrier = 1 (%p prints 0x1);
// the configs basic-block table holds 2 records then a zero; the runtime basic-block table
// runs into barrier_completed = 1 (spec F36) and stops at ring row 0's zero recv_cnt.
func SampleContext(arch uint32, kind string) []byte {
	a, ok := ArchByID(arch)
	if !ok {
		return nil
	}
	ctx := make([]byte, a.Padded)
	switch kind {
	case SampleZero:
		return ctx
	case SamplePatterned:
		for i := range ctx {
			ctx[i] = byte(i*37 + 11)
		}
		for ch := int64(0); ch < 32; ch++ {
			row := ch * 148
			ctx[row+24] = byte(ch % 4)
			ctx[row+28+24] = byte((ch + 1) % 4)
		}
		ctx[31*148+28+24] = 5
		barrier := a.CfgNeff + 0x898
		ctx[barrier+0x124] = 0xFE | 1 // bit 0 set, reserved bits set too (not printed)
		table := a.CfgNeff + 0x9C0
		binary.LittleEndian.PutUint16(ctx[table:], 0x0102)
		binary.LittleEndian.PutUint16(ctx[table+4:], 0xFFFF)
		binary.LittleEndian.PutUint16(ctx[table+8:], 0)
		bbCtxTable := a.NeffCtx + 0x20 + 56
		binary.LittleEndian.PutUint16(ctx[bbCtxTable:], 7)
		ctx[a.NeffCtx+0x5C], ctx[a.NeffCtx+0x5D] = 1, 0 // barrier_completed; record 1's desc_count = 1
		binary.LittleEndian.PutUint16(ctx[a.AlgoCtx:], 0)
		return ctx
	case SampleLarge:
		for i := range ctx {
			ctx[i] = 0xFF
		}
		return ctx
	}
	return nil
}
