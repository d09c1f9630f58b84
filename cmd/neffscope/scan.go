package main

import (
	"bufio"
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
	"time"

	"github.com/neffscope/neffscope/core/inspect"
)

func init() {
	commands["scan"] = command{"walk directories (compile caches) and print one record per NEFF: JSONL, CSV or Parquet", runScan}
}

// scanItem is one thing the walk found, in walk order (seq).
type scanItem struct {
	seq      int
	path     string   // OS path
	siblings []string // names in the same directory (cache state)
	// problem, when set, is why the item is a record without a file read (loop, not regular…).
	problem string
	missing bool // a MODULE_ entry directory with no NEFF
	size    int64
}

// scanOptions are scan's knobs.
type scanOptions struct {
	jobs       int
	maxInflate int64
	progress   io.Writer // nil: no progress lines
	interval   time.Duration
}

// runScan exits 0, or 1 when any record has an error finding, or 2 on usage or output trouble.
func runScan(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("scan", flag.ContinueOnError)
	fs.SetOutput(stderr)
	jsonl := fs.Bool("jsonl", false, "one JSON object per NEFF per line (the default)")
	asCSV := fs.Bool("csv", false, "CSV with a header row (the Parquet columns)")
	parquetPath := fs.String("parquet", "", "write the records to this Parquet `FILE` (schema in scanparquet.go)")
	jobs := fs.Int("j", runtime.NumCPU(), "read this many NEFFs at once")
	quiet := fs.Bool("q", false, "no progress on stderr")
	maxInflate := commonFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: neffscope scan [--jsonl | --csv | --parquet FILE] [-j N] PATH...\n\n"+
			"Walks each PATH (a directory, e.g. a compile cache, or a NEFF) and prints one record per *.neff\n"+
			"file, in path order (directory entries sorted by name). Exit status: 0, or 1 if any NEFF had an\n"+
			"error finding, 2 on usage or output trouble.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
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
		ps, err := newParquetSink(*parquetPath)
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		sink = ps
	default:
		sink = newJSONLSink(jsonStdout(stdout))
	}
	opt := scanOptions{jobs: *jobs, maxInflate: *maxInflate, progress: stderr, interval: time.Second}
	if *quiet {
		opt.progress = nil
	}
	st, err := scan(fs.Args(), opt, sink)
	if cerr := sink.Close(); err == nil {
		err = cerr
	}
	if opt.progress != nil {
		fmt.Fprintf(stderr, "scan: %d NEFFs (%d with errors, %d duplicates) in %.1fs\n", st.records, st.errors, st.duplicates, st.elapsed.Seconds())
	}
	if err != nil {
		fmt.Fprintf(stderr, "neffscope: %v\n", err)
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
}

// recordSink writes records in order.
type recordSink interface {
	Write(r *inspect.ScanRecord) error
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
	go func() {
		w := walker{out: items, slots: slots, stop: stop}
		for _, p := range paths {
			w.root(p)
		}
		close(items)
		wg.Wait()
		close(results)
	}()

	var st scanStats
	var werr error
	seen := map[string]string{} // sha256 → first path
	pending := map[int]*inspect.ScanRecord{}
	next := 0
	lastProgress := time.Now()
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
			st.bytes += r.Size
			if r.HasError() {
				st.errors++
			}
			if werr == nil {
				if werr = sink.Write(r); werr != nil {
					close(stop) // the output is gone: stop walking, drain the readers
				}
			}
			if opt.progress != nil && time.Since(lastProgress) >= opt.interval {
				lastProgress = time.Now()
				el := time.Since(start).Seconds()
				fmt.Fprintf(opt.progress, "scan: %d NEFFs, %.1f MB, %.0f NEFF/s…\n", st.records, float64(st.bytes)/1e6, float64(st.records)/el)
			}
		}
	}
	st.elapsed = time.Since(start)
	return st, werr
}

type orderedRecord struct {
	seq int
	rec *inspect.ScanRecord
}

// walker walks directories depth first, entries sorted by name, following symlinks to
// directories unless they lead back to a directory being walked (a loop).
type walker struct {
	out   chan<- scanItem
	slots chan struct{}
	stop  chan struct{}
	seq   int
	// stack holds the directories being walked, for loop detection.
	stack []os.FileInfo
}

func (w *walker) emit(it scanItem) bool {
	select {
	case <-w.stop:
		return false
	case w.slots <- struct{}{}:
	}
	it.seq = w.seq
	w.seq++
	w.out <- it
	return true
}

func (w *walker) root(p string) {
	st, err := os.Stat(p)
	switch {
	case err != nil:
		w.emit(scanItem{path: p, problem: fmt.Sprintf("cannot read %s: %v", p, describeErr(err))})
	case st.IsDir():
		w.dir(p, st)
	default:
		names := siblingNames(filepath.Dir(p))
		w.file(p, st, names)
	}
}

func (w *walker) dir(p string, st os.FileInfo) bool {
	for _, a := range w.stack {
		if os.SameFile(a, st) {
			return w.emit(scanItem{path: p, problem: fmt.Sprintf("symlink loop: %s leads back to a directory above it; not followed", p)})
		}
	}
	entries, err := os.ReadDir(p)
	if err != nil && len(entries) == 0 {
		return w.emit(scanItem{path: p, problem: fmt.Sprintf("cannot read directory %s: %v", p, describeErr(err))})
	}
	w.stack = append(w.stack, st)
	defer func() { w.stack = w.stack[:len(w.stack)-1] }()
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
		if _, ok := inspect.ParseModuleKey(filepath.Base(p)); ok {
			if !w.emit(scanItem{path: filepath.Join(p, "model.neff"), siblings: names, missing: true}) {
				return false
			}
		}
	}
	for _, e := range entries {
		cp := filepath.Join(p, e.Name())
		t := e.Type()
		if t&fs.ModeSymlink != 0 {
			st, err := os.Stat(cp)
			if err != nil {
				if isNEFFName(e.Name()) || isLoop(err) {
					if !w.emit(scanItem{path: cp, siblings: names, problem: fmt.Sprintf("cannot follow symlink %s: %v", cp, describeErr(err))}) {
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
			if isNEFFName(e.Name()) && !w.file(cp, st, names) {
				return false
			}
			continue
		}
		if e.IsDir() {
			st, err := e.Info()
			if err != nil {
				if !w.emit(scanItem{path: cp, problem: fmt.Sprintf("cannot read directory %s: %v", cp, describeErr(err))}) {
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
				if !w.emit(scanItem{path: cp, siblings: names, problem: fmt.Sprintf("cannot stat %s: %v", cp, describeErr(err))}) {
					return false
				}
				continue
			}
			if !w.file(cp, st, names) {
				return false
			}
		}
	}
	return true
}

func (w *walker) file(p string, st os.FileInfo, siblings []string) bool {
	if !st.Mode().IsRegular() {
		return w.emit(scanItem{path: p, siblings: siblings, problem: fmt.Sprintf("%s is not a regular file (%s); not read", p, st.Mode().Type())})
	}
	return w.emit(scanItem{path: p, siblings: siblings, size: st.Size()})
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
func readItem(it scanItem, maxInflate int64) (rec *inspect.ScanRecord) {
	p := filepath.ToSlash(it.path)
	switch {
	case it.missing:
		return inspect.MissingNEFFRecord(p, it.siblings)
	case it.problem != "":
		return inspect.UnreadableRecord(p, it.size, it.siblings, it.problem)
	}
	defer func() {
		if e := recover(); e != nil {
			rec = inspect.UnreadableRecord(p, it.size, it.siblings, fmt.Sprintf("neffscope failed reading %s: %v (a bug: please report it with the file)", p, e))
		}
	}()
	fh, err := os.Open(it.path)
	if err != nil {
		return inspect.UnreadableRecord(p, it.size, it.siblings, fmt.Sprintf("cannot open %s: %v", p, describeErr(err)))
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return inspect.UnreadableRecord(p, it.size, it.siblings, fmt.Sprintf("cannot stat %s: %v", p, describeErr(err)))
	}
	f := inspect.Open(it.path, fh, st.Size(), inspect.Options{MaxInflated: maxInflate, Fingerprint: true})
	return inspect.NewScanRecord(f, p, it.siblings)
}

// ---- JSONL ----

type jsonlSink struct {
	w   *bufio.Writer
	enc *json.Encoder
}

func newJSONLSink(w io.Writer) *jsonlSink {
	b := bufio.NewWriter(w)
	e := json.NewEncoder(b)
	e.SetEscapeHTML(false)
	return &jsonlSink{w: b, enc: e}
}

func (s *jsonlSink) Write(r *inspect.ScanRecord) error { return s.enc.Encode(r) }
func (s *jsonlSink) Close() error                      { return s.w.Flush() }

// ---- CSV ----

type csvSink struct {
	w      *csvWriter
	header bool
}

func newCSVSink(w io.Writer) *csvSink { return &csvSink{w: newCSVWriter(w)} }

func (s *csvSink) Write(r *inspect.ScanRecord) error {
	if !s.header {
		s.header = true
		if err := s.w.Write(flatColumns); err != nil {
			return err
		}
	}
	return s.w.Write(flatten(r).strings())
}

func (s *csvSink) Close() error {
	if !s.header {
		s.w.Write(flatColumns)
	}
	return s.w.Flush()
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
}

var flatColumns = []string{"path", "size", "sha256", "uuid", "neff_version", "compiler", "target", "subgraphs",
	"instructions", "instructions_total", "inputs", "outputs", "findings_error", "findings_warning", "findings_info",
	"problems", "cache_module", "cache_flags_hash", "cache_state", "duplicate_of"}

func flatten(r *inspect.ScanRecord) flatRecord {
	js := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	f := flatRecord{Path: r.Path, Size: r.Size, SHA256: r.SHA256, UUID: r.UUID, NeffVersion: r.NeffVersion,
		Compiler: r.Compiler, Target: r.Target, Subgraphs: int64(r.Subgraphs), Instructions: js(r.Instructions),
		Inputs: js(r.Inputs), Outputs: js(r.Outputs), FindingsError: int64(r.Findings["error"]),
		FindingsWarning: int64(r.Findings["warning"]), FindingsInfo: int64(r.Findings["info"]), Problems: js(r.Problems),
		DuplicateOf: r.DuplicateOf}
	for _, n := range r.Instructions {
		f.InstructionsTotal += n
	}
	if c := r.Cache; c != nil {
		f.CacheModule, f.CacheFlagsHash, f.CacheState = &c.Module, &c.FlagsHash, &c.State
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
		f.Problems, opt(f.CacheModule), opt(f.CacheFlagsHash), opt(f.CacheState), opt(f.DuplicateOf)}
}
