package pool

// The .dbg scan job: a run of .dbg members read again and scanned (dbg.Scanner), each
// answered with its Compact's wire form, or why not.

import (
	"context"
	"fmt"
	"github.com/neffscope/neffscope/core/wirefields"
	"io"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/neff"
	"google.golang.org/protobuf/encoding/protowire"
)

// ScanJob is the job that scans ms, a run of .dbg members of a (Stretches), holding at most
// memory bytes for the scans (the share of the open's budget the caller reserved for it) and
// inflating at most inflate bytes; false when a cannot be read back in stretches (no seek
// index).
func ScanJob(a *neff.Archive, ms []*neff.Member, memory, inflate int64) (Job, bool) {
	p, ok := planFor(a, ms)
	if !ok {
		return Job{}, false
	}
	return Job{Kind: KindScan, Data: encodeJob(p, ms, memory, inflate), Bytes: p.Stop - p.Resume.UncompressedOffset}, true
}

// Scanned is one member's answer: its Compact (nil: Refused or Err says why), and what the
// scan held at its close (the charge its Compact settles to).
type Scanned struct {
	Path    string
	Offset  int64 // data offset in the tar
	Compact *dbg.Compact
	// Held is what the Compact held when the scan closed: the charge one thread's scan settles
	// to, which the caller takes from the open's budget.
	Held int64
	// Refused: the job's memory refused the scan midway (dbg.Scanner.Failed), as the open's
	// budget would have.
	Refused bool
	Err     string
}

// runScan is the worker's side of a scan job.
func runScan(ctx context.Context, data []byte, r io.ReaderAt, pause func()) ([]byte, error) {
	j, err := parseJob(data)
	if err != nil {
		return nil, err
	}
	b := budget.New(budget.Limits{Memory: max(j.memory, 1)})
	scans := make([]*dbg.Scanner, len(j.members))
	for k, m := range j.members {
		sc := dbg.NewScanner(m.Path, m.Size)
		where := "debug info " + m.Path
		sc.Grow = func(n int64) bool { return b.Take(budget.Memory, n, where) }
		scans[k] = sc
	}
	readErr := j.feed(ctx, r, pause, func(k int, _ int64, p []byte) bool {
		scans[k].Write(p)
		return !scans[k].Failed()
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []byte
	for k, m := range j.members {
		e := answerHead(m.Path, m.DataOffset)
		c := scans[k].Close()
		switch {
		case c != nil:
			enc, err := c.AppendBinary(nil)
			if err != nil {
				return nil, err
			}
			e = protowire.AppendTag(e, 3, protowire.BytesType)
			e = protowire.AppendBytes(e, enc)
			e = protowire.AppendTag(e, 6, protowire.VarintType)
			e = protowire.AppendVarint(e, uint64(c.Held()))
		case scans[k].Failed():
			e = protowire.AppendTag(e, 4, protowire.VarintType)
			e = protowire.AppendVarint(e, 1)
		default:
			why := "its bytes did not all come"
			if readErr != nil {
				why = readErr.Error()
			}
			e = protowire.AppendTag(e, 5, protowire.BytesType)
			e = protowire.AppendString(e, why)
		}
		out = protowire.AppendTag(out, 1, protowire.BytesType)
		out = protowire.AppendBytes(out, e)
	}
	return out, nil
}

// ParseScanned reads a scan job's answer.
func ParseScanned(b []byte) ([]Scanned, error) {
	var out []Scanned
	err := wirefields.Each(b, func(_ protowire.Number, _ uint64, e []byte) error {
		var s Scanned
		err := wirefields.Each(e, func(num protowire.Number, v uint64, p []byte) error {
			var err error
			switch num {
			case 1:
				s.Path = string(p)
			case 2:
				s.Offset = int64(v)
			case 3:
				s.Compact, err = dbg.ParseCompact(p)
			case 4:
				s.Refused = v != 0
			case 5:
				s.Err = string(p)
			case 6:
				s.Held = int64(v)
			}
			return err
		})
		if err == nil && s.Compact == nil && !s.Refused && s.Err == "" {
			err = fmt.Errorf("the scan of %s answered nothing", s.Path)
		}
		out = append(out, s)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("a scan job's answer: %w", err)
	}
	return out, nil
}
