package isa

import "strconv"

// opcodeRow is one row of the opcode table, the one place that says what an opcode is and does:
// its code and name, the band it belongs to, what core/inspect joins it with (Join, read by
// JoinOf), what it does to the semaphores beyond its sync band (Sync, SyncEffectOf) and how
// its operands reach SBUF and PSUM (Memory, MemoryOf; the operand slots themselves are its
// layout row's Operands, layouts.go). TestOpcodeTableMatchesLayouts holds every column to
// the layouts and the accessors that read them.
type opcodeRow struct {
	Code       uint8
	Name       string
	Band       string
	Join       Join
	Sync       SyncEffect
	Memory     Memory
	Confidence string
}

// nameRow is a row of a name-only table: a code, its name, its band and where the name comes
// from (the legacy encodings, which name codes and nothing more).
type nameRow struct {
	Code       uint8
	Name       string
	Band       string
	Confidence string
}

// Confidence of an opcode row (neff.md §4.3, §4.1, §5).
const (
	confREAL    = "high: the code occurs in real streams (testdata-real, neff.md §4.1) and the 2.24 enum names it [REAL code, OBS name]"
	confFixture = "high: the libnrt fixture word decodes with this name (neff.md §5) [OBS]"
	confEnum    = "medium: neuronx-cc 2.24 enum only, not seen in real streams [OBS]"
	confTonga   = "medium: legacy Tonga ISA header, older chips [OBS]"
)

// modernOpcodes is the primary name source: neuronx-cc 2.24 `enum_variant_string_opcode`
// (wiki: Appendix — Master Dtype / Enum Reference), neff.md §4.3 [OBS]. 161 live codes; every
// code seen in the real streams of testdata-real is here and the names of 0x01, 0x02, 0x21,
// 0x23, 0xA0, 0xC1 agree with their documented field maps [REAL]. Confidence: high for the
// codes with documented layouts, medium for the rest (names only, from one decompiled enum;
// isa.opcode-names-unverified).
var modernOpcodes = []opcodeRow{
	// PE, 1–10
	{0x01, "Ldweights", "PE", JoinNone, SyncBandOnly, MemOperands, confREAL},
	{0x02, "Matmul", "PE", JoinNone, SyncBandOnly, MemOperands, confREAL},
	{0x03, "PeRegWrite", "PE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x04, "WeightMask", "PE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x05, "WeightShift", "PE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x06, "Ldtags", "PE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x07, "MatmulSparse", "PE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x08, "PeManageSeed", "PE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x09, "LdweightsMX", "PE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x0A, "MatmulMX", "PE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	// Activation, 0x21–0x30
	{0x21, "Activate", "Activation", JoinActivation, SyncBandOnly, MemOperands, confREAL},
	{0x22, "ActivateQuantize", "Activation", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x23, "ActivationTableLoad", "Activation", JoinActivation, SyncBandOnly, MemNone, confREAL},
	{0x24, "ActivationReadAccumulator", "Activation", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x25, "Activate2", "Activation", JoinActivation, SyncBandOnly, MemUnknown, confEnum}, // gen-4 only (CoreV4 'act2' mode)
	{0x30, "Exponential", "Activation", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	// DVE / tensor, 0x41–0x5F
	{0x41, "TensorTensorArithOp", "DVE", JoinNone, SyncBandOnly, MemOperands, confREAL},
	{0x42, "TensorReduceArithOp", "DVE", JoinNone, SyncBandOnly, MemOperands, confREAL},
	{0x43, "TensorScalarArithOp", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x44, "TensorScalarPtrArithOp", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x45, "Pool", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x46, "Copy", "DVE", JoinNone, SyncBandOnly, MemOperands, confREAL},
	{0x47, "Cast", "DVE", JoinNone, SyncBandOnly, MemOperands, confREAL},
	{0x48, "Reciprocal", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x49, "Memset", "DVE", JoinNone, SyncBandOnly, MemOperands, confREAL},
	{0x4A, "RegLoad", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x4B, "RegStore", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x4C, "RegShuffle", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x4D, "Rng", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x4E, "TensorCumulativeArithOp", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x4F, "TensorScalarPtrMultiArith", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x51, "TensorTensorBitvecOp", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x52, "TensorReduceBitvecOp", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x53, "TensorScalarBitvecOp", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x54, "TensorScalarPtrBitvecOp", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x58, "MaxPoolSelect", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x5E, "TensorCumulativeBitvecOp", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x5F, "TensorScalarPtrMultiBitvec", "DVE", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	// 0x60–0x86
	{0x60, "BatchNormStats", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x61, "BatchNormStats2", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x62, "BatchNormAggregate", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x63, "BatchNormGradAccumulate", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x64, "BatchNormParamLoad", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x65, "BatchNormBackProp", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x66, "LoadParameterRam", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x67, "PoolBufferLoad", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x68, "Gather", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x69, "LoadMaskSelect", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x6A, "StreamShuffle", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x6B, "StreamTranspose", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x6C, "Max8", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x6D, "MatchValueLoad", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x6E, "FindIndex8", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x6F, "MatchReplace8", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x70, "TensorScalarImmLdArith", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x71, "TensorScalarImmLdBitvec", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x72, "CopyPredicated", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x73, "RoiAlign", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x74, "TensorScalarAddr", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x76, "Rand", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x77, "RandGetState", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x78, "RandSetState", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x79, "EmbeddingUpdate", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x7A, "LoadPoolArgument", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x7B, "TensorDequantize", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x7C, "CrossLaneReduceArith", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x7D, "CrossLaneReduceBitvec", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x7E, "Iota", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x7F, "Dropout", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x81, "JpegDecode", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x82, "TransposeBatchNormStats2", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x83, "TransposeTensorReduceArithOp", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x84, "TransposeTensorReduceBitvecOp", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x85, "CustomOpHeader", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x86, "CustomOpPayload", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	// 0x8E–0xA1
	{0x8E, "BatchNormParamLoad2", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x92, "TensorScalarAffineSelect", "tensor", JoinNone, SyncBandOnly, MemUnknown, confREAL},
	{0x93, "TransposeTensorScalarArithOp", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x94, "BatchNormGradAccumulate2", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x95, "ModifyPoolConfig", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x96, "Sort", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x98, "TensorScalarSelect", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x99, "CastPredicated", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x9A, "TensorScalarCacheReduce", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x9B, "DveReadAccumulator", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x9C, "TensorReduceRangeCheck", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x9D, "ScalarTensorTensorArith", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x9E, "ScalarTensorTensorBitvec", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0x9F, "EngineNop", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xA0, "EventSemaphore", "control", JoinNone, SyncSecondBand, MemNone, confREAL},
	{0xA1, "Halt", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	// control / SP, 0xA2–0xB7
	{0xA2, "Drain", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xA3, "InstructionFlush", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xA4, "Nop", "control", JoinNone, SyncBandOnly, MemNone, confREAL},
	{0xA5, "Write", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xA6, "Notify", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xA7, "Move", "control", JoinNone, SyncBandOnly, MemNone, confREAL},
	{0xA8, "AluOp", "control", JoinNone, SyncBandOnly, MemNone, confEnum},
	{0xA9, "CompareBranch", "control", JoinNone, SyncBranch, MemUnknown, confEnum},
	{0xAA, "TensorLoad", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xAB, "TensorStore", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xB0, "EventSemaphoreRangeClear", "control", JoinNone, SyncSet, MemUnknown, confEnum},
	{0xB1, "SetOrderingMode", "control", JoinNone, SyncBandOnly, MemNone, confREAL},
	{0xB2, "MoveShape", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xB3, "PollSem", "control", JoinNone, SyncPoll, MemUnknown, confEnum},
	{0xB4, "TestEventSem", "control", JoinNone, SyncPoll, MemUnknown, confEnum},
	{0xB5, "BranchPrefetchHint", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xB7, "UcodeConfig", "control", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	// DMA, 0xB8–0xC3
	{0xB8, "DMAMemcpy", "DMA", JoinNone, SyncDMAUndecoded, MemUnknown, confEnum},
	{0xBB, "DmaIndirect", "DMA", JoinNone, SyncDMAUndecoded, MemUnknown, confEnum},
	{0xBC, "RangeSelect", "DMA", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xBD, "DmaTranspose", "DMA", JoinNone, SyncDMAUndecoded, MemUnknown, confEnum},
	{0xBE, "GetSequenceBounds", "DMA", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xBF, "Sb2sbCollective", "DMA", JoinNone, SyncCollective, MemUnknown, confEnum},
	{0xC1, "PseudoDMATrigger", "pseudo", JoinDMA, SyncDMABlock, MemDMA, confREAL},
	// pseudo, 0xC2–0xDF: placeholders the runtime rewrites at load (neff.md §4.3)
	{0xC2, "PseudoDMARearm", "pseudo", JoinNone, SyncDMAUndecoded, MemUnknown, confEnum},
	{0xC3, "PseudoDMABarrier", "pseudo", JoinNone, SyncBarrier, MemUnknown, confEnum},
	{0xC4, "PseudoDMAMemcpyFullInd", "pseudo", JoinNone, SyncDMAUndecoded, MemUnknown, confEnum},
	{0xC5, "PseudoSemaphoreSet", "pseudo", JoinNone, SyncSet, MemUnknown, confEnum},
	{0xC6, "PseudoLoadActFuncSet", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xC7, "PseudoTriggerAllReduce", "pseudo", JoinNone, SyncCollective, MemUnknown, confEnum},
	{0xC8, "PseudoTriggerCollective", "pseudo", JoinNone, SyncCollective, MemUnknown, confFixture},
	{0xC9, "PseudoReadVarAddr", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xCA, "PseudoEmbeddingUpdate", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xCB, "PseudoSendRecv", "pseudo", JoinNone, SyncCollective, MemUnknown, confEnum},
	{0xCC, "PseudoBranchLabel", "pseudo", JoinNone, SyncBandOnly, MemNone, confREAL},
	{0xCD, "PseudoTensorStore", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xCE, "PseudoTensorLoad", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xCF, "PseudoDMASwapQueueSet", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xD0, "PseudoSetRngSeed", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xD1, "PseudoFunctionBegin", "pseudo", JoinNone, SyncBranch, MemUnknown, confEnum},
	{0xD2, "PseudoFunctionReturn", "pseudo", JoinNone, SyncBranch, MemUnknown, confEnum},
	{0xD3, "PseudoFunctionCall", "pseudo", JoinNone, SyncBranch, MemUnknown, confEnum},
	{0xD4, "PseudoDmaDirect2d", "pseudo", JoinDMA, SyncDMADirect, MemDMA, confREAL},
	{0xD5, "PseudoSyncBarrier", "pseudo", JoinNone, SyncBarrier, MemUnknown, confEnum},
	{0xD6, "PseudoRangeCheck", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xD7, "PseudoJpegDecode", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xD8, "PseudoCoreBarrier", "pseudo", JoinNone, SyncBarrier, MemUnknown, confEnum},
	{0xD9, "PseudoTriggerCollective2", "pseudo", JoinNone, SyncCollective, MemUnknown, confEnum},
	{0xDA, "PseudoExtension", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xDB, "PseudoCurProcessingRankID", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xDC, "PseudoGidLoad", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xDD, "PseudoBranchPrefetchHint", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xDE, "PseudoTensorCompletion", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xDF, "PseudoInst", "pseudo", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	// 0xE0–0xEB
	{0xE0, "SparsityCompress", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xE1, "SparsityCompressTag", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xE2, "Rand2", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xE3, "QuantizeMX", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xE4, "ConvLutLoad", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xE5, "TensorTensorScanArith", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xE6, "TensorScalarCacheCumulative", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xE7, "IndirectCopy", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xE8, "CopyPredicatedScalar", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xE9, "DveReadIndices", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xEA, "SelectReduce", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xEB, "Hint", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	// high
	{0xF0, "ExtendedInst", "Pool", JoinNone, SyncBandOnly, MemUnknown, confEnum}, // the GPSIMD custom-op bridge (neff.md §4.6)
	{0xF1, "DmaGatherTranspose", "DMA", JoinNone, SyncDMAUndecoded, MemUnknown, confEnum},
	{0xF2, "NonzeroWithCount", "tensor", JoinNone, SyncBandOnly, MemUnknown, confEnum},
	{0xFF, "Invalid", "reserved", JoinNone, SyncBandOnly, MemUnknown, confEnum},
}

// tongaOpcodes is the fallback name source: the legacy Tonga (inf1) encoding,
// opcode = base | engine<<5 (aws_tonga_isa_tpb_common.h via wiki "Per-Engine TPB-Sequencer
// Microcode"), neff.md §4.3 [OBS]. Used only where the modern list has no name, and only for
// ≤0x6A and 0xC1–0xC8 as the spec says. Every such code currently also has a modern name, so in
// practice these names appear as the "legacy" detail; where they disagree with the modern name
// see unknowns.go isa.opcode-name-disagreement. Confidence: medium (old ISA header, old chips).
var tongaOpcodes = []nameRow{
	{0x01, "LDWEIGHTS", "PE", confTonga},
	{0x02, "MATMUL", "PE", confTonga},
	{0x21, "ACTIVATE", "ACT", confTonga},
	{0x22, "ACTIVATE_QUANTIZE", "ACT", confTonga},
	{0x41, "TT_ARITH", "POOL", confTonga},
	{0x42, "TR_ARITH", "POOL", confTonga},
	{0x43, "TS_ARITH", "POOL", confTonga},
	{0x44, "TSP_ARITH", "POOL", confTonga},
	{0x45, "POOL", "POOL", confTonga},
	{0x46, "COPY", "POOL", confTonga},
	{0x47, "CAST", "POOL", confTonga},
	{0x48, "RECIPROCAL", "POOL", confTonga},
	{0x49, "MEMSET", "POOL", confTonga},
	{0x4A, "REG_LOAD", "POOL", confTonga},
	{0x4B, "REG_STORE", "POOL", confTonga},
	{0x4C, "REG_SHUFFLE", "POOL", confTonga},
	{0x4D, "RNG", "POOL", confTonga},
	{0x4E, "CUMUL_ARITH", "POOL", confTonga},
	{0x51, "TT_BITVEC", "POOL", confTonga},
	{0x52, "TR_BITVEC", "POOL", confTonga},
	{0x53, "TS_BITVEC", "POOL", confTonga},
	{0x54, "TSP_BITVEC", "POOL", confTonga},
	{0x5E, "CUMUL_BITVEC", "POOL", confTonga},
	{0x61, "EVENT_WAIT", "ALL", confTonga},
	{0x62, "EVENT_SET", "ALL", confTonga},
	{0x63, "EVENT_CLEAR", "ALL", confTonga},
	{0x65, "SEM_TEST_AND_SET", "ALL", confTonga},
	{0x68, "NOP", "ALL", confTonga},
	{0x69, "WRITE", "ALL", confTonga},
	{0x6A, "NOTIFY", "ALL", confTonga},
	{0xC1, "PSEUDO_DMA_TRIGGER", "RT", confTonga},
	{0xC2, "REARM", "RT", confTonga},
	{0xC3, "BARRIER", "RT", confTonga},
	{0xC4, "MEMCPY", "RT", confTonga},
	{0xC5, "SEMAPHORE_SET", "RT", confTonga},
	{0xC6, "LOAD_ACT_FUNC_SET", "RT", confTonga},
	{0xC7, "SET_TRANSFER_ADJUST", "RT", confTonga},
	{0xC8, "READ_VAR_ADDR", "RT", confTonga}, // later reassigned to TRIGGER_COLLECTIVE
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
	// Confidence says how sure the name is and why.
	Confidence string
	// Join, Sync and Memory are the opcode row's columns (modern codes; zero for the others:
	// no join, only its sync band, its memory operands not known).
	Join   Join
	Sync   SyncEffect
	Memory Memory
}

// Known reports whether the name came from a table.
func (o OpcodeInfo) Known() bool { return o.Source != SourceNone }

// opcodeTable is built in a variable initializer (not init), so the accessors and indexes
// that other package variables build from it see it filled.
var opcodeTable = buildOpcodeTable()

func buildOpcodeTable() (t [256]OpcodeInfo) {
	for i := range t {
		t[i] = OpcodeInfo{Code: uint8(i), Name: rawOpcodeName(uint8(i))}
	}
	for _, r := range tongaOpcodes {
		o := &t[r.Code]
		o.Legacy = r.Name
		// The spec limits the fallback to ≤0x6A and 0xC1–0xC8 (neff.md §4.3).
		if r.Code <= 0x6A || (r.Code >= 0xC1 && r.Code <= 0xC8) {
			o.Name, o.Source, o.Band, o.Confidence = r.Name, SourceTonga, r.Band, r.Confidence
		}
	}
	for _, r := range modernOpcodes {
		o := &t[r.Code]
		o.Name, o.Source, o.Band, o.Confidence = r.Name, SourceModern, r.Band, r.Confidence
		o.Join, o.Sync, o.Memory = r.Join, r.Sync, r.Memory
	}
	return t
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

// legacySPOpcodes are the legacy Tonga SP sequencer's 8-byte-word opcodes (neff.md §4.6,
// wiki: Per-Engine TPB-Sequencer Microcode) [OBS]. Modern SP streams use the 64-byte word
// [REAL], so no decoder reads 8-byte words; the table names them for a finding that meets an
// old stream.
var legacySPOpcodes = []nameRow{
	{0x04, "WRITE8_IND", "SP8", confTonga},
	{0x05, "WRITE32_IND", "SP8", confTonga},
	{0x08, "WRITE8_DIR", "SP8", confTonga},
	{0x10, "NOTIFY_HALT", "SP8", confTonga},
	{0x20, "WAIT_CYCLES", "SP8", confTonga},
	{0x24, "WAIT_EVENT_SET", "SP8", confTonga},
	{0x25, "WAIT_EVENT_SET_M", "SP8", confTonga},
	{0x30, "BRANCH_U", "SP8", confTonga},
	{0x34, "BRANCH_C_EVENT_SET", "SP8", confTonga},
	{0x38, "BRANCH_C_CNTR_Z", "SP8", confTonga},
	{0x39, "BRANCH_C_CNTR_NZ", "SP8", confTonga},
	{0x40, "SET_CNTR", "SP8", confTonga},
	{0x41, "DECR_CNTR", "SP8", confTonga},
	{0x50, "CLR_ALL_EVENTS", "SP8", confTonga},
	{0x51, "CLR_EVENT", "SP8", confTonga},
	{0x60, "SET_AR", "SP8", confTonga},
}

// LegacySPOpcodeName names a legacy 8-byte SP word's opcode (the header byte is
// {opcode:7, phase:1}; pass the 7-bit opcode).
func LegacySPOpcodeName(code uint8) (string, bool) {
	for _, r := range legacySPOpcodes {
		if r.Code == code {
			return r.Name, true
		}
	}
	return "", false
}
