package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/hlo"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/cachesrc"
)

// hloInputs says whether diff's two arguments are HLO modules or compile-cache entries (a
// folder, a directory inside a .tar/.tar.gz, an s3:// prefix) rather than NEFFs.
func hloInputs(args []string) bool {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Bool("json", false, "")
	commonFlags(fs)
	if fs.Parse(args) != nil || fs.NArg() != 2 {
		return false
	}
	for _, p := range fs.Args() {
		if hlo.Match(p) || strings.HasPrefix(strings.ToLower(p), "s3://") || inArchive(p) {
			continue
		}
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			continue
		}
		return false
	}
	return true
}

// inArchive says whether p names something inside a .tar or .tar.gz ("cache.tar.gz/dir/…").
func inArchive(p string) bool {
	a, _ := splitArchive(p)
	return a != ""
}

// splitArchive splits "x/cache.tar.gz/inner/dir" into the archive file and the path inside it
// ("", "" when p does not go through an archive file that exists).
func splitArchive(p string) (archive, inner string) {
	s := filepath.ToSlash(p)
	for _, ext := range []string{".tar.gz/", ".tgz/", ".tar/"} {
		if i := strings.Index(strings.ToLower(s), ext); i >= 0 {
			a := s[:i+len(ext)-1]
			if st, err := os.Stat(filepath.FromSlash(a)); err == nil && st.Mode().IsRegular() {
				return a, strings.Trim(s[i+len(ext):], "/")
			}
		}
	}
	return "", ""
}

// runHLODiff compares two HLO modules, or two cache entries: their HLO modules, and their NEFFs
// when both have one. Exit status as diff(1): 0 the same graph, 1 different, 2 trouble.
func runHLODiff(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the comparison as JSON: {kind, verdict, summary, differences: [{class, instruction, field, before, after, note}], neff}")
	maxInflate := commonFlags(fs)
	if err := fs.Parse(args); err != nil {
		return parseExit(err)
	}
	shared := commandBudget()
	var ents [2]*cacheEntry
	for i, p := range fs.Args() {
		e, err := loadEntry(p, shared, *maxInflate)
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
		defer e.close()
		ents[i] = e
	}
	a, b := ents[0], ents[1]
	if (a.hlo == nil || b.hlo == nil) && a.onDisk && b.onDisk && a.neffName != "" && b.neffName != "" {
		// Entries without their HLO modules: what is left to compare is their NEFFs.
		fmt.Fprintf(stderr, "neffscope: %s has no HLO module beside its NEFF: comparing the NEFFs\n", map[bool]string{true: a.name, false: b.name}[a.hlo == nil])
		rest := append(args[:len(args)-2:len(args)-2], filepath.FromSlash(a.neffName), filepath.FromSlash(b.neffName))
		return runDiff(rest, stdout, stderr)
	}
	if a.hlo == nil || b.hlo == nil {
		for _, e := range ents {
			if e.hlo == nil {
				fmt.Fprintf(stderr, "neffscope: %s holds no HLO module (model.hlo_module.pb): %s\n", e.name, e.listing())
			}
		}
		return 2
	}
	side := func(e *cacheEntry) fleet.HLOEntry {
		return fleet.HLOEntry{Module: e.hlo, Name: e.hloName, Entry: e.dir, NEFF: e.neffFile, NEFFName: e.neffName}
	}
	d := fleet.DiffHLOEntries(side(a), side(b))
	if *asJSON {
		out, err := d.JSON()
		if err == nil {
			_, err = jsonStdout(stdout).Write(out)
		}
		if err != nil {
			fmt.Fprintf(stderr, "neffscope: %v\n", err)
			return 2
		}
	} else {
		printHLODiff(stdout, d)
	}
	return fleet.HLODiffExit(d)
}

// cacheEntry is one side of an HLO diff: a module alone, or a cache entry's files.
type cacheEntry struct {
	name      string
	dir       bool // a cache entry (a directory), not a module alone
	names     []string
	hlo       *hlo.Module
	hloName   string
	neffFile  *inspect.File
	neffName  string
	closers   []io.Closer
	opener    map[string]func() (cachesrc.File, error)
	sizes     map[string]int64
	sources   []cachesrc.Source
	entryPath string // the slash path records name the entry's files under
	onDisk    bool   // a folder on the file system (its NEFF can be diffed by path)
}

func (e *cacheEntry) close() {
	for _, c := range e.closers {
		c.Close()
	}
	for _, s := range e.sources {
		s.Close()
	}
}

func (e *cacheEntry) listing() string {
	if len(e.names) == 0 {
		return "it holds no file"
	}
	return "it holds " + strings.Join(e.names, ", ")
}

// loadEntry opens p: an HLO module, or a cache entry's directory on disk, in an archive or
// on S3, reading its HLO module and its NEFF.
func loadEntry(p string, shared *budget.Budget, maxInflate int64) (*cacheEntry, error) {
	e := &cacheEntry{name: p, opener: map[string]func() (cachesrc.File, error){}, sizes: map[string]int64{}}
	if err := e.list(p); err != nil {
		return nil, err
	}
	sort.Strings(e.names)
	for _, n := range e.names {
		switch {
		case hlo.Match(n) && e.hlo == nil:
			f, err := e.opener[n]()
			if err != nil {
				return nil, fmt.Errorf("%s: %v", n, err)
			}
			e.closers = append(e.closers, f)
			e.hloName = e.entryPath + n
			m, _ := hlo.Open(e.hloName, f, e.sizes[n], hlo.Options{Budget: shared.Within(cliLimits)})
			e.hlo = m
		case isNEFFName(n) && e.neffFile == nil && e.dir:
			f, err := e.opener[n]()
			if err != nil {
				return nil, fmt.Errorf("%s: %v", n, err)
			}
			e.closers = append(e.closers, f)
			e.neffName = e.entryPath + n
			e.neffFile = inspect.Open(e.neffName, f, e.sizes[n], inspect.Options{MaxInflated: maxInflate, Limits: cliLimits, Within: shared})
		}
	}
	return e, nil
}

// list finds the entry's files: p itself when it is a file, else the files directly in the
// directory p names.
func (e *cacheEntry) list(p string) error {
	switch {
	case strings.HasPrefix(strings.ToLower(p), "s3://"):
		return e.listSource(strings.TrimSuffix(p, "/"), "")
	case inArchive(p):
		a, inner := splitArchive(p)
		return e.listSource(a, inner)
	}
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		e.add(filepath.Base(p), st.Size(), func() (cachesrc.File, error) { return openInput(p) })
		if d := filepath.Dir(p); d != "." {
			e.entryPath = filepath.ToSlash(d) + "/"
		}
		return nil
	}
	e.dir, e.onDisk = true, true
	e.entryPath = strings.TrimSuffix(filepath.ToSlash(p), "/") + "/"
	ents, err := os.ReadDir(p)
	if err != nil {
		return err
	}
	for _, d := range ents {
		if !d.Type().IsRegular() {
			e.names = append(e.names, d.Name())
			continue
		}
		info, err := d.Info()
		if err != nil {
			continue
		}
		fp := filepath.Join(p, d.Name())
		e.add(d.Name(), info.Size(), func() (cachesrc.File, error) { return openInput(fp) })
	}
	return nil
}

func (e *cacheEntry) add(name string, size int64, open func() (cachesrc.File, error)) {
	e.names = append(e.names, name)
	e.sizes[name] = size
	e.opener[name] = open
}

// listSource finds the entry in an archive (root the archive, inner the path inside it) or
// on S3 (root the s3:// URL): the file inner names, or the files directly in that directory.
func (e *cacheEntry) listSource(root, inner string) error {
	keep := func(n string) bool { return isNEFFName(n) || hlo.Match(n) }
	walk := func(r, sub string) (found bool, err error) {
		src, err := cachesrc.New(context.Background(), r, cachesrc.Options{Keep: keep})
		if err != nil {
			return false, err
		}
		e.sources = append(e.sources, src)
		err = src.Walk(context.Background(), func(x cachesrc.Entry) error {
			rel := x.Rel
			if sub != "" {
				var ok bool
				if rel, ok = strings.CutPrefix(rel, sub+"/"); !ok {
					if x.Rel == sub { // the file itself
						e.add(path.Base(x.Rel), x.Size, x.Open)
						found = true
					}
					return nil
				}
			}
			if !strings.Contains(rel, "/") {
				e.add(rel, x.Size, x.Open)
				found = true
			}
			return nil
		})
		return found, err
	}
	if strings.HasPrefix(strings.ToLower(root), "s3://") {
		found, err := walk(root, "")
		if err != nil {
			return err
		}
		e.dir, e.entryPath = true, root+"/"
		if !found { // a key, not a prefix: the object itself
			parent := root[:strings.LastIndexByte(root, '/')]
			e.names, e.sizes, e.opener = nil, map[string]int64{}, map[string]func() (cachesrc.File, error){}
			if _, err := walk(parent, path.Base(root)); err != nil {
				return err
			}
			e.dir, e.entryPath = false, parent+"/"
		}
		return nil
	}
	if _, err := walk(root, inner); err != nil {
		return err
	}
	e.dir = !hlo.Match(inner) && !isNEFFName(inner)
	e.entryPath = root + "/" + inner + "/"
	if !e.dir {
		e.entryPath = root + "/" + path.Dir(inner) + "/"
	}
	return nil
}

// printHLODiff prints the comparison: what it implies first, then the differences by class.
func printHLODiff(w io.Writer, d *fleet.HLODiff) {
	fmt.Fprintf(w, "a: %s\nb: %s\n\n%s: %s\n", d.A, d.B, d.Verdict, d.Summary)
	if len(d.Cache) > 0 {
		fmt.Fprintln(w, "\ncache keys:")
		for _, l := range d.Cache {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	if d.NEFF != nil {
		fmt.Fprintf(w, "\nNEFFs (%s): %s\n", d.NEFF.Code, d.NEFF.Summary)
	}
	for _, f := range d.Findings {
		fmt.Fprintf(w, "%s: %s (%s)\n", f.Severity, f.Message, f.Code)
	}
	if len(d.Differences) == 0 {
		return
	}
	fmt.Fprintf(w, "\ndifferences (%s):\n", strings.TrimSpace(countLine(d)))
	for _, x := range d.Differences {
		where := x.Instruction
		if where == "" {
			where = "(module)"
		}
		fmt.Fprintf(w, "  %-8s %s: %s\n", x.Class, where, x.Field)
		if x.Before != "" {
			fmt.Fprintf(w, "           - %s\n", x.Before)
		}
		if x.After != "" {
			fmt.Fprintf(w, "           + %s\n", x.After)
		}
		if x.Note != "" {
			fmt.Fprintf(w, "           %s\n", x.Note)
		}
	}
	if d.Unlisted > 0 {
		fmt.Fprintf(w, "  … %d more (diff --json lists the first %d too; the counts are whole)\n", d.Unlisted, fleet.MaxHLODifferences)
	}
}

func countLine(d *fleet.HLODiff) string {
	var parts []string
	for _, c := range []hlo.Class{hlo.ClassGraph, hlo.ClassKernel, hlo.ClassMetadata, hlo.ClassVolatile} {
		if n := d.Counts[c]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, c))
		}
	}
	return strings.Join(parts, ", ")
}
