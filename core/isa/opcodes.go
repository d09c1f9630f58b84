package isa

import "strconv"

// opcodeRow is one row of the opcode name table: a code, its name, the band it belongs to and
// where the name comes from.
type opcodeRow struct {
	Code uint8
	Name string
	Band string
}

// modernOpcodes is the primary name source: neuronx-cc 2.24 `enum_variant_string_opcode`
// (wiki: Appendix — Master Dtype / Enum Reference), neff.md §4.3 [OBS]. 161 live codes; every
// code seen in the real streams of testdata-real is here and the names of 0x01, 0x02, 0x21,
// 0x23, 0xA0, 0xC1 agree with their documented field maps [REAL]. Confidence: high for the
// codes with documented layouts, medium for the rest (names only, from one decompiled enum).
var modernOpcodes = []opcodeRow{
	// PE, 1–10
	{0x01, "Ldweights", "PE"},
	{0x02, "Matmul", "PE"},
	{0x03, "PeRegWrite", "PE"},
	{0x04, "WeightMask", "PE"},
	{0x05, "WeightShift", "PE"},
	{0x06, "Ldtags", "PE"},
	{0x07, "MatmulSparse", "PE"},
	{0x08, "PeManageSeed", "PE"},
	{0x09, "LdweightsMX", "PE"},
	{0x0A, "MatmulMX", "PE"},
	// Activation, 0x21–0x30
	{0x21, "Activate", "Activation"},
	{0x22, "ActivateQuantize", "Activation"},
	{0x23, "ActivationTableLoad", "Activation"},
	{0x24, "ActivationReadAccumulator", "Activation"},
	{0x25, "Activate2", "Activation"}, // gen-4 only (CoreV4 'act2' mode)
	{0x30, "Exponential", "Activation"},
	// DVE / tensor, 0x41–0x5F
	{0x41, "TensorTensorArithOp", "DVE"},
	{0x42, "TensorReduceArithOp", "DVE"},
	{0x43, "TensorScalarArithOp", "DVE"},
	{0x44, "TensorScalarPtrArithOp", "DVE"},
	{0x45, "Pool", "DVE"},
	{0x46, "Copy", "DVE"},
	{0x47, "Cast", "DVE"},
	{0x48, "Reciprocal", "DVE"},
	{0x49, "Memset", "DVE"},
	{0x4A, "RegLoad", "DVE"},
	{0x4B, "RegStore", "DVE"},
	{0x4C, "RegShuffle", "DVE"},
	{0x4D, "Rng", "DVE"},
	{0x4E, "TensorCumulativeArithOp", "DVE"},
	{0x4F, "TensorScalarPtrMultiArith", "DVE"},
	{0x51, "TensorTensorBitvecOp", "DVE"},
	{0x52, "TensorReduceBitvecOp", "DVE"},
	{0x53, "TensorScalarBitvecOp", "DVE"},
	{0x54, "TensorScalarPtrBitvecOp", "DVE"},
	{0x58, "MaxPoolSelect", "DVE"},
	{0x5E, "TensorCumulativeBitvecOp", "DVE"},
	{0x5F, "TensorScalarPtrMultiBitvec", "DVE"},
	// 0x60–0x86
	{0x60, "BatchNormStats", "tensor"},
	{0x61, "BatchNormStats2", "tensor"},
	{0x62, "BatchNormAggregate", "tensor"},
	{0x63, "BatchNormGradAccumulate", "tensor"},
	{0x64, "BatchNormParamLoad", "tensor"},
	{0x65, "BatchNormBackProp", "tensor"},
	{0x66, "LoadParameterRam", "tensor"},
	{0x67, "PoolBufferLoad", "tensor"},
	{0x68, "Gather", "tensor"},
	{0x69, "LoadMaskSelect", "tensor"},
	{0x6A, "StreamShuffle", "tensor"},
	{0x6B, "StreamTranspose", "tensor"},
	{0x6C, "Max8", "tensor"},
	{0x6D, "MatchValueLoad", "tensor"},
	{0x6E, "FindIndex8", "tensor"},
	{0x6F, "MatchReplace8", "tensor"},
	{0x70, "TensorScalarImmLdArith", "tensor"},
	{0x71, "TensorScalarImmLdBitvec", "tensor"},
	{0x72, "CopyPredicated", "tensor"},
	{0x73, "RoiAlign", "tensor"},
	{0x74, "TensorScalarAddr", "tensor"},
	{0x76, "Rand", "tensor"},
	{0x77, "RandGetState", "tensor"},
	{0x78, "RandSetState", "tensor"},
	{0x79, "EmbeddingUpdate", "tensor"},
	{0x7A, "LoadPoolArgument", "tensor"},
	{0x7B, "TensorDequantize", "tensor"},
	{0x7C, "CrossLaneReduceArith", "tensor"},
	{0x7D, "CrossLaneReduceBitvec", "tensor"},
	{0x7E, "Iota", "tensor"},
	{0x7F, "Dropout", "tensor"},
	{0x81, "JpegDecode", "tensor"},
	{0x82, "TransposeBatchNormStats2", "tensor"},
	{0x83, "TransposeTensorReduceArithOp", "tensor"},
	{0x84, "TransposeTensorReduceBitvecOp", "tensor"},
	{0x85, "CustomOpHeader", "tensor"},
	{0x86, "CustomOpPayload", "tensor"},
	// 0x8E–0xA1
	{0x8E, "BatchNormParamLoad2", "tensor"},
	{0x92, "TensorScalarAffineSelect", "tensor"},
	{0x93, "TransposeTensorScalarArithOp", "tensor"},
	{0x94, "BatchNormGradAccumulate2", "tensor"},
	{0x95, "ModifyPoolConfig", "tensor"},
	{0x96, "Sort", "tensor"},
	{0x98, "TensorScalarSelect", "tensor"},
	{0x99, "CastPredicated", "tensor"},
	{0x9A, "TensorScalarCacheReduce", "tensor"},
	{0x9B, "DveReadAccumulator", "tensor"},
	{0x9C, "TensorReduceRangeCheck", "tensor"},
	{0x9D, "ScalarTensorTensorArith", "tensor"},
	{0x9E, "ScalarTensorTensorBitvec", "tensor"},
	{0x9F, "EngineNop", "tensor"},
	{0xA0, "EventSemaphore", "control"},
	{0xA1, "Halt", "control"},
	// control / SP, 0xA2–0xB7
	{0xA2, "Drain", "control"},
	{0xA3, "InstructionFlush", "control"},
	{0xA4, "Nop", "control"},
	{0xA5, "Write", "control"},
	{0xA6, "Notify", "control"},
	{0xA7, "Move", "control"},
	{0xA8, "AluOp", "control"},
	{0xA9, "CompareBranch", "control"},
	{0xAA, "TensorLoad", "control"},
	{0xAB, "TensorStore", "control"},
	{0xB0, "EventSemaphoreRangeClear", "control"},
	{0xB1, "SetOrderingMode", "control"},
	{0xB2, "MoveShape", "control"},
	{0xB3, "PollSem", "control"},
	{0xB4, "TestEventSem", "control"},
	{0xB5, "BranchPrefetchHint", "control"},
	{0xB7, "UcodeConfig", "control"},
	// DMA, 0xB8–0xC3
	{0xB8, "DMAMemcpy", "DMA"},
	{0xBB, "DmaIndirect", "DMA"},
	{0xBC, "RangeSelect", "DMA"},
	{0xBD, "DmaTranspose", "DMA"},
	{0xBE, "GetSequenceBounds", "DMA"},
	{0xBF, "Sb2sbCollective", "DMA"},
	{0xC1, "PseudoDMATrigger", "pseudo"},
	// pseudo, 0xC2–0xDF: placeholders the runtime rewrites at load (neff.md §4.3)
	{0xC2, "PseudoDMARearm", "pseudo"},
	{0xC3, "PseudoDMABarrier", "pseudo"},
	{0xC4, "PseudoDMAMemcpyFullInd", "pseudo"},
	{0xC5, "PseudoSemaphoreSet", "pseudo"},
	{0xC6, "PseudoLoadActFuncSet", "pseudo"},
	{0xC7, "PseudoTriggerAllReduce", "pseudo"},
	{0xC8, "PseudoTriggerCollective", "pseudo"},
	{0xC9, "PseudoReadVarAddr", "pseudo"},
	{0xCA, "PseudoEmbeddingUpdate", "pseudo"},
	{0xCB, "PseudoSendRecv", "pseudo"},
	{0xCC, "PseudoBranchLabel", "pseudo"},
	{0xCD, "PseudoTensorStore", "pseudo"},
	{0xCE, "PseudoTensorLoad", "pseudo"},
	{0xCF, "PseudoDMASwapQueueSet", "pseudo"},
	{0xD0, "PseudoSetRngSeed", "pseudo"},
	{0xD1, "PseudoFunctionBegin", "pseudo"},
	{0xD2, "PseudoFunctionReturn", "pseudo"},
	{0xD3, "PseudoFunctionCall", "pseudo"},
	{0xD4, "PseudoDmaDirect2d", "pseudo"},
	{0xD5, "PseudoSyncBarrier", "pseudo"},
	{0xD6, "PseudoRangeCheck", "pseudo"},
	{0xD7, "PseudoJpegDecode", "pseudo"},
	{0xD8, "PseudoCoreBarrier", "pseudo"},
	{0xD9, "PseudoTriggerCollective2", "pseudo"},
	{0xDA, "PseudoExtension", "pseudo"},
	{0xDB, "PseudoCurProcessingRankID", "pseudo"},
	{0xDC, "PseudoGidLoad", "pseudo"},
	{0xDD, "PseudoBranchPrefetchHint", "pseudo"},
	{0xDE, "PseudoTensorCompletion", "pseudo"},
	{0xDF, "PseudoInst", "pseudo"},
	// 0xE0–0xEB
	{0xE0, "SparsityCompress", "tensor"},
	{0xE1, "SparsityCompressTag", "tensor"},
	{0xE2, "Rand2", "tensor"},
	{0xE3, "QuantizeMX", "tensor"},
	{0xE4, "ConvLutLoad", "tensor"},
	{0xE5, "TensorTensorScanArith", "tensor"},
	{0xE6, "TensorScalarCacheCumulative", "tensor"},
	{0xE7, "IndirectCopy", "tensor"},
	{0xE8, "CopyPredicatedScalar", "tensor"},
	{0xE9, "DveReadIndices", "tensor"},
	{0xEA, "SelectReduce", "tensor"},
	{0xEB, "Hint", "tensor"},
	// high
	{0xF0, "ExtendedInst", "Pool"}, // the GPSIMD custom-op bridge (neff.md §4.6)
	{0xF1, "DmaGatherTranspose", "DMA"},
	{0xF2, "NonzeroWithCount", "tensor"},
	{0xFF, "Invalid", "reserved"},
}

// tongaOpcodes is the fallback name source: the legacy Tonga (inf1) encoding,
// opcode = base | engine<<5 (aws_tonga_isa_tpb_common.h via wiki "Per-Engine TPB-Sequencer
// Microcode"), neff.md §4.3 [OBS]. Used only where the modern list has no name, and only for
// ≤0x6A and 0xC1–0xC8 as the spec says. Every such code currently also has a modern name, so in
// practice these names appear as the "legacy" detail; where they disagree with the modern name
// see unknowns.go isa.opcode-name-disagreement. Confidence: medium (old ISA header, old chips).
var tongaOpcodes = []opcodeRow{
	{0x01, "LDWEIGHTS", "PE"},
	{0x02, "MATMUL", "PE"},
	{0x21, "ACTIVATE", "ACT"},
	{0x22, "ACTIVATE_QUANTIZE", "ACT"},
	{0x41, "TT_ARITH", "POOL"},
	{0x42, "TR_ARITH", "POOL"},
	{0x43, "TS_ARITH", "POOL"},
	{0x44, "TSP_ARITH", "POOL"},
	{0x45, "POOL", "POOL"},
	{0x46, "COPY", "POOL"},
	{0x47, "CAST", "POOL"},
	{0x48, "RECIPROCAL", "POOL"},
	{0x49, "MEMSET", "POOL"},
	{0x4A, "REG_LOAD", "POOL"},
	{0x4B, "REG_STORE", "POOL"},
	{0x4C, "REG_SHUFFLE", "POOL"},
	{0x4D, "RNG", "POOL"},
	{0x4E, "CUMUL_ARITH", "POOL"},
	{0x51, "TT_BITVEC", "POOL"},
	{0x52, "TR_BITVEC", "POOL"},
	{0x53, "TS_BITVEC", "POOL"},
	{0x54, "TSP_BITVEC", "POOL"},
	{0x5E, "CUMUL_BITVEC", "POOL"},
	{0x61, "EVENT_WAIT", "ALL"},
	{0x62, "EVENT_SET", "ALL"},
	{0x63, "EVENT_CLEAR", "ALL"},
	{0x65, "SEM_TEST_AND_SET", "ALL"},
	{0x68, "NOP", "ALL"},
	{0x69, "WRITE", "ALL"},
	{0x6A, "NOTIFY", "ALL"},
	{0xC1, "PSEUDO_DMA_TRIGGER", "RT"},
	{0xC2, "REARM", "RT"},
	{0xC3, "BARRIER", "RT"},
	{0xC4, "MEMCPY", "RT"},
	{0xC5, "SEMAPHORE_SET", "RT"},
	{0xC6, "LOAD_ACT_FUNC_SET", "RT"},
	{0xC7, "SET_TRANSFER_ADJUST", "RT"},
	{0xC8, "READ_VAR_ADDR", "RT"}, // later reassigned to TRIGGER_COLLECTIVE
}

// Name sources an opcode's name can come from.
const (
	SourceModern = "modern" // neuronx-cc 2.24 enum (neff.md §4.3)
	SourceTonga  = "tonga"  // legacy Tonga ISA header (neff.md §4.3), fallback only
	SourceNone   = ""       // not in any table: shown raw as op_0xNN
)

// OpcodeInfo is what the tables say about one opcode.
type OpcodeInfo struct {
	Code   uint8
	Name   string // the display name: modern, else Tonga, else op_0xNN
	Source string // SourceModern, SourceTonga or SourceNone
	Band   string
	Legacy string // the Tonga name, when the legacy table has one (may differ from Name)
}

// Known reports whether the name came from a table.
func (o OpcodeInfo) Known() bool { return o.Source != SourceNone }

var opcodeTable [256]OpcodeInfo

func init() {
	for i := range opcodeTable {
		opcodeTable[i] = OpcodeInfo{Code: uint8(i), Name: rawOpcodeName(uint8(i))}
	}
	for _, r := range tongaOpcodes {
		o := &opcodeTable[r.Code]
		o.Legacy = r.Name
		// The spec limits the fallback to ≤0x6A and 0xC1–0xC8 (neff.md §4.3).
		if r.Code <= 0x6A || (r.Code >= 0xC1 && r.Code <= 0xC8) {
			o.Name, o.Source, o.Band = r.Name, SourceTonga, r.Band
		}
	}
	for _, r := range modernOpcodes {
		o := &opcodeTable[r.Code]
		o.Name, o.Source, o.Band = r.Name, SourceModern, r.Band
	}
}

func rawOpcodeName(code uint8) string {
	const hexdigits = "0123456789abcdef"
	return "op_0x" + string([]byte{hexdigits[code>>4], hexdigits[code&15]})
}

// Opcode returns the table entry for a code; codes in no table get the raw name op_0xNN.
func Opcode(code uint8) OpcodeInfo { return opcodeTable[code] }

// OpcodeName is Opcode(code).Name.
func OpcodeName(code uint8) string { return opcodeTable[code].Name }

// hex2 renders a byte as 0xNN.
func hex2(b uint8) string { return "0x" + strconv.FormatUint(uint64(b)|0x100, 16)[1:] }
