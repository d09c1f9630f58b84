// Command wasmsize says where the bytes of neffscope.wasm go: the file's raw, gzip and brotli
// sizes (the settings of scripts/compress), its sections, the code by Go package, and what
// the data section holds (read from the Go runtime's module data in the memory image).
//
//	make wasm-size                       # builds the wasm, then reports with its build flags
//	make wasm-size ARGS='-func core/pwp'  # the biggest functions whose name contains core/pwp
//	make wasm-size ARGS=-md               # markdown tables
//
// The shipped file is built with -s (no function names), so wasmsize builds the package again
// with the flags given by -build but keeping names, checks that the code section is the same
// bytes, and attributes each function body to its package. Run by hand, pass the Makefile's
// flags (WASM_BUILD) with -build, or the code will differ and only the sizes are reported.
package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/neffscope/neffscope/internal/wasmbin"
)

func main() {
	top := flag.Int("top", 15, "packages (or functions, with -func) to list")
	md := flag.Bool("md", false, "print markdown tables")
	fn := flag.String("func", "", "list the biggest functions whose name contains this instead of packages")
	pkg := flag.String("pkg", "./wasm", "the package FILE was built from, rebuilt to read function names")
	build := flag.String("build", "-trimpath", "the go build flags FILE was built with (besides -ldflags)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [flags] [FILE.wasm]   (default www/neffscope.wasm)")
		flag.PrintDefaults()
	}
	flag.Parse()
	file := "www/neffscope.wasm"
	if flag.NArg() > 0 {
		file = flag.Arg(0)
	}
	module, err := os.ReadFile(file)
	if err == nil {
		var r *report
		if r, err = measure(module); err == nil {
			var named []byte
			if named, err = buildWithNames(*pkg, strings.Fields(*build)); err == nil {
				err = r.attribute(named, *fn)
			}
			if err != nil { // sizes and data are still worth printing
				r.warning = fmt.Sprintf("no breakdown by package: %v", err)
				err = nil
			}
			r.print(os.Stdout, file, *top, *md)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}

// report is everything wasmsize found out about one module.
type report struct {
	raw, gzip, brotli int
	sections          []sectionSize
	code              []byte // the code section's body
	data              []region
	dataNote          string
	byName            []named // packages, or functions with -func
	byFunction        bool
	functions         int
	warning           string
}

type sectionSize struct {
	name        string
	raw, brotli int
}

// region is a part of linear memory the data segments write.
type region struct {
	what        string
	raw, brotli int
}

type named struct {
	name string
	size int
}

func measure(module []byte) (*report, error) {
	sections, err := wasmbin.Sections(module)
	if err != nil {
		return nil, err
	}
	r := &report{raw: len(module), gzip: len(gzipped(module)), brotli: brotliSize(module)}
	other := sectionSize{name: "other (types, imports, exports, globals, names)"}
	for _, s := range sections {
		switch s.ID {
		case wasmbin.Code:
			r.code = s.Body
			r.sections = append(r.sections, sectionSize{"code", len(s.Body), brotliSize(s.Body)})
		case wasmbin.Data:
			r.sections = append(r.sections, sectionSize{"data", len(s.Body), brotliSize(s.Body)})
			segs, err := wasmbin.Segments(s.Body)
			if err != nil {
				return nil, err
			}
			r.data, r.dataNote = dataRegions(segs)
		default:
			other.raw += len(s.Body)
		}
	}
	if r.code == nil {
		return nil, errors.New("the module has no code section")
	}
	r.sections = append(r.sections, other)
	return r, nil
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// brotliQuality is scripts/compress's (tests lower it for speed).
var brotliQuality = brotli.BestCompression

// brotliSize is the size scripts/compress gets: quality 11, a 16 MiB window.
func brotliSize(b []byte) int {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: brotliQuality, LGWin: 24})
	w.Write(b)
	w.Close()
	return buf.Len()
}

// buildWithNames builds pkg for js/wasm with flags and without -s, so that the module keeps
// its "name" section, and returns it.
func buildWithNames(pkg string, flags []string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "wasmsize")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "named.wasm")
	cmd := exec.Command("go", append(append([]string{"build", "-o", out}, flags...), pkg)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
	}
	learnImportPaths(pkg)
	return os.ReadFile(out)
}

// importPaths maps a package's name as the linker writes it ("github.com_hack-pad_safejs"
// read back as "github.com/hack/pad/safejs") to its real import path, for the packages of the
// build: the name alone cannot tell a "-" from a "/".
var importPaths = map[string]string{}

// learnImportPaths fills importPaths from `go list -deps` of pkg for js/wasm; without it (no
// go command) packageOf falls back to reading the name.
func learnImportPaths(pkg string) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		return
	}
	for _, p := range strings.Fields(string(out)) {
		importPaths[mangledPath(p)] = p
	}
}

// mangledPath is how packageOf reads back an import path from a symbol name: every character
// the linker turns into "_" becomes "/".
func mangledPath(p string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' {
			return '/'
		}
		return r
	}, p)
}

// attribute sizes the function bodies of the named build, checking first that its code is
// the measured module's, and sums them by package (or lists the functions matching fn).
func (r *report) attribute(namedModule []byte, fn string) error {
	sections, err := wasmbin.Sections(namedModule)
	if err != nil {
		return err
	}
	var code, names []byte
	imports := 0
	for _, s := range sections {
		switch {
		case s.ID == wasmbin.Code:
			code = s.Body
		case s.ID == wasmbin.Import:
			if imports, err = wasmbin.ImportedFunctions(s.Body); err != nil {
				return err
			}
		case s.ID == wasmbin.Custom && s.Name == "name":
			names = s.Content
		}
	}
	if !bytes.Equal(code, r.code) {
		return errors.New("a fresh build's code differs from the file's: rebuild the file (make wasm), or pass the flags it was built with (-build)")
	}
	if names == nil {
		return errors.New("the fresh build has no name section")
	}
	nameOf, err := wasmbin.FunctionNames(names)
	if err != nil {
		return err
	}
	sizes, err := wasmbin.FunctionBodies(code)
	if err != nil {
		return err
	}
	r.functions, r.byFunction = len(sizes), fn != ""
	totals := map[string]int{}
	for i, size := range sizes {
		name := nameOf[imports+i]
		pkg := packageOf(name)
		if fn != "" {
			// Shown and matched with the package's real path: core/pwp.__Set_.join.
			if full := pkg + strings.TrimPrefix(name, strings.ReplaceAll(pkg, "/", "_")); strings.Contains(full, fn) {
				r.byName = append(r.byName, named{full, size})
			}
			continue
		}
		totals[pkg] += size
	}
	for p, size := range totals {
		r.byName = append(r.byName, named{p, size})
	}
	slices.SortFunc(r.byName, func(a, b named) int { return cmp.Or(b.size-a.size, strings.Compare(a.name, b.name)) })
	return nil
}

// packageOf is the import path of a function's wasm name. The Go linker writes the symbol
// name with "/" and the characters "(*)" as "_": "github.com_neffscope_neffscope_core_pwp.__Set_.join"
// for github.com/neffscope/neffscope/core/pwp.(*Set).join, "fmt.__pp_.doPrintf". The path
// ends at the first "." after its host, if it has one (so a last element with a dot, as in
// gopkg.in/yaml.v3, is cut short). Type equality and hash functions are
// counted together as "(type algorithms)"; assembly helpers without a package keep their name.
func packageOf(name string) string {
	if strings.HasPrefix(name, "type:") || strings.HasPrefix(name, "type_.") {
		return "(type algorithms)"
	}
	from := 0
	if host, _, ok := strings.Cut(name, "_"); ok && isHost(host) {
		from = len(host)
	}
	dot := strings.IndexByte(name[from:], '.')
	if dot < 0 {
		return name
	}
	p := strings.ReplaceAll(name[:from+dot], "_", "/")
	if real, ok := importPaths[p]; ok {
		return real
	}
	return p
}

// isHost says whether s looks like the host at the start of an import path (github.com).
func isHost(s string) bool {
	if !strings.Contains(s, ".") || strings.HasSuffix(s, ".") || strings.HasPrefix(s, ".") {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// dataRegions splits the memory the data segments write by what the Go runtime keeps there,
// using the runtime's module data (runtime.firstmoduledata) found in the image.
func dataRegions(segs []wasmbin.Segment) ([]region, string) {
	base, mem := wasmbin.Memory(segs)
	md, err := findModuleData(base, mem)
	if err != nil {
		return []region{{"all (layout not recognised)", len(mem), brotliSize(mem)}}, err.Error()
	}
	end := uint64(base) + uint64(len(mem))
	cuts := []struct {
		what string
		from uint64
	}{
		{"", uint64(base)},
		{"types, strings, other read-only data", md.rodata},
		{"function names (pclntab)", md.pcHeader},
		{"file and line tables (pclntab)", md.cutab},
		{"pc-value tables (pclntab)", md.pctab},
		{"function table (pclntab)", md.pclntable},
		{"funcdata: stack maps, inlining (pclntab)", md.gofunc},
		{"findfunctab: pc → function, mostly zeros", md.findfunctab},
		{"type and itab links, module data", md.epclntab},
		{"initialised variables (noptrdata, data)", md.noptrdata},
		{"", md.edata},
		{"", end},
	}
	for i := 2; i+1 < len(cuts)-1; i++ {
		if cuts[i+1].from < cuts[i].from {
			return []region{{"all (layout not recognised)", len(mem), brotliSize(mem)}}, fmt.Sprintf("module data regions out of order after %q", cuts[i].what)
		}
	}
	clamp := func(a uint64) uint64 { return min(max(a, uint64(base)), end) }
	var out []region
	for i := 0; i+1 < len(cuts); i++ {
		from, to := clamp(cuts[i].from), clamp(cuts[i+1].from)
		if to < from {
			to = from
		}
		part := mem[from-uint64(base) : to-uint64(base)]
		if cuts[i].what == "" {
			if len(part) > 0 && bytes.ContainsFunc(part, func(r rune) bool { return r != 0 }) {
				out = append(out, region{"other", len(part), brotliSize(part)})
			}
			continue
		}
		out = append(out, region{cuts[i].what, len(part), brotliSize(part)})
	}
	return out, ""
}

// moduleData is what dataRegions needs of runtime.moduledata (runtime/symtab.go).
type moduleData struct {
	pcHeader, cutab, pctab, pclntable, findfunctab uint64
	noptrdata, edata, rodata, gofunc, epclntab     uint64
}

// findModuleData finds runtime.firstmoduledata: the one 8-byte word in the image that points
// at the pclntab header (magic 0xfffffff1, Go 1.20 and later), read with the field layout of
// Go 1.26's runtime.moduledata and cross-checked against the header's own offsets.
func findModuleData(base uint32, mem []byte) (moduleData, error) {
	le := func(at int) uint64 {
		if at < 0 || at+8 > len(mem) {
			return 0
		}
		var v uint64
		for i := 7; i >= 0; i-- {
			v = v<<8 | uint64(mem[at+i])
		}
		return v
	}
	header := -1
	for at := int(-base) & 3; at+72 < len(mem); at += 4 { // the header is 4-aligned in memory
		if mem[at] == 0xf1 && mem[at+1] == 0xff && mem[at+2] == 0xff && mem[at+3] == 0xff && mem[at+4] == 0 && mem[at+5] == 0 && mem[at+7] == 8 {
			header = at
			break
		}
	}
	if header < 0 {
		return moduleData{}, errors.New("no Go pclntab header in the data")
	}
	addr := uint64(base) + uint64(header)
	// pcHeader: magic, pads, minLC, ptrSize (8 bytes), nfunc, nfiles, unused, then the
	// offsets of funcnametab, cutab, filetab, pctab, pclntab.
	funcnameOff, cuOff, pctabOff, pclnOff := le(header+32), le(header+40), le(header+56), le(header+64)
	for at := int(-base) & 7; at+8*48 <= len(mem); at += 8 {
		if le(at) != addr {
			continue
		}
		// moduledata: pcHeader, then five slices (ptr, len, cap) funcnametab, cutab, filetab,
		// pctab, pclntable, then ftab, findfunctab, minpc, maxpc, text, etext, noptrdata,
		// enoptrdata, data, edata, bss, ebss, noptrbss, enoptrbss, covctrs, ecovctrs, end,
		// gcdata, gcbss, types, etypes, rodata, gofunc, epclntab.
		word := func(i int) uint64 { return le(at + 8*i) }
		md := moduleData{pcHeader: addr, cutab: word(4), pctab: word(10), pclntable: word(13),
			findfunctab: word(19), noptrdata: word(24), edata: word(27), rodata: word(39),
			gofunc: word(40), epclntab: word(41)}
		if word(1) == addr+funcnameOff && md.cutab == addr+cuOff && md.pctab == addr+pctabOff && md.pclntable == addr+pclnOff {
			return md, nil
		}
	}
	return moduleData{}, errors.New("no runtime module data pointing at the pclntab header (a Go version with another layout?)")
}

func (r *report) print(w io.Writer, file string, top int, md bool) {
	pct := func(part, whole int) string { return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(max(whole, 1))) }
	fmt.Fprintf(w, "%s: raw %s B, gzip %s B, brotli %s B\n\n", file, thousands(r.raw), thousands(r.gzip), thousands(r.brotli))
	t := table{md: md, head: []string{"section", "raw B", "brotli B (alone)"}}
	for _, s := range r.sections {
		b := "—"
		if s.brotli > 0 {
			b = thousands(s.brotli)
		}
		t.add(s.name, thousands(s.raw), b)
	}
	t.print(w)
	if r.warning != "" {
		fmt.Fprintf(w, "\n%s\n", r.warning)
	} else {
		codeTotal := len(r.code)
		t = table{md: md, head: []string{"package", "code B", "share of code"}}
		if r.byFunction {
			t.head[0] = "function"
			fmt.Fprintln(w, "\nbiggest functions")
		} else {
			fmt.Fprintf(w, "\ncode by package (%d functions)\n", r.functions)
		}
		shown := 0
		for i, n := range r.byName {
			if i == top {
				break
			}
			t.add(n.name, thousands(n.size), pct(n.size, codeTotal))
			shown += n.size
		}
		if rest := len(r.byName) - top; rest > 0 && !r.byFunction {
			t.add(fmt.Sprintf("(%d more)", rest), thousands(codeTotal-shown), pct(codeTotal-shown, codeTotal))
		}
		t.print(w)
	}
	fmt.Fprintln(w, "\ndata: what the segments write into linear memory")
	t = table{md: md, head: []string{"part", "bytes in memory", "brotli B (alone)"}}
	for _, d := range r.data {
		t.add(d.what, thousands(d.raw), thousands(d.brotli))
	}
	t.print(w)
	if r.dataNote != "" {
		fmt.Fprintf(w, "(%s)\n", r.dataNote)
	}
}

// table prints aligned text columns, or markdown.
type table struct {
	md   bool
	head []string
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) print(w io.Writer) {
	if t.md {
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(t.head, " | "), strings.Repeat("---|", len(t.head)))
		for _, r := range t.rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
		}
		return
	}
	width := make([]int, len(t.head))
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, r := range append([][]string{t.head}, t.rows...) {
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i == 0 {
				fmt.Fprintf(w, "%s%s", c, pad)
			} else {
				fmt.Fprintf(w, "  %s%s", pad, c)
			}
		}
		fmt.Fprintln(w)
	}
}

// thousands writes n with comma separators: 6031926 → "6,031,926".
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
