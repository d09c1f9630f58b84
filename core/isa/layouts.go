package isa

import "strings"

// How the bytes of a word are read: the common header, the sync band, and per opcode the field
// map and operand descriptors the spec documents. All of it is data; decode.go only follows it.

type fieldKind uint8

const (
	kU8 fieldKind = iota
	kU16
	kU32
	kU64
	kHex       // unsigned, shown in hex
	kF32       // IEEE float32 bits
	kASCII     // NUL-terminated text
	kBytes     // raw bytes, shown in hex
	kDtype     // wire dtype tag (whole byte)
	kDtypeLo   // dtype tag in bits 3:0
	kDtypeHi   // dtype tag in bits 7:4
	kALU       // ALU op byte
	kAccCmd    // accumulator command
	kImm0Src   // imm0 source selector
	kImm0      // u32 read per Activate's imm0 source (+0x0F)
	kCollect   // collective kind
	kActFunc   // activation function code
	kWordLen   // inst_word_len
	kDebugCmd  // debug_cmd bits
	kWaitMode  // sync wait mode
	kUpdMode   // sync update mode
	kSemaphore // semaphore index
	kSyncBand  // an 8-byte band laid out like the sync band at +0x04
	kOpcode    // the opcode byte, shown with its name
	kImm32     // a 32-bit immediate: shown as uint, and every reading in the node (ImmediateText)
	kScale     // Activate's "scale": a float, unless its bits are address-shaped (ScaleText)
	kDmaAddr   // PseudoDmaDirect2d address: tag (byte 7) | var id or DGE-table index (bytes 4..6) | offset (bytes 0..3)
	kRegister  // an engine register number: R31
	kBoundReg  // PseudoDmaDirect2d bound register: bit 7 enables, bits 6..0 the register (0xBD = R61)
	kAccFlags  // PE accumulate flags: bit 0 start, bit 1 stop, bit 2 accumulate
	kQuadMask  // PE row/column group: a mask of the array's four 32-wide quadrants
	kScaleSrc  // Activate's scale source (+0x0D): 0 the float at +0x24, 1 an SBUF pointer there
	kFill      // Memset's fill value: bits in the dtype at +0x20
	kUnknown   // a byte range whose meaning is not known (name starts with "unknown"): hex
	kI32       // a signed 32-bit integer (a step, which may go backwards)
	kByteCount // an unsigned count of bytes: shown with its unit ("512 bytes")
)

// fieldSpec is one field of a word.
type fieldSpec struct {
	Name  string
	Off   uint8
	Width uint8
	Kind  fieldKind
}

// descSpec is an operand descriptor slot: ADDR4 then Rank steps (i16) and Rank counts (u16).
type descSpec struct {
	Name string
	Off  uint8
	Rank uint8
}

// layout is what the spec documents about one opcode's word beyond the common header.
type layout struct {
	Opcode uint8
	Family string // "A", "B", "C" (neff.md §4.4), or "" for own layouts
	Fields []fieldSpec
	Descs  []descSpec
	// Summary names the fields/descriptors a listing row shows, in order.
	Summary []string
	// Complete means the spec documents every byte (others must be zero).
	Complete bool
	// Source is the evidence for the row; Confidence how far it is trusted (high: documented
	// and seen in real words; medium: inferred from every real word; low: a guess that fits).
	Source     string
	Confidence string
	// Operands are the operand slots the memory model places (core/sched; read through
	// Operands): an opcode's Memory column is MemOperands exactly when its layout has them,
	// and then every descriptor of the layout is one. OperandSource and OperandConfidence are
	// their evidence.
	Operands          []operandSpec
	OperandSource     string
	OperandConfidence string
}

// headerFields is the common word header (neff.md §4.2) [OBS; REAL: +0x01 = 0x10 in every
// real word].
var headerFields = []fieldSpec{
	{"opcode", 0x00, 1, kOpcode},
	{"word length", 0x01, 1, kWordLen},
	{"debug cmd", 0x02, 1, kDebugCmd},
	{"debug hint", 0x03, 1, kHex},
}

// syncFields is the sync band (neff.md §4.2) [OBS; modes: unknowns isa.wait-mode-encoding,
// isa.update-mode-encoding]. The u32 at +0x08 is the wait operand (immediate or register id):
// real words carry it with wait mode 0x05 and 0 otherwise [REAL; unknowns isa.sync-value-owner].
var syncFields = []fieldSpec{
	{"wait mode", 0x04, 1, kWaitMode},
	{"wait semaphore", 0x05, 1, kSemaphore},
	{"update mode", 0x06, 1, kUpdMode},
	{"update semaphore", 0x07, 1, kSemaphore},
	{"semaphore value", 0x08, 4, kU32},
}

// Family descriptor slots (neff.md §4.4) [OBS; REAL: real Matmul, Activate, TensorTensor,
// Copy, Cast and Reduce words show ADDR4 + steps + counts at exactly these offsets].
var (
	familyA = []descSpec{{"src", 0x10, 3}, {"dst", 0x30, 3}}
	familyB = []descSpec{{"dst", 0x10, 3}, {"in0", 0x20, 3}, {"in1", 0x30, 3}}
	// familyBOut30 is family B as TensorTensorArithOp's real words use it: the output is the
	// last slot, +0x30, not +0x10 as neff.md §4.4 says: in the 260 real 0x41 words of the
	// shared NEFFs (Trn1 and Trn2), nothing but another TensorTensor ever writes the bytes of
	// +0x30 before the word runs, while DMAs, Activate and Copy write those of +0x10 and +0x20,
	// and the bytes of +0x30 are read after every word [INF from REAL data flow; unknowns
	// isa.familyB-output].
	familyBOut30 = []descSpec{{"in0", 0x10, 3}, {"in1", 0x20, 3}, {"dst", 0x30, 3}}
	familyC      = []descSpec{{"in", 0x0C, 4}, {"out", 0x2C, 4}}
)

// familyBControl is Family B's control band +0x0C..+0x0F (neff.md §4.4) [OBS]; which nibble of
// +0x0C is in0 is not documented, and no real word here tells (both nibbles are equal in all
// 260; unknowns isa.familyB-dtype-nibbles).
var familyBControl = []fieldSpec{
	{"in0 dtype", 0x0C, 1, kDtypeLo},
	{"in1 dtype", 0x0C, 1, kDtypeHi},
	{"out dtype", 0x0D, 1, kDtype},
	{"alu op", 0x0E, 1, kALU},
	{"active partitions", 0x0F, 1, kU8},
}

// familyCOperands are the operand slots of Reduce, Copy and Cast: read in, write out, each in
// the dtype its control band names, over the active channels.
var familyCOperands = []operandSpec{{Slot: "in", Dtype: "in dtype", Parts: "active channels"}, {Slot: "out", Write: true, Dtype: "out dtype", Parts: "active channels"}}

// familyCControl is inferred from real Copy/Cast/Reduce/Memset words (unknowns
// isa.familyC-control-band) [INF from REAL].
var familyCControl = []fieldSpec{
	{"in dtype", 0x20, 1, kDtype},
	{"out dtype", 0x21, 1, kDtype},
	{"active channels", 0x22, 1, kU8},
}

// activateFields is Activate 0x21 (neff.md §4.5, activation.md §11.2) [OBS; REAL for
// +0x20..+0x24 in 2.18/2.23 words]. +0x0D selects the scale's source: 1 exactly in the 256
// words whose +0x24 is an SBUF pointer to a scale tensor (neff.md §8.1, files outside the
// shared set); 0 with a float scale in all 3,796 Activate words here.
var activateFields = []fieldSpec{
	{"imm1 ap ctrl", 0x0C, 1, kU8},
	{"scale source", 0x0D, 1, kScaleSrc},
	{"accumulator", 0x0E, 1, kAccCmd},
	{"imm0 source", 0x0F, 1, kImm0Src},
	{"in dtype", 0x20, 1, kDtypeLo},
	{"imm dtype", 0x20, 1, kDtypeHi},
	{"out dtype", 0x21, 1, kDtype},
	{"active channels", 0x22, 1, kU8},
	{"func", 0x23, 1, kActFunc},
	{"scale", 0x24, 4, kScale}, // a float (1.0, -1.0, sqrt 2), or an SBUF pointer per +0x0D (unknowns isa.activate-scale)
	{"imm0", 0x28, 4, kImm0},
	{"imm1", 0x2C, 4, kF32}, // prelu alpha when func == 4
}

// peControl is the PE control band +0x20..+0x2F shared by Ldweights (0x01) and Matmul (0x02),
// checked on all 41,071 real PE words here (20,533 Ldweights, 20,538 Matmul; unknowns
// isa.pe-control-band) and on the spec's wider count (neff.md §8.1, 134,428 words):
//   - +0x20 is the dtype tag of the model's data in every word (0x0A in the fp32 NEFFs, 0x07 in
//     the fp16 ones, 0x06 bf16 in attn_v6);
//   - +0x21 is a mode, not a pass count: non-zero exactly when +0x20 is fp32 (41,071/41,071):
//     Ldweights alternate 1 and 2, Matmul 3 (2 in 72 words of file_pool_2_float32);
//   - +0x22 is 1 in every word of transpose_1024 (a transpose by identity matmul) and in the
//     identity-transposes of attn_v6 and matmul_small, 0 elsewhere;
//   - +0x26 / +0x27 are 0x80 (128, the PE array's rows and columns) except in a few words
//     (1 row, 2 columns) at the edges of a tiled loop;
//   - +0x2C / +0x2D are the row group and column group: masks of the PE array's four 32-row
//     (32-column) quadrants the tile uses, 0x0F = all four, no tiling. NKI's nc_matmul tiles
//     rows and columns 2×64 or 4×32; a public description of the encoder packs
//     colGroup<<8 | rowGroup at +0x2C from a {1,2,4,8} / {3,12} / 0x0F table. Every real file
//     uses full tiles: 0x0F in 41,071/41,071 words here, even where rows is 1.
var peControl = []fieldSpec{
	{"dtype", 0x20, 1, kDtype},
	{"fp32 mode", 0x21, 1, kHex},
	{"transpose", 0x22, 1, kU8},
	{"rows", 0x26, 1, kU8},
	{"columns", 0x27, 1, kU8},
	{"row group", 0x2C, 1, kQuadMask},
	{"column group", 0x2D, 1, kQuadMask},
}

// ldweightsFields adds +0x2E, which only Trn1 (sunda, CoreV2) words set: 0x0F in all 4,034
// words of file_pool_1_float16, 0x02 in all 16,060 of file_pool_2_float32, 0 in the 439
// Trn2 words; what it selects is not known (isa.unnamed-moe-bytes). And the slot where family A has dst: zero in all
// 20,533 real Ldweights words (unknowns isa.ldweights-slots) [REAL].
var ldweightsFields = append(peControl[:len(peControl):len(peControl)],
	fieldSpec{"unknown 0x2e", 0x2E, 1, kUnknown},
	fieldSpec{"unused slot", 0x30, 16, kBytes})

// matmulFields adds the accumulate flags (bit 0 starts a PSUM accumulation group, bit 1 ends
// it, bit 2 accumulates into it: neff.md §8.1; matmul_small's single matmuls carry 3 and its
// chain 1 … 2; the 2.18 chains 1 then 0s; no word here sets bit 2) and +0x2E, a Trn1 (sunda,
// CoreV2) byte: 0x10 in 20,094/20,094 sunda Matmul words, 0 in all 444 Trn2 (cayman) words
// (unknowns isa.pe-control-band) [INF from REAL].
var matmulFields = append(peControl[:len(peControl):len(peControl)],
	fieldSpec{"accumulate", 0x2B, 1, kAccFlags},
	fieldSpec{"trn1 mode", 0x2E, 1, kHex})

// direct2dFields is PseudoDmaDirect2d (0xD4). Names are the public DMA struct's
// (neff.md §8.1), each value counted on all 354 real words of testdata-real (attn_v6 344,
// matmul_small 10) and def.json (unknowns isa.direct2d-addresses, isa.direct2d-geometry):
//   - +0x0D is a semaphore of the engine's own dynamic DMA queue (Pool words 8..23 or 24..39 =
//     qPoolDynamic's semaphore_set, SP words 40..55 = qSPDynamicHW's), used round robin;
//     +0x0E sem_increment is what completion adds to it (16 in 354/354; NKI's DMA overview:
//     completion is an increment of 16); +0x0F dge_op is 0 in 354/354;
//   - addr0 (source) and addr1 (destination) are tag | id | offset: tag bit 0x10 a def.json
//     var id (0 = SB, the state buffer: the offset is an SBUF address), bit 0x20 an index into
//     the core's dge-table var (matmul_small: 0 → x, 1 → y, 2 → output0), bit 0x08 a register
//     number in place of the offset (tag 0x28: a 0xDA word follows);
//   - after each address the struct's generic access pattern, in bytes: step_elem[0] (0 when
//     one DRAM row is broadcast to every partition, 0x40000 in SBUF), step_elem[1] (1),
//     num_elem[0] (128: partitions when that side is SBUF), num_elem[1] (1), and elem_size,
//     the bytes of one element (row): matmul_small's output DMA moves 64 values as 256 on its
//     fp32 SBUF side and 128 on its fp16 DRAM side (2/2 words; the other 352 have equal bytes
//     on both sides); +0x26/+0x27 the bound registers (0 = none in 354/354; 0xBD = R61 enabled
//     on MoE NEFFs not in testdata-real); the two dtype tags at +0x3E/+0x3F.
//   - the steps are read signed, as every other step of the ISA is (the operand descriptors'
//     i16 steps go backwards in 20,533 real words); no real 0xD4 step reaches 2^31 (all 354
//     are 0..262144), so the two readings agree on every word seen [INF, medium].
var direct2dFields = []fieldSpec{
	{"unknown 0x0c", 0x0C, 1, kUnknown},
	{"queue semaphore", 0x0D, 1, kSemaphore},
	{"sem increment", 0x0E, 1, kU8},
	{"dge op", 0x0F, 1, kU8},
	{"addr0", 0x10, 8, kDmaAddr},
	{"src step elem[0]", 0x18, 4, kI32},
	{"src step elem[1]", 0x1C, 4, kI32},
	{"src num elem[0]", 0x20, 2, kU16},
	{"src num elem[1]", 0x22, 2, kU16},
	{"src elem size", 0x24, 2, kByteCount},
	{"src bound reg", 0x26, 1, kBoundReg},
	{"dst bound reg", 0x27, 1, kBoundReg},
	{"addr1", 0x28, 8, kDmaAddr},
	{"dst step elem[0]", 0x30, 4, kI32},
	{"dst step elem[1]", 0x34, 4, kI32},
	{"dst num elem[0]", 0x38, 2, kU16},
	{"dst num elem[1]", 0x3A, 2, kU16},
	{"dst elem size", 0x3C, 2, kByteCount},
	{"src dtype", 0x3E, 1, kDtype},
	{"dst dtype", 0x3F, 1, kDtype},
}

// aluOpFields is 0xA8 AluOp: Dst = Src op Imm on engine registers (register chains,
// registers.go). Counted on two torch-xla MoE NEFFs (2.23, Trn2) that are not in
// testdata-real: the op is 6 (mult) in 1,824/1,824 words the compiler's .dbg names reg-mul and
// 4 (add) in 880/880 named reg-add; the dtype 9 (uint32). No real file here has one; +0x0E is
// not named (isa.unnamed-moe-bytes).
var aluOpFields = []fieldSpec{
	{"alu op", 0x0C, 1, kALU},
	{"dtype", 0x0D, 1, kDtype},
	{"src register", 0x10, 4, kRegister},
	{"dst register", 0x14, 4, kRegister},
	{"immediate", 0x18, 4, kImm32},
}

// tensorLoadFields is 0xCE PseudoTensorLoad: loads a register from the state buffer. On the
// same MoE NEFFs the SBUF address is where an SP DMA put the expert ids, and the register is
// the one the AluOps after it read. +0x0E, +0x0F, +0x18 and +0x1C are not named
// (isa.unnamed-moe-bytes).
var tensorLoadFields = []fieldSpec{
	{"dtype", 0x0C, 1, kDtype},
	{"sbuf address", 0x14, 4, kHex},
	{"dst register", 0x20, 4, kRegister},
}

// layouts is the field-map table, one row per opcode the spec documents. Opcodes without a
// row show header, sync band and raw bytes only (isa.family-membership).
var layouts = []layout{
	{Opcode: 0x01, Family: "A", Fields: ldweightsFields, Descs: familyA[:1], Summary: []string{"src", "dtype"},
		Source:            "neff.md §4.4 family A src; control band and the zero slot at +0x30 from all 20,533 real Ldweights words (isa.pe-control-band, isa.ldweights-slots) [INF from REAL]; +0x21 fp32 mode non-zero iff fp32 (20,533/20,533: 1/2 alternating); +0x2C/+0x2D row/column group = 0x0F (all quadrants) in 20,533/20,533, read per NKI nc_matmul tiling and the encoder's colGroup<<8|rowGroup (neff.md §8.1); +0x2E (sunda only: 0x0F or 0x02) unknown",
		Confidence:        "medium",
		Operands:          []operandSpec{{Slot: "src", Dtype: "dtype", Parts: "rows"}},
		OperandSource:     "family A src, dtype +0x20, rows +0x26 (isa.pe-control-band); reads rows backwards (negative steps) [INF from REAL: 20,533 words within their partitions]",
		OperandConfidence: "medium"},
	{Opcode: 0x02, Family: "A", Fields: matmulFields, Descs: familyA, Summary: []string{"src", "dst", "dtype", "accumulate"},
		Source:     "neff.md §4.4 family A (Matmul); control band from all 20,538 real Matmul words (isa.pe-control-band) [OBS offsets, INF band]; +0x21 fp32 mode non-zero iff fp32 (20,538/20,538: 3, or 2 in 72); +0x2C/+0x2D row/column group = 0x0F in 20,538/20,538 (NKI nc_matmul tiling, the encoder's colGroup<<8|rowGroup; neff.md §8.1); +0x2E trn1 mode 0x10 in 20,094/20,094 sunda words, 0 in 444/444 cayman; +0x2B accumulate bits start/stop/accumulate (neff.md §8.1; bit 2 unseen here)",
		Confidence: "medium",
		// A transposing matmul (+0x22 = 1) writes its input dtype: in matmul_small two
		// transposes write PSUM 0x800 and 0x900 and one Copy reads 0x800..0x9ff as int32; the
		// others accumulate fp32 (the Copy after them reads fp32).
		// The moving tensor enters on the array's rows (its partitions: the contraction) and the
		// result leaves on its columns (PSUM's partitions), as NKI's nc_matmul has stationary
		// [K, M], moving [K, N], result [M, N]: the 6 Trn1 words with 1 row and 128 columns
		// (conv2d.py:141's bias broadcast) write PSUM that Activate then reads on 128
		// partitions, and attn_v6's 20 transposes with 128 rows and 2 columns write PSUM
		// that DVE reads on 2.
		Operands:          []operandSpec{{Slot: "src", Dtype: "dtype", Parts: "rows"}, {Slot: "dst", Write: true, Dtype: "dtype", FP32Unless: "transpose", Parts: "columns"}},
		OperandSource:     "family A; src over the rows (+0x26), the PSUM dst over the columns (+0x27) [INF from REAL: every Matmul whose rows and columns differ (6 with 1 row and 128 columns, 20 transposes with 128 rows and 2 columns) is read back on its columns; NKI nc_matmul's result is [M, N]]; dst fp32, or the input dtype when transposing [INF from REAL: 20,538 words within PSUM's 16 KiB; the copies after them]; an accumulating matmul also reads dst, on its own engine",
		OperandConfidence: "medium"},
	{Opcode: 0x21, Family: "A", Fields: activateFields, Descs: familyA,
		Summary:  []string{"func", "src", "dst", "in dtype", "out dtype"},
		Complete: true, Source: "neff.md §4.5; activation.md §11.2 [OBS, REAL]; +0x0D scale source: 1 ⇔ +0x24 is an SBUF pointer to a scale tensor in 256/256 words (neff.md §8.1), 0 with a float scale in 3,796/3,796 words here", Confidence: "high",
		// Bias and scale may be vectors: one element in each partition (NKI nki.isa.activation:
		// "the same partition axis size as the input data tile and only one element per
		// partition"), named by imm0 when its source (+0x0F) is 0 and by scale when the scale
		// source (+0x0D) is 1.
		Operands: []operandSpec{{Slot: "src", Dtype: "in dtype", Parts: "active channels"}, {Slot: "dst", Write: true, Dtype: "out dtype", Parts: "active channels"},
			{Slot: "imm0", Dtype: "imm dtype", Parts: "active channels", When: "imm0 source", Is: 0, Not: []uint8{1, 2}},
			{Slot: "scale", Dtype: "imm dtype", Parts: "active channels", When: "scale source", Is: 1, Not: []uint8{0}}},
		OperandSource:     "neff.md §4.5 (in dtype low nibble +0x20, out dtype +0x21, active channels +0x22) [OBS, REAL]; imm0 with source 0 (neff.md §4.5: an SBUF/PSUM pointer) is a bias of one element per partition in the imm dtype (+0x20 high nibble) [INF from REAL: the 508 such words here read one fp32 per partition where the kernel wrote it before: file_pool_1_float16's 0x8800, conv2d.py:141's copy of the broadcast bias (an Activate), attn_v6's 0x4050, DVE's Memset memset_zero_bias_66]; scale with source 1 is an SBUF pointer (neff.md §8.1, 256 words of files not in the shared set), its dtype taken as the imm dtype [a guess that fits: no such word here]",
		OperandConfidence: "high (src, dst); medium (imm0); low (scale's dtype)"},
	{Opcode: 0x22, Family: "A", Descs: familyA, Summary: []string{"src", "dst"},
		Source: "neff.md §4.4 (Activation uses family A) [OBS]", Confidence: "medium"},
	{Opcode: 0x23, Fields: []fieldSpec{{"set index", 0x23, 1, kU8}}, Summary: []string{"set index"},
		Complete: true, Source: "neff.md §4.5; activation.md §11.1 [REAL]", Confidence: "high"},
	{Opcode: 0x24, Fields: []fieldSpec{
		{"dst element count", 0x1C, 4, kU32},
		{"dtype", 0x20, 1, kDtype},
		{"negated", 0x21, 1, kU8},
		{"active channels", 0x22, 1, kU8},
	}, Summary: []string{"dst element count", "dtype"},
		Source: "neff.md §4.5; activation.md §11.2; output descriptor offset undocumented (isa.readacc-output) [OBS]", Confidence: "medium"},
	{Opcode: 0x25, Fields: []fieldSpec{
		{"imm ap a", 0x18, 1, kU8},
		{"imm ap b", 0x19, 1, kU8},
		{"accumulator", 0x1A, 1, kAccCmd},
		{"imm ap c", 0x1B, 1, kU8},
		{"imm dtype", 0x1C, 1, kDtype},
		{"op0", 0x1D, 1, kALU},
		{"op1", 0x1E, 1, kALU},
		{"reduce op", 0x1F, 1, kALU},
		{"in dtype", 0x20, 1, kDtype},
		{"out dtype", 0x21, 1, kDtype},
		{"active channels", 0x22, 1, kU8},
		{"func", 0x23, 1, kActFunc},
		{"relu param", 0x2C, 4, kF32},
		{"saturate/reverse", 0x3C, 1, kHex},
	}, Descs: []descSpec{{"src", 0x0C, 2}, {"dst", 0x30, 2}}, // isa.activate2-descriptors
		Summary: []string{"func", "src", "dst"},
		Source:  "neff.md §4.5; activation.md §11.2 (gen-4) [OBS; descriptor offsets INF]", Confidence: "low"},
	{Opcode: 0x41, Family: "B", Fields: familyBControl, Descs: familyBOut30,
		Summary: []string{"alu op", "dst", "in0", "in1"},
		Source:  "neff.md §4.4 family B [OBS, REAL offsets]; dst is +0x30 and the inputs +0x10, +0x20, not the spec's dst +0x10, by the real data flow (familyBOut30, isa.familyB-output); which +0x0C nibble is in0 is a guess: both are fp32 (0xAA) in all 260 real words here, and one kernel elsewhere reads an fp16-written bias tile as fp32 (neff.md §8.1; isa.familyB-dtype-nibbles)", Confidence: "medium",
		Operands:          []operandSpec{{Slot: "in0", Dtype: "in0 dtype", Parts: "active partitions"}, {Slot: "in1", Dtype: "in1 dtype", Parts: "active partitions"}, {Slot: "dst", Write: true, Dtype: "out dtype", Parts: "active partitions"}},
		OperandSource:     "family B slots with dst at +0x30, not +0x10 as neff.md §4.4 says (isa.familyB-output, sched.familyB-slots) [INF from REAL data flow]; dtype nibbles isa.familyB-dtype-nibbles",
		OperandConfidence: "medium"},
	{Opcode: 0x51, Family: "B", Fields: familyBControl, Descs: familyB,
		Summary: []string{"alu op", "dst", "in0", "in1"}, Source: "neff.md §4.4 family B (TensorTensor) [OBS]; the spec's slot order (dst +0x10): no real 0x51 word here, and 0x41's real words put dst at +0x30 (isa.familyB-output)", Confidence: "low"},
	{Opcode: 0x43, Family: "A", Descs: familyA, Summary: []string{"src", "dst"},
		Source: "neff.md §4.4 family A (TensorScalar) [OBS]", Confidence: "medium"},
	{Opcode: 0x44, Family: "A", Descs: familyA, Summary: []string{"src", "dst"},
		Source: "neff.md §4.4 family A (TensorScalar) [OBS]", Confidence: "medium"},
	{Opcode: 0x53, Family: "A", Descs: familyA, Summary: []string{"src", "dst"},
		Source: "neff.md §4.4 family A (TensorScalar) [OBS]", Confidence: "medium"},
	{Opcode: 0x54, Family: "A", Descs: familyA, Summary: []string{"src", "dst"},
		Source: "neff.md §4.4 family A (TensorScalar) [OBS]", Confidence: "medium"},
	{Opcode: 0x42, Family: "C", Fields: append(familyCControl[:3:3],
		fieldSpec{"alu op", 0x24, 1, kALU},                   // 8 = max in every word of the cs149 max-pooling NEFFs (isa.reduce-op)
		fieldSpec{"unknown 0x25", 0x25, 1, kUnknown}), Descs: familyC, Summary: []string{"alu op", "in", "out"},
		Source: "neff.md §4.4 family C (Reduce) [OBS, REAL offsets]; +0x24 from real words (isa.reduce-op) [INF from REAL]", Confidence: "medium",
		Operands:          familyCOperands,
		OperandSource:     "family C (isa.familyC-control-band) [INF from REAL]",
		OperandConfidence: "medium"},
	{Opcode: 0x52, Family: "C", Fields: familyCControl, Descs: familyC, Summary: []string{"in", "out"},
		Source: "neff.md §4.4 family C (Reduce) [OBS]", Confidence: "medium"},
	{Opcode: 0x45, Family: "C", Fields: familyCControl, Descs: familyC, Summary: []string{"in", "out"},
		Source: "neff.md §4.4 family C (Pool) [OBS]", Confidence: "medium"},
	{Opcode: 0x46, Family: "C", Fields: familyCControl, Descs: familyC, Summary: []string{"in", "out", "in dtype", "out dtype"},
		Source: "neff.md §4.4 family C (Copy) [OBS, REAL offsets]", Confidence: "high",
		Operands:          familyCOperands,
		OperandSource:     "family C [OBS, REAL]",
		OperandConfidence: "high"},
	{Opcode: 0x47, Family: "C", Fields: familyCControl, Descs: familyC, Summary: []string{"in", "out", "in dtype", "out dtype"},
		Source: "family C by real bytes (isa.cast-reciprocal-family) [INF from REAL]", Confidence: "medium",
		Operands:          familyCOperands,
		OperandSource:     "family C (isa.cast-reciprocal-family) [INF from REAL]",
		OperandConfidence: "medium"},
	{Opcode: 0x48, Family: "C", Fields: familyCControl, Descs: familyC, Summary: []string{"in", "out"},
		Source: "family C assumed like Copy/Cast (isa.cast-reciprocal-family) [INF]", Confidence: "low"},
	{Opcode: 0x49, Family: "C", Fields: []fieldSpec{
		{"out count", 0x1C, 4, kU32}, // = out count[0] in all 330 real words (isa.memset-out-rank)
		{"dtype", 0x20, 1, kDtype},   // real Memset words: fp32 at +0x20, 0 at +0x21 (isa.familyC-control-band)
		{"active channels", 0x22, 1, kU8},
		{"value", 0x28, 4, kFill}, // the fill value in the dtype at +0x20: -1e9 (fp32 0xCE6E6B28), bf16 1.0 (0x3F80)
	}, Descs: familyC[1:], Summary: []string{"out", "dtype", "value"},
		Source: "neff.md §4.4 family C (Memset); out read as 4D per real bytes; count and value from real words (isa.memset-out-rank) [OBS, REAL]", Confidence: "medium",
		Operands:          []operandSpec{{Slot: "out", Write: true, Dtype: "dtype", Parts: "active channels"}},
		OperandSource:     "family C out, dtype +0x20 (isa.memset-out-rank) [OBS, REAL]",
		OperandConfidence: "medium"},
	{Opcode: 0x7E, Family: "C", Descs: familyC, Summary: []string{"in", "out"},
		Source: "neff.md §4.4 family C (Iota) [OBS]", Confidence: "medium"},
	{Opcode: 0xA0, Fields: []fieldSpec{{"second wait", 0x20, 8, kSyncBand}}, Summary: []string{"second wait"},
		Source: "neff.md §4.5 (fixture: sync band only) [OBS]; a second band at +0x20 in real words (isa.event-semaphore-second-band) [INF from REAL]", Confidence: "medium"},
	{Opcode: 0xC1, Fields: []fieldSpec{
		{"queue", 0x0C, 32, kASCII},
		{"use raw count", 0x2C, 4, kU32},
		{"block id", 0x30, 4, kU32}, // isa.dma-trigger-block-id
	}, Summary: []string{"queue", "block id"}, Complete: true,
		Source: "neff.md §4.5 (fixture); real words carry the queue name and dma[].id [OBS, REAL]", Confidence: "high"},
	{Opcode: 0xC6, Fields: []fieldSpec{{"act set name", 0x0C, 32, kASCII}}, Summary: []string{"act set name"},
		Complete: true, Source: "activation.md §11.1 (ISA header pseudo struct) [OBS]", Confidence: "medium"},
	{Opcode: 0xC8, Fields: []fieldSpec{
		{"alu op", 0x0C, 1, kALU},
		{"dtype", 0x0D, 1, kDtype},
		{"group id", 0x0E, 2, kU16},
		{"input var", 0x10, 4, kU32},
		{"output var", 0x14, 4, kU32},
		{"num elements", 0x18, 8, kU64},
		{"collective", 0x20, 1, kCollect},
		{"src offset", 0x30, 8, kU64},
		{"dst offset", 0x38, 8, kU64},
	}, Summary: []string{"collective", "alu op", "dtype", "input var", "output var", "num elements"},
		Source: "neff.md §4.5 (fixture pe.bin) [OBS]", Confidence: "medium"},
	{Opcode: 0xA8, Fields: aluOpFields, Summary: []string{"alu op", "dst register", "src register", "immediate"},
		Source:     "neff.md §8.1: counted on two MoE NEFFs not in testdata-real (op 6 in 1,824/1,824 .dbg reg-mul words, 4 in 880/880 reg-add, dtype 9); the ALU enum of §4.4; no word here [INF from REAL elsewhere]",
		Confidence: "medium"},
	{Opcode: 0xCE, Fields: tensorLoadFields, Summary: []string{"dst register", "sbuf address", "dtype"},
		Source:     "neff.md §8.1: counted on two MoE NEFFs not in testdata-real (.dbg tensor-load words; the address is where an SP DMA put the expert ids, the register the one the AluOps read; dtype 9); no word here [INF from REAL elsewhere]",
		Confidence: "medium"},
	{Opcode: 0xD4, Fields: direct2dFields, Summary: []string{"addr0", "addr1", "queue semaphore"},
		Source:     "neff.md §4.4, §4.7, §8.1 (8-byte addresses at +0x10 and +0x28; the public struct's names: sem_increment, dge_op, step_elem[2], num_elem[2], elem_size in bytes, bound registers); every value counted on all 354 real words and def.json (isa.direct2d-addresses, isa.direct2d-geometry) [INF from REAL]",
		Confidence: "medium"},
	{Opcode: 0xDA, Fields: []fieldSpec{
		{"src bound size bytes", 0x0C, 4, kU32},
		{"unknown extension", 0x10, 48, kUnknown},
	}, Summary: []string{"src bound size bytes"},
		Source:     "neff.md §4.7, §8.1: the second word of a two-word 0xD4 (addr0 tag 0x28); +0x0C src_bound_size_bytes equals the source var's size in 912/912 words of two MoE NEFFs not in testdata-real (width 4 assumed: the sizes are < 4 GiB); no word here (isa.two-word-direct2d)",
		Confidence: "medium"},
}

// summaryRef is a resolved summary entry.
type summaryRef struct {
	label string // the name with spaces as underscores, for name=value text
	field *fieldSpec
	desc  *descSpec
}

type compiledLayout struct {
	*layout
	summary []summaryRef
	covered [64]bool // bytes documented by this layout (header and sync band included)
}

// genericCovered covers only the header and sync band.
var genericCovered = func() (c [64]bool) {
	for i := 0; i < 0x0C; i++ {
		c[i] = true
	}
	return c
}()

// layoutIndex is built in a variable initializer (not init) so the accessors in decode.go,
// which are package variables too, are initialized after it.
var layoutIndex = buildLayoutIndex()

func buildLayoutIndex() (index [256]*compiledLayout) {
	for i := range layouts {
		l := &layouts[i]
		c := &compiledLayout{layout: l, covered: genericCovered}
		for _, name := range l.Summary {
			ref := summaryRef{label: strings.ReplaceAll(name, " ", "_")}
			for j := range l.Fields {
				if l.Fields[j].Name == name && ref.field == nil {
					ref.field = &l.Fields[j]
				}
			}
			for j := range l.Descs {
				if l.Descs[j].Name == name && ref.field == nil && ref.desc == nil {
					ref.desc = &l.Descs[j]
				}
			}
			// A name that resolves to nothing is caught by TestLayoutTable.
			if ref.field != nil || ref.desc != nil {
				c.summary = append(c.summary, ref)
			}
		}
		for _, f := range l.Fields {
			for b := int(f.Off); b < int(f.Off)+int(f.Width) && b < 64; b++ {
				c.covered[b] = true
			}
		}
		for _, d := range l.Descs {
			for b := int(d.Off); b < int(d.Off)+4+4*int(d.Rank) && b < 64; b++ {
				c.covered[b] = true
			}
		}
		index[l.Opcode] = c
	}
	return index
}
