package main

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/hlo"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/cachesrc"
)

// hloRef is an entry's HLO module: where it is and how to read it.
type hloRef struct {
	path string // slash path the record names
	open func() (cachesrc.File, error)
}

// hloBeside finds the HLO module among a directory's names (model.hlo_module.pb, maybe gzip'd).
func hloBeside(dir string, names []string) *hloRef {
	for _, n := range names {
		if hlo.Match(n) {
			p := filepath.Join(dir, n)
			return &hloRef{path: filepath.ToSlash(p), open: func() (cachesrc.File, error) { return openInput(p) }}
		}
	}
	return nil
}

// addGraph reads the entry's HLO module into the record: its graph digest and what it says.
func addGraph(rec *fleet.ScanRecord, ref *hloRef, maxInflate int64) {
	if rec == nil || ref == nil {
		return
	}
	defer func() {
		if e := recover(); e != nil {
			rec.Report(doc.CodeScanUnreadable, doc.Error, fmt.Sprintf("neffscope failed reading %s: %v (a bug: please report it with the file)", ref.path, e))
		}
	}()
	f, err := ref.open()
	if err != nil {
		rec.Report(doc.CodeScanUnreadable, doc.Warning, fmt.Sprintf("cannot read the entry's HLO module %s: %v", ref.path, describeErr(err)))
		return
	}
	defer f.Close()
	size, err := sizeOf(f)
	if err != nil {
		rec.Report(doc.CodeScanUnreadable, doc.Warning, fmt.Sprintf("cannot stat the entry's HLO module %s: %v", ref.path, describeErr(err)))
		return
	}
	b := scanBudget().Within(cliLimits)
	defer b.Done()
	m, _ := hlo.Open(path.Base(ref.path), f, size, hlo.Options{Budget: b})
	rec.AddHLO(m, ref.path)
}

// sizeOf is a file's size: a SectionReader's, an S3 object's, or an os.File's.
func sizeOf(f cachesrc.File) (int64, error) {
	if s, ok := f.(interface{ Size() int64 }); ok {
		return s.Size(), nil
	}
	if s, ok := f.(interface{ Stat() (os.FileInfo, error) }); ok {
		st, err := s.Stat()
		if err != nil {
			return 0, err
		}
		return st.Size(), nil
	}
	return 0, fmt.Errorf("no size")
}

// readOpened reads a NEFF that is not on the file system (a tar member, an S3 object).
func readOpened(it scanItem, maxInflate int64) (rec *fleet.ScanRecord) {
	p := it.path
	defer func() {
		if e := recover(); e != nil {
			rec = fleet.UnreadableRecord(p, it.size, it.siblings, doc.CodeScanUnreadable, fmt.Sprintf("neffscope failed reading %s: %v (a bug: please report it with the file)", p, e))
		}
	}()
	f, err := it.open()
	if err != nil {
		return fleet.UnreadableRecord(p, it.size, it.siblings, doc.CodeScanUnreadable, fmt.Sprintf("cannot open %s: %v", p, err))
	}
	defer f.Close()
	opened := inspect.Open(p, f, it.size, inspect.Options{MaxInflated: maxInflate, Fingerprint: true, Limits: cliLimits, Within: scanBudget()})
	defer opened.Budget.Done()
	return fleet.NewScanRecord(opened, p, it.siblings)
}

// anyRoot walks one scan root: a folder or file on the file system, or a cache that lives in
// a .tar, a .tar.gz or on S3.
func (w *walker) anyRoot(root string) {
	if cachesrc.KindOf(root) == cachesrc.Folder {
		w.root(root)
		return
	}
	if st, err := os.Stat(root); err == nil && st.IsDir() {
		w.root(root) // a folder named like an archive
		return
	}
	src, err := cachesrc.New(context.Background(), root, cachesrc.Options{Keep: func(n string) bool { return isNEFFName(n) || hlo.Match(n) }})
	if err != nil {
		w.unreadRoots.Add(1)
		w.emit(scanItem{path: root, code: fleet.CodeScanUnreadable, problem: fmt.Sprintf("cannot read %s: %v", root, err)})
		return
	}
	// Closed once the readers are done with its entries (scan), not when the walk ends.
	w.sources = append(w.sources, src)
	g := &dirGroups{w: w}
	err = src.Walk(context.Background(), func(e cachesrc.Entry) error {
		w.current.Store(slashDir(e.Path))
		if !g.add(e) {
			return errStopped
		}
		return nil
	})
	g.flushAll()
	if err != nil && err != errStopped {
		w.emit(scanItem{path: root, code: fleet.CodeScanUnreadable, problem: fmt.Sprintf("cannot read all of %s: %v", root, err)})
	}
}

const errStopped = stopErr("stopped")

type stopErr string

func (e stopErr) Error() string { return string(e) }

// dirGroups gathers a listing's entries by directory: a directory's records need the names
// beside each NEFF (its state, its HLO module), so a directory is emitted once the listing has
// left it. Keys and tar members come grouped (a directory's files together, in key order for
// S3), so few directories are open at once.
type dirGroups struct {
	w    *walker
	open []*dirGroup // directories not yet emitted, outermost first
}

type dirGroup struct {
	dir     string // slash path of the directory, as records name it
	entries []cachesrc.Entry
}

func (g *dirGroups) add(e cachesrc.Entry) bool {
	dir := slashDir(e.Path)
	// Emit every open directory the listing has left (one that is not dir or above it).
	for len(g.open) > 0 {
		last := g.open[len(g.open)-1]
		if last.dir == dir || strings.HasPrefix(dir, last.dir+"/") {
			break
		}
		g.open = g.open[:len(g.open)-1]
		if !g.emit(last) {
			return false
		}
	}
	if n := len(g.open); n == 0 || g.open[n-1].dir != dir {
		g.open = append(g.open, &dirGroup{dir: dir})
	}
	top := g.open[len(g.open)-1]
	top.entries = append(top.entries, e)
	return true
}

func (g *dirGroups) flushAll() {
	for i := len(g.open) - 1; i >= 0; i-- {
		if !g.emit(g.open[i]) {
			break
		}
	}
	g.open = nil
}

// emit sends a directory's records, as the folder walker does: a MODULE_ entry without a NEFF
// first, then its NEFFs by name.
func (g *dirGroups) emit(d *dirGroup) bool {
	sort.Slice(d.entries, func(i, j int) bool { return d.entries[i].Path < d.entries[j].Path })
	names := make([]string, len(d.entries))
	hasNEFF := false
	var ref *hloRef
	for i, e := range d.entries {
		names[i] = path.Base(e.Path)
		if isNEFFName(names[i]) {
			hasNEFF = true
		}
		if hlo.Match(names[i]) && ref == nil && e.Kept() {
			ref = &hloRef{path: e.Path, open: e.Open}
		}
	}
	base := path.Base(d.dir)
	if _, ok := fleet.ParseModuleKey(base); ok && !hasNEFF && strings.HasPrefix(base, "MODULE_") {
		if !g.w.emit(scanItem{path: d.dir + "/model.neff", siblings: names, missing: true, hlo: ref}) {
			return false
		}
	}
	for _, e := range d.entries {
		if !isNEFFName(path.Base(e.Path)) {
			continue
		}
		if !g.w.emit(scanItem{path: e.Path, siblings: names, size: e.Size, open: e.Open, hlo: ref}) {
			return false
		}
	}
	return true
}

// slashDir is the directory of a record path, which may be a URL (path.Dir would turn
// "s3://b/k" into "s3:/b").
func slashDir(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
