package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// cacheTree builds a compile-cache-shaped folder in a temp dir from matmul_small: a finished
// entry, a byte-identical copy in another entry (a duplicate), a repacked NEFF (another
// target) in a third, an entry still compiling (no model.done), an entry whose compile failed
// before writing a NEFF (model.log only), a loose file named .neff that is not one, and a
// file that is not a NEFF at all (not listed). It returns the folder and the rows the table
// must show, in path order, as path → state ("" outside a cache).
func cacheTree(t *testing.T) (string, []string, map[string]string) {
	t.Helper()
	real := readReal(t)
	repack := matmulPair(t).b
	root := filepath.Join(t.TempDir(), "neuron-cache")
	v := "neuronxcc-2.21.18209.0+043b1bf7"
	write := func(rel string, data []byte) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(v+"/MODULE_1111+d41d8cd9/model.neff", real)
	write(v+"/MODULE_1111+d41d8cd9/model.done", nil)
	write(v+"/MODULE_2222+d41d8cd9/model.neff", real) // the same bytes: a duplicate
	write(v+"/MODULE_2222+d41d8cd9/model.done", nil)
	write(v+"/MODULE_3333+39f12043/model.neff", repack)
	write(v+"/MODULE_3333+39f12043/model.done", nil)
	write(v+"/MODULE_4444+d41d8cd9/model.neff", real) // still compiling: no model.done
	write(v+"/MODULE_5555+d41d8cd9/model.log", []byte("compiler error\n"))
	write("loose/broken.neff", []byte("this is not a NEFF\n"))
	write("loose/README.txt", []byte("not listed\n"))
	base := "neuron-cache/" + v + "/"
	order := []string{
		"neuron-cache/loose/broken.neff",
		base + "MODULE_1111+d41d8cd9/model.neff",
		base + "MODULE_2222+d41d8cd9/model.neff",
		base + "MODULE_3333+39f12043/model.neff",
		base + "MODULE_4444+d41d8cd9/model.neff",
		base + "MODULE_5555+d41d8cd9/model.neff",
	}
	// The CLI's walk order is directory by directory, names sorted: "loose" < "neuronxcc-…".
	want := map[string]string{order[0]: "", order[1]: "done", order[2]: "done", order[3]: "done", order[4]: "incomplete", order[5]: "failed"}
	return root, order, want
}

type cacheRowView struct {
	Path, Status, State, Dup, Compiler, Target, Instr, InstrTitle, Findings string
}

func (p *page) cacheRows() []cacheRowView {
	return eval[[]cacheRowView](p, `Array.from(document.querySelectorAll('#cache-table tbody tr.cache-row')).map((tr) => ({
		Path: tr.dataset.path, Status: tr.dataset.status,
		State: tr.querySelector('.cache-badge').textContent,
		Dup: tr.querySelector('.cache-dup').textContent,
		Compiler: tr.querySelector('.cache-compiler').textContent,
		Target: tr.querySelector('.cache-target').textContent,
		Instr: tr.querySelector('.cache-instr').textContent,
		InstrTitle: tr.querySelector('.cache-instr').title,
		Findings: tr.querySelector('.cache-findings').textContent,
	}))`)
}

func (p *page) pickFolder(root string) {
	p.t.Helper()
	p.do(chromedp.SetUploadFiles(chromedp.ID("cache-input"), []string{root}))
	p.waitFor(`document.body.dataset.cache === 'scanned' && !!document.querySelector('#cache-table tbody tr')`, "the folder's scan to finish")
}

// A compile cache picked with the folder input lists every NEFF with the CLI's record
// fields: states, the duplicate, the repacked file's target, findings; rows sort, filter,
// open as tabs and compare (two in the diff view, three in the N-way table). The page asks
// the network for nothing while it does.
func TestCacheFolderTable(t *testing.T) {
	root, order, want := cacheTree(t)
	p := newPage(t, siteURL)
	p.attachWorkers()
	n0 := len(p.requests)
	p.pickFolder(root)

	rows := p.cacheRows()
	var paths []string
	for _, r := range rows {
		paths = append(paths, r.Path)
	}
	if strings.Join(paths, "\n") != strings.Join(order, "\n") {
		t.Fatalf("rows:\n%s\nwant (path order, README.txt not listed):\n%s", strings.Join(paths, "\n"), strings.Join(order, "\n"))
	}
	byPath := map[string]cacheRowView{}
	for _, r := range rows {
		byPath[r.Path] = r
		st := want[r.Path]
		if st == "" {
			st = "not in a cache"
		}
		if r.Status != "done" || r.State != st {
			t.Errorf("%s: status %s, state %q; want %q", r.Path, r.Status, r.State, st)
		}
	}
	// The records are the CLI's: compare with the native record of the same bytes.
	real := readReal(t)
	native := fleet.NewScanRecord(inspect.Open("m.neff", bytes.NewReader(real), int64(len(real)), inspect.Options{Fingerprint: true}), "m.neff", nil)
	first := byPath[order[1]]
	if first.Compiler != native.Compiler || first.Target != native.Instance || first.Compiler == "" {
		t.Errorf("compiler %q device %q; want %q %q", first.Compiler, first.Target, native.Compiler, native.Instance)
	}
	var total int64
	for e, n := range native.Instructions {
		total += n
		if !strings.Contains(first.InstrTitle, e+" ") {
			t.Errorf("instructions per engine %q lack %s", first.InstrTitle, e)
		}
	}
	if got := strings.ReplaceAll(first.Instr, ",", ""); got != strings.TrimSpace(jsonInt(total)) {
		t.Errorf("instructions %q, want %d", first.Instr, total)
	}
	for _, i := range []int{2, 4} { // byte-identical copies of the first entry's NEFF
		// Shown inside the folder: the table's title names it.
		if d := byPath[order[i]].Dup; d != "= "+strings.TrimPrefix(order[1], "neuron-cache/") {
			t.Errorf("%s: duplicate_of %q; want = %s", order[i], d, order[1])
		}
	}
	if d := byPath[order[1]].Dup + byPath[order[3]].Dup; d != "" {
		t.Errorf("duplicates marked on the first and the repacked NEFF: %q", d)
	}
	if byPath[order[3]].Target != "Trn1/Inf2" {
		t.Errorf("the repacked NEFF's device %q, want Trn1/Inf2", byPath[order[3]].Target)
	}
	if f := byPath[order[0]].Findings; !strings.Contains(f, "err") {
		t.Errorf("broken.neff's findings %q: want errors", f)
	}
	counts := eval[string](p, `document.querySelector('#cache-view .cache-counts').textContent`)
	for _, w := range []string{"6 NEFFs", "3 done", "1 incomplete", "1 failed", "2 duplicates", "1 with errors"} {
		if !strings.Contains(counts, w) {
			t.Errorf("counts %q lack %q", counts, w)
		}
	}
	// Sort by instructions, descending; filter by state; hide duplicates.
	p.click(`#cache-table th[data-key="size"] .sort`)
	p.click(`#cache-table th[data-key="size"] .sort`)
	if s := eval[string](p, `document.querySelector('#cache-table th[data-key="size"]').getAttribute('aria-sort')`); s != "descending" {
		t.Errorf("size sort %q after two clicks", s)
	}
	// Largest first: the entry without a NEFF (0 bytes) last, the 19-byte broken.neff before it.
	if r := p.cacheRows(); r[len(r)-1].Path != order[5] || r[len(r)-2].Path != order[0] {
		t.Errorf("size descending ends with %s, %s", r[len(r)-2].Path, r[len(r)-1].Path)
	}
	p.setField("cache-state", "incomplete", "change")
	if r := p.cacheRows(); len(r) != 1 || r[0].Path != order[4] {
		t.Errorf("state filter incomplete: %+v", r)
	}
	p.setField("cache-state", "", "change")
	p.click(`#cache-hide-dup`)
	if r := p.cacheRows(); len(r) != len(order)-2 {
		t.Errorf("hide duplicates: %d rows", len(r))
	}
	p.click(`#cache-hide-dup`)
	p.setField("cache-filter", "3333", "input")
	if r := p.cacheRows(); len(r) != 1 || r[0].Path != order[3] {
		t.Errorf("filter 3333: %+v", r)
	}
	p.setField("cache-filter", "", "input")
	p.click(`#cache-table th[data-key="path"] .sort`)

	for _, theme := range []string{"light", "dark"} {
		eval[bool](p, `document.documentElement.dataset.theme = '`+theme+`', true`)
		p.shot("/tmp/neffscope-cache-" + theme + ".png")
	}
	eval[bool](p, `delete document.documentElement.dataset.theme, true`)

	// Open a row: it becomes a tab named by its folder path, the cache tab stays.
	p.click(`#cache-table tr[data-path="` + order[3] + `"] .cache-act button`)
	p.waitFor(`document.body.dataset.view !== 'cache' && neffscope.docs.length === 1`, "the row to open as a tab")
	if f := eval[string](p, `neffscope.docs[0].file`); f != order[3] {
		t.Errorf("opened %q, want %s", f, order[3])
	}
	if !eval[bool](p, `!!document.getElementById('cache-tab') && !document.getElementById('panes').hidden`) {
		t.Error("after opening a row: no cache tab, or the document's panes hidden")
	}

	// Back to the table; compare two rows: the diff view, with why it recompiled.
	p.click(`#cache-tab`)
	p.waitFor(`document.body.dataset.view === 'cache'`, "the cache view")
	p.click(`#cache-table tr[data-path="` + order[1] + `"] td.sel input`)
	p.click(`#cache-table tr[data-path="` + order[3] + `"] td.sel input`)
	p.click(`#cache-compare`)
	p.waitDiff()
	if v := eval[string](p, `neffscope.diff.value`); v == "identical" || v == "" {
		t.Errorf("diff of two different entries: %q", v)
	}
	// Another graph and other flags: the comparison says why before what.
	if why := eval[string](p, `(document.querySelector('#diff-recompile .diff-sec-value') || {}).textContent || ''`); why != "graph and flags changed: MODULE_1111+d41d8cd9 → MODULE_3333+39f12043" {
		t.Errorf("why it recompiled: %q", why)
	}
	p.shot("/tmp/neffscope-cache-diff.png")

	// Three rows: one N-way table, the repacked NEFF the odd one out.
	p.click(`#cache-tab`)
	p.click(`#cache-table tr[data-path="` + order[2] + `"] td.sel input`)
	if l := eval[string](p, `document.getElementById('cache-compare').textContent`); l != "Compare 3" {
		t.Errorf("compare button %q with three rows selected", l)
	}
	p.click(`#cache-compare`)
	p.waitFor(`document.body.dataset.view === 'many' && !!document.getElementById('many-table')`, "the N-way table")
	verdict := eval[string](p, `document.getElementById('many-verdict').dataset.verdict`)
	odd := eval[[]string](p, `Array.from(document.querySelectorAll('#many-table thead th.odd')).map((th) => th.textContent)`)
	target := eval[[]string](p, `Array.from(document.querySelectorAll('#many-table tr[data-fact="target"] td')).map((td) => td.textContent + (td.classList.contains('odd') ? '!' : ''))`)
	if verdict != "different" || strings.Join(odd, ",") != "C" {
		t.Errorf("N-way: verdict %s, odd columns %v; want different, C (the repacked NEFF)", verdict, odd)
	}
	if strings.Join(target, "|") != "target|cayman|cayman|sunda!|C" {
		t.Errorf("N-way target row %v", target)
	}
	p.shot("/tmp/neffscope-cache-compare.png")
	if eval[int](p, `neffscope.docs.length`) != 3 {
		t.Errorf("%d documents open, want the three compared", eval[int](p, `neffscope.docs.length`))
	}
	// The Compare menu offers all three once three NEFFs are open.
	eval[bool](p, `neffscope.switchDoc(0), true`)
	p.click(`#compare-button`)
	p.click(`#compare-all`)
	p.waitFor(`document.body.dataset.view === 'many' && !!document.getElementById('many-table')`, "the N-way table from the Compare menu")

	p.mu.Lock()
	reqs := append([]string(nil), p.requests[n0:]...)
	p.mu.Unlock()
	for _, u := range reqs {
		if !strings.HasPrefix(u, "blob:") && !strings.HasPrefix(u, "data:") {
			t.Errorf("scanning and comparing the folder made a request: %s", u)
		}
	}
}

// setField sets a control's value and sends the event a person's edit sends.
func (p *page) setField(id, value, event string) {
	p.t.Helper()
	v, _ := json.Marshal(value)
	eval[bool](p, `(() => { const e = document.getElementById('`+id+`'); e.value = `+string(v)+`; e.dispatchEvent(new Event('`+event+`')); return true; })()`)
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

// The page's records are the CLI's: the folder's JSONL export is, line for line, what
// `neffscope scan --jsonl` prints for the same folder (paths made relative to its parent),
// duplicates, states and findings included.
func TestCacheRecordsMatchCLI(t *testing.T) {
	root, order, _ := cacheTree(t)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(cli(t), "scan", "--jsonl", "-q", root)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("neffscope scan: %v (want exit status 1: broken.neff is an error)\n%s", err, stderr.String())
	}
	want := strings.ReplaceAll(stdout.String(), filepath.ToSlash(filepath.Dir(root))+"/", "")

	p := newPage(t, siteURL)
	downloads := allowDownloads(t, p)
	p.pickFolder(root)
	p.click("#cache-export")
	got := string(waitDownload(t, downloads, "neuron-cache.jsonl"))
	if got != want {
		t.Errorf("the page's records differ from neffscope scan --jsonl:\n got:\n%s\nwant:\n%s", got, want)
	}
	if n := strings.Count(got, "\n"); n != len(order) {
		t.Errorf("%d records, want %d", n, len(order))
	}
}

// Cancel stops a scan in the middle of a big NEFF: the rows read stay, the rest say
// cancelled, and the restarted core opens a row.
func TestCacheScanCancel(t *testing.T) {
	root := filepath.Join(t.TempDir(), "folder")
	for _, d := range []string{"a", "b", "c"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	real := readReal(t)
	os.WriteFile(filepath.Join(root, "a", "model.neff"), real, 0o644)
	os.WriteFile(filepath.Join(root, "c", "model.neff"), real, 0o644)
	if err := os.Rename(bigNEFF(t, 200<<20), filepath.Join(root, "b", "big.neff")); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, siteURL)
	p.do(chromedp.SetUploadFiles(chromedp.ID("cache-input"), []string{root}))
	p.waitFor(`/b\/big\.neff/.test(document.getElementById('cache-progress-text').textContent) && parseFloat(document.getElementById('cache-progress-fill').style.width) > 1`, "the scan to be inside big.neff")
	p.click("#cache-cancel")
	p.waitFor(`document.body.dataset.cache === 'scanned'`, "the scan to stop")
	got := map[string]string{}
	for _, r := range p.cacheRows() {
		got[r.Path] = r.Status
	}
	want := map[string]string{"folder/a/model.neff": "done", "folder/b/big.neff": "cancelled", "folder/c/model.neff": "cancelled"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("after Cancel: %s is %q, want %s (rows %v)", k, got[k], v, got)
		}
	}
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core to restart")
	p.click(`#cache-table tr[data-path="folder/a/model.neff"] .cache-act button`)
	p.waitFor(`neffscope.docs.length === 1 && neffscope.docs[0].file === 'folder/a/model.neff'`, "a scanned row to open after Cancel")
}

// A folder dropped on the window (a real drag through the DevTools protocol, so the page gets
// a directory entry) is scanned like a picked one.
func TestCacheFolderDrop(t *testing.T) {
	root, order, _ := cacheTree(t)
	p := newPage(t, siteURL)
	data := &input.DragData{Files: []string{root}, Items: []*input.DragDataItem{}, DragOperationsMask: 1}
	for _, ty := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := chromedp.Call(p.ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: ty, X: 700, Y: 400, Data: data}); err != nil {
			t.Fatalf("%s: %v", ty, err)
		}
	}
	p.waitFor(`document.body.dataset.cache === 'scanned' && !!document.querySelector('#cache-table tbody tr')`, "the dropped folder's scan to finish")
	var paths []string
	for _, r := range p.cacheRows() {
		paths = append(paths, r.Path)
	}
	if strings.Join(paths, "\n") != strings.Join(order, "\n") {
		t.Errorf("rows of the dropped folder:\n%s\nwant:\n%s", strings.Join(paths, "\n"), strings.Join(order, "\n"))
	}
	if eval[int](p, `neffscope.docs.length`) != 0 {
		t.Error("the drop opened files as documents besides listing the folder")
	}
	// A file opened while the table is on show is shown; the cache keeps its tab.
	p.openWithPicker(realNEFF)
	if !eval[bool](p, `document.body.dataset.view !== 'cache' && getComputedStyle(document.getElementById('panes')).display !== 'none' && !!document.getElementById('cache-tab')`) {
		t.Error("opening a file from the cache view left the table on show, or dropped the cache's tab")
	}
}

// BenchmarkPageCacheScan scans a cache-shaped folder of 100 NEFFs (matmul_small, 62 KB each)
// in the page: every file read once in the worker, one at a time. Compare with the CLI's
// BenchmarkScan1000 (cmd/neffscope), which reads on every core.
func BenchmarkPageCacheScan(b *testing.B) {
	const n = 100
	real := realfiles.Read(b, "nkipy/matmul_small.neff")
	root := filepath.Join(b.TempDir(), "cache")
	for i := range n {
		d := filepath.Join(root, "neuronxcc-2.23.6484.0+3b612583", fmt.Sprintf("MODULE_%d+d41d8cd9", 1000+i))
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "model.neff"), real, 0o644)
		os.WriteFile(filepath.Join(d, "model.done"), nil, 0o644)
	}
	p := newPage(b, siteURL)
	var ms float64
	for range b.N {
		p.do(chromedp.SetUploadFiles(chromedp.ID("cache-input"), []string{root}))
		p.waitFor(`document.body.dataset.cache === 'scanned' && document.querySelectorAll('#cache-table tbody tr').length === `+fmt.Sprint(n), "the scan")
		ms = eval[float64](p, `Number(document.getElementById('cache-view').dataset.ms)`)
		b.ReportMetric(float64(n)/(ms/1000), "NEFFs/s")
		eval[bool](p, `document.body.dataset.cache = '', true`)
	}
}
