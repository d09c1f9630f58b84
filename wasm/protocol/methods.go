package protocol

import "math"

// The fields most methods share.
var (
	handle  = Field{Name: "handle", Type: "number", Doc: "a file the core holds open (from open, openGroup or openContext)", Resolve: OpenFile}
	msDoc   = Field{Name: "ms", Type: "number", Doc: "the core's time for the call, in milliseconds"}
	docBuf  = Field{Name: "doc", Type: "ArrayBuffer", Doc: "the Document, msgpack"}
	nodeBuf = Field{Name: "node", Type: "ArrayBuffer", Doc: "a doc.Node, msgpack"}
	jsonBuf = Field{Name: "json", Type: "ArrayBuffer", Doc: "UTF-8 JSON with a final newline"}
	wasm    = Field{Name: "wasmBytes", Type: "number", Doc: "the wasm linear memory's size after the call (0 when unknown)"}
	ref     = Field{Name: "ref", Type: "string", Doc: "a node's ref (core/doc ref.go)"}
	libKey  = Field{Name: "key", Type: "string", Doc: "an entry's key, or a prefix of it (URL hashes carry a prefix of the sha-256)"}
	path    = Field{Name: "path", Type: "Array<string>", Doc: "a node's path: the path keys from the root (key, else label), as the URL hash's n= names them; [] is the root"}
)

// Events lists the events methods send.
var Events = []Event{
	{Name: "progress", Type: "Progress", Doc: "how far an open is, at most every 40 ms and at every phase change"},
	{Name: "header", Type: "ArrayBuffer", Doc: "the Document with only the header (msgpack), as soon as the header is read"},
	{Name: "overview", Type: "ArrayBuffer", Doc: "a partial overview (a doc.Node, msgpack; attrs.partial \"true\"): what the header and the members listed so far tell, right after the header, then at most every 200 ms while the archive is read, and once when the walk ends"},
	{Name: "hits", Type: "Array<SearchHit>", Doc: "a batch of search hits, in document order, as the walk finds them"},
}

// Types are the object types fields name.
var Types = []Typedef{
	{Name: "Progress", Doc: "an open's progress", Fields: []Field{
		{Name: "phase", Type: "string", Doc: "header, payload, padding, members, done, …"},
		{Name: "done", Type: "number", Doc: "bytes of the phase done"},
		{Name: "total", Type: "number", Doc: "bytes the phase has (0: unknown)"},
		{Name: "inflated", Type: "number", Doc: "payload bytes inflated so far"},
		{Name: "read", Type: "number", Doc: "bytes of the file read so far"},
	}},
	{Name: "DocEntry", Doc: "one document of a group open", Fields: []Field{
		{Name: "handle", Type: "number", Doc: "its handle"},
		{Name: "doc", Type: "ArrayBuffer", Doc: "its Document, msgpack"},
		{Name: "name", Type: "string", Doc: "its file name"},
	}},
	{Name: "LibFile", Doc: "one file of a library entry", Fields: []Field{
		{Name: "name", Type: "string", Doc: "the file's name"},
		{Name: "size", Type: "number", Doc: "its size in bytes"},
		{Name: "blob", Type: "Blob", Optional: true, Doc: "its bytes, when within the cap (libPut, libGet)"},
		{Name: "kept", Type: "boolean", Optional: true, Doc: "whether its bytes are kept (libList)"},
	}},
	{Name: "LibEntry", Doc: "a file the library keeps; the core adds key, sha256, kind, size, summary, doc and opened", Fields: []Field{
		{Name: "how", Type: "string", Doc: "how it was opened: open, group or context"},
		{Name: "name", Type: "string", Doc: "the Document's file name (the page's; the core names the file by it in its notes)"},
		{Name: "files", Type: "Array<LibFile>", Doc: "the files opened"},
		{Name: "arch", Type: "number", Optional: true, Doc: "a context's arch"},
		{Name: "model", Type: "string", Optional: true, Doc: "a context's model name"},
		{Name: "node", Type: "string", Optional: true, Doc: "the node on show (its path)"},
		{Name: "key", Type: "string", Optional: true, Doc: "the entry's key (default: the sha-256)"},
		{Name: "sha256", Type: "string", Optional: true, Doc: "the file's sha-256"},
		{Name: "kind", Type: "string", Optional: true, Doc: "the Document's kind"},
		{Name: "size", Type: "number", Optional: true, Doc: "the file's size"},
		{Name: "summary", Type: "string", Optional: true, Doc: "the root node's value"},
		{Name: "doc", Type: "Uint8Array", Optional: true, Doc: "the Document, msgpack (libGet)"},
		{Name: "opened", Type: "number", Optional: true, Doc: "when, in ms since 1970"},
	}},
	{Name: "ScanRecord", Doc: "one NEFF of a scan: the fields of a `neffscope scan --jsonl` line (core/fleet/scan.go)", Fields: []Field{
		{Name: "path", Type: "string", Doc: "the path the record names (slash-separated)"},
		{Name: "size", Type: "number", Doc: "bytes"},
		{Name: "sha256", Type: "string", Doc: "the file's sha-256 ('' when unread)"},
		{Name: "uuid", Type: "string", Doc: "the header's UUID"},
		{Name: "neff_version", Type: "string", Doc: "major.minor"},
		{Name: "compiler", Type: "string", Doc: "info.json tool_version"},
		{Name: "target", Type: "string", Doc: "the kelf target"},
		{Name: "subgraphs", Type: "number", Doc: "cores (subgraphs)"},
		{Name: "instructions", Type: "Counts", Doc: "64-byte words per engine, summed over subgraphs"},
		{Name: "inputs", Type: "Array<ScanTensor>", Doc: "the model's inputs"},
		{Name: "outputs", Type: "Array<ScanTensor>", Doc: "the model's outputs"},
		{Name: "findings", Type: "Counts", Doc: "findings by severity (error, warning, info)"},
		{Name: "problems", Type: "Array<ScanProblem>", Doc: "the scan's own findings and the first errors"},
		{Name: "cache", Type: "CacheInfo|null", Doc: "the compile-cache entry, null outside a cache"},
		{Name: "duplicate_of", Type: "string|null", Doc: "the first path of a byte-identical NEFF (the scan call leaves it null: the page decides it in path order)"},
		{Name: "graph", Type: "string|null", Doc: "the digest of the entry's HLO module, volatile values and metadata left out (null without one; the scan call reads no HLO yet)"},
		{Name: "hlo", Type: "ScanHLO|null", Doc: "what the entry's HLO module says (null without one)"},
	}},
	{Name: "SchedCore", Doc: "one core's schedule (schedule): Int32 columns, little-endian, engines' words concatenated in engine order", Fields: []Field{
		{Name: "core", Type: "string", Doc: "its name (sg00)"},
		{Name: "engines", Type: "Array<string>", Doc: "its engines, one lane each"},
		{Name: "members", Type: "Array<string>", Doc: "each engine's stream member (its listing is stream:<member>)"},
		{Name: "lens", Type: "ArrayBuffer", Doc: "Int32 per engine: its words"},
		{Name: "steps", Type: "ArrayBuffer", Doc: "Int32 per word: its earliest step (-1: it never runs, or is not modelled); a word lasts one step"},
		{Name: "ops", Type: "ArrayBuffer", Doc: "Uint8 per word: its opcode"},
		{Name: "waits", Type: "ArrayBuffer", Doc: "Int32 × 7 per wait: engine, index, producer engine, producer index (-1: none), semaphore, value (u32 bits), code (an index of codes)"},
		{Name: "codes", Type: "Array<string>", Doc: "the code names waits index ('' is resolved)"},
		{Name: "total", Type: "number", Doc: "the steps the schedule takes"},
		{Name: "lints", Type: "Array<SchedLint>", Doc: "the sync lints, in core order"},
		{Name: "undecided", Type: "Array<SchedLint>", Doc: "what the model could not decide (never a lint)"},
	}},
	{Name: "SchedLint", Doc: "a lint or undecided point of the model: its code and the instructions it names", Fields: []Field{
		{Name: "code", Type: "string", Doc: "the stable code (sync.cycle, mem.unsync, …; core/sched codes.go)"},
		{Name: "engine", Type: "number", Doc: "the engine (an index of engines; -1: none)"},
		{Name: "index", Type: "number", Doc: "the word's index in its stream"},
		{Name: "otherEngine", Type: "number", Doc: "the other instruction's engine (-1: none)"},
		{Name: "otherIndex", Type: "number", Doc: "the other instruction's index"},
		{Name: "message", Type: "string", Doc: "what it means, in words"},
	}},
	{Name: "MemCore", Doc: "one core's memory model (memory): accesses and boxes as Int32 columns, little-endian", Fields: []Field{
		{Name: "core", Type: "string", Doc: "its name"},
		{Name: "engines", Type: "Array<string>", Doc: "its engines (accesses index them)"},
		{Name: "accesses", Type: "ArrayBuffer", Doc: "Int32 × 6 per access: engine, index, step, flags (1 write, 2 DMA transfer, 4 PSUM), first box, one past its last box"},
		{Name: "boxes", Type: "ArrayBuffer", Doc: "Int32 × 6 per box: partition, partitions, offset, bytes, stride, count (a box is count runs of bytes, stride apart, in each partition)"},
		{Name: "sbuf", Type: "MemUsage", Doc: "SBUF's capacity and peak"},
		{Name: "psum", Type: "MemUsage", Doc: "PSUM's capacity and peak"},
		{Name: "lints", Type: "Array<SchedLint>", Doc: "the memory lints"},
	}},
	{Name: "MemUsage", Doc: "a space's capacity and its peak (the most bytes of one partition live at once)", Fields: []Field{
		{Name: "partitions", Type: "number", Doc: "partitions"},
		{Name: "partitionBytes", Type: "number", Doc: "bytes of one partition"},
		{Name: "peakBytes", Type: "number", Doc: "the peak"},
		{Name: "peakAccess", Type: "number", Doc: "the access that reached it (-1: nothing live)"},
	}},
	{Name: "Counts", Doc: "an object of name → count"},
	{Name: "MemberSum", Doc: "a member's sha-256", Fields: []Field{
		{Name: "path", Type: "string", Doc: "its path"}, {Name: "sha256", Type: "string", Doc: "hex ('' if truncated)"},
		{Name: "detail", Type: "string", Doc: "its node's detail"}}},
	{Name: "SearchHit", Doc: "one node a search found: its path and what a result list shows of it", Fields: []Field{
		{Name: "path", Type: "Array<string>", Doc: "its path keys from the root"},
		{Name: "kind", Type: "string", Doc: "its kind"},
		{Name: "label", Type: "string", Doc: "its label"},
		{Name: "value", Type: "string", Optional: true, Doc: "its value (absent when empty)"},
		{Name: "ref", Type: "string", Optional: true, Doc: "its ref (absent when empty)"}}},
	{Name: "ScanTensor", Doc: "a model input or output", Fields: []Field{
		{Name: "name", Type: "string", Doc: "its name"}, {Name: "dtype", Type: "string", Doc: "its element type"},
		{Name: "shape", Type: "Array<number>", Doc: "its shape"}}},
	{Name: "ScanProblem", Doc: "a finding kept on a record", Fields: []Field{
		{Name: "severity", Type: "string", Doc: "error, warning or info"}, {Name: "message", Type: "string", Doc: "what, where, what to do"}}},
	{Name: "CacheInfo", Doc: "a record's compile-cache entry", Fields: []Field{
		{Name: "module", Type: "string", Doc: "MODULE_<graph hash>"}, {Name: "flags_hash", Type: "string", Doc: "the 8 hex digits after '+'"},
		{Name: "state", Type: "string", Doc: "done, incomplete or failed"},
		{Name: "compiler_dir", Type: "string", Optional: true, Doc: "the neuronxcc-<version> directory's version"},
		{Name: "flags", Type: "string", Optional: true, Doc: "a known flag set's name ('no flags')"}}},
	{Name: "ScanHLO", Doc: "a record's HLO module (core/fleet ScanHLO)", Fields: []Field{
		{Name: "path", Type: "string", Doc: "the module's path"},
		{Name: "kernels", Type: "Array<string>", Doc: "the kernels its custom calls name"},
		{Name: "temporary_paths", Type: "boolean", Doc: "a kernel call names its binary by a temporary path (a new cache key every trace)"},
		{Name: "masked", Type: "string", Doc: "digest of the module with only those temporary paths masked"},
		{Name: "problems", Type: "Array<ScanProblem>", Doc: "the module's first error findings"}}},
}

// Methods is the protocol: every method the core answers, in the order the page meets them.
var Methods = []Method{
	{
		Name: "open", Doc: "Decode a file: the registry picks its decoder (NEFF, JSON, activation tables, libncfw dump, …).",
		Args: []Field{
			{Name: "file", Type: File, Doc: "the file"},
			{Name: "name", Type: "string", Optional: true, Doc: "its name (default: the File's name)"},
			{Name: "fingerprint", Type: "boolean", Optional: true, Doc: "false: do not hash the whole file; the page sends its sha-256 with setFingerprint"},
			{Name: "digests", Type: "number", Optional: true, Doc: "a token: the page sends the payload's MD5 and the file's sha-256 with digests; the open waits for them at the integrity check (60 s at most)"},
			{Name: "memberHashes", Type: "boolean", Optional: true, Doc: "false: no members' sha-256 (hashMembers adds them)"},
			{Name: "deferSource", Type: "boolean", Optional: true, Doc: "true: no .dbg scans and source joins (indexSource adds them)"},
			{Name: "deferSourceOver", Type: "number", Optional: true, Doc: "with deferSource: the .dbg bytes (all held) up to which the open maps them all the same (default 65536; 0: always deferred)"},
			{Name: "partial", Type: "boolean", Optional: true, Doc: "false: no overview events (the partial overview is not built)"},
			{Name: "background", Type: "boolean", Optional: true, Doc: "true: the worker's warm-up: the open yields at its progress points and before its encoding, and waits there while another open or call runs"},
			{Name: "maxInflated", Type: "number", Optional: true, Doc: "stop inflating the payload after this many bytes (default: the core's cap)"},
			{Name: "maxMemory", Type: "number", Optional: true, Doc: "bytes the open may hold (kept members plus decoded structure); past it the rest is bytes only, with one finding (default: sized to the worker)"},
			{Name: "maxValues", Type: "number", Optional: true, Doc: "JSON values indexed over the whole file (default: sized to the worker)"},
			{Name: "maxMembers", Type: "number", Optional: true, Doc: "archive members listed (default: sized to the worker)"},
			{Name: "maxRows", Type: "number", Optional: true, Doc: "instruction rows one request may materialise (default: sized to the worker)"},
		},
		Result: []Field{handle, docBuf, msDoc,
			{Name: "crossings", Type: "number", Doc: "reads of the file made (one per 4 MiB slice, or fewer)"}, wasm,
			{Name: "fingerprinted", Type: "boolean", Doc: "whether the Document took the digests' sha-256"},
			{Name: "digestWaitMs", Type: "number", Doc: "milliseconds of ms the open waited for the page's digests"},
			{Name: "walkMs", Type: "number", Doc: "milliseconds of ms the archive walk took (to the last member listed; the rest is the manifests' resolve and the Document)"},
			{Name: "encodeMs", Type: "number", Doc: "milliseconds encoding the Document (after ms)"},
			{Name: "sourcePending", Type: "boolean", Doc: "the source lines are to be mapped: call indexSource"}},
		Events: []string{"progress", "header", "overview"},
	},
	{
		Name: "digests", Doc: "Give a waiting open the page's digests.",
		Args: []Field{{Name: "token", Type: "number", Doc: "the open's token"},
			{Name: "md5", Type: "string", Optional: true, Doc: "MD5 of the payload bytes, hex (absent: not known)"},
			{Name: "sha256", Type: "string", Optional: true, Doc: "the file's sha-256, hex"}},
		Result: []Field{{Name: "used", Type: "boolean", Doc: "whether an open took them"}},
	},
	{
		Name: "hashMembers", Doc: "Compute the members' sha-256 an open left out; the Document takes them.",
		Args:   []Field{handle},
		Result: []Field{{Name: "members", Type: "Array<MemberSum>", Doc: "in archive order"}},
		Events: []string{"progress"},
	},
	{
		Name: "indexSource", Doc: "Map the source lines an open with deferSource left out; the Document takes them. The answer is what changed since the open, to patch the page's copy.",
		Args: []Field{handle},
		Result: []Field{
			{Name: "mapped", Type: "boolean", Doc: "false: the open left nothing out (the other fields are absent)"},
			{Name: "overview", Type: "ArrayBuffer", Optional: true, Doc: "the new overview node (msgpack)"},
			{Name: "source", Type: "ArrayBuffer", Optional: true, Doc: "the model's source node, appended to model (msgpack; empty: none)"},
			{Name: "contents", Type: "ArrayBuffer", Optional: true, Doc: "the .dbg members' new content nodes, in document order, each naming its member by ref (a msgpack array)"},
			{Name: "findings", Type: "ArrayBuffer", Optional: true, Doc: "the root without its children: its findings (msgpack)"},
			msDoc},
		Events: []string{"progress"},
	},
	{
		Name: "setFingerprint", Doc: "Give an open file the sha-256 the page computed; ignored for a NEFF whose archive was not read to its end.",
		Args:   []Field{handle, {Name: "sha256", Type: "string", Doc: "64 hex digits"}},
		Result: []Field{{Name: "set", Type: "boolean", Doc: "whether the Document took it"}},
	},
	{
		Name: "bytes", Doc: "Bytes of the file or of a member, at most 16 MiB a call.",
		Args: []Field{handle,
			{Name: "source", Type: "string", Optional: true, Doc: "a member path; '' or absent: the file itself"},
			{Name: "off", Type: "number", Doc: "the first byte"},
			{Name: "n", Type: "number", Doc: "how many (fewer at the end; at most 16 MiB)"}},
		Result: []Field{{Name: "bytes", Type: "ArrayBuffer", Doc: "the bytes"}},
		Range:  &Range{From: "off", To: "n", Count: true, Max: 16 << 20},
	},
	{
		Name: "rows", Doc: "Rows [from, to) of a listing served by range (instructions, .dbg records), at most 10,000 a call.",
		Args: []Field{handle, {Name: "ref", Type: "string", Doc: "the ref of the rows: a stream's listing (stream:<member>) or a .dbg member's records (records:<member>)"},
			{Name: "from", Type: "number", Doc: "the first row"}, {Name: "to", Type: "number", Doc: "one past the last row"}},
		Result: []Field{{Name: "table", Type: "ArrayBuffer", Doc: "a doc.Table, msgpack"}, {Name: "total", Type: "number", Doc: "rows in the listing"}},
		Range:  &Range{From: "from", To: "to", Max: 10000, Last: math.MaxInt32},
	},
	{
		Name: "instruction", Doc: "Every field of one instruction.",
		Args:   []Field{handle, {Name: "ref", Type: "string", Doc: "the stream's ref (stream:<member>)"}, {Name: "index", Type: "number", Doc: "the instruction's row"}},
		Result: []Field{nodeBuf},
	},
	{
		Name: "node", Doc: "One node by path, built on demand under stubs (a stub stays a stub: its attrs.more counts the children children() pages).",
		Args:   []Field{handle, path},
		Result: []Field{nodeBuf},
	},
	{
		Name: "children", Doc: "Children [from, to) of the node at path, held or built on demand, at most 10,000 a call.",
		Args: []Field{handle, path, {Name: "from", Type: "number", Doc: "the first child"},
			{Name: "to", Type: "number", Doc: "one past the last child"}},
		Result: []Field{{Name: "kids", Type: "ArrayBuffer", Doc: "a msgpack array of doc.Node (each with its held subtree; a stub stays a stub)"},
			{Name: "total", Type: "number", Doc: "how many children the node has"}},
		Range: &Range{From: "from", To: "to", Max: 10000, Last: math.MaxInt32},
	},
	{
		Name: "search", Doc: "Nodes whose key, label, value or detail holds q (ASCII case folded), in document order after the node at after; one call stops at max hits or a visit cap, and next says where to go on.",
		Args: []Field{handle, {Name: "q", Type: "string", Doc: "the text to look for"},
			{Name: "after", Type: "Array<string>", Optional: true, Doc: "resume after this node (a previous call's next); absent or null: from the root"},
			{Name: "max", Type: "number", Optional: true, Doc: "hits at most (1 to 1,000; default 1,000)"}},
		Result: []Field{{Name: "next", Type: "Array<string>|null", Doc: "the path to pass as after to go on; null when the document was searched to its end"},
			{Name: "visited", Type: "number", Doc: "nodes visited by this call"}},
		Events: []string{"hits"},
	},
	{
		Name: "locate", Doc: "The smallest node whose bytes hold byte off of source (the instruction, the record, the JSON value, the field), building stubs on the way.",
		Args: []Field{handle,
			{Name: "source", Type: "string", Optional: true, Doc: "a member path; '' or absent: the file itself"},
			{Name: "off", Type: "number", Doc: "the byte"}},
		Result: []Field{{Name: "path", Type: "Array<string>", Doc: "the node's path keys from the root"}},
	},
	{
		Name: "evaluate", Doc: "Evaluate an activation function at one input, bit-exact to the hardware model.",
		Args: []Field{handle, {Name: "ref", Type: "string", Doc: "the function's ref (pwp:<profile>#<function>)"},
			{Name: "x", Type: "string|number", Doc: "a decimal float, or a 0x-prefixed float32 bit pattern (so NaN payloads survive)"},
			{Name: "mode", Type: "string", Optional: true, Doc: "'' (the default), 'sim' or 'horner'"}},
		Result: []Field{nodeBuf},
	},
	{
		Name: "plot", Doc: "Sample an activation function over [lo, hi]: emulated, true and error series, boundaries in its table.",
		Args: []Field{handle, {Name: "ref", Type: "string", Doc: "the function's ref (pwp:<profile>#<function>)"},
			{Name: "lo", Type: "number", Doc: "the first x"}, {Name: "hi", Type: "number", Doc: "the last x"},
			{Name: "n", Type: "number", Doc: "points, 2 to 65,536"},
			{Name: "mode", Type: "string", Optional: true, Doc: "'' (the default), 'sim' or 'horner'"}},
		Result: []Field{nodeBuf, msDoc},
	},
	{
		Name: "schedule", Doc: "The program in time (issue 28, core/sched): per core, each instruction's earliest step, the waits with their producers, the lints and undecided points, as typed columns (a million instructions are a few MB).",
		Args: []Field{handle},
		Result: []Field{{Name: "cores", Type: "Array<SchedCore>", Doc: "one per core, in the model's order"},
			{Name: "opcodes", Type: "Array<string>", Doc: "the name of each opcode byte (256; ops index it)"},
			{Name: "card", Type: "ArrayBuffer", Doc: "the overview's sync section (a doc.Node, msgpack) without the SBUF/PSUM peaks (attrs.peaks 'on demand': the memory call has them)"}, msDoc},
	},
	{
		Name: "memory", Doc: "The program in space (issue 28, core/sched with its memory model): per core, every SBUF/PSUM access and its exact boxes, each space's peak, the memory lints; and the overview's sync card filled in.",
		Args: []Field{handle},
		Result: []Field{{Name: "cores", Type: "Array<MemCore>", Doc: "one per core, in the model's order"},
			{Name: "card", Type: "ArrayBuffer", Doc: "the overview's sync section (a doc.Node, msgpack), computed"}, msDoc},
	},
	{
		Name: "openGroup", Doc: "Open files dropped together: activation-table files join into one Document, any other file is its own.",
		Args:   []Field{{Name: "files", Type: "Array<" + File + ">", Doc: "1 to 1000 files"}},
		Result: []Field{{Name: "docs", Type: "Array<DocEntry>", Doc: "one per Document"}, wasm},
	},
	{
		Name: "openContext", Doc: "Open a file as a raw libncfw collective context (at most 64 MiB), emulated for arch; its bytes stay in the core for recontext.",
		Args: []Field{{Name: "file", Type: File, Doc: "the context"},
			{Name: "name", Type: "string", Optional: true, Doc: "its name (default: the File's name)"},
			{Name: "arch", Type: "number", Optional: true, Doc: "the arch id (0 or absent: the best guess from the size)"},
			{Name: "model", Type: "string", Optional: true, Doc: "the model name the text prints"}},
		Result: []Field{handle, docBuf, msDoc},
	},
	{
		Name: "recontext", Doc: "Emulate an open context again for another arch or model name, under the same handle.",
		Args: []Field{{Name: "handle", Type: "number", Doc: "an open context's handle (from openContext)", Resolve: OpenContext},
			{Name: "arch", Type: "number", Optional: true, Doc: "the arch id (0: the best guess)"},
			{Name: "model", Type: "string", Optional: true, Doc: "the model name"}},
		Result: []Field{handle, docBuf, msDoc},
	},
	{
		Name: "contextArches", Doc: "The arches a raw context of this size could be, which fit, and the best guess.",
		Args:   []Field{{Name: "size", Type: "number", Doc: "the context's size in bytes"}},
		Result: []Field{nodeBuf},
	},
	{
		Name: "json", Doc: "The Document as `neffscope inspect --json` prints it, byte for byte.",
		Args:   []Field{handle},
		Result: []Field{jsonBuf},
	},
	{
		Name: "diff", Doc: "Compare two open files (`neffscope diff`): as a node, or as `neffscope diff --json A B` prints it.",
		Args: []Field{{Name: "a", Type: "number", Doc: "file A's handle", Resolve: OpenFile}, {Name: "b", Type: "number", Doc: "file B's handle", Resolve: OpenFile},
			{Name: "format", Type: "string", Optional: true, Doc: "'' (a node) or 'json'"}},
		Result: []Field{{Name: "node", Type: "ArrayBuffer", Optional: true, Doc: "the diff node, msgpack (format '')"},
			{Name: "json", Type: "ArrayBuffer", Optional: true, Doc: "the JSON (format 'json')"}},
	},
	{
		Name: "compare", Doc: "Compare two or more open files in one table of facts (`neffscope compare`): the odd one out flagged.",
		Args:   []Field{{Name: "handles", Type: "Array<number>", Doc: "2 to 64 open files' handles", Resolve: OpenFiles}},
		Result: []Field{nodeBuf},
	},
	{
		Name: "scan", Doc: "One record of a compile-cache scan (`neffscope scan --jsonl`): the file read once and forgotten; no file: a cache entry without a NEFF.",
		Args: []Field{
			{Name: "file", Type: File, Optional: true, Doc: "the NEFF; absent: the entry directory of path holds no model.neff"},
			{Name: "path", Type: "string", Doc: "the path the record names, relative to the folder picked (slash-separated)"},
			{Name: "siblings", Type: "Array<string>", Optional: true, Doc: "the names of the files beside it (model.done, model.log decide the cache state)"},
			{Name: "maxInflated", Type: "number", Optional: true, Doc: "stop inflating the payload after this many bytes (default: the core's cap)"},
		},
		Result: []Field{{Name: "record", Type: "ScanRecord", Doc: "the record, a plain object"}, msDoc},
		Events: []string{"progress"},
	},
	{
		Name: "close", Doc: "Forget an open file.",
		Args: []Field{{Name: "handle", Type: "number", Doc: "the handle to forget (one that names nothing is ignored: a close is idempotent)"}},
	},
	{
		Name: "libStatus", Doc: "Whether the library (IndexedDB) works here, and why not.",
		Result: []Field{{Name: "ok", Type: "boolean", Doc: "the library works"}, {Name: "reason", Type: "string", Doc: "why not ('' when it does)"}},
	},
	{
		Name: "libPut", Doc: "Keep an open file in the library, with its Document and (within the cap) its bytes.",
		Args: []Field{handle, {Name: "entry", Type: "LibEntry", Doc: "how it was opened and its files; the core adds the rest"}},
		Result: []Field{{Name: "kept", Type: "boolean", Doc: "whether its bytes were kept"},
			{Name: "note", Type: "string", Doc: "what went wrong short of failing ('' when nothing)"}},
	},
	{
		Name: "libList", Doc: "The kept files, newest first, without Documents and bytes.",
		Result: []Field{{Name: "list", Type: "Array<LibEntry>", Doc: "the entries; files[i].kept says whether its bytes are kept"}},
	},
	{
		Name: "libGet", Doc: "One kept file, its Document and bytes included.",
		Args:   []Field{libKey},
		Result: []Field{{Name: "entry", Type: "LibEntry|null", Doc: "the newest entry whose key starts with key, or null"}},
	},
	{
		Name: "libRemove", Doc: "Forget one kept file.",
		Args: []Field{libKey},
	},
	{
		Name: "libClear", Doc: "Forget every kept file.",
	},
}
