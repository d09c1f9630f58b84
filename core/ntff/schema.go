package ntff

import "google.golang.org/protobuf/encoding/protowire"

// Type is how a header field's value is read.
type Type uint8

const (
	Varint  Type = iota + 1 // one varint
	String                  // length-delimited UTF-8 text
	Bytes                   // length-delimited bytes, shown in hex
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
	case Varint:
		return "varint"
	case String:
		return "string"
	case Bytes:
		return "bytes"
	case Message:
		return "message"
	}
	return "?"
}

// Field is one row of the table of header shapes. No .proto is published: every row is read
// off the four shared captures (spec ntff.md §2) and says how sure it is.
type Field struct {
	Num  protowire.Number
	Name string // a name starting with "unknown" means: seen, shape known, meaning not
	Type Type
	// Msg names the nested shape when Type is Message.
	Msg        string
	Meaning    string
	Confidence string // high / medium / low
	Evidence   string
	// Unknown names the row of Unknowns that holds the guess, where there is one.
	Unknown string
	// Zero: the writer omits the field when it is 0 (proto3 defaults, spec ntff.md §2): an
	// absent one is shown as 0, without bytes.
	Zero bool
}

// Named reports whether the field's meaning is known.
func (f *Field) Named() bool { return len(f.Name) < 7 || f.Name[:7] != "unknown" }

// Shape is one message shape: its fields by number. Rows marks a shape whose repeated
// occurrences are shown as the rows of one table under their parent (the static DMA blocks
// of a queue: 252 per queue on a real capture), not a node each.
type Shape struct {
	Key    string
	Name   string
	Rows   bool
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

// Evidence strings: the four captures of shared/testdata-real/nki-moe (runtime 2.30.51,
// trn2.3xlarge), as spec ntff.md §0 lists them.
const (
	evAll    = "all four shared captures (spec ntff.md §2)"
	evJoin   = "spec ntff.md §2.1, §4.1: byte-equal to attn_v6.neff's header (name at 0xDC, uuid at 0xCC)"
	evWindow = "spec ntff.md §2.1, §5 check 1: end − start = sg00 #14 exactly in 4/4 files"
	evImage  = "spec ntff.md §2.3: the program part of each image equals the NEFF member sgNN/<Engine>.bin word for word (attn_v6, 10/10 streams)"
	evEdits  = "spec ntff.md §2.4: on attn_v6 all 10 lists equal, entry for entry, those derived from the byte-level walk"
	evQueue  = "spec ntff.md §2.5: the queue names and indexes of TRACE_DMA b[7:4] (bytes per queue match on attn_v6)"
	evTable  = "spec ntff.md §2.6: the sections tile the blob exactly in all four captures; sizes are multiples of 16"
)

// shapeTable is the data table of the header's message shapes (spec ntff.md §2). A slice,
// not a map: the linker lays it out as data.
var shapeTable = [...]Shape{
	{Key: "header", Name: "NTFF header", Fields: []Field{
		{Num: 1, Name: "neff_name", Type: String, Meaning: "the path of the NEFF the runtime loaded", Confidence: "high", Evidence: evJoin},
		{Num: 2, Name: "neff_uuid", Type: Bytes, Meaning: "the NEFF's 16-byte UUID (NEFF header byte order), then 2 bytes of unknown meaning", Confidence: "high", Evidence: evJoin, Unknown: "ntff.uuid-tail"},
		{Num: 3, Name: "unknown_3", Type: Varint, Meaning: "10001 in every capture", Confidence: "low", Evidence: evAll, Unknown: "ntff.header-scalars"},
		{Num: 4, Name: "program", Type: Message, Msg: "program", Meaning: "the loaded program: its cores and the NEFF UUID again", Confidence: "high", Evidence: evAll},
		{Num: 5, Name: "unknown_5", Type: Varint, Meaning: "2 in every capture (= the cores, = LNC here)", Confidence: "low", Evidence: evAll, Unknown: "ntff.header-scalars"},
		{Num: 8, Name: "runtime_version", Type: Message, Msg: "version", Meaning: "version triple and git commit (2.30.51 + faafe26f… in every capture)", Confidence: "medium", Evidence: evAll, Unknown: "ntff.version-owners"},
		{Num: 9, Name: "instance_type", Type: String, Meaning: "the EC2 instance type", Confidence: "high", Evidence: evAll + ": trn2.3xlarge"},
		{Num: 10, Name: "unknown_10", Type: Varint, Meaning: "2 in every capture", Confidence: "low", Evidence: evAll, Unknown: "ntff.header-scalars"},
		{Num: 11, Name: "unknown_version_11", Type: Message, Msg: "version", Meaning: "another version ({2, 26}): driver, firmware or tools?", Confidence: "low", Evidence: evAll, Unknown: "ntff.version-owners"},
		{Num: 12, Name: "unknown_version_12", Type: Message, Msg: "version", Meaning: "another version ({2, 30, 59})", Confidence: "low", Evidence: evAll, Unknown: "ntff.version-owners"},
		{Num: 13, Name: "unknown_memory", Type: Message, Msg: "memory_config", Meaning: "8 entries {a, b, bytes}: a memory configuration?", Confidence: "low", Evidence: evAll + ": identical in all four", Unknown: "ntff.header-scalars"},
		{Num: 14, Name: "unknown_14", Type: Message, Msg: "unknown_14", Meaning: "{4: 0xFFFFFFFF} in every capture", Confidence: "low", Evidence: evAll, Unknown: "ntff.header-scalars"},
		{Num: 15, Name: "execution", Type: Message, Msg: "execution", Meaning: "the execution window: the NEFF UUID, start and end in picoseconds", Confidence: "high", Evidence: evWindow},
		{Num: 16, Name: "notification_queue", Type: Message, Msg: "section", Meaning: "one notification-queue section of the data blob", Confidence: "high", Evidence: evTable},
		{Num: 17, Name: "instance_id", Type: String, Meaning: "the EC2 instance id", Confidence: "medium", Evidence: "its format (i-0af76a70a6d3864dd)"},
		{Num: 18, Name: "unknown_18", Type: Varint, Meaning: "rises with capture time (1,107,557 … 1,117,048): a process or thread id?", Confidence: "low", Evidence: evAll, Unknown: "ntff.header-scalars"},
	}},
	{Key: "program", Name: "program", Fields: []Field{
		{Num: 4, Name: "cores", Type: Message, Msg: "cores", Meaning: "the loaded cores", Confidence: "high", Evidence: evAll},
		{Num: 5, Name: "neff_uuid", Type: Bytes, Meaning: "the NEFF's UUID (16 B)", Confidence: "high", Evidence: evJoin},
	}},
	{Key: "cores", Name: "cores", Fields: []Field{
		{Num: 1, Name: "core", Type: Message, Msg: "core", Meaning: "one NEFF core (sgNN), in NEFF core order", Confidence: "high", Evidence: evAll},
	}},
	{Key: "core", Name: "core", Fields: []Field{
		{Num: 1, Name: "name", Type: String, Meaning: "the NEFF's sgNN directory", Confidence: "high", Evidence: evAll},
		{Num: 3, Name: "neuron_core", Type: Varint, Meaning: "the NeuronCore id (sg00 → 4, sg01 → 5): #7 of this core's notification queues", Confidence: "high", Evidence: "spec ntff.md §2.2: equals #7 of that core's queues in all four"},
		{Num: 4, Name: "image", Type: Message, Msg: "image", Meaning: "one engine's loaded instruction image", Confidence: "high", Evidence: evImage},
		{Num: 5, Name: "edits", Type: Message, Msg: "edits", Meaning: "how the runtime changed one engine's program: preamble, removed and inserted words, postamble", Confidence: "medium", Evidence: evEdits},
		{Num: 7, Name: "dma_queue", Type: Message, Msg: "dma_queue", Meaning: "one DMA ring of a queue, with its static blocks", Confidence: "medium", Evidence: evQueue},
		{Num: 10, Name: "unknown_10", Type: Message, Msg: "unknown_core_10", Meaning: "9 sub-messages #1…#9 (#8 repeated), each {2:1, 3:1}", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 11, Name: "memory", Type: Message, Msg: "memory_region", Meaning: "a runtime memory region: bytes and name (generic, pe, act, pool, …)", Confidence: "high", Evidence: "spec ntff.md §2.2: names in fixed order in all four; the engine sizes exceed the loaded image by 1,344–1,728 B", Unknown: "ntff.core-unknowns"},
		{Num: 14, Name: "exec_ps", Type: Varint, Meaning: "the core's execution time in picoseconds (sg00: the execution window)", Confidence: "medium", Evidence: evWindow},
		{Num: 15, Name: "unknown_15", Type: Message, Msg: "unknown_empty", Meaning: "an empty message", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
	}},
	{Key: "image", Name: "engine image", Fields: []Field{
		{Num: 1, Name: "engine", Type: Varint, Meaning: "engine index: 0 PE, 1 Activation, 2 Pool, 3 DVE, 4 SP (0 omitted on the wire)", Confidence: "high", Evidence: evImage, Zero: true},
		{Num: 2, Name: "ring_address", Type: Varint, Meaning: "device address of the engine's instruction ring; a TRACE PC is (ring >> 6) + position, mod 2²⁰", Confidence: "high", Evidence: "spec ntff.md §4.1: every PC of that engine falls inside its image"},
		{Num: 7, Name: "offset", Type: Varint, Meaning: "byte offset of the image in the data blob (0 omitted)", Confidence: "high", Evidence: evTable, Zero: true},
		{Num: 8, Name: "bytes", Type: Varint, Meaning: "image bytes = 64 × words", Confidence: "high", Evidence: evTable},
	}},
	{Key: "edits", Name: "image edit list", Fields: []Field{
		{Num: 1, Name: "engine", Type: Varint, Meaning: "engine index, as the image's", Confidence: "high", Evidence: evEdits, Zero: true},
		{Num: 2, Name: "edit", Type: Message, Msg: "edit", Meaning: "one edit: the first is the preamble, the last the postamble", Confidence: "medium", Evidence: evEdits},
	}},
	{Key: "edit", Name: "edit", Fields: []Field{
		{Num: 1, Name: "byte_offset", Type: Varint, Meaning: "byte offset in the image (64 × position; 0 omitted)", Confidence: "high", Evidence: evEdits, Zero: true},
		{Num: 2, Name: "words", Type: Varint, Meaning: "how many words", Confidence: "high", Evidence: evEdits},
		{Num: 3, Name: "kind", Type: Varint, Meaning: "0 runtime words inserted (preamble, postamble, the first word of a lowered PseudoDMATrigger), 2 a compiler word removed (a PseudoBranchLabel); 0 omitted", Confidence: "medium", Evidence: evEdits, Unknown: "ntff.edit-kinds", Zero: true},
	}},
	{Key: "dma_queue", Name: "DMA queue ring", Fields: []Field{
		{Num: 1, Name: "unknown_ring", Type: Varint, Meaning: "64–79 for the 16 rings of a queue family (64 + DMA engine?), 73/74/90 on table queues", Confidence: "low", Evidence: evAll, Unknown: "ntff.dma-queue-fields"},
		{Num: 2, Name: "queue_index", Type: Varint, Meaning: "the queue index TRACE_DMA records carry in b[7:4] (0 omitted)", Confidence: "high", Evidence: evQueue, Zero: true},
		{Num: 3, Name: "unknown_3", Type: Varint, Meaning: "2 or 3 (absent on table queues)", Confidence: "low", Evidence: evAll, Unknown: "ntff.dma-queue-fields"},
		{Num: 4, Name: "name", Type: String, Meaning: "the queue's name, as the NEFF engine JSON's dma[].queue", Confidence: "high", Evidence: evQueue},
		{Num: 5, Name: "unknown_5", Type: Varint, Meaning: "0xFFFFFFFFFFFFFFFF", Confidence: "low", Evidence: evAll, Unknown: "ntff.dma-queue-fields"},
		{Num: 7, Name: "unknown_7", Type: Varint, Meaning: "2", Confidence: "low", Evidence: evAll, Unknown: "ntff.dma-queue-fields"},
		{Num: 8, Name: "block", Type: Message, Msg: "dma_block", Meaning: "one static DMA block of the queue (one TRACE_DMA packet on this ring)", Confidence: "medium", Evidence: "spec ntff.md §2.5: attn_v6 qDVESpillReload0 ids 0–19 = the 20 DVE.json dma[] blocks; entries ↔ packets on every ring", Unknown: "ntff.dma-queue-fields"},
	}},
	{Key: "dma_block", Name: "static DMA block", Rows: true, Fields: []Field{
		{Num: 1, Name: "block_id", Type: Varint, Meaning: "the engine JSON dma[] block id (0 omitted)", Confidence: "high", Evidence: "spec ntff.md §2.5 (attn_v6 qDVESpillReload0)", Zero: true},
		{Num: 2, Name: "unknown_2", Type: Varint, Meaning: "1", Confidence: "low", Evidence: evAll, Unknown: "ntff.dma-queue-fields"},
		{Num: 3, Name: "unknown_3", Type: Varint, Meaning: "3 or 2 on a family's first ring, 1 elsewhere: descriptor counts?", Confidence: "low", Evidence: evAll, Unknown: "ntff.dma-queue-fields"},
		{Num: 4, Name: "unknown_4", Type: Varint, Meaning: "2 on a family's first ring, 1 elsewhere", Confidence: "low", Evidence: evAll, Unknown: "ntff.dma-queue-fields"},
	}},
	{Key: "unknown_core_10", Name: "unknown per-core message 10", Fields: []Field{
		{Num: 1, Name: "unknown_1", Type: Message, Msg: "unknown_pair", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 2, Name: "unknown_2", Type: Message, Msg: "unknown_pair", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 3, Name: "unknown_3", Type: Message, Msg: "unknown_pair", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 4, Name: "unknown_4", Type: Message, Msg: "unknown_pair", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 5, Name: "unknown_5", Type: Message, Msg: "unknown_pair", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 6, Name: "unknown_6", Type: Message, Msg: "unknown_pair", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 7, Name: "unknown_7", Type: Message, Msg: "unknown_pair", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 8, Name: "unknown_8", Type: Message, Msg: "unknown_pair", Meaning: "repeated 16×", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 9, Name: "unknown_9", Type: Message, Msg: "unknown_pair", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
	}},
	{Key: "unknown_pair", Name: "unknown pair", Fields: []Field{
		{Num: 2, Name: "unknown_2", Type: Varint, Meaning: "1", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
		{Num: 3, Name: "unknown_3", Type: Varint, Meaning: "1", Confidence: "low", Evidence: evAll, Unknown: "ntff.core-unknowns"},
	}},
	{Key: "unknown_empty", Name: "empty message"},
	{Key: "memory_region", Name: "memory region", Fields: []Field{
		{Num: 2, Name: "bytes", Type: Varint, Meaning: "the region's size in bytes", Confidence: "medium", Evidence: "spec ntff.md §2.2; neff.md §8.2", Unknown: "ntff.core-unknowns"},
		{Num: 3, Name: "name", Type: String, Meaning: "the region's name", Confidence: "high", Evidence: "spec ntff.md §2.2: generic, pe, act, pool, io, spill, weight, … in fixed order"},
	}},
	{Key: "version", Name: "version", Fields: []Field{
		{Num: 1, Name: "major", Type: Varint, Meaning: "major version", Confidence: "medium", Evidence: evAll},
		{Num: 2, Name: "minor", Type: Varint, Meaning: "minor version", Confidence: "medium", Evidence: evAll},
		{Num: 3, Name: "patch", Type: Varint, Meaning: "patch version", Confidence: "medium", Evidence: evAll},
		{Num: 5, Name: "commit", Type: String, Meaning: "a git commit hash", Confidence: "medium", Evidence: evAll + ": faafe26f0401e2d1d9cec13866f859b15b529d1e"},
	}},
	{Key: "memory_config", Name: "unknown memory entry", Fields: []Field{
		{Num: 1, Name: "unknown_a", Type: Varint, Meaning: "0, 1 or 2", Confidence: "low", Evidence: evAll, Unknown: "ntff.header-scalars"},
		{Num: 2, Name: "unknown_b", Type: Varint, Meaning: "0, 1, 2, 4 or 5", Confidence: "low", Evidence: evAll, Unknown: "ntff.header-scalars"},
		{Num: 3, Name: "unknown_bytes", Type: Varint, Meaning: "a size (2–128 MiB)", Confidence: "low", Evidence: evAll, Unknown: "ntff.header-scalars"},
	}},
	{Key: "unknown_14", Name: "unknown message 14", Fields: []Field{
		{Num: 4, Name: "unknown_4", Type: Varint, Meaning: "0xFFFFFFFF", Confidence: "low", Evidence: evAll, Unknown: "ntff.header-scalars"},
	}},
	{Key: "execution", Name: "execution window", Fields: []Field{
		{Num: 1, Name: "neff_uuid", Type: Bytes, Meaning: "the NEFF's UUID (16 B)", Confidence: "high", Evidence: evJoin},
		{Num: 2, Name: "start_ps", Type: Varint, Meaning: "execution start, picoseconds on the device clock", Confidence: "high", Evidence: evWindow},
		{Num: 3, Name: "end_ps", Type: Varint, Meaning: "execution end, picoseconds", Confidence: "high", Evidence: evWindow},
	}},
	{Key: "section", Name: "notification-queue section", Fields: []Field{
		{Num: 1, Name: "nq_type", Type: Varint, Meaning: "enum NQ_TYPE: 0 TRACE, 1 NOTIFY, 2 EVENT, 3 ERROR, 4 TRACE_DMA, 5 THROTTLE (0 omitted)", Confidence: "high", Evidence: "aws-neuron-sdk src/libnrt/include/ndl/neuron_driver_shared.h:117-125; " + evTable, Zero: true},
		{Num: 3, Name: "source_kind", Type: Varint, Meaning: "0 engine queues, 1 the DMA trace, 2 twelve empty queues of NC 4 (CC-core / TopSP queues?)", Confidence: "medium", Evidence: evTable, Unknown: "ntff.section-kind-2", Zero: true},
		{Num: 4, Name: "index", Type: Varint, Meaning: "the queue's index (8–11 on the kind-2 queues)", Confidence: "medium", Evidence: evTable, Unknown: "ntff.section-kind-2", Zero: true},
		{Num: 5, Name: "offset", Type: Varint, Meaning: "byte offset in the data blob (0 omitted)", Confidence: "high", Evidence: evTable, Zero: true},
		{Num: 6, Name: "bytes", Type: Varint, Meaning: "section bytes, 16 per record (omitted: empty)", Confidence: "high", Evidence: evTable, Zero: true},
		{Num: 7, Name: "neuron_core", Type: Varint, Meaning: "the NeuronCore id whose records these are", Confidence: "high", Evidence: "spec ntff.md §2.2, §2.6"},
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

// Table is the shape table as rows (message, field, name, type, meaning, confidence,
// evidence), for documentation and the page.
func Table() [][]string {
	var rows [][]string
	for _, s := range shapeTable {
		for _, f := range s.Fields {
			rows = append(rows, []string{s.Key, itoa(int64(f.Num)), f.Name, f.Type.String(), f.Meaning, f.Confidence, f.Evidence})
		}
	}
	return rows
}

// Engines names the header's engine indexes (image #1, edits #1; TRACE a[28:26] − 1) as
// disasm names the NEFF's streams: spec ntff.md §2.3 [MEAS, H], each image's program equals
// that NEFF member sgNN/<name>.bin.
var Engines = [...]string{"PE", "Activation", "Pool", "DVE", "SP"}

// EngineName names engine index e ("engine N" past the table).
func EngineName(e int) string {
	if e >= 0 && e < len(Engines) {
		return Engines[e]
	}
	return "engine " + itoa(int64(e))
}

// NQ types (enum NQ_TYPE, aws-neuron-sdk src/libnrt/include/ndl/neuron_driver_shared.h:117-125).
const (
	NQTrace    = 0
	NQNotify   = 1
	NQEvent    = 2
	NQError    = 3
	NQTraceDMA = 4
	NQThrottle = 5
)

// NQName names an NQ type; decoded says whether neffscope reads its records (TRACE, NOTIFY,
// TRACE_DMA: the only kinds non-empty in the shared captures).
func NQName(t uint64) (name string, decoded bool) {
	switch t {
	case NQTrace:
		return "TRACE", true
	case NQNotify:
		return "NOTIFY", true
	case NQEvent:
		return "EVENT", false
	case NQError:
		return "ERROR", false
	case NQTraceDMA:
		return "TRACE_DMA", true
	case NQThrottle:
		return "THROTTLE", false
	}
	return "NQ type " + itoa(int64(t)), false
}
