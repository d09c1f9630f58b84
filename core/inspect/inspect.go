// Package inspect is the front door of the core: it sniffs a file, picks a decoder from one
// registry table, and returns one Document; it is where artifact packages meet (joins). The
// page (through the wasm worker) and the CLI both call Open, so they show the same tree.
package inspect

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/dbg"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/dvetable"
	"github.com/neffscope/neffscope/core/hlo"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/jsonspan"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/pool"
	"github.com/neffscope/neffscope/core/pwp"
	"github.com/neffscope/neffscope/core/srcmap"
)

// Options tune Open.
type Options struct {
	Context context.Context
	// Progress reports reading progress (phase, bytes).
	Progress func(Progress)
	// OnHeader, for NEFFs, receives the document with only the header decoded, as soon as it is.
	OnHeader func(*doc.Document)
	// OnPartial, for NEFFs, receives a partial overview (PartialOverview: what the overview
	// can say from the header and the members listed so far) while the archive is read: once
	// right after the header, then at most every PartialEvery as members stream past, and
	// once when the walk over the archive ends; never after Open returns. It is called on the
	// goroutine that runs Open.
	OnPartial func(*doc.Node)
	// PartialEvery is the least time between two OnPartial calls (0: 200 ms; negative: no
	// least time, a call at every chunk of the walk, for tests).
	PartialEvery time.Duration
	// MaxInflated bounds decompression (0: Limits.Inflate).
	MaxInflated int64
	// Limits is the whole-file budget of the open (zero fields: budget.Native()); past it,
	// decoding degrades to spans and hex, and one finding on the root names the limit.
	Limits budget.Limits
	// Within is the budget of a command over several files, shared by their opens: the open's
	// own budget (Limits) takes what it holds from it too (budget.Within). Nil: its own alone.
	Within *budget.Budget
	// Fingerprint computes the whole file's SHA-256 (the library and URL key) in the same pass.
	Fingerprint bool
	// DeferMemberHashes, for NEFFs, leaves the members' SHA-256 out of the open (the page:
	// Go's SHA-256 in wasm was most of a big open); File.HashMembers and ApplyMemberHashes
	// add them afterwards, making the Document the one a hashing open gives.
	DeferMemberHashes bool
	// DeferSource, for NEFFs, leaves the .dbg members' scan and the source-line joins out of
	// the open (info prints neither; the page shows the overview first): File.IndexSource and
	// ApplySource add them afterwards, making the Document the one an eager open gives.
	DeferSource bool
	// DeferSourceOver, with DeferSource, maps the source lines in the open after all when the
	// NEFF's .dbg members are all held and hold at most this many bytes (0: always deferred):
	// a few KB cost the page less to map than a second redraw (matmul_small: 10 KB).
	DeferSourceOver int64
	// SourceAhead, with DeferSource, is the pool the source lines will be mapped in
	// (IndexSourceIn): once the archive is walked its workers start scanning the .dbg members
	// not held, while this thread resolves the model (srcmap.Prefetch). Its answers wait in the
	// pool until the mapping asks for them; the Document is the same either way.
	SourceAhead pool.Pool
	// PayloadDigest, for NEFFs, supplies the payload's hash computed by another party
	// (neff.Options.PayloadDigest): the open does not hash the payload itself.
	PayloadDigest func(algo string) []byte
}

// Progress is where an Open is.
type Progress struct {
	Phase    string `json:"phase"`
	Done     int64  `json:"done"`
	Total    int64  `json:"total"`
	Inflated int64  `json:"inflated"`
}

// File is an opened file: its Document, and what is needed to fetch more bytes on demand.
type File struct {
	Name    string
	Size    int64
	Doc     *doc.Document
	Archive *neff.Archive // nil unless the file is a NEFF
	Program *Program      // the resolved program of a NEFF (nil otherwise)
	NTFF    *ntff.Profile // a device profile (nil unless the file is an NTFF)
	r       io.ReaderAt
	// act holds loose activation tables (OpenGroup, or one table file opened alone); group
	// maps the names of files opened together to their readers (span sources).
	act   *pwp.Bundle
	group map[string]NamedReader
	// window caches the last stretch of a member read back from the archive (Bytes).
	window cachedWindow
	// dbg is a .dbg file opened alone, kept to serve its records by range (Rows).
	dbg *dbg.File
	// Budget is what the open spent of its limits (and the first one refused, if any).
	Budget *budget.Budget
	// links maps what a listing row can lead to (linkKey forms) to node links (Overview).
	links map[string]string
	// sourcePending: the open had DeferSource and the NEFF has .dbg members to map.
	sourcePending bool
	// forests build the JSON nodes not held (stubs with json: refs) of JSON that is not a
	// manifest (those are the Program's Model.Forests), by source ("" for the file itself).
	forests map[string]*jsonspan.Forest
	// resident holds the JSON members read back (readBackJSON), about one at a time;
	// readBackCharged is what the open charged for them (given back when it lets them go).
	resident        *jsonspan.Resident
	readBackCharged int64
	// packed holds the engine streams up to streamHoldMax compressed (neff.Packed): the
	// open's joins walk them, the listing and the hex view read them, and none is held whole.
	packed map[*neff.Member]*neff.Packed
	// HLO is the model of an XLA HLO module opened alone (nil otherwise); hloInflated holds a
	// gzip'd module's inflated bytes, the span source hlo.InflatedSource.
	HLO         *hlo.Module
	hloInflated []byte
}

// decoder is one row of the registry.
type decoder struct {
	kind string
	// match looks at the name and the first bytes (up to 4 KiB).
	match  func(name string, head []byte, size int64) bool
	decode func(f *File, opt Options) *doc.Node
}

// registry is the one table of artifact kinds, tried in order; the last row matches anything.
var registry = []decoder{
	{"neff", matchNEFF, decodeNEFF},
	{"ntff", matchNTFF, decodeNTFF},
	{"ncfw-dump", matchNcfwDump, decodeNcfwDump},
	{"pwp", matchPWP, decodePWP},
	{"dbg", matchDbg, decodeDbg},
	{"hlo-module", matchHLO, decodeHLO},
	{"dve-table", matchDVETable, decodeDVETable},
	{"json", matchJSON, decodeJSON},
	{"binary", func(string, []byte, int64) bool { return true }, decodeBinary},
}

// Open decodes one file. It never fails: problems are findings in the Document.
func Open(name string, r io.ReaderAt, size int64, opt Options) *File {
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	head := make([]byte, min(size, 4096))
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	lim := opt.Limits
	if opt.MaxInflated > 0 {
		lim.Inflate = opt.MaxInflated
	}
	f := &File{Name: name, Size: size, r: r, Budget: budget.New(lim)}
	if opt.Within != nil {
		f.Budget = opt.Within.Within(lim)
	}
	for _, d := range registry {
		if d.match(name, head, size) {
			f.Doc = &doc.Document{Model: doc.ModelVersion, File: name, Size: size, Kind: d.kind}
			f.Doc.Root = d.decode(f, opt)
			break
		}
	}
	// One finding for the whole open names the first limit reached (the inflate limit has its
	// own, from the archive walk).
	if e := f.Budget.First(); e != nil && e.Kind != budget.Inflate && f.Doc.Root != nil {
		f.Doc.Root.Errorf(f.Budget.First().Kind.Code(), nil, "%s", f.Budget.Message())
	}
	if opt.Fingerprint && f.Doc.SHA256 == "" {
		h := sha256.New()
		if _, err := io.Copy(h, io.NewSectionReader(r, 0, size)); err == nil {
			f.Doc.SHA256 = hex.EncodeToString(h.Sum(nil))
		}
	}
	return f
}

// Bytes returns n bytes at off of a source: "" for the file itself, or a member path.
// Members held in memory are served from there; others are streamed from the file.
func (f *File) Bytes(source string, off, n int64) ([]byte, error) {
	if off < 0 || n < 0 {
		return nil, fmt.Errorf("bad range %d+%d", off, n)
	}
	if source == "" {
		if off > f.Size {
			off = f.Size
		}
		n = min(n, f.Size-off)
		b := make([]byte, n)
		m, err := f.r.ReadAt(b, off)
		if err != nil && !errors.Is(err, io.EOF) {
			return b[:m], err
		}
		return b[:m], nil
	}
	if source == hlo.InflatedSource && f.hloInflated != nil {
		lo := min(off, int64(len(f.hloInflated)))
		return f.hloInflated[lo:min(lo+n, int64(len(f.hloInflated)))], nil
	}
	if nf, ok := f.group[source]; ok {
		g := &File{Name: nf.Name, Size: nf.Size, r: nf.R}
		return g.Bytes("", off, n)
	}
	if f.Archive == nil {
		if source == f.Name {
			return f.Bytes("", off, n)
		}
		return nil, fmt.Errorf("%s is not a container; it has no member %q", f.Name, source)
	}
	m := f.Archive.Member(source)
	if m == nil {
		return nil, fmt.Errorf("%s has no member %q", f.Name, source)
	}
	if m.Data != nil {
		lo := min(off, int64(len(m.Data)))
		hi := min(lo+n, int64(len(m.Data)))
		return m.Data[lo:hi], nil
	}
	if pk := f.packed[m]; pk != nil {
		b := make([]byte, min(n, max(0, pk.Size()-off)))
		k, err := pk.ReadAt(b, off)
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return b[:k], nil
	}
	// A member not held in memory is read out of the archive again, the inflate resuming at
	// the open's seek index checkpoint before it (neff.Archive.ReadMember). One read fetches
	// a window around the request, so scrolling a hex view through a large member costs one
	// read per window, not one per page.
	w := &f.window
	if w.source != source || off < w.off || off+n > w.off+int64(len(w.data)) && w.off+int64(len(w.data)) < m.Size {
		start := max(0, off-memberWindow/4)
		size := max(n, memberWindow)
		var buf limitedBuffer
		buf.max = size
		if err := f.Archive.ReadMember(f.r, source, start, size, &buf, 0); err != nil {
			return nil, err
		}
		*w = cachedWindow{source: source, off: start, data: buf.b}
	}
	lo := min(off-w.off, int64(len(w.data)))
	hi := min(lo+n, int64(len(w.data)))
	return w.data[lo:hi], nil
}

// MemberBytes returns a whole member's bytes, held or read back out of the archive, refusing
// one over most bytes (budget.ErrLimit) or one the file does not hold (ErrNotFound).
func (f *File) MemberBytes(member string, most int64) ([]byte, error) {
	return f.memberBytes(member, most)
}

// memberBytes returns a whole member's bytes: held, or read back out of the archive.
func (f *File) memberBytes(member string, most int64) ([]byte, error) {
	m := f.Archive.Member(member)
	if m == nil {
		return nil, fmt.Errorf("%w: %s has no member %q", ErrNotFound, f.Name, member)
	}
	if m.Data != nil && !m.Truncated {
		return m.Data, nil
	}
	if pk := f.packed[m]; pk != nil && !m.Truncated {
		b := make([]byte, pk.Size())
		if _, err := pk.ReadAt(b, 0); err != nil {
			return nil, fmt.Errorf("reading %s out of memory: %w", member, err)
		}
		return b, nil
	}
	if m.Size > most {
		return nil, fmt.Errorf("%w: %s is %s, more than the %s neffscope reads back at once", budget.ErrLimit, member, neff.HumanSize(m.Size), neff.HumanSize(most))
	}
	buf := limitedBuffer{max: m.Size, b: make([]byte, 0, m.Size)}
	if err := f.Archive.ReadMember(f.r, member, 0, m.Size, &buf, f.Budget.Limit(budget.Inflate)); err != nil {
		return nil, fmt.Errorf("reading %s again out of the archive: %w", member, err)
	}
	return buf.b, nil
}

// memberWindow is how many bytes of a member one re-read fetches for Bytes.
const memberWindow = 4 << 20

// cachedWindow is the cached window of the last member streamed for Bytes.
type cachedWindow struct {
	source string
	off    int64
	data   []byte
}

type limitedBuffer struct {
	b   []byte
	max int64
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	room := l.max - int64(len(l.b))
	if int64(len(p)) > room {
		p = p[:room]
	}
	l.b = append(l.b, p...)
	return len(p), nil
}

// ---- NEFF ----

func matchNEFF(name string, head []byte, size int64) bool {
	if strings.HasSuffix(strings.ToLower(name), ".neff") {
		return true
	}
	if len(head) < 16 {
		return false
	}
	h := neff.ParseHeader(head)
	return (h.PkgVersion == 1 || h.PkgVersion == 2) && h.HeaderSize == neff.HeaderSize
}

// jsonHoldMax is the largest JSON member the archive walk holds. A bigger one (up to
// manifest.MaxJSONMember) is read back through the seek index when the manifests are resolved
// or the member's tree is built, and let go when the next one needs the room
// (jsonResidentMax): the real-shaped 32 MB NEFF's two 20 MB def.json and 30 MB klir JSON
// were 70 MB held for the life of the open.
var jsonHoldMax int64 = 1 << 20

// jsonResidentMax is the most bytes of the JSON members read back that a file holds at once,
// least recently used let go first (the one being read is always held): the two 20 MB
// def.json and the 30 MB klir JSON of the real-shaped 32 MB NEFF are read one after the other.
const jsonResidentMax = 32 << 20

// readBackJSON reads a JSON member the open did not hold (jsonHoldMax) into a reloadable
// Input on the file's set, read now: the manifests' resolver (manifest.JSONReader) and the
// generic JSON members ask for them here. It is charged to the budget as if held until the
// open ends (refused: an error wrapping budget.ErrLimit).
func (f *File) readBackJSON(path string, size int64) (*jsonspan.Input, error) {
	if !f.Budget.Take(budget.Memory, size, path) {
		return nil, fmt.Errorf("%w: %s (%s) does not fit in the memory left", budget.ErrLimit, path, neff.HumanSize(size))
	}
	f.readBackCharged += size
	if f.resident == nil {
		f.resident = jsonspan.NewResident(jsonResidentMax)
	}
	in := f.resident.Input(size, func() ([]byte, error) { return f.memberBytes(path, manifest.MaxJSONMember) })
	if _, err := in.Bytes(); err != nil {
		return nil, err
	}
	return in, nil
}

// streamHoldMax is the largest instruction stream an open holds in memory (compressed, as
// neff.Packed: the real-shaped 32 MB NEFF's 20 MB of such streams take ~0.3 MB, real code
// about a quarter of its size). A larger one is indexed as it streams past (counts, table
// loads, two-word pairs) and its words are read from the file again when a listing asks for
// them, so a NEFF of hundreds of MB of streams opens in bounded memory.
var streamHoldMax int64 = 8 << 20 // a var so tests can force the on-demand path

// memberWords serves the words of a stream that is not held: windows through File.Bytes, and
// one pass out of the archive for a walk over every word.
type memberWords struct {
	f *File
	m *neff.Member
}

func (w memberWords) ReadAt(p []byte, off int64) (int, error) {
	b, err := w.f.Bytes(w.m.Path, off, int64(len(p)))
	n := copy(p, b)
	if err == nil && n < len(p) {
		err = io.EOF
	}
	return n, err
}

func (w memberWords) Scan(fn func([]byte) bool) error {
	stop := errors.New("stop")
	err := w.f.Archive.ReadMember(w.f.r, w.m.Path, 0, w.m.Size, writerFunc(func(p []byte) error {
		if !fn(p) {
			return stop
		}
		return nil
	}), w.f.Budget.Limit(budget.Inflate))
	if err == stop {
		return nil
	}
	return err
}

// streamPacker packs the engine streams up to streamHoldMax into File.packed as the walk
// hands them over (one member at a time, in order), charging what they hold to the open's
// budget; a stream the budget refuses is let go, and read again on demand like a big one.
type streamPacker struct {
	f       *File
	m       *neff.Member
	pk      *neff.Packed
	charged int64
}

func (s *streamPacker) visit(m *neff.Member, off int64, chunk []byte) {
	if off == 0 {
		s.end()
		if m.Size <= streamHoldMax {
			s.m, s.pk, s.charged = m, &neff.Packed{}, 0
		}
	}
	if m != s.m {
		return
	}
	s.pk.Write(chunk)
	if !s.charge() {
		return
	}
	if off+int64(len(chunk)) >= m.Size {
		s.end()
	}
}

// charge takes from the budget what the packed bytes hold beyond what it took; when that does
// not fit, it gives back what it took and drops the member. It asks first (Can): a stream
// served on demand is no loss, so it must not count as the limit reached (a refused Take is
// a finding, and holds back the manifest checks that read absence as an error), as the walk's
// on-demand members never did.
func (s *streamPacker) charge() bool {
	h := s.pk.Held()
	if h <= s.charged {
		return true
	}
	if !s.f.Budget.Can(budget.Memory, h-s.charged) || !s.f.Budget.Take(budget.Memory, h-s.charged, "member "+strconv.Quote(s.m.Path)) {
		s.f.Budget.Release(budget.Memory, s.charged)
		s.m, s.pk = nil, nil
		return false
	}
	s.charged = h
	return true
}

// end closes the member being packed and files it.
func (s *streamPacker) end() {
	if s.pk == nil {
		return
	}
	s.pk.Close()
	if s.charge() {
		if s.f.packed == nil {
			s.f.packed = map[*neff.Member]*neff.Packed{}
		}
		s.f.packed[s.m] = s.pk
	}
	s.m, s.pk = nil, nil
}

type writerFunc func([]byte) error

func (f writerFunc) Write(p []byte) (int, error) {
	if err := f(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// IsJSONName says whether a member is read as JSON (core/fleet compares such members as JSON).
func IsJSONName(p string) bool { return isJSONName(p) }

func isJSONName(p string) bool { return strings.HasSuffix(strings.ToLower(p), ".json") }

func decodeNEFF(f *File, opt Options) *doc.Node {
	w := newWalkHooks(f, opt)
	defer w.partial.stop()
	defer w.scans.Wait() // whatever path the open ends on (Map waits for them before the joins)
	a := neff.Open(f.r, f.Size, w.options())
	w.packing.end() // the last member may end the walk cut short
	f.Archive = a
	if w.fileHash != nil && a.Complete {
		f.Doc.SHA256 = hex.EncodeToString(w.fileHash.Sum(nil))
	}
	root := a.Node(f.Name)
	if a.FileSize >= neff.HeaderSize && !looksLikeNEFF(a) {
		flagNotNEFF(f, a, root)
		addOverview(f, root)
		return root
	}
	if w.scans == nil && mapsInOpen(f, opt) {
		// Deferred, but nothing to read again and little to scan: the eager open's mapping,
		// from the members held.
		w.scans = srcmap.NewScans(srcNEFF{f}, srcmap.Options{Context: opt.Context})
	}
	if w.scans == nil && opt.SourceAhead != nil {
		ctx := opt.Context
		if ctx == nil {
			ctx = context.Background()
		}
		srcmap.Prefetch(ctx, srcNEFF{f}, opt.SourceAhead)
	}
	var prog *Program
	if len(a.Members) > 0 {
		prog = newProgram(f, w.indexed, w.scans)
		f.Program = prog
		putInFront(f, root, prog)
	}
	addMemberContent(f, prog, root)
	if w.scans != nil {
		if prog != nil && prog.Source != nil {
			prog.Source.WarnSkipped(root)
		}
	} else if prog != nil {
		f.sourcePending = true
	}
	addOverview(f, root)
	// The JSON members read back are let go (read again when browsed), and their charge given
	// back: what the open holds is what it holds from now on.
	f.resident.LetGoAll()
	f.Budget.Release(budget.Memory, f.readBackCharged)
	f.readBackCharged = 0
	return root
}

// walkHooks is what a NEFF's one archive walk feeds as the members stream past: the partial
// document, the file's hash, the .dbg scans, and the indexes and packed copies of the streams.
type walkHooks struct {
	f        *File
	opt      Options
	partial  *partialHook
	fileHash hash.Hash // nil unless Options.Fingerprint
	// Streams are indexed as they pass; those up to streamHoldMax are packed as they pass, the
	// bigger ones read again on demand.
	indexers map[*neff.Member]*isa.Indexer
	packing  *streamPacker
	// The .dbg members are scanned as they stream past, on a goroutine of their own, up to a
	// share of the memory limit; the rest once the model is resolved (srcmap.Scans). Nil when
	// the open defers the source lines.
	scans *srcmap.Scans
}

func newWalkHooks(f *File, opt Options) *walkHooks {
	w := &walkHooks{f: f, opt: opt, partial: &partialHook{emit: opt.OnPartial, every: opt.PartialEvery},
		indexers: map[*neff.Member]*isa.Indexer{}, packing: &streamPacker{f: f}}
	if opt.Fingerprint {
		w.fileHash = sha256.New()
	}
	if !opt.DeferSource {
		w.scans = srcmap.NewScans(srcNEFF{f}, srcmap.Options{Context: opt.Context})
	}
	return w
}

// options are the archive walk's: what it holds, its budget, and the hooks that feed w.
func (w *walkHooks) options() neff.Options {
	f, opt := w.f, w.opt
	nopt := neff.Options{
		Keep:           keepInMemory,
		KeepBudget:     256 << 20,
		Budget:         f.Budget,
		Context:        opt.Context,
		FileHash:       w.fileHash,
		OnDemand:       func(p string, _ int64) bool { return maybeStream(p) },
		NoMemberHashes: opt.DeferMemberHashes,
		PayloadDigest:  opt.PayloadDigest,
		Visit:          w.visit,
	}
	if opt.Progress != nil || opt.OnPartial != nil {
		nopt.Progress = w.progress
	}
	if opt.OnHeader != nil || opt.OnPartial != nil {
		nopt.OnHeader = w.header
	}
	return nopt
}

// visit sees every member's bytes as they stream past.
func (w *walkHooks) visit(m *neff.Member, off int64, chunk []byte) {
	w.partial.maybe(false)
	w.scans.Visit(m, off, chunk)
	x := w.indexers[m]
	if x == nil {
		if off != 0 || m.Data != nil || !maybeStream(m.Path) {
			return // held, or no stream: decided once, at the member's first chunk
		}
		x = isa.NewIndexer(m.Path)
		where := "table loads of " + m.Path
		x.Grow = func(n int64) bool { return w.f.Budget.Take(budget.Memory, n, where) }
		w.indexers[m] = x
	}
	x.Write(chunk)
	w.packing.visit(m, off, chunk)
}

func (w *walkHooks) progress(p neff.Progress) {
	pr := Progress{Phase: p.Phase, Done: p.Done, Total: p.Total, Inflated: p.Inflated}
	if w.opt.Progress != nil {
		w.opt.Progress(pr)
	}
	w.partial.progress = pr
	w.partial.maybe(p.Phase != "payload") // the walk has ended: every member is listed
}

// header hands the header's document to OnHeader, and starts the partial documents.
func (w *walkHooks) header(a *neff.Archive) {
	f, opt := w.f, w.opt
	if opt.OnHeader != nil {
		d := &doc.Document{Model: doc.ModelVersion, File: f.Name, Size: f.Size, Kind: doc.KindNEFF}
		d.Root = a.Node(f.Name)
		opt.OnHeader(d)
	}
	if opt.OnPartial != nil && looksLikeNEFF(a) {
		w.partial.b = &partialBuilder{a: a}
		w.partial.progress = Progress{Phase: "header"}
		w.partial.maybe(true)
	}
}

// indexed is the index of a stream the walk did not hold (nil when it indexed none), its
// words read from the packed copy or back out of the archive.
func (w *walkHooks) indexed(m *neff.Member) *isa.Stream {
	x := w.indexers[m]
	if x == nil {
		return nil
	}
	if pk := w.f.packed[m]; pk != nil {
		return x.Stream(pk)
	}
	return x.Stream(memberWords{w.f, m})
}

// flagNotNEFF says, on the root, that the file is not a NEFF, and what it looks like.
func flagNotNEFF(f *File, a *neff.Archive, root *doc.Node) {
	looks := ""
	if head, err := f.Bytes("", 0, 16); err == nil {
		for _, m := range magics {
			if strings.HasPrefix(string(head), m.magic) {
				root.SetAttr(doc.AttrLooksLike, m.kind)
				looks = fmt.Sprintf(" It looks like %s (it starts with % x): %s.", m.words, []byte(m.magic), m.offer)
				break
			}
		}
	}
	root.Errorf(doc.CodeFileNotNEFF, doc.At(0, min(a.FileSize, 16)), "this does not look like a NEFF: pkg_version is %d and header_size %d (a NEFF has 2 or 1, and 1024), and no gzip or tar payload follows at byte 1024.%s If it is another kind of file, it is shown as hex.", a.Header.PkgVersion, a.Header.HeaderSize, looks)
}

// putInFront puts the model overview (with its source lines) and the activation tables first
// after the runtime verdict: they are what users look for. The activation tables' tree is
// kept while the memory limit allows (keepTree); past it, a node says why it is not built.
func putInFront(f *File, root *doc.Node, prog *Program) {
	front := []*doc.Node{}
	if ov := prog.Model.Overview; ov != nil {
		ov.Key = "model"
		front = append(front, ov)
		if prog.Source != nil && len(prog.Streams) > 0 {
			ov.Add(prog.Source.Node) // the model's source lines
		}
	}
	if prog.Act != nil && len(prog.Act.Sets) > 0 {
		if an := activationNode(prog.Act); f.keepTree(an, "activation tables") {
			front = append(front, an)
		} else {
			an = &doc.Node{Kind: doc.KindGroup, Key: "activation", Label: "activation tables", Value: plural(len(prog.Act.Sets), "set")}
			an.Infof(doc.CodeBudgetSkipped, nil, "the activation tables' tree is not built: the memory limit was reached (the file's finding says how to raise it); each set's members are in the archive.")
			front = append(front, an)
		}
	}
	root.Children = append(root.Children[:1], append(front, root.Children[1:]...)...)
}

// addMemberContent adds each member's content: the manifests' typed trees, disassembled
// streams, JSON as trees, the rest as bytes. Member nodes are all under the archive's node
// (walking the model and the activation tables too was a fortieth of a small open).
func addMemberContent(f *File, prog *Program, root *doc.Node) {
	members := root.Child("members")
	if members == nil {
		members = root
	}
	members.Walk(func(_ []string, n *doc.Node) bool {
		if n.Kind != doc.KindMember {
			return true
		}
		_, p := doc.ParseRef(n.Ref)
		m := f.Archive.Member(p)
		if m == nil {
			return false
		}
		n.Add(prog.memberContent(f, m))
		return false
	})
}

// partialHook calls Options.OnPartial, throttled, from the archive walk's hooks (all on the
// goroutine running Open).
type partialHook struct {
	emit     func(*doc.Node)
	every    time.Duration
	b        *partialBuilder // nil until the header is read (and never for a file that is no NEFF)
	progress Progress
	last     time.Time
	ended    bool // the walk has ended and its partial was sent: no more
}

func (h *partialHook) maybe(force bool) {
	if h == nil || h.b == nil || h.emit == nil || h.ended {
		return
	}
	every := h.every
	if every == 0 {
		every = 200 * time.Millisecond
	}
	now := time.Now()
	if !force && now.Sub(h.last) < every {
		return
	}
	h.last = now
	if h.progress.Phase != "payload" && h.progress.Phase != "header" {
		h.ended = true
	}
	h.emit(h.b.build(h.progress))
}

func (h *partialHook) stop() { h.b = nil }

// addOverview puts the overview first among the root's children: the landing view.
func addOverview(f *File, root *doc.Node) {
	root.Children = append([]*doc.Node{Overview(f, root)}, root.Children...)
}

func looksLikeNEFF(a *neff.Archive) bool {
	return a.Payload.Encoding != "unknown" || a.Header.PkgVersion == 1 || a.Header.PkgVersion == 2
}

// memberContent decodes one member's bytes for the tree: the manifests' own tree of it first
// (whatever its kind), then its kind's builder (memberkinds.go), else its bytes.
func (p *Program) memberContent(f *File, m *neff.Member) *doc.Node {
	if p != nil {
		if t := p.Model.MemberTrees[m.Path]; t != nil {
			t.Label, t.Key = "content", "" // its path is the member's; keys stay one segment
			return t
		}
	}
	k := kindIn(p, m.Path)
	if k.content != nil {
		if t := k.content(f, p, m); t != nil {
			return t
		}
	}
	n := &doc.Node{Kind: doc.KindBytes, Label: "content", Value: neff.HumanSize(m.Size), Span: doc.In(m.Path, 0, m.Read), Ref: doc.MemberRef(m.Path)}
	n.Detail = k.describe
	return n
}

// ---- a device profile (NTFF) ----

// matchNTFF takes a file named .ntff (so another version is refused with its finding, not
// shown as hex) or one whose first bytes sniff as an NTFF (ntff.Sniff: a version byte, a
// header length that fits, a protobuf header that starts like the real ones).
func matchNTFF(name string, head []byte, size int64) bool {
	return strings.HasSuffix(strings.ToLower(name), ".ntff") || ntff.Sniff(head, size)
}

func decodeNTFF(f *File, _ Options) *doc.Node {
	f.NTFF = ntff.Read(f.Name, f.r, f.Size, f.Budget)
	return f.NTFF.Root
}

// ---- loose JSON ----

func matchJSON(name string, head []byte, size int64) bool {
	if isJSONName(name) {
		return true
	}
	s := strings.TrimLeft(strings.TrimPrefix(string(head), "\xEF\xBB\xBF"), " \t\r\n")
	return len(s) > 0 && (s[0] == '{' || s[0] == '[')
}

// maxJSONFile bounds a loose JSON file decoded as a tree.
const maxJSONFile = 256 << 20

func decodeJSON(f *File, opt Options) *doc.Node {
	if f.Size > maxJSONFile {
		n := decodeBinary(f, opt)
		n.Warnf(doc.CodeFileTooBig, doc.At(0, f.Size), "%s is %s; JSON files above %s are shown as hex only.", f.Name, neff.HumanSize(f.Size), neff.HumanSize(maxJSONFile))
		return n
	}
	if !f.Budget.Take(budget.Memory, f.Size, f.Name) {
		return decodeBinary(f, opt)
	}
	b := make([]byte, f.Size)
	n, _ := f.r.ReadAt(b, 0)
	node := f.jsonNode(b[:n], nil, f.Name, "")
	node.Ref = doc.FileRef
	return node
}

// ---- anything else ----

// ---- a DVE table opened on its own ----

func matchDVETable(name string, _ []byte, size int64) bool {
	_, ok := dvetable.Match(name)
	return ok && size <= 1<<20
}

func decodeDVETable(f *File, opt Options) *doc.Node {
	b, err := f.Bytes("", 0, f.Size)
	if err != nil {
		return decodeBinary(f, opt)
	}
	n := dvetable.Decode(path.Base(f.Name), "", b)
	n.Label, n.Ref = f.Name, doc.FileRef
	return n
}

// magics names well-known file kinds by their first bytes, so a file that is not a NEFF is
// told what it looks like (and not offered as a libncfw context).
var magics = []struct{ kind, magic, words, offer string }{
	{"png", "\x89PNG\r\n\x1a\n", "a PNG image", "open it in an image viewer"},
	{"jpeg", "\xff\xd8\xff", "a JPEG image", "open it in an image viewer"},
	{"zip", "PK\x03\x04", "a zip archive", "if it is a PyTorch .pt or a zip of NEFFs, run 'neffscope extract-neff' on it"},
	{"elf", "\x7fELF", "an ELF executable or shared library", "it is a program, not a compiler artifact"},
	{"gzip", "\x1f\x8b", "a gzip stream", "a NEFF's payload is gzip after a 1024-byte header; this file has no header: if it is a payload cut from a NEFF, open the whole .neff"},
	{"pdf", "%PDF-", "a PDF document", "open it in a PDF viewer"},
}

func decodeBinary(f *File, _ Options) *doc.Node {
	n := &doc.Node{Kind: doc.KindBytes, Label: f.Name, Value: neff.HumanSize(f.Size), Span: doc.At(0, f.Size), Ref: doc.FileRef}
	head, _ := f.Bytes("", 0, 16)
	for _, m := range magics {
		if strings.HasPrefix(string(head), m.magic) {
			n.SetAttr(doc.AttrLooksLike, m.kind)
			n.Warnf(doc.CodeFileNotNEFF, doc.At(0, int64(len(m.magic))), "%s is not a NEFF: it looks like %s (it starts with the bytes % x). %s; neffscope shows it as hex.", f.Name, m.words, []byte(m.magic), strings.ToUpper(m.offer[:1])+m.offer[1:])
			return n
		}
	}
	n.Infof(doc.CodeFileUnknown, doc.At(0, int64(len(head))), "%s is not a NEFF (no 1024-byte NEFF header: it would start with pkg_version 1 or 2 and header_size 1024) and not JSON; it is shown as hex. First bytes: % x", f.Name, head)
	return n
}
