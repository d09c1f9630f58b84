package e2e

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
)

// Hex at the field level. A byte click selects the smallest field that holds
// the byte (a header field; an instruction's field, not the whole word); shift-click (and
// shift-arrow) selects a range, in the URL as b=0x…-0x…; the data inspector reads the bytes
// at the cursor as every width, both endians.

// hexCell is the selector of byte off's cell in the hex view.
func hexCell(off int) string {
	return fmt.Sprintf(`#hex-rows .hex-row[data-off="%d"] .hb[data-i="%d"]`, off-off%16, off%16)
}

// hexClick clicks byte off's cell (with shift: extends a range).
func (p *page) hexClick(off int, shift bool) {
	p.t.Helper()
	cell := jsString(hexCell(off))
	p.waitFor(`document.querySelector(`+cell+`) && document.querySelector(`+cell+`).textContent !== '··'`, "hex byte "+strconv.Itoa(off))
	eval[chromedp.Void](p, `document.querySelector(`+cell+`).dispatchEvent(new MouseEvent('click', {bubbles: true, shiftKey: `+strconv.FormatBool(shift)+`}))`)
}

// selectedNodePath is the page's selected node's path (keys joined by '/').
func (p *page) selectedNodePath() string {
	return eval[string](p, `(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return r ? r.path.join('/') : ''; })()`)
}

// inspected reads the data inspector's cell for type name, 'le' or 'be'.
func (p *page) inspected(name, order string) string {
	return eval[string](p, `(document.querySelector('#hex-dt [data-type="`+name+`"] .`+order+`') || {}).textContent || ''`)
}

func TestHexFieldRangeInspector(t *testing.T) {
	file := readReal(t)
	h := neff.ParseHeader(file[:neff.HeaderSize])
	const dataSizeAt = 0x10 // natively checked below: the header's data_size field
	wantOwner, wantSpan := deepestOwner(inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{}).Doc.Root, "", dataSizeAt+3)
	if wantOwner != "header/data_size" || wantSpan.Offset != dataSizeAt {
		t.Fatalf("natively byte 0x13 is in %q at %d", wantOwner, wantSpan.Offset)
	}

	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	// On the overview, the bytes drawer: the inspector follows the keyboard's cursor.
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview")
	p.click(`.drawer-toggle[data-drawer="hex"]`)
	p.waitFor(`document.getElementById('hex-wrap').getBoundingClientRect().height > 100`, "the bytes drawer to open")
	eval[chromedp.Void](p, `document.getElementById('hex').focus()`)
	p.press(kb.ArrowRight)
	p.press(kb.ArrowRight)
	p.waitFor(`(document.querySelector('#hex-dt .hex-dt-cap') || {}).textContent.startsWith('@0x2 ')`, "the inspector to follow the cursor to 0x2")
	// (The panel shows – until the cursor's bytes arrive, then draws again.)
	p.waitFor(`(document.querySelector('#hex-dt [data-type="u8"] .le') || {}).textContent === '`+strconv.Itoa(int(file[2]))+`'`, "the inspector's u8 at 0x2 to read the file's byte "+strconv.Itoa(int(file[2])))
	shotThemes(p, t, "hexfield-dash")
	p.clickRow(`#tree .ti[data-path="header"]`)

	// A byte inside data_size selects data_size, not the header.
	p.hexClick(dataSizeAt+3, false)
	p.waitFor(`location.hash.endsWith('&b=0x13')`, "the hash to name byte 0x13")
	if got := p.selectedNodePath(); got != "header/data_size" {
		t.Errorf("a click on byte 0x13 selected %q, want header/data_size", got)
	}
	if got := p.selectedPath(); got != "header/data_size" {
		t.Errorf("the tree marks %q, want header/data_size", got)
	}

	// The inspector reads at the cursor: on data_size's first byte its u32 and u64 are the field.
	p.hexClick(dataSizeAt, false)
	p.waitFor(`(document.querySelector('#hex-dt .hex-dt-cap') || {}).textContent.startsWith('@0x10 ')`, "the inspector at 0x10")
	if got, want := p.inspected("u32", "le"), strconv.FormatUint(uint64(uint32(h.DataSize)), 10); got != want {
		t.Errorf("inspector u32 LE %q, want data_size's %s", got, want)
	}
	if got, want := p.inspected("u64", "le"), strconv.FormatUint(h.DataSize, 10); got != want {
		t.Errorf("inspector u64 LE %q, want data_size %s", got, want)
	}
	// Big endian, and a float, from the same bytes.
	be := uint32(file[dataSizeAt])<<24 | uint32(file[dataSizeAt+1])<<16 | uint32(file[dataSizeAt+2])<<8 | uint32(file[dataSizeAt+3])
	if got := p.inspected("u32", "be"); got != strconv.FormatUint(uint64(be), 10) {
		t.Errorf("inspector u32 BE %q, want %d", got, be)
	}
	for _, name := range []string{"u8", "i8", "u16", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"} {
		if p.inspected(name, "le") == "" {
			t.Errorf("the inspector has no %s", name)
		}
	}

	// Shift-click: the range from the last byte picked, in the head and the URL.
	p.hexClick(dataSizeAt+7, true)
	p.waitFor(`location.hash.endsWith('&b=0x10-0x17')`, "the hash to name the range 0x10-0x17")
	if hx := p.hex(); hx.HL == nil || hx.HL.Off != dataSizeAt || hx.HL.Len != 8 {
		t.Errorf("the range highlighted is %+v, want 0x10, 8 bytes", hx.HL)
	}
	if head := eval[string](p, `document.getElementById('hex-head').textContent`); !strings.Contains(head, "range 0x10–0x17") || !strings.Contains(head, "8 bytes") {
		t.Errorf("the head says %q", head)
	}
	if n := eval[int](p, `document.querySelectorAll('#hex .hb.hl').length`); n != 8 {
		t.Errorf("the range highlights %d cells, want 8", n)
	}
	if got := p.selectedNodePath(); got != "header/data_size" {
		t.Errorf("the range changed the selection to %q", got)
	}
	rangeHash := eval[string](p, `location.hash`)

	// Shift+→ from the cursor extends it by a byte.
	eval[chromedp.Void](p, `document.getElementById('hex').focus()`)
	p.press(kb.ArrowRight, chromedp.ModifierShift)
	p.waitFor(`location.hash.endsWith('&b=0x10-0x18')`, "shift+arrow to extend the range")
	shotThemes(p, t, "hexfield")
	// The bytes pane maximised: the inspector beside the bytes.
	p.click(`.pane-max[data-pane="content"]`)
	p.waitFor(`document.body.dataset.max === 'content'`, "the bytes pane maximised")
	if w := eval[float64](p, `document.getElementById('hex-dt').getBoundingClientRect().left - document.getElementById('hex').getBoundingClientRect().right`); w < -1 {
		t.Errorf("maximised, the inspector overlaps the bytes by %.0f px", -w)
	}
	shotThemes(p, t, "hexfield-max")

	// The range's URL, opened again: the same range highlighted.
	q := newPage(t, siteURL+rangeHash)
	q.openWithPicker(realNEFF)
	q.waitFor(`neffscope.hex.hl && neffscope.hex.hl.off === 0x10 && neffscope.hex.hl.len === 8`, "the linked range highlighted")
	if got := q.selectedNodePath(); got != "header/data_size" {
		t.Errorf("the linked range's page selects %q", got)
	}
}

// A byte of an instruction word selects the smallest field of that instruction that holds it
// (the listing selects the instruction on the way), and its URL names the instruction and the
// byte.
func TestHexInstructionField(t *testing.T) {
	file := readReal(t)
	f := inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{})
	const member, index = "sg00/PE.bin", 1
	ins, err := f.Instruction("stream:"+member, index)
	if err != nil {
		t.Fatal(err)
	}
	// The first byte of the word a field smaller than the word holds, and that field's path.
	off, want := -1, ""
	for k := 0; k < 64 && off < 0; k++ {
		at := int64(index*64 + k)
		bestLen := int64(64)
		var walk func(n *doc.Node, path []string)
		walk = func(n *doc.Node, path []string) {
			if s := n.Span; s != nil && s.Source == member && at >= s.Offset && at < s.Offset+s.Length && s.Length < bestLen {
				bestLen, want, off = s.Length, strings.Join(path, "/"), int(at)
			}
			for _, c := range n.Children {
				walk(c, append(append([]string{}, path...), c.PathKey()))
			}
		}
		walk(ins, nil)
	}
	if off < 0 {
		t.Fatalf("natively no field of %s #%d is smaller than the word", member, index)
	}

	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:` + member + `"]`)
	p.waitFor(`!document.getElementById('listing').hidden && neffscope.hex.source === '`+member+`'`, "the listing and the member's bytes")
	p.hexClick(off, false)
	defer shotThemes(p, t, "hexfield-instruction")
	p.waitFor(`(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return !!r && r.path.includes('#1') && r.path[r.path.length - 1] !== '#1'; })()`, "a field of instruction #1 selected")
	got := p.selectedNodePath()
	if i := strings.Index(got, "#1/"); i < 0 || got[i+3:] != want {
		t.Errorf("a click on byte %d of %s selected %q, want the field %q of #1", off, member, got, want)
	}
	if sel := eval[string](p, `(document.querySelector('#listing-rows .lrow.selected') || {dataset: {}}).dataset.index || ''`); sel != "1" {
		t.Errorf("the listing selects row %q, want 1", sel)
	}
	p.waitFor(`location.hash.endsWith('/%231&b=0x`+strconv.FormatInt(int64(off), 16)+`')`, "the hash to name instruction #1 and the byte")
	h := eval[string](p, `location.hash`)

	// Reloaded: the instruction, then its field.
	q := newPage(t, siteURL+h)
	q.openWithPicker(realNEFF)
	q.waitFor(`(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return !!r && r.path.join('/').endsWith('#1/`+want+`'); })()`, "the linked byte's field selected after the reload")
}
