package neff

import (
	"bufio"
	"errors"
	"io"

	"github.com/neffscope/neffscope/core/doc"
)

// readPayloadInflated reads a gzip payload whose inflated bytes come from Options.Inflate; it
// returns false (nothing done) when the payload is not a gzip member it can hand over. The
// zero padding is not read: the inflater's input stopped at the payload's last non-zero byte,
// so whatever follows the member is zero by construction.
func (a *Archive) readPayloadInflated(r io.ReaderAt, length int64, opt Options) bool {
	head := make([]byte, 2)
	if n, _ := r.ReadAt(head, HeaderSize); n < 2 || head[0] != 0x1f || head[1] != 0x8b {
		return false
	}
	gz, err := newGzipReader(bufio.NewReaderSize(io.NewSectionReader(r, HeaderSize, length), 4096))
	if err != nil {
		return false // neff's own path reports the unreadable header
	}
	inf := opt.Inflate()
	if inf == nil {
		return false
	}
	a.Payload.Encoding = "gzip"
	a.Payload.GzipMTime, a.Payload.GzipOS, a.Payload.GzipXFL = gz.ModTime, gz.OS, gz.XFL
	var walked int64
	pr := &inflatedReader{inf: inf, opt: &opt, total: length, walked: &walked}
	lim := &limitReader{r: pr, left: opt.MaxInflated}
	w := &walker{a: a, r: lim, opt: &opt, walked: &walked}
	w.walk()
	a.Payload.TarLength = w.pos
	fail := func(err error) bool {
		a.InflateErr = err
		return true
	}
	switch {
	case opt.Context.Err() != nil:
		a.report("payload", doc.Warning, nil, "reading was cancelled at payload byte %d of %d; the integrity check was not done.", inf.Compressed(), length)
		a.Complete = false
		return true
	case lim.hit:
		a.inflateLimited(w.pos, opt)
		a.Complete = false
	case w.readErr != nil:
		return fail(w.readErr)
	case !w.clean:
		return fail(errors.New("the tar walk stopped early"))
	default:
		if _, err := io.Copy(io.Discard, pr); err != nil {
			return fail(err)
		}
		if pr.err != io.EOF {
			return fail(errors.New("the gzip member did not end"))
		}
		a.Payload.GzipLength = inf.Compressed()
		a.Complete = true
		if opt.Progress != nil {
			opt.Progress(Progress{Phase: "padding", Done: a.Payload.GzipLength, Total: length})
		}
		a.Payload.PaddingBytes = length - a.Payload.GzipLength
	}
	if sum := a.payloadDigest(r, length, opt); sum != nil {
		a.checkIntegrity(sum)
	} else {
		a.report("payload", doc.Warning, nil, "reading was cancelled at payload byte %d of %d; the integrity check was not done.", length, length)
		a.Complete = false
		return true
	}
	if opt.Progress != nil {
		opt.Progress(Progress{Phase: "done", Done: length, Total: length, Inflated: walked})
	}
	return true
}

// inflatedReader reads an Inflater, reporting progress every 4 MiB of payload consumed.
type inflatedReader struct {
	inf    Inflater
	opt    *Options
	total  int64
	walked *int64
	next   int64
	err    error
}

func (p *inflatedReader) Read(b []byte) (int, error) {
	if err := p.opt.Context.Err(); err != nil {
		return 0, err
	}
	n, err := p.inf.Read(b)
	if err != nil {
		p.err = err
	}
	if p.opt.Progress != nil {
		if done := p.inf.Compressed(); done >= p.next {
			p.next = done + 4<<20
			p.opt.Progress(Progress{Phase: "payload", Done: done, Total: p.total, Inflated: *p.walked})
		}
	}
	return n, err
}
