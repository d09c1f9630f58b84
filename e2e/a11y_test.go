package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// Keyboard control of the tables, the instruction listing and the hex view;
// ARIA grid semantics and visible focus; search by byte offset.

// press sends one key (with modifiers) to whatever has the focus.
func (p *page) press(key string, mods ...chromedp.Modifier) {
	p.t.Helper()
	if len(mods) > 0 {
		p.do(chromedp.KeyEvent(key, chromedp.KeyModifiers(mods...)))
		return
	}
	p.do(chromedp.KeyEvent(key))
}

// focused describes document.activeElement.
func (p *page) focused() string {
	return eval[string](p, `(() => { const a = document.activeElement; if (!a) return ''; return a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + '[' + (a.getAttribute('role') || '') + ']'; })()`)
}

// gridPos is the focused grid cell's (aria-rowindex, 1-based column), or (0, 0).
func (p *page) gridPos() (row, col int) {
	v := eval[[]int](p, `(() => { const a = document.activeElement; const tr = a && a.closest('tr[role="row"]'); return tr && a.closest('[role="grid"]') ? [Number(tr.getAttribute('aria-rowindex')), a.cellIndex + 1] : [0, 0]; })()`)
	return v[0], v[1]
}

// outline is the computed outline of the focused element ("solid 2px rgb(…)").
func (p *page) outline() (style, width, color string) {
	v := eval[[]string](p, `(() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, s.outlineWidth, s.outlineColor]; })()`)
	return v[0], v[1], v[2]
}

// treeSelectByKeys moves the tree's selection with ArrowDown (at most limit presses) until the
// selected path is want.
func (p *page) treeSelectByKeys(want string, limit int) {
	p.t.Helper()
	for range limit {
		if p.selectedPath() == want {
			return
		}
		p.press(kb.ArrowDown)
	}
	if got := p.selectedPath(); got != want {
		p.t.Fatalf("ArrowDown never reached %s (at %s)", want, got)
	}
}

// tabInto presses Tab until the focus is in the element matching sel (at most limit presses).
func (p *page) tabInto(sel string, limit int) {
	p.t.Helper()
	for range limit {
		if eval[bool](p, `!!(document.activeElement && document.activeElement.closest(`+jsString(sel)+`))`) {
			return
		}
		p.press(kb.Tab)
	}
	p.t.Fatalf("Tab never reached %s (the focus is on %s)", sel, p.focused())
}

// shallowestWithSpan is the path of the shallowest native node whose span is exactly s.
func shallowestWithSpan(root *doc.Node, s doc.Span) string {
	best, bestLen := "", -1
	root.Walk(func(path []string, n *doc.Node) bool {
		if n.Span != nil && *n.Span == s && (bestLen < 0 || len(path) < bestLen) {
			best, bestLen = strings.Join(path, "/"), len(path)
		}
		return true
	})
	return best
}

// deepestOwner is the path of the native node that owns byte off of source src: the smallest
// span that holds it, the deeper node on a tie.
func deepestOwner(root *doc.Node, src string, off int64) (string, *doc.Span) {
	var best *doc.Span
	bestPath := ""
	bestDepth := -1
	root.Walk(func(path []string, n *doc.Node) bool {
		s := n.Span
		if s == nil || s.Source != src || off < s.Offset || off >= s.Offset+s.Length {
			return true
		}
		if best == nil || s.Length < best.Length || (s.Length == best.Length && len(path) > bestDepth) {
			best, bestPath, bestDepth = s, strings.Join(path, "/"), len(path)
		}
		return true
	})
	return bestPath, best
}

type hexState struct {
	Source string `json:"source"`
	Cursor int64  `json:"cursor"`
	HL     *struct {
		Off int64  `json:"off"`
		Len int64  `json:"len"`
		Src string `json:"src"`
	} `json:"hl"`
}

func (p *page) hex() hexState {
	return eval[hexState](p, `neffscope.hex`)
}

// waitCursor waits (the rows are rebuilt in the next frame after a scroll) until the hex
// cursor is at want and shown (cursorShown).
func (p *page) waitCursor(want int64, after string) {
	p.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c := p.hex().Cursor
		ok, why := p.cursorShown()
		if c == want && ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("after %s the cursor is at %d (want %d): %s", after, c, want, why)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cursorShown says whether the hex cursor's cell is rendered, marked, fully inside the hex
// view's box, and named by the grid's aria-activedescendant.
func (p *page) cursorShown() (bool, string) {
	v := eval[[]any](p, `(() => {
		const sc = document.getElementById('hex');
		const c = sc.querySelector('.hb.cur');
		if (!c) return [false, 'no .hb.cur cell'];
		const a = c.getBoundingClientRect(), b = sc.getBoundingClientRect();
		const inside = a.top >= b.top - 0.5 && a.bottom <= b.top + sc.clientHeight + 0.5 && a.left >= b.left - 0.5 && a.right <= b.left + sc.clientWidth + 0.5;
		const off = Number(c.closest('.hex-row').dataset.off) + Number(c.dataset.i);
		const named = sc.getAttribute('aria-activedescendant') === c.id && c.id === 'hex-cur-' + off;
		return [inside && named && off === neffscope.hex.cursor, 'cell at ' + off + ' inside ' + inside + ' named ' + named + ' (' + a.top + '..' + a.bottom + ' in ' + b.top + '..' + (b.top + sc.clientHeight) + ')'];
	})()`)
	return v[0].(bool), v[1].(string)
}

// TestKeyboardWalksATableToItsBytes: with the keyboard only, go down the tree to the model's
// inputs, Tab into its table (an ARIA grid), move the active cell with the arrows, Home/End and
// Ctrl+Home/End, and press Enter on a row: the row's JSON value in neff.json is selected and its
// bytes highlighted, and the focus stays in the detail pane.
func TestKeyboardWalksATableToItsBytes(t *testing.T) {
	file := readReal(t)
	native := inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{})
	inputs := native.Doc.Root.Find("model", "inputs")
	if inputs == nil || inputs.Table == nil || len(inputs.Table.Rows) < 2 || len(inputs.Table.RowSpans) < 2 {
		t.Fatalf("the native model/inputs table is not as expected: %+v", inputs)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.do(chromedp.Focus(chromedp.CSS(`#tree .ti[aria-selected="true"]`)))
	p.press(kb.Home)
	p.treeSelectByKeys("model", 10)
	p.press(kb.ArrowRight) // open
	p.press(kb.ArrowRight) // first child
	p.treeSelectByKeys("model/inputs", 10)
	p.waitFor(`document.querySelector('#detail table[role="grid"]')`, "the inputs grid")

	p.tabInto(`#detail [role="grid"]`, 12)
	grid := `document.querySelector('#detail [role="grid"]')`
	if n := eval[string](p, grid+`.getAttribute('aria-rowcount')`); n != fmt.Sprint(len(inputs.Table.Rows)+1) {
		t.Errorf("aria-rowcount %s, want %d (the rows and the header)", n, len(inputs.Table.Rows)+1)
	}
	if l := eval[string](p, `document.getElementById(`+grid+`.getAttribute('aria-labelledby')).textContent`); !strings.Contains(l, "Table") {
		t.Errorf("the grid is labelled %q", l)
	}
	if n := eval[int](p, `document.querySelectorAll('#detail [role="grid"] [tabindex="0"]').length`); n != 1 {
		t.Errorf("%d cells of the grid are in the tab order, want 1 (a roving tabindex)", n)
	}
	cols := len(inputs.Table.Columns)
	last := len(inputs.Table.Rows) + 1
	steps := []struct {
		key      string
		mods     []chromedp.Modifier
		row, col int
	}{
		{"", nil, 2, 1}, // Tab lands on the first data cell
		{kb.ArrowRight, nil, 2, 2},
		{kb.ArrowDown, nil, 3, 2},
		{kb.End, nil, 3, cols},
		{kb.Home, nil, 3, 1},
		{kb.Home, []chromedp.Modifier{chromedp.ModifierCtrl}, 1, 1}, // the header row
		{kb.ArrowLeft, nil, 1, 1},                                   // stops at the edge
		{kb.End, []chromedp.Modifier{chromedp.ModifierCtrl}, last, cols},
		{kb.PageUp, nil, 2, cols}, // the first row in view
		{kb.PageUp, nil, 1, cols}, // then a page up: the header
		{kb.PageDown, nil, last, cols},
		{kb.ArrowUp, nil, last - 1, cols},
		{kb.ArrowDown, nil, last, cols},
	}
	for _, s := range steps {
		if s.key != "" {
			p.press(s.key, s.mods...)
		}
		if r, c := p.gridPos(); r != s.row || c != s.col {
			t.Fatalf("after %q%v the active cell is row %d column %d, want %d, %d (focus on %s)", s.key, s.mods, r, c, s.row, s.col, p.focused())
		}
	}
	if style, width, _ := p.outline(); style == "none" || width == "0px" {
		t.Errorf("the focused grid cell has no visible outline: %s %s", style, width)
	}
	// Enter on the second input's row selects what its bytes belong to.
	rs := inputs.Table.RowSpans[1]
	wantPath := shallowestWithSpan(native.Doc.Root, rs)
	if wantPath == "" {
		t.Fatalf("no native node has the span %+v of the second input", rs)
	}
	p.press(kb.Enter)
	p.waitFor(`document.getElementById('content-title').textContent === `+jsString(rs.Source), "Enter to open "+rs.Source)
	p.waitFor(`(document.querySelector('#json-tree .ti[aria-selected="true"]') || {dataset: {}}).dataset.path === `+jsString(wantPath), "the JSON tree to select "+wantPath)
	h := p.hex()
	if h.HL == nil || h.HL.Src != rs.Source || h.HL.Off != rs.Offset || h.HL.Len != rs.Length {
		t.Errorf("the hex view highlights %+v, want the row's bytes %+v", h.HL, rs)
	}
	marked := eval[int](p, fmt.Sprintf(`Array.from(document.querySelectorAll('#hex-rows .hex-row')).flatMap(r => Array.from(r.querySelectorAll('.hb[data-i]')).map(c => [Number(r.dataset.off) + Number(c.dataset.i), c])).filter(([o, c]) => o >= %d && o < %d && /\b(hl|hl-soft|f0|f1)\b/.test(c.className)).length`, rs.Offset, rs.Offset+rs.Length))
	if marked < 16 {
		t.Errorf("only %d of the row's %d bytes are marked in the hex view", marked, rs.Length)
	}
	if got := p.selectedPath(); got != "members/neff.json" && !strings.HasSuffix(got, "neff.json") {
		t.Errorf("the main tree selects %q, want the member neff.json", got)
	}
	if !eval[bool](p, `document.getElementById('detail').contains(document.activeElement)`) {
		t.Errorf("after Enter the focus left the detail pane for %s", p.focused())
	}
	p.shot("/tmp/neffscope-a11y-table.png")
}

// TestListingKeyboardOnAMillionInstructions: the listing is an ARIA grid of 1,000,001 rows;
// the keys move the selection, keep it in view, and End selects the last instruction, whose
// 64 bytes the hex view highlights, with no more than a screenful of rows in the DOM.
func TestListingKeyboardOnAMillionInstructions(t *testing.T) {
	const total = 1_000_000
	path := millionInstructionNEFF(t)
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/Activation.bin"]`)
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow[data-index="0"] .col-name')`, "the listing's first row")
	p.tabInto(`#listing`, 20) // from the tree: the detail pane's stops, then the listing
	if f := p.focused(); f != "div#listing[grid]" {
		t.Fatalf("the focus is on %s, want the listing grid", f)
	}
	if n := eval[string](p, `document.getElementById('listing').getAttribute('aria-rowcount')`); n != fmt.Sprint(total+1) {
		t.Errorf("aria-rowcount %s, want %d", n, total+1)
	}
	if n := eval[int](p, `document.querySelectorAll('#listing-head [role="columnheader"]').length`); n < 4 {
		t.Errorf("%d column headers in the listing", n)
	}
	selected := func() int {
		return eval[int](p, `(() => { const r = document.querySelector('#listing-rows .lrow.selected'); return r ? Number(r.dataset.index) : -1; })()`)
	}
	// inView: the selected row is the grid's active descendant, has its row index, and lies
	// fully inside the scroller.
	inView := func(i int) string {
		return eval[string](p, fmt.Sprintf(`(() => {
			const g = document.getElementById('listing'), sc = document.getElementById('listing-scroll');
			const r = document.querySelector('#listing-rows .lrow[data-index="%d"]');
			if (!r) return 'row not rendered';
			if (!r.classList.contains('selected') || r.getAttribute('aria-selected') !== 'true') return 'row not selected';
			if (g.getAttribute('aria-activedescendant') !== r.id) return 'active descendant ' + g.getAttribute('aria-activedescendant') + ', row id ' + r.id;
			if (r.getAttribute('aria-rowindex') !== String(%d + 2)) return 'aria-rowindex ' + r.getAttribute('aria-rowindex');
			if (!r.querySelector('[role="gridcell"]')) return 'no gridcells';
			const a = r.getBoundingClientRect(), b = sc.getBoundingClientRect();
			if (a.top < b.top - 0.5 || a.bottom > b.top + sc.clientHeight + 0.5) return 'row at ' + a.top + '..' + a.bottom + ', view ' + b.top + '..' + (b.top + sc.clientHeight);
			return '';
		})()`, i, i))
	}
	page := eval[int](p, `Math.max(1, Math.floor(document.getElementById('listing-scroll').clientHeight / 20) - 1)`)
	steps := []struct {
		key  string
		want int
	}{
		{kb.ArrowDown, 0},
		{kb.ArrowDown, 1},
		{kb.PageDown, 1 + page},
		{kb.PageDown, 1 + 2*page},
		{kb.ArrowUp, 2 * page},
		{kb.End, total - 1},
		{kb.PageUp, total - 1 - page},
		{kb.ArrowDown, total - page},
		{kb.End, total - 1},
	}
	for _, s := range steps {
		p.press(s.key)
		p.waitFor(fmt.Sprintf(`(() => { const r = document.querySelector('#listing-rows .lrow.selected'); return r && Number(r.dataset.index) === %d; })()`, s.want), fmt.Sprintf("%s to select instruction %d (selected: %d)", s.key, s.want, selected()))
		if why := inView(s.want); why != "" {
			t.Fatalf("after %s instruction %d is not shown as the grid's selection: %s", s.key, s.want, why)
		}
	}
	wantSel := fmt.Sprintf("selected %s..%s (64 bytes)", commas((total-1)*64), commas(total*64))
	p.waitFor(fmt.Sprintf(`document.getElementById('hex-head').textContent.includes(%q)`, wantSel), "the last instruction's bytes highlighted")
	if n := eval[int](p, `document.querySelectorAll('#hex .hb.hl').length`); n != 64 {
		t.Errorf("%d bytes highlighted for the last instruction, want 64", n)
	}
	p.waitFor(fmt.Sprintf(`document.querySelector('#detail .d-path').textContent.includes('#%d')`, total-1), "the detail pane to show the last instruction")
	if n := eval[int](p, `document.querySelectorAll('#listing-rows .lrow').length`); n > 200 {
		t.Errorf("%d listing rows in the DOM: not virtualised", n)
	}
	if f := p.focused(); f != "div#listing[grid]" {
		t.Errorf("the focus moved to %s", f)
	}
	p.shot("/tmp/neffscope-a11y-listing.png")

	// Home goes back to the first instruction; the time of one key to its highlight is logged.
	t0 := time.Now()
	p.press(kb.Home)
	p.waitFor(`document.getElementById('hex-head').textContent.includes('selected 0..64 (64 bytes)')`, "Home to select instruction 0")
	t.Logf("Home on a 1,000,000-instruction listing: %v to the highlighted bytes", time.Since(t0).Round(time.Millisecond))
	if why := inView(0); why != "" {
		t.Errorf("after Home: %s", why)
	}
}

// TestHexKeyboardCursor: the hex view takes the focus, the arrows, Home/End, PageUp/PageDown
// and Ctrl+Home/End move a marked byte cursor that the inspector and the grid's active
// descendant describe, and Enter selects the field that owns the byte.
func TestHexKeyboardCursor(t *testing.T) {
	file := readReal(t)
	native := inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{})
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.clickRow(`#tree .ti[data-path="header"]`) // from the header (the overview's links are tab stops too)
	p.do(chromedp.Focus(chromedp.CSS(`#tree .ti[aria-selected="true"]`)))
	p.tabInto(`#hex`, 30)
	if f := p.focused(); f != "div#hex[grid]" {
		t.Fatalf("focus on %s, want the hex grid", f)
	}
	if c := p.hex().Cursor; c != 0 {
		t.Errorf("on focus the cursor is at %d, want 0 (the start of the selected header)", c)
	}
	size := int64(len(file))
	view := eval[int64](p, `Math.max(1, Math.floor(document.getElementById('hex').clientHeight / 18))`)
	ctrl := []chromedp.Modifier{chromedp.ModifierCtrl}
	steps := []struct {
		key  string
		mods []chromedp.Modifier
		want int64
	}{
		{kb.ArrowRight, nil, 1},
		{kb.ArrowRight, nil, 2},
		{kb.ArrowDown, nil, 18},
		{kb.End, nil, 31},
		{kb.Home, nil, 16},
		{kb.ArrowLeft, nil, 15},
		{kb.ArrowUp, nil, 0},
		{kb.ArrowUp, nil, 0}, // stops at the start
		{kb.PageDown, nil, 16 * view},
		{kb.PageUp, nil, 0},
		{kb.End, ctrl, size - 1},
		{kb.ArrowRight, nil, size - 1}, // stops at the end
		{kb.PageUp, nil, size - 1 - 16*view},
		{kb.Home, ctrl, 0},
		{kb.ArrowDown, nil, 16},
		{kb.ArrowRight, nil, 17},
		{kb.ArrowRight, nil, 18},
		{kb.ArrowRight, nil, 19},
	}
	for _, s := range steps {
		p.press(s.key, s.mods...)
		p.waitCursor(s.want, fmt.Sprintf("%q%v", s.key, s.mods))
	}
	wantOwner, wantSpan := deepestOwner(native.Doc.Root, "", 19)
	if wantOwner != "header/data_size" {
		t.Fatalf("natively byte 19 belongs to %q", wantOwner)
	}
	label := eval[string](p, `document.querySelector('#hex .hb.cur').getAttribute('aria-label')`)
	if !strings.Contains(label, "offset 0x13 (19)") || !strings.Contains(label, "byte 0x") || !strings.Contains(label, "header › data_size") {
		t.Errorf("the cursor cell is named %q", label)
	}
	if insp := eval[string](p, `document.getElementById('hex-inspect').textContent`); !strings.Contains(insp, "@0x13 (19)") || !strings.Contains(insp, "header › data_size") {
		t.Errorf("the inspector shows %q for the cursor", insp)
	}
	// The hex view's ring is an overlay on its box (its rows would cover its own outline).
	if ring := eval[string](p, `(() => { const s = getComputedStyle(document.getElementById('hex-wrap'), '::after'); return s.content !== 'none' ? s.borderTopStyle + ' ' + s.borderTopWidth : 'none'; })()`); ring != "solid 2px" {
		t.Errorf("the focused hex view has the focus ring %q, want solid 2px", ring)
	}
	if s := eval[string](p, `getComputedStyle(document.querySelector('#hex .hb.cur')).outlineStyle`); s == "none" {
		t.Errorf("the cursor byte has no outline")
	}
	p.press(kb.Enter)
	if got := p.selectedPath(); got != wantOwner {
		t.Fatalf("Enter on byte 19 selected %q, want %q", got, wantOwner)
	}
	if h := p.hex(); h.HL == nil || h.HL.Off != wantSpan.Offset || h.HL.Len != wantSpan.Length || h.Cursor != 19 {
		t.Errorf("after Enter the hex view is %+v, want data_size's bytes %d+%d highlighted and the cursor kept at 19", h, wantSpan.Offset, wantSpan.Length)
	}
	if f := p.focused(); f != "div#hex[grid]" {
		t.Errorf("after Enter the focus is on %s, want the hex view still", f)
	}
	p.shot("/tmp/neffscope-a11y-hex.png")
}

// patternReader yields byte i = low byte of (i>>4)*31 + i, so each 16-byte row differs.
type patternReader struct{ off, size int64 }

func (r *patternReader) Read(b []byte) (int, error) {
	if r.off >= r.size {
		return 0, io.EOF
	}
	n := int64(len(b))
	if n > r.size-r.off {
		n = r.size - r.off
	}
	for i := range n {
		o := r.off + i
		b[i] = byte((o>>4)*31 + o)
	}
	r.off += n
	return int(n), nil
}

// TestHexCursorInAHugeMember: in a 200 MiB member (13 M hex rows: one pixel of scroll is 1.6
// rows) the cursor stays in view to the last byte and back, and an offset search in the
// member lands the cursor exactly on its byte.
func TestHexCursorInAHugeMember(t *testing.T) {
	const size = 200 << 20
	path := filepath.Join(t.TempDir(), "huge.neff")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	err = neffbuild.Write(f, []neffbuild.Member{
		{Path: "info.json", Data: []byte(`{"name":"huge.neff"}`)},
		{Path: "weights/w0.bin", Reader: &patternReader{size: size}, Size: size},
	}, neffbuild.Options{Name: "huge.neff", Plain: true})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	p.expand(`#tree [data-path="members/weights/"]`)
	p.clickRow(`#tree [data-ref="member:weights/w0.bin"]`)
	p.waitFor(`neffscope.hex.source === 'weights/w0.bin'`, "the member in the hex view")
	if h := eval[float64](p, `document.getElementById('hex-spacer').getBoundingClientRect().height`); h > 8e6 {
		t.Fatalf("the hex spacer is %.0f px: the scroll is not scaled", h)
	}
	p.do(chromedp.Focus(chromedp.ID("hex")))
	ctrl := []chromedp.Modifier{chromedp.ModifierCtrl}
	view := eval[int64](p, `Math.max(1, Math.floor(document.getElementById('hex').clientHeight / 18))`)
	steps := []struct {
		key  string
		mods []chromedp.Modifier
		want int64
	}{
		{kb.End, ctrl, size - 1},
		{kb.ArrowUp, nil, size - 17},
		{kb.ArrowUp, nil, size - 33},
		{kb.PageUp, nil, size - 33 - 16*view},
		{kb.PageUp, nil, size - 33 - 32*view},
		{kb.PageDown, nil, size - 33 - 16*view},
		{kb.Home, ctrl, 0},
		{kb.PageDown, nil, 16 * view},
		{kb.PageDown, nil, 32 * view},
		{kb.ArrowDown, nil, 32*view + 16},
	}
	for _, s := range steps {
		p.press(s.key, s.mods...)
		p.waitCursor(s.want, fmt.Sprintf("%q%v", s.key, s.mods))
	}
	// The bytes around the cursor are the member's: the last row, once read.
	p.press(kb.End, ctrl...)
	lastRow := int64(size - 16)
	want := make([]byte, 16)
	(&patternReader{off: lastRow, size: size}).Read(want)
	if got := p.hexRowBytes(int(lastRow), 16); !bytes.Equal(got, want) {
		t.Errorf("the last row shows % x, want % x", got, want)
	}

	// An offset search in the shown member: the cursor lands on that byte, in view.
	const target = 0x8000007
	p.searchAndPick(slash, fmt.Sprintf("0x%x", target), "offset", "weights/w0.bin")
	p.waitFor(fmt.Sprintf(`neffscope.hex.hl && neffscope.hex.hl.off === %d && neffscope.hex.hl.len === 1`, target), "the offset search to highlight its byte")
	p.waitCursor(target, "the offset search")
	if n := eval[int](p, fmt.Sprintf(`document.querySelectorAll('#hex-rows .hex-row[data-off="%d"] .hb.hl').length`, target-target%16)); n != 1 {
		t.Errorf("%d bytes highlighted in the target's row, want 1", n)
	}
	if f := p.focused(); f != "div#hex[grid]" {
		t.Errorf("after an offset pick the focus is on %s, want the hex view", f)
	}
}

// TestSearchByOffset: "0x13" names a byte of the file and picking it selects the field that
// owns it with exactly that byte highlighted; "@100" with a member shown also names the
// member's byte; a hex offset past the end says so.
func TestSearchByOffset(t *testing.T) {
	file := readReal(t)
	native := inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{})
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)

	wantOwner, _ := deepestOwner(native.Doc.Root, "", 0x13)
	where, _ := p.searchAndPick(slash, "0x13", "offset", "matmul_small.neff")
	if where != strings.ReplaceAll(wantOwner, "/", " › ")+" = "+native.Doc.Root.Find(strings.Split(wantOwner, "/")...).Value {
		t.Errorf("the offset result says %q, want the owner %s", where, wantOwner)
	}
	p.waitFor(`neffscope.hex.hl && neffscope.hex.hl.off === 19 && neffscope.hex.hl.len === 1 && neffscope.hex.hl.src === ''`, "the byte 0x13 highlighted")
	if got := p.selectedPath(); got != wantOwner {
		t.Errorf("picking byte 0x13 selected %q, want %q", got, wantOwner)
	}
	if n := eval[int](p, `document.querySelectorAll('#hex-rows .hex-row[data-off="16"] .hb.hl[data-i="3"]').length`); n != 1 {
		t.Errorf("the hex cell of byte 19 is not highlighted")
	}
	if n := eval[int](p, `document.querySelectorAll('#hex-rows .hb.hl').length`); n != 1 {
		t.Errorf("%d bytes highlighted, want exactly the one", n)
	}

	// With sg00/def.json in the hex view, "@100" names byte 100 of the file and of the member.
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/def.json"]`)
	p.waitFor(`neffscope.hex.source === 'sg00/def.json'`, "def.json in the hex view")
	memberOwner, memberSpan := deepestOwner(native.Doc.Root, "sg00/def.json", 100)
	if memberOwner == "" {
		t.Fatalf("natively nothing owns byte 100 of sg00/def.json")
	}
	p.do(slash.action)
	p.waitFor(`document.activeElement && document.activeElement.id === 'search'`, "/ to focus the search box")
	p.do(chromedp.KeyEvent("@100"))
	p.waitFor(`neffscope.search.done && neffscope.search.q === '@100'`, "the search for @100")
	offs := eval[[]string](p, `Array.from(document.querySelectorAll('#search-results .sr[data-kind="offset"] .sr-what')).map(e => e.textContent)`)
	if len(offs) != 2 || !strings.HasSuffix(offs[0], "of matmul_small.neff") || !strings.HasSuffix(offs[1], "of sg00/def.json") || !strings.HasPrefix(offs[1], "byte 0x64 (100)") {
		t.Fatalf("offset results for @100: %q, want byte 0x64 (100) of the file and of sg00/def.json", offs)
	}
	p.press(kb.ArrowDown)
	p.press(kb.Enter)
	p.waitFor(`neffscope.hex.hl && neffscope.hex.hl.src === 'sg00/def.json' && neffscope.hex.hl.off === 100 && neffscope.hex.hl.len === 1`, "byte 100 of def.json highlighted")
	if got := p.jsonSelected(); got != memberOwner {
		t.Errorf("picking byte 100 of sg00/def.json selected %q in the JSON tree, want %q (span %+v)", got, memberOwner, memberSpan)
	}
	if c := p.hex().Cursor; c != 100 {
		t.Errorf("the hex cursor is at %d, want 100", c)
	}

	// Past the end: a hex offset says so; nothing is offered to pick for it.
	p.do(slash.action)
	p.waitFor(`document.activeElement && document.activeElement.id === 'search'`, "/ to focus the search box")
	p.do(chromedp.KeyEvent("0xffffff"))
	p.waitFor(`neffscope.search.done && neffscope.search.q === '0xffffff'`, "the search for 0xffffff")
	notes := eval[[]string](p, `neffscope.search.notes`)
	want := fmt.Sprintf("beyond the end of the file (size %s bytes)", commas(len(file)))
	if len(notes) == 0 || !strings.Contains(notes[0], want) {
		t.Errorf("notes for 0xffffff: %q, want one saying %q", notes, want)
	}
	if !eval[bool](p, `Array.from(document.querySelectorAll('#search-results .sr-note')).some(n => n.textContent.includes(`+jsString(want)+`))`) {
		t.Errorf("the result list does not show that 0xffffff is beyond the end")
	}
	if n := eval[int](p, `document.querySelectorAll('#search-results .sr[data-kind="offset"]').length`); n != 0 {
		t.Errorf("%d offset results for a byte past the end", n)
	}
	p.shot("/tmp/neffscope-a11y-search.png")
}

// axRoles lists the roles Chromium's accessibility tree gives the page's nodes, with counts.
func (p *page) axRoles() map[string]int {
	p.t.Helper()
	res, err := chromedp.Call(p.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		p.t.Fatalf("reading the accessibility tree: %v", err)
	}
	roles := map[string]int{}
	for _, n := range res.Nodes {
		if n.Ignored || n.Role == nil {
			continue
		}
		roles[strings.Trim(string(n.Role.Value), `"`)]++
	}
	return roles
}

// TestARIARolesAndFocusRings: the tree, the tables, the listing and the hex view expose the
// tree and grid roles in Chromium's accessibility tree, and the focused cell has an outline in
// the light and in the dark theme (screenshots of both are left in /tmp).
func TestARIARolesAndFocusRings(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.expand(`#tree [data-path="model"]`)
	p.clickRow(`#tree [data-path="model/members"]`)
	p.waitFor(`document.querySelector('#detail table[role="grid"] td[role="gridcell"]')`, "the members grid")
	for _, sel := range []string{`#tree [role="treeitem"]`, `#detail [role="grid"]`, `#detail [role="row"]`, `#detail [role="gridcell"]`, `#detail [role="columnheader"]`, `#hex[role="grid"]`, `#hex [role="row"]`, `#hex [role="gridcell"]`} {
		if n := eval[int](p, `document.querySelectorAll(`+jsString(sel)+`).length`); n == 0 {
			t.Errorf("nothing matches %s", sel)
		}
	}
	roles := p.axRoles()
	for _, r := range []string{"tree", "treeitem", "grid", "row", "gridcell", "columnheader", "rowheader"} {
		if roles[r] == 0 {
			t.Errorf("Chromium's accessibility tree has no %s (roles: %v)", r, roles)
		}
	}

	p.tabInto(`#detail [role="grid"]`, 12)
	p.press(kb.ArrowDown)
	p.press(kb.ArrowDown)
	scheme := func(s string) {
		if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}}}); err != nil {
			t.Fatal(err)
		}
	}
	var colors []string
	for _, theme := range []string{"light", "dark"} {
		scheme(theme)
		style, width, color := p.outline()
		if style == "none" || width == "0px" {
			t.Errorf("%s: the focused cell (%s) has outline %s %s", theme, p.focused(), style, width)
		}
		colors = append(colors, color)
		p.shot("/tmp/neffscope-a11y-focus-" + theme + ".png")
	}
	if colors[0] == colors[1] {
		t.Errorf("the focus ring has the same colour %s in light and dark", colors[0])
	}
	// The toggle's dark theme (on a light OS) gives the same ring as the OS's dark.
	scheme("light")
	eval[bool](p, `(document.documentElement.dataset.theme = 'dark', true)`)
	if _, _, c := p.outline(); c != colors[1] {
		t.Errorf("the toggle's dark theme rings the focus in %s, the OS's dark in %s", c, colors[1])
	}
	// The hex cursor in the dark theme, for a person to look at.
	p.do(chromedp.Focus(chromedp.ID("hex")))
	p.press(kb.ArrowRight)
	p.press(kb.ArrowDown)
	p.waitFor(`document.querySelector('#hex .hb.cur')`, "the hex cursor")
	p.shot("/tmp/neffscope-a11y-hex-dark.png")
	if s := eval[string](p, `getComputedStyle(document.querySelector('#hex .hb.cur')).outlineStyle`); s == "none" {
		t.Errorf("dark theme: the hex cursor has no outline")
	}
}

// activeCellInView says why the focused grid cell is not fully in view (its table's scroll
// box, below a sticky header, and the detail pane), or "".
func (p *page) activeCellInView() string {
	return eval[string](p, `(() => {
		const c = document.activeElement;
		if (!c || !c.closest('[role="grid"]')) return 'no grid cell has the focus';
		const a = c.getBoundingClientRect();
		const wrap = c.closest('.table-wrap'), pane = document.getElementById('detail').getBoundingClientRect();
		let top = pane.top, bottom = pane.bottom;
		if (wrap) {
			const w = wrap.getBoundingClientRect();
			const head = c.tagName === 'TD' && wrap.querySelector('thead') ? wrap.querySelector('thead').getBoundingClientRect().height : 0;
			top = Math.max(top, w.top + head);
			bottom = Math.min(bottom, w.top + wrap.clientHeight);
		}
		return a.top >= top - 1 && a.bottom <= bottom + 1 ? '' : 'cell at ' + a.top + '..' + a.bottom + ', room ' + top + '..' + bottom;
	})()`)
}

// TestKeyboardOpensAnActivationFunction: in a set's function table Enter opens the function
// (its plot), the focus moves to its octave table, and PageDown/PageUp/Ctrl+End/Ctrl+Home in
// that table, taller than its box, keep the active cell in view and clear of the sticky header.
func TestKeyboardOpensAnActivationFunction(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.clickRow(`.ti[data-kind="pwp-set"]`)
	p.waitFor(`document.querySelector('#detail tr[data-function="exp_400p"]')`, "the set's function table")
	p.do(chromedp.Focus(chromedp.CSS(`#tree .ti[aria-selected="true"]`)))
	p.tabInto(`#detail [role="grid"]`, 12)
	idx := eval[int](p, `document.querySelector('#detail tr[data-function="exp_400p"]').rowIndex`)
	p.press(kb.Home, chromedp.ModifierCtrl)
	for range idx {
		p.press(kb.ArrowDown)
	}
	if r, _ := p.gridPos(); r != idx+1 {
		t.Fatalf("the active row is %d, want exp_400p's %d", r, idx+1)
	}
	p.press(kb.Enter)
	p.waitFor(`neffscope.plot.ref.endsWith('#exp_400p') && neffscope.plot.points === 4096`, "Enter to open exp_400p's plot")
	if got := p.selectedPath(); !strings.HasSuffix(got, "/exp_400p") {
		t.Errorf("the tree selects %q, want the function exp_400p", got)
	}
	p.waitFor(`document.activeElement && document.activeElement.closest('#detail [role="grid"]')`, "the focus in the function's octave table")
	rows := eval[int](p, `Number(document.activeElement.closest('[role="grid"]').getAttribute('aria-rowcount'))`)
	if rows < 30 {
		t.Fatalf("the octave table has %d rows: too few to page through", rows)
	}
	if !eval[bool](p, `(() => { const w = document.activeElement.closest('.table-wrap'); return w.scrollHeight > w.clientHeight; })()`) {
		t.Fatalf("the octave table fits its box: nothing to page")
	}
	prev := 0
	for _, k := range []struct {
		key  string
		mods []chromedp.Modifier
	}{{kb.PageDown, nil}, {kb.PageDown, nil}, {kb.PageUp, nil}, {kb.End, []chromedp.Modifier{chromedp.ModifierCtrl}}, {kb.PageUp, nil}, {kb.Home, []chromedp.Modifier{chromedp.ModifierCtrl}}, {kb.ArrowDown, nil}, {kb.PageDown, nil}} {
		p.press(k.key, k.mods...)
		r, _ := p.gridPos()
		if why := p.activeCellInView(); why != "" {
			t.Fatalf("after %q%v (row %d) the active cell is hidden: %s", k.key, k.mods, r, why)
		}
		if k.key == kb.PageDown && r <= prev {
			t.Errorf("PageDown went from row %d to %d", prev, r)
		}
		if k.key == kb.End && r != rows {
			t.Errorf("Ctrl+End went to row %d of %d", r, rows)
		}
		if k.key == kb.Home && r != 1 {
			t.Errorf("Ctrl+Home went to row %d", r)
		}
		prev = r
	}
	// The findings list is one tab stop that the arrows walk.
	eval[bool](p, `(document.getElementById('findings-toggle').getAttribute('aria-expanded') === 'true' || document.getElementById('findings-toggle').click(), true)`)
	n := eval[int](p, `document.querySelectorAll('#findings-list .finding').length`)
	if n > 1 {
		if got := eval[int](p, `document.querySelectorAll('#findings-list .finding[tabindex="0"]').length`); got != 1 {
			t.Errorf("%d findings are tab stops, want 1", got)
		}
		p.do(chromedp.Focus(chromedp.CSS(`#findings-list .finding[tabindex="0"]`)))
		p.press(kb.ArrowDown)
		if i := eval[int](p, `Array.from(document.querySelectorAll('#findings-list .finding')).indexOf(document.activeElement)`); i != 1 {
			t.Errorf("ArrowDown in the findings moved to item %d, want 1", i)
		}
		p.press(kb.End)
		if i := eval[int](p, `Array.from(document.querySelectorAll('#findings-list .finding')).indexOf(document.activeElement)`); i != n-1 {
			t.Errorf("End in the findings moved to item %d, want %d", i, n-1)
		}
	}
}
