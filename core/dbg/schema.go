package dbg

import "google.golang.org/protobuf/encoding/protowire"

// Type is how a field's value is read.
type Type uint8

const (
	String  Type = iota + 1 // length-delimited UTF-8 text
	Varint                  // one varint
	Packed                  // length-delimited list of varints
	Message                 // length-delimited message of the named shape
)

func (t Type) wire() protowire.Type {
	if t == Varint {
		return protowire.VarintType
	}
	return protowire.BytesType
}

func (t Type) String() string {
	switch t {
	case String:
		return "string"
	case Varint:
		return "varint"
	case Packed:
		return "packed varints"
	case Message:
		return "message"
	}
	return "?"
}

// Field is one row of the table of inferred message shapes: nothing here comes from a .proto
// file (none is published); every row is read off the real files and says how sure it is.
type Field struct {
	Num  protowire.Number
	Name string // a name starting with "unknown" means: seen, shape known, meaning not
	Type Type
	// Msg names the nested shape when Type is Message.
	Msg        string
	Meaning    string
	Confidence string // high / medium / low
	Evidence   string
	// Unknown marks a guess recorded as a row of Unknowns (its ID).
	Unknown string
}

// Named reports whether the field's meaning is known (its bytes count as named, not unknown).
func (f *Field) Named() bool { return len(f.Name) < 7 || f.Name[:7] != "unknown" }

// Shape is one message shape: its fields by number.
type Shape struct {
	Key    string // how Field.Msg and the kinds name it
	Name   string
	Fields []Field
}

func (s *Shape) field(n protowire.Number) *Field {
	if s == nil {
		return nil
	}
	for i := range s.Fields {
		if s.Fields[i].Num == n {
			return &s.Fields[i]
		}
	}
	return nil
}

// Evidence strings name the real files that settled a row (spec neff.md §4.7; the seven NEFFs
// of shared/testdata-real: 66 backend, 55 asm, 7 penguin, 2 hlo, 2 pttf, 2 stack-frame files).
const (
	evAll       = "every .dbg member of the real NEFFs (shared/testdata-real, neuronx-cc 2.18–2.23)"
	evXLAStacks = "the field numbers, wire types and 1-based ids of XLA's StackFrameIndexProto (openxla/xla xla/service/hlo.proto: \"All reference ids in sub-protos are 1-based positions of the entity in the flat array\")"
	evTranspose = "spec neff.md §8.1: 3 ⇔ the PE word's +0x22 is 1 in 54,052/54,052 Trn2 words. shared/testdata-real (core/inspect TestSourceOnRealNEFFs): Trn2 216/216 Ldweights/Matmul words of code-3 records have +0x22 = 1 and 667/667 others 0; 3 only on PE backend records (184) and 6 penguin records, 1 on every other record; 2 not seen here. Trn1 (2.18 sunda): 228 words of code-3 PE records have +0x22 = 0 (that byte marks no transpose there)"
	evParents   = "names agree along the chain: backend I-87-0 → penguin 87 \"…$87[p_78]\"; hlo \"%op0 = dot\" → pttf 5 \"hlo__dot_op0\"; penguin $71 → hlo 2 \"%op0 = dot\" (matmul_small)"
)

// shapeTable is the data table: kind-specific file shapes and the record shapes they hold. (A
// slice, not a map: the linker lays it out as data, with no init code in the wasm.)
var shapeTable = [...]Shape{
	{Key: "asm", Name: "asm debug info", Fields: []Field{
		{Num: 1, Name: "description", Type: String, Meaning: "what the file holds, in English", Confidence: "high", Evidence: evAll},
		{Num: 2, Name: "points_to", Type: String, Meaning: "the member (same sgNN) whose record ids field 3 of each record names: debug_info_backend_<Engine>.dbg", Confidence: "high", Evidence: evAll},
		{Num: 3, Name: "word", Type: Message, Msg: "asm.record", Meaning: "one record per 64-byte instruction word of <Engine>.bin, in stream order", Confidence: "high", Evidence: "record count = word count in all 55 asm members; the description says so"},
		{Num: 4, Name: "engine", Type: Varint, Meaning: "the engine: 1 PE, 2 Activation, 3 Pool, 4 DMA, 5 DVE, 6 SP", Confidence: "high", Evidence: "equal to the member's engine in all 121 asm and backend members", Unknown: "dbg.engine-enum"},
	}},
	{Key: "asm.record", Name: "asm record", Fields: []Field{
		{Num: 3, Name: "backend_ids", Type: Packed, Meaning: "ids of backend records (BIR instructions) this word came from; the first is its owner", Confidence: "high", Evidence: "every id is found in the backend member field 2 names; a 0xD4+0xDA pair shares one id", Unknown: "dbg.asm-first-id-owner"},
	}},
	{Key: "backend", Name: "backend debug info", Fields: []Field{
		{Num: 1, Name: "description", Type: String, Meaning: "what the file holds, in English", Confidence: "high", Evidence: evAll},
		{Num: 2, Name: "points_to", Type: String, Meaning: "the member whose ids field 3 of each record names: debug_info_penguin.dbg", Confidence: "high", Evidence: evAll},
		{Num: 3, Name: "instruction", Type: Message, Msg: "record", Meaning: "one BIR instruction (or DMA block)", Confidence: "high", Evidence: evAll},
		{Num: 4, Name: "engine", Type: Varint, Meaning: "the engine: 1 PE, 2 Activation, 3 Pool, 4 DMA, 5 DVE, 6 SP", Confidence: "high", Evidence: "equal to the member's engine in all 121 asm and backend members", Unknown: "dbg.engine-enum"},
		{Num: 5, Name: "kernel_files", Type: String, Meaning: "kernel source file paths; attribute kernel_file is an index into this list", Confidence: "high", Evidence: "nki-moe attn_v6: kernel_file 1 → v6_ultimate.py and 0 → nki/language/creation_ops.py; lines fit both", Unknown: "dbg.kernel-file-index"},
		{Num: 7, Name: "kernel_names", Type: String, Meaning: "kernel function names; attribute kernel_name is an index into this list", Confidence: "high", Evidence: "attn_v6: kernel_name 0 → __main__.qwen3_attn_tkg_fused", Unknown: "dbg.kernel-file-index"},
	}},
	{Key: "penguin", Name: "penguin debug info", Fields: []Field{
		{Num: 1, Name: "description", Type: String, Meaning: "what the file holds, in English", Confidence: "high", Evidence: evAll},
		{Num: 2, Name: "points_to", Type: String, Meaning: "the member whose ids field 3 of each record names: debug_info_hlo.dbg", Confidence: "high", Evidence: evAll},
		{Num: 3, Name: "tensor", Type: Message, Msg: "record", Meaning: "one Penguin (tensor-level IR) instruction, named by its result tensor", Confidence: "high", Evidence: evAll},
		{Num: 5, Name: "kernel_files", Type: String, Meaning: "kernel source file paths; attribute kernel_file is an index into this list", Confidence: "high", Evidence: "matmul_small and cs149: one path, every kernel_file is 0"},
	}},
	{Key: "hlo", Name: "HLO debug info", Fields: []Field{
		{Num: 1, Name: "description", Type: String, Meaning: "what the file holds, in English", Confidence: "high", Evidence: evAll},
		{Num: 2, Name: "points_to", Type: String, Meaning: "the member whose ids field 3 of each record names: debug_info_pttf.dbg", Confidence: "high", Evidence: evAll},
		{Num: 3, Name: "hlo_instruction", Type: Message, Msg: "record", Meaning: "one XLA HLO instruction (its text in field 2)", Confidence: "high", Evidence: evAll},
	}},
	{Key: "pttf", Name: "PyTorch/TensorFlow debug info", Fields: []Field{
		{Num: 1, Name: "description", Type: String, Meaning: "what the file holds, in English", Confidence: "high", Evidence: evAll},
		{Num: 3, Name: "operation", Type: Message, Msg: "record", Meaning: "one framework operation or module (its scope path in field 2)", Confidence: "high", Evidence: evAll},
	}},
	{Key: "stack_frame_index", Name: "stack frame index", Fields: []Field{
		{Num: 1, Name: "description", Type: String, Meaning: "what the file holds, in English", Confidence: "high", Evidence: evAll},
		{Num: 6, Name: "stack_frames", Type: Message, Msg: "xla_stack_frames", Meaning: "the framework's stack frame index: file paths, function names, file locations and frames, each a flat list that the others name by 1-based position", Confidence: "high", Evidence: evXLAStacks + "; spec neff.md §8.1 (field 6 is a message 6.1–6.4, and the frame an hlo record's field 8 names gives its source_file:source_line in 12/12 records of a torch-xla NEFF outside shared/testdata-real); empty in both real files here (matmul_small, attn_v6)"},
	}},
	// Field 6 of the stack-frame member is XLA's StackFrameIndexProto (openxla/xla
	// xla/service/hlo.proto): the same four lists with the same numbers and wire types.
	{Key: "xla_stack_frames", Name: "stack frame index (XLA StackFrameIndexProto)", Fields: []Field{
		{Num: 1, Name: "file_names", Type: String, Meaning: "source file paths; a file location's file_name_id is a 1-based position here", Confidence: "high", Evidence: evXLAStacks},
		{Num: 2, Name: "function_names", Type: String, Meaning: "function names; a file location's function_name_id is a 1-based position here", Confidence: "high", Evidence: evXLAStacks},
		{Num: 3, Name: "file_location", Type: Message, Msg: "xla_file_location", Meaning: "one source position: file, function, line, column", Confidence: "high", Evidence: evXLAStacks},
		{Num: 4, Name: "stack_frame", Type: Message, Msg: "xla_stack_frame", Meaning: "one frame: its file location and the frame that called it; an hlo record's stack_frame_id is a 1-based position here", Confidence: "high", Evidence: evXLAStacks},
	}},
	{Key: "xla_file_location", Name: "file location", Fields: []Field{
		{Num: 1, Name: "file_name_id", Type: Varint, Meaning: "1-based position in file_names (0: none)", Confidence: "high", Evidence: evXLAStacks},
		{Num: 2, Name: "function_name_id", Type: Varint, Meaning: "1-based position in function_names (0: none)", Confidence: "high", Evidence: evXLAStacks},
		{Num: 3, Name: "line", Type: Varint, Meaning: "line number in the file", Confidence: "high", Evidence: evXLAStacks},
		{Num: 4, Name: "column", Type: Varint, Meaning: "column number in the line", Confidence: "high", Evidence: evXLAStacks},
	}},
	{Key: "xla_stack_frame", Name: "stack frame", Fields: []Field{
		{Num: 1, Name: "file_location_id", Type: Varint, Meaning: "1-based position in file_location (0: none)", Confidence: "high", Evidence: evXLAStacks},
		{Num: 2, Name: "parent_frame_id", Type: Varint, Meaning: "1-based position of the calling frame in stack_frame (0: the outermost frame)", Confidence: "high", Evidence: evXLAStacks},
	}},
	// One record shape serves the backend, penguin, hlo and pttf levels: the same numbers carry
	// the same kinds of values at every level.
	{Key: "record", Name: "record", Fields: []Field{
		{Num: 1, Name: "id", Type: Varint, Meaning: "the record's id (absent = 0); ids are unique across a subgraph's backend members", Confidence: "high", Evidence: "no id repeats within a subgraph's backend members; every asm and field-5 id resolves (66 backend members)"},
		{Num: 2, Name: "name", Type: String, Meaning: "backend: the BIR instruction name (inst.329-wait-0, …-PWP); penguin: result tensor; hlo: instruction text; pttf: scope path", Confidence: "high", Evidence: evAll},
		{Num: 3, Name: "parent_ids", Type: Packed, Meaning: "ids of the records this one came from, in the member top-level field 2 names (one level up)", Confidence: "high", Evidence: evParents},
		{Num: 4, Name: "dependency_ids", Type: Packed, Meaning: "ids of records of the same level this one depends on (penguin/hlo: its operands)", Confidence: "medium", Evidence: "hlo \"%op0 = dot(%x, %y)\" lists 0, 1 (%x, %y); penguin $87 lists $86, $76; of backend records' 44,825 ids, 32,577 resolve in the subgraph's backend members", Unknown: "dbg.record-dependencies"},
		{Num: 5, Name: "unknown_related_ids", Type: Packed, Meaning: "ids of backend records of the same subgraph, another relation than field 4 (not its inverse)", Confidence: "low", Evidence: "all 25,600 ids of the real backend records resolve in the subgraph's backend members; none is field 4's inverse", Unknown: "dbg.record-dependencies"},
		{Num: 6, Name: "transpose_code", Type: Varint, Meaning: "3 marks a transpose (on Trn2 the PE words' transpose byte +0x22 is 1); 1 and 2 also occur, meaning unknown", Confidence: "medium", Evidence: evTranspose, Unknown: "dbg.record-field-6"},
		{Num: 7, Name: "attribute", Type: Message, Msg: "attr", Meaning: "a key/value attribute (kernel_file, kernel_line, kernel_name, dma_queue, op_type, source_file, source_line)", Confidence: "high", Evidence: evAll},
		{Num: 8, Name: "stack_frame_id", Type: Varint, Meaning: "hlo records: 1-based position of the record's innermost frame in the stack-frame member's stack_frame list (0: none); that frame's file location is the record's source_file:source_line", Confidence: "high", Evidence: "XLA OpMetadata.stack_frame_id is 1-based into StackFrameIndexProto.stack_frames (openxla/xla hlo.proto, xla_data.proto); spec neff.md §8.1: 12/12 hlo records of a torch-xla NEFF outside shared/testdata-real; no real file here has it"},
		{Num: 9, Name: "unknown_dependency_kinds", Type: Packed, Meaning: "one small code (2, 3, 4) per entry of field 4", Confidence: "medium", Evidence: "its length equals field 4's in all 1,271 backend records that have it", Unknown: "dbg.record-dependencies"},
		{Num: 10, Name: "unknown_related_kinds", Type: Packed, Meaning: "one small code (1, 2, 4) per entry of field 5", Confidence: "medium", Evidence: "its length equals field 5's in all 1,744 backend records that have it", Unknown: "dbg.record-dependencies"},
	}},
	{Key: "attr", Name: "attribute", Fields: []Field{
		{Num: 1, Name: "key", Type: String, Meaning: "attribute name", Confidence: "high", Evidence: evAll},
		{Num: 2, Name: "value", Type: String, Meaning: "attribute value, as text (indexes and line numbers in decimal)", Confidence: "high", Evidence: evAll},
	}},
}

// shape finds a shape by key (nil when none).
func shape(key string) *Shape {
	for i := range shapeTable {
		if shapeTable[i].Key == key {
			return &shapeTable[i]
		}
	}
	return nil
}

// kindShape names a member kind's top-level shape.
func kindShape(k Kind) string {
	if k == KindStackFrames {
		return "stack_frame_index"
	}
	return string(k)
}

// Table is the shape table as rows (message, field, name, type, meaning, confidence, evidence),
// for the page and for documentation.
func Table() [][]string {
	var rows [][]string
	for _, s := range shapeTable {
		for _, f := range s.Fields {
			rows = append(rows, []string{s.Key, itoa(int64(f.Num)), f.Name, f.Type.String(), f.Meaning, f.Confidence, f.Evidence})
		}
	}
	return rows
}

// EngineName names the top-level engine code (field 4 of asm and backend members).
func EngineName(code uint64) string {
	switch code {
	case 1:
		return "PE"
	case 2:
		return "Activation"
	case 3:
		return "Pool"
	case 4:
		return "DMA"
	case 5:
		return "DVE"
	case 6:
		return "SP"
	}
	return ""
}
