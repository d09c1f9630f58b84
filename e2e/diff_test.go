package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// diffPair is two NEFFs to compare and what the page must show for them.
type diffPair struct {
	nameA, nameB string // as dropped
	pathA, pathB string // on disk, for the picker and the CLI
	a, b         []byte
	members      int               // members of A
	counts       string            // the summary's counts
	swapped      string            // the counts with B as the reference
	summary      string            // in the summary line
	sides        []string          // in the A/B bar
	defRow       [2]string         // sg00/def.json's sizes in A and B
	defDetail    string            // the detail pane's value for B's sg00/def.json
	removed      string            // a member only A has
	target       string            // the model table's target row
	header       map[string]string // header rows: changed or same
	kelfPaths    string            // kelf-0.json's path changes
	stream       string            // a stream whose count grew by one PseudoBranchLabel
	streamCounts [2]string         // its counts in A and B
	addedStreams int               // streams only B has
}

// matmulPair is the repository's matmul_small.neff against a repacked copy: kelf-0.json's
// target changed, sg00/def.json one value changed, sg00/SP.bin one PseudoBranchLabel longer,
// hlo_stats.json removed, notes.json added; another UUID and feature word.
func matmulPair(t *testing.T) diffPair {
	t.Helper()
	a := readReal(t)
	arch := neff.Open(bytes.NewReader(a), int64(len(a)), neff.Options{Keep: func(string, int64) bool { return true }})
	var ms []neffbuild.Member
	sp := 0
	for _, m := range arch.Members {
		data := m.Data
		switch m.Path {
		case "hlo_stats.json":
			continue
		case "kelf-0.json":
			data = bytes.Replace(data, []byte(`"cayman"`), []byte(`"sunda"`), 1)
		case "sg00/def.json":
			data = bytes.Replace(data, []byte(`"#rank_world_size": 0`), []byte(`"#rank_world_size": 2`), 1)
		case "sg00/SP.bin":
			sp = len(data) / 64
			word := make([]byte, 64)
			word[0], word[1] = 0xcc, 0x10 // PseudoBranchLabel, 16 dwords
			data = append(bytes.Clone(data), word...)
		}
		ms = append(ms, neffbuild.Member{Path: m.Path, Data: data})
	}
	ms = append(ms, neffbuild.Member{Path: "notes.json", Data: []byte(`{"by": "matmulPair"}`)})
	h := arch.Header
	b := neffbuild.Bytes(ms, neffbuild.Options{Name: h.Name, FeatureBits: 0xC00, LNCSize: h.LNCSize, NumTPB: h.NumTPB})
	// Both are named matmul_small.neff, in different folders, as two builds of one model are.
	pathB := filepath.Join(t.TempDir(), "matmul_small.neff")
	if err := os.WriteFile(pathB, b, 0o644); err != nil {
		t.Fatal(err)
	}
	n := len(arch.Members)
	def := commas(len(arch.Member("sg00/def.json").Data))
	return diffPair{
		nameA: "matmul_small.neff", nameB: "matmul_small-repacked.neff", pathA: realNEFF, pathB: pathB, a: a, b: b, members: n,
		counts:    fmt.Sprintf("changed=3 added=1 removed=1 unchanged=%d", n-4),
		swapped:   fmt.Sprintf("changed=3 added=1 removed=1 unchanged=%d", n-4),
		summary:   "3 changed · 1 added · 1 removed",
		sides:     []string{"cayman", "sunda"},
		defRow:    [2]string{def, def},
		defDetail: def + " B",
		removed:   "hlo_stats.json",
		target:    "[changed cayman sunda]",
		header:    map[string]string{"feature_bits": "changed", "uuid": "changed", "lnc_size": "same", "pkg_version": "same", "num_tpb": "same"},
		kelfPaths: `[target="cayman">"sunda"]`,
		stream:    "sg00/SP.bin", streamCounts: [2]string{fmt.Sprint(sp), fmt.Sprint(sp + 1)},
	}
}

// trnPair is the same kernel compiled for trn1 (sunda) and for trn2 (cayman, two cores fused),
// from the shared folder; ok is false (and the test says so) where it is not beside the clone.
func trnPair(t *testing.T) (diffPair, bool) {
	t.Helper()
	pa, okA := realfiles.Optional(t, "cs149-trn1/stream_256k_fd1k.neff", "the trn1/trn2 comparison")
	pb, okB := realfiles.Optional(t, "cs149-trn2/stream_256k_fd1k.neff", "the trn1/trn2 comparison")
	if !okA || !okB {
		return diffPair{}, false
	}
	a, errA := os.ReadFile(pa)
	b, errB := os.ReadFile(pb)
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	return diffPair{
		nameA: "trn1-stream_256k_fd1k.neff", nameB: "trn2-stream_256k_fd1k.neff", pathA: pa, pathB: pb, a: a, b: b, members: 32,
		counts:    "changed=24 added=30 removed=2 unchanged=6",
		swapped:   "changed=24 added=2 removed=30 unchanged=6",
		summary:   "24 changed · 30 added · 2 removed",
		sides:     []string{"sunda", "cayman"},
		defRow:    [2]string{"2,724", "2,999"},
		defDetail: "2,999 B (2.9 KiB)",
		removed:   "metrics.json",
		target:    "[changed sunda cayman]",
		header:    map[string]string{"feature_bits": "changed", "lnc_size": "changed", "uuid": "changed", "pkg_version": "same", "num_tpb": "same"},
		kelfPaths: `[graphs/1=—>{2} target="sunda">"cayman"]`,
		stream:    "sg00/SP.bin", streamCounts: [2]string{"5", "6"},
		addedStreams: 5,
	}, true
}

// nativeDiff is fleet.Diff of the two files opened as the page opens them.
func nativeDiff(nameA string, a []byte, nameB string, b []byte) *doc.Node {
	fa := inspect.Open(nameA, bytes.NewReader(a), int64(len(a)), inspect.Options{Fingerprint: true})
	fb := inspect.Open(nameB, bytes.NewReader(b), int64(len(b)), inspect.Options{Fingerprint: true})
	return fleet.Diff(fa, fb)
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
	work := filepath.Join(t.TempDir(), "files")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range files {
		if err := os.Symlink(mustAbs(target), filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(cli(t), "diff", "--json", nameA, nameB)
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
	checkDroppedPair(t, matmulPair(t))
	t.Run("trn1-trn2", func(t *testing.T) {
		if pair, ok := trnPair(t); ok {
			checkDroppedPair(t, pair)
		}
	})
}

func checkDroppedPair(t *testing.T, pair diffPair) {
	nameA, nameB, a, b := pair.nameA, pair.nameB, pair.a, pair.b
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
	if got := p.diffCounts(); got != pair.counts {
		t.Errorf("summary counts %q; want %s", got, pair.counts)
	}
	summary := eval[string](p, `document.getElementById('diff-summary').textContent`)
	if !strings.Contains(summary, pair.summary) || !strings.Contains(summary, "Different") {
		t.Errorf("summary line %q", summary)
	}
	if v := eval[string](p, `document.querySelector('#diff-summary .diff-verdict').dataset.verdict`); v != "different" {
		t.Errorf("verdict %q, want different", v)
	}
	if sides := eval[string](p, `document.getElementById('diff-sides').textContent`); !strings.Contains(sides, nameA) || !strings.Contains(sides, nameB) || !strings.Contains(sides, pair.sides[0]) || !strings.Contains(sides, pair.sides[1]) {
		t.Errorf("the A/B bar says %q; want both names and targets", sides)
	}

	// The member lists are the core's, in its order.
	for _, kind := range []string{fleet.DiffChanged, fleet.DiffAdded, fleet.DiffRemoved} {
		if got, want := p.diffRows(kind), memberPaths(native, kind); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s members on the page:\n%v\nnative fleet.Diff:\n%v", kind, got, want)
		}
	}
	if n, want := len(p.diffRows("unchanged")), pair.members-len(memberPaths(native, fleet.DiffChanged))-len(memberPaths(native, fleet.DiffRemoved)); n != want || n == 0 {
		t.Errorf("%d unchanged member rows, want %d", n, want)
	}
	// Each row has both sizes and short hashes where the member exists.
	row := eval[[]string](p, `Array.from(document.querySelectorAll('#diff-members tr[data-path="sg00/def.json"] td')).map((c) => c.textContent)`)
	if len(row) != 7 || row[2] != pair.defRow[0] || row[3] != pair.defRow[1] || len(row[4]) != 12 || len(row[5]) != 12 || row[4] == row[5] || row[6] != "AB" {
		t.Errorf("sg00/def.json row %q", row)
	}

	// The kelf target (sunda → cayman) is a changed row of the model table; header fields
	// that differ are marked, equal ones are not.
	target := eval[[]string](p, `(() => { const r = document.querySelector('#diff-model tr[data-field="target"]'); return r ? [r.className, r.querySelector('.va').textContent, r.querySelector('.vb').textContent] : []; })()`)
	if fmt.Sprint(target) != pair.target {
		t.Errorf("model target row %q; want %s", target, pair.target)
	}
	for field, want := range pair.header {
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
	if fmt.Sprint(paths) != pair.kelfPaths {
		t.Errorf("kelf-0.json path changes %q", paths)
	}
	// Instruction counts per stream, with the opcode deltas.
	sp := eval[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll('#diff-instructions tr[data-stream=%q] td')).map((c) => c.textContent)`, pair.stream))
	if len(sp) != 9 || sp[4] != pair.streamCounts[0] || sp[5] != pair.streamCounts[1] || sp[6] != "+1" || !strings.Contains(sp[7], "PseudoBranchLabel +1") {
		t.Errorf("%s instruction row %q", pair.stream, sp)
	}
	if got := eval[int](p, `document.querySelectorAll('#diff-instructions tr[data-change="added"]').length`); got != pair.addedStreams {
		t.Errorf("%d added streams, want %d", got, pair.addedStreams)
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
	got := waitDownload(t, downloads, nameA+"_vs_"+nameB+".diff.json")
	want := cliDiffJSON(t, map[string]string{nameA: pair.pathA, nameB: pair.pathB}, nameA, nameB)
	if !bytes.Equal(got, want) {
		t.Errorf("the exported diff has %d bytes and differs from `neffscope diff --json`'s %d bytes", len(got), len(want))
	}

	// A changed member's B button: the tab switches to B and the member is selected.
	p.click(`#diff-members tr[data-path="sg00/def.json"] .jump[data-side="b"]`)
	p.waitFor(`!neffscope.diff.shown && neffscope.docs[1].current && neffscope.state.selected && neffscope.state.selected.ref === 'member:sg00/def.json'`, "sg00/def.json selected in B")
	if !eval[bool](p, `!!document.querySelector('#tree .ti[data-ref="member:sg00/def.json"][aria-selected="true"]') && document.getElementById('diff-view').hidden && !document.getElementById('panes').hidden && document.querySelector('#doc-tabs .doc-tab[data-index="1"]').getAttribute('aria-selected') === 'true'`) {
		t.Error("after the jump, B's tab is not selected or its tree does not show sg00/def.json selected")
	}
	if v := eval[string](p, `document.querySelector('#detail .d-value') ? document.querySelector('#detail .d-value').textContent : ''`); !strings.HasPrefix(v, pair.defDetail) {
		t.Errorf("the detail pane shows %q; want B's def.json size", v)
	}
	// The comparison keeps its tab: back to it, then a removed member's path jumps to A.
	p.click("#doc-tabs .diff-tab")
	p.waitDiff()
	p.click(fmt.Sprintf(`#diff-members tr[data-path=%q] .path-link`, pair.removed))
	p.waitFor(fmt.Sprintf(`!neffscope.diff.shown && neffscope.docs[0].current && neffscope.state.selected && neffscope.state.selected.ref === 'member:%s'`, pair.removed), pair.removed+" selected in A")
	// Swap makes B the reference: the additions and removals trade places.
	p.click("#doc-tabs .diff-tab")
	p.waitDiff()
	p.click("#diff-swap")
	p.waitFor(`neffscope.diff.ready && neffscope.diff.a === 1 && document.querySelector('#diff-summary .diff-count[data-change="added"]')`, "the swapped comparison")
	if got := p.diffCounts(); got != pair.swapped {
		t.Errorf("swapped counts %q; want %s", got, pair.swapped)
	}
	// Escape leaves the comparison for the current document.
	eval[chromedp.Void](p, `document.getElementById('diff-body').focus()`)
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitFor(`!neffscope.diff.shown && !document.getElementById('panes').hidden && document.getElementById('diff-view').hidden`, "Escape to close the comparison")
}

// One NEFF open: "Compare with…" picks a second file, which opens as a tab and is compared.
func TestDiffCompareWithPickedFile(t *testing.T) {
	pair := matmulPair(t)
	p := newPage(t, siteURL)
	p.openWithPicker(pair.pathA)
	if label := eval[string](p, `document.getElementById('compare').hidden ? '' : document.getElementById('compare-button').textContent`); label != "⇄ Compare with…" {
		t.Fatalf("with one NEFF open the compare control says %q; want ⇄ Compare with…", label)
	}
	p.do(chromedp.SetUploadFiles(chromedp.ID("compare-input"), []string{mustAbs(pair.pathB)}))
	p.waitDiff()
	if got := p.diffCounts(); got != pair.counts {
		t.Errorf("summary counts %q; want %s", got, pair.counts)
	}
	docs := eval[[]struct{ File string }](p, `neffscope.docs`)
	if len(docs) != 2 || eval[int](p, `document.querySelectorAll('#doc-tabs .doc-tab').length`) != 3 {
		t.Errorf("after Compare with…: documents %v and %d tabs; want A, B and the comparison", docs, eval[int](p, `document.querySelectorAll('#doc-tabs .doc-tab').length`))
	}
	// Both files are named matmul_small.neff: the tabs say which is which.
	if tabs := eval[string](p, `Array.from(document.querySelectorAll('#doc-tabs .doc-tab')).map((t) => t.textContent).join('|')`); !strings.Contains(tabs, "#1") || !strings.Contains(tabs, "#2") {
		t.Errorf("tabs %q do not tell the two same-named files apart", tabs)
	}
	// Opening another file adds its tab and shows it; the comparison keeps its tab.
	p.openWithPicker(bigNEFF(t, 1<<10))
	if !eval[bool](p, `!neffscope.diff.shown && !!document.querySelector('#doc-tabs .diff-tab') && neffscope.docs.length === 3 && neffscope.docs[2].current`) {
		t.Error("opening a third file did not add its tab beside A, B and the comparison")
	}
	// Closing B closes the comparison too.
	eval[chromedp.Void](p, `document.querySelectorAll('#doc-tabs .tab-close')[1].click()`)
	if eval[bool](p, `!!document.querySelector('#doc-tabs .diff-tab') || neffscope.docs.length !== 2`) {
		t.Error("closing B left its comparison")
	}
}

// A NEFF compared with itself is identical.
func TestDiffNEFFWithItselfIsIdentical(t *testing.T) {
	pair := matmulPair(t)
	p := newPage(t, siteURL)
	p.openWithPicker(pair.pathA)
	p.do(chromedp.SetUploadFiles(chromedp.ID("compare-input"), []string{mustAbs(pair.pathA)}))
	p.waitDiff()
	if v := eval[string](p, `document.querySelector('#diff-summary .diff-verdict').dataset.verdict + ' ' + document.querySelector('#diff-summary .diff-verdict').textContent`); v != "identical Identical" {
		t.Errorf("verdict %q; want identical", v)
	}
	if got, want := p.diffCounts(), fmt.Sprintf("changed=0 added=0 removed=0 unchanged=%d", pair.members); got != want {
		t.Errorf("counts %q; want %s", got, want)
	}
	if n := eval[int](p, `document.querySelectorAll('#diff-body tr.changed, #diff-body tr.added, #diff-body tr.removed').length`); n != 0 {
		t.Errorf("%d rows marked as differences in an identical comparison", n)
	}
	// Every section says so: the kernel lines (matmul_small has debug info), header, model,
	// members and instructions.
	if got := eval[[]string](p, `Array.from(document.querySelectorAll('#diff-body .diff-sec')).filter((s) => s.querySelector('.diff-none')).map((s) => s.dataset.section)`); strings.Join(got, " ") != "source header model members instructions" {
		t.Errorf("the sections that say there is no difference: %q; want source header model members instructions", got)
	}
	p.click("#diff-hide-same")
	if n := eval[int](p, `Array.from(document.querySelectorAll('#diff-body tbody tr')).filter((r) => r.offsetParent !== null).length`); n != 0 {
		t.Errorf("with unchanged rows hidden, %d rows still show in an identical comparison", n)
	}
	p.shot("/tmp/neffscope-diff-identical.png")
}

// A file that is not a NEFF cannot be compared: the view says why, in the core's words.
func TestDiffWithAFileThatIsNotANEFF(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "notes.json")
	if err := os.WriteFile(notes, []byte(`{"not": "a NEFF"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.do(chromedp.SetUploadFiles(chromedp.ID("compare-input"), []string{notes}))
	p.waitDiff()
	if v := eval[string](p, `document.querySelector('#diff-summary .diff-verdict').dataset.verdict`); v != "error" {
		t.Errorf("verdict %q; want error", v)
	}
	if codes := eval[[]string](p, `Array.from(document.querySelectorAll('#diff-body .diff-findings .finding')).map((m) => m.dataset.code)`); !slices.Contains(codes, string(doc.CodeDiffNotNEFF)) {
		t.Errorf("finding codes %q; want the core's %s", codes, doc.CodeDiffNotNEFF)
	}
	if n := eval[int](p, `document.querySelectorAll('#diff-body .diff-sec').length`); n != 0 {
		t.Errorf("%d sections shown for files that cannot be compared", n)
	}
}
