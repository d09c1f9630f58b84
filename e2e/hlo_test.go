package e2e

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/hlo"
	"github.com/neffscope/neffscope/internal/cachetest"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// The page on XLA HLO modules (views/hlo.js, views/hlodiff.js, the cache's graphs), on the
// eight real modules of one attention graph (shared nki-moe/hlo), laid out as a compile cache
// in a temporary folder at test time; what it shows is checked against the CLI.

// realModules lists the eight real modules, or skips t.
func realModules(t *testing.T) []string {
	t.Helper()
	paths := realfiles.Glob("nki-moe/hlo/*.hlo_module.pb")
	if len(paths) != 8 {
		t.Skip(realfiles.Missing("nki-moe/hlo/*.hlo_module.pb"))
	}
	return paths
}

var (
	cliOnce sync.Once
	cliPath string
	cliErr  error
)

// cli builds the CLI once for the tests and benchmarks that compare the page with it.
func cli(t testing.TB) string {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "neffscope-e2e-cli-")
		if err != nil {
			cliErr = err
			return
		}
		cliPath = filepath.Join(dir, "neffscope")
		if out, err := exec.Command("go", "build", "-o", cliPath, "../cmd/neffscope").CombinedOutput(); err != nil {
			cliErr = err
			cliPath = string(out)
		}
	})
	if cliErr != nil {
		t.Fatalf("building the CLI: %v\n%s", cliErr, cliPath)
	}
	return cliPath
}

// runCLI runs the CLI in dir and returns its stdout (exit status 0 or 1 is expected).
func runCLI(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(cli(t), args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 1) {
		t.Fatalf("neffscope %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.String()
}

// hloState is what the page's graph diff holds (globalThis.neffscope.hlodiff).
type hloState struct {
	Shown, Ready   bool
	Error, Verdict string
	Neff, JSON     string
	Counts         map[string]int
	A, B           int
}

func (p *page) waitGraphDiff() hloState {
	p.t.Helper()
	p.waitFor(`neffscope.hlodiff.shown && neffscope.hlodiff.ready && !!document.getElementById('hlodiff-verdict')`, "the graph diff")
	s := eval[hloState](p, `neffscope.hlodiff`)
	if s.Error != "" {
		p.t.Fatalf("the graph diff failed: %s", s.Error)
	}
	return s
}

// dropFolders drags folders onto the page (a real drag through the DevTools protocol, so the
// page gets directory entries).
func (p *page) dropFolders(dirs ...string) {
	p.t.Helper()
	data := &input.DragData{Files: dirs, Items: []*input.DragDataItem{}, DragOperationsMask: 1}
	for _, ty := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := chromedp.Call(p.ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: ty, X: 700, Y: 400, Data: data}); err != nil {
			p.t.Fatalf("%s: %v", ty, err)
		}
	}
}

// A module opens on its view: the kernel call with its decoded config and the temporary path
// flagged, the graph digest scan and diff name, the instructions, the attributes; a row leads
// to the instruction, whose operands and users lead on; a config value selects its bytes.
func TestHLOModuleView(t *testing.T) {
	paths := realModules(t)
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	m, _ := hlo.Open(filepath.Base(paths[0]), bytes.NewReader(data), int64(len(data)), hlo.Options{Budget: budget.New(budget.Native())})
	p := newPage(t, siteURL)
	p.openWithPicker(paths[0])
	p.waitFor(`document.getElementById('hlo-view') && !document.getElementById('hlo-view').hidden && document.body.classList.contains('dash')`, "the module's view as the landing dashboard")

	type moduleView struct {
		Mode, Graph, Kernel, Target string
		Codes                       []string
		Rows                        int
		CallRows                    []string
		Keys                        []string
		SetAttrs, EmptyAttrs        int
	}
	v := eval[moduleView](p, `(() => { const r = document.getElementById('hlo-view'); return {
		Mode: r.dataset.mode, Graph: document.getElementById('hlo-graph').textContent,
		Kernel: (r.querySelector('.hlo-call') || {dataset: {}}).dataset.kernel || '',
		Target: (r.querySelector('.hlo-call .hlo-target') || {}).textContent || '',
		Codes: Array.from(r.querySelectorAll('.hlo-call .finding')).map((f) => f.dataset.code),
		Rows: document.querySelectorAll('#hlo-instr tbody tr').length,
		CallRows: Array.from(document.querySelectorAll('#hlo-instr tbody tr.call')).map((tr) => tr.dataset.name),
		Keys: Array.from(r.querySelectorAll('.hlo-call tr')).map((tr) => tr.dataset.key),
		SetAttrs: r.querySelectorAll('.hlo-attrs tr').length, EmptyAttrs: r.querySelectorAll('.hlo-empty-keys .hlo-key').length,
	}; })()`)
	if v.Mode != "module" || v.Graph != m.GraphDigest() || v.Kernel != "qwen3_attn_tkg_fused" || v.Target != "AwsNeuronCustomNativeKernel" {
		t.Errorf("module view: %+v; want graph %s", v, m.GraphDigest())
	}
	if strings.Join(v.Codes, ",") != "hlo.temporary-path" {
		t.Errorf("the kernel call's findings %v, want hlo.temporary-path", v.Codes)
	}
	if v.Rows != m.Instructions() || strings.Join(v.CallRows, ",") != "custom-call.1" {
		t.Errorf("%d instruction rows (want %d), calls %v", v.Rows, m.Instructions(), v.CallRows)
	}
	if !containsAll(v.Keys, "klir_binary.binary", "func_name", "grid") {
		t.Errorf("config values %v", v.Keys)
	}
	if v.SetAttrs+v.EmptyAttrs != len(m.FrontendAttrs) || v.SetAttrs == 0 || v.EmptyAttrs == 0 {
		t.Errorf("attributes: %d set + %d empty, want %d", v.SetAttrs, v.EmptyAttrs, len(m.FrontendAttrs))
	}
	p.bothSizes("hlo-module", "the module view", func() { p.click("#pane-tab-content") }) // a narrow window shows one pane at a time

	// The custom call's row: the instruction, its 12 operands, the call's card; an operand leads on.
	p.click(`#hlo-instr tr.call`)
	p.waitFor(`document.getElementById('hlo-view').dataset.mode === 'instruction'`, "the instruction view")
	var custom *hlo.Instruction
	for _, in := range m.Entry().Instructions {
		if in.Opcode == "custom-call" {
			custom = in
		}
	}
	ops := eval[[]string](p, `Array.from(document.querySelectorAll('#hlo-view [data-links="operands"] .hlo-ref')).map((b) => b.textContent)`)
	if len(ops) != len(custom.Operands) || ops[0] != "%p10.11" {
		t.Errorf("operands %v, want %d", ops, len(custom.Operands))
	}
	if hl := eval[map[string]any](p, `neffscope.hex.hl || {}`); hl["off"] != float64(custom.Span.Offset) || hl["len"] != float64(custom.Span.Length) {
		t.Errorf("the instruction's bytes %v, want %d+%d", hl, custom.Span.Offset, custom.Span.Length)
	}
	if shotsOn() {
		p.shot("/tmp/neffscope-hlo-instruction.png")
	}
	p.click(`#hlo-view [data-links="operands"] .hlo-ref`)
	p.waitFor(`document.querySelector('#hlo-view .hlo-title') && document.querySelector('#hlo-view .hlo-title').textContent === '%p10.11'`, "the operand's view")
	if users := eval[[]string](p, `Array.from(document.querySelectorAll('#hlo-view [data-links="used by"] .hlo-ref')).map((b) => b.textContent)`); strings.Join(users, ",") != "%custom-call.1" {
		t.Errorf("p10.11 used by %v", users)
	}
	// A config value of the call selects its base64 characters.
	p.goRoot()
	p.click(`#hlo-view .hlo-call tr[data-key="klir_binary.binary"]`)
	var leaf hlo.Leaf
	for _, l := range custom.Backend.Leaves {
		if l.Path == "klir_binary.binary" {
			leaf = l
		}
	}
	p.waitFor(`(neffscope.hex.hl || {}).off === `+jsonInt(leaf.Span.Offset), "the path's base64 bytes highlighted")
}

// bothSizes checks that the page fits 800×600 (after narrow, if any, run at that size) and,
// with NEFFSCOPE_SHOTS set, saves it at 1440×900 and 800×600 as /tmp/neffscope-<name>[-800].png.
func (p *page) bothSizes(name, what string, narrow func()) {
	p.t.Helper()
	if shotsOn() {
		p.shot("/tmp/neffscope-" + name + ".png")
	}
	p.viewport(800, 600)
	if narrow != nil {
		narrow()
	}
	if shotsOn() {
		p.shot("/tmp/neffscope-" + name + "-800.png")
	}
	p.fits800(what)
	p.viewport(1440, 900)
}

// fits800 fails t when the page at 800×600 scrolls sideways.
func (p *page) fits800(what string) {
	p.t.Helper()
	if w := eval[int](p, `document.documentElement.scrollWidth`); w > 800 {
		p.t.Errorf("%s at 800×600: the page is %d px wide", what, w)
	}
}

// goRoot selects the module's root (its view) through the tree.
func (p *page) goRoot() {
	p.t.Helper()
	eval[bool](p, `neffscope.switchDoc(neffscope.docs.findIndex((d) => d.current)), true`)
	p.clickRow(`.ti[data-kind="hlo-module"]`)
	p.waitFor(`document.getElementById('hlo-view').dataset.mode === 'module'`, "the module view")
}

func containsAll(list []string, want ...string) bool {
	for _, w := range want {
		found := false
		for _, x := range list {
			found = found || x == w
		}
		if !found {
			return false
		}
	}
	return true
}

// Two modules dropped together: the verdict first (volatile only: a temporary path in the
// call of qwen3_attn_tkg_fused), no word on the kernel without the NEFFs, the difference with
// its random parts marked, each side a link to its bytes; the JSON is the CLI's.
func TestHLODiffDroppedModules(t *testing.T) {
	paths := realModules(t)
	a, _ := os.ReadFile(paths[3])
	b, _ := os.ReadFile(paths[7])
	na, nb := filepath.Base(paths[3]), filepath.Base(paths[7])
	p := newPage(t, siteURL)
	downloads := allowDownloads(t, p)
	p.dropFiles(map[string][]byte{na: a, nb: b}, []string{na, nb})
	s := p.waitGraphDiff()
	if s.Verdict != "hlo.volatile-only" || s.Neff != "" || s.Counts["volatile"] != 1 || len(s.Counts) != 1 {
		t.Fatalf("graph diff: %+v", s)
	}
	type row struct{ Field, A, B, Note, MarksA, MarksB string }
	rows := eval[[]row](p, `Array.from(document.querySelectorAll('[data-class-section="volatile"] tbody tr')).map((tr) => ({
		Field: tr.dataset.field, A: tr.querySelector('.va').textContent, B: tr.querySelector('.vb').textContent,
		Note: tr.querySelector('.hlodiff-note').textContent,
		MarksA: Array.from(tr.querySelectorAll('.va mark')).map((m) => m.textContent).join(','),
		MarksB: Array.from(tr.querySelectorAll('.vb mark')).map((m) => m.textContent).join(','),
	}))`)
	if len(rows) != 1 || rows[0].Field != "backend_config.klir_binary.binary" || !strings.Contains(rows[0].A, "/tmp/klir_binaries/") || rows[0].MarksA == "" || rows[0].MarksB == "" {
		t.Fatalf("volatile rows %+v", rows)
	}
	summary := eval[string](p, `document.querySelector('#hlodiff-verdict .hlodiff-summary').textContent`)
	if !strings.HasPrefix(summary, "the graph is the same except a temporary path in the call of qwen3_attn_tkg_fused") || !strings.Contains(summary, "cannot be told from the graph") {
		t.Errorf("verdict %q", summary)
	}
	if eval[string](p, `document.getElementById('hlodiff-verdict').dataset.partial`) != "false" {
		t.Error("two whole modules' verdict says it holds only for what was read")
	}
	if eval[string](p, `document.getElementById('hlodiff-neff').dataset.code`) != "" || strings.Contains(eval[string](p, `document.getElementById('hlodiff-body').textContent`), "spurious") {
		t.Error("without NEFFs the page says something of the kernel")
	}
	// The page's JSON is what the CLI prints for the same two files.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, na), a, 0o644)
	os.WriteFile(filepath.Join(dir, nb), b, 0o644)
	want := runCLI(t, dir, "diff", "--json", na, nb)
	if s.JSON != want {
		t.Errorf("the page's comparison differs from neffscope diff --json:\n%s\nwant\n%s", s.JSON, want)
	}
	// JSON saves the same bytes.
	p.click("#hlodiff-export")
	if got := string(waitDownload(t, downloads, na+"_vs_"+nb+".hlodiff.json")); got != want {
		t.Errorf("the JSON saved differs from neffscope diff --json:\n%s", got)
	}
	p.bothSizes("hlodiff-modules", "the graph diff", nil)

	// B's side of the difference: module B's tree, the path's base64 characters in the hex view.
	var d fleet.HLODiff
	json.Unmarshal([]byte(s.JSON), &d)
	p.click(`[data-class-section="volatile"] .jump.side-b`)
	p.waitFor(`!neffscope.hlodiff.shown && (neffscope.hex.hl || {}).off === `+jsonInt(d.Differences[0].SpanB.Offset), "B's bytes of the difference")
	if cur := eval[string](p, `neffscope.docs.find((d) => d.current).file`); cur != nb {
		t.Errorf("the jump to B shows %s", cur)
	}
	// The Compare menu of a module offers the other module, in the graph diff.
	p.click(`#compare-button`)
	p.click(`#compare-menu .menu-item`)
	p.waitGraphDiff()
}

// entryTree is the real modules laid out as a cache with NEFFs in three entries
// (cachetest.RealTreeWithNEFFs): v6's own, the same program in one more, another in a third.
func entryTree(t *testing.T) (root, v6, same, other string) {
	t.Helper()
	realModules(t)
	tr := cachetest.RealTreeWithNEFFs(t)
	return tr.Root, tr.V6, tr.Same, tr.Other
}

// Two cache entries' folders dropped: the graph is the same but for the temporary path, and
// the NEFFs tell the rest: the same program (a spurious recompile, and how to stop it), or a
// changed kernel. The JSON is the CLI's diff of the two folders.
func TestHLODiffEntryFolders(t *testing.T) {
	_, v6, same, other := entryTree(t)
	p := newPage(t, siteURL)
	p.dropFolders(v6, same)
	s := p.waitGraphDiff()
	if s.Verdict != "hlo.volatile-only" || s.Neff != "hlo.neff-same-program" {
		t.Fatalf("same program: %+v", s)
	}
	fix := eval[string](p, `(document.getElementById('hlodiff-fix') || {}).textContent || ''`)
	if !strings.Contains(fix, "prune these entries") {
		t.Errorf("no fix shown: %q", fix)
	}
	parent := filepath.Dir(v6)
	if want := runCLI(t, parent, "diff", "--json", filepath.Base(v6), filepath.Base(same)); s.JSON != want {
		t.Errorf("the page's comparison of the entries differs from neffscope diff --json:\n%s\nwant\n%s", s.JSON, want)
	}
	cache := eval[string](p, `document.getElementById('hlodiff-cache').textContent`)
	if !strings.Contains(cache, "module hash changed") {
		t.Errorf("cache keys: %q", cache)
	}
	p.bothSizes("hlodiff-entries", "the graph diff of entries", nil)

	p.dropFolders(v6, other)
	p.waitFor(`neffscope.hlodiff.ready && neffscope.hlodiff.neff === 'hlo.neff-changed'`, "the changed kernel")
	if eval[bool](p, `!!document.getElementById('hlodiff-fix')`) {
		t.Error("a fix is offered for a changed kernel")
	}
	if shotsOn() {
		p.shot("/tmp/neffscope-hlodiff-changed.png")
	}
}

// A cache folder with HLO modules: one graph, its eight keys flagged as never hit with why and
// the fix; the rows grouped by graph; a group's graph diff one click away; the records (graph
// and hlo included) are the CLI's scan --jsonl.
func TestCacheGraphs(t *testing.T) {
	root, v6, same, _ := entryTree(t)
	p := newPage(t, siteURL)
	downloads := allowDownloads(t, p)
	p.pickFolder(root)
	p.waitFor(`!!document.getElementById('cache-graphs')`, "the graphs")
	line := eval[string](p, `document.querySelector('#cache-graphs .cache-graphs-line').textContent`)
	if line != "8 entries with an HLO module: one graph" {
		t.Errorf("graphs line %q", line)
	}
	why := eval[string](p, `(document.querySelector('#cache-graphs .cache-graph-why.never') || {}).textContent || ''`)
	if !strings.Contains(why, "8 keys can never hit") || !strings.Contains(why, "keys differ only by the kernel's temporary path") || !strings.Contains(why, "prune these entries") {
		t.Errorf("never-hit group %q", why)
	}
	groups := eval[[]string](p, `Array.from(document.querySelectorAll('#cache-table tr.cache-group')).map((tr) => tr.dataset.graph)`)
	never := eval[int](p, `document.querySelectorAll('#cache-table tr.cache-row .cache-never').length`)
	if len(groups) != 1 || groups[0] != "c619ea1f28839fdf" || never != 8 {
		t.Errorf("groups %v, %d rows flagged never hit", groups, never)
	}
	p.bothSizes("cache-graphs", "the cache with graphs", nil)

	// The records are the CLI's, graph and hlo included.
	p.click("#cache-export")
	got := string(waitDownload(t, downloads, "cache.jsonl"))
	want := runCLI(t, filepath.Dir(root), "scan", "--jsonl", "-q", "cache")
	if got != want {
		t.Errorf("the page's records differ from neffscope scan --jsonl:\n got:\n%s\nwant:\n%s", got, want)
	}
	// The group's graph diff compares the first two entries with NEFFs, in path order: the
	// attention graph's entry holding attn_v6.neff and the one holding matmul_small.neff.
	p.click(`#cache-graphs .cache-graph-diff`)
	s := p.waitGraphDiff()
	if s.Verdict != "hlo.volatile-only" || s.Neff != "hlo.neff-changed" {
		t.Errorf("the group's graph diff: %+v", s)
	}

	// Close goes back to the cache. Ungrouped, two rows picked by hand: their graph diff (the
	// same program compiled twice).
	p.click("#hlodiff-close")
	p.waitFor(`document.body.dataset.view === 'cache' && !!document.getElementById('cache-by-graph')`, "the cache again")
	p.click("#cache-by-graph")
	if n := eval[int](p, `document.querySelectorAll('#cache-table tr.cache-group').length`); n != 0 {
		t.Errorf("%d group rows with Group by graph off", n)
	}
	for _, dir := range []string{v6, same} {
		p.click(`#cache-table tr.cache-row[data-path$="/` + filepath.Base(dir) + `/model.neff"] td.sel input`)
	}
	p.click("#cache-graphdiff")
	p.waitFor(`neffscope.hlodiff.shown && neffscope.hlodiff.ready && neffscope.hlodiff.neff === 'hlo.neff-same-program'`, "the picked entries' graph diff")
	if s := eval[hloState](p, `neffscope.hlodiff`); s.Verdict != "hlo.volatile-only" || s.Error != "" {
		t.Errorf("the picked entries' graph diff: %+v", s)
	}
}

// Two gzip'd modules dropped together: the same comparison as the CLI's, and a difference's
// A link shows its bytes in the inflated module (the spans index the inflated bytes, named by
// the root's "(inflated)" source), not in the gzip stream.
func TestHLODiffGzipModules(t *testing.T) {
	paths := realModules(t)
	dir := t.TempDir()
	names := []string{"a.hlo_module.pb.gz", "b.hlo_module.pb.gz"}
	files := map[string][]byte{}
	for i, p := range []string{paths[0], paths[5]} {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var gz bytes.Buffer
		w := gzip.NewWriter(&gz)
		w.Write(raw)
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		files[names[i]] = gz.Bytes()
		if err := os.WriteFile(filepath.Join(dir, names[i]), gz.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := newPage(t, siteURL)
	p.dropFiles(files, names)
	s := p.waitGraphDiff()
	if s.Verdict != "hlo.volatile-only" || s.Counts["volatile"] != 1 || len(s.Counts) != 1 {
		t.Fatalf("graph diff of the gzip'd modules: %+v", s)
	}
	if want := runCLI(t, dir, "diff", "--json", names[0], names[1]); s.JSON != want {
		t.Errorf("the page's comparison differs from neffscope diff --json:\n%s\nwant\n%s", s.JSON, want)
	}
	var d fleet.HLODiff
	if err := json.Unmarshal([]byte(s.JSON), &d); err != nil || len(d.Differences) != 1 {
		t.Fatalf("diff JSON: %v %s", err, s.JSON)
	}
	want := d.Differences[0].SpanA
	if want == nil {
		t.Fatalf("no span_a: %s", s.JSON)
	}
	if want.Source != "(inflated)" {
		t.Errorf("span_a %+v: want the inflated bytes", want)
	}
	p.click(`[data-class-section="volatile"] .jump.side-a`)
	p.waitFor(`!neffscope.hlodiff.shown && (neffscope.hex.hl || {}).off === `+jsonInt(want.Offset), "A's bytes of the difference")
	if hl := eval[map[string]any](p, `neffscope.hex.hl`); hl["len"] != float64(want.Length) || hl["src"] != "(inflated)" {
		t.Errorf("highlighted %v, want %d bytes of (inflated)", hl, want.Length)
	}
	if cur := eval[string](p, `neffscope.docs.find((d) => d.current).file`); cur != names[0] {
		t.Errorf("the jump to A shows %s", cur)
	}
}

// A module cut short beside a whole one: the graph diff still shows, with the core's finding
// that one was read only in part (its code on the page), and its JSON is still the CLI's.
func TestHLODiffTruncatedModule(t *testing.T) {
	paths := realModules(t)
	whole, err := os.ReadFile(paths[3])
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"whole.hlo_module.pb", "cut.hlo_module.pb"}
	files := map[string][]byte{names[0]: whole, names[1]: whole[:9000]}
	dir := t.TempDir()
	for n, b := range files {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p := newPage(t, siteURL)
	p.dropFiles(files, names)
	s := p.waitGraphDiff()
	want := runCLI(t, dir, "diff", "--json", names[0], names[1])
	if s.JSON != want {
		t.Errorf("the page's comparison differs from neffscope diff --json:\n%s\nwant\n%s", s.JSON, want)
	}
	var d fleet.HLODiff
	if err := json.Unmarshal([]byte(want), &d); err != nil {
		t.Fatal(err)
	}
	if s.Verdict != string(d.Verdict) || len(d.Findings) == 0 {
		t.Fatalf("verdict %s, CLI %s with findings %v", s.Verdict, d.Verdict, d.Findings)
	}
	if eval[string](p, `document.getElementById('hlodiff-verdict').dataset.partial`) != "true" {
		t.Error("the verdict does not say it holds only for what was read")
	}
	// The findings come right after the verdict, before what the NEFFs say.
	if eval[string](p, `document.getElementById('hlodiff-verdict').nextElementSibling.className`) != "findings-list inline diff-findings" {
		t.Error("the findings are not right under the verdict")
	}
	codes := eval[[]string](p, `Array.from(document.querySelectorAll('#hlodiff-view .finding')).map((f) => f.dataset.code)`)
	var wantCodes []string
	for _, f := range d.Findings {
		wantCodes = append(wantCodes, string(f.Code))
	}
	if strings.Join(codes, ",") != strings.Join(wantCodes, ",") {
		t.Errorf("findings on the page %v, want %v", codes, wantCodes)
	}
	if shotsOn() {
		p.shot("/tmp/neffscope-hlodiff-cut.png")
	}
}

// A cache packed as a .tar.gz, two entries of one graph in it (each holding attn_v6.neff):
// read in the tab as the folder it was, its records the CLI's scan of the archive, the two
// grouped under their graph with both keys flagged never hit, the group's graph diff one click
// away (the same program compiled twice), and Close back to the cache.
func TestCacheGraphsTar(t *testing.T) {
	tr := cachetest.RealTreeWithNEFFs(t)
	root := filepath.Join(t.TempDir(), "two")
	for _, dir := range []string{tr.V6, tr.Same} {
		rel, err := filepath.Rel(tr.Root, dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"model.hlo_module.pb", "model.neff"} {
			cachetest.Copy(t, filepath.Join(dir, n), filepath.Join(root, rel, n))
		}
	}
	work := t.TempDir()
	cachetest.Tar(t, root, filepath.Join(work, "cache.tar.gz"), true)
	packed, err := os.ReadFile(filepath.Join(work, "cache.tar.gz"))
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, siteURL)
	downloads := allowDownloads(t, p)
	p.dispatchDrop(map[string][]byte{"cache.tar.gz": packed}, []string{"cache.tar.gz"})
	p.waitFor(`document.body.dataset.cache === 'scanned' && !!document.getElementById('cache-graphs')`, "the archive's scan and its graphs")
	groups := eval[[]string](p, `Array.from(document.querySelectorAll('#cache-table tr.cache-group')).map((tr) => tr.dataset.graph)`)
	rows := eval[int](p, `document.querySelectorAll('#cache-table tr.cache-row').length`)
	never := eval[int](p, `document.querySelectorAll('#cache-table tr.cache-row .cache-never').length`)
	if len(groups) != 1 || groups[0] != "c619ea1f28839fdf" || rows != 2 || never != 2 {
		t.Errorf("groups %v, %d rows, %d flagged never hit", groups, rows, never)
	}
	p.bothSizes("cache-tar", "the cache of an archive", nil)
	p.click("#cache-export")
	if got, want := string(waitDownload(t, downloads, "cache.tar.gz.jsonl")), runCLI(t, work, "scan", "--jsonl", "-q", "cache.tar.gz"); got != want {
		t.Errorf("the page's records differ from neffscope scan --jsonl of the archive:\n got:\n%s\nwant:\n%s", got, want)
	}
	p.click(`#cache-table tr.cache-group .cache-group-diff`)
	s := p.waitGraphDiff()
	if s.Verdict != "hlo.volatile-only" || s.Neff != "hlo.neff-same-program" {
		t.Errorf("the group's graph diff: %+v", s)
	}
	p.click("#hlodiff-close")
	p.waitFor(`document.body.dataset.view === 'cache'`, "the cache again")

	// The same tree as a plain .tar, picked with Open file…: the same two rows.
	cachetest.Tar(t, root, filepath.Join(work, "cache.tar"), false)
	p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{filepath.Join(work, "cache.tar")}))
	p.waitFor(`document.body.dataset.cache === 'scanned' && document.querySelector('#cache-tab').textContent.includes('cache.tar') && !document.querySelector('#cache-tab').textContent.includes('.gz')`, "the .tar's scan")
	paths := eval[[]string](p, `Array.from(document.querySelectorAll('#cache-table tr.cache-row')).map((tr) => tr.dataset.path)`)
	if len(paths) != 2 || !strings.HasPrefix(paths[0], "cache.tar/neuronxcc-") {
		t.Errorf("the .tar's rows %v", paths)
	}
}
