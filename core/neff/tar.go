package neff

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
)

// Bounds that keep hostile archives from costing unbounded memory.
const (
	maxMembers     = 1 << 20 // members listed per archive without a budget
	maxPaxHeader   = 1 << 20 // bytes of one pax extended header
	maxLongName    = 64 << 10
	tarBlock       = 512
	droppedSuffix  = "wavegraph-bin.json" // libnrt drops members ending with this (spec §2.2)
	streamBufBytes = 64 << 10
)

// walker streams a tar archive: ustar (POSIX and GNU magic), pax x/g headers, GNU L/K long
// names, base-256 numbers; directories are skipped. Positions are in the decompressed stream.
type walker struct {
	a      *Archive
	r      io.Reader
	opt    *Options
	walked *int64
	pos    int64
	// clean: the walk reached the end-of-archive (or a clean end of stream after whole members).
	clean   bool
	readErr error
	// stopped: the caller asked to stop after a member (ReadMember); not an error.
	stopped bool
	hasher  *memberHasher
	kept    int64
	block   tarHeaderBlock
	buf     []byte
	seen    map[string]int64
	// srcEOF: the stream under the walk ended cleanly (for gzip: the member's CRC matched), so
	// a short read is a size the header overstates, not a cut file.
	srcEOF bool
}

// read fills p from the stream, tracking the position; it returns how many bytes came.
func (w *walker) read(p []byte) (int, error) {
	n, err := w.readFull(p)
	w.pos += int64(n)
	*w.walked = w.pos
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		w.readErr = err
	} else if errors.Is(err, io.ErrUnexpectedEOF) {
		w.readErr = io.ErrUnexpectedEOF
	}
	return n, err
}

// readFull is io.ReadFull that remembers whether the source itself ended with io.EOF.
func (w *walker) readFull(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := w.r.Read(p[n:])
		n += m
		if err != nil {
			if errors.Is(err, io.EOF) {
				w.srcEOF = true
				if n == len(p) {
					return n, nil
				}
				if n > 0 {
					return n, io.ErrUnexpectedEOF
				}
			}
			return n, err
		}
	}
	return n, nil
}

func (w *walker) walk() {
	w.hasher = newMemberHasher(w.opt.noHash || w.opt.NoMemberHashes)
	defer w.hasher.close() // every member's SHA256 is set when walk returns
	w.buf = make([]byte, streamBufBytes)
	w.seen = map[string]int64{}
	ext := extended{paxSize: -1}
	zeroBlocks := 0
	for {
		hdrOff := w.pos
		if w.atEnd(hdrOff, &zeroBlocks) {
			return
		}
		if zeroBlocks > 0 {
			continue
		}
		h, ok := w.header(hdrOff)
		if !ok {
			return
		}
		if meta, ok := w.extend(&ext, h, hdrOff); !ok {
			return
		} else if meta {
			continue
		}
		name, size := ext.apply(h)
		if file, ok := w.regular(name, size, h.typeflag, hdrOff); !ok {
			return
		} else if !file {
			continue
		}
		if !w.list(name, hdrOff) || !w.member(name, size, h.typeflag, hdrOff) {
			return
		}
	}
}

// atEnd reads the next header block into w.block and says whether the archive ends there:
// two zero blocks, a clean end of the stream, or a cut. A zero block counts in zeroBlocks; one
// zero block followed by a header is flagged (GNU tar would stop at it) and the count reset.
func (w *walker) atEnd(hdrOff int64, zeroBlocks *int) bool {
	n, err := w.read(w.block[:])
	if err != nil {
		switch {
		case n == 0 && errors.Is(err, io.EOF):
			w.clean = true
			if *zeroBlocks == 0 {
				w.a.report(doc.CodeTarNoEnd, "archive", doc.Warning, nil, "the tar archive ends at stream byte %d without its end-of-archive blocks; every member before it is whole, but the archive was probably cut after the last member.", hdrOff)
			}
		case errors.Is(err, errInflateLimit):
		default:
			w.a.report(doc.CodeTarTruncated, "archive", doc.Error, nil, "the tar archive ends inside a header block at stream byte %d (%d of 512 bytes present): the payload was cut short.", hdrOff, n)
		}
		return true
	}
	if isZero(w.block[:]) {
		*zeroBlocks++
		if *zeroBlocks == 2 {
			w.clean = true
			return true
		}
		return false
	}
	if *zeroBlocks == 1 {
		w.a.flagRepeated(doc.CodeTarLoneZeroBlock, "archive", doc.Warning, nil, "a lone zero block at tar stream byte %d is followed by more headers; GNU tar treats it as the end of the archive, libarchive reads on. The members after it are listed.", hdrOff-tarBlock)
		*zeroBlocks = 0
	}
	return false
}

// extended is what the pax and GNU long-name entries say of the entry after them.
type extended struct {
	longName, paxPath string
	paxSize           int64 // -1: none
}

// apply is the entry's name and size with what the entries before it said, which it uses up.
func (e *extended) apply(h tarHeader) (name string, size int64) {
	name, size = h.name, h.size
	if e.paxSize >= 0 && (h.typeflag == '0' || h.typeflag == 0 || h.typeflag == '7') {
		size = e.paxSize
	}
	if e.longName != "" {
		name = e.longName
	}
	if e.paxPath != "" {
		name = e.paxPath
	}
	*e = extended{paxSize: -1}
	for strings.HasPrefix(name, "./") {
		name = name[2:]
	}
	return name, size
}

// extend reads a pax extended header (x, g) or a GNU long name or link name (L, K) into e;
// meta says the entry was one of them, ok false that walking cannot go on.
func (w *walker) extend(e *extended, h tarHeader, hdrOff int64) (meta, ok bool) {
	switch h.typeflag {
	case 'x', 'g':
		data, ok := w.small(h, hdrOff, maxPaxHeader, "pax extended header")
		if !ok {
			return true, false
		}
		recs, err := parsePax(data)
		if err != nil {
			w.a.flagRepeated(doc.CodeTarBadPax, "archive", doc.Warning, nil, "the pax extended header at tar stream byte %d is malformed (%v); its records are ignored.", hdrOff, err)
		}
		if h.typeflag == 'x' {
			if p, ok := recs["path"]; ok {
				e.paxPath = p
			}
			if s, ok := recs["size"]; ok {
				if v, err := strconv.ParseInt(s, 10, 64); err == nil && v >= 0 {
					e.paxSize = v
				} else {
					// GNU tar and Go's archive/tar refuse this header (ErrHeader); the
					// ustar size field is used instead.
					w.a.flagRepeated(doc.CodeTarBadPax, "archive", doc.Error, nil, "the pax extended header at tar stream byte %d has an unreadable size record %q; tar readers refuse such an archive (Go: \"archive/tar: invalid tar header\"). The next member's ustar size field is used instead.", hdrOff, clip(s, 40))
				}
			}
		}
		return true, true
	case 'L':
		data, ok := w.small(h, hdrOff, maxLongName, "GNU long name")
		if !ok {
			return true, false
		}
		e.longName = cString(data)
		return true, true
	case 'K':
		_, ok := w.small(h, hdrOff, maxLongName, "GNU long link name")
		return true, ok
	}
	return false, true
}

// regular says whether an entry is read as a member: a file is, and an entry of an unusual
// type (flagged); a directory, link or device is skipped (links and devices flagged). ok is
// false when walking cannot go on.
func (w *walker) regular(name string, size int64, typeflag byte, hdrOff int64) (file, ok bool) {
	switch typeflag {
	case '5': // directory: libnrt skips them
		return false, w.skip(size)
	case '0', 0, '7':
	case '1', '2', '3', '4', '6':
		w.a.flagRepeated(doc.CodeTarNotFile, doc.MemberRef(name), doc.Info, nil, "tar entry %q at stream byte %d is a %s, not a file; NEFF loaders ignore it.", name, hdrOff, typeName(typeflag))
		return false, w.skip(size)
	default:
		w.a.report(doc.CodeTarOddType, doc.MemberRef(name), doc.Warning, nil, "tar entry %q at stream byte %d has the unusual type flag %q; it is read as a regular file.", name, hdrOff, typeflag)
	}
	return true, true
}

// list takes a member's place in the listing from the budget (or, without one, maxMembers);
// false stops the listing, with a finding that says why.
func (w *walker) list(name string, hdrOff int64) bool {
	if w.opt.Budget == nil && len(w.a.Members) >= maxMembers {
		w.a.report(doc.CodeTarTooManyMembers, "archive", doc.Error, nil, "the archive holds more than %d members; listing stops at stream byte %d to bound memory.", maxMembers, hdrOff)
		return false
	}
	if where := fmt.Sprintf("member %d, tar stream byte %d", len(w.a.Members)+1, hdrOff); !w.opt.Budget.Take(budget.Members, 1, where) || !w.opt.Budget.Take(budget.Memory, budget.MemberCost+int64(len(name)), where) {
		w.a.report(doc.CodeBudgetSkipped, "archive", doc.Warning, nil, "listing stops at member %d (tar stream byte %d): the %s limit is reached (the file's finding says how to raise it); the members after it are not listed.", len(w.a.Members)+1, hdrOff, w.opt.Budget.First().Kind)
		return false
	}
	return true
}

// repeat is one code's count of archive findings and where its summary is in Findings.
type repeat struct{ given, summary int }

// flagRepeated is report for a problem a tar entry can repeat without bound (links, lone zero
// blocks, bad pax headers: a few bytes each, a million in a small file): the archive keeps the
// first doc.RepeatsKept findings of code, then one summary on the members node that counts the
// rest (doc.MoreLikeThis), as doc.Node.FlagRepeated does on a node.
func (a *Archive) flagRepeated(code doc.Code, part, severity string, span *doc.Span, format string, args ...any) {
	if a.repeats == nil {
		a.repeats = map[doc.Code]*repeat{}
	}
	r := a.repeats[code]
	if r == nil {
		r = &repeat{summary: -1}
		a.repeats[code] = r
	}
	r.given++
	if r.given <= doc.RepeatsKept {
		a.Findings = append(a.Findings, Finding{Finding: doc.Finding{Code: code, Severity: severity, Message: fmt.Sprintf(format, args...), Span: span}, Part: part})
		return
	}
	msg := doc.MoreLikeThis(code, r.given-doc.RepeatsKept)
	if r.summary >= 0 && r.summary < len(a.Findings) && a.Findings[r.summary].Code == code {
		a.Findings[r.summary].Message = msg
		return
	}
	a.Findings = append(a.Findings, Finding{Finding: doc.Finding{Code: code, Severity: severity, Message: msg}, Part: "archive"})
	r.summary = len(a.Findings) - 1
}

type tarHeader struct {
	name     string
	size     int64
	typeflag byte
}

// tarHeaderBlock is one 512-byte tar header. Its accessors are the one place each field's
// offset and width are written (POSIX ustar, with GNU's magic "ustar " in the same bytes), as
// archive/tar's format.go has them.
type tarHeaderBlock [tarBlock]byte

func (b *tarHeaderBlock) name() []byte     { return b[0:][:100] }
func (b *tarHeaderBlock) size() []byte     { return b[124:][:12] }
func (b *tarHeaderBlock) chksum() []byte   { return b[148:][:8] }
func (b *tarHeaderBlock) typeFlag() []byte { return b[156:][:1] }
func (b *tarHeaderBlock) magic() []byte    { return b[257:][:6] }
func (b *tarHeaderBlock) prefix() []byte   { return b[345:][:155] }

// checksums sums the block's bytes as unsigned and as signed bytes, the checksum field taken
// as spaces (tar readers accept either sum).
func (b *tarHeaderBlock) checksums() (unsigned, signed int64) {
	for _, c := range b {
		unsigned += int64(c)
		signed += int64(int8(c))
	}
	for _, c := range b.chksum() {
		unsigned += ' ' - int64(c)
		signed += ' ' - int64(int8(c))
	}
	return unsigned, signed
}

// looksLikeTar says whether the payload's first bytes hold a ustar magic where a tar header's
// is (POSIX "ustar\x00" or GNU "ustar ").
func looksLikeTar(peek []byte) bool {
	var b tarHeaderBlock
	n := copy(b[:], peek)
	m := b.magic()
	return n >= tarBlock-cap(m)+len(m) && string(m[:5]) == "ustar"
}

// header decodes w.block. ok is false when walking cannot go on.
func (w *walker) header(off int64) (tarHeader, bool) {
	b := &w.block
	var h tarHeader
	h.typeflag = b.typeFlag()[0]
	stored, errSum := parseNumeric(b.chksum())
	unsigned, signed := b.checksums()
	magic := string(b.magic())
	posix, gnu := magic == "ustar\x00", magic == "ustar "
	if errSum != nil || (stored != unsigned && stored != signed) {
		if !posix && !gnu {
			w.a.report(doc.CodeTarBadHeader, "archive", doc.Error, nil, "the block at tar stream byte %d is not a tar header (no ustar magic, checksum %s): the archive is corrupt from here. libnrt would fail with \"failure while reading NEFF metadata\". %d members before it are listed.", off, describeSum(b.chksum(), unsigned), len(w.a.Members))
			return h, false
		}
		w.a.report(doc.CodeTarBadHeader, "archive", doc.Error, nil, "the tar header at stream byte %d has checksum %s but its bytes sum to %d: the header is damaged and libnrt would refuse the archive (\"failure while reading NEFF metadata\"). neffscope reads on, taking the header as it stands.", off, describeSum(b.chksum(), unsigned), unsigned)
	}
	h.name = cString(b.name())
	if posix {
		if prefix := cString(b.prefix()); prefix != "" {
			h.name = prefix + "/" + h.name
		}
	}
	size, err := parseNumeric(b.size())
	if err != nil || size < 0 {
		w.a.report(doc.CodeTarBadHeader, "archive", doc.Error, nil, "the tar header of %q at stream byte %d has an unreadable size field %q; walking stops here.", h.name, off, strings.TrimRight(string(b.size()), "\x00"))
		return h, false
	}
	h.size = size
	return h, true
}

func describeSum(field []byte, _ int64) string {
	return strconv.Quote(strings.TrimRight(string(field), "\x00 "))
}

// member streams one regular file's data through SHA-256 (and into Data when kept).
func (w *walker) member(name string, size int64, typeflag byte, hdrOff int64) bool {
	m := &Member{Path: name, Size: size, HeaderOffset: hdrOff, DataOffset: w.pos, TypeFlag: typeflag}
	if strings.HasSuffix(name, droppedSuffix) {
		m.Dropped = true
	}
	if prev, dup := w.seen[name]; dup {
		w.a.report(doc.CodeTarDuplicateMember, doc.MemberRef(name), doc.Warning, nil, "member %q appears twice in the archive (tar stream bytes %d and %d); libnrt keeps the later copy, so the earlier one is ignored at load.", name, prev, hdrOff)
	}
	w.seen[name] = hdrOff
	w.a.Members = append(w.a.Members, m)
	keep := w.opt.Keep != nil && w.opt.Keep(name, size) && w.kept+size <= w.opt.KeepBudget
	if keep && w.opt.OnDemand != nil && w.opt.OnDemand(name, size) && !w.opt.Budget.Can(budget.Memory, size) {
		keep = false // served on demand: no room to hold it is not a loss
	}
	keep = keep && w.opt.Budget.Take(budget.Memory, size, "member "+strconv.Quote(name))
	if keep {
		w.kept += size
		// The size was granted by the budget (or KeepBudget), so one allocation holds it:
		// growing by appends would cost up to twice the member at once.
		m.Data = make([]byte, 0, size)
	}
	var sink io.Writer
	if w.opt.streamTo != nil {
		sink = w.opt.streamTo(name)
	}
	left := size
	for left > 0 {
		buf := <-w.hasher.free
		chunk := buf[:min(left, int64(len(buf)))]
		n, err := w.read(chunk)
		w.hasher.jobs <- hashJob{b: chunk[:n], m: m}
		if keep {
			m.Data = append(m.Data, chunk[:n]...)
		}
		if sink != nil {
			sink.Write(chunk[:n])
		}
		if w.opt.Visit != nil && n > 0 {
			w.opt.Visit(m, m.Read, chunk[:n])
		}
		left -= int64(n)
		m.Read += int64(n)
		if err != nil {
			m.Truncated = true
			w.hasher.jobs <- hashJob{reset: true}
			switch {
			case errors.Is(err, errInflateLimit):
			case w.srcEOF && w.completeSource():
				// The stream is whole (gzip CRC checked, or every payload byte present): it is
				// the header that claims more than there is, not a cut file.
				w.readErr = nil
				w.a.report(doc.CodeTarBadSize, doc.MemberRef(name), doc.Error, doc.In(name, m.Read, 0), "tar member %s declares %d bytes, but the archive holds only %d after its header although the %s stream is complete: the size in its tar header is wrong (forged or damaged), not the file cut short. Its %d bytes are shown.", name, size, m.Read, w.a.Payload.Encoding, m.Read)
			default:
				w.a.report(doc.CodeTarTruncated, doc.MemberRef(name), doc.Error, doc.In(name, m.Read, 0), "tar member %s is truncated at byte %d of %d: the archive ends there. Its first %d bytes are shown.", name, m.Read, size, m.Read)
			}
			return false
		}
	}
	w.hasher.jobs <- hashJob{m: m, end: true}
	if sink != nil && w.opt.stopAfterStream != nil {
		w.stopped = true
		return false
	}
	return w.skipPad(size)
}

// completeSource says whether the stream under the walk is whole: a gzip member whose end and
// CRC were read, or a plain tar with every payload byte present.
func (w *walker) completeSource() bool {
	if w.a.Payload.Encoding == "gzip" {
		return true // the inflater returns io.EOF only after checking the trailer
	}
	return uint64(w.a.FileSize-HeaderSize) >= w.a.Header.DataSize
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// small reads the data of a metadata entry (pax header, long name), bounded by max.
func (w *walker) small(h tarHeader, off int64, max int64, what string) ([]byte, bool) {
	if h.size > max {
		w.a.report(doc.CodeTarBadSize, "archive", doc.Error, nil, "the %s at tar stream byte %d claims %d bytes (more than %d); the archive is corrupt or hostile, and walking stops.", what, off, h.size, max)
		return nil, false
	}
	data := make([]byte, h.size)
	if n, err := w.read(data); err != nil {
		w.a.report(doc.CodeTarTruncated, "archive", doc.Error, nil, "the %s at tar stream byte %d is cut short (%d of %d bytes).", what, off, n, h.size)
		return nil, false
	}
	return data, w.skipPad(h.size)
}

func (w *walker) skip(size int64) bool {
	for left := size; left > 0; {
		n, err := w.read(w.buf[:min(left, int64(len(w.buf)))])
		left -= int64(n)
		if err != nil {
			w.a.report(doc.CodeTarTruncated, "archive", doc.Error, nil, "the archive ends inside an entry's data at tar stream byte %d.", w.pos)
			return false
		}
	}
	return w.skipPad(size)
}

// skipPad consumes the zero fill up to the next 512-byte block.
func (w *walker) skipPad(size int64) bool {
	if r := size % tarBlock; r != 0 {
		if _, err := w.read(w.block[:tarBlock-r]); err != nil {
			// The data was whole; only the fill is missing. Note it and stop cleanly.
			w.a.report(doc.CodeTarTruncated, "archive", doc.Warning, nil, "the archive ends inside the block padding at tar stream byte %d, after the last member's data.", w.pos)
			w.clean = true
			return false
		}
	}
	return true
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// parseNumeric reads an octal field (NUL/space padded) or a GNU base-256 one (high bit set).
func parseNumeric(b []byte) (int64, error) {
	if len(b) > 0 && b[0]&0x80 != 0 {
		// GNU base-256: big-endian after the marker bit; a 0xff lead is a negative number,
		// which no size or offset can be.
		if b[0] == 0xff {
			return 0, errors.New("negative base-256 number")
		}
		var v int64
		for i, c := range b {
			if i == 0 {
				c &= 0x7f
			}
			if v > math.MaxInt64>>8 {
				return 0, errors.New("base-256 number overflows")
			}
			v = v<<8 | int64(c)
		}
		return v, nil
	}
	s := strings.Trim(string(b), " \x00")
	if s == "" {
		return 0, nil
	}
	if i := strings.IndexAny(s, " \x00"); i >= 0 {
		s = s[:i]
	}
	return strconv.ParseInt(s, 8, 64)
}

// parsePax parses "LEN key=value\n" records.
func parsePax(b []byte) (map[string]string, error) {
	out := map[string]string{}
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp <= 0 {
			return out, errors.New("record without a length")
		}
		n, err := strconv.Atoi(string(b[:sp]))
		if err != nil || n <= sp || n > len(b) {
			return out, fmt.Errorf("bad record length %q", b[:sp])
		}
		rec := b[sp+1 : n]
		b = b[n:]
		rec = bytes.TrimSuffix(rec, []byte("\n"))
		eq := bytes.IndexByte(rec, '=')
		if eq < 0 {
			return out, errors.New("record without '='")
		}
		out[string(rec[:eq])] = string(rec[eq+1:])
	}
	return out, nil
}

func typeName(t byte) string {
	switch t {
	case '1':
		return "hard link"
	case '2':
		return "symbolic link"
	case '3':
		return "character device"
	case '4':
		return "block device"
	case '6':
		return "FIFO"
	}
	return "special entry"
}

// memberHasher computes the members' SHA-256 on its own goroutine, so hashing the decompressed
// bytes runs beside decompression on a second core. Chunks come from its pool and go back to it.
type memberHasher struct {
	jobs chan hashJob
	free chan []byte
	done chan struct{}
}

type hashJob struct {
	b     []byte  // bytes to hash (returned to the pool afterwards)
	m     *Member // the member they belong to
	end   bool    // the member's last chunk was sent: set m.SHA256
	reset bool    // the member was cut short: drop what was hashed
}

// newMemberHasher starts the goroutine that hashes members; with skip it only recycles the
// buffers (a read that needs no SHA-256, Options.noHash).
func newMemberHasher(skip bool) *memberHasher {
	h := &memberHasher{jobs: make(chan hashJob, 4), free: make(chan []byte, 6), done: make(chan struct{})}
	for range 6 {
		h.free <- make([]byte, streamBufBytes)
	}
	go func() {
		defer close(h.done)
		sum := sha256.New()
		for j := range h.jobs {
			if j.b != nil {
				if !skip {
					sum.Write(j.b)
				}
				h.free <- j.b[:cap(j.b)]
			}
			switch {
			case j.end && skip:
			case j.end:
				j.m.SHA256 = hex.EncodeToString(sum.Sum(nil))
				sum.Reset()
			case j.reset:
				sum.Reset()
			}
		}
	}()
	return h
}

// close waits until every member sent has been hashed.
func (h *memberHasher) close() {
	close(h.jobs)
	<-h.done
}
