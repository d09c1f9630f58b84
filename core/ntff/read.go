package ntff

import (
	"encoding/binary"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/isa"
)

// Read decodes an NTFF's container and header and lays out its data blob; it never fails:
// problems are findings on p.Root. The header is held (charged to b); records and image words
// are read from r when asked (Scan, Measure, Children).
func Read(name string, r io.ReaderAt, size int64, b *budget.Budget) *Profile {
	p := &Profile{Name: name, Size: size, r: r, b: b}
	root := &doc.Node{Kind: doc.KindNTFF, Label: name, Span: doc.At(0, size), Ref: doc.FileRef}
	p.Root = root
	head := make([]byte, min(size, headerOff))
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	if len(head) < 8 {
		root.Value = "not an NTFF"
		root.Errorf(doc.CodeNTFFTruncated, doc.At(0, int64(len(head))), "%s is %d bytes: an NTFF starts with a version byte and a 7-byte header length (spec ntff.md §1). Capture the profile again.", name, len(head))
		return p
	}
	p.Version = head[0]
	p.HeaderLen = int64(binary.LittleEndian.Uint64(head[0:8]) >> 8)
	p.BlobOff = headerOff + p.HeaderLen
	root.Add(&doc.Node{Kind: doc.KindField, Key: "version", Label: "version", Value: strconv.Itoa(int(p.Version)), Span: doc.At(0, 1),
		Detail: "NTFF version (u8); neffscope decodes version 6, the version of every shared capture (spec ntff.md §1)"})
	root.Add(&doc.Node{Kind: doc.KindField, Key: "header_length", Label: "header_length", Value: strconv.FormatInt(p.HeaderLen, 10), Span: doc.At(1, 7),
		Detail: "length of the protobuf header at byte 0x80 (u56, little-endian; spec ntff.md §1)"})
	if size >= headerOff {
		root.Add(&doc.Node{Kind: doc.KindGroup, Key: "host_memory", Label: "host_memory", Value: "120 B, not shown", Span: doc.At(hostFrom, headerOff-hostFrom),
			Detail: "leftover host memory (user-space pointers, code addresses, a stack-canary-like value: spec ntff.md §1, §7.1): not decoded, not displayed as data, not hashed"})
	}
	if p.Version != Version {
		root.Value = "NTFF version " + strconv.Itoa(int(p.Version)) + " (not decoded)"
		root.Errorf(doc.CodeNTFFVersion, doc.At(0, 1), "NTFF version %d: only version %d is decoded (the version of every capture neffscope was checked on, runtime 2.30.51). The file is shown as bytes; capture with that runtime, or send a sample so the version can be decoded.", p.Version, Version)
		return p
	}
	if size < headerOff || p.HeaderLen <= 0 || p.BlobOff > size {
		root.Value = "truncated"
		root.Errorf(doc.CodeNTFFTruncated, doc.At(0, min(size, 8)), "%s is %d bytes, but its header (at byte 0x80, %d bytes) ends at byte %d: the file is cut short or damaged. Capture the profile again.", name, size, p.HeaderLen, p.BlobOff)
		return p
	}
	if p.HeaderLen > maxHeader || !b.Take(budget.Memory, p.HeaderLen, "the NTFF header") {
		root.Value = "header not read"
		root.Errorf(doc.CodeNTFFHeaderLimit, doc.At(headerOff, p.HeaderLen), "the header is %d bytes, more than neffscope holds (%d, or what the memory budget leaves; real headers are 7–57 KB): it is not decoded and the profile cannot be read.", p.HeaderLen, int64(maxHeader))
		return p
	}
	hb := make([]byte, p.HeaderLen)
	if k, err := r.ReadAt(hb, headerOff); int64(k) < p.HeaderLen {
		root.Errorf(doc.CodeNTFFTruncated, doc.At(headerOff, p.HeaderLen), "the header could not be read whole (%v).", err)
		return p
	}
	root.Add(decodeHeader(p, hb, headerOff))
	b.Release(budget.Memory, p.HeaderLen) // the header's bytes are let go; its tree stays charged
	p.OK = true
	p.layout(root)
	root.Value = p.summary()
	return p
}

// summary is the root's one line: version, runtime, instance, cores, window, NEFF.
func (p *Profile) summary() string {
	parts := []string{"NTFF " + strconv.Itoa(int(p.Version))}
	if v := p.Runtime.String(); v != "" {
		parts = append(parts, "runtime "+v)
	}
	if p.InstanceType != "" {
		parts = append(parts, p.InstanceType)
	}
	parts = append(parts, strconv.Itoa(len(p.Cores))+" cores")
	if p.HasWindow && p.Window[1] >= p.Window[0] {
		parts = append(parts, "window "+Micros(p.Window[1]-p.Window[0]))
	}
	if p.NEFFName != "" {
		base := p.NEFFName[strings.LastIndexByte(p.NEFFName, '/')+1:]
		parts = append(parts, "NEFF "+base)
	}
	return strings.Join(parts, " · ")
}

// Micros prints picoseconds as microseconds with 3 decimals ("359.874 µs").
func Micros(ps uint64) string { return strconv.FormatFloat(float64(ps)/1e6, 'f', 3, 64) + " µs" }

// extent is one piece of the blob a header entry claims.
type extent struct {
	off, n int64
	what   string
	span   *doc.Span
}

// layout checks every image and section against the blob (inside it, not overlapping, tiling
// it) and builds the data node.
func (p *Profile) layout(root *doc.Node) {
	blob := p.Size - p.BlobOff
	data := &doc.Node{Kind: doc.KindGroup, Key: "data", Label: "data", Value: strconv.FormatInt(blob, 10) + " B", Span: doc.At(p.BlobOff, blob),
		Detail: "the data blob: the loaded instruction images, then the notification queues (offsets in the header are relative to its start)"}
	root.Add(data)
	var ext []extent
	inside := func(off, n int64, what string, entry *doc.Span, unit int64) bool {
		switch {
		case n < 0 || off < 0 || off > blob || n > blob-off:
			data.Errorf(doc.CodeNTFFSectionBounds, entry, "%s claims %d bytes at byte %d of the data blob, which has %d: it lies outside the file and is not read. The file is truncated or damaged.", what, n, off, blob)
			return false
		case n%unit != 0:
			data.Warnf(doc.CodeNTFFSectionSize, entry, "%s is %d bytes, not a multiple of %d: the last %d bytes are not read.", what, n, unit, n%unit)
		}
		if n > 0 {
			ext = append(ext, extent{off, n, what, entry})
		}
		return true
	}
	images := &doc.Node{Kind: doc.KindGroup, Key: "images", Label: "images", Detail: "each engine's loaded instruction image: the runtime's preamble, the NEFF stream as the runtime lowered it, the postamble (64-byte words)"}
	for _, c := range p.Cores {
		for _, im := range c.Images {
			what := "the " + c.Name + " " + EngineName(im.Engine) + " image"
			if im.InFile = inside(im.Off, im.Bytes, what, im.Span, WordSize); im.InFile {
				im.Words = int(im.Bytes / WordSize)
			}
			images.Add(p.imageNode(c, im))
		}
	}
	data.Add(images)
	queues := &doc.Node{Kind: doc.KindGroup, Key: "queues", Label: "notification queues", Detail: "the records of each notification queue (16 bytes each), as the section table lists them"}
	for i, s := range p.Sections {
		s.InFile = inside(s.Off, s.Bytes, "the "+s.Name()+" section", s.Entry, RecordSize)
		if s.Bytes > 0 {
			queues.Add(p.sectionNode(i, s))
		}
		if _, decoded := NQName(s.Type); !decoded && s.Bytes > 0 {
			data.Infof(doc.CodeNTFFUnknownSection, s.Entry, "the %s section holds %d bytes, but its record layout is not decoded (never non-empty in the captures neffscope was checked on); its records are shown raw.", s.Name(), s.Bytes)
		}
	}
	data.Add(queues)
	p.tiling(data, ext, blob)
	var imgWords, records int64
	for _, c := range p.Cores {
		for _, im := range c.Images {
			imgWords += int64(im.Words)
		}
	}
	for _, s := range p.Sections {
		if s.InFile {
			records += s.Records()
		}
	}
	images.Value = strconv.FormatInt(imgWords, 10) + " words"
	queues.Value = strconv.FormatInt(records, 10) + " records"
}

// tiling reports overlapping extents and bytes of the blob no entry claims (spec ntff.md §5
// check 3: on every capture the images and queues cover the blob exactly).
func (p *Profile) tiling(data *doc.Node, ext []extent, blob int64) {
	sort.SliceStable(ext, func(i, j int) bool { return ext[i].off < ext[j].off })
	var at int64
	var last *extent
	for i := range ext {
		e := &ext[i]
		if e.off < at && last != nil {
			data.FlagRepeated(doc.CodeNTFFSectionOverlap, doc.Error, e.span, "%s (blob bytes %d..%d) overlaps %s (up to byte %d): two entries claim the same bytes, so at most one can be right. The file is damaged or hostile; both are read as the header says.", e.what, e.off, e.off+e.n, last.what, at)
		}
		if e.off > at {
			p.gap(data, at, e.off)
		}
		if e.off+e.n > at {
			at, last = e.off+e.n, e
		}
	}
	if at < blob {
		p.gap(data, at, blob)
	}
}

func (p *Profile) gap(data *doc.Node, from, to int64) {
	sp := doc.At(p.BlobOff+from, to-from)
	data.Add(&doc.Node{Kind: doc.KindBytes, Key: "unclaimed@" + strconv.FormatInt(from, 10), Label: "unclaimed", Value: strconv.FormatInt(to-from, 10) + " B", Span: sp,
		Detail: "bytes of the blob no image or section claims"})
	data.FlagRepeated(doc.CodeNTFFTiling, doc.Warning, sp, "blob bytes %d..%d are claimed by no image or section (on every capture checked the sections tile the blob exactly): appended or damaged data; shown as hex.", from, to)
}

// Keys of the stubs whose children are built on demand (Children, Rows).
const (
	imageKey   = "#image/"
	sectionKey = "#nq/"
)

func (p *Profile) imageNode(c *Core, im *Image) *doc.Node {
	n := &doc.Node{Kind: doc.KindNTFFImage, Key: c.Name + " " + EngineName(im.Engine), Label: c.Name + " " + EngineName(im.Engine)}
	if !im.InFile {
		n.Value = "outside the file"
		return n
	}
	n.Span = doc.At(p.BlobOff+im.Off, im.Bytes)
	l := im.Layout()
	n.Value = strconv.Itoa(im.Words) + " words"
	if l.Problem == "" {
		n.Value += fmt.Sprintf(" · preamble %d · program %d · postamble %d · %d NEFF instructions", l.Preamble, im.Words-l.Preamble-l.Postamble, l.Postamble, l.Compiler)
	} else {
		n.Warnf(doc.CodeNTFFEditList, im.Span, "the %s %s image's edit list does not describe it: %s. Its words cannot be told apart (runtime or NEFF) nor joined to a NEFF.", c.Name, EngineName(im.Engine), l.Problem)
	}
	n.Detail = "ring 0x" + strconv.FormatUint(im.Ring, 16) + "; the NEFF instruction count is program words − inserted + removed (spec ntff.md §4.5)"
	if im.Words > 0 {
		n.Ref = doc.RecordsRef(imageKey + c.Name + "/" + strconv.Itoa(im.Engine))
		n.SetAttr(doc.AttrMore, strconv.Itoa(im.Words))
	}
	return n
}

func (p *Profile) sectionNode(i int, s *Section) *doc.Node {
	n := &doc.Node{Kind: doc.KindNTFFQueue, Key: s.Key(i), Label: s.Name(), Value: strconv.FormatInt(s.Records(), 10) + " records"}
	if !s.InFile {
		n.Value = "outside the file"
		return n
	}
	n.Span = doc.At(p.BlobOff+s.Off, s.Bytes)
	n.Detail = "kind " + strconv.FormatUint(s.Kind, 10) + ", index " + strconv.FormatUint(s.Index, 10)
	if s.Records() > 0 {
		n.Ref = doc.RecordsRef(sectionKey + strconv.Itoa(i))
		n.SetAttr(doc.AttrMore, strconv.FormatInt(min(s.Records(), maxChildren), 10))
		if s.Records() > maxChildren {
			n.SetAttr(doc.AttrViewLimit, fmt.Sprintf("the tree lists the first %d of the %d records; all are in the hex view", maxChildren, s.Records()))
		}
	}
	return n
}

// maxChildren bounds the children a stub says it has (a stub's count is an int for the page).
const maxChildren = 1 << 30

// Owns says whether a records ref key names a part of this profile.
func Owns(key string) bool {
	return strings.HasPrefix(key, imageKey) || strings.HasPrefix(key, sectionKey)
}

// Count is how many children the stub whose records key is key has (0: none such).
func (p *Profile) Count(key string) int {
	if _, im, ok := p.imageOf(key); ok {
		return im.Words
	}
	if s, err := p.sectionOf(key); err == nil {
		return int(min(s.Records(), maxChildren))
	}
	return 0
}

// Children builds the children [from, to) of the stub whose records key is key (an image's
// words, a section's records) and says how many it has.
func (p *Profile) Children(key string, from, to int) ([]*doc.Node, int, error) {
	if c, im, ok := p.imageOf(key); ok {
		from, to = clamp(from, to, im.Words)
		words, err := p.words(im, from, to)
		if err != nil {
			return nil, im.Words, err
		}
		l := im.Layout()
		out := make([]*doc.Node, 0, to-from)
		for i := from; i < to; i++ {
			out = append(out, p.wordNode(c, im, l, i, words[(i-from)*WordSize:(i-from+1)*WordSize]))
		}
		return out, im.Words, nil
	}
	s, err := p.sectionOf(key)
	if err != nil {
		return nil, 0, err
	}
	total := int(min(s.Records(), maxChildren))
	from, to = clamp(from, to, total)
	out := make([]*doc.Node, 0, to-from)
	err = p.Scan(s, int64(from), func(k int64, r Record) bool {
		if k >= int64(to) {
			return false
		}
		out = append(out, recordNode(s, k, p.BlobOff+s.Off+k*RecordSize, r))
		return true
	})
	return out, total, err
}

// Rows is the same as a table: one row per word or record.
func (p *Profile) Rows(key string, from, to int) (*doc.Table, int, error) {
	kids, total, err := p.Children(key, from, to)
	if err != nil {
		return nil, total, err
	}
	t := &doc.Table{Columns: []string{"#", "value"}}
	for _, k := range kids {
		t.Rows = append(t.Rows, []string{k.Label, k.Value})
		t.RowSpans = append(t.RowSpans, *k.Span)
	}
	return t, total, nil
}

func clamp(from, to, total int) (int, int) {
	from = max(0, min(from, total))
	return from, max(from, min(to, total))
}

func (p *Profile) imageOf(key string) (*Core, *Image, bool) {
	rest, ok := strings.CutPrefix(key, imageKey)
	if !ok {
		return nil, nil, false
	}
	i := strings.LastIndexByte(rest, '/')
	if i < 0 {
		return nil, nil, false
	}
	e, err := strconv.Atoi(rest[i+1:])
	if err != nil {
		return nil, nil, false
	}
	for _, c := range p.Cores {
		if c.Name == rest[:i] {
			if im := c.Image(e); im != nil && im.InFile {
				return c, im, true
			}
		}
	}
	return nil, nil, false
}

func (p *Profile) sectionOf(key string) (*Section, error) {
	rest, ok := strings.CutPrefix(key, sectionKey)
	i, err := strconv.Atoi(rest)
	if !ok || err != nil || i < 0 || i >= len(p.Sections) || !p.Sections[i].InFile {
		return nil, fmt.Errorf("the profile has no section %q", key)
	}
	return p.Sections[i], nil
}

// words reads image words [from, to).
func (p *Profile) words(im *Image, from, to int) ([]byte, error) {
	b := make([]byte, (to-from)*WordSize)
	if len(b) == 0 {
		return b, nil
	}
	if k, err := p.r.ReadAt(b, p.BlobOff+im.Off+int64(from)*WordSize); k < len(b) {
		return nil, fmt.Errorf("reading the image's words %d..%d: %w", from, to, err)
	}
	return b, nil
}

// Word reads image word i (nil when it cannot be read).
func (p *Profile) Word(im *Image, i int) []byte {
	if i < 0 || i >= im.Words {
		return nil
	}
	b, err := p.words(im, i, i+1)
	if err != nil {
		return nil
	}
	return b
}

// ReadWords reads image words [from, to) into one slice (64 bytes a word).
func (p *Profile) ReadWords(im *Image, from, to int) ([]byte, error) {
	from, to = clamp(from, to, im.Words)
	return p.words(im, from, to)
}

// wordNode is image word i: its position, what the edit list says it is, and its decoded
// fields (spans in the file).
func (p *Profile) wordNode(c *Core, im *Image, l Layout, i int, w []byte) *doc.Node {
	off := p.BlobOff + im.Off + int64(i)*WordSize
	n := isa.Decode(w, i).Node("")
	rebase(n, off-int64(i)*WordSize)
	n.Kind = doc.KindNTFFWord
	n.Key = strconv.Itoa(i)
	n.Label = "position " + strconv.Itoa(i)
	role := "program"
	switch {
	case l.Problem != "":
		role = ""
	case i < l.Preamble:
		role = "runtime preamble"
	case i >= im.Words-l.Postamble:
		role = "runtime postamble"
	case contains(l.Inserted, i):
		role = "runtime word inserted (a lowered PseudoDMATrigger's first 0xA5)"
	}
	n.Value = "0x" + strconv.FormatUint(uint64(w[0])|0x100, 16)[1:] + " " + isa.OpcodeName(w[0])
	if role != "" {
		n.Value += " · " + role
	}
	n.Detail = c.Name + " " + EngineName(im.Engine) + ", PC 0x" + strconv.FormatUint(uint64((im.Base()+uint32(i))&pcMask), 16)
	return n
}

// rebase moves a node's spans (made in a member of offset 0) to the file at off.
func rebase(n *doc.Node, off int64) {
	n.Walk(func(_ []string, c *doc.Node) bool {
		if c.Span != nil {
			c.Span = doc.At(c.Span.Offset+off, c.Span.Length)
		}
		for k := range c.Findings {
			if s := c.Findings[k].Span; s != nil {
				c.Findings[k].Span = doc.At(s.Offset+off, s.Length)
			}
		}
		return true
	})
}

func contains(xs []int, x int) bool {
	i := sort.SearchInts(xs, x)
	return i < len(xs) && xs[i] == x
}
