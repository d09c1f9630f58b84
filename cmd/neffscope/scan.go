package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/cachesrc"
)

func init() {
	commands["scan"] = command{"walk directories (compile caches) and print one record per NEFF: JSONL, CSV or Parquet", runScan}
}

// scanItem is one thing the walk found, in walk order (seq).
type scanItem struct {
	seq      int
	path     string   // OS path
	siblings []string // names in the same directory (cache state)
	// problem, when set, is why the item is a record without a file read (not regular, a
	// target read already…), with its code and severity.
	problem  string
	code     doc.Code
	severity string
	missing  bool // a MODULE_ entry directory with no NEFF
	size     int64
	// open reads the file when it is not on the file system (a tar member, an S3 object).
	open func() (cachesrc.File, error)
	// hlo is the entry's HLO module beside the NEFF (nil: none).
	hlo      *hloRef
	modified time.Time // when the directory holding it last changed (the entry's state)
}

// scanOptions are scan's knobs.
type scanOptions struct {
	jobs       int
	maxInflate int64
	progress   io.Writer // nil: no progress lines
	interval   time.Duration
	// live: progress is one line on a terminal, redrawn in place and erased at the end.
	live   bool
	follow bool // follow symlinks (each target once)
}

// runScan exits 0, or 1 when any record has an error finding, or 2 on trouble: usage, output,
// or a PATH named that cannot be read (it is a record too; entries found in the walk that
// cannot be read are records only).
func runScan(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonl := fs.Bool("jsonl", false, "one JSON object per NEFF per line (the default unless stdout is a terminal, which gets a table)")
	asCSV := fs.Bool("csv", false, "CSV with a header row (the Parquet columns)")
	parquetPath := fs.String("parquet", "", "write the records to this new Parquet `FILE` (schema in scanparquet.go)")
	force := fs.Bool("force", false, "let --parquet replace an existing file (never a symlink, a NEFF or a scanned path)")
	jobs := fs.Int("j", runtime.NumCPU(), "read this many NEFFs at once")
	quiet := fs.Bool("q", false, "no progress on stderr")
	follow := fs.Bool("follow", false, "follow symlinks (each file and directory they lead to is read once); without it a symlink is not followed")
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope scan [--jsonl | --csv | --parquet FILE] [--follow] [-j N] PATH...\n\n"+
			"Walks each PATH (a directory, e.g. a compile cache, or a NEFF; a .tar or .tar.gz of a cache; or\n"+
			"s3://bucket/prefix, read with the AWS SDK's credentials, anonymously when it finds none, at\n"+
			"AWS_ENDPOINT_URL_S3 when set) and prints one record per *.neff file, with the graph digest of\n"+
			"the HLO module beside it, in path order (directory entries sorted by name): a table on a\n"+
			"terminal, else JSONL. Entries of one graph are grouped on stderr, saying why their keys differ.\n"+
			"Exit status: 0; 1 if a record has an error finding (an entry the walk could not read among them);\n"+
			"2 trouble (bad usage, a PATH that cannot be read, an output refused or not written).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	formats := 0
	for _, b := range []bool{*jsonl, *asCSV, *parquetPath != ""} {
		if b {
			formats++
		}
	}
	if fs.NArg() == 0 || formats > 1 || *jobs < 1 {
		fs.Usage()
		return 2
	}
	var sink recordSink
	switch {
	case *asCSV:
		sink = newCSVSink(stdout)
	case *parquetPath != "":
		ps, err := newParquetSink(*parquetPath, outputRules{force: *force, inputs: fs.Args()})
		if err != nil {
			return reportOutputErr(stderr, err)
		}
		sink = ps
	case !*jsonl && isTerminal(rawStdout(stdout)):
		sink = &tableSink{w: stdout}
	default:
		sink = newJSONLSink(jsonStdout(stdout))
	}
	opt := scanOptions{jobs: *jobs, maxInflate: *maxInflate, progress: stderr, interval: time.Second, follow: *follow}
	if raw := rawStdout(stderr); isTerminal(raw) {
		// Redrawn with a carriage return, which the escaping writer would show as text.
		opt.progress, opt.live, opt.interval = raw, true, 200*time.Millisecond
	}
	if *quiet {
		opt.progress = nil
	}
	st, err := scan(fs.Args(), opt, sink)
	if ps, ok := sink.(*parquetSink); ok && err != nil {
		ps.abort()
	} else if cerr := sink.Close(); err == nil {
		err = cerr
	}
	if opt.progress != nil {
		fmt.Fprintf(stderr, "scan: %d NEFFs (%d with errors, %d duplicates) in %.1fs\n", st.records, st.errors, st.duplicates, st.elapsed.Seconds())
		if st.notFollowed > 0 {
			fmt.Fprintf(stderr, "scan: %d symlinks not followed (--follow follows them)\n", st.notFollowed)
		}
		if st.seenAgain > 0 {
			fmt.Fprintf(stderr, "scan: %d symlinks led to directories already walked\n", st.seenAgain)
		}
		for _, l := range st.graphs.Lines() {
			fmt.Fprintf(stderr, "scan: %s\n", l)
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
		return 2
	}
	if st.unreadRoots > 0 {
		return 2
	}
	if st.errors > 0 {
		return 1
	}
	return 0
}

// scanStats sums a scan up.
type scanStats struct {
	records, errors, duplicates int
	bytes                       int64
	elapsed                     time.Duration
	notFollowed, seenAgain      int // symlinks the walk did not follow, directories it reached again
	unreadRoots                 int // PATHs named that could not be read
	graphs                      fleet.GraphGroups
}

// recordSink writes records in order.
type recordSink interface {
	Write(r *fleet.ScanRecord) error
	Close() error
}

// scan walks the paths on one goroutine, reads NEFFs on opt.jobs goroutines and hands the
// records to sink in walk order. At most 4×jobs items are in flight, so memory stays bounded
// however big the tree; the duplicate map holds one hash and one path per distinct NEFF.
func scan(paths []string, opt scanOptions, sink recordSink) (scanStats, error) {
	start := time.Now()
	window := 4 * opt.jobs
	items := make(chan scanItem, window)
	slots := make(chan struct{}, window)
	results := make(chan *orderedRecord, window)
	var wg sync.WaitGroup
	for range opt.jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := range items {
				results <- &orderedRecord{seq: it.seq, rec: readItem(it, opt.maxInflate)}
			}
		}()
	}
	stop := make(chan struct{})
	w := &walker{out: items, slots: slots, stop: stop, follow: opt.follow, seen: map[fileID]string{}}
	go func() {
		for _, p := range paths {
			w.anyRoot(p)
		}
		close(items)
		wg.Wait()
		for _, s := range w.sources {
			s.Close()
		}
		close(results)
	}()

	var st scanStats
	var werr error
	seen := map[string]string{} // sha256 → first path
	pending := map[int]*fleet.ScanRecord{}
	next := 0
	lastProgress := time.Now()
	shown := false // a live progress line is on the terminal
	for res := range results {
		pending[res.seq] = res.rec
		for {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-slots
			if r.SHA256 != "" {
				if first, dup := seen[r.SHA256]; dup {
					r.DuplicateOf = &first
					st.duplicates++
				} else {
					seen[r.SHA256] = r.Path
				}
			}
			st.records++
			st.graphs.Add(r)
			st.bytes += r.Size
			if r.HasError() {
				st.errors++
			}
			if werr == nil {
				if shown {
					// The progress line and the table share the terminal: clear the line
					// first, so the row starts at the left edge; it is drawn again below.
					fmt.Fprint(opt.progress, "\r\x1b[K")
					shown = false
				}
				if werr = sink.Write(r); werr != nil {
					close(stop) // the output is gone: stop walking, drain the readers
				}
			}
			if opt.progress != nil && time.Since(lastProgress) >= opt.interval {
				lastProgress = time.Now()
				el := time.Since(start).Seconds()
				if opt.live {
					dir, _ := w.current.Load().(string)
					line := fmt.Sprintf("scan: %d done / %d found, %.1f MB · %s", st.records, w.found.Load(), float64(st.bytes)/1e6, safe(dir))
					fmt.Fprintf(opt.progress, "\r\x1b[K%s", elide(line, 100))
					shown = true
				} else {
					fmt.Fprintf(opt.progress, "scan: %d NEFFs, %.1f MB, %.0f NEFF/s…\n", st.records, float64(st.bytes)/1e6, float64(st.records)/el)
				}
			}
		}
	}
	if shown {
		fmt.Fprint(opt.progress, "\r\x1b[K")
	}
	st.elapsed = time.Since(start)
	st.notFollowed, st.seenAgain = int(w.notFollowed.Load()), int(w.seenAgain.Load())
	st.unreadRoots = int(w.unreadRoots.Load())
	return st, werr
}

type orderedRecord struct {
	seq int
	rec *fleet.ScanRecord
}

// walker walks directories depth first, entries sorted by name. It follows symlinks only
// when asked, and then reads what they lead to once: every directory, and with follow every
// NEFF, is kept by device and inode (seen), so a graph of links (a loop, or 160 links making
// 20⁸ paths to one file) costs one visit per target.
type walker struct {
	out    chan<- scanItem
	slots  chan struct{}
	stop   chan struct{}
	seq    int
	follow bool
	seen   map[fileID]string // directories walked and NEFFs read: the first path
	// For the progress line (read by the writer's goroutine).
	current                atomic.Value // string: the directory being walked
	found                  atomic.Int64
	notFollowed, seenAgain atomic.Int64
	unreadRoots            atomic.Int64
	// sources are the caches not on the file system being walked (closed after the readers).
	sources []cachesrc.Source
}

func (w *walker) emit(it scanItem) bool {
	select {
	case <-w.stop:
		return false
	case w.slots <- struct{}{}:
	}
	it.seq = w.seq
	w.seq++
	w.found.Store(int64(w.seq))
	w.out <- it
	return true
}

func (w *walker) root(p string) {
	st, err := os.Stat(p)
	switch {
	case err != nil:
		w.unreadRoots.Add(1)
		w.emit(scanItem{path: p, code: fleet.CodeScanUnreadable, problem: fmt.Sprintf("cannot read %s: %v", p, describeErr(err))})
	case st.IsDir():
		w.dir(p, st)
	default:
		names := siblingNames(filepath.Dir(p))
		var mod time.Time
		if dst, err := os.Stat(filepath.Dir(p)); err == nil {
			mod = dst.ModTime()
		}
		w.file(p, st, names, mod)
	}
}

func (w *walker) dir(p string, st os.FileInfo) bool {
	id := fileKey(p, st)
	if _, ok := w.seen[id]; ok {
		w.seenAgain.Add(1)
		return true
	}
	w.seen[id] = ""
	w.current.Store(p)
	entries, err := os.ReadDir(p)
	if err != nil && len(entries) == 0 {
		return w.emit(scanItem{path: p, code: fleet.CodeScanUnreadable, problem: fmt.Sprintf("cannot read directory %s: %v", p, describeErr(err))})
	}
	dirMod := st.ModTime()
	names := make([]string, len(entries))
	hasNEFF := false
	for i, e := range entries {
		names[i] = e.Name()
		if isNEFFName(e.Name()) {
			hasNEFF = true
		}
	}
	// A cache entry directory without a NEFF is a record too: it answers "is it cached?".
	if !hasNEFF && strings.HasPrefix(filepath.Base(p), "MODULE_") {
		if _, ok := fleet.ParseModuleKey(filepath.Base(p)); ok {
			if !w.emit(scanItem{path: filepath.Join(p, "model.neff"), siblings: names, missing: true, modified: st.ModTime(), hlo: hloBeside(p, names)}) {
				return false
			}
		}
	}
	for _, e := range entries {
		cp := filepath.Join(p, e.Name())
		t := e.Type()
		if t&fs.ModeSymlink != 0 {
			if !w.follow {
				w.notFollowed.Add(1)
				if isNEFFName(e.Name()) && !w.emit(scanItem{path: cp, siblings: names, code: fleet.CodeScanSymlink, severity: doc.Info,
					problem: fmt.Sprintf("%s is a symlink: not followed (--follow follows symlinks)", cp)}) {
					return false
				}
				continue
			}
			st, err := os.Stat(cp)
			if err != nil {
				if isNEFFName(e.Name()) || isLoop(err) {
					if !w.emit(scanItem{path: cp, siblings: names, code: doc.CodeScanBadSymlink, problem: fmt.Sprintf("cannot follow symlink %s: %v", cp, describeErr(err))}) {
						return false
					}
				}
				continue
			}
			if st.IsDir() {
				if !w.dir(cp, st) {
					return false
				}
				continue
			}
			if isNEFFName(e.Name()) && !w.file(cp, st, names, dirMod) {
				return false
			}
			continue
		}
		if e.IsDir() {
			st, err := e.Info()
			if err != nil {
				if !w.emit(scanItem{path: cp, code: fleet.CodeScanUnreadable, problem: fmt.Sprintf("cannot read directory %s: %v", cp, describeErr(err))}) {
					return false
				}
				continue
			}
			if !w.dir(cp, st) {
				return false
			}
			continue
		}
		if isNEFFName(e.Name()) {
			st, err := e.Info()
			if err != nil {
				if !w.emit(scanItem{path: cp, siblings: names, code: fleet.CodeScanUnreadable, problem: fmt.Sprintf("cannot stat %s: %v", cp, describeErr(err))}) {
					return false
				}
				continue
			}
			if !w.file(cp, st, names, dirMod) {
				return false
			}
		}
	}
	return true
}

// file emits a NEFF; dirMod is when its directory last changed.
func (w *walker) file(p string, st os.FileInfo, siblings []string, dirMod time.Time) bool {
	if !st.Mode().IsRegular() {
		return w.emit(scanItem{path: p, siblings: siblings, code: fleet.CodeScanNotRegular, modified: dirMod, problem: fmt.Sprintf("%s is not a regular file (%s); not read", p, st.Mode().Type())})
	}
	if w.follow {
		id := fileKey(p, st)
		if first, ok := w.seen[id]; ok {
			return w.emit(scanItem{path: p, siblings: siblings, size: st.Size(), code: fleet.CodeScanSeen, severity: doc.Info, modified: dirMod,
				problem: fmt.Sprintf("%s is %s, read already (through a symlink or a hard link); not read again", p, filepath.ToSlash(first))})
		}
		w.seen[id] = p
	}
	return w.emit(scanItem{path: p, siblings: siblings, size: st.Size(), modified: dirMod, hlo: hloBeside(filepath.Dir(p), siblings)})
}

func siblingNames(dir string) []string {
	entries, _ := os.ReadDir(dir)
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names
}

func isNEFFName(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".neff") }

func isLoop(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "too many levels of symbolic links")
}

func describeErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// readItem turns one walk item into its record. It never panics: a decoder panic becomes the
// record's error finding, so one hostile file cannot stop a scan.
func readItem(it scanItem, maxInflate int64) (rec *fleet.ScanRecord) {
	defer func() { rec.Modified = it.modified; addGraph(rec, it.hlo, maxInflate) }()
	if it.open != nil {
		return readOpened(it, maxInflate)
	}
	p := filepath.ToSlash(it.path)
	switch {
	case it.missing:
		return fleet.MissingNEFFRecord(p, it.siblings)
	case it.problem != "":
		sev := it.severity
		if sev == "" {
			sev = doc.Error
		}
		return fleet.CodedRecord(p, it.size, it.siblings, it.code, sev, it.problem)
	}
	defer func() {
		if e := recover(); e != nil {
			rec = fleet.UnreadableRecord(p, it.size, it.siblings, doc.CodeScanUnreadable, fmt.Sprintf("neffscope failed reading %s: %v (a bug: please report it with the file)", p, e))
		}
	}()
	fh, err := openNonblocking(it.path)
	if err != nil {
		return fleet.UnreadableRecord(p, it.size, it.siblings, doc.CodeScanUnreadable, fmt.Sprintf("cannot open %s: %v", p, describeErr(err)))
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return fleet.UnreadableRecord(p, it.size, it.siblings, doc.CodeScanUnreadable, fmt.Sprintf("cannot stat %s: %v", p, describeErr(err)))
	}
	// What the walk saw may have been swapped since (a FIFO would block the read for ever):
	// what is read is what was opened.
	if !st.Mode().IsRegular() {
		return fleet.CodedRecord(p, it.size, it.siblings, fleet.CodeScanNotRegular, doc.Error, fmt.Sprintf("%s is not a regular file when opened (%s); not read", p, st.Mode().Type()))
	}
	f := inspect.Open(it.path, fh, st.Size(), inspect.Options{MaxInflated: maxInflate, Fingerprint: true, Limits: cliLimits, Within: scanBudget()})
	defer f.Budget.Done()
	return fleet.NewScanRecord(f, p, it.siblings)
}

// ---- JSONL ----

// jsonlSink writes each record as it comes, one Write of one whole line, so a scan killed at
// any moment has left valid JSONL up to its last line.
type jsonlSink struct {
	w   io.Writer
	buf bytes.Buffer
	enc *json.Encoder
}

func newJSONLSink(w io.Writer) *jsonlSink {
	s := &jsonlSink{w: w}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	return s
}

func (s *jsonlSink) Write(r *fleet.ScanRecord) error {
	s.buf.Reset()
	if err := s.enc.Encode(r); err != nil {
		return err
	}
	_, err := s.w.Write(s.buf.Bytes())
	return err
}

func (s *jsonlSink) Close() error { return nil }

// ---- CSV ----

// csvSink writes each row as it comes, one Write of one whole row (as jsonlSink does), so a
// scan killed at any moment has left whole rows.
type csvSink struct {
	w      io.Writer
	buf    bytes.Buffer
	cw     *csvWriter
	header bool
}

func newCSVSink(w io.Writer) *csvSink {
	s := &csvSink{w: w}
	s.cw = newCSVWriter(&s.buf)
	return s
}

func (s *csvSink) row(cells []string) error {
	s.buf.Reset()
	if err := s.cw.Write(cells); err != nil {
		return err
	}
	if err := s.cw.Flush(); err != nil {
		return err
	}
	_, err := s.w.Write(s.buf.Bytes())
	return err
}

func (s *csvSink) Write(r *fleet.ScanRecord) error {
	if !s.header {
		s.header = true
		if err := s.row(flatColumns); err != nil {
			return err
		}
	}
	return s.row(flatten(r).strings())
}

func (s *csvSink) Close() error {
	if !s.header {
		s.header = true
		return s.row(flatColumns)
	}
	return nil
}

// flatRecord is a record with nested values as JSON text: the CSV and Parquet row.
type flatRecord struct {
	Path              string  `parquet:"path"`
	Size              int64   `parquet:"size"`
	SHA256            string  `parquet:"sha256"`
	UUID              string  `parquet:"uuid"`
	NeffVersion       string  `parquet:"neff_version"`
	Compiler          string  `parquet:"compiler"`
	Target            string  `parquet:"target"`
	Subgraphs         int64   `parquet:"subgraphs"`
	Instructions      string  `parquet:"instructions"`
	InstructionsTotal int64   `parquet:"instructions_total"`
	Inputs            string  `parquet:"inputs"`
	Outputs           string  `parquet:"outputs"`
	FindingsError     int64   `parquet:"findings_error"`
	FindingsWarning   int64   `parquet:"findings_warning"`
	FindingsInfo      int64   `parquet:"findings_info"`
	Problems          string  `parquet:"problems"`
	CacheModule       *string `parquet:"cache_module,optional"`
	CacheFlagsHash    *string `parquet:"cache_flags_hash,optional"`
	CacheState        *string `parquet:"cache_state,optional"`
	DuplicateOf       *string `parquet:"duplicate_of,optional"`
	Graph             *string `parquet:"graph,optional"`
}

var flatColumns = []string{"path", "size", "sha256", "uuid", "neff_version", "compiler", "target", "subgraphs",
	"instructions", "instructions_total", "inputs", "outputs", "findings_error", "findings_warning", "findings_info",
	"problems", "cache_module", "cache_flags_hash", "cache_state", "duplicate_of", "graph"}

func flatten(r *fleet.ScanRecord) flatRecord {
	js := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	f := flatRecord{Path: r.Path, Size: r.Size, SHA256: r.SHA256, UUID: r.UUID, NeffVersion: r.NeffVersion,
		Compiler: r.Compiler, Target: r.Target, Subgraphs: int64(r.Subgraphs), Instructions: js(r.Instructions),
		Inputs: js(r.Inputs), Outputs: js(r.Outputs), FindingsError: int64(r.Findings["error"]),
		FindingsWarning: int64(r.Findings["warning"]), FindingsInfo: int64(r.Findings["info"]), Problems: js(r.Problems),
		DuplicateOf: r.DuplicateOf, Graph: r.Graph}
	for _, n := range r.Instructions {
		f.InstructionsTotal += n
	}
	if c := r.Cache; c != nil {
		f.CacheModule, f.CacheFlagsHash, f.CacheState = &c.Module, &c.FlagsHash, &c.State
	}
	return f.clean()
}

// clean makes every string of the row doc.CleanString's: valid UTF-8 (a bad byte is U+FFFD,
// as the JSONL has it) with no control or format character raw, in Parquet and CSV alike.
func (f flatRecord) clean() flatRecord {
	for _, s := range []*string{&f.Path, &f.SHA256, &f.UUID, &f.NeffVersion, &f.Compiler, &f.Target, &f.Instructions, &f.Inputs, &f.Outputs, &f.Problems} {
		*s = doc.CleanString(*s)
	}
	for _, s := range []**string{&f.CacheModule, &f.CacheFlagsHash, &f.CacheState, &f.DuplicateOf} {
		if *s != nil {
			c := doc.CleanString(**s)
			*s = &c
		}
	}
	return f
}

func (f flatRecord) strings() []string {
	opt := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	return []string{f.Path, i(f.Size), f.SHA256, f.UUID, f.NeffVersion, f.Compiler, f.Target, i(f.Subgraphs),
		f.Instructions, i(f.InstructionsTotal), f.Inputs, f.Outputs, i(f.FindingsError), i(f.FindingsWarning), i(f.FindingsInfo),
		f.Problems, opt(f.CacheModule), opt(f.CacheFlagsHash), opt(f.CacheState), opt(f.DuplicateOf), opt(f.Graph)}
}
