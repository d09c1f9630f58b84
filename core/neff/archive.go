// Package neff owns the NEFF container: the 1024-byte header, the payload (a gzip member or a
// plain tar, then zero padding), the integrity hash, and a streaming walk of the tar members.
// It never holds the whole archive in memory: members stream through SHA-256, and only the
// members a caller asks for are kept.
package neff

import (
	"bufio"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"time"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
)

// Options tune an Open.
type Options struct {
	// Keep says which members' bytes to hold in Member.Data (nil: none).
	Keep func(path string, size int64) bool
	// KeepBudget bounds the total bytes held for kept members (default 512 MiB).
	KeepBudget int64
	// MaxInflated bounds the decompressed bytes (default: the budget's inflate limit, else
	// DefaultMaxInflated).
	MaxInflated int64
	// Budget, if set, is the open's whole-file budget: members listed and bytes kept are
	// charged to it, and it refuses them past its limits (the walk then lists no more members,
	// or keeps no more bytes).
	Budget *budget.Budget
	// Progress, if set, is called as the payload is read.
	Progress func(Progress)
	// OnHeader, if set, is called once the header is decoded, before the payload is read,
	// so a front end can show it at once.
	OnHeader func(*Archive)
	// Context cancels a long read; the archive read so far comes back with a finding.
	Context context.Context
	// FileHash, if set, is fed every byte of the file in order (header, payload, trailing
	// bytes) in the same pass, for a whole-file fingerprint at no extra read.
	FileHash hash.Hash

	// Visit, if set, sees every member's bytes once, in order, as they stream past (chunk by
	// chunk; off is the chunk's offset in the member), so a decoder can index a member it does
	// not keep (instruction counts, opcode mix, the words that name a function) in the one
	// pass. The chunk is reused after Visit returns: copy what you keep.
	Visit func(m *Member, off int64, chunk []byte)
	// OnDemand, if set, names the members the caller can serve without holding them (it
	// indexes them through Visit and reads them again when asked): when the budget has no
	// room to keep one, it is simply not kept, and that is not a budget refusal.
	OnDemand func(path string, size int64) bool

	// NoMemberHashes leaves every member's SHA256 empty (Archive.MemberHashesSkipped says so),
	// for a front end where SHA-256 is slow (Go in wasm, ~77 MB/s): it computes them after
	// the open, off its critical path, with Archive.HashMembers.
	NoMemberHashes bool
	// PayloadDigest, if set, supplies the payload's hash (algo: Payload.HashAlgo, "md5" or
	// "sha256") over bytes [1024, 1024+Payload.Available), computed by another party while the
	// open runs (the page's hash worker): the open does not hash the payload, and calls it
	// once where it would check the integrity. It may block until the digest is known. A
	// digest of the wrong length (nil: "not known") makes the open read the payload again and
	// hash it itself, so the verdict is always the one a hashing open gives.
	PayloadDigest func(algo string) []byte

	// streamTo, if it returns a writer for a member, receives that member's bytes as they
	// stream; stopAfterStream ends the walk right after such a member (used by ReadMember).
	streamTo        func(path string) io.Writer
	stopAfterStream error
	// noHash skips the payload hash and the members' SHA-256 (ReadMember: a member read again
	// for its bytes needs neither, and hashing every member before it is most of the cost).
	noHash bool
	// NoPayloadHash skips the payload hash (and so the integrity verdict): a walk that only
	// feeds Visit (HashMembers, the .dbg scan's second walk).
	NoPayloadHash bool
}

// Progress reports where a read is.
type Progress struct {
	Phase string // "header", "payload", "padding", "done"
	Done  int64  // payload bytes read so far (compressed)
	Total int64  // payload bytes to read
	// Inflated is how many decompressed bytes have been walked.
	Inflated int64
}

// Member is one tar member.
type Member struct {
	Path string
	Size int64
	// SHA256 of the member's bytes (hex), computed while streaming. Empty if truncated.
	SHA256 string
	// HeaderOffset and DataOffset are positions in the decompressed tar stream.
	HeaderOffset int64
	DataOffset   int64
	// TypeFlag is the tar typeflag ('0' for regular files).
	TypeFlag byte
	// Truncated: the archive ended before the member's last byte; Read is how many bytes were.
	Truncated bool
	Read      int64
	// Data holds the bytes when Options.Keep asked for them and the budget allowed.
	Data []byte
	// Dropped: libnrt drops this member when loading (names ending wavegraph-bin.json).
	Dropped bool
}

// Payload describes what follows the header.
type Payload struct {
	// Encoding is "gzip", "tar" or "unknown" (sniffed, not taken from pkg_version).
	Encoding string
	// Integrity is "ok", "mismatch" or "not-checked".
	Integrity    string
	HashAlgo     string // "md5" or "sha256"
	ComputedHash string // hex digest of data[0:data_size]
	MatchedOrder string // for MD5: which stored byte order matched
	// Available is how many payload bytes the file really holds (min(data_size, size-1024)).
	Available int64
	// GzipLength is the compressed length of the gzip member (0 when not gzip or cut).
	GzipLength int64
	GzipMTime  time.Time
	GzipOS     byte
	GzipXFL    byte
	// TarLength is the decompressed length up to and including the end-of-archive blocks.
	TarLength int64
	// PaddingBytes after the gzip stream (or tar) up to data_size; PaddingNonZero counts
	// non-zero bytes among them and FirstNonZero is the first one's file offset (-1: none).
	PaddingBytes   int64
	PaddingNonZero int64
	FirstNonZero   int64
	// TrailingBytes after 1024+data_size that data_size does not cover.
	TrailingBytes int64
}

// Archive is the result of reading a NEFF.
type Archive struct {
	FileSize int64
	Header   Header
	Payload  Payload
	Members  []*Member
	// Findings about the header, payload and archive, in the order found.
	Findings []Finding
	// Verdict is what libnrt 2.31 would do with this file (spec §1.5).
	Verdict Verdict
	// Complete is false when reading stopped early (cut, corrupt, limit, cancelled).
	Complete bool
	// InflateLimited is true when the read stopped at the inflate limit (neffscope's, not a
	// fault of the file): what follows was not read, so no verdict is given on it.
	InflateLimited bool
	// MemberHashesSkipped: the open was asked not to compute the members' SHA-256
	// (Options.NoMemberHashes) and they have not been set since (SetMemberHashes).
	MemberHashesSkipped bool

	// Budget is the open's budget (Options.Budget), for the decoders that read on.
	Budget *budget.Budget

	// index is the seek index into the gzip payload taken during the walk (gzindex.go), which
	// ReadMember resumes from; nil when the payload is not gzip or the walk only fed Visit
	// (Options.NoPayloadHash) or served ReadMemberLimit.
	index *gzIndex

	// byPath indexes Members by path (the last one wins), built on first lookup.
	byPath  map[string]*Member
	indexed int
	// repeats counts the findings given per code through flagRepeated.
	repeats map[doc.Code]*repeat
}

// Finding is a doc.Finding tagged with the part of the container it is about, so the
// document can hang it on the right node.
type Finding struct {
	doc.Finding
	// Part: "header:<field>", "payload", "padding", "archive", "member:<path>", "runtime".
	Part string
}

func (a *Archive) report(code doc.Code, part, severity string, span *doc.Span, format string, args ...any) {
	a.Findings = append(a.Findings, Finding{Finding: doc.Finding{Code: code, Severity: severity, Message: fmt.Sprintf(format, args...), Span: span}, Part: part})
}

// Member returns the member with the given path (the last one, as libnrt's map keeps it).
// Lookups are by an index kept up to date with Members, so a walk over every member is linear.
func (a *Archive) Member(path string) *Member {
	if len(a.Members) < 16 {
		for i := len(a.Members) - 1; i >= 0; i-- {
			if a.Members[i].Path == path {
				return a.Members[i]
			}
		}
		return nil
	}
	if a.byPath == nil || a.indexed > len(a.Members) {
		a.byPath, a.indexed = make(map[string]*Member, len(a.Members)), 0
	}
	for _, m := range a.Members[a.indexed:] {
		a.byPath[m.Path] = m
	}
	a.indexed = len(a.Members)
	return a.byPath[path]
}

// Open reads a NEFF from r (size bytes). It always returns an Archive holding everything that
// could be read; problems are in Findings.
func Open(r io.ReaderAt, size int64, opt Options) *Archive {
	if opt.KeepBudget <= 0 {
		opt.KeepBudget = 512 << 20
	}
	if opt.MaxInflated <= 0 {
		opt.MaxInflated = opt.Budget.Limit(budget.Inflate)
	}
	if opt.MaxInflated <= 0 {
		opt.MaxInflated = DefaultMaxInflated
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	a := &Archive{FileSize: size, Payload: Payload{Encoding: "unknown", Integrity: doc.IntegrityNotChecked, FirstNonZero: -1}, Budget: opt.Budget}
	head := make([]byte, min(size, HeaderSize))
	if n, err := r.ReadAt(head, 0); n < len(head) {
		a.report(doc.CodeNeffUnreadable, doc.HeaderRef("pkg_version"), doc.Error, doc.At(0, int64(n)), "could not read the header: %v", err)
		head = head[:n]
	}
	a.Header = ParseHeader(head)
	if opt.FileHash != nil {
		opt.FileHash.Write(head)
	}
	a.checkHeader()
	a.Verdict = runtimeVerdict(a)
	if opt.OnHeader != nil {
		opt.OnHeader(a)
	}
	if size <= HeaderSize {
		a.Complete = size == HeaderSize && a.Header.DataSize == 0
		return a
	}
	a.readPayload(r, opt)
	a.Verdict = runtimeVerdict(a)
	return a
}

// checkHeader reports header values a runtime would refuse or that look wrong: a file too short
// for the header, then each field's own check (headerFields) where the file holds the field.
func (a *Archive) checkHeader() {
	size := a.FileSize
	switch {
	case size == 0:
		a.report(doc.CodeNeffEmpty, doc.HeaderRef("pkg_version"), doc.Error, doc.At(0, 0), "the file is empty: a NEFF starts with a 1024-byte header followed by the payload. Check that the file was copied completely.")
		return
	case size < HeaderSize:
		a.report(doc.CodeNeffHeaderShort, doc.HeaderRef("pkg_version"), doc.Error, doc.At(0, size), "the file is %d bytes, shorter than the 1024-byte NEFF header; fields past byte %d are missing. The file was cut short or is not a NEFF.", size, size)
	}
	for i := range headerFields {
		if f := &headerFields[i]; f.check != nil && a.Header.has(f) {
			f.check(a, f)
		}
	}
}

// payloadReader is the buffered reader the gzip decoder and tar walker consume. It hands the
// decoder a *bufio.Reader itself (the inflater's fast path reads bytes from it directly) and
// derives how many payload bytes were consumed from what the hashing reader delivered minus
// what still sits in the buffer, so the end of the gzip member is known exactly.
type payloadReader struct {
	*bufio.Reader
	hr *hashingReader
}

func (p *payloadReader) consumed() int64 { return p.hr.n - int64(p.Buffered()) }

// hashingReader reads the payload in large chunks on its own goroutine, feeding every byte
// into the payload hash (and the file fingerprint) there, so hashing runs beside
// decompression on a second core. Progress is reported as chunks are handed over.
type hashingReader struct {
	n, total int64
	opt      *Options
	walked   *int64
	next     int64

	chunks chan chunk
	free   chan []byte
	done   chan struct{}
	cur    []byte
	buf    []byte
	err    error
}

type chunk struct {
	b   []byte
	err error
}

const hashChunk = 1 << 20

// discardHash is the payload hash of a read that checks no integrity (Options.noHash).
type discardHash struct{}

func (discardHash) Write(p []byte) (int, error) { return len(p), nil }
func (discardHash) Sum(b []byte) []byte         { return b }
func (discardHash) Reset()                      {}
func (discardHash) Size() int                   { return 0 }
func (discardHash) BlockSize() int              { return 1 }

func newHashingReader(r io.Reader, h hash.Hash, total int64, opt *Options, walked *int64) *hashingReader {
	hr := &hashingReader{total: total, opt: opt, walked: walked,
		chunks: make(chan chunk, 3), free: make(chan []byte, 4), done: make(chan struct{})}
	size := int(min(hashChunk, max(total, 512))) // small payloads get small buffers
	for range 4 {
		hr.free <- make([]byte, size)
	}
	go func() {
		defer close(hr.chunks)
		for {
			var b []byte
			select {
			case b = <-hr.free:
			case <-hr.done:
				return
			}
			n, err := io.ReadFull(r, b)
			h.Write(b[:n])
			if opt.FileHash != nil {
				opt.FileHash.Write(b[:n])
			}
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			if err == nil {
				err = opt.Context.Err()
			}
			select {
			case hr.chunks <- chunk{b[:n], err}:
			case <-hr.done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	return hr
}

func (h *hashingReader) Read(p []byte) (int, error) {
	if err := h.opt.Context.Err(); err != nil {
		return 0, err
	}
	for len(h.cur) == 0 {
		if h.err != nil {
			return 0, h.err
		}
		if h.buf != nil {
			h.free <- h.buf[:cap(h.buf)]
			h.buf = nil
		}
		c, ok := <-h.chunks
		if !ok {
			h.err = io.EOF
			continue
		}
		h.cur, h.buf, h.err = c.b, c.b, c.err
		h.n += int64(len(c.b))
		if h.opt.Progress != nil && h.n >= h.next {
			h.next = h.n + 4<<20
			h.opt.Progress(Progress{Phase: "payload", Done: h.n, Total: h.total, Inflated: *h.walked})
		}
	}
	n := copy(p, h.cur)
	h.cur = h.cur[n:]
	return n, nil
}

// close stops the reading goroutine (safe to call once, after the last Read).
func (h *hashingReader) close() { close(h.done) }

func (a *Archive) readPayload(r io.ReaderAt, opt Options) {
	h := &a.Header
	avail := a.FileSize - HeaderSize
	length := avail
	if h.DataSize < uint64(avail) {
		length = int64(h.DataSize)
	}
	a.Payload.Available = length
	var hasher hash.Hash
	switch {
	case opt.noHash:
		hasher = discardHash{}
	case h.PkgVersion == 1:
		hasher, a.Payload.HashAlgo = sha256.New(), "sha256"
	default:
		hasher, a.Payload.HashAlgo = md5.New(), "md5"
	}
	if opt.PayloadDigest != nil || opt.NoPayloadHash {
		hasher = discardHash{} // another party hashes the payload (or nobody needs it)
	}
	a.MemberHashesSkipped = opt.NoMemberHashes && !opt.noHash
	var walked int64
	hr := newHashingReader(io.NewSectionReader(r, HeaderSize, length), hasher, length, &opt, &walked)
	defer hr.close()
	cr := &payloadReader{Reader: bufio.NewReaderSize(hr, int(min(256<<10, max(length, 4096)))), hr: hr}

	// Sniff: gzip magic, or a ustar block (Unknown-ID: neff.uncompressed-pkg).
	peek, _ := cr.Peek(512)
	var tarStream io.Reader
	var gz *gzipReader
	// The seek index grows during the walk and is published when it ends, so a ReadMember
	// running beside the walk (through OnHeader's archive) never sees it half made.
	var index *gzIndex
	defer func() { a.index = index }()
	switch {
	case len(peek) >= 2 && peek[0] == 0x1f && peek[1] == 0x8b:
		a.Payload.Encoding = "gzip"
		var err error
		if !opt.noHash && !opt.NoPayloadHash {
			index = newGzIndex(opt.Budget)
		}
		gz, err = newGzipReader(cr.Reader, index)
		if err != nil {
			index = nil
			a.report(doc.CodeNeffGzipHeader, "payload", doc.Error, doc.At(HeaderSize, min(length, 10)), "the payload starts with the gzip magic but its gzip header is unreadable: %v. The file is damaged.", err)
			break
		}
		a.Payload.GzipMTime, a.Payload.GzipOS, a.Payload.GzipXFL = gz.ModTime, gz.OS, gz.XFL
		tarStream = gz
	case looksLikeTar(peek):
		a.Payload.Encoding = "tar"
		tarStream = cr.Reader
		if h.PkgVersion == 2 {
			a.report(doc.CodeNeffPlainTar, "payload", doc.Info, doc.At(HeaderSize, 512), "the payload is a plain (uncompressed) tar although pkg_version is 2; neffscope sniffs the payload, so it is read as tar.")
		}
	default:
		a.report(doc.CodeNeffPayloadUnknown, "payload", doc.Error, doc.At(HeaderSize, int64(min(len(peek), 16))), "the payload at byte 1024 is neither a gzip stream (1f 8b) nor a tar archive (ustar): this is not a NEFF payload, or it is damaged.")
	}

	if tarStream != nil {
		lim := &limitReader{r: tarStream, left: opt.MaxInflated}
		w := &walker{a: a, r: lim, opt: &opt, walked: &walked}
		w.walk()
		if w.stopped {
			return // ReadMember has what it came for; the rest is not read
		}
		a.Payload.TarLength = w.pos
		if lim.hit {
			a.inflateLimited(w.pos, opt)
		} else if gz != nil && w.clean {
			// Read the rest of the gzip member (the tar's zero records) to reach its end and check CRC.
			_, err := io.Copy(io.Discard, gz)
			if err != nil {
				a.reportGzipError(err, cr.consumed())
			} else {
				a.Payload.GzipLength = cr.consumed()
			}
		}
		if gz != nil && w.readErr != nil && !errors.Is(w.readErr, errInflateLimit) {
			a.reportGzipError(w.readErr, cr.consumed())
		}
		a.Complete = w.clean && !lim.hit && (gz == nil || a.Payload.GzipLength > 0)
	}

	// Padding: everything after the stream up to data_size, read through the hash.
	consumed := cr.consumed()
	if a.Payload.Encoding == "tar" {
		consumed = a.Payload.TarLength
	}
	if a.Complete {
		a.readPadding(cr, consumed, opt)
	}
	// Finish the hash over the whole payload, whatever happened above.
	if _, err := io.Copy(io.Discard, cr); opt.Context.Err() != nil || (err != nil && !errors.Is(err, io.EOF)) {
		a.report(doc.CodeNeffCancelled, "payload", doc.Warning, nil, "reading was cancelled at payload byte %d of %d; the integrity check was not done.", hr.n, length)
		a.Complete = false
		return
	}
	if !opt.noHash && !opt.NoPayloadHash {
		sum := hasher.Sum(nil)
		if opt.PayloadDigest != nil {
			sum = a.payloadDigest(r, length, opt)
			if sum == nil {
				a.report(doc.CodeNeffCancelled, "payload", doc.Warning, nil, "reading was cancelled at payload byte %d of %d; the integrity check was not done.", length, length)
				a.Complete = false
				return
			}
		}
		a.checkIntegrity(sum)
	}
	if opt.FileHash != nil && a.Payload.TrailingBytes > 0 {
		io.Copy(opt.FileHash, io.NewSectionReader(r, HeaderSize+length, a.Payload.TrailingBytes))
	}
	if opt.Progress != nil {
		opt.Progress(Progress{Phase: "done", Done: hr.n, Total: length, Inflated: walked})
	}
}

// payloadDigest is the payload's hash from Options.PayloadDigest, or, when that does not know
// it, computed here by reading the payload again (nil: the read was cancelled).
func (a *Archive) payloadDigest(r io.ReaderAt, length int64, opt Options) []byte {
	h := hash.Hash(md5.New())
	if a.Payload.HashAlgo == "sha256" {
		h = sha256.New()
	}
	if sum := opt.PayloadDigest(a.Payload.HashAlgo); len(sum) == h.Size() {
		return sum
	}
	sr := io.NewSectionReader(r, HeaderSize, length)
	buf := make([]byte, hashChunk)
	for {
		if opt.Context.Err() != nil {
			return nil
		}
		n, err := sr.Read(buf)
		h.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return h.Sum(nil)
}

// inflateLimited records that decompression stopped at the inflate limit at tar byte pos.
func (a *Archive) inflateLimited(pos int64, opt Options) {
	a.InflateLimited = true
	opt.Budget.Refuse(budget.Inflate, fmt.Sprintf("tar stream byte %d", pos))
	a.report(doc.CodeNeffInflateLimit, "archive", doc.Error, nil, "decompression stopped at the configured limit of %d bytes (the archive inflates past it: a gzip bomb, or a NEFF larger than the limit). Members after that point are not listed; raise the limit with neffscope --max-inflate if the file is trusted (the page keeps its own limit, sized to a browser tab).", opt.MaxInflated)
}

func (a *Archive) reportGzipError(err error, at int64) {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		a.report(doc.CodeNeffTruncated, "payload", doc.Error, doc.At(HeaderSize+at, 0), "the gzip stream ends early, at payload byte %d: the file was cut short. Members before the cut are listed.", at)
	case errors.Is(err, context.Canceled):
		a.report(doc.CodeNeffCancelled, "payload", doc.Warning, nil, "reading was cancelled at payload byte %d.", at)
	default:
		a.report(doc.CodeNeffGzipCorrupt, "payload", doc.Error, doc.At(HeaderSize+at, 0), "the gzip stream is corrupt near payload byte %d (%v). Members before that point are listed; copy the file again.", at, err)
	}
}

// readPadding checks the bytes after the gzip stream (or tar) up to data_size.
func (a *Archive) readPadding(cr io.Reader, consumed int64, opt Options) {
	if opt.Progress != nil {
		opt.Progress(Progress{Phase: "padding", Done: consumed, Total: a.Payload.Available})
	}
	start := HeaderSize + consumed
	buf := make([]byte, 64<<10)
	var pad int64
	for {
		n, err := cr.Read(buf)
		for i, c := range buf[:n] {
			if c != 0 {
				if a.Payload.FirstNonZero < 0 {
					a.Payload.FirstNonZero = start + pad + int64(i)
				}
				a.Payload.PaddingNonZero++
			}
		}
		pad += int64(n)
		if err != nil {
			break
		}
	}
	a.Payload.PaddingBytes = pad
	if a.Payload.PaddingNonZero > 0 {
		a.report(doc.CodeNeffPaddingNonzero, "padding", doc.Warning, doc.At(a.Payload.FirstNonZero, 1), "%d of the %d bytes after the %s stream are not zero (first at byte %d). Real NEFFs pad with zeros only; data may have been appended or the stream damaged.", a.Payload.PaddingNonZero, pad, a.Payload.Encoding, a.Payload.FirstNonZero)
	}
}

func (a *Archive) checkIntegrity(sum []byte) {
	h := &a.Header
	a.Payload.ComputedHash = hex.EncodeToString(sum)
	span := spanOf((*headerBlock).hash) // pkg 1: SHA-256, all 32 bytes
	if h.PkgVersion != 1 {
		span.Length = 16 // pkg 2: MD5, the first 16
	}
	switch {
	case h.PkgVersion != 1 && h.PkgVersion != 2:
		a.report(doc.CodeNeffHashUnchecked, doc.HeaderRef("hash"), doc.Info, span, "the hash was not checked: pkg_version %d names no hash algorithm.", h.PkgVersion)
		return
	case a.FileSize-HeaderSize < int64(h.DataSize):
		a.report(doc.CodeNeffHashUnchecked, doc.HeaderRef("hash"), doc.Warning, span, "the hash was not checked: the payload is truncated (data_size %d, %d bytes present), so it cannot match.", h.DataSize, a.FileSize-HeaderSize)
		// It follows from the cut (its own finding is neff.truncated): grouped under it.
		a.Findings[len(a.Findings)-1].Cause = doc.CodeNeffTruncated
		return
	case h.PkgVersion == 1:
		if hex.EncodeToString(h.Hash[:]) == a.Payload.ComputedHash {
			a.Payload.Integrity = doc.IntegrityOK
			return
		}
	default:
		for _, order := range []string{HashWordOrder, otherOrder(HashWordOrder)} {
			if hex.EncodeToString(md5FromStored(h.Hash[:16], order)) == a.Payload.ComputedHash {
				a.Payload.Integrity, a.Payload.MatchedOrder = "ok", order
				if order != HashWordOrder {
					a.report(doc.CodeNeffHashOldOrder, doc.HeaderRef("hash"), doc.Info, span, "the MD5 matches when read as %s (the old producer's form); modern neuronx-cc stores %s.", order, HashWordOrder)
				}
				return
			}
		}
	}
	a.Payload.Integrity = doc.IntegrityMismatch
	algo := map[uint64]string{1: "SHA256", 2: "MD5"}[h.PkgVersion]
	a.report(doc.CodeNeffHashMismatch, doc.HeaderRef("hash"), doc.Error, span, "%s mismatch: the header says %s, the payload (bytes 1024..%d) hashes to %s. The file was modified or damaged after compilation; libnrt refuses it when verifying (\"%s mismatch!\"). What could be decoded is still shown.", algo, h.StoredDigest(), HeaderSize+int64(h.DataSize), a.Payload.ComputedHash, algo)
}

func otherOrder(o string) string {
	if o == orderLEWords {
		return orderPlain
	}
	return orderLEWords
}

// limitReader stops after left bytes and remembers that it did.
type limitReader struct {
	r    io.Reader
	left int64
	hit  bool
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left <= 0 {
		l.hit = true
		return 0, errInflateLimit
	}
	if int64(len(p)) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	return n, err
}

var errInflateLimit = errors.New("decompression limit reached")
