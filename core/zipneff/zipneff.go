// Package zipneff finds NEFFs stored inside zip files: torch-neuronx writes the compiled NEFF
// into the TorchScript .pt it saves (a zip), and users want it back out. An entry counts as a
// NEFF when its first 1024 bytes are a NEFF header (pkg_version 1 or 2, header_size 1024,
// data_size + 1024 ≤ the entry's size) and its payload hash matches the header (MD5 for pkg 2,
// SHA-256 for pkg 1). Stored (uncompressed) entries can be opened in place at Offset; deflated
// ones are read through the zip reader.
//
// A zip is hostile input: its directory may be huge, its entries may declare sizes they do not
// have, inflate a thousandfold, or share their bytes (many directory entries naming one
// entry's data). So the directory is bounded before it is read, every entry is read as a
// stream through its hash (nothing is held whole), entries whose byte ranges overlap are
// refused, and an entry past the size or ratio limit is not inflated. Each refusal is one
// coded finding per kind (with a count and the first few names) that names the limit.
package zipneff

import (
	"archive/zip"
	"crypto/md5"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff"
)

// Limits bound what Find reads of a zip.
type Limits struct {
	// MaxDirectory bounds the central directory's bytes (its records are all held by the zip
	// reader: ~250 B each); a TorchScript .pt's is a few KB.
	MaxDirectory int64
	// MaxEntrySize bounds a deflated entry's declared (and so actual) uncompressed size.
	MaxEntrySize int64
	// MaxRatio bounds a deflated entry's uncompressed/compressed ratio, for entries over
	// ratioFloor bytes. A NEFF's payload is gzip (ratio ≈ 1); a pkg 1 plain tar of JSON and
	// streams compresses far less than this.
	MaxRatio int64
}

// DefaultLimits are Find's limits.
var DefaultLimits = Limits{MaxDirectory: 4 << 20, MaxEntrySize: 4 << 30, MaxRatio: 256}

// ratioFloor: smaller entries are not held to MaxRatio (a few MB inflate in milliseconds).
const ratioFloor = 16 << 20

// The codes of Find's findings.
const (
	CodeDirectory doc.Code = "zip.directory" // the central directory is past Limits.MaxDirectory
	CodeBomb      doc.Code = "zip.bomb"      // an entry's size or ratio is past the limit: not inflated
	CodeOverlap   doc.Code = "zip.overlap"   // entries whose bytes overlap another's: refused
	CodeDamaged   doc.Code = "zip.damaged"   // an entry that starts as a NEFF could not be read to its end
)

// Entry is one NEFF found in a zip.
type Entry struct {
	Name string
	// Stored is true for an uncompressed entry: its bytes are the file's bytes
	// [Offset, Offset+Size).
	Stored bool
	Offset int64
	Size   int64
	// Integrity is the header check's verdict: "ok" or "mismatch" (a NEFF header whose payload
	// hash does not match is still listed, so the user sees it).
	Integrity string
	UUID      string
	file      *zip.File
}

// Result is what Find found: the NEFFs, and the findings on entries it refused or could not read.
type Result struct {
	Entries  []*Entry
	Findings []doc.Finding
}

// Open returns a reader of the entry's NEFF bytes (stored: straight from r; deflated: through
// the decompressor), never more than Size bytes.
func (e *Entry) Open(r io.ReaderAt) (io.ReadCloser, error) {
	if e.Stored {
		return io.NopCloser(io.NewSectionReader(r, e.Offset, e.Size)), nil
	}
	rc, err := e.file.Open()
	if err != nil {
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{io.LimitReader(rc, e.Size), rc}, nil
}

// Find lists the NEFFs in a zip under DefaultLimits.
func Find(r io.ReaderAt, size int64) (*Result, error) { return FindWith(r, size, DefaultLimits) }

// FindWith lists the NEFFs in a zip, in the zip's entry order. A file that is not a zip, or
// whose directory is past the limit, is an error; entries that are not NEFFs are skipped.
func FindWith(r io.ReaderAt, size int64, lim Limits) (*Result, error) {
	res := &Result{}
	if dir, ok := directorySize(r, size); ok && dir > uint64(lim.MaxDirectory) {
		n := &doc.Node{}
		n.Flag(CodeDirectory, doc.Error, nil, "the zip's central directory is %d bytes, past the limit of %d (zipneff.Limits.MaxDirectory): not read", dir, lim.MaxDirectory)
		res.Findings = n.Findings
		return res, fmt.Errorf("the zip's central directory is %d bytes, past the limit of %d [%s]", dir, lim.MaxDirectory, CodeDirectory)
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("not a zip file (a TorchScript .pt is one): %w", err)
	}
	type span struct {
		start, end int64
		k          int
	}
	var spans []span
	offsets := make([]int64, len(zr.File))
	for k, zf := range zr.File {
		offsets[k] = -1
		if zf.FileInfo().IsDir() {
			continue
		}
		off, err := zf.DataOffset()
		if err != nil || off < 0 || zf.CompressedSize64 > uint64(size) || off > size-int64(zf.CompressedSize64) {
			continue
		}
		offsets[k] = off
		// A local header is at least 30 bytes before its data: a range that starts in another
		// entry's data is an overlap whether it is its header or its data that lies there.
		spans = append(spans, span{off - 30, off + int64(zf.CompressedSize64), k})
	}
	slices.SortFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return cmpInt(a.start, b.start)
		}
		return cmpInt(a.k, b.k)
	})
	overlaps := map[int]bool{}
	far := -1 // the span reaching furthest so far
	for i, s := range spans {
		if far >= 0 && s.start < spans[far].end {
			overlaps[s.k], overlaps[spans[far].k] = true, true
		}
		if far < 0 || s.end > spans[far].end {
			far = i
		}
	}
	var bombs, overlapped, damaged []string
	for k, zf := range zr.File {
		if offsets[k] < 0 || zf.UncompressedSize64 < neff.HeaderSize {
			continue
		}
		if overlaps[k] {
			overlapped = append(overlapped, zf.Name)
			continue
		}
		if zf.Method != zip.Store && bomb(zf, lim) {
			bombs = append(bombs, zf.Name)
			continue
		}
		e := &Entry{Name: zf.Name, Size: int64(zf.UncompressedSize64), file: zf}
		if zf.Method == zip.Store {
			if zf.UncompressedSize64 != zf.CompressedSize64 {
				continue
			}
			e.Stored, e.Offset = true, offsets[k]
		}
		isNEFF, err := e.check(r)
		if err != nil {
			damaged = append(damaged, zf.Name)
			continue
		}
		if isNEFF {
			res.Entries = append(res.Entries, e)
		}
	}
	n := &doc.Node{}
	if len(overlapped) > 0 {
		n.Flag(CodeOverlap, doc.Warning, nil, "%d zip entries share their bytes with another entry (%s): refused, as a zip that names one entry's data many times is built to make its reader work many times over", len(overlapped), firstNames(overlapped))
	}
	if len(bombs) > 0 {
		n.Flag(CodeBomb, doc.Warning, nil, "%d zip entries declare more than %d bytes or inflate more than %d:1 (zipneff.Limits MaxEntrySize, MaxRatio) (%s): not inflated", len(bombs), lim.MaxEntrySize, lim.MaxRatio, firstNames(bombs))
	}
	if len(damaged) > 0 {
		n.Flag(CodeDamaged, doc.Warning, nil, "%d zip entries start with a NEFF header but could not be read to the end of their payload (%s)", len(damaged), firstNames(damaged))
	}
	res.Findings = n.Findings
	return res, nil
}

func cmpInt[T int | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// bomb says whether a deflated entry is past the size or ratio limit.
func bomb(zf *zip.File, lim Limits) bool {
	u, c := zf.UncompressedSize64, zf.CompressedSize64
	if u > uint64(lim.MaxEntrySize) {
		return true
	}
	return u > ratioFloor && (c == 0 || u/c >= uint64(lim.MaxRatio))
}

// firstNames quotes the first three names, and says how many more there are.
func firstNames(names []string) string {
	var b strings.Builder
	for i, s := range names[:min(3, len(names))] {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", s)
	}
	if len(names) > 3 {
		fmt.Fprintf(&b, " and %d more", len(names)-3)
	}
	return b.String()
}

// check reads the header and, when it is a NEFF's, streams the payload through its hash.
// An error is an entry that starts as a NEFF but cannot be read to its payload's end.
func (e *Entry) check(r io.ReaderAt) (bool, error) {
	rc, err := e.Open(r)
	if err != nil {
		return false, nil
	}
	defer rc.Close()
	head := make([]byte, neff.HeaderSize)
	if _, err := io.ReadFull(rc, head); err != nil {
		return false, nil
	}
	h := neff.ParseHeader(head)
	if (h.PkgVersion != 1 && h.PkgVersion != 2) || h.HeaderSize != neff.HeaderSize || h.DataSize > uint64(e.Size) || h.DataSize+neff.HeaderSize > uint64(e.Size) {
		return false, nil
	}
	var sum hash.Hash = md5.New()
	if h.PkgVersion == 1 {
		sum = sha256.New()
	}
	if _, err := io.CopyN(sum, rc, int64(h.DataSize)); err != nil {
		return false, err
	}
	e.Integrity = doc.IntegrityMismatch
	if h.DigestMatches(sum.Sum(nil)) {
		e.Integrity = doc.IntegrityOK
	}
	e.UUID = h.UUIDString()
	return true, nil
}

// directorySize reads the central directory's size from the end-of-central-directory record
// (zip64's where the record says so); false when there is none (zip.NewReader then says why).
func directorySize(r io.ReaderAt, size int64) (uint64, bool) {
	const eocdLen, maxComment = 22, 65535
	tail := min(size, eocdLen+maxComment)
	b := make([]byte, tail)
	if _, err := r.ReadAt(b, size-tail); err != nil && !errors.Is(err, io.EOF) {
		return 0, false
	}
	le := binary.LittleEndian
	for i := len(b) - eocdLen; i >= 0; i-- {
		if le.Uint32(b[i:]) != 0x06054b50 {
			continue
		}
		dir := uint64(le.Uint32(b[i+12:]))
		if dir != 0xFFFFFFFF || i < 20 || le.Uint32(b[i-20:]) != 0x07064b50 {
			return dir, true
		}
		// The zip64 locator before the record names the zip64 record, whose directory size
		// is at +40.
		var rec [48]byte
		at := le.Uint64(b[i-20+8:])
		if at > uint64(size) || at+48 > uint64(size) {
			return 0, false
		}
		if _, err := r.ReadAt(rec[:], int64(at)); err != nil || le.Uint32(rec[:]) != 0x06064b50 {
			return 0, false
		}
		return le.Uint64(rec[40:]), true
	}
	return 0, false
}
