package e2e

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
)

// Two NEFFs that differ in one kernel line compare to that line first. A real NEFF
// and a copy with one bit changed outside the sync band in one word of its quietest line (the
// core's TestDiffSourceOneLineChange makes the same pair) are dropped together and compared:
// the comparison's first section is the kernel lines, its one row names that line as changed
// in its operands, its B button selects the line in B, the row opens to the word that differs,
// and that word's A button shows the instruction selected in A's listing.
func TestCompareOneKernelLineFirst(t *testing.T) {
	rel := "cs149-trn1/file_pool_1_float16.neff"
	if !realfiles.Has(rel) {
		rel = "nkipy/matmul_small.neff" // one kernel line only, in the repository
	}
	src := realfiles.Read(t, rel)
	a := inspect.Open("a.neff", bytes.NewReader(src), int64(len(src)), inspect.Options{})
	lw, ok := repack.QuietLine(a)
	if !ok {
		t.Fatalf("%s maps no instruction to a kernel line", rel)
	}
	b := repack.EditWord(src, lw.Member, lw.Index, func(w []byte) { w[63] ^= 0x01 })

	p := newPage(t, siteURL)
	p.dropFiles(map[string][]byte{"kernel_v1.neff": src, "kernel_v2.neff": b}, []string{"kernel_v1.neff", "kernel_v2.neff"})
	p.click("#compare-button")
	p.waitFor(`!document.getElementById('compare-menu').hidden`, "the Compare menu")
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitDiff()

	first := eval[string](p, `(Array.from(document.querySelectorAll('#diff-body .diff-sec')).find((s) => s.dataset.section !== 'recompile') || {dataset: {}}).dataset.section || ''`)
	if first != "source" {
		t.Fatalf("the comparison's first section is %q, want the kernel lines", first)
	}
	rows := eval[[][]string](p, `Array.from(document.querySelectorAll('#diff-source tbody > tr:not(.sub)')).map((r) => [r.dataset.line, r.dataset.change])`)
	if len(rows) != 1 || rows[0][0] != lw.Line.Key || rows[0][1] != "operands" {
		t.Fatalf("kernel line rows %v; want one, %s changed in its operands", rows, lw.Line.Key)
	}
	// The line's B button shows the line in B; the comparison's tab brings it back.
	p.click(`#diff-source tbody > tr .open .jump[data-side="b"]`)
	p.waitFor(`!neffscope.diff.shown`, "B's document")
	if !eval[bool](p, `neffscope.docs[neffscope.diff.b].current`) {
		t.Error("the line's B button did not show document B")
	}
	if got := p.selPath(); got != "model/source/lines/"+lw.Line.Key {
		t.Errorf("the line's B button selected %q, want the line %s", got, lw.Line.Key)
	}
	p.click(`.doc-tab.diff-tab`)
	p.waitDiff()
	p.click(`#diff-source tbody > tr .dtwisty`)
	want := lw.Member + " #" + strconv.Itoa(lw.Index)
	words := eval[[]string](p, `Array.from(document.querySelectorAll('#diff-source tr.sub .word-link')).map((b) => b.dataset.side + ' ' + b.textContent)`)
	if len(words) != 2 || words[0] != "a "+want || words[1] != "b "+want {
		t.Fatalf("the line's differing words %q; want %s in A and in B", words, want)
	}
	p.shot("/tmp/neffscope-diff-kernel-line.png")
	p.click(`#diff-source tr.sub .word-link[data-side="a"]`)
	p.waitFor(`!neffscope.diff.shown && !document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow.selected[data-index="`+strconv.Itoa(lw.Index)+`"]')`, "A's listing with "+want+" selected")
	// The row is marked before the instruction is fetched; the selection follows the fetch.
	inst := "/#" + strconv.Itoa(lw.Index)
	if !p.holdsWithin(`(() => { const s = neffscope.state; const r = s && s.selected && s.info.get(s.selected); return r && r.path.join('/').endsWith(`+jsString(inst)+`); })()`, waitDeadline) {
		t.Errorf("the word's A button selected %q, want %s", p.selPath(), want)
	}
}
