// Package featurebits is the one catalogue of the NEFF header's feature_bits mask (spec
// neff.md §1.4): bit, name, the def.json neff_features string, meaning and how sure we are.
// It is data only; the container decoder (header view, runtime verdict) and the manifest
// decoder (def.json cross-check) both read it.
package featurebits

import "fmt"

// Feature is one bit of the NEFF header's feature_bits mask (spec neff.md §1.4).
type Feature struct {
	Bit uint64
	// Name is what neffscope calls the bit; DefJSON is the string sgNN/def.json lists in
	// neff_features when the producer pushes one ("" when it pushes none).
	Name    string
	DefJSON string
	Meaning string
	// Confidence: "real" (seen in real files and tied to def.json), "wiki" (name from the
	// reverse-engineering notes only), "inferred".
	Confidence string
}

// All is the bit catalogue of spec neff.md §1.4 (producer: neuronx-cc 2.24
// writeNEFFFeatures, per the compiler wiki). Bits 18, 19, 23 and 26 have no name anywhere
// (spec §7.4) and are deliberately absent. Unknown-ID: neff.feature-names.
var All = []Feature{
	{0x1, "bin_weights", "", "binary weight files instead of numpy (inferred from the packager's feature order)", "inferred"},
	{0x2, "collective_has_offset", "collective_has_offset", "collective ops carry a collective-group offset", "wiki"},
	{0x4, "custom_ops", "neff_feature_custom_ops", "GPSIMD custom-op µcode library present (ucode_lib.json, cpu.so)", "wiki"},
	{0x8, "coalesced_ccops", "neff_coalesced_ccops", "coalesced multi-channel collective-compute descriptors", "wiki"},
	{0x10, "queue_set_instances", "neff_queue_set_instances", "DMA queue-set instances", "wiki"},
	{0x20, "has_functions", "neff_has_functions", "multi-function NEFF (call table)", "wiki"},
	{0x40, "dynamic_pwp", "neff_feature_dynamic_pwp", "activation tables loaded dynamically (LoadActFuncSet)", "wiki"},
	{0x80, "indirect_memcpy_32b_sem_wait", "neff_feature_indirect_memcpy_32b_sem_wait", "indirect DMA with a 32-bit semaphore-wait value", "wiki"},
	{0x100, "indirect_memcpy_bound_check", "neff_feature_indirect_memcpy_bound_check", "hardware bounds check on indirect DMA", "wiki"},
	{0x200, "DMA_desc_higher_dim", "neff_feature_DMA_desc_higher_dim", "3D/4D DMA descriptors", "wiki"},
	{0x400, "vnc", "neff_feature_vnc", "more than one virtual core (LNC > 1)", "real"},
	{0x800, "dve_perf_mode", "", "DVE performance mode (arch level > 20)", "real"},
	{0x1000, "DGE", "", "dynamic DMA (descriptor-generation engine)", "wiki"},
	{0x2000, "POOL_RSQRT", "", "Pool-engine rsqrt", "wiki"},
	{0x4000, "remote_sem", "neff_feature_remote_sem", "cross-core remote semaphore updates", "wiki"},
	{0x8000, "DGE_cast", "", "DGE with dtype cast", "wiki"},
	{0x10000, "vector_DGE", "", "vector DGE", "wiki"},
	{0x20000, "embedding_stride32", "", "embedding with 32-bit stride", "wiki"},
	{0x100000, "SQI_no_rearm", "", "SQI without re-arm", "wiki"},
	{0x200000, "hardware_DGE", "", "hardware DGE", "wiki"},
	{0x400000, "partial_sb2sb_ccop", "", "partial SBUF-to-SBUF collective op", "wiki"},
	{0x1000000, "arch_gen4", "", "set when the arch level is above 39 (gen-4 and later)", "wiki"},
	{0x2000000, "large_tensor_support", "", "64-bit addressing", "wiki"},
}

// ByBit finds the catalogue row of one bit value (e.g. 0x400).
func ByBit(v uint64) (Feature, bool) {
	for _, f := range All {
		if f.Bit == v {
			return f, true
		}
	}
	return Feature{}, false
}

// ByDefJSON finds the row whose def.json neff_features string is s.
func ByDefJSON(s string) (Feature, bool) {
	for _, f := range All {
		if f.DefJSON != "" && f.DefJSON == s {
			return f, true
		}
	}
	return Feature{}, false
}

// Names names the set bits of mask; bits without a name come back as "bit N (0x…)" and are
// also returned in unknown.
func Names(mask uint64) (names []string, unknown []uint64) {
	for bit := 0; bit < 64; bit++ {
		v := uint64(1) << bit
		if mask&v == 0 {
			continue
		}
		if f, ok := ByBit(v); ok {
			names = append(names, f.Name)
		} else {
			names = append(names, fmt.Sprintf("bit %d (0x%x)", bit, v))
			unknown = append(unknown, v)
		}
	}
	return names, unknown
}
