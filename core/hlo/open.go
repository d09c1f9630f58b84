package hlo

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
)

// InflatedSource is the span source of a gzip'd module's inflated bytes.
const InflatedSource = "(inflated)"

// Match says whether a file name is an HLO module's: XLA's and the Neuron cache's
// *.hlo_module.pb, *.hlo.pb, and either gzip'd.
func Match(name string) bool {
	n := strings.ToLower(name)
	n = strings.TrimSuffix(n, ".gz")
	return strings.HasSuffix(n, ".hlo_module.pb") || strings.HasSuffix(n, ".hlo.pb") || strings.HasSuffix(n, "hlo_module.pb")
}

// IsGzip says whether head starts a gzip stream.
func IsGzip(head []byte) bool { return len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b }

// Open reads the module in r (size bytes): a plain HloModuleProto, or a gzip stream of one.
// The bytes are held (charged to the budget's memory); a file or inflated stream the budget
// cannot hold is read as far as it can, with a coded finding. Held is the wire bytes the
// spans index (the file's own bytes, or the inflated ones under InflatedSource).
func Open(name string, r io.ReaderAt, size int64, opt Options) (m *Module, held []byte) {
	opt.Name = name
	head := make([]byte, min(size, 2))
	n, _ := r.ReadAt(head, 0)
	var notes []func(*doc.Node)
	if IsGzip(head[:n]) {
		b, note := inflate(name, io.NewSectionReader(r, 0, size), opt.Budget)
		opt.Source = InflatedSource
		m = Decode(b, opt)
		m.Gzip = true
		if note != nil {
			note(m.Root)
		}
		m.Root.Detail = fmt.Sprintf("gzip stream of %d B inflating to %d B: an XLA HloModuleProto (spans index the inflated bytes)", size, len(b))
		return m, b
	}
	limit := size
	if left := opt.Budget.Left(budget.Memory) / 2; limit > left {
		limit = left
		notes = append(notes, func(root *doc.Node) {
			root.Errorf(doc.CodeHLOTooBig, doc.At(limit, size-limit), "%s is %d B; the open's memory budget holds its first %d B, so the graph after them is unknown. If the file is trusted, raise the limit: neffscope --max-memory N.", name, size, limit)
		})
	}
	b := make([]byte, 0)
	if opt.Budget.Take(budget.Memory, limit, name) {
		b = make([]byte, limit)
		k, err := r.ReadAt(b, 0)
		b = b[:k]
		if err != nil && !errors.Is(err, io.EOF) {
			notes = append(notes, func(root *doc.Node) {
				root.Errorf(doc.CodeHLOCorrupt, doc.At(int64(k), size-int64(k)), "%s could not be read past byte %d: %v", name, k, err)
			})
		}
	}
	m = Decode(b, opt)
	if len(notes) > 0 {
		m.Partial = true
		if m.Why == "" {
			m.Why = "the file was read only in part"
		}
	}
	for _, f := range notes {
		f(m.Root)
	}
	return m, b
}

// inflate reads a gzip stream into memory, as far as the budget lets it: what it inflated is
// returned even when the stream is damaged or passes the limit, with a note saying so.
func inflate(name string, r io.Reader, bud *budget.Budget) ([]byte, func(*doc.Node)) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, func(root *doc.Node) {
			root.Errorf(doc.CodeHLOGzip, doc.At(0, 10), "%s starts like a gzip stream but its header does not read: %v", name, err)
		}
	}
	limit := min(bud.Left(budget.Memory)/2, bud.Left(budget.Inflate))
	var buf bytes.Buffer
	chunk := make([]byte, 64<<10)
	for {
		k, rerr := zr.Read(chunk)
		if k > 0 {
			if int64(buf.Len()+k) > limit || !bud.Take(budget.Memory, int64(k), name+" (inflating)") {
				bud.Refuse(budget.Memory, name+" (inflating)")
				return buf.Bytes(), func(root *doc.Node) {
					root.Errorf(doc.CodeHLOTooBig, nil, "%s inflates past %d B, more than the open's budget lets it hold; the first %d B are read and the graph after them is unknown. If the file is trusted, raise the limit: neffscope --max-memory N.", name, limit, buf.Len())
				}
			}
			buf.Write(chunk[:k])
		}
		if rerr == io.EOF {
			return buf.Bytes(), nil
		}
		if rerr != nil {
			return buf.Bytes(), func(root *doc.Node) {
				root.Errorf(doc.CodeHLOGzip, nil, "%s: the gzip stream cannot be inflated past %d B (%v); what was inflated is read.", name, buf.Len(), rerr)
			}
		}
	}
}
