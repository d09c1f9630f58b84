package neff

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/neff/internal/inflate"
	"github.com/neffscope/neffscope/core/wirefields"
)

// A SpanPlan is what reading tar bytes [From, To) again takes, without the Archive: where the
// inflate resumes (the seek index's last checkpoint before From, with its 32 KiB window) and
// the CRC-32 the open saw at every checkpoint up to where the read stops. A reader elsewhere
// (the page's pool workers, each with the File; a goroutine) reads its own stretch of the
// archive with it, checked as ReadMember checks: the inflate is in order once, in the open,
// and every read after it may run beside the others.
type SpanPlan struct {
	// Encoding is the payload's: "gzip" (resumed at a checkpoint) or "tar" (read in place).
	Encoding string
	// Start is the payload byte where the deflate data begins; Available how many payload
	// bytes the file holds.
	Start, Available int64
	// From and To are the tar bytes asked; Stop where the inflate stops: the first
	// checkpoint at or past To whose CRC is known, the tar's end, or To.
	From, To, Stop int64
	// Resume is where the inflate starts (its UncompressedOffset ≤ From), CRC the CRC-32 of
	// the tar bytes before it (CRCOK: known).
	Resume inflate.InflateCheckpoint
	CRC    uint32
	CRCOK  bool
	// Checks are the checkpoints after Resume up to Stop, each with the CRC-32 of the tar
	// before it; EndCRC is the tar's (EndOK: Stop is the tar's end and its trailer matched).
	Checks []SpanCheck
	EndCRC uint32
	EndOK  bool
}

// SpanCheck is the CRC-32 of the tar bytes before Out, as the open saw them (OK: known).
type SpanCheck struct {
	Out int64
	CRC uint32
	OK  bool
}

// PlanSpan is the plan to read tar bytes [from, to) again; false when the archive has no
// seek index (its payload was not read as gzip) and is no plain tar: only the walk from the
// payload's start reads it then (ReadMemberLimit).
func (a *Archive) PlanSpan(from, to int64) (*SpanPlan, bool) {
	if a == nil || from < 0 || to < from {
		return nil, false
	}
	if a.Payload.Encoding == "tar" {
		return &SpanPlan{Encoding: "tar", Available: a.Payload.Available, From: from, To: to, Stop: to}, true
	}
	x := a.index
	if x == nil {
		return nil, false
	}
	i := x.at(from)
	cp := x.points[i]
	p := &SpanPlan{Encoding: "gzip", Start: x.start, Available: a.Payload.Available, From: from, To: to, Stop: to,
		Resume: inflate.InflateCheckpoint{UncompressedOffset: cp.out, CompressedOffset: cp.in, BitOffset: cp.bit, Window: cp.window},
		CRC:    cp.crc, CRCOK: cp.crcOK}
	// Inflate to the first checkpoint at or past `to` (or the tar's end), so every stretch
	// read is checked against the CRC-32 the open saw; a stretch with no CRC at its end (a
	// payload damaged after the last checkpoint) is read unchecked, as the walk did.
	j := i + 1
	for j < len(x.points) && x.points[j].out < to {
		j++
	}
	if j < len(x.points) && x.points[j].crcOK {
		p.Stop = x.points[j].out
	} else if j == len(x.points) && x.ended {
		p.Stop, p.EndCRC, p.EndOK = x.end, x.endCRC, true
	}
	for k := i + 1; k < len(x.points) && x.points[k].out <= p.Stop; k++ {
		p.Checks = append(p.Checks, SpanCheck{Out: x.points[k].out, CRC: x.points[k].crc, OK: x.points[k].crcOK})
	}
	return p, true
}

// Read inflates the plan's stretch out of r (the file the archive was opened from) and hands
// the tar bytes [From, To) to w in order, with the tar offset of each piece; what w returns
// stops the read. A stretch whose CRC-32 differs from the open's is an error (the file
// changed); maxInflated bounds the bytes inflated (0: DefaultMaxInflated). what names the
// bytes in errors (a member).
func (p *SpanPlan) Read(r io.ReaderAt, what string, w func(off int64, b []byte) error, maxInflated int64) error {
	if p.From >= p.To {
		return nil
	}
	if p.Encoding == "tar" {
		buf := make([]byte, min(streamBufBytes, p.To-p.From))
		for pos := p.From; pos < p.To; {
			k := min(int64(len(buf)), p.To-pos)
			n, err := r.ReadAt(buf[:k], HeaderSize+pos)
			if n > 0 {
				if werr := w(pos, buf[:n]); werr != nil {
					return werr
				}
			}
			pos += int64(n)
			if err != nil && (pos < p.To || !errors.Is(err, io.EOF)) {
				return fmt.Errorf("%s could not be read again at tar byte %d: %w", what, pos, err)
			}
		}
		return nil
	}
	if maxInflated <= 0 {
		maxInflated = DefaultMaxInflated
	}
	cp := p.Resume
	if p.Stop-cp.UncompressedOffset > maxInflated {
		return fmt.Errorf("%w: reading %s back would inflate %d bytes, more than the limit of %d", budget.ErrLimit, what, p.Stop-cp.UncompressedOffset, maxInflated)
	}
	at := p.Start + cp.CompressedOffset
	if at < 0 || at > p.Available {
		return fmt.Errorf("%s: its read plan resumes at payload byte %d, outside the payload's %d bytes", what, at, p.Available)
	}
	br := bufio.NewReaderSize(io.NewSectionReader(r, HeaderSize+at, p.Available-at), 64<<10)
	src := inflate.NewReaderOpts(br, inflate.WithResumeFrom(cp))
	changed := func(pos int64) error {
		return fmt.Errorf("%s read again differs from what the open read (tar bytes before %d): the file has changed since it was opened", what, pos)
	}
	d, check := p.CRC, p.CRCOK
	next := 0 // the next check
	buf := make([]byte, min(streamBufBytes, max(1, p.Stop-cp.UncompressedOffset)))
	for pos := cp.UncompressedOffset; pos < p.Stop; {
		k := min(int64(len(buf)), p.Stop-pos)
		if pos < p.From {
			k = min(k, p.From-pos)
		} else if pos < p.To {
			k = min(k, p.To-pos)
		}
		if next < len(p.Checks) {
			k = min(k, p.Checks[next].Out-pos)
		}
		got, err := io.ReadFull(src, buf[:k])
		if readInflated != nil {
			readInflated(int64(got))
		}
		d = crc32.Update(d, crc32.IEEETable, buf[:got])
		if pos >= p.From && pos < p.To && got > 0 {
			if werr := w(pos, buf[:min(int64(got), p.To-pos)]); werr != nil {
				return werr
			}
		}
		pos += int64(got)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			// The open inflated this stretch without error (checkpoints are only taken where it
			// did), so the file has changed, or was damaged past the last checkpoint.
			return fmt.Errorf("%s could not be read again at tar byte %d (the open read it whole: has the file changed since?): %w", what, pos, err)
		}
		if next < len(p.Checks) && pos == p.Checks[next].Out {
			if c := p.Checks[next]; check && c.OK && d != c.CRC {
				return changed(pos)
			}
			check, d = p.Checks[next].OK, p.Checks[next].CRC
			next++
		}
	}
	if check && p.EndOK && next == len(p.Checks) && d != p.EndCRC {
		return changed(p.Stop)
	}
	return nil
}

// spanPlanVersion is the first field of a plan's encoding: a reader refuses another.
const spanPlanVersion = 1

// AppendBinary appends the plan's encoding (protobuf wire fields) to b: what a pool job
// carries to the worker that reads the stretch.
func (p *SpanPlan) AppendBinary(b []byte) []byte {
	w := wirefields.Writer{B: b}
	w.Uint(1, spanPlanVersion)
	w.Text(2, p.Encoding)
	w.Uint(3, uint64(p.Start))
	w.Uint(4, uint64(p.Available))
	w.Uint(5, uint64(p.From))
	w.Uint(6, uint64(p.To))
	w.Uint(7, uint64(p.Stop))
	w.Uint(8, uint64(p.Resume.UncompressedOffset))
	w.Uint(9, uint64(p.Resume.CompressedOffset))
	w.Uint(10, uint64(p.Resume.BitOffset))
	w.Bytes(11, p.Resume.Window)
	w.Uint(12, uint64(p.CRC))
	w.Uint(13, boolBit(p.CRCOK))
	for _, c := range p.Checks {
		w.Uint(14, uint64(c.Out))
		w.Uint(15, uint64(c.CRC)<<1|boolBit(c.OK))
	}
	w.Uint(16, uint64(p.EndCRC))
	w.Uint(17, boolBit(p.EndOK))
	return w.B
}

func boolBit(v bool) uint64 {
	if v {
		return 1
	}
	return 0
}

// ParseSpanPlan reads a plan AppendBinary wrote. The bytes come from the page's own core, but
// a plan is checked all the same: offsets in order and in range, a window of at most 32 KiB,
// a known encoding; never a panic.
func ParseSpanPlan(b []byte) (*SpanPlan, error) {
	p := &SpanPlan{}
	var version uint64
	var out []int64
	var crcs []uint64
	for r := wirefields.NewReader(b); r.More(); {
		num, v, bs, err := r.Next()
		if err != nil {
			return nil, fmt.Errorf("a span plan's %w", err)
		}
		switch num {
		case 2:
			p.Encoding = string(bs)
		case 11:
			p.Resume.Window = append([]byte(nil), bs...)
		case 1:
			version = v
		case 3:
			p.Start = int64(v)
		case 4:
			p.Available = int64(v)
		case 5:
			p.From = int64(v)
		case 6:
			p.To = int64(v)
		case 7:
			p.Stop = int64(v)
		case 8:
			p.Resume.UncompressedOffset = int64(v)
		case 9:
			p.Resume.CompressedOffset = int64(v)
		case 10:
			p.Resume.BitOffset = uint8(v)
		case 12:
			p.CRC = uint32(v)
		case 13:
			p.CRCOK = v != 0
		case 14:
			out = append(out, int64(v))
		case 15:
			crcs = append(crcs, v)
		case 16:
			p.EndCRC = uint32(v)
		case 17:
			p.EndOK = v != 0
		}
	}
	if version != spanPlanVersion {
		return nil, fmt.Errorf("a span plan of version %d (this core reads %d)", version, spanPlanVersion)
	}
	if len(out) != len(crcs) {
		return nil, fmt.Errorf("a span plan with %d checkpoints but %d CRCs", len(out), len(crcs))
	}
	for i := range out {
		p.Checks = append(p.Checks, SpanCheck{Out: out[i], CRC: uint32(crcs[i] >> 1), OK: crcs[i]&1 != 0})
	}
	return p, p.check()
}

// check refuses a plan whose offsets are out of order or range.
func (p *SpanPlan) check() error {
	bad := func(format string, args ...any) error { return fmt.Errorf("a bad span plan: "+format, args...) }
	switch {
	case p.Encoding != "gzip" && p.Encoding != "tar":
		return bad("encoding %q", p.Encoding)
	case p.From < 0 || p.To < p.From || p.Stop < p.To && p.Encoding == "gzip":
		return bad("tar bytes [%d, %d) stopping at %d", p.From, p.To, p.Stop)
	case p.Start < 0 || p.Available < 0 || p.Resume.CompressedOffset < 0 || p.Resume.BitOffset > 7:
		return bad("payload offsets %d, %d, %d (bit %d)", p.Start, p.Available, p.Resume.CompressedOffset, p.Resume.BitOffset)
	case p.Encoding == "gzip" && (p.Resume.UncompressedOffset < 0 || p.Resume.UncompressedOffset > p.From):
		return bad("resuming at tar byte %d, past %d", p.Resume.UncompressedOffset, p.From)
	case len(p.Resume.Window) > 32<<10:
		return bad("a window of %d bytes", len(p.Resume.Window))
	}
	last := p.Resume.UncompressedOffset
	for _, c := range p.Checks {
		if c.Out <= last || c.Out > p.Stop {
			return bad("a checkpoint at tar byte %d after %d (stop %d)", c.Out, last, p.Stop)
		}
		last = c.Out
	}
	return nil
}
