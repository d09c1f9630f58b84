package neff

import (
	"fmt"
	"hash/crc32"
	"io"
	"slices"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/neff/internal/inflate"
)

// The seek index: a member the open did not hold used to be read back
// by inflating the payload from its start up to the member (ReadMemberLimit), 63 s in the page
// for a stream deep in the 256 MB real-shaped NEFF. During the open's one walk the inflater
// reports the end of every deflate block (inflate.WithCheckpoints); at the first block end past
// every `spacing` bytes of tar the index keeps a checkpoint: where the next block starts in the
// compressed stream (byte and bit), its tar offset, and the 32 KiB of tar before it (the
// window its back-references may reach). Archive.ReadMember resumes the inflate at the last
// checkpoint at or before the bytes asked (inflate.WithResumeFrom), so a read costs at most one
// spacing of inflate plus the bytes asked, wherever they lie.
//
// Memory is bounded whatever the file: at most indexMaxPoints checkpoints of ~32 KiB each
// (8 MiB); when they are all used, every other one is dropped and the spacing doubles (so the
// spacing is about max(4 MiB, tar length/128..256)). Each checkpoint is charged to the open's
// budget (Memory) and given back when dropped; when the budget has no room, the index stops
// growing (reads past its last checkpoint are slower, never wrong).
//
// Checkpoints are taken only at block ends the inflater reached without error, so they are as
// sound as the bytes the open itself read: a payload that is corrupt or cut at some point has
// no checkpoint past it, and a read resumed before it meets the same error the full walk does.

// indexSpacing is the tar bytes between checkpoints to start with, indexMaxPoints the most an
// index holds (vars so tests can make them small).
var (
	indexSpacing   int64 = 4 << 20
	indexMaxPoints       = 256
)

// gzCheckpoint is one resumption point: the deflate block that starts at tar offset out
// begins at bit `bit` of payload byte start+in.
type gzCheckpoint struct {
	out    int64
	in     int64
	bit    uint8
	window []byte
	// crc is the CRC-32 of the tar's bytes [0, out), set (crcOK) once the gzip reader has
	// handed them over (gzipReader.Read); a read-back checks each stretch it inflates between
	// two checkpoints against them, so a file changed since the open fails the read.
	crc   uint32
	crcOK bool
}

// gzIndex is the seek index of a gzip payload.
type gzIndex struct {
	start   int64 // payload byte where the deflate data begins (after the gzip header)
	spacing int64
	next    int64 // tar offset from which the next checkpoint is taken
	points  []gzCheckpoint
	budget  *budget.Budget
	held    int64 // bytes charged to budget
	full    bool  // the budget refused a checkpoint: the index grows no more
	// pending is the first point whose crc is not set yet.
	pending int
	// end and endCRC: the tar's length and CRC-32, set (ended) when the gzip trailer matched.
	end    int64
	endCRC uint32
	ended  bool
}

func newGzIndex(b *budget.Budget) *gzIndex {
	// The first checkpoint is the start of the deflate data: no window, nothing to skip.
	return &gzIndex{spacing: indexSpacing, next: indexSpacing, points: []gzCheckpoint{{crcOK: true}}, pending: 1, budget: b}
}

// due says whether the index takes a checkpoint at a block end at tar offset out (the
// inflater copies the window only then).
func (x *gzIndex) due(out int64) bool {
	if x.full || out < x.next {
		return false
	}
	if len(x.points) >= indexMaxPoints {
		x.thin()
	}
	return out >= x.next
}

// take keeps a checkpoint the inflater reports.
func (x *gzIndex) take(cp inflate.InflateCheckpoint) {
	cost := int64(len(cp.Window)) + 64
	if !x.budget.Can(budget.Memory, cost) || !x.budget.Take(budget.Memory, cost, "the gzip seek index") {
		x.full = true
		return
	}
	x.held += cost
	x.points = append(x.points, gzCheckpoint{out: cp.UncompressedOffset, in: cp.CompressedOffset, bit: cp.BitOffset, window: slices.Clone(cp.Window)})
	x.next = cp.UncompressedOffset + x.spacing
}

// thin drops every other checkpoint (the first, at offset 0, stays) and doubles the spacing.
func (x *gzIndex) thin() {
	kept := x.points[:1]
	for i := 2; i < len(x.points); i += 2 {
		kept = append(kept, x.points[i])
	}
	var freed int64
	for i := 1; i < len(x.points); i += 2 {
		freed += int64(len(x.points[i].window)) + 64
	}
	clear(x.points[len(kept):])
	x.points = kept
	x.budget.Release(budget.Memory, freed)
	x.held -= freed
	x.spacing *= 2
	x.next = x.points[len(x.points)-1].out + x.spacing
	x.pending = 0
	for x.pending < len(x.points) && x.points[x.pending].crcOK {
		x.pending++
	}
}

// handed records the CRC-32 at the checkpoints that lie within p, the tar's bytes
// [at, at+len(p)) handed over by the gzip reader, d being the CRC of [0, at); it returns the
// CRC of [0, at+len(p)).
func (x *gzIndex) handed(d uint32, at int64, p []byte) uint32 {
	done := int64(0)
	for x.pending < len(x.points) && x.points[x.pending].out <= at+int64(len(p)) {
		k := x.points[x.pending].out - at
		d = crc32.Update(d, crc32.IEEETable, p[done:k])
		done = k
		x.points[x.pending].crc, x.points[x.pending].crcOK = d, true
		x.pending++
	}
	return crc32.Update(d, crc32.IEEETable, p[done:])
}

// at returns the index of the last checkpoint at or before tar offset off.
func (x *gzIndex) at(off int64) int {
	i, _ := slices.BinarySearchFunc(x.points, off, func(p gzCheckpoint, off int64) int {
		if p.out <= off {
			return -1
		}
		return 1
	})
	return max(i-1, 0)
}

// Checkpoints says how many resumption points the open's seek index holds and the bytes they
// take (0, 0: the payload is not gzip, or the open made none).
func (a *Archive) Checkpoints() (n int, bytes int64) {
	if a.index == nil {
		return 0, 0
	}
	for _, p := range a.index.points {
		bytes += int64(len(p.window)) + 64
	}
	return len(a.index.points), bytes
}

// CanSeek says whether ReadMember reads a member without walking the archive before it: the
// payload is gzip with a seek index, or a plain tar.
func (a *Archive) CanSeek() bool {
	return a != nil && (a.index != nil || a.Payload.Encoding == "tar")
}

// firstMember is the first member with the path: the one the full walk of ReadMemberLimit
// reads (Member gives the last, as libnrt's map keeps it).
func (a *Archive) firstMember(path string) *Member {
	for _, m := range a.Members {
		if m.Path == path {
			return m
		}
	}
	return nil
}

// readInflated counts the bytes ReadMember inflated (tests).
var readInflated func(n int64)

// ReadMember writes bytes [off, off+n) of the member path (n < 0: to its end) to w, the bytes
// ReadMemberLimit writes, read from r (the file this archive was opened from): the inflate
// resumes at the seek index's last checkpoint before them, so it costs at most one spacing
// plus the bytes asked, not the whole tar before the member. A plain tar payload is read in
// place. Without an index (the open did not read the payload as gzip) or for a member the open
// found truncated, it is the full walk (ReadMemberLimit). maxInflated bounds the bytes inflated
// (0: DefaultMaxInflated).
func (a *Archive) ReadMember(r io.ReaderAt, path string, off, n int64, w io.Writer, maxInflated int64) error {
	m := a.firstMember(path)
	if m == nil || m.Truncated || (a.index == nil && a.Payload.Encoding != "tar") {
		return ReadMemberLimit(r, a.FileSize, path, off, n, w, maxInflated)
	}
	if maxInflated <= 0 {
		maxInflated = DefaultMaxInflated
	}
	lo, end := max(off, 0), m.Size
	if n >= 0 {
		end = min(end, off+n)
	}
	if lo >= end {
		return nil
	}
	from, to := m.DataOffset+lo, m.DataOffset+end
	if a.Payload.Encoding == "tar" {
		_, err := io.Copy(w, io.NewSectionReader(r, HeaderSize+from, to-from))
		return err
	}
	p, ok := a.PlanSpan(from, to)
	if !ok {
		return ReadMemberLimit(r, a.FileSize, path, off, n, w, maxInflated)
	}
	return p.Read(r, fmt.Sprintf("member %q", path), func(_ int64, b []byte) error {
		_, err := w.Write(b)
		return err
	}, maxInflated)
}
