package ntff

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
)

// Record is one 16-byte notification record: u32 a, u32 b, u64 t (little-endian), t in
// picoseconds (spec ntff.md §3).
type Record struct {
	A, B uint32
	T    uint64
}

// RecordField is one bit field of a record: which NQ type, which word (a, b or t), the bits,
// what it means and how sure that is. The decoders below read the same bits; this table is
// what the tree shows and what documents them.
type RecordField struct {
	NQ         uint64
	Word       byte // 'a', 'b' or 't'
	Hi, Lo     uint8
	Name       string
	Meaning    string
	Confidence string
	Evidence   string
	Unknown    string
}

// recordFields is the data table of record layouts (spec ntff.md §3.2–3.4).
var recordFields = [...]RecordField{
	{NQ: NQTrace, Word: 'a', Hi: 31, Lo: 31, Name: "marker", Meaning: "always 1", Confidence: "high", Evidence: "every TRACE record of the four captures"},
	{NQ: NQTrace, Word: 'a', Hi: 28, Lo: 26, Name: "engine", Meaning: "engine = header engine index + 1 (1 PE, 2 Activation, 3 Pool, 4 DVE, 5 SP)", Confidence: "high", Evidence: "spec ntff.md §3.2: every PC falls inside that engine's image"},
	{NQ: NQTrace, Word: 'a', Hi: 25, Lo: 24, Name: "kind", Meaning: "0 start, 1 end, 2 DGE notification", Confidence: "high", Evidence: "spec ntff.md §3.2: a start/end pair per PC (H); kind 2 once per Pool 0xB8 word and per SP dynamic DMA (M)", Unknown: "ntff.trace-dge"},
	{NQ: NQTrace, Word: 'a', Hi: 21, Lo: 21, Name: "last_word", Meaning: "set on the start and end of the image's last word (the final 0xA9)", Confidence: "high", Evidence: "spec ntff.md §3.2: 10/10 streams in all four captures"},
	{NQ: NQTrace, Word: 'a', Hi: 20, Lo: 20, Name: "dge", Meaning: "set on every kind-2 record and only there", Confidence: "high", Evidence: "spec ntff.md §3.2"},
	{NQ: NQTrace, Word: 'a', Hi: 19, Lo: 0, Name: "pc", Meaning: "runtime PC: ((ring address >> 6) + position) mod 2²⁰", Confidence: "high", Evidence: "spec ntff.md §4.1"},
	{NQ: NQTrace, Word: 'b', Hi: 31, Lo: 0, Name: "unknown_b", Meaning: "start: b[15:0] = 0, b[31:16] varies (crc_in?); end: opcode-dependent (crc_out?); DGE: 0x0002FFFF Pool, 0x4009FFFF SP", Confidence: "low", Evidence: "spec ntff.md §3.2", Unknown: "ntff.trace-b"},
	{NQ: NQTrace, Word: 't', Hi: 63, Lo: 0, Name: "time_ps", Meaning: "picoseconds on the device clock", Confidence: "high", Evidence: "spec ntff.md §3.1: durations are multiples of 833.33 ps (1.2 GHz) and 1,041.67 ps (DVE, 0.96 GHz)"},

	{NQ: NQNotify, Word: 'a', Hi: 31, Lo: 31, Name: "marker", Meaning: "always 1", Confidence: "high", Evidence: "every NOTIFY record of the four captures"},
	{NQ: NQNotify, Word: 'a', Hi: 30, Lo: 30, Name: "unknown_30", Meaning: "set on 286 of 2,254 records of attn_v6 NC 4", Confidence: "low", Evidence: "spec ntff.md §3.3", Unknown: "ntff.notify-bits"},
	{NQ: NQNotify, Word: 'a', Hi: 28, Lo: 26, Name: "source", Meaning: "1–5 engine (as TRACE), 6 DMA", Confidence: "medium", Evidence: "spec ntff.md §3.3: DMA-only semaphores carry source 6"},
	{NQ: NQNotify, Word: 'a', Hi: 25, Lo: 24, Name: "unknown_kind", Meaning: "3 in every record", Confidence: "low", Evidence: "spec ntff.md §3.3", Unknown: "ntff.notify-bits"},
	{NQ: NQNotify, Word: 'a', Hi: 23, Lo: 16, Name: "op", Meaning: "0xF3 increment, 0xF9 write immediate (the resets at the end), 0xF4, 0xF1/0x07 on events", Confidence: "medium", Evidence: "spec ntff.md §3.3: the low nibbles match update modes 3 (inc) and 9 (write), neff.md §8.3", Unknown: "ntff.notify-bits"},
	{NQ: NQNotify, Word: 'a', Hi: 15, Lo: 8, Name: "is_semaphore", Meaning: "1 semaphore, 0 event", Confidence: "medium", Evidence: "spec ntff.md §3.3"},
	{NQ: NQNotify, Word: 'a', Hi: 7, Lo: 0, Name: "id", Meaning: "semaphore or event id = the NEFF's S[n]", Confidence: "high", Evidence: "spec ntff.md §3.3, §5 check 6: the static totals match"},
	{NQ: NQNotify, Word: 'b', Hi: 31, Lo: 0, Name: "value", Meaning: "the semaphore's value after the update (records are lossy: never count them)", Confidence: "high", Evidence: "spec ntff.md §3.3, §4.4: +1 steps; peaks equal the static totals"},
	{NQ: NQNotify, Word: 't', Hi: 63, Lo: 0, Name: "time_ps", Meaning: "picoseconds on the device clock", Confidence: "high", Evidence: "spec ntff.md §3.1"},

	{NQ: NQTraceDMA, Word: 'a', Hi: 31, Lo: 31, Name: "marker", Meaning: "always 1", Confidence: "high", Evidence: "every TRACE_DMA record of the four captures"},
	{NQ: NQTraceDMA, Word: 'a', Hi: 30, Lo: 24, Name: "dma_engine", Meaning: "DMA engine: 0–15 on NC 4, 17–21 seen on NC 5", Confidence: "medium", Evidence: "spec ntff.md §3.4", Unknown: "ntff.dma-engines"},
	{NQ: NQTraceDMA, Word: 'a', Hi: 23, Lo: 0, Name: "bytes", Meaning: "packet bytes on an info record (event 5); 0 on start and end", Confidence: "high", Evidence: "spec ntff.md §5 check 8: the sums equal the bytes the program moves"},
	{NQ: NQTraceDMA, Word: 'b', Hi: 31, Lo: 16, Name: "unknown_crc", Meaning: "varies on info records; every 4-byte packet of attn_v6 carries 0x75E5 (a payload CRC?)", Confidence: "low", Evidence: "spec ntff.md §3.4", Unknown: "ntff.dma-engines"},
	{NQ: NQTraceDMA, Word: 'b', Hi: 15, Lo: 8, Name: "unknown_b8", Meaning: "not described", Confidence: "low", Evidence: "spec ntff.md §3.4 does not name these bits", Unknown: "ntff.dma-engines"},
	{NQ: NQTraceDMA, Word: 'b', Hi: 7, Lo: 4, Name: "queue", Meaning: "queue index = a DMA ring entry's queue_index", Confidence: "high", Evidence: "spec ntff.md §3.4 (attn_v6: bytes per queue match)"},
	{NQ: NQTraceDMA, Word: 'b', Hi: 3, Lo: 0, Name: "event", Meaning: "1 start, 5 info, 6 end; per (engine, queue) the k-th of each form one packet", Confidence: "high", Evidence: "spec ntff.md §3.4: 13,592 of each on attn_v6 NC 4"},
	{NQ: NQTraceDMA, Word: 't', Hi: 63, Lo: 0, Name: "time_ps", Meaning: "picoseconds on the device clock", Confidence: "high", Evidence: "spec ntff.md §3.1"},
}

// RecordFields is the table of record layouts (for documentation and the page).
func RecordFields() []RecordField { return recordFields[:] }

// TRACE record readings (spec ntff.md §3.2).
const (
	TraceStart = 0
	TraceEnd   = 1
	TraceDGE   = 2
)

// TraceEngine is the header engine index a TRACE record names (a[28:26] − 1; −1 for 0).
func TraceEngine(a uint32) int { return int(a>>26&7) - 1 }

// TraceKind is a TRACE record's kind (a[25:24]).
func TraceKind(a uint32) uint32 { return a >> 24 & 3 }

// TracePC is a TRACE record's runtime PC (a[19:0]).
func TracePC(a uint32) uint32 { return a & pcMask }

// NOTIFY record readings (spec ntff.md §3.3).
const (
	NotifySourceDMA = 6
	NotifyIncrement = 0xF3
	NotifyWrite     = 0xF9
)

// NotifySource is 1–5 an engine (as TRACE), 6 DMA.
func NotifySource(a uint32) uint32 { return a >> 26 & 7 }

// NotifyOp is a[23:16].
func NotifyOp(a uint32) uint32 { return a >> 16 & 0xFF }

// NotifyIsSemaphore is a[15:8] == 1.
func NotifyIsSemaphore(a uint32) bool { return a>>8&0xFF == 1 }

// NotifyID is the semaphore or event id, a[7:0].
func NotifyID(a uint32) int { return int(a & 0xFF) }

// TRACE_DMA record readings (spec ntff.md §3.4).
const (
	DMAStart = 1
	DMAInfo  = 5
	DMAEnd   = 6
)

// DMAEngine is a[30:24].
func DMAEngine(a uint32) int { return int(a >> 24 & 0x7F) }

// DMABytes is a[23:0] (an info record's packet bytes).
func DMABytes(a uint32) int64 { return int64(a & 0xFFFFFF) }

// DMAQueue is b[7:4].
func DMAQueue(b uint32) uint64 { return uint64(b >> 4 & 0xF) }

// DMAEvent is b[3:0].
func DMAEvent(b uint32) uint32 { return b & 0xF }

// scanChunk is how many bytes one read of a section fetches.
const scanChunk = 1 << 20

// ErrStop ends a scan early (returned by the callback's caller, never an error of the file).
var errStop = errors.New("stop")

// Scan hands the records of section s, from record from on, to fn, in file order, reading
// scanChunk bytes at a time; fn returns false to stop. It holds one chunk, whatever the
// section's size.
func (p *Profile) Scan(s *Section, from int64, fn func(k int64, r Record) bool) error {
	if !s.InFile {
		return fmt.Errorf("the %s section lies outside the file", s.Name())
	}
	buf := make([]byte, min(scanChunk, max(RecordSize, s.Records()*RecordSize)))
	n := s.Records()
	for k := max(0, from); k < n; {
		want := min(int64(len(buf)), (n-k)*RecordSize)
		got, err := p.r.ReadAt(buf[:want], p.BlobOff+s.Off+k*RecordSize)
		whole := int64(got) / RecordSize
		for i := int64(0); i < whole; i++ {
			o := i * RecordSize
			r := Record{A: binary.LittleEndian.Uint32(buf[o:]), B: binary.LittleEndian.Uint32(buf[o+4:]), T: binary.LittleEndian.Uint64(buf[o+8:])}
			if !fn(k+i, r) {
				return nil
			}
		}
		k += whole
		if err != nil && !(errors.Is(err, io.EOF) && int64(got) == want) {
			return fmt.Errorf("reading the %s section at record %d: %w", s.Name(), k, err)
		}
		if whole == 0 {
			return fmt.Errorf("reading the %s section at record %d: short read", s.Name(), k)
		}
	}
	return nil
}

// recordNode is record k of section s (at file offset off) with its bit fields.
func recordNode(s *Section, k int64, off int64, r Record) *doc.Node {
	n := &doc.Node{Kind: doc.KindNTFFRecord, Key: strconv.FormatInt(k, 10), Label: "#" + strconv.FormatInt(k, 10), Span: doc.At(off, RecordSize)}
	n.Value = recordSummary(s.Type, r)
	for i := range recordFields {
		f := &recordFields[i]
		if f.NQ != s.Type {
			continue
		}
		var v uint64
		var sp *doc.Span
		switch f.Word {
		case 'a':
			v, sp = uint64(r.A), doc.At(off, 4)
		case 'b':
			v, sp = uint64(r.B), doc.At(off+4, 4)
		default:
			v, sp = r.T, doc.At(off+8, 8)
		}
		if f.Hi-f.Lo < 63 {
			v = v >> f.Lo & (1<<(f.Hi-f.Lo+1) - 1)
		}
		bits := "a[" + strconv.Itoa(int(f.Hi)) + ":" + strconv.Itoa(int(f.Lo)) + "]"
		bits = string(f.Word) + bits[1:]
		c := &doc.Node{Kind: doc.KindField, Key: f.Name, Label: f.Name, Span: sp, Value: fieldText(f, v)}
		c.Detail = bits + ": " + f.Meaning + " [confidence " + f.Confidence + "; " + f.Evidence + "]"
		n.Add(c)
	}
	return n
}

func fieldText(f *RecordField, v uint64) string {
	switch f.Name {
	case "pc", "unknown_b", "unknown_crc", "unknown_b8", "op", "unknown_30", "unknown_kind":
		return "0x" + strconv.FormatUint(v, 16)
	case "engine":
		return strconv.FormatUint(v, 10) + " (" + EngineName(int(v)-1) + ")"
	}
	return strconv.FormatUint(v, 10)
}

// recordSummary is a record in one line.
func recordSummary(nq uint64, r Record) string {
	t := "t=" + strconv.FormatUint(r.T, 10)
	switch nq {
	case NQTrace:
		kind := [4]string{"start", "end", "DGE", "kind 3"}[TraceKind(r.A)]
		return EngineName(TraceEngine(r.A)) + " " + kind + " PC 0x" + strconv.FormatUint(uint64(TracePC(r.A)), 16) + " " + t
	case NQNotify:
		what := "event "
		if NotifyIsSemaphore(r.A) {
			what = "S["
		}
		s := what + strconv.Itoa(NotifyID(r.A))
		if NotifyIsSemaphore(r.A) {
			s += "]"
		}
		return s + " = " + strconv.FormatUint(uint64(r.B), 10) + " (op 0x" + strconv.FormatUint(uint64(NotifyOp(r.A)), 16) + ") " + t
	case NQTraceDMA:
		ev := map[uint32]string{DMAStart: "start", DMAInfo: "info", DMAEnd: "end"}[DMAEvent(r.B)]
		if ev == "" {
			ev = "event " + strconv.Itoa(int(DMAEvent(r.B)))
		}
		s := "DMA " + strconv.Itoa(DMAEngine(r.A)) + " queue " + strconv.FormatUint(DMAQueue(r.B), 10) + " " + ev
		if DMAEvent(r.B) == DMAInfo {
			s += " " + strconv.FormatInt(DMABytes(r.A), 10) + " B"
		}
		return s + " " + t
	}
	return "a=0x" + strconv.FormatUint(uint64(r.A), 16) + " b=0x" + strconv.FormatUint(uint64(r.B), 16) + " " + t
}
