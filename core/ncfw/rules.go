package ncfw

// Rules is the one table of everything about the output text that a single real capture could
// correct: the fragment literals of spec §3 and the default chosen for each open point of §8.
// Each field names its source and, where it is an assumption, its Unknown ID (unknowns.go).
// The emitter and the reader take their text only from here and from schema.go, so a
// correction is a change of data. DefaultRules is what libncfw 2.31 is believed to print.
type Rules struct {
	// Framing (spec §1). RootOpen is the literal at band+0x00e (H); ModelLine the literal at
	// band+0x66e (H), %s replaced by the raw model name (ncfw.model-escaping); RootKey and
	// RootIndent are ncfw_log_ctx's arguments (H).
	RootOpen   string
	ModelLine  string
	RootKey    string
	RootIndent int
	// RootClose is the third snprintf of ncfw_ctx_log. Unknown-ID: ncfw.root-close (U-2).
	RootClose string

	// Fragments (spec §3). ObjOpen "\"%s\": {\n" (+0x005, H); BareObjOpen "{\n" (+0x00e, H);
	// ArrOpen / BareArrOpen (+0x0fd, M, ncfw.array-framing / ncfw.separator-literals);
	// ScalarKey is the quoted key literal printed through "%s: " (+0x019, I).
	ObjOpen     string
	BareObjOpen string
	ArrOpen     string
	BareArrOpen string
	ScalarKey   string
	// Sep ends a member followed by a sibling, LastSep the last member (model M1).
	// Unknown-ID: ncfw.comma-model (U-3).
	Sep     string
	LastSep string
	// CloseComma "},\n" (+0x026, H) and CloseLast "}\n" (M, ncfw.separator-literals) are the
	// fixed object closes; ArrCloseLast "]\n" and ArrCloseComma "],\n" the array closes (M,
	// ncfw.array-framing).
	CloseComma    string
	CloseLast     string
	ArrCloseLast  string
	ArrCloseComma string
	// AddrLineEnd ends "%s: \"0x%016lX\"\n" (+0x127, H), which never carries a comma. The
	// array items "\"0x%016lX\"%s" (+0x109, H) end with Sep or LastSep.
	AddrLineEnd string

	// StickyLatch keeps a clone's buffer-full latch set across calls of one Session.
	// Unknown-ID: ncfw.latch-lifetime (U-1). Default false: cleared per call.
	StickyLatch bool
	// MeshEventIDKey is the trailing scalar of each mesh event ("%d" of the index); "" drops it.
	// Unknown-ID: ncfw.mesh-event-tail (U-6).
	MeshEventIDKey string
	// TpbComplStride is the stride of op_ctx.tpb_compl[i] from +8. Unknown-ID: ncfw.tpb-compl (U-7).
	TpbComplStride int64
	// BBTableLookahead ends a basic-block table element with CloseLast when the next record's
	// desc_count is zero (else every element ends with CloseComma); BBTableClose is the fixed
	// array close. Unknown-ID: ncfw.bb-table-close (U-9).
	BBTableLookahead bool
	BBTableClose     string
	// HostBase is added to the ctx-relative offset printed for pring_base_addr and
	// pring_total_desc_num ("%p" of the field's own address). Unknown-ID: ncfw.pring-address (U-10).
	HostBase uint64
	// DevIDFormat is the format of seng_id, dev_id and leader ("%p" or "%u").
	// Unknown-ID: ncfw.dev-id-format (U-11).
	DevIDFormat string
	// CCOpBitFormat is the format of the cc_op bitfields ("%u", "%d" or "%x").
	// Unknown-ID: ncfw.cc-op-format (U-12).
	CCOpBitFormat string
	// ReprogramLastTrail is the trail flag of dma_reprogram_info's fourth ncfw_log_addr call
	// (the family is never reached). Unknown-ID: ncfw.reprogram-shape.
	ReprogramLastTrail bool
}

// DefaultRules are spec ncfw.md's reconstruction of libncfw 2.31.24.0. Emit, EmitMapped and
// Read use them as they stood at start-up; to try other values, copy them into a Session.
var DefaultRules = Rules{
	RootOpen:   "{\n",
	ModelLine:  "  \"model_name\": \"%s\",\n",
	RootKey:    "ncfw_ctx_top_sp",
	RootIndent: 2,
	RootClose:  "}\n",

	ObjOpen:     "\"%s\": {\n",
	BareObjOpen: "{\n",
	ArrOpen:     "\"%s\": [\n",
	BareArrOpen: "[\n",
	ScalarKey:   "\"%s\": ",
	Sep:         ",\n",
	LastSep:     "\n",

	CloseComma:    "},\n",
	CloseLast:     "}\n",
	ArrCloseLast:  "]\n",
	ArrCloseComma: "],\n",
	AddrLineEnd:   "\n",

	StickyLatch:        false,
	MeshEventIDKey:     "event_id",
	TpbComplStride:     8,
	BBTableLookahead:   true,
	BBTableClose:       "],\n",
	HostBase:           0,
	DevIDFormat:        "%p",
	CCOpBitFormat:      "%u",
	ReprogramLastTrail: false,
}
