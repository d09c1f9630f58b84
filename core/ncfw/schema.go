package ncfw

import (
	"sort"
	"strconv"
	"strings"
)

// The serializer as data. Each of the 38 libncfw families (spec §4, §5) is one *family below,
// defined once; the four arch clones differ only in the Arch parameters (param) and MeshN.
// Inline shapes the library prints without a function of its own (the two-level semaphore,
// array element bodies) are families too, with a descriptive name and no number.

// param names an Arch offset that a member's offset adds to its constant (spec §2).
type param uint8

const (
	pNone param = iota
	pNeffCtx
	pAlgoCtx
	pCfgNeff
	pCfgDev
	pCfgHier
)

func (p param) of(a *Arch) int64 {
	switch p {
	case pNeffCtx:
		return a.NeffCtx
	case pAlgoCtx:
		return a.AlgoCtx
	case pCfgNeff:
		return a.CfgNeff
	case pCfgDev:
		return a.CfgDev
	case pCfgHier:
		return a.CfgHier
	}
	return 0
}

// closeRule says how an object family picks its closing text.
type closeRule uint8

const (
	closeFixed      closeRule = iota // the function's own literal (spec §3 "closes are fixed")
	closeByPosition                  // inline shape: "}" + the position's separator
	closeByTrail                     // ncfw_log_addr: "}" + Sep when the trail flag is set
)

// countRule says how many elements an array family prints.
type countRule uint8

const (
	countFixed   countRule = iota // countN
	countMeshN                    // Arch.MeshN
	countU8Field                  // the u8 at countField from the array's base (fold_n)
	countZeroU16                  // until a zero u16 at the element start, at most maxCount
)

// format is a printf conversion the serializer uses (spec §3 "Value formats").
type format uint8

const (
	fmtU   format = iota // %u
	fmtD                 // %d
	fmtHU                // %hu
	fmtHHU               // %hhu
	fmtLU                // %lu
	fmtP                 // %p (glibc): (nil) or 0x + lowercase hex
	fmtX                 // %x
)

var formatNames = [...]string{"%u", "%d", "%hu", "%hhu", "%lu", "%p", "%x"}

func (f format) String() string { return formatNames[f] }

func parseFormat(s string) format {
	for i, n := range formatNames {
		if n == s {
			return format(i)
		}
	}
	return fmtU
}

// source says where a scalar's printed number comes from.
type source uint8

const (
	srcField   source = iota // the struct bytes at the member's offset
	srcIndex                 // the enclosing array element's index (channel_id, peer_id, event_id)
	srcAddress               // the field's own address: HostBase + ctx-relative offset (ncfw.pring-address)
)

type memberKind uint8

const (
	mCall     memberKind = iota // a family (object or array) under a key
	mScalar                     // "key": value
	mAddrLine                   // "key": "0x%016lX" (never followed by a comma)
)

type member struct {
	kind  memberKind
	key   string // may hold "%d", replaced by the repeat index
	off   int64
	param param
	// rep > 1 prints the member rep times at off + j·repStride (keys like dma_apb_bcast_%d).
	rep       int
	repStride int64
	fam       *family
	trail     bool // ncfw_log_addr's first argument
	// scalars
	fmt   format
	width int64 // struct bytes read
	shift uint
	mask  uint64 // 0: the whole field
	src   source

	// filled by compile: per repeat index, the key text and the unique path segment.
	keys []string
	segs []string
}

type family struct {
	name    string // the libncfw function (sunda clone), or a shape name for inline shapes
	number  int    // spec §4 row; 0 for inline shapes
	reached bool   // called from the root
	array   bool
	// object
	members   []member
	close     closeRule
	closeText string
	// size is the struct's byte size where spec §6 gives it (0: the span of what it prints), so
	// a tree node covers its whole record, reserved bytes included.
	size int64
	// array
	count      countRule
	countN     int
	countField int64
	maxCount   int
	stride     int64
	elem       *family // element body (printed bare, "{"); nil when hexItems
	hexItems   bool    // elements are "0x%016lX" strings (net_idx_addrs, soc_addr)
	lookahead  bool    // element close looks at the next record (ncfw.bb-table-close) instead of the index
	arrClose   string
}

// schema is the compiled tree for one Rules value.
type schema struct {
	rules    Rules
	root     *family // ncfw_log_ctx
	families map[string]*family
	order    []*family
	// Pre-built fragments.
	modelHead, modelTail  string
	trailClose, lastClose string // ncfw_log_addr's close with its trail flag set / clear
}

func scalar(key string, f format, off, width int64) member {
	return member{kind: mScalar, key: key, fmt: f, off: off, width: width}
}

func bits(key string, f format, off int64, shift uint, mask uint64) member {
	return member{kind: mScalar, key: key, fmt: f, off: off, width: 1, shift: shift, mask: mask}
}

func loopIndex(key string) member { return member{kind: mScalar, key: key, fmt: fmtD, src: srcIndex} }

func ownAddress(key string, off, width int64) member {
	return member{kind: mScalar, key: key, fmt: fmtP, off: off, width: width, src: srcAddress}
}

func addrLine(key string, off int64) member {
	return member{kind: mAddrLine, key: key, off: off, width: 8}
}

func call(key string, off int64, f *family) member {
	return member{kind: mCall, key: key, off: off, fam: f}
}

func callAt(key string, p param, f *family) member {
	return member{kind: mCall, key: key, param: p, fam: f}
}

func repeat(m member, n int, stride int64) member {
	m.rep, m.repStride = n, stride
	return m
}

func object(name string, number int, closeText string, members ...member) *family {
	return &family{name: name, number: number, close: closeFixed, closeText: closeText, members: members}
}

// sized sets a family's struct size (spec §6, H unless its row says otherwise).
func (f *family) sized(n int64) *family {
	f.size = n
	return f
}

// buildSchema writes spec §5 down as data, a subtree of the context at a time. Offsets are
// relative to the pointer each family receives; comments give the spec row and the evidence
// grade. Families() lists the numbered families in spec row order.
func buildSchema(r Rules) *schema {
	b := newSchemaBuilder(r)
	configs := object("ncfw_log_configs", 3, b.comma,
		call("algo", 0, b.algoConfigs()), callAt("neff", pCfgNeff, b.neffConfigs()), callAt("dev", pCfgDev, b.devConfigs()))
	// F2: ncfw_log_ctx(out, 2, "ncfw_ctx_top_sp", neff, algo, cfg) (H).
	root := object("ncfw_log_ctx", 2, b.last,
		call("configs", 0, configs), callAt("neff", pNeffCtx, b.neffContext()), callAt("algo", pAlgoCtx, b.algoContext()))
	s := &schema{rules: r, root: root, families: map[string]*family{}}
	s.order = numbered(append([]*family{root}, b.unreached()...))
	for _, f := range s.order {
		s.families[f.name] = f
	}
	markReached(root)
	s.modelHead, s.modelTail, _ = strings.Cut(r.ModelLine, "%s")
	s.trailClose, s.lastClose = "}"+r.Sep, "}"+r.LastSep
	s.compile()
	return s
}

// numbered lists the numbered families (spec §4 rows) under tops, by row.
func numbered(tops []*family) []*family {
	seen := map[*family]bool{}
	var out []*family
	var visit func(f *family)
	visit = func(f *family) {
		if f == nil || seen[f] {
			return
		}
		seen[f] = true
		if f.number > 0 {
			out = append(out, f)
		}
		for i := range f.members {
			visit(f.members[i].fam)
		}
		visit(f.elem)
	}
	for _, f := range tops {
		visit(f)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].number < out[j].number })
	return out
}

// schemaBuilder holds the rules' closes and formats, and the shapes several subtrees share:
// ADDR1 (ncfw_log_addr), SEMA2 (an inline semaphore_t), the APB broadcast, the basic-block
// table.
type schemaBuilder struct {
	r                  Rules
	comma, last        string
	devIDFmt, ccBitFmt format
	addr, semaAddr     *family
	sema, apb, bbTable *family
}

func newSchemaBuilder(r Rules) *schemaBuilder {
	b := &schemaBuilder{r: r, comma: r.CloseComma, last: r.CloseLast,
		devIDFmt: parseFormat(r.DevIDFormat), ccBitFmt: parseFormat(r.CCOpBitFormat)} // ncfw.dev-id-format, ncfw.cc-op-format
	// F20 ncfw_log_addr = ADDR1: a one-level object closed by its trail flag (C4, H).
	b.addr = (&family{name: "ncfw_log_addr", number: 20, close: closeByTrail,
		members: []member{addrLine("soc_addr", 0)}}).sized(8)
	// SEMA2: an inline semaphore_t, two levels (C5, H): {"addr": {"soc_addr": ...}}.
	b.semaAddr = (&family{name: "semaphore_t.addr", close: closeFixed, closeText: b.last,
		members: []member{addrLine("soc_addr", 0)}}).sized(8)
	b.sema = (&family{name: "semaphore_t", close: closeByPosition, members: []member{call("addr", 0, b.semaAddr)}}).sized(8)
	// F9: three call sites, all non-last (H).
	b.apb = object("ncfw_log_dma_channel_apb_bcast", 9, b.comma,
		b.addr1("m2s_tail_ptr", 0, true), b.addr1("s2m_tail_ptr", 8, true), scalar("mask", fmtU, 16, 4)).sized(20)
	// F38: ncfw.bb-table-close (L) for the element close and the fixed array close.
	bbRecord := (&family{name: "basic_block_record", members: []member{
		scalar("desc_count", fmtHU, 0, 2), scalar("reset_section_desc_count", fmtHHU, 2, 1)}}).sized(4)
	b.bbTable = &family{name: "ncfw_log_basic_block_table", number: 38, array: true, count: countZeroU16, maxCount: 256,
		stride: 4, elem: bbRecord, lookahead: r.BBTableLookahead, arrClose: r.BBTableClose}
	return b
}

// addr1 is an ADDR1 member.
func (b *schemaBuilder) addr1(key string, off int64, trail bool) member {
	m := call(key, off, b.addr)
	m.trail = trail
	return m
}

// sema2 is a SEMA2 member.
func (b *schemaBuilder) sema2(key string, off int64) member { return call(key, off, b.sema) }

// algoConfigs is F4, the algorithms' configs: ring (F5–F9), mesh (F10, F11), hierarchical (F12).
func (b *schemaBuilder) algoConfigs() *family {
	r, comma := b.r, b.comma
	// F7: the walk is bounded by fold_n, not by the 3 slots (ncfw.read-past-end).
	netIdx := &family{name: "net_idx_addrs", array: true, count: countU8Field, countField: 24, maxCount: 255,
		stride: 8, hexItems: true, arrClose: r.ArrCloseLast}
	neighbor := object("ncfw_log_algorithm_ring_neighbor", 7, comma,
		scalar("fold_n", fmtHHU, 24, 1), scalar("type", fmtHHU, 25, 1), call("net_idx_addrs", 0, netIdx)).sized(28)
	// F8 (H, size 0x12bc = 33 snprintfs).
	peer := (&family{name: "kring_peer", members: []member{loopIndex("peer_id"), call("addr", 0, b.semaAddr)}}).sized(8)
	peers := &family{name: "peers", array: true, count: countFixed, countN: 3, stride: 8, elem: peer, arrClose: r.ArrCloseLast}
	kring := object("ncfw_log_algo_ring_kring_peer_semas", 8, comma, b.sema2("mine", 0), call("peers", 8, peers)).sized(32)
	// F6, the 148-byte row of §6.1 (H). channel_id prints the loop index; byte 140 is unread.
	channel := (&family{name: "ncfw_log_algo_ring_channels_configs", number: 6, close: closeByPosition, members: []member{
		call("next_neigh", 0, neighbor), call("prev_neigh", 28, neighbor),
		b.sema2("recv_sema", 56), b.sema2("send_sema", 64), b.sema2("post_sema", 72), b.sema2("dma_compl_sema", 80),
		call("kring_peer_semas", 88, kring), call("dma_apb_bcast", 120, b.apb),
		loopIndex("channel_id"),
		scalar("spad_slot_idx", fmtHHU, 141, 1), scalar("fold_n", fmtHHU, 142, 1),
		scalar("kangaring_is_primary", fmtHHU, 143, 1), scalar("kangaring_num_peers", fmtHHU, 144, 1)}}).sized(148)
	channels := &family{name: "channels", array: true, count: countFixed, countN: 32, stride: 148, elem: channel, arrClose: r.ArrCloseLast}
	ringCfg := object("ncfw_log_algo_ring_configs", 5, comma, call("channels", 0, channels)).sized(0x1280)

	// F11: members 1–8 H; the trailing event_id is ncfw.mesh-event-tail (L).
	eventMembers := []member{
		repeat(call("dma_apb_bcast_%d", 0, b.apb), 2, 20),
		repeat(b.sema2("direct_trigger_sema_%d", 40), 3, 8),
		b.sema2("event_wait_sema", 64),
		scalar("wait_val", fmtU, 72, 4),
		scalar("event_type", fmtHHU, 76, 1), scalar("dma_trigger", fmtHHU, 77, 1),
		scalar("direct_trigger", fmtHHU, 78, 1), scalar("wait_event", fmtHHU, 79, 1),
	}
	if r.MeshEventIDKey != "" {
		eventMembers = append(eventMembers, loopIndex(r.MeshEventIDKey)) // ncfw.mesh-event-tail
	}
	event := (&family{name: "mesh_event", members: eventMembers}).sized(80)
	events := &family{name: "ncfw_log_configs_algo_mesh_events", number: 11, array: true, count: countMeshN,
		stride: 80, elem: event, arrClose: r.ArrCloseLast}
	meshCfg := object("ncfw_log_algo_mesh_configs", 10, comma, call("events", 0, events))
	// F12: C11 (H).
	hierCfg := object("ncfw_log_algo_hierarchical_configs", 12, b.last, addrLine("__stub", 0)).sized(8)
	return object("ncfw_log_algo_configs", 4, comma,
		call("ring", 0, ringCfg), call("mesh", 0x1280, meshCfg), callAt("hierarchical", pCfgHier, hierCfg))
}

// neffConfigs is F24, the NEFF's configs: the DMA allocation (F34), the barriers (F25–F31),
// the basic blocks (F37).
func (b *schemaBuilder) neffConfigs() *family {
	r, comma, last := b.r, b.comma, b.last
	// F34 (M formats).
	allocElem := (&family{name: "dma_alloc_entry", members: []member{scalar("queue_id", fmtU, 0, 4), scalar("dma_engines_bitmap", fmtU, 4, 4)}}).sized(8)
	allocBitmap := (&family{name: "ncfw_log_configs_neff_dma_alloc_bitmap", number: 34, array: true, count: countFixed,
		countN: 8, stride: 8, elem: allocElem, arrClose: r.ArrCloseComma}).sized(64)

	// F29–F31: containers are objects whose elements repeat the container key (ncfw.sema-containers, M).
	semaphores := object("ncfw_log_neff_device_barrier_semaphores", 29, comma, repeat(b.sema2("barrier_sema", 0), 4, 8)).sized(32)
	semaValues := object("ncfw_log_neff_device_barrier_sema_values", 30, last, repeat(scalar("target_sema_val", fmtU, 0, 4), 4, 4)).sized(16)
	dmaSync := object("ncfw_log_device_barrier_dma_sync_sema", 31, comma, repeat(b.sema2("dma_sync_sema", 0), 4, 8)).sized(32)
	stepElem := (&family{name: "barrier_step", members: []member{
		scalar("m2s_val", fmtHU, 0, 2), scalar("s2m_val", fmtHU, 2, 2),
		call("barrier_sema", 4, semaphores), call("target_sema_val", 36, semaValues)}}).sized(52)
	steps := &family{name: "ncfw_log_neff_device_barrier_step_config", number: 28, array: true, count: countFixed,
		countN: 4, stride: 52, elem: stepElem, arrClose: r.ArrCloseLast}
	// F27: code order, barrier_step_config last (C6, H).
	device := object("ncfw_log_neff_device_barrier_config", 27, last,
		call("dma_apb_bcast", 0xF0, b.apb), call("dma_sync_sema", 0xD0, dmaSync),
		scalar("dma_sync_sema_value", fmtU, 0x10C, 4), b.addr1("start_network_proxy", 0x104, true),
		scalar("tdrbp_low", fmtU, 0x110, 4), scalar("tdrbp_high", fmtU, 0x114, 4),
		scalar("desc_count", fmtU, 0x118, 4), scalar("dma_engines_bitmap", fmtHU, 0x120, 2),
		scalar("queue_id", fmtHHU, 0x122, 1), call("barrier_step_config", 0, steps)).sized(0x124)
	// F26: barrier_start is ADDR1, not a semaphore (C4/C5, H).
	host := object("ncfw_log_neff_host_barrier_config", 26, comma, b.addr1("barrier_start", 0, true), b.sema2("barrier_done", 8)).sized(16)
	// F25: both barriers always, same base (C2); the gate prints with %p (C3). H.
	barrier := object("ncfw_log_neff_barrier_config", 25, comma,
		bits("execute_device_barrier", fmtP, 0x124, 0, 1), call("host_barrier", 0, host), call("device_barrier", 0, device)).sized(0x128)

	// F37: pring_* print their own address (ncfw.pring-address, M/L).
	bbCfg := object("ncfw_log_basic_block_configs", 37, comma,
		call("table", 0, b.bbTable), b.sema2("switch_completed", 0x400),
		ownAddress("pring_base_addr", 0x408, 8), ownAddress("pring_total_desc_num", 0x410, 4)).sized(1048)
	// F24: H call order; M for ADDR1 vs SEMA2; leader's %p is ncfw.dev-id-format.
	return object("ncfw_log_neff_configs", 24, comma,
		call("dma_alloc_bitmap", 0, allocBitmap), call("barrier_configs", 0x898, barrier),
		call("basic_block_configs", 0x9C0, bbCfg),
		repeat(b.addr1("slot_spad_base_%d", 0x860, true), 6, 8), b.addr1("ctrl_spad_base", 0x890, true),
		b.sema2("trigger", 0xDD8), b.sema2("trigger_next", 0xDE0), b.sema2("complete", 0xDE8),
		b.sema2("complete_prev", 0xDF0), b.sema2("tpb_stop_sema", 0xDF8),
		scalar("op_num", fmtU, 0xE00, 4), bits("leader", b.devIDFmt, 0xE07, 0, 1),
		scalar("tpb_compl_addr_num", fmtHHU, 0xE06, 1)).sized(0xE08)
}

// devConfigs is F32, the device's configs, with its time sync (F33).
func (b *schemaBuilder) devConfigs() *family {
	// F33 (H, 39 snprintfs). F32: tpb_id %p and %lu H; seng_id, dev_id ncfw.dev-id-format.
	tsync := object("ncfw_log_configs_dev_tsync", 33, b.comma,
		b.addr1("dma_apb_rsvd_addr", 0, true), b.sema2("eng_tpb", 8), b.sema2("timestamp_local", 0x10),
		b.sema2("timestamp_tpb", 0x18), scalar("timestamp_tpb_val", fmtU, 0x20, 4)).sized(0x24)
	return object("ncfw_log_dev_configs", 32, b.last,
		call("tsync", 0, tsync), bits("tpb_id", fmtP, 0x2C, 0, 0xF), bits("seng_id", b.devIDFmt, 0x2C, 4, 0xF),
		bits("dev_id", b.devIDFmt, 0x2D, 0, 0xF), scalar("tpb_ctrl_ack", fmtLU, 0x24, 8)).sized(0x30)
}

// neffContext is F23, the NEFF's context: its op (F35, with the spad ctrl entry F17–F19) and
// basic block (F36).
func (b *schemaBuilder) neffContext() *family {
	r, comma, last := b.r, b.comma, b.last
	// F17–F19, the packed 8-byte entry of §6.2 (H; %u on bitfields is ncfw.cc-op-format).
	header := object("ncfw_log_spad_ctrl_entry_header", 18, comma, bits("cc_op", fmtU, 0, 0, 1)).sized(1)
	ccRing := &family{name: "cc_op.ring", close: closeFixed, closeText: comma, members: []member{scalar("channel_list", fmtU, 3, 4)}}
	ccMesh := &family{name: "cc_op.mesh", close: closeFixed, closeText: last, members: []member{
		scalar("sema_shift_offset", fmtHU, 3, 2), scalar("sema_mask", fmtHU, 5, 2)}}
	ccBit := b.ccBitFmt
	ccOp := object("ncfw_log_spad_ctrl_cc_op_entry", 19, last,
		bits("algo_type", ccBit, 0, 0, 0xF), bits("algo_sub_type", ccBit, 0, 4, 7),
		bits("trigger_next", ccBit, 0, 7, 1), bits("reporter", ccBit, 1, 0, 1),
		bits("ring_wait_complete", ccBit, 1, 1, 1), bits("ring_send_complete", ccBit, 1, 2, 1),
		call("ring", 0, ccRing), call("mesh", 0, ccMesh)).sized(7)
	ctrlEntry := object("ncfw_log_spad_ctrl_entry", 17, comma, call("header", 0, header), call("cc_op", 1, ccOp)).sized(8)

	// F35: tpb_compl shape and stride are ncfw.tpb-compl (L).
	tpbCompl := &family{name: "tpb_compl", close: closeByPosition, members: []member{repeat(b.sema2("tpb_compl", 8), 2, r.TpbComplStride)}}
	op := object("ncfw_log_op_ctx", 35, comma,
		call("ctrl_entry", 0, ctrlEntry), call("tpb_compl", 0, tpbCompl),
		scalar("id", fmtU, 24, 4), scalar("reporter", fmtHHU, 28, 1)).sized(0x20)
	// F36 is ncfw.bb-ctx-layout (L).
	bbCtx := object("ncfw_log_basic_block_ctx", 36, last,
		b.addr1("ctrl_spad_addr", 48, true), repeat(b.addr1("slot_spad_addr_%d", 0, true), 6, 8), call("table", 56, b.bbTable)).sized(0x3C)
	// F23: %hhu for barrier_completed, like op's reporter; %u for id and op_num (ncfw.small-formats).
	return object("ncfw_log_neff_ctx", 23, comma,
		scalar("barrier_completed", fmtHHU, 0x5C, 1), call("op", 0, op), call("basic_block", 0x20, bbCtx)).sized(0x60)
}

// algoContext is F13, the algorithms' context: ring (F14), hierarchical (F16), mesh (F15).
func (b *schemaBuilder) algoContext() *family {
	r, comma := b.r, b.comma
	// F13–F16 (H; channel_id first is M).
	ringRow := (&family{name: "ring_ctx_row", members: []member{
		loopIndex("channel_id"),
		scalar("recv_cnt", fmtHU, 0, 2), scalar("send_credit", fmtHU, 2, 2), scalar("repeat_cnt", fmtHU, 4, 2),
		scalar("m2s_val", fmtHU, 6, 2), scalar("s2m_val", fmtHU, 8, 2),
		scalar("slot_idx", fmtHHU, 14, 1), scalar("run_state", fmtHHU, 15, 1)}}).sized(16)
	ringRows := &family{name: "channels", array: true, count: countFixed, countN: 32, stride: 16, elem: ringRow, arrClose: r.ArrCloseLast}
	ringCtx := object("ncfw_log_algo_ring_ctx", 14, comma, call("channels", 0, ringRows)).sized(32 * 16)
	meshCtx := object("ncfw_log_algo_mesh_ctx", 15, b.last, scalar("event_index", fmtHU, 0, 2)).sized(2)
	hierCtx := object("ncfw_log_algo_hierarchical_ctx", 16, comma, scalar("run_state", fmtHHU, 0, 1)).sized(4)
	return object("ncfw_log_algo_ctx", 13, b.last,
		call("ring", 0, ringCtx), call("hierarchical", 0x200, hierCtx), call("mesh", 0x204, meshCtx)).sized(0x206)
}

// unreached are spec §4 rows 21 and 22, which the root never calls: available through
// EmitFamily only.
func (b *schemaBuilder) unreached() []*family {
	r := b.r
	socAddr := &family{name: "ncfw_log_soc_addr", number: 21, array: true, count: countFixed, countN: 1,
		stride: 8, hexItems: true, arrClose: r.ArrCloseLast} // ncfw.soc-addr-shape
	reprogram := object("ncfw_log_dma_reprogram_info", 22, b.last, // ncfw.reprogram-shape
		b.addr1("m2s_low", 0, true), b.addr1("m2s_high", 4, true), b.addr1("s2m_low", 8, true),
		b.addr1("s2m_low", 12, r.ReprogramLastTrail))
	return []*family{socAddr, reprogram}
}

func markReached(f *family) {
	if f == nil || f.reached {
		return
	}
	f.reached = true
	markReached(f.elem)
	for i := range f.members {
		if f.members[i].fam != nil {
			markReached(f.members[i].fam)
		}
	}
}

// compile expands repeated keys and gives every member occurrence a unique path segment: a key
// seen before in the same object gets "#n" (its occurrence number), as barrier_sema ×4 does.
func (s *schema) compile() {
	done := map[*family]bool{}
	var visit func(f *family)
	visit = func(f *family) {
		if f == nil || done[f] {
			return
		}
		done[f] = true
		seen := map[string]int{}
		for i := range f.members {
			m := &f.members[i]
			n := max(m.rep, 1)
			m.keys, m.segs = make([]string, n), make([]string, n)
			for j := range n {
				k := strings.Replace(m.key, "%d", strconv.Itoa(j), 1)
				m.keys[j] = k
				seg := k
				if c := seen[k]; c > 0 {
					seg = k + "#" + strconv.Itoa(c)
				}
				seen[k]++
				m.segs[j] = seg
			}
			visit(m.fam)
		}
		visit(f.elem)
	}
	for _, f := range s.order {
		visit(f)
	}
}

var defaultSchema = buildSchema(DefaultRules)

// Families lists the serializer families of spec §4 (numbered rows) by their libncfw name, in
// the order EmitFamily accepts them; reached is false for the two the root never calls.
func Families() []FamilyInfo {
	var out []FamilyInfo
	for _, f := range defaultSchema.order {
		out = append(out, FamilyInfo{Name: f.name, Number: f.number, Reached: f.reached, Array: f.array})
	}
	return out
}

// FamilyInfo describes one serializer family.
type FamilyInfo struct {
	Name    string `json:"name"`
	Number  int    `json:"number"` // spec ncfw.md §4 row
	Reached bool   `json:"reached"`
	Array   bool   `json:"array"`
}
