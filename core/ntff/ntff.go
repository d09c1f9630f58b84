// Package ntff reads a Neuron device profile (NTFF, spec ntff.md): the container (a version
// byte, the header length, leftover host memory, a protobuf header, a data blob), the header's
// fields through a table of inferred message shapes (schema.go), the runtime's loaded
// instruction images and the notification queues of 16-byte records (TRACE, NOTIFY,
// TRACE_DMA). Read decodes the header and lays out the blob; the records are never held:
// Measure streams them once through io.ReaderAt and keeps what a timeline needs per image word
// and per DMA queue, within the open's budget. Only version 6 is decoded; others are refused
// with a finding that names the version.
package ntff

import (
	"encoding/binary"
	"io"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"google.golang.org/protobuf/encoding/protowire"
)

// Version is the only NTFF version decoded (spec ntff.md §0: all four captures carry 6).
const Version = 6

// Container layout (spec ntff.md §1, [MEAS, H] on all four captures).
const (
	hostFrom   = 0x08 // leftover host memory: never decoded, shown or hashed
	headerOff  = 0x80 // the protobuf header
	RecordSize = 16   // every notification record: u32 a, u32 b, u64 t (little-endian)
	WordSize   = 64   // an image word (a NEFF instruction word)
)

// maxHeader bounds the protobuf header a Read holds (the shared captures' are 7–57 KB; the
// header grows with the static DMA blocks, spec ntff.md §2.5): past it the header is not
// decoded and nothing can be joined.
const maxHeader = 64 << 20

// Profile is one NTFF as Read decoded it.
type Profile struct {
	Name      string
	Size      int64
	Version   uint8
	HeaderLen int64 // L, the protobuf header's length
	BlobOff   int64 // where the data blob starts: 0x80 + L
	// OK says the header was decoded (version 6, within the file): the blob's layout is known
	// and Measure can read it.
	OK bool

	NEFFName     string
	UUID         []byte // the NEFF's 16-byte UUID (nil when absent)
	UUIDTail     []byte // the 2 bytes after it (unknown, spec ntff.md §2.1)
	Window       [2]uint64
	HasWindow    bool
	Runtime      Version3
	InstanceType string
	InstanceID   string
	Cores        []*Core
	Sections     []*Section

	// Root is the document tree: every field with its span.
	Root *doc.Node

	r io.ReaderAt
	b *budget.Budget
}

// Version3 is a version triple with its commit.
type Version3 struct {
	Major, Minor, Patch uint64
	Commit              string
	Set                 bool
}

func (v Version3) String() string {
	if !v.Set {
		return ""
	}
	return strconv.FormatUint(v.Major, 10) + "." + strconv.FormatUint(v.Minor, 10) + "." + strconv.FormatUint(v.Patch, 10)
}

// Core is one NEFF core (sgNN) as the runtime loaded it.
type Core struct {
	Name   string
	NC     uint64 // the NeuronCore id its notification queues carry
	HasNC  bool
	ExecPS uint64
	Images []*Image // in header order (engine index order on every capture)
	Rings  []DMARing
	Span   *doc.Span
}

// Image returns the core's image of engine e (nil when none).
func (c *Core) Image(e int) *Image {
	for _, im := range c.Images {
		if im.Engine == e {
			return im
		}
	}
	return nil
}

// Queue names the DMA queue of index q on this core ("" when no ring names it). Several queues
// may share an index (attn_v6 sg00: qActTable and qDveTable are both 14, spec ntff.md §2.5):
// their names are joined by "/", since the records cannot tell their packets apart.
func (c *Core) Queue(q uint64) string {
	name := ""
	for _, r := range c.Rings {
		if r.Queue == q && r.Name != "" && !strings.Contains("/"+name+"/", "/"+r.Name+"/") {
			if name != "" {
				name += "/"
			}
			name += r.Name
		}
	}
	return name
}

// Image is one engine's loaded instruction image: the runtime's preamble, the NEFF stream as
// the runtime lowered it, and the postamble, in 64-byte words.
type Image struct {
	Engine int
	Ring   uint64 // device address of the instruction ring
	Off    int64  // byte offset in the blob
	Bytes  int64
	// Words is the whole words the image holds within the file (0 when it lies outside).
	Words    int
	Edits    []Edit
	HasEdits bool
	Span     *doc.Span // the header entry
	// InFile says the image lies inside the blob, whole.
	InFile bool
}

// Base is the PC of position 0: (ring >> 6) mod 2²⁰ (spec ntff.md §4.1).
func (im *Image) Base() uint32 { return uint32(im.Ring>>6) & pcMask }

// Position turns a TRACE PC into a position in the image: (pc − base) mod 2²⁰.
func (im *Image) Position(pc uint32) int { return int((pc - im.Base()) & pcMask) }

const pcMask = 1<<20 - 1

// Edit is one entry of an image's edit list (spec ntff.md §2.4), in words.
type Edit struct {
	Pos   int64 // position in the image
	Words int64
	Kind  uint64 // 0 inserted runtime words, 2 a compiler word removed
	Span  *doc.Span
}

// Edit kinds (spec ntff.md §2.4 [MEAS, M]).
const (
	EditInserted = 0
	EditRemoved  = 2
)

// Layout is what an image's edit list says: the runtime's preamble and postamble, the
// positions of the words it inserted (the first word of each lowered PseudoDMATrigger) and
// those where it removed a compiler word (each PseudoBranchLabel).
type Layout struct {
	Preamble, Postamble int
	Inserted, Removed   []int
	// Compiler is the NEFF instruction count the list implies: program words − inserted +
	// removed (spec ntff.md §4.5).
	Compiler int
	// Problem says why the list does not describe the image ("" when it does).
	Problem string
}

// Layout reads the edit list against the image's size.
func (im *Image) Layout() Layout {
	var l Layout
	n := len(im.Edits)
	if !im.HasEdits || n < 2 {
		l.Problem = "the image has no edit list with a preamble and a postamble entry"
		l.Compiler = im.Words
		return l
	}
	first, last := im.Edits[0], im.Edits[n-1]
	switch {
	case first.Pos != 0 || first.Kind != EditInserted:
		l.Problem = "the edit list's first entry is not a preamble at position 0"
	case last.Kind != EditInserted || last.Pos+last.Words != int64(im.Words):
		l.Problem = "the edit list's last entry does not end at the image's last word"
	case first.Words+last.Words > int64(im.Words) || first.Words < 0 || last.Words < 0:
		l.Problem = "the preamble and postamble are longer than the image"
	}
	if l.Problem != "" {
		l.Compiler = im.Words
		return l
	}
	l.Preamble, l.Postamble = int(first.Words), int(last.Words)
	for _, e := range im.Edits[1 : n-1] {
		if e.Pos < int64(l.Preamble) || e.Pos >= int64(im.Words-l.Postamble+1) || e.Words != 1 {
			l.Problem = "an edit lies outside the program part, or spans more than one word"
			continue
		}
		switch e.Kind {
		case EditInserted:
			l.Inserted = append(l.Inserted, int(e.Pos))
		case EditRemoved:
			l.Removed = append(l.Removed, int(e.Pos))
		default:
			l.Problem = "an edit of kind " + strconv.FormatUint(e.Kind, 10) + " (only 0 and 2 are decoded)"
		}
	}
	l.Compiler = im.Words - l.Preamble - l.Postamble - len(l.Inserted) + len(l.Removed)
	return l
}

// DMARing is one DMA ring entry of a core (spec ntff.md §2.5).
type DMARing struct {
	Ring   uint64
	Queue  uint64
	Name   string
	Blocks int // the static blocks it lists
}

// Section is one notification-queue section of the blob (spec ntff.md §2.6).
type Section struct {
	Type, Kind, Index, NC uint64
	Off, Bytes            int64 // in the blob
	Entry                 *doc.Span
	// InFile says the section lies inside the blob, whole (its records can be read).
	InFile bool
}

// Records is how many whole records the section holds.
func (s *Section) Records() int64 { return s.Bytes / RecordSize }

// Name is "TRACE NC 4" and the like.
func (s *Section) Name() string {
	n, _ := NQName(s.Type)
	return n + " NC " + strconv.FormatUint(s.NC, 10)
}

// Key is the section's stable key among the data's queues.
func (s *Section) Key(i int) string { return "nq" + strconv.Itoa(i) }

// Sniff says whether the first bytes of a file (head, at least the first 0x80 + a few) are an
// NTFF of the decoded version: the version byte 6, a header length that fits the file, and a
// header whose fields, as far as head holds them, parse as protobuf with small field numbers,
// the first being the NEFF's name (1) or UUID (2). Another version is taken only by the file's
// name (core/inspect), so it is refused with a finding rather than read as hex, and nothing
// else is taken for one.
func Sniff(head []byte, size int64) bool {
	if len(head) < headerOff+4 || head[0] != Version {
		return false
	}
	l := int64(binary.LittleEndian.Uint64(head[0:8]) >> 8)
	if l < 16 || headerOff+l > size {
		return false
	}
	b := head[headerOff:min(int64(len(head)), headerOff+l)]
	if b[0] != 0x0A && b[0] != 0x12 {
		return false
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num > 64 {
			return false
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			// A field cut at the end of what head holds is no evidence against.
			return int64(len(head)) < headerOff+l && (typ == protowire.BytesType || typ == protowire.VarintType)
		}
		b = b[n+m:]
	}
	return true
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
