package doc

//go:generate go run ./vocab/gen -root ../.. -o ../../www/src/lib/vocab.gen.js

// Node kinds: what a Node is. The page picks its renderer, glyph and detail view by kind, so
// these strings are part of the wire format (the page compares them through www/src/lib/vocab.gen.js, which `go generate ./core/doc` writes from these constants): never rename one.
const (
	// JSON values (core/jsonspan's trees; the libncfw dump reader's too).
	KindObject = "object" // a JSON object; Value "{n}"
	KindArray  = "array"  // a JSON array; Value "[n]"
	KindString = "string" // a JSON string (Value quoted)
	KindNumber = "number" // a JSON number
	KindBool   = "bool"   // a JSON true or false
	KindNull   = "null"   // a JSON null
	KindBare   = "bare"   // a token of a lenient read that is not JSON: (nil), 0x1, NaN

	// Common leaves and containers.
	KindField = "field" // a decoded value with its bytes (the default leaf)
	KindFlag  = "flag"  // one bit of a bit set (a header feature bit)
	KindBytes = "bytes" // raw bytes shown in the hex view; Ref says where to fetch them
	KindTable = "table" // a node whose content is its Table
	KindGroup = "group" // a grouping of fields with no bytes of its own

	// The NEFF container (core/neff).
	KindNEFF     = "neff"     // the root of a NEFF document
	KindHeader   = "header"   // the 1024-byte header
	KindPayload  = "payload"  // the payload after the header: encoding, hash, padding
	KindPadding  = "padding"  // the bytes after the gzip stream up to data_size
	KindVerdict  = "verdict"  // what libnrt would say about the file
	KindArchive  = "archive"  // the tar archive: its members
	KindDir      = "dir"      // a directory of archive members
	KindMember   = "member"   // one archive member; Ref MemberRef(path)
	KindManifest = "manifest" // a JSON member decoded as a typed manifest (core/manifest)
	KindNPY      = "npy"      // a .npy array member: dtype, shape, data

	// The resolved program (core/manifest overview).
	KindModel          = "model"           // the model overview: target, cores, I/O, engines
	KindTensors        = "tensors"         // the inputs or the outputs, as a table
	KindCores          = "cores"           // the physical NeuronCores (subgraphs)
	KindCore           = "core"            // one subgraph sgNN
	KindEngines        = "engines"         // a core's engines, as a table
	KindEngine         = "engine"          // one engine with its instruction stream
	KindActivationSets = "activation-sets" // activation function sets an engine or model uses
	KindDMABlocks      = "dma-blocks"      // an engine's DMA blocks
	KindVars           = "vars"            // a core's variables (def.json var)
	KindQueues         = "queues"          // a core's DMA queues
	KindFeatures       = "features"        // the model's feature bits and names
	KindMembers        = "members"         // every member and what refers to it
	KindSourceTree     = "source-tree"     // NKI instructions by source function and line
	KindFunc           = "func"            // a source function in the source tree
	KindIter           = "iter"            // a loop iteration in the source tree
	KindInst           = "inst"            // an instruction's source line in the source tree
	KindLNC            = "lnc"             // a logical core in the source tree

	// Instructions (core/isa).
	KindProtobuf     = "protobuf"     // a protobuf message or field of a .dbg member, by wire type (core/dbg)
	KindMessage      = "message"      // a protobuf message whose shape core/dbg's table names
	KindSource       = "source"       // kernel source lines and the instructions each produced (from .dbg)
	KindInstructions = "instructions" // a disassembled stream; Ref StreamRef(member)
	KindInstruction  = "instruction"  // one 64-byte instruction word
	KindDescriptor   = "descriptor"   // an operand descriptor inside an instruction

	// Activation tables (core/pwp).
	KindPWP          = "pwp"            // the root of a loose activation-table group
	KindPWPBundle    = "pwp-bundle"     // the activation tables of a NEFF or a group
	KindPWPRoster    = "pwp-roster"     // act_info.json: every set the compiler could load
	KindPWPRosterSet = "pwp-roster-set" // one set as the roster lists it
	KindPWPSet       = "pwp-set"        // one decoded set: profiles, buckets, controls
	KindPWPFunction  = "pwp-function"   // one activation function; Ref PWPRef(profile, name)
	KindPWPBucket    = "pwp-bucket"     // a set's bucket blob
	KindPWPOctaves   = "pwp-octaves"    // a set's control blob (octaves)
	KindPWPEval      = "pwp-eval"       // one evaluation: result, bits, path through the tables
	KindPWPPlot      = "pwp-plot"       // a sampled plot: emulated, true and error series

	// libncfw (core/ncfw).
	KindNCFW        = "ncfw"         // the field tree of an emulated context
	KindNCFWContext = "ncfw-context" // the root of a raw context document; Attrs arch, rc
	KindNCFWArches  = "ncfw-arches"  // the arches a context could be, with which fit
	KindNCFWText    = "ncfw-text"    // the text libncfw_ctx_log prints
	KindNCFWDump    = "ncfw-dump"    // the root of a dump read back; children carry Attrs line

	// Device profiles (core/ntff).
	KindNTFF       = "ntff"        // the root of an NTFF device profile
	KindNTFFImage  = "ntff-image"  // one engine's loaded instruction image; its words a stub (records:)
	KindNTFFQueue  = "ntff-queue"  // one notification-queue section; its records a stub (records:)
	KindNTFFRecord = "ntff-record" // one 16-byte notification record with its bit fields
	KindNTFFWord   = "ntff-word"   // one 64-byte word of a loaded image, decoded

	// Comparison and reference.
	KindDiff        = "diff"         // two files compared (core/inspect Diff)
	KindDiffSection = "diff-section" // one part of a comparison: header, model, members, …

	// Fleet answers (core/inspect: profile.go, memory.go, compare.go, cache.go).
	KindProfile        = "profile"         // the static engine profile of a NEFF
	KindProfileSection = "profile-section" // one table of the profile (engines, opcodes, dma, reloads, hlo)
	KindMemory         = "memory"          // the static device-memory budget
	KindMemoryCore     = "memory-core"     // one core's budget, or the per-NEFF figures
	KindMemoryItem     = "memory-item"     // one line of a core's budget, with the vars it sums
	KindCompare        = "compare"         // an N-way comparison of NEFFs
	KindCompareSection = "compare-section" // one table of the comparison
	KindCompareFile    = "compare-file"    // one compared file
	KindReason         = "reason"          // why two cache entries differ (recompile explanation)

	// The overview (core/inspect overview.go): the landing answers of a NEFF, each with a Link.
	KindOverview = "overview" // the dashboard: model, I/O, engines, activations, DMA, memory, verdict, findings
	KindAnswer   = "answer"   // one section of the overview (Key names which)
	KindCause    = "cause"    // a root cause and the findings it explains (overview findings)

	// XLA HLO modules (core/hlo).
	KindHLOModule      = "hlo-module"      // the root of an HloModuleProto document
	KindHLOComputation = "hlo-computation" // one computation: its instructions
	KindHLOInstruction = "hlo-instruction" // one instruction: opcode, shape, operands, custom call
)
