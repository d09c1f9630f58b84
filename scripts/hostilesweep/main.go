// Command hostilesweep checks the bounds every hostile class must keep, on every hostile class
// (neffbuild.HostileClasses): it builds the CLI once, writes each class (scripts/hostile), runs
// every command that accepts a NEFF on it under /usr/bin/time, and checks each run's wall and
// CPU time, peak RSS, that JSON parses where JSON was asked, that no raw control, bidi or
// zero-width rune reaches stdout or stderr, that no CSV cell is a live formula, and that the
// output names a coded finding the class's `inspect --json` carries. Then it opens each class
// in the wasm core under Node (wasm's TestSweepFile) and reads the Node process's peak RSS.
//
// It prints one table row per class × command, and a summary. Timings on a shared machine are
// noisy: the load average is printed, and CPU time beside wall time.
//
//	make hostile                       (PATH must hold $(go env GOROOT)/lib/wasm for -wasm)
//	go run ./scripts/hostilesweep -only table-loads -cmd coverage
package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The bounds every hostile class must keep.
const (
	maxWall = 15 * time.Second
	maxRSS  = 256 // MiB
)

// cmdSpec is one command line; F is the class's NEFF, R a real NEFF, D a directory holding F,
// P a .pt (zip) holding F, O an output path.
type cmdSpec struct {
	name string
	args []string
	out  string // "json", "jsonl", "csv" or "text"
	// reads says which limit codes the command can reach; nil: all. A command that never
	// reads what a limit cut has no limit to name (the verdict is "n/a" for that code).
	reads func(code string) bool
}

// notDebugInfo: info, sync and memmap open a NEFF with its source lines deferred
// (inspect.Options.DeferSource) and never map them, so the .dbg decoder's limits are not
// reached there (info says which .dbg members it did not read).
func notDebugInfo(code string) bool { return !strings.HasPrefix(code, "dbg.") }

// zipOnly: extract-neff copies the NEFF out of the .pt without decoding it; only the zip's
// own limits apply.
func zipOnly(code string) bool { return strings.HasPrefix(code, "zip.") }

var cmds = []cmdSpec{
	{"info", []string{"info", "--members", "F"}, "text", notDebugInfo},
	{"info --json", []string{"info", "--json", "F"}, "json", notDebugInfo},
	{"inspect", []string{"inspect", "F"}, "text", nil},
	{"inspect --json", []string{"inspect", "--json", "F"}, "json", nil},
	{"disasm", []string{"disasm", "F"}, "text", nil},
	{"disasm --json", []string{"disasm", "--json", "F"}, "json", nil},
	{"coverage", []string{"coverage", "F"}, "text", nil},
	{"coverage --json", []string{"coverage", "--json", "F"}, "json", nil},
	{"profile", []string{"profile", "F"}, "text", nil},
	{"profile --json", []string{"profile", "--json", "F"}, "json", nil},
	{"profile --by-line --csv", []string{"profile", "--by-line", "--csv", "F"}, "csv", nil},
	{"memory --json", []string{"memory", "--json", "F"}, "json", nil},
	{"sync --json", []string{"sync", "--json", "F"}, "json", notDebugInfo},
	{"memmap --json", []string{"memmap", "--json", "F"}, "json", notDebugInfo},
	{"diff --json F real", []string{"diff", "--json", "F", "R"}, "json", nil},
	{"diff real F", []string{"diff", "R", "F"}, "text", nil},
	{"compare --json F real F", []string{"compare", "--json", "F", "R", "F"}, "json", nil},
	{"scan --jsonl dir", []string{"scan", "--jsonl", "-q", "D"}, "jsonl", nil},
	{"scan --csv dir", []string{"scan", "--csv", "-q", "D"}, "csv", nil},
	{"extract-neff --list pt", []string{"extract-neff", "--list", "P"}, "text", zipOnly},
	{"extract-neff -o pt", []string{"extract-neff", "-o", "O", "--force", "P"}, "text", zipOnly},
}

type result struct {
	class, cmd       string
	wall, cpu        float64
	rssMiB           int64
	rc               int
	killed           bool
	jsonOK, textOK   string // "ok", "n/a" or what failed
	csvOK, findingOK string
	outBytes         int64
	note             string
}

func main() {
	only := flag.String("only", "", "comma-separated classes to run (default: all)")
	onlyCmd := flag.String("cmd", "", "comma-separated commands to run, by their table name, or wasm for the wasm core's runs (default: all)")
	dir := flag.String("dir", "", "work directory (default: a new temporary one, removed at the end)")
	kill := flag.Duration("kill", 60*time.Second, "kill a run after this long")
	tableScale := flag.Float64("table-loads-scale", 32, "scale of table-loads (32: the issue's 2 GiB stream)")
	wasm := flag.Bool("wasm", true, "also open each class in the wasm core under Node")
	wasmFlags := flag.String("wasm-flags", "", "the build flags of the wasm (the Makefile's WASM_FLAGS)")
	flag.Parse()

	work := *dir
	if work == "" {
		d, err := os.MkdirTemp("", "hostilesweep")
		check(err)
		defer os.RemoveAll(d)
		work = d
	}
	bin := filepath.Join(work, "neffscope")
	step("building the CLI", exec.Command("go", "build", "-o", bin, "./cmd/neffscope"))
	classesDir := filepath.Join(work, "classes")
	step("writing the classes", exec.Command("go", "run", "./scripts/hostile", "-o", classesDir))
	step("writing table-loads at scale "+fmt.Sprint(*tableScale), exec.Command("go", "run", "./scripts/hostile", "-o", classesDir, "-only", "table-loads", "-scale", fmt.Sprint(*tableScale)))
	real, ok := realfiles.Find("nkipy/matmul_small.neff")
	if !ok {
		fmt.Fprintln(os.Stderr, "hostilesweep: no real NEFF (nkipy/matmul_small.neff) for diff and compare")
		os.Exit(1)
	}

	wantClass := set(*only)
	wantCmd := set(*onlyCmd)
	var results []result
	fmt.Printf("# hostile sweep %s, load average %s, %d CPUs\n", time.Now().UTC().Format("2006-01-02 15:04 MST"), loadavg(), numCPU())
	for _, h := range neffbuild.HostileClasses() {
		if len(wantClass) > 0 && !wantClass[h.Name] {
			continue
		}
		f := filepath.Join(classesDir, h.Name+".neff")
		st, err := os.Stat(f)
		check(err)
		cdir := filepath.Join(work, "run", h.Name)
		scanDir := filepath.Join(cdir, "scan")
		check(os.MkdirAll(scanDir, 0o755))
		os.Remove(filepath.Join(scanDir, h.Name+".neff"))
		check(os.Link(f, filepath.Join(scanDir, h.Name+".neff")))
		pt := filepath.Join(cdir, h.Name+".pt")
		check(writePT(pt, f))
		// The limit codes the class's document carries: a run passes "finding" when it names one.
		codes := classCodes(bin, f)
		fmt.Printf("\n## %s (%d bytes): %s; codes %v\n", h.Name, st.Size(), h.What, codes)
		for _, c := range cmds {
			if len(wantCmd) > 0 && !wantCmd[c.name] {
				continue
			}
			var argv []string
			for _, a := range c.args {
				switch a {
				case "F":
					a = f
				case "R":
					a = real
				case "D":
					a = scanDir
				case "P":
					a = pt
				case "O":
					a = filepath.Join(cdir, "extracted.neff")
					os.Remove(a)
				}
				argv = append(argv, a)
			}
			r := runOne(bin, argv, c, cdir, *kill)
			r.class, r.cmd = h.Name, c.name
			r.findingOK = findingVerdict(r, c, codes, filepath.Join(cdir, "stdout"), filepath.Join(cdir, "stderr"))
			results = append(results, r)
			printRow(r)
		}
		if *wasm && (len(wantCmd) == 0 || wantCmd["wasm"]) { // -cmd wasm: the wasm runs alone
			r := runWasm(work, f, *kill, *wasmFlags)
			r.class, r.cmd = h.Name, "wasm: open, indexSource, json, next call"
			results = append(results, r)
			printRow(r)
		}
	}
	summary(results)
}

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			m[x] = true
		}
	}
	return m
}

func step(what string, c *exec.Cmd) {
	fmt.Fprintf(os.Stderr, "hostilesweep: %s\n", what)
	c.Stderr = os.Stderr
	if err := c.Run(); err != nil {
		fmt.Fprintf(os.Stderr, "hostilesweep: %s: %v\n", what, err)
		os.Exit(1)
	}
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostilesweep:", err)
		os.Exit(1)
	}
}

// writePT writes a zip holding the NEFF as model/<name>.neff, stored, as a TorchScript .pt does.
func writePT(pt, neff string) error {
	out, err := os.Create(pt)
	if err != nil {
		return err
	}
	defer out.Close()
	in, err := os.Open(neff)
	if err != nil {
		return err
	}
	defer in.Close()
	zw := zip.NewWriter(out)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "model/" + filepath.Base(neff), Method: zip.Store})
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, in); err != nil {
		return err
	}
	return zw.Close()
}

// timed runs argv under /usr/bin/time (a child's own rusage would count the sweep's memory
// at the fork), stdout and stderr to files in dir, killing its process group after kill.
func timed(argv []string, env []string, dir string, kill time.Duration) (wall, cpu float64, rss int64, rc int, killed bool) {
	ctx, cancel := context.WithTimeout(context.Background(), kill)
	defer cancel()
	timeFile := filepath.Join(dir, "time")
	c := exec.Command("/usr/bin/time", append([]string{"-o", timeFile, "-f", "%e %U %S %M"}, argv...)...)
	c.Env = append(os.Environ(), env...)
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	so, err := os.Create(filepath.Join(dir, "stdout"))
	check(err)
	se, err := os.Create(filepath.Join(dir, "stderr"))
	check(err)
	defer so.Close()
	defer se.Close()
	c.Stdout, c.Stderr = so, se
	start := time.Now()
	check(c.Start())
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
		err = <-done
		killed = true
	}
	wall = time.Since(start).Seconds()
	rc = c.ProcessState.ExitCode()
	if b, e := os.ReadFile(timeFile); e == nil {
		// The last line: /usr/bin/time writes "Command exited with non-zero status" before it.
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		var e, u, s float64
		var m int64
		if n, _ := fmt.Sscanf(lines[len(lines)-1], "%f %f %f %d", &e, &u, &s, &m); n == 4 {
			wall, cpu, rss = e, u+s, m>>10
		}
	}
	if killed {
		// /usr/bin/time was killed with its child: the peak is unknown.
		rss = -1
	}
	return
}

func runOne(bin string, argv []string, c cmdSpec, dir string, kill time.Duration) result {
	var r result
	r.wall, r.cpu, r.rssMiB, r.rc, r.killed = timed(append([]string{bin}, argv...), nil, dir, kill)
	out := filepath.Join(dir, "stdout")
	if st, err := os.Stat(out); err == nil {
		r.outBytes = st.Size()
	}
	r.jsonOK, r.csvOK = "n/a", "n/a"
	if errs, _ := os.ReadFile(filepath.Join(dir, "stderr")); r.outBytes == 0 && r.rc != 0 && len(errs) > 0 {
		// Refused with a message on stderr and nothing on stdout (disasm of a file without
		// streams): nothing was printed to parse.
		r.note = "refused: " + strings.TrimSpace(string(errs[:min(len(errs), 80)]))
		r.jsonOK, r.csvOK = "refused", "refused"
		if c.out != "json" && c.out != "jsonl" {
			r.jsonOK = "n/a"
		}
		if c.out != "csv" {
			r.csvOK = "n/a"
		}
		r.textOK = rawVerdict(filepath.Join(dir, "stderr"))
		return r
	}
	switch c.out {
	case "json":
		r.jsonOK = jsonVerdict(out, false)
	case "jsonl":
		r.jsonOK = jsonVerdict(out, true)
	case "csv":
		r.csvOK = csvVerdict(out)
	}
	r.textOK = rawVerdict(out)
	if v := rawVerdict(filepath.Join(dir, "stderr")); v != "ok" {
		r.textOK = "stderr: " + v
	}
	return r
}

// jsonVerdict: the file is one JSON value (lines: one per line, each whole).
func jsonVerdict(p string, lines bool) string {
	f, err := os.Open(p)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	if lines {
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<30)
		n := 0
		for sc.Scan() {
			n++
			if !json.Valid(sc.Bytes()) {
				return fmt.Sprintf("line %d does not parse", n)
			}
		}
		if n == 0 {
			return "empty"
		}
		return "ok"
	}
	d := json.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	var v json.RawMessage
	if err := d.Decode(&v); err != nil {
		return "does not parse: " + err.Error()
	}
	if _, err := d.Token(); err != io.EOF {
		return "more after the value"
	}
	return "ok"
}

// forging reports the runes that must not reach a terminal raw: C0 controls but newline and
// tab, DEL, C1 controls, the line and paragraph separators, bidi controls, zero-width
// characters, the BOM, tag characters; and bytes that are not UTF-8.
func forging(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\n' && r != '\t'
	case r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff:
		return true
	case r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return unicode.Is(unicode.Cf, r) && r != 0x00ad
}

func rawVerdict(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var off int64
	for {
		r, n, err := br.ReadRune()
		if err != nil {
			return "ok"
		}
		if r == utf8.RuneError && n == 1 {
			return fmt.Sprintf("a byte that is not UTF-8 at %d", off)
		}
		if forging(r) {
			return fmt.Sprintf("%U raw at %d", r, off)
		}
		off += int64(n)
	}
}

var csvNumber = regexp.MustCompile(`^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// csvVerdict: every cell parses, and none a spreadsheet would run (one starting with = + - @,
// their fullwidth forms, tab or CR, after leading white space and format characters, that is
// not a plain number).
func csvVerdict(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	cr := csv.NewReader(bufio.NewReader(f))
	cr.FieldsPerRecord = -1
	rows := 0
	for {
		row, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "does not parse: " + err.Error()
		}
		rows++
		for _, cell := range row {
			if cell == "" || csvNumber.MatchString(cell) {
				continue
			}
			if cell[0] == '\t' || cell[0] == '\r' {
				return fmt.Sprintf("live cell %q", cell)
			}
			t := strings.TrimLeftFunc(cell, func(r rune) bool { return unicode.In(r, unicode.White_Space, unicode.Cc, unicode.Cf) })
			if r, _ := utf8.DecodeRuneInString(t); t != "" && strings.ContainsRune("=+-@＝＋－＠", r) {
				return fmt.Sprintf("live cell %q", cell)
			}
		}
	}
	if rows == 0 {
		return "empty"
	}
	return "ok"
}

// classCodes is the limit codes of the findings the class's `inspect --json` carries.
func classCodes(bin, f string) []string {
	c := exec.Command(bin, "inspect", "--json", f)
	var out bytes.Buffer
	c.Stdout = &out
	c.Run()
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if code, ok := x["code"].(string); ok && doc.IsLimit(doc.Code(code)) {
				seen[code] = true
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	var v any
	if json.Unmarshal(out.Bytes(), &v) == nil {
		walk(v)
	}
	var codes []string
	for c := range seen {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	return codes
}

// findingVerdict: when the class reaches a limit (its document carries a limit code,
// doc.IsLimit), the run names it: by one of the codes (JSON in its findings, text in the
// "[code]" of the lines every command relays on stderr), or, in text, by a finding that says
// "limit" or names a --max- flag. "n/a" when the class reaches no limit.
func findingVerdict(r result, c cmdSpec, codes []string, stdout, stderr string) string {
	if c.reads != nil {
		codes = slices.DeleteFunc(slices.Clone(codes), func(code string) bool { return !c.reads(code) })
	}
	if len(codes) == 0 {
		return "n/a"
	}
	words := [][]byte{}
	for _, code := range codes {
		words = append(words, []byte(code))
	}
	if c.out == "text" || c.out == "csv" {
		words = append(words, []byte("limit"), []byte("--max-"), []byte("Limit"))
	}
	for _, p := range []string{stderr, stdout} {
		f, err := os.Open(p)
		if err != nil {
			continue
		}
		// The head and the tail: findings come first (JSON, text) or last (a cap's record).
		head := make([]byte, 4<<20)
		n, _ := io.ReadFull(f, head)
		head = head[:n]
		var tail []byte
		if st, err := f.Stat(); err == nil && st.Size() > int64(n) {
			tail = make([]byte, 4<<20)
			m, _ := f.ReadAt(tail, max(int64(n), st.Size()-int64(len(tail))))
			tail = tail[:m]
		}
		f.Close()
		for _, w := range words {
			if bytes.Contains(head, w) || bytes.Contains(tail, w) {
				return "ok"
			}
		}
	}
	return "no limit named"
}

// runWasm opens the class in the wasm core under Node (wasm's TestSweepFile) and reads the
// Node process's peak RSS.
func runWasm(work, f string, kill time.Duration, flags string) result {
	test := filepath.Join(work, "wasm.test")
	if _, err := os.Stat(test); err != nil {
		args := append([]string{"test", "-c", "-o", test}, strings.Fields(flags)...)
		c := exec.Command("go", append(args, "./wasm")...)
		c.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		step("building the wasm tests", c)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	check(err)
	runner := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec_node.js")
	dir := filepath.Join(filepath.Dir(f), "..", "wasm-"+strings.TrimSuffix(filepath.Base(f), ".neff"))
	check(os.MkdirAll(dir, 0o755))
	var r result
	r.wall, r.cpu, r.rssMiB, r.rc, r.killed = timed([]string{"node", "--stack-size=8192", runner, test, "-test.run=^TestSweepFile$", "-test.v"},
		[]string{"NEFFSCOPE_SWEEP_FILE=" + f}, dir, kill)
	out, _ := os.ReadFile(filepath.Join(dir, "stdout"))
	r.jsonOK, r.textOK, r.csvOK, r.findingOK = "n/a", "n/a", "n/a", "n/a"
	if i := bytes.Index(out, []byte("sweep: ")); i >= 0 && r.rc == 0 {
		line, _, _ := strings.Cut(string(out[i+7:]), "\n")
		r.note = line
	} else {
		tail := out[max(0, len(out)-300):]
		r.note = "FAILED: " + strings.ReplaceAll(string(tail), "\n", " ")
	}
	return r
}

func timeVerdict(r result) string {
	switch {
	case r.killed:
		return "killed"
	case r.wall <= maxWall.Seconds():
		return "ok"
	case r.cpu <= maxWall.Seconds():
		return "wall only" // over on the wall, within on CPU: the machine's load
	}
	return "over"
}

func rssVerdict(r result) string {
	if r.rssMiB < 0 {
		return "unknown"
	}
	if r.rssMiB <= maxRSS {
		return "ok"
	}
	return "over"
}

func printRow(r result) {
	note := r.note
	if r.outBytes > 0 {
		note = strings.TrimSpace(note + " " + human(r.outBytes) + " out")
	}
	fmt.Printf("| %s | %s | %.2f s | %.2f s | %d MiB | %d | time %s, rss %s, json %s, text %s, csv %s, finding %s | %s |\n",
		r.class, r.cmd, r.wall, r.cpu, r.rssMiB, r.rc, timeVerdict(r), rssVerdict(r), r.jsonOK, r.textOK, r.csvOK, r.findingOK, note)
}

func human(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func summary(rs []result) {
	count := func(f func(r result) string) string {
		m := map[string]int{}
		for _, r := range rs {
			m[f(r)]++
		}
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		var parts []string
		for _, k := range ks {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
		return strings.Join(parts, ", ")
	}
	short := func(s string) string {
		if s == "ok" || s == "n/a" || s == "refused" {
			return s
		}
		return "FAIL"
	}
	fmt.Printf("\n# summary: %d runs, load average %s\n", len(rs), loadavg())
	fmt.Println("time (≤ 15 s wall):", count(timeVerdict))
	fmt.Println("peak RSS (≤ 256 MiB):", count(rssVerdict))
	fmt.Println("JSON parses (refused: nothing on stdout, an error on stderr):", count(func(r result) string { return short(r.jsonOK) }))
	fmt.Println("no raw control/bidi/zero-width:", count(func(r result) string { return short(r.textOK) }))
	fmt.Println("no live CSV formula:", count(func(r result) string { return short(r.csvOK) }))
	fmt.Println("names the limit reached (n/a: the class reaches none):", count(func(r result) string { return short(r.findingOK) }))
	wasmOK := 0
	wasmN := 0
	for _, r := range rs {
		if strings.HasPrefix(r.cmd, "wasm") {
			wasmN++
			if strings.HasSuffix(r.note, "next=ok") {
				wasmOK++
			}
		}
	}
	fmt.Printf("wasm survives and answers the next call: %d of %d\n", wasmOK, wasmN)
	fmt.Println("\nfailures:")
	for _, r := range rs {
		if timeVerdict(r) != "ok" || rssVerdict(r) != "ok" || short(r.jsonOK) == "FAIL" || short(r.textOK) == "FAIL" ||
			short(r.csvOK) == "FAIL" || short(r.findingOK) == "FAIL" || strings.HasPrefix(r.note, "FAILED") {
			printRow(r)
		}
	}
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:3], " ")
}

func numCPU() int {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return 0
	}
	return strings.Count(string(b), "processor\t:")
}
