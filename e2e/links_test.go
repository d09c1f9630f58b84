package e2e

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// On the page, the links that were missing (a variable ↔ its instructions,
// Activate → plot with its range said), byte clicks on the smallest owner in activation
// tables, .dbg records paged by the listing, the findings panel grouped by root cause, and the
// overview as one tab stop.

func nativeMatmul(t *testing.T) *inspect.File {
	t.Helper()
	file := readReal(t)
	return inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{})
}

func (p *page) goPath(path string) {
	p.t.Helper()
	eval[chromedp.Void](p, `location.hash = '#f=' + neffscope.state.doc.sha256.slice(0, 16) + '&n=' + `+jsString(path))
	p.waitFor(`(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return r && r.path.map(encodeURIComponent).join('/') === `+jsString(path)+`; })()`, "the node "+path)
}

// A variable → its def.json entry and the instructions that name it, each one click from the
// listing; a 0xD4 instruction → its variables. Back walks every jump.
func TestVariableLinksBothWays(t *testing.T) {
	f := nativeMatmul(t)
	v := f.Doc.Root.Find("model", "cores", "sg00", "vars", "y")
	if v == nil || v.Table == nil || len(v.Table.Rows) == 0 {
		t.Fatalf("native var y of sg00 has no instructions: %+v", v)
	}
	row := v.Table.Rows[0] // stream, #, opcode, as, address
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview")
	p.goPath("model/cores/sg00/vars/y")
	if n := eval[int](p, `document.querySelectorAll('#detail .ins-link').length`); n != len(v.Table.Rows) {
		t.Errorf("var y's detail lists %d instructions, want %d", n, len(v.Table.Rows))
	}
	// Its def.json entry.
	p.waitFor(`document.querySelector('#detail .d-link')`, "the var's link to its def.json entry")
	eval[chromedp.Void](p, `document.querySelector('#detail .d-link').click()`)
	if got := p.selPath(); got != "members/sg00//def.json/content/var/y" {
		t.Errorf("the def.json link selected %q", got)
	}
	p.waitFor(`!document.getElementById('json-view').hidden`, "def.json's tree")
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`document.querySelector('#detail .ins-link')`, "back to var y")
	shotThemes(p, t, "var")

	// An instruction of it, in the listing.
	eval[chromedp.Void](p, `document.querySelector('#detail .ins-link').click()`)
	p.waitFor(`!document.getElementById('listing').hidden && document.getElementById('content-title').textContent === `+jsString(row[0])+` && document.querySelector('#listing-rows .lrow.selected[data-index="`+row[1]+`"]')`, "the var's first instruction "+row[0]+" #"+row[1])
	// … which leads back to the var.
	sel := `#detail .related-link[data-label="` + row[3] + ` var"]`
	p.waitFor(`document.querySelector(`+jsString(sel)+`)`, "the instruction's "+row[3]+" var link")
	eval[chromedp.Void](p, `document.querySelector(`+jsString(sel)+`).click()`)
	p.waitFor(`document.querySelector('#detail .ins-link')`, "var y again")
	if got := p.selPath(); got != "model/cores/sg00/vars/y" {
		t.Errorf("the instruction's var link selected %q", got)
	}
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`!document.getElementById('listing').hidden && document.getElementById('content-title').textContent === `+jsString(row[0]), "back to the listing")
}

// An Activate row → its function's plot, which says the NEFF does not give the input range
// and shows the default one (attn_v6 calls functions; matmul_small only loads its set).
func TestActivatePlotSaysItsRange(t *testing.T) {
	path, ok := realfiles.Find("nki-moe/attn_v6.neff")
	if !ok {
		t.Skip(realfiles.Missing("nki-moe/attn_v6.neff"))
	}
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	_, row := p.searchAndPick(slash, "Activate", "instruction", "Activation.bin")
	sel := `#listing-rows .lrow.selected[data-index="` + row + `"] .l-link`
	p.waitFor(`document.querySelector(`+jsString(sel)+`)`, "the Activate row's link")
	member := eval[string](p, `document.getElementById('content-title').textContent`)
	eval[chromedp.Void](p, `document.querySelector(`+jsString(sel)+`).click()`)
	p.waitFor(`!document.getElementById('plot-view').hidden && document.getElementById('plot-note') && !document.getElementById('plot-note').hidden`, "the plot with its note")
	note := eval[string](p, `document.getElementById('plot-note').textContent`)
	if !strings.Contains(note, member+" #"+row) || !strings.Contains(note, "does not record the input range") {
		t.Errorf("the plot's note says %q", note)
	}
	lo, hi := eval[string](p, `document.getElementById('plot-lo').value`), eval[string](p, `document.getElementById('plot-hi').value`)
	if !strings.Contains(note, "["+lo+", "+hi+"]") {
		t.Errorf("the note names a range other than the plot's [%s, %s]: %q", lo, hi, note)
	}
	shotThemes(p, t, "activate-plot")
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`!document.getElementById('listing').hidden`, "back to the listing")
	// The plot opened another way has no note.
	eval[chromedp.Void](p, `history.forward()`)
	p.waitFor(`!document.getElementById('plot-view').hidden`, "forward to the plot")
	if eval[bool](p, `!!document.getElementById('plot-note') && !document.getElementById('plot-note').hidden`) {
		t.Errorf("the note stays when the plot is reached by history, not from the Activate")
	}
}

// A byte of a _bkt.bin / _ctrl.bin member lands on its bucket / ctrl record (the smallest
// owner), as the core's Locate says.
func TestActivationTableByteLandsOnItsRecord(t *testing.T) {
	f := nativeMatmul(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview")
	p.expand(`#tree [data-path="members"]`)
	p.expand(`#tree [data-path="members/sg00/"]`)
	for _, c := range []struct {
		member string
		off    int64
	}{{"sg00/exp_and_others_bkt.bin", 0x120 + 5}, {"sg00/exp_and_others_ctrl.bin", 0x40 + 9}} {
		want, err := f.Locate(c.member, c.off)
		if err != nil {
			t.Fatal(err)
		}
		n, err := f.Node(want) // the records are a stub: built on demand
		if err != nil || n.Span == nil || n.Span.Length > 32 {
			t.Fatalf("native Locate(%s, %d) = %v, not a record", c.member, c.off, want)
		}
		p.clickRow(`#tree [data-ref="` + doc.MemberRef(c.member) + `"]`)
		rowOff := c.off &^ 15
		bsel := `#hex-rows .hex-row[data-off="` + strconv.FormatInt(rowOff, 10) + `"] .hb[data-i="` + strconv.FormatInt(c.off-rowOff, 10) + `"]`
		p.waitFor(`document.querySelector(`+jsString(bsel)+`)`, "the hex byte "+strconv.FormatInt(c.off, 10)+" of "+c.member)
		eval[chromedp.Void](p, `document.querySelector(`+jsString(bsel)+`).click()`)
		p.waitFor(`neffscope.state.selected && neffscope.state.info.get(neffscope.state.selected).path.join('/') === `+jsString(strings.Join(want, "/")), "the byte's record "+strings.Join(want, "/"))
		if got := eval[int](p, `neffscope.state.selected.span.len`); int64(got) != n.Span.Length {
			t.Errorf("%s byte %d: the selection spans %d bytes, want %d", c.member, c.off, got, n.Span.Length)
		}
	}
	shotThemes(p, t, "ctrl-record")
}

// A .dbg member's records table is paged by the listing (rows by range from the core), and a
// row shows its record's bytes.
func TestDbgRecordsInTheListing(t *testing.T) {
	f := nativeMatmul(t)
	// The member's tree is built on demand (a dbg: stub): reach it by path.
	words, err := f.Node([]string{"members", "sg00/", "debug_info_asm_PE.dbg", "content", "words"})
	if err != nil || !strings.HasPrefix(words.Ref, "records:") {
		t.Fatalf("native records node: %v %+v", err, words)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview")
	p.goPath("members/sg00%2F/debug_info_asm_PE.dbg/content/words")
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelectorAll('#listing-rows .lrow').length === `+strconv.Itoa(len(words.Table.Rows)), "the records in the listing")
	if got := eval[string](p, `document.getElementById('listing').getAttribute('aria-label')`); !strings.Contains(got, "Records of sg00/debug_info_asm_PE.dbg") {
		t.Errorf("the listing is labelled %q", got)
	}
	head := eval[string](p, `document.getElementById('listing-head').textContent`)
	for _, c := range words.Table.Columns {
		if !strings.Contains(head, c) {
			t.Errorf("the listing's head %q lacks column %q", head, c)
		}
	}
	eval[chromedp.Void](p, `document.querySelector('#listing-rows .lrow[data-index="3"]').click()`)
	sp := words.Table.RowSpans[3]
	p.waitFor(`neffscope.hex.hl && neffscope.hex.hl.off === `+strconv.FormatInt(sp.Offset, 10)+` && neffscope.hex.hl.len === `+strconv.FormatInt(sp.Length, 10), "record 3's bytes highlighted")
	if eval[bool](p, `document.getElementById('listing').hidden`) {
		t.Errorf("picking a record hid the listing")
	}
}

// A cut file: the findings panel names the root cause first, with the findings it explains
// under it.
func TestFindingsPanelGroupedByCause(t *testing.T) {
	file := readReal(t)
	p := newPage(t, siteURL)
	p.openByDrop("cut.neff", file[:5000])
	p.waitFor(`document.querySelector('#findings-list .cause-group.root')`, "the root cause group")
	if got := eval[string](p, `document.querySelector('#findings-list .cause-group').dataset.cause`); got != inspect.CauseTruncated {
		t.Errorf("the first group is %q, want %s", got, inspect.CauseTruncated)
	}
	if !eval[bool](p, `document.querySelector('#findings-list .finding').closest('.cause-group.root') !== null`) {
		t.Errorf("the first finding is not under the root cause")
	}
	total := eval[int](p, `document.querySelectorAll('#findings-list .finding').length`)
	if n := eval[int](p, `neffscope.state.findings.length`); total != n {
		t.Errorf("the panel lists %d findings of %d", total, n)
	}
	if codes := eval[[]string](p, `Array.from(document.querySelectorAll('#findings-list .cause-group.root .finding')).map((f) => f.dataset.code)`); !slices.Contains(codes, string(doc.CodeNeffTruncated)) {
		t.Errorf("the root cause group's codes %q lack %s (the file is cut short)", codes, doc.CodeNeffTruncated)
	}
	shotThemes(p, t, "findings-cause")
}

// The overview's answers are one tab stop: arrows move between them, and Tab leaves for the
// next pane at once.
func TestOverviewIsOneTabStop(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`document.querySelector('#overview-view .ov-link')`, "the overview's links")
	// The overview redraws when the source lines land: focus what stays.
	p.waitFor(`!neffscope.lastOpen.sourcePending || neffscope.lastOpen.sourceMs > 0`, "the source lines")
	if n := eval[int](p, `document.querySelectorAll('#overview-view button[tabindex="0"], #overview-view summary[tabindex="0"]').length`); n != 1 {
		t.Errorf("%d tab stops in the overview, want 1", n)
	}
	// In one step: a redraw between finding the button and focusing it (the members' hashes
	// landing) left chromedp a node that was gone.
	first := eval[string](p, `(() => { const b = document.querySelector('#overview-view button[tabindex="0"]'); b.focus(); return document.activeElement.textContent; })()`)
	p.press(kb.ArrowDown)
	p.press(kb.ArrowDown)
	if got := eval[string](p, `document.activeElement.textContent`); got == first || !eval[bool](p, `document.getElementById('overview-view').contains(document.activeElement)`) {
		t.Errorf("arrows did not move inside the overview (%q)", got)
	}
	if n := eval[int](p, `document.querySelectorAll('#overview-view button[tabindex="0"], #overview-view summary[tabindex="0"]').length`); n != 1 {
		t.Errorf("after the arrows %d tab stops in the overview, want 1", n)
	}
	// Tab leaves the overview for the hex view (the next pane's stop) within a few presses.
	for k := 0; ; k++ {
		if k == 4 {
			t.Fatalf("4 Tabs from the overview reach %s, not the hex view", p.focused())
		}
		p.press(kb.Tab)
		if eval[bool](p, `!document.getElementById('overview-view').contains(document.activeElement)`) {
			break
		}
	}
	// From Open, the tree is a few presses away too.
	p.do(chromedp.Focus(chromedp.ID("file-input")))
	p.tabInto(`#tree`, 12)
}
