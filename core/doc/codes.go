package doc

// CodeInfo is one row of the code table: the code and what it means.
type CodeInfo struct {
	Code    Code
	Meaning string
}

// The codes every finding carries, grouped by area: the area, a dot, the problem. One code
// names one kind of problem, whatever the wording of its message; tests, scripts and the page
// match codes, never the message. A new kind of finding adds a constant here and a row to
// Codes (at the end of its area, or in a new area at the end).
const (
	// neff: the container (header, payload, integrity)
	CodeNeffUnreadable         Code = "neff.unreadable"
	CodeNeffEmpty              Code = "neff.empty"
	CodeNeffHeaderShort        Code = "neff.header-short"
	CodeNeffPkgVersion         Code = "neff.pkg-version"
	CodeNeffHeaderSize         Code = "neff.header-size"
	CodeNeffTruncated          Code = "neff.truncated"
	CodeNeffTrailingBytes      Code = "neff.trailing-bytes"
	CodeNeffVersion            Code = "neff.version"
	CodeNeffFeatureUnknown     Code = "neff.feature-unknown"
	CodeNeffFeatureUnsupported Code = "neff.feature-unsupported"
	CodeNeffFeatureIgnored     Code = "neff.feature-ignored"
	CodeNeffUUIDZero           Code = "neff.uuid-zero"
	CodeNeffReservedNonzero    Code = "neff.reserved-nonzero"
	CodeNeffHashTail           Code = "neff.hash-tail"
	CodeNeffGzipHeader         Code = "neff.gzip-header"
	CodeNeffPlainTar           Code = "neff.plain-tar"
	CodeNeffPayloadUnknown     Code = "neff.payload-unknown"
	CodeNeffCancelled          Code = "neff.cancelled"
	CodeNeffInflateLimit       Code = "neff.inflate-limit"
	CodeNeffGzipCorrupt        Code = "neff.gzip-corrupt"
	CodeNeffPaddingNonzero     Code = "neff.padding-nonzero"
	CodeNeffHashUnchecked      Code = "neff.hash-unchecked"
	CodeNeffHashOldOrder       Code = "neff.hash-old-order"
	CodeNeffHashMismatch       Code = "neff.hash-mismatch"
	CodeNeffRuntimeRefuses     Code = "neff.runtime-refuses"

	// tar: the archive inside the payload
	CodeTarNoEnd           Code = "tar.no-end"
	CodeTarTruncated       Code = "tar.truncated"
	CodeTarLoneZeroBlock   Code = "tar.lone-zero-block"
	CodeTarBadPax          Code = "tar.bad-pax"
	CodeTarNotFile         Code = "tar.not-file"
	CodeTarOddType         Code = "tar.odd-type"
	CodeTarTooManyMembers  Code = "tar.too-many-members"
	CodeTarBadHeader       Code = "tar.bad-header"
	CodeTarDuplicateMember Code = "tar.duplicate-member"
	CodeTarBadSize         Code = "tar.bad-size"
	CodeTarPathDepth       Code = "tar.path-depth"

	// budget: a limit of the open (core/budget) refused something
	CodeBudgetInflate Code = "budget.inflate"
	CodeBudgetMemory  Code = "budget.memory"
	CodeBudgetValues  Code = "budget.values"
	CodeBudgetMembers Code = "budget.members"
	CodeBudgetRows    Code = "budget.rows"
	CodeBudgetSkipped Code = "budget.skipped"

	// file: what a file is, before any decoder
	CodeFileNotNEFF Code = "file.not-neff"
	CodeFileUnknown Code = "file.unknown"
	CodeFileTooBig  Code = "file.too-big"

	// json: JSON text
	CodeJSONSyntax       Code = "json.syntax"
	CodeJSONDeepNesting  Code = "json.deep-nesting"
	CodeJSONDuplicateKey Code = "json.duplicate-key"

	// manifest: neff.json, kelf, def.json, engine JSON, info.json, .npy (core/manifest)
	CodeManifestMissingMember      Code = "manifest.missing-member"
	CodeManifestMissingDebugMember Code = "manifest.missing-debug-member"
	CodeManifestReadError          Code = "manifest.read-error"
	CodeManifestNoCore             Code = "manifest.no-core"
	CodeManifestUnread             Code = "manifest.unread"
	CodeManifestPartialRead        Code = "manifest.partial-read"
	CodeManifestLegacyKelp         Code = "manifest.legacy-kelp"
	CodeManifestCoresByName        Code = "manifest.cores-by-name"
	CodeManifestUnreferenced       Code = "manifest.unreferenced"
	CodeManifestWrongType          Code = "manifest.wrong-type"
	CodeManifestMissingField       Code = "manifest.missing-field"
	CodeManifestNoDeviceNode       Code = "manifest.no-device-node"
	CodeManifestBadTarget          Code = "manifest.bad-target"
	CodeManifestTargetMismatch     Code = "manifest.target-mismatch"
	CodeManifestInfoMismatch       Code = "manifest.info-mismatch"
	CodeManifestFeatureMismatch    Code = "manifest.feature-mismatch"
	CodeManifestDuplicateVar       Code = "manifest.duplicate-var"
	CodeManifestBadAlignment       Code = "manifest.bad-alignment"
	CodeManifestDuplicateID        Code = "manifest.duplicate-id"
	CodeManifestNoOutput           Code = "manifest.no-output"
	CodeManifestSparseVarIDs       Code = "manifest.sparse-var-ids"
	CodeManifestDanglingRef        Code = "manifest.dangling-ref"
	CodeManifestBadDMAQueue        Code = "manifest.bad-dma-queue"
	CodeManifestMissingEngine      Code = "manifest.missing-engine"
	CodeManifestInstrMismatch      Code = "manifest.instr-mismatch"
	CodeManifestNoStream           Code = "manifest.no-stream"
	CodeManifestStreamSize         Code = "manifest.stream-size"
	CodeManifestUnknownSet         Code = "manifest.unknown-set"
	CodeManifestBadGraph           Code = "manifest.bad-graph"
	CodeManifestTooManyDims        Code = "manifest.too-many-dims"
	CodeManifestUnknownDType       Code = "manifest.unknown-dtype"
	CodeManifestSignatureMismatch  Code = "manifest.signature-mismatch"
	CodeManifestUnboundTensor      Code = "manifest.unbound-tensor"
	CodeManifestSizeMismatch       Code = "manifest.size-mismatch"
	CodeManifestSharedOutputName   Code = "manifest.shared-output-name"
	CodeManifestNpyMagic           Code = "manifest.npy-magic"
	CodeManifestNpyTruncated       Code = "manifest.npy-truncated"
	CodeManifestNpyVersion         Code = "manifest.npy-version"
	CodeManifestNpyHeader          Code = "manifest.npy-header"
	CodeManifestNpySize            Code = "manifest.npy-size"
	CodeManifestNpyDType           Code = "manifest.npy-dtype"
	CodeManifestTooManyCores       Code = "manifest.too-many-cores"

	// isa: engine instruction streams (core/isa)
	CodeISAStreamSize      Code = "isa.stream-size"
	CodeISAShortWord       Code = "isa.short-word"
	CodeISAWordLength      Code = "isa.word-length"
	CodeISAUnknownOpcode   Code = "isa.unknown-opcode"
	CodeISAUnknownMode     Code = "isa.unknown-mode"
	CodeISAZeroCount       Code = "isa.zero-count"
	CodeISAReservedNonzero Code = "isa.reserved-nonzero"
	CodeISANotHeld         Code = "isa.not-held"
	CodeISAJoin            Code = "isa.join"
	CodeDVETableSize       Code = "dve.table-size"

	// dbg and source: .dbg debug info and the source-line joins (core/dbg, core/inspect)
	CodeDbgTooManyRecords    Code = "dbg.too-many-records"
	CodeDbgWireType          Code = "dbg.wire-type"
	CodeDbgCorrupt           Code = "dbg.corrupt"
	CodeDbgBadUTF8           Code = "dbg.bad-utf8"
	CodeDbgBadIndex          Code = "dbg.bad-index"
	CodeSourceWordCount      Code = "source.word-count"
	CodeSourceMissingBackend Code = "source.missing-backend"
	CodeSourceNoDebugInfo    Code = "source.no-debug-info"

	// pwp: activation tables (core/pwp)
	CodePwpBadRoster         Code = "pwp.bad-roster"
	CodePwpRosterUnusual     Code = "pwp.roster-unusual"
	CodePwpDuplicateSet      Code = "pwp.duplicate-set"
	CodePwpBadProfile        Code = "pwp.bad-profile"
	CodePwpProfileUnusual    Code = "pwp.profile-unusual"
	CodePwpBadBlob           Code = "pwp.bad-blob"
	CodePwpBlobUnusual       Code = "pwp.blob-unusual"
	CodePwpAmbiguous         Code = "pwp.ambiguous"
	CodePwpMissingFile       Code = "pwp.missing-file"
	CodePwpOrphanBlob        Code = "pwp.orphan-blob"
	CodePwpNoActivationFiles Code = "pwp.no-activation-files"
	CodePwpSetDiffers        Code = "pwp.set-differs"
	CodePwpNameDisagrees     Code = "pwp.name-disagrees"
	CodePwpBucketCount       Code = "pwp.bucket-count"
	CodePwpFunctionName      Code = "pwp.function-name"
	CodePwpFlagValue         Code = "pwp.flag-value"
	CodePwpMultipass         Code = "pwp.multipass"
	CodePwpFuncID            Code = "pwp.func-id"
	CodePwpBadLayout         Code = "pwp.bad-layout"
	CodePwpCtrlWord          Code = "pwp.ctrl-word"
	CodePwpMidpoint          Code = "pwp.midpoint"
	CodePwpThreshold         Code = "pwp.threshold"
	CodePwpCatalog           Code = "pwp.catalog"
	CodePwpEvalError         Code = "pwp.eval-error"

	// ncfw: libncfw contexts and dumps (core/ncfw)
	CodeNcfwUnreadable   Code = "ncfw.unreadable"
	CodeNcfwPrefix       Code = "ncfw.prefix"
	CodeNcfwNulTail      Code = "ncfw.nul-tail"
	CodeNcfwTooLong      Code = "ncfw.too-long"
	CodeNcfwTruncated    Code = "ncfw.truncated"
	CodeNcfwConflict     Code = "ncfw.conflict"
	CodeNcfwArch         Code = "ncfw.arch"
	CodeNcfwDeviation    Code = "ncfw.deviation"
	CodeNcfwShortContext Code = "ncfw.short-context"
	CodeNcfwBufferFull   Code = "ncfw.buffer-full"
	CodeNcfwReadPastEnd  Code = "ncfw.read-past-end"

	// inspect: questions across a file or files (diff, compare, profile, memory, scan)
	CodeDiffNotNEFF         Code = "diff.not-neff"
	CodeDiffMemberTruncated Code = "diff.member-truncated"
	CodeDiffByHash          Code = "diff.by-hash"
	CodeDiffNoModel         Code = "diff.no-model"
	CodeDiffListCut         Code = "diff.list-cut"
	CodeDiffFileErrors      Code = "diff.file-errors"
	CodeCompareTooFew       Code = "compare.too-few"
	CodeCompareNotNEFF      Code = "compare.not-neff"
	CodeProfileNoProgram    Code = "profile.no-program"
	CodeProfileBadStats     Code = "profile.bad-stats"
	CodeMemoryOverflow      Code = "memory.overflow"
	CodeScanNotNEFF         Code = "scan.not-neff"
	CodeScanUnreadable      Code = "scan.unreadable"
	CodeScanCacheMismatch   Code = "scan.cache-mismatch"
	CodeScanNotRegular      Code = "scan.not-regular"
	CodeScanSymlinkLoop     Code = "scan.symlink-loop"
	CodeScanBadSymlink      Code = "scan.bad-symlink"
	CodeScanNoModel         Code = "scan.no-model"

	// budgets of the .dbg decoder, the table-load index and the ncfw reader
	CodeDbgPackedCut   Code = "dbg.packed-cut"
	CodeDbgNamesLimit  Code = "dbg.names-limit"
	CodeDbgAttrsLimit  Code = "dbg.attrs-limit"
	CodeDbgRecordAttrs Code = "dbg.record-attrs-limit"
	CodeISALoadsLimit  Code = "isa.table-loads-limit"
	CodeNcfwReadLimit  Code = "ncfw.read-limit"

	// text: names the file holds, as printed
	CodeInvalidUTF8 Code = "text.invalid-utf8"

	// coverage's word limits
	CodeCoverageWordLimit Code = "coverage.word-limit"

	// ntff: device profiles (core/ntff) and their join to a NEFF (core/timeline)
	CodeNTFFVersion        Code = "ntff.version"
	CodeNTFFTruncated      Code = "ntff.truncated"
	CodeNTFFHeaderLimit    Code = "ntff.header-limit"
	CodeNTFFHeaderCorrupt  Code = "ntff.header-corrupt"
	CodeNTFFWireType       Code = "ntff.wire-type"
	CodeNTFFBadText        Code = "ntff.bad-text"
	CodeNTFFSectionBounds  Code = "ntff.section-bounds"
	CodeNTFFSectionSize    Code = "ntff.section-size"
	CodeNTFFSectionOverlap Code = "ntff.section-overlap"
	CodeNTFFTiling         Code = "ntff.tiling"
	CodeNTFFUnknownSection Code = "ntff.unknown-section"
	CodeNTFFEditList       Code = "ntff.edit-list"
	CodeNTFFNoCore         Code = "ntff.no-core"
	CodeNTFFPCOutside      Code = "ntff.pc-outside"
	CodeNTFFTimeBackwards  Code = "ntff.time-backwards"
	CodeNTFFUnpaired       Code = "ntff.unpaired"
	CodeNTFFRepeated       Code = "ntff.repeated"
	CodeNTFFDMAUnpaired    Code = "ntff.dma-unpaired"
	CodeNTFFLimit          Code = "ntff.limit"
	CodeNTFFReadError      Code = "ntff.read-error"
	CodeNTFFNotProfile     Code = "ntff.not-profile"
	CodeNTFFUUIDMismatch   Code = "ntff.uuid-mismatch"
	CodeNTFFCoreMismatch   Code = "ntff.core-mismatch"
	CodeNTFFImageMismatch  Code = "ntff.image-mismatch"
	CodeNTFFWindow         Code = "ntff.window"
	CodeNTFFQuanta         Code = "ntff.quanta"
	CodeNTFFWaitViolated   Code = "ntff.wait-violated"
	CodeNTFFWaitMetInside  Code = "ntff.wait-met-inside"
	CodeNTFFSemaphoreTotal Code = "ntff.semaphore-total"
	CodeNTFFDMAWait        Code = "ntff.dma-wait"
	CodeNTFFDMABytes       Code = "ntff.dma-bytes"
	// hlo: XLA HloModuleProto files and their comparison (core/hlo, core/fleet)
	CodeHLOEmpty           Code = "hlo.empty"
	CodeHLOGzip            Code = "hlo.gzip"
	CodeHLOTooBig          Code = "hlo.size-limit"
	CodeHLOCorrupt         Code = "hlo.corrupt"
	CodeHLOWireType        Code = "hlo.wire-type"
	CodeHLODeepNesting     Code = "hlo.nesting-limit"
	CodeHLOUnknownField    Code = "hlo.unknown-field"
	CodeHLOBadUTF8         Code = "hlo.bad-utf8"
	CodeHLOBackendBig      Code = "hlo.backend-config-limit"
	CodeHLOBackendJSON     Code = "hlo.backend-config-json"
	CodeHLOPartial         Code = "hlo.model-limit"
	CodeHLONodeLimit       Code = "hlo.tree-limit"
	CodeHLODanglingOperand Code = "hlo.dangling-operand"
	CodeHLODuplicateID     Code = "hlo.duplicate-id"
	CodeHLONoEntry         Code = "hlo.no-entry"
	CodeHLOSame            Code = "hlo.same"
	CodeHLOVolatileOnly    Code = "hlo.volatile-only"
	CodeHLOMetadataOnly    Code = "hlo.metadata-only"
	CodeHLOKernelChanged   Code = "hlo.kernel-changed"
	CodeHLOGraphChanged    Code = "hlo.graph-changed"
	CodeHLONotHLO          Code = "hlo.not-hlo"
	CodeHLONEFFSame        Code = "hlo.neff-same-program"
	CodeHLONEFFChanged     Code = "hlo.neff-changed"
	CodeHLONEFFMissing     Code = "hlo.neff-missing"
	CodeHLOTemporaryPath   Code = "hlo.temporary-path"

	// output and input: the host's files every command writes or reads whole (cmd/neffscope)
	CodeOutputExists     Code = "output.exists"
	CodeOutputSymlink    Code = "output.symlink"
	CodeOutputNotRegular Code = "output.not-regular"
	CodeOutputIsInput    Code = "output.is-input"
	CodeOutputIsNEFF     Code = "output.is-neff"
	CodeInputNotRegular  Code = "input.not-regular"
	CodeExportRowsCut    Code = "export.rows-cut"

	// page: what the browser page finds outside any file (its URL, its library, its links)
	CodePageURLMalformed        Code = "page.url-malformed"         // ?url= cannot be decoded
	CodePageLibraryBytesRefused Code = "page.library-bytes-refused" // the quota refused a file's bytes
	CodePageLibraryNotKept      Code = "page.library-not-kept"      // the quota refused even its Document
	CodePageLinkFileMissing     Code = "page.link-file-missing"     // a link's file is not open here
	CodePageLinkOtherFile       Code = "page.link-other-file"       // a file like the link's, not it
)

// Codes is every finding code, with its meaning: what it is and, where useful, what to do.
// `neffscope codes` prints it; a test checks that every code a document carries is here.
var Codes = []CodeInfo{
	// neff: the container (header, payload, integrity)
	{CodeNeffUnreadable, "the file could not be read (an I/O error): nothing past the error is shown"},
	{CodeNeffEmpty, "the file is empty: a NEFF starts with a 1024-byte header; copy it again"},
	{CodeNeffHeaderShort, "the file is shorter than the 1024-byte header: cut short, or not a NEFF"},
	{CodeNeffPkgVersion, "pkg_version is neither 1 (tar + SHA-256) nor 2 (gzip'd tar + MD5): not a NEFF, or a damaged header"},
	{CodeNeffHeaderSize, "header_size is not 1024; the runtime reads the payload at byte 1024 regardless"},
	{CodeNeffTruncated, "the file ends before the payload does (data_size, or the gzip stream): copy it again; members before the cut are listed"},
	{CodeNeffTrailingBytes, "bytes after the payload that neither data_size nor the hash covers: appended data"},
	{CodeNeffVersion, "neff_version_major is outside 0..2: the NEFF needs a newer runtime, or its header is damaged"},
	{CodeNeffFeatureUnknown, "a header feature bit with no known name: a runtime that does not support it refuses the NEFF"},
	{CodeNeffFeatureUnsupported, "feature bits beyond what libnrt 2.31 supports: that runtime refuses the NEFF"},
	{CodeNeffFeatureIgnored, "feature_bits are set but neff_version_major is not 2, so the runtime does not check them"},
	{CodeNeffUUIDZero, "the header's UUID is all zero; runtimes key caches by it and the profiler pairs traces by it"},
	{CodeNeffReservedNonzero, "a reserved header byte is not zero: a newer producer, or a damaged header"},
	{CodeNeffHashTail, "the hash field's unused bytes 16..31 hold neither zeros nor ASCII '0'"},
	{CodeNeffGzipHeader, "the payload starts with the gzip magic but its gzip header is unreadable: the file is damaged"},
	{CodeNeffPlainTar, "the payload is an uncompressed tar although pkg_version is 2; it is read as tar"},
	{CodeNeffPayloadUnknown, "the payload is neither gzip nor tar: not a NEFF payload, or damaged"},
	{CodeNeffCancelled, "reading was cancelled before the end; the integrity check was not done"},
	{CodeNeffInflateLimit, "the payload inflates past the configured limit (a gzip bomb, or a NEFF larger than the limit): members after it are not listed"},
	{CodeNeffGzipCorrupt, "the gzip stream is corrupt; members before that point are listed; copy the file again"},
	{CodeNeffPaddingNonzero, "bytes after the compressed stream are not zero: data appended or the file damaged"},
	{CodeNeffHashUnchecked, "the payload hash was not checked (no algorithm for the pkg_version, or the payload is truncated)"},
	{CodeNeffHashOldOrder, "the MD5 matches only in the old producer's word order"},
	{CodeNeffHashMismatch, "the payload does not hash to the header's hash: the file was modified or damaged after compilation"},
	{CodeNeffRuntimeRefuses, "the Neuron runtime would refuse to load the file: the status it returns and why"},

	// tar: the archive inside the payload
	{CodeTarNoEnd, "the archive ends without its end-of-archive blocks: probably cut after the last member"},
	{CodeTarTruncated, "the archive ends inside a header, a member's data or its padding: the payload was cut short"},
	{CodeTarLoneZeroBlock, "a single zero block is followed by more headers: GNU tar stops there, libarchive reads on"},
	{CodeTarBadPax, "a pax extended header is malformed or has an unreadable size record"},
	{CodeTarNotFile, "a tar entry is not a regular file (a directory, link, …); NEFF loaders ignore it"},
	{CodeTarOddType, "a tar entry has an unusual type flag; it is read as a regular file"},
	{CodeTarTooManyMembers, "the archive holds more members than neffscope lists; listing stops to bound memory"},
	{CodeTarBadHeader, "a block that should be a tar header is not one (no magic, bad checksum, unreadable size): the archive is corrupt from there"},
	{CodeTarDuplicateMember, "a member path appears twice; libnrt keeps the later copy"},
	{CodeTarBadSize, "a member's tar size disagrees with the bytes the archive holds, or claims more than any member may: corrupt or hostile"},
	{CodeTarPathDepth, "a member's path nests deeper than the member tree builds folders (neff.MaxPathDepth); it is listed under members by its full name"},

	// budget: a limit of the open (core/budget) refused something
	{CodeBudgetInflate, "the decompressed bytes passed the inflate limit; raise it with --max-inflate if the file is trusted"},
	{CodeBudgetMemory, "what the open holds passed the memory limit; raise it with --max-memory if the file is trusted"},
	{CodeBudgetValues, "the JSON values indexed passed the values limit; raise it with --max-values if the file is trusted"},
	{CodeBudgetMembers, "the archive members listed passed the members limit; raise it with --max-members if the file is trusted"},
	{CodeBudgetRows, "the instruction rows asked for passed the rows limit; raise it with --max-rows if the file is trusted"},
	{CodeBudgetSkipped, "a part was not read, decoded or checked because a limit was reached before it; the file's budget finding says which and how to raise it"},

	// file: what a file is, before any decoder
	{CodeFileNotNEFF, "the file is another known format (zip, ELF, …), not a NEFF; it is shown as hex"},
	{CodeFileUnknown, "the file is neither a NEFF nor JSON; it is shown as hex"},
	{CodeFileTooBig, "the file or member is larger than neffscope decodes as a tree; its bytes are in the hex view"},

	// json: JSON text
	{CodeJSONSyntax, "the JSON is not valid at a byte; what comes before is shown, and a runtime would refuse it"},
	{CodeJSONDeepNesting, "arrays or objects nested deeper than neffscope shows; they are shown flat, as one row with their bytes"},
	{CodeJSONDuplicateKey, "an object key repeats; JSON readers keep the last value"},

	// manifest: neff.json, kelf, def.json, engine JSON, info.json, .npy (core/manifest)
	{CodeManifestMissingMember, "a manifest names a member the NEFF does not have: the runtime cannot load it"},
	{CodeManifestMissingDebugMember, "a manifest names a debug or sidecar member the NEFF does not have; only debug information is lost"},
	{CodeManifestReadError, "a manifest member could not be read out of the archive (an I/O error, or the file changed since the open): open it again"},
	{CodeManifestNoCore, "no core could be found: no KELF descriptor lists one and no sgNN/def.json member exists"},
	{CodeManifestUnread, "a manifest member was not handed to the manifest reader (not held by the open), so it is not resolved"},
	{CodeManifestPartialRead, "only the first bytes of a member were read; what is shown comes from them"},
	{CodeManifestLegacyKelp, "the NEFF has no neff.json; the legacy kelp.json is read instead, as the runtime does"},
	{CodeManifestCoresByName, "no KELF descriptor lists the cores; the sgNN/def.json members are found by name"},
	{CodeManifestUnreferenced, "a member no manifest refers to and no tool looks for by name: the runtime never reads it"},
	{CodeManifestWrongType, "a manifest value has the wrong JSON type (an array where an object belongs, …)"},
	{CodeManifestMissingField, "a manifest lacks a field the runtime requires"},
	{CodeManifestNoDeviceNode, "neff.json has no device node (attrs.func_name \"__kelf\"): the runtime refuses it"},
	{CodeManifestBadTarget, "a KELF target the runtime does not know: it refuses the NEFF"},
	{CodeManifestTargetMismatch, "two KELF descriptors name different targets; the first is used"},
	{CodeManifestInfoMismatch, "info.json disagrees with the header, or lacks what the header has: the header was edited or the members come from another compile"},
	{CodeManifestFeatureMismatch, "a def.json's neff_features and the header's feature_bits disagree; the runtime follows the header"},
	{CodeManifestDuplicateVar, "a def.json variable is defined twice; the runtime keeps the last"},
	{CodeManifestBadAlignment, "a variable's alignment is not a power of 2: the runtime refuses it"},
	{CodeManifestDuplicateID, "an id (var_id, DMA block id) is used twice"},
	{CodeManifestNoOutput, "a def.json defines no output variable; the runtime requires one"},
	{CodeManifestSparseVarIDs, "a def.json's var_ids are not dense 0..n-1: the runtime refuses the NEFF"},
	{CodeManifestDanglingRef, "a reference (var_id, queue, variable, node id) names nothing that exists"},
	{CodeManifestBadDMAQueue, "a DMA queue has a bad ring count or owner, or a block runs on a queue of another engine"},
	{CodeManifestMissingEngine, "a def.json names no JSON for an engine: the runtime leaves the slot empty"},
	{CodeManifestInstrMismatch, "def.json and the engine JSON name different instruction streams; the runtime uses the engine JSON's"},
	{CodeManifestNoStream, "an engine has no instruction stream"},
	{CodeManifestStreamSize, "an instruction stream is not a whole number of 64-byte words"},
	{CodeManifestUnknownSet, "an activation set named by an engine JSON is not in the roster"},
	{CodeManifestBadGraph, "neff.json's graph (node_row_ptr, shapes, heads, attrs) is malformed: the runtime refuses it"},
	{CodeManifestTooManyDims, "a tensor has more dimensions than the runtime allows"},
	{CodeManifestUnknownDType, "a tensor dtype the runtime does not know; its byte size is not computed"},
	{CodeManifestSignatureMismatch, "the framework's signature and the graph disagree about an input or output"},
	{CodeManifestUnboundTensor, "a graph input or output has no def.json variable of that name: the runtime cannot bind it"},
	{CodeManifestSizeMismatch, "a tensor's or sidecar's byte size disagrees with its def.json variable"},
	{CodeManifestSharedOutputName, "several graph outputs share one name"},
	{CodeManifestNpyMagic, "a .npy member does not start with the NumPy magic: the runtime refuses it"},
	{CodeManifestNpyTruncated, "a .npy member is cut short inside its header"},
	{CodeManifestNpyVersion, "a .npy format version the runtime does not read"},
	{CodeManifestNpyHeader, "a .npy header lacks a readable descr or shape"},
	{CodeManifestNpySize, "a .npy member holds another number of data bytes than its shape needs"},
	{CodeManifestNpyDType, "a .npy dtype neffscope does not preview"},
	{CodeManifestTooManyCores, "the manifests name more cores than the open's budget lets the model hold; the cores past the limit are not resolved"},

	// isa: engine instruction streams (core/isa)
	{CodeISAStreamSize, "the stream is not a whole number of 64-byte words: the last bytes are not an instruction"},
	{CodeISAShortWord, "a word has fewer than 64 bytes; the missing bytes read as zero"},
	{CodeISAWordLength, "a word's length byte is not 0x10: the stream may be misaligned or corrupt"},
	{CodeISAUnknownOpcode, "an opcode in no opcode table; the word is shown as raw bytes"},
	{CodeISAUnknownMode, "a wait or update mode byte not in the mode table; shown raw"},
	{CodeISAZeroCount, "a descriptor count of 0, which is illegal: the slot may not hold a descriptor"},
	{CodeISAReservedNonzero, "bytes the spec documents are not zero; a newer compiler may use them"},
	{CodeISANotHeld, "a stream is not held in memory: it is not disassembled in the open, or its listing is read back on demand"},
	{CodeISAJoin, "an instruction does not join with the manifests (a DMA block, queue, variable or activation function it names is not found)"},
	{CodeDVETableSize, "a DVE table member is not whole rows; shown as hex"},

	// dbg and source: .dbg debug info and the source-line joins (core/dbg, core/inspect)
	{CodeDbgTooManyRecords, "a .dbg member holds more records (or frame indexes) than are kept for the source joins"},
	{CodeDbgWireType, "a .dbg field has another protobuf wire type than the schema table says; shown generically"},
	{CodeDbgCorrupt, "a .dbg member cannot be read from a byte on (truncated or corrupt); re-extract it or recompile"},
	{CodeDbgBadUTF8, "a .dbg string is not valid UTF-8; shown with replacement characters"},
	{CodeDbgBadIndex, "a .dbg record's index names no entry of its list; shown raw"},
	{CodeSourceWordCount, "an asm .dbg member and its instruction stream have different counts: they do not belong together"},
	{CodeSourceMissingBackend, "words name a backend id no debug_info_backend_*.dbg holds; they have no source"},
	{CodeSourceNoDebugInfo, "the NEFF carries no .dbg debug info: instructions cannot be traced to source lines"},

	// pwp: activation tables (core/pwp)
	{CodePwpBadRoster, "act_info.json is not a usable roster (not an object, entries missing or of the wrong type)"},
	{CodePwpRosterUnusual, "the roster differs from every real one (key counts, names, unknown functions); it is read as given"},
	{CodePwpDuplicateSet, "a set name appears twice in the roster; lookups use the first"},
	{CodePwpBadProfile, "a set profile (<set>.json) lacks a key or holds a value of the wrong type or range"},
	{CodePwpProfileUnusual, "a set profile differs from every real one (keys, spellings, number forms); it is read as given"},
	{CodePwpBadBlob, "a bucket or ctrl blob's size disagrees with its record size or the profile's count"},
	{CodePwpBlobUnusual, "a blob's padding, reserved bits or stride differ from every real one"},
	{CodePwpAmbiguous, "loose activation files could be read more than one way; the first is used"},
	{CodePwpMissingFile, "a profile or blob a set needs is missing: its functions cannot all be evaluated"},
	{CodePwpOrphanBlob, "a file looks like an activation blob but no profile names it"},
	{CodePwpNoActivationFiles, "none of the files is an activation roster or set profile"},
	{CodePwpSetDiffers, "the same set differs between two places that real NEFFs keep byte-identical"},
	{CodePwpNameDisagrees, "the roster and the profile name different blobs or functions; the profile is followed"},
	{CodePwpBucketCount, "a set has more buckets than a ctrl word and the hardware table address"},
	{CodePwpFunctionName, "a function's name or budget suffix disagrees with the roster"},
	{CodePwpFlagValue, "a flag field is neither 0 nor 1"},
	{CodePwpMultipass, "the function uses multipass, whose algorithm is undocumented: evaluation is an approximation"},
	{CodePwpFuncID, "a function's func_id differs from the trainium code table"},
	{CodePwpBadLayout, "a function's bucket or ctrl block, saturation slots or exponent map is inconsistent: some inputs evaluate wrongly or give an error"},
	{CodePwpCtrlWord, "a ctrl word's fields are unusual or out of range"},
	{CodePwpMidpoint, "a section's x is not its midpoint"},
	{CodePwpThreshold, "a small or large threshold differs from what the populated octaves suggest"},
	{CodePwpCatalog, "how a set compares with the known catalog sets"},
	{CodePwpEvalError, "a value could not be evaluated (a table error; see the function's findings)"},

	// ncfw: libncfw contexts and dumps (core/ncfw)
	{CodeNcfwUnreadable, "the context or dump cannot be read past a point; what came before is shown"},
	{CodeNcfwPrefix, "bytes before the dump (a log prefix?) are not part of it"},
	{CodeNcfwNulTail, "the text ends at the first NUL; the rest is libncfw's zeroed buffer"},
	{CodeNcfwTooLong, "the text is longer than libncfw writes; only the first part is read"},
	{CodeNcfwTruncated, "the dump stops before its root object closes"},
	{CodeNcfwConflict, "two printed values disagree about the same context bytes; the later is kept"},
	{CodeNcfwArch, "which arch the dump was read as, and how sure that is"},
	{CodeNcfwDeviation, "the dump differs from what libncfw 2.31 prints for these values (hand-edited, another version, or an unknown of the spec)"},
	{CodeNcfwShortContext, "the context is shorter than the serializer reads; the rest reads as zero"},
	{CodeNcfwBufferFull, "the text does not fit libncfw's 1 MiB buffer: it is cut and the rest is not printed"},
	{CodeNcfwReadPastEnd, "reads went beyond the context; those bytes print as zero"},

	// inspect: questions across a file or files (diff, compare, profile, memory, scan)
	{CodeDiffNotNEFF, "a file given to diff is not a NEFF, so it cannot be compared member by member"},
	{CodeDiffMemberTruncated, "a member is cut short in one of the files; it is counted as changed"},
	{CodeDiffByHash, "a JSON member is compared by SHA-256 only (it does not parse, or could not be read)"},
	{CodeDiffNoModel, "only one of the files has a resolvable program, so the models are not compared"},
	{CodeDiffListCut, "a list of differences is longer than is listed"},
	{CodeDiffFileErrors, "the files compared have errors of their own (listed by info)"},
	{CodeCompareTooFew, "compare needs two or more files"},
	{CodeCompareNotNEFF, "a file compared is not a NEFF; only its size is compared"},
	{CodeProfileNoProgram, "the file has no resolvable program, so there is nothing to profile"},
	{CodeProfileBadStats, "hlo_stats.json does not parse as a JSON object"},
	{CodeMemoryOverflow, "a sum of declared sizes passes 2⁶³ B: the sizes are beyond any device"},
	{CodeScanNotNEFF, "a scanned file is not a NEFF"},
	{CodeScanUnreadable, "a scanned path could not be opened or read"},
	{CodeScanCacheMismatch, "a cache entry's directory and its NEFF's info.json disagree: the cache may hand it out for the wrong graph"},
	{CodeScanNotRegular, "a scanned path is not a regular file (a FIFO, a device, …); it is not read"},
	{CodeScanSymlinkLoop, "a symlink leads back to a directory above it; it is not followed"},
	{CodeScanBadSymlink, "a symlink cannot be followed (it dangles, or its target cannot be read)"},
	{CodeScanNoModel, "a cache entry has no model.neff"},

	// zip (core/zipneff) and the host's files (cmd/neffscope: extract-neff, scan, output caps)
	{"zip.directory", "the zip's central directory is past zipneff.Limits.MaxDirectory: the zip is not read"},
	{"zip.bomb", "a deflated zip entry declares more than MaxEntrySize bytes or inflates past MaxRatio: not inflated"},
	{"zip.overlap", "zip entries whose bytes overlap another entry's (one entry's data named many times): refused"},
	{"zip.damaged", "a zip entry that starts with a NEFF header could not be read to the end of its payload"},
	{"scan.seen", "scan reached a file or directory it had already visited through another symlink: not read again"},
	{"scan.symlink", "scan met a symlink and --follow was not given: not followed"},
	{"output.cap", "the output reached --max-output bytes and stopped there (0 lifts the cap)"},

	// budgets of the .dbg decoder, the table-load index and the ncfw reader
	{CodeDbgPackedCut, "a .dbg packed varint list ends in a cut-off varint (the first few are listed, then one finding counts the rest)"},
	{CodeDbgNamesLimit, "a .dbg member lists more kernel files, kernel names or stack-frame names than are kept: the rest are counted, and indexes into them do not resolve"},
	{CodeDbgAttrsLimit, "a .dbg member's records carry more distinct kernel attribute sets than are kept: the records past the limit have no source line"},
	{CodeDbgRecordAttrs, "a .dbg record carries more attributes than are kept per record: the rest are counted, not kept"},
	{CodeISALoadsLimit, "a stream has more ActivationTableLoad words than are indexed one by one: past the limit only changes of set are kept, and past the budget none (the words after it have no resident set)"},
	{CodeNcfwReadLimit, "an ncfw dump holds more entries than are read: the rest are counted, not decoded"},

	// text: names the file holds, as printed
	{CodeInvalidUTF8, "a name the file holds (a member path, the header's name) is not valid UTF-8: JSON shows each bad byte as U+FFFD, text as \\xNN, so a path printed may not be the member's bytes"},

	// coverage's word limits
	{CodeCoverageWordLimit, "coverage reached one of its limits (instruction words expanded, distinct words, bytes read back: inspect.CoverageWordLimit, CoverageBuiltLimit, CoverageReadLimit): the rest is counted unmeasured, and the percentages are of the bytes measured"},

	// ntff: device profiles (core/ntff) and their join to a NEFF (core/timeline)
	{CodeNTFFVersion, "the NTFF's version byte is not 6, the only version decoded: the profile is shown as bytes; capture it with runtime 2.30 or send a sample"},
	{CodeNTFFTruncated, "the NTFF ends before its header does: cut short or damaged; capture the profile again"},
	{CodeNTFFHeaderLimit, "the NTFF header is larger than neffscope holds, or its tree larger than it shows: the rest is in the hex view"},
	{CodeNTFFHeaderCorrupt, "the NTFF header's protobuf cannot be read from a byte on: what came before is shown"},
	{CodeNTFFWireType, "a header field has another protobuf wire type than the table of shapes says: shown raw"},
	{CodeNTFFBadText, "a header string is not valid UTF-8: shown with replacement characters"},
	{CodeNTFFSectionBounds, "an image or notification queue the header lists lies outside the file: it is not read (truncated or damaged file)"},
	{CodeNTFFSectionSize, "an image is not whole 64-byte words, or a queue not whole 16-byte records: the last bytes are not read"},
	{CodeNTFFSectionOverlap, "two images or queues claim the same bytes of the data blob: at most one is right (damaged or hostile file)"},
	{CodeNTFFTiling, "bytes of the data blob that no image or queue claims (every capture checked is tiled exactly)"},
	{CodeNTFFUnknownSection, "a notification queue of a kind whose records are not decoded (EVENT, ERROR, THROTTLE) holds records: shown raw"},
	{CodeNTFFEditList, "an image's edit list does not describe it (preamble, postamble, inserted and removed words): its words are not mapped to NEFF instructions"},
	{CodeNTFFNoCore, "records name a NeuronCore or engine the header lists no core or image for: they are counted, not timed"},
	{CodeNTFFPCOutside, "TRACE records whose PC points outside their engine's image: counted, not timed"},
	{CodeNTFFTimeBackwards, "an end record earlier than its start, or a DMA packet ending before it starts: the interval is dropped"},
	{CodeNTFFUnpaired, "TRACE start records without an end, or ends without a start, beyond the runtime preamble the spec expects"},
	{CodeNTFFRepeated, "image words traced more than once (one execution is expected): instructions span all their runs, busy time unions them"},
	{CodeNTFFDMAUnpaired, "TRACE_DMA start, info and end records that do not form whole packets per (DMA engine, queue)"},
	{CodeNTFFLimit, "the profile needs more memory to measure than the budget leaves: what is past the limit is counted, not timed"},
	{CodeNTFFReadError, "the profile's records could not be read (an I/O error, or the file changed since the open)"},
	{CodeNTFFNotProfile, "a file given as the device profile is not an NTFF"},
	{CodeNTFFUUIDMismatch, "the profile names another NEFF (its UUID differs): nothing is joined; open the profile with the NEFF it was captured from"},
	{CodeNTFFCoreMismatch, "the profile's cores or engine images and the NEFF's streams do not correspond: the unmatched ones are not joined"},
	{CodeNTFFImageMismatch, "a loaded image differs from the NEFF stream beyond the runtime's lowering rules (spec ntff.md §4.2): the engine is not joined from that word on"},
	{CodeNTFFWindow, "the execution window disagrees with a core's execution time, or program records lie outside it"},
	{CodeNTFFQuanta, "instruction durations that are not whole cycles of the engine's clock (±3 ps): the clock or the records are not what the spec measured"},
	{CodeNTFFWaitViolated, "the device shows a waiter finishing before the producer the static sync model names: the model (or the profile) is wrong about that wait"},
	{CodeNTFFWaitMetInside, "a waiter's start record precedes its producer's end (the wait resolved inside the waiter's interval, as the spec saw for a second wait band)"},
	{CodeNTFFSemaphoreTotal, "a semaphore's peak recorded value differs from the static total of its updates (DMA-produced ones may read short: records are lossy)"},
	{CodeNTFFDMAWait, "a DMA-produced wait the profile contradicts: the semaphore read below the wait's value after the waiter started"},
	{CodeNTFFDMABytes, "a DMA queue moved other bytes than the program asks (+64 B of semaphore writes per DMA): the join of queues or the byte rules are wrong"},
	// hlo: XLA HloModuleProto files and their comparison (core/hlo, core/fleet)
	{CodeHLOEmpty, "the HLO module file is empty: nothing to read"},
	{CodeHLOGzip, "the HLO module is a gzip stream that could not be inflated to its end; what was inflated is read"},
	{CodeHLOTooBig, "the HLO module is bigger than the open's memory budget allows holding: only its first bytes are read, and the rest of the graph is unknown"},
	{CodeHLOCorrupt, "the protobuf wire format cannot be read from a byte on (truncated or corrupt): the fields before it are shown, the rest of that message as bytes"},
	{CodeHLOWireType, "a field has another wire type than XLA's hlo.proto gives it; it is shown generically"},
	{CodeHLODeepNesting, "messages nest deeper than the decoder follows (a tuple of tuples of …); the deeper bytes are shown as bytes"},
	{CodeHLOUnknownField, "a field number XLA's hlo.proto (at the kept commit) does not name: a newer XLA's field, shown generically and compared by its bytes"},
	{CodeHLOBadUTF8, "a string field is not valid UTF-8; shown with replacement characters"},
	{CodeHLOBackendBig, "a backend_config is too big to decode: it is compared by its digest only"},
	{CodeHLOBackendJSON, "a backend_config that looks like JSON (or base64 JSON) does not parse, or holds more values than are compared one by one"},
	{CodeHLOPartial, "the typed model (computations, instructions) stopped at a limit of the open's budget: the diff and the graph digest cover only what was read"},
	{CodeHLONodeLimit, "the field tree shows the first fields only; the rest are decoded into the model but not shown one by one"},
	{CodeHLODanglingOperand, "an instruction names an operand or computation id that no instruction or computation of the module has"},
	{CodeHLODuplicateID, "two instructions of a computation (or two computations) share an id: wiring through that id is ambiguous"},
	{CodeHLONoEntry, "the module names no entry computation that it holds"},
	{CodeHLOSame, "verdict: the two HLO modules are the same graph, field for field (ids and names matched by structure)"},
	{CodeHLOVolatileOnly, "verdict: the graphs are the same but for volatile values (temporary paths, random suffixes, unique ids, timestamps): the cache key changes while the graph does not"},
	{CodeHLOMetadataOnly, "verdict: the graphs are the same but for metadata (source lines, op names) and maybe volatile values"},
	{CodeHLOKernelChanged, "verdict: a custom call's kernel differs (target, kernel name, grid, version): the graph around it is the same"},
	{CodeHLOGraphChanged, "verdict: the graph differs (opcode, shape, dtype, layout, wiring, constant value, or instructions added or removed)"},
	{CodeHLONotHLO, "a file given to the HLO diff is not an HLO module (or a cache entry without one)"},
	{CodeHLONEFFSame, "both cache entries' NEFFs hold the same program (every engine stream byte-identical): the recompile was spurious"},
	{CodeHLONEFFChanged, "the cache entries' NEFFs hold different programs: the kernel (or the compiler) changed"},
	{CodeHLONEFFMissing, "a cache entry has no NEFF beside its HLO, so whether its kernel changed cannot be told"},
	{CodeHLOTemporaryPath, "a custom call names its kernel's compiled binary by a temporary path: the module's bytes, and so its compile-cache key, change on every trace"},

	// output and input: the host's files every command writes or reads whole
	{CodeOutputExists, "an output file (sync --trace, scan --parquet, export's tables, extract-neff -o) exists: not overwritten without --force"},
	{CodeOutputSymlink, "an output path is a symlink (dangling or not): never written through, --force or not; remove it or name another file"},
	{CodeOutputNotRegular, "an output path is a FIFO, a device or a directory: not written; name another file"},
	{CodeOutputIsInput, "an output path is a file the command reads: never written over, --force or not"},
	{CodeOutputIsNEFF, "an output path holds a NEFF: never written over, --force or not; remove it first if it is meant to go"},
	{CodeInputNotRegular, "an input path is a FIFO, a device or a directory: not read (it would block, or never end); save it to a file first"},
	{CodeExportRowsCut, "a limit stopped a core's sync or memory model (sync.limit, mem.limit): sync_edges, mem_accesses and lints lack the rows past that point, and export exits 1 (--max-memory raises the limit)"},

	// page: what the browser page finds outside any file
	{CodePageURLMalformed, "?url= names a file whose percent-encoding is malformed (a % not followed by two hex digits, or bytes that are not UTF-8): nothing is fetched; encode the URL again"},
	{CodePageLibraryBytesRefused, "the browser's storage quota refused a file's bytes: the library keeps its Document only (an entry kept before stays as it was); forget files under Recent to make room, then open it again"},
	{CodePageLibraryNotKept, "the browser's storage quota has no room even for a file's Document: the library does not remember it (what it kept before stays); forget files under Recent to make room"},
	{CodePageLinkFileMissing, "a link names a file that is not open here and not in this browser's library: open the file it names (name, UUID, start of the sha-256) to go to its place"},
	{CodePageLinkOtherFile, "a file opened while a link waits has the link's file name or UUID but other bytes (another build, or a copy changed since): the link's place is not shown in it"},
}

// Meaning returns the code's row, or false for a code not in the table.
func Meaning(c Code) (CodeInfo, bool) {
	for _, r := range Codes {
		if r.Code == c {
			return r, true
		}
	}
	return CodeInfo{}, false
}
