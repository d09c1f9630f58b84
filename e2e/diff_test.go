package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// The same kernel compiled for trn1 (sunda) and for trn2 (cayman, two cores fused).
const (
	trn1Stream = "../../shared/testdata-real/cs149-trn1/stream_256k_fd1k.neff"
	trn2Stream = "../../shared/testdata-real/cs149-trn2/stream_256k_fd1k.neff"
)

func readStreamPair(t *testing.T) (a, b []byte) {
	t.Helper()
	a, errA := os.ReadFile(trn1Stream)
	b, errB := os.ReadFile(trn2Stream)
	if errA != nil || errB != nil {
		t.Skipf("the real trn1/trn2 stream_256k_fd1k.neff pair is not available (%v, %v): it lives in ../shared/testdata-real", errA, errB)
	}
	return a, b
}

// nativeDiff is inspect.Diff of the two files opened as the page opens them.
func nativeDiff(nameA string, a []byte, nameB string, b []byte) *doc.Node {
	fa := inspect.Open(nameA, bytes.NewReader(a), int64(len(a)), inspect.Options{Fingerprint: true})
	fb := inspect.Open(nameB, bytes.NewReader(b), int64(len(b)), inspect.Options{Fingerprint: true})
	return inspect.Diff(fa, fb)
}

// memberPaths lists the member differences of one kind, in the core's order.
func memberPaths(d *doc.Node, kind string) []string {
	var out []string
	for _, c := range d.Child("members").Children {
		if c.Kind == kind {
			out = append(out, c.Label)
		}
	}
	return out
}

// diffRows lists the data-path of the member rows the page shows for one change.
func (p *page) diffRows(change string) []string {
	return eval[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll('#diff-members tr[data-change=%q]')).map((r) => r.dataset.path)`, change))
}

// checkCounts reads the summary line's member counts.
func (p *page) diffCounts() string {
	return eval[string](p, `Array.from(document.querySelectorAll('#diff-summary .diff-count')).map((b) => b.dataset.change + '=' + b.dataset.n).join(' ')`)
}

// cliDiffJSON runs the real CLI, `neffscope diff --json A B`, in a folder where A and B are
// named as the page knows the files (links to the real ones), and returns what it prints.
func cliDiffJSON(t *testing.T, files map[string]string, nameA, nameB string) []byte {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "neffscope")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/neffscope").CombinedOutput(); err != nil {
		t.Fatalf("building the CLI: %v\n%s", err, out)
	}
	work := filepath.Join(dir, "files")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range files {
		if err := os.Symlink(mustAbs(target), filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "diff", "--json", nameA, nameB)
	cmd.Dir = work
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("neffscope diff --json: %v (want exit status 1, different)\n%s", err, stderr.String())
	}
	return stdout.Bytes()
}

func allowDownloads(t *testing.T, p *page) string {
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(p.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		chromedp.CallBrowser(browserCtx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorDefault})
	})
	return dir
}

func (p *page) click(sel string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`document.querySelector(%q)`, sel), sel)
	eval[chromedp.Void](p, fmt.Sprintf(`document.querySelector(%q).click()`, sel))
}

func (p *page) waitDiff() {
	p.t.Helper()
	p.waitFor(`neffscope.diff.shown && neffscope.diff.ready && document.getElementById('diff-summary')`, "the comparison")
}

// Two NEFFs dropped together open as tabs; the Compare menu by the tabs diffs the current one
// against the other. The view shows what the core's Diff found, its members jump to either
// document, and its JSON export is what the CLI prints.
func TestDiffTwoDroppedNEFFs(t *testing.T) {
	a, b := readStreamPair(t)
	const nameA, nameB = "trn1-stream_256k_fd1k.neff", "trn2-stream_256k_fd1k.neff"
	p := newPage(t, siteURL)
	downloads := allowDownloads(t, p)
	p.dropFiles(map[string][]byte{nameA: a, nameB: b}, []string{nameA, nameB})
	native := nativeDiff(nameA, a, nameB, b)

	if !eval[bool](p, `!document.getElementById('compare').hidden && document.getElementById('compare-button').textContent.includes('Compare')`) {
		t.Fatal("with two NEFFs open there is no Compare control by the tabs")
	}
	// The menu opens on the button, with the focus on its first item (the other NEFF), and
	// Enter on that item compares.
	p.click("#compare-button")
	p.waitFor(`!document.getElementById('compare-menu').hidden`, "the Compare menu")
	items := eval[[]string](p, `Array.from(document.querySelectorAll('#compare-menu .menu-item')).map((i) => i.textContent)`)
	if len(items) != 2 || !strings.HasPrefix(items[0], nameB) || !strings.HasPrefix(items[1], "Another NEFF file") {
		t.Fatalf("Compare menu items %q; want the other NEFF and 'Another NEFF file…'", items)
	}
	if focused := eval[string](p, `document.activeElement.dataset.index || ''`); focused != "1" {
		t.Errorf("the focus is not on the menu's first item (active element index %q)", focused)
	}
	p.shot("/tmp/neffscope-diff-menu.png")
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitDiff()
	t.Logf("comparison shown %.0f ms after the request (core diff, transfer, decode, render)", eval[float64](p, `neffscope.diff.ms`))

	// The summary: the core's counts, not identical.
	if got := p.diffCounts(); got != "changed=24 added=30 removed=2 unchanged=6" {
		t.Errorf("summary counts %q; want 24 changed, 30 added, 2 removed, 6 unchanged", got)
	}
	summary := eval[string](p, `document.getElementById('diff-summary').textContent`)
	if !strings.Contains(summary, "24 changed · 30 added · 2 removed") || !strings.Contains(summary, "Different") {
		t.Errorf("summary line %q", summary)
	}
	if v := eval[string](p, `document.querySelector('#diff-summary .diff-verdict').dataset.verdict`); v != "different" {
		t.Errorf("verdict %q, want different", v)
	}
	if sides := eval[string](p, `document.getElementById('diff-sides').textContent`); !strings.Contains(sides, nameA) || !strings.Contains(sides, nameB) || !strings.Contains(sides, "sunda") || !strings.Contains(sides, "cayman") {
		t.Errorf("the A/B bar says %q; want both names and targets", sides)
	}

	// The member lists are the core's, in its order.
	for _, kind := range []string{inspect.DiffChanged, inspect.DiffAdded, inspect.DiffRemoved} {
		if got, want := p.diffRows(kind), memberPaths(native, kind); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s members on the page:\n%v\nnative inspect.Diff:\n%v", kind, got, want)
		}
	}
	if n := len(p.diffRows("unchanged")); n != 6 {
		t.Errorf("%d unchanged member rows, want 6", n)
	}
	// Each row has both sizes and short hashes where the member exists.
	row := eval[[]string](p, `Array.from(document.querySelectorAll('#diff-members tr[data-path="sg00/def.json"] td')).map((c) => c.textContent)`)
	if len(row) != 7 || row[2] != "2,724" || row[3] != "2,999" || len(row[4]) != 12 || len(row[5]) != 12 || row[4] == row[5] || row[6] != "AB" {
		t.Errorf("sg00/def.json row %q", row)
	}

	// The kelf target (sunda → cayman) is a changed row of the model table; header fields
	// that differ are marked, equal ones are not.
	target := eval[[]string](p, `(() => { const r = document.querySelector('#diff-model tr[data-field="target"]'); return r ? [r.className, r.querySelector('.va').textContent, r.querySelector('.vb').textContent] : []; })()`)
	if fmt.Sprint(target) != "[changed sunda cayman]" {
		t.Errorf("model target row %q; want a changed row sunda → cayman", target)
	}
	for field, want := range map[string]string{"feature_bits": "changed", "lnc_size": "changed", "uuid": "changed", "pkg_version": "same", "num_tpb": "same"} {
		if got := eval[string](p, fmt.Sprintf(`(document.querySelector('#diff-header tr[data-field=%q]') || {}).className || ''`, field)); got != want {
			t.Errorf("header row %s is %q, want %q", field, got, want)
		}
	}
	if got := eval[int](p, `document.querySelectorAll('#diff-header tr.changed').length`); got != len(native.Child("header").Children) {
		t.Errorf("%d header rows marked changed, native diff has %d", got, len(native.Child("header").Children))
	}

	// A changed JSON member expands to its path-level changes.
	p.click(`#diff-members tr[data-path="kelf-0.json"] .dtwisty`)
	paths := eval[[]string](p, `Array.from(document.querySelectorAll('#diff-members tr.sub .sub-table tbody tr')).map((r) => r.dataset.path + '=' + r.querySelector('.va').textContent + '>' + r.querySelector('.vb').textContent)`)
	if fmt.Sprint(paths) != `[graphs/1=—>{2} target="sunda">"cayman"]` {
		t.Errorf("kelf-0.json path changes %q", paths)
	}
	// Instruction counts per stream, with the opcode deltas.
	sp := eval[[]string](p, `Array.from(document.querySelectorAll('#diff-instructions tr[data-stream="sg00/SP.bin"] td')).map((c) => c.textContent)`)
	if len(sp) != 9 || sp[4] != "5" || sp[5] != "6" || sp[6] != "+1" || !strings.Contains(sp[7], "PseudoBranchLabel +1") {
		t.Errorf("sg00/SP.bin instruction row %q", sp)
	}
	if got := eval[int](p, `document.querySelectorAll('#diff-instructions tr[data-change="added"]').length`); got != 5 {
		t.Errorf("%d added streams, want the 5 of sg01", got)
	}

	// Hiding unchanged rows hides the equal header fields and unchanged members, not the rest.
	p.click("#diff-hide-same")
	if !eval[bool](p, `document.querySelector('#diff-header tr[data-field="pkg_version"]').offsetParent === null && document.querySelector('#diff-members tbody[data-group="unchanged"]').offsetParent === null && document.querySelector('#diff-header tr[data-field="uuid"]').offsetParent !== null`) {
		t.Error("'Hide unchanged rows' did not hide the equal rows (or hid a changed one)")
	}
	p.click("#diff-hide-same")
	if !eval[bool](p, `document.querySelector('#diff-header tr[data-field="pkg_version"]').offsetParent !== null`) {
		t.Error("unticking 'Hide unchanged rows' did not bring the equal rows back")
	}
	// Screenshots for a person to look at (nothing is compared), light and dark.
	for _, theme := range []string{"light", "dark"} {
		eval[chromedp.Void](p, `document.documentElement.dataset.theme = '`+theme+`'; document.getElementById('diff-body').scrollTop = 0`)
		p.shot("/tmp/neffscope-diff-" + theme + ".png")
		eval[chromedp.Void](p, `document.getElementById('diff-members').scrollIntoView()`)
		p.shot("/tmp/neffscope-diff-" + theme + "-members.png")
		eval[chromedp.Void](p, `document.getElementById('diff-instructions').scrollIntoView()`)
		p.shot("/tmp/neffscope-diff-" + theme + "-instructions.png")
	}
	eval[chromedp.Void](p, `delete document.documentElement.dataset.theme`)

	// Export: byte for byte what `neffscope diff --json A B` prints.
	p.click("#diff-export")
	got := waitDownload(t, downloads, "trn1-stream_256k_fd1k.neff_vs_trn2-stream_256k_fd1k.neff.diff.json")
	want := cliDiffJSON(t, map[string]string{nameA: trn1Stream, nameB: trn2Stream}, nameA, nameB)
	if !bytes.Equal(got, want) {
		t.Errorf("the exported diff has %d bytes and differs from `neffscope diff --json`'s %d bytes", len(got), len(want))
	}

	// A changed member's B button: the tab switches to B and the member is selected.
	p.click(`#diff-members tr[data-path="sg00/def.json"] .jump[data-side="b"]`)
	p.waitFor(`!neffscope.diff.shown && neffscope.docs[1].current && neffscope.state.selected && neffscope.state.selected.ref === 'member:sg00/def.json'`, "sg00/def.json selected in B")
	if !eval[bool](p, `!!document.querySelector('#tree .ti[data-ref="member:sg00/def.json"][aria-selected="true"]') && document.getElementById('diff-view').hidden && !document.getElementById('panes').hidden && document.querySelector('#doc-tabs .doc-tab[data-index="1"]').getAttribute('aria-selected') === 'true'`) {
		t.Error("after the jump, B's tab is not selected or its tree does not show sg00/def.json selected")
	}
	if v := eval[string](p, `document.querySelector('#detail .d-value') ? document.querySelector('#detail .d-value').textContent : ''`); v != "2,999 B (2.9 KiB)" {
		t.Errorf("the detail pane shows %q; want B's def.json size", v)
	}
	// The comparison keeps its tab: back to it, then a removed member's path jumps to A.
	p.click("#doc-tabs .diff-tab")
	p.waitDiff()
	p.click(`#diff-members tr[data-path="metrics.json"] .path-link`)
	p.waitFor(`!neffscope.diff.shown && neffscope.docs[0].current && neffscope.state.selected && neffscope.state.selected.ref === 'member:metrics.json'`, "metrics.json selected in A")
	// Swap makes B the reference: the additions and removals trade places.
	p.click("#doc-tabs .diff-tab")
	p.waitDiff()
	p.click("#diff-swap")
	p.waitFor(`neffscope.diff.ready && neffscope.diff.a === 1 && document.querySelector('#diff-summary .diff-count[data-change="added"]').dataset.n === '2'`, "the swapped comparison")
	if got := p.diffCounts(); got != "changed=24 added=2 removed=30 unchanged=6" {
		t.Errorf("swapped counts %q; want 24 changed, 2 added, 30 removed", got)
	}
	// Escape leaves the comparison for the current document.
	eval[chromedp.Void](p, `document.getElementById('diff-body').focus()`)
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitFor(`!neffscope.diff.shown && !document.getElementById('panes').hidden && document.getElementById('diff-view').hidden`, "Escape to close the comparison")
}

// One NEFF open: "Compare with…" picks a second file, which opens as a tab and is compared.
func TestDiffCompareWithPickedFile(t *testing.T) {
	readStreamPair(t)
	p := newPage(t, siteURL)
	p.openWithPicker(trn1Stream)
	if label := eval[string](p, `document.getElementById('compare').hidden ? '' : document.getElementById('compare-button').textContent`); label != "⇄ Compare with…" {
		t.Fatalf("with one NEFF open the compare control says %q; want ⇄ Compare with…", label)
	}
	p.do(chromedp.SetUploadFiles(chromedp.ID("compare-input"), []string{mustAbs(trn2Stream)}))
	p.waitDiff()
	if got := p.diffCounts(); got != "changed=24 added=30 removed=2 unchanged=6" {
		t.Errorf("summary counts %q", got)
	}
	docs := eval[[]struct{ File string }](p, `neffscope.docs`)
	if len(docs) != 2 || eval[int](p, `document.querySelectorAll('#doc-tabs .doc-tab').length`) != 3 {
		t.Errorf("after Compare with…: documents %v and %d tabs; want A, B and the comparison", docs, eval[int](p, `document.querySelectorAll('#doc-tabs .doc-tab').length`))
	}
	// Both files are named stream_256k_fd1k.neff: the tabs say which is which.
	if tabs := eval[string](p, `Array.from(document.querySelectorAll('#doc-tabs .doc-tab')).map((t) => t.textContent).join('|')`); !strings.Contains(tabs, "#1") || !strings.Contains(tabs, "#2") {
		t.Errorf("tabs %q do not tell the two same-named files apart", tabs)
	}
	// Opening another file replaces the documents, and with them the comparison.
	p.openWithPicker(realNEFF)
	if eval[bool](p, `neffscope.diff.shown || !!document.querySelector('#doc-tabs .diff-tab') || neffscope.docs.length !== 1`) {
		t.Error("opening another file left the comparison of the closed documents")
	}
}

// A NEFF compared with itself is identical.
func TestDiffNEFFWithItselfIsIdentical(t *testing.T) {
	readStreamPair(t)
	p := newPage(t, siteURL)
	p.openWithPicker(trn1Stream)
	p.do(chromedp.SetUploadFiles(chromedp.ID("compare-input"), []string{mustAbs(trn1Stream)}))
	p.waitDiff()
	if v := eval[string](p, `document.querySelector('#diff-summary .diff-verdict').dataset.verdict + ' ' + document.querySelector('#diff-summary .diff-verdict').textContent`); v != "identical Identical" {
		t.Errorf("verdict %q; want identical", v)
	}
	if got := p.diffCounts(); got != "changed=0 added=0 removed=0 unchanged=32" {
		t.Errorf("counts %q; want all 32 members unchanged", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#diff-body tr.changed, #diff-body tr.added, #diff-body tr.removed').length`); n != 0 {
		t.Errorf("%d rows marked as differences in an identical comparison", n)
	}
	if n := eval[int](p, `document.querySelectorAll('#diff-body .diff-none').length`); n != 4 {
		t.Errorf("%d sections say 'No differences', want 4", n)
	}
	p.click("#diff-hide-same")
	if n := eval[int](p, `Array.from(document.querySelectorAll('#diff-body tbody tr')).filter((r) => r.offsetParent !== null).length`); n != 0 {
		t.Errorf("with unchanged rows hidden, %d rows still show in an identical comparison", n)
	}
	p.shot("/tmp/neffscope-diff-identical.png")
}

// A file that is not a NEFF cannot be compared: the view says why, in the core's words.
func TestDiffWithAFileThatIsNotANEFF(t *testing.T) {
	readStreamPair(t)
	notes := filepath.Join(t.TempDir(), "notes.json")
	if err := os.WriteFile(notes, []byte(`{"not": "a NEFF"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(trn1Stream)
	p.do(chromedp.SetUploadFiles(chromedp.ID("compare-input"), []string{notes}))
	p.waitDiff()
	if v := eval[string](p, `document.querySelector('#diff-summary .diff-verdict').dataset.verdict`); v != "error" {
		t.Errorf("verdict %q; want error", v)
	}
	if msg := eval[string](p, `Array.from(document.querySelectorAll('#diff-body .diff-findings .msg')).map((m) => m.textContent).join(' | ')`); !strings.Contains(msg, "notes.json is not a NEFF") {
		t.Errorf("findings %q; want the core's 'notes.json is not a NEFF'", msg)
	}
	if n := eval[int](p, `document.querySelectorAll('#diff-body .diff-sec').length`); n != 0 {
		t.Errorf("%d sections shown for files that cannot be compared", n)
	}
}
