package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// dmaWord is the first DMA word of a file whose resolved field has a queue and (knownBlock)
// a block or not: its instruction path (the hash's form), the row's link, and the queue and
// block fields.
type dmaWord struct {
	path         string // NodeLink of the instruction (its stream's path + "#N")
	index        int
	rowLink      string
	queue, block *doc.Node
}

func firstDMAWord(t *testing.T, f *inspect.File, knownBlock bool) dmaWord {
	t.Helper()
	var out dmaWord
	f.Doc.Root.Walk(func(path []string, n *doc.Node) bool {
		if out.path != "" {
			return false
		}
		if k, _ := doc.ParseRef(n.Ref); k != doc.RefStream || n.Kind == doc.KindMember {
			return true
		}
		tab, total, err := f.Rows(n.Ref, 0, 1<<20)
		if err != nil {
			return true
		}
		for i := range total {
			ins, err := f.Instruction(n.Ref, i)
			if err != nil {
				continue
			}
			q, b := ins.Find("resolved", "queue"), ins.Find("resolved", "block")
			if q == nil || b == nil || (b.Attrs[inspect.AttrBlock] != "") != knownBlock {
				continue
			}
			out = dmaWord{path: doc.NodeLink(append(append([]string(nil), path...), "#"+strconv.Itoa(i))...), index: i, queue: q, block: b}
			if tab.RowLinks != nil && i < len(tab.RowLinks) {
				out.rowLink = tab.RowLinks[i]
			}
			return false
		}
		return true
	})
	if out.path == "" {
		t.Fatalf("no DMA word with a queue (block known: %v)", knownBlock)
	}
	return out
}

// linkNodeOf follows a link to its node in f's document.
func linkNodeOf(t *testing.T, f *inspect.File, l string) *doc.Node {
	t.Helper()
	p, ok := doc.LinkPath(l)
	if !ok {
		t.Fatalf("link %q does not parse", l)
	}
	n := f.Doc.Root.Find(p...)
	if n == nil {
		t.Fatalf("link %q leads nowhere", l)
	}
	return n
}

// linkPathText is a NodeLink as selPath reads it (keys decoded, joined by '/').
func linkPathText(t *testing.T, l string) string {
	p, ok := doc.LinkPath(l)
	if !ok {
		t.Fatalf("link %q does not parse", l)
	}
	return strings.Join(p, "/")
}

// A PseudoDMATrigger's listing row leads to the block it triggers (its
// queue's child, the engine JSON block's bytes), and its detail to the queue's row as well.
func TestDMATriggerLeadsToQueueAndBlock(t *testing.T) {
	path, ok := realfiles.Find("cs149-trn1/file_pool_1_float16.neff")
	if !ok {
		t.Skip(realfiles.Missing("cs149-trn1/file_pool_1_float16.neff"))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := inspect.Open(filepath.Base(path), bytes.NewReader(data), int64(len(data)), inspect.Options{})
	w := firstDMAWord(t, f, true)
	if w.block == nil || w.block.Link == "" || w.rowLink != w.block.Link {
		t.Fatalf("native: the trigger's block field %+v, row link %q", w.block, w.rowLink)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview")
	p.goPath(w.path)
	sel := `#listing-rows .lrow.selected[data-index="` + strconv.Itoa(w.index) + `"] .l-link`
	p.waitFor(`document.querySelector(`+jsString(sel)+`)`, "the trigger row's link")
	eval[chromedp.Void](p, `document.querySelector(`+jsString(sel)+`).click()`)
	want := linkPathText(t, w.block.Link)
	p.waitFor(`(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return r && r.path.join('/') === `+jsString(want)+`; })()`, "the block "+want)
	if got := eval[string](p, `neffscope.state.selected.attrs.block`); got != w.block.Attrs[inspect.AttrBlock] {
		t.Errorf("the selected block's id attr is %q, want %q", got, w.block.Attrs[inspect.AttrBlock])
	}
	if got := eval[string](p, `neffscope.state.selected.attrs.queue`); got != w.queue.Attrs[inspect.AttrQueue] {
		t.Errorf("the selected block's queue is %q, want %q", got, w.queue.Attrs[inspect.AttrQueue])
	}
	// The block's detail tables its descriptors as the core does (engine JSON desc[] keys).
	bn := linkNodeOf(t, f, w.block.Link)
	p.waitFor(`document.querySelectorAll('#detail table.grid tbody tr').length === `+strconv.Itoa(len(bn.Table.Rows)), "the block's descriptor rows")
	if got := eval[[]string](p, `Array.from(document.querySelectorAll('#detail table.grid thead th')).map((th) => th.textContent)`); strings.Join(got, ",") != strings.Join(bn.Table.Columns, ",") {
		t.Errorf("the block's table columns %v, want %v", got, bn.Table.Columns)
	}
	if got := eval[[]string](p, `Array.from(document.querySelectorAll('#detail table.grid tbody tr:first-child td')).map((td) => td.textContent)`); strings.Join(got, "|") != strings.Join(bn.Table.Rows[0], "|") {
		t.Errorf("the block's first descriptor row %v, want %v", got, bn.Table.Rows[0])
	}
	shotThemes(p, t, "dma-block")

	// Back to the trigger: its detail's queue link selects the queue's own node.
	eval[chromedp.Void](p, `history.back()`)
	qsel := `#detail .related-link[data-label="queue"][data-queue=` + jsString(w.queue.Attrs[inspect.AttrQueue]) + `]`
	p.waitFor(`document.querySelector(`+jsString(qsel)+`)`, "the trigger's queue link")
	if !eval[bool](p, `!!document.querySelector('#detail .related-link[data-label="block"][data-block="`+w.block.Attrs[inspect.AttrBlock]+`"]')`) {
		t.Errorf("the trigger's detail has no block link")
	}
	// Focused, then activated (as a user's click or Enter leaves it): the focus follows the link.
	eval[chromedp.Void](p, `(() => { const b = document.querySelector(`+jsString(qsel)+`); b.focus(); b.click(); })()`)
	wantQ := linkPathText(t, w.queue.Link)
	p.waitFor(`(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return r && r.path.join('/') === `+jsString(wantQ)+`; })()`, "the queue "+wantQ)
	row := linkNodeOf(t, f, w.queue.Link).Attrs[inspect.AttrQueueRow]
	if got := eval[string](p, `neffscope.state.selected.attrs.queue_row`); got == "" || got != row {
		t.Errorf("the queue's node row attr %q, want %q", got, row)
	}
	// The core's DMA queues table shows with the queue's row selected, and the focus on it.
	rsel := `#detail table[data-table="dma_queues"] tbody tr.selected`
	p.waitFor(`document.querySelector(`+jsString(rsel)+`)`, "the queue's row selected in its core's DMA queues table")
	if got := eval[[]string](p, `Array.from(document.querySelectorAll(`+jsString(rsel)+`)).map((tr) => tr.dataset.row)`); len(got) != 1 || got[0] != row {
		t.Errorf("the selected rows of the DMA queues table are %v, want [%s]", got, row)
	}
	p.waitFor(`(() => { const a = document.activeElement; return !!a && !!a.closest(`+jsString(rsel)+`); })()`, "the focus on the queue's row")
	if got := eval[string](p, `document.querySelector(`+jsString(rsel)+`).getAttribute('aria-selected')`); got != "true" {
		t.Errorf("the queue's row aria-selected %q", got)
	}
	p.waitFor(`neffscope.hex.hl && neffscope.hex.hl.len > 0`, "the queue's def.json bytes highlighted")
	shotThemes(p, t, "dma-queue")
}

// A PseudoDmaDirect2d names its queue (by semaphore) but no block: its detail links the
// queue and says the block is unknown.
func TestDirect2dSaysItsBlockIsUnknown(t *testing.T) {
	f := nativeMatmul(t)
	w := firstDMAWord(t, f, false)
	if w.block == nil || w.block.Attrs[inspect.AttrBlock] != "" || w.block.Link != "" {
		t.Fatalf("native: the 0xD4's block field %+v", w.block)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview")
	p.goPath(w.path)
	p.waitFor(`document.querySelector('#detail .related-unknown[data-label="block"][data-block=""]')`, "the detail to say the block is unknown")
	if got := eval[string](p, `(document.querySelector('#detail .related-link[data-label="queue"]') || {dataset: {}}).dataset.queue || ''`); got != w.queue.Attrs[inspect.AttrQueue] {
		t.Errorf("the 0xD4's queue link names %q, want %q", got, w.queue.Attrs[inspect.AttrQueue])
	}
	shotThemes(p, t, "d4-unknown-block")
}

// An input on the overview leads to its def.json var: the var's detail lists
// the instructions that touch it and links to its def.json entry.
func TestInputLeadsToItsVar(t *testing.T) {
	f := nativeMatmul(t)
	io := f.Doc.Root.Children[0].Child(inspect.OverviewIO).Table
	v := f.Doc.Root.Find("model", "cores", "sg00", "vars", io.Rows[0][1])
	if v == nil || v.Table == nil {
		t.Fatalf("native var %s has no instructions", io.Rows[0][1])
	}
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	cell := `#overview-view table.ov-table[data-section="io"] tbody tr .ov-cell`
	p.waitFor(`document.querySelector(`+jsString(cell)+`)`, "the inputs and outputs card")
	eval[chromedp.Void](p, `document.querySelector(`+jsString(cell)+`).click()`)
	want := linkPathText(t, io.RowLinks[0])
	p.waitFor(`(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return r && r.path.join('/') === `+jsString(want)+`; })()`, "the var "+want)
	if got := eval[string](p, `neffscope.state.selected.attrs.var`); got != io.Rows[0][1] {
		t.Errorf("the input's link selected var %q, want %q", got, io.Rows[0][1])
	}
	p.waitFor(`document.querySelectorAll('#detail .ins-link').length === `+strconv.Itoa(len(v.Table.Rows)), "the var's instructions")
	shotThemes(p, t, "io-var")
	eval[chromedp.Void](p, `document.querySelector('#detail .d-link').click()`)
	if got := p.selPath(); got != "members/sg00//def.json/content/var/"+io.Rows[0][1] {
		t.Errorf("the var's def.json link selected %q", got)
	}
}

// A file opened through "Compare with…" is kept in the library like any
// opened file, so a reload brings back both tabs and the comparison (no "reopen" tab).
func TestCompareWithFileSurvivesReload(t *testing.T) {
	readReal(t)
	other := filepath.Join(t.TempDir(), "sample.neff")
	if err := os.WriteFile(other, neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "sample.neff"}), 0o644); err != nil {
		t.Fatal(err)
	}
	p := newPage(t, siteURL)
	p.libForgetAll()
	p.openWithPicker(realNEFF)
	p.do(chromedp.SetUploadFiles(chromedp.ID("compare-input"), []string{other}))
	p.waitDiff()
	p.waitFor(`neffscope.library.entries.length === 2`, "both files to be remembered")
	p.do(chromedp.Reload())
	p.waitFor(`document.getElementById('core-status').dataset.state === 'ready'`, "the core after the reload")
	p.waitFor(`neffscope.docs.length === 2 && neffscope.diff.shown && neffscope.diff.ready`, "both tabs and the comparison back after the reload")
	if n := eval[int](p, `document.querySelectorAll('#doc-tabs .reopen-tab').length`); n != 0 {
		t.Errorf("%d reopen tabs after the reload; the compared file should come back from the library", n)
	}
	if names := eval[[]string](p, `neffscope.docs.map(d => d.file)`); len(names) != 2 || !strings.Contains(names[0]+names[1], "sample.neff") {
		t.Errorf("the tabs after the reload: %v", names)
	}
	p.shot("/tmp/neffscope-compare-reload.png")
}
