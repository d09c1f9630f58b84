package e2e

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// Hex: a click in the instruction already selected selects its field too; the head says the
// clicked byte's offset; a drag selects a range (in the URL as b=0x…-0x…); ? lists every key.

// smallestField is the path (below the instruction) and span of the smallest field of ins
// that holds byte at, and whether one smaller than the word does.
func smallestField(ins *doc.Node, member string, at int64) (string, bool) {
	best, bestLen := "", int64(64)
	var walk func(n *doc.Node, path []string)
	walk = func(n *doc.Node, path []string) {
		if s := n.Span; s != nil && s.Source == member && at >= s.Offset && at < s.Offset+s.Length && s.Length <= bestLen && len(path) > 0 {
			best, bestLen = strings.Join(path, "/"), s.Length
		}
		for _, c := range n.Children {
			walk(c, append(append([]string{}, path...), c.PathKey()))
		}
	}
	walk(ins, nil)
	return best, bestLen < 64
}

func TestHexClickInTheSelectedInstruction(t *testing.T) {
	file := readReal(t)
	f := inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{})
	const member, index = "sg00/PE.bin", 1
	ins, err := f.Instruction("stream:"+member, index)
	if err != nil {
		t.Fatal(err)
	}
	// Two bytes of the word in two different fields.
	var offs []int
	var want []string
	for k := 0; k < 64 && len(offs) < 2; k++ {
		if path, ok := smallestField(ins, member, int64(index*64+k)); ok && (len(want) == 0 || want[0] != path) {
			offs, want = append(offs, index*64+k), append(want, path)
		}
	}
	if len(offs) < 2 {
		t.Fatalf("natively %s #%d has fewer than two fields smaller than the word", member, index)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:` + member + `"]`)
	p.waitFor(`document.querySelector('#listing-rows .lrow[data-index="1"]')`, "the listing's row 1")
	p.click(`#listing-rows .lrow[data-index="1"]`)
	p.waitFor(`neffscope.hex.hl && neffscope.hex.hl.off === 64 && neffscope.hex.hl.len === 64`, "instruction #1 selected")
	for i, off := range offs {
		p.hexClick(off, false)
		p.waitFor(`(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return !!r && r.path.join('/').endsWith('#1/`+want[i]+`'); })()`, fmt.Sprintf("a click on byte %d to select the field %s of the instruction already selected", off, want[i]))
		// The head says which byte was clicked, beside the field it selected.
		if at := eval[string](p, `(document.getElementById('hex-at') || {}).textContent || ''`); !strings.Contains(at, "0x"+strconv.FormatInt(int64(off), 16)) || !strings.Contains(at, strconv.Itoa(off)) {
			t.Errorf("after a click on byte %d the head says %q", off, at)
		}
	}
	shotThemes(p, t, "hex-field-again")

	// A drag from the instruction's first byte to its 20th selects them as a range.
	from, to := index*64, index*64+19
	p.hexDrag(from, to)
	p.waitFor(`location.hash.endsWith('&b=0x`+strconv.FormatInt(int64(from), 16)+`-0x`+strconv.FormatInt(int64(to), 16)+`')`, "the dragged range in the URL")
	if hx := p.hex(); hx.HL == nil || hx.HL.Off != int64(from) || hx.HL.Len != int64(to-from+1) {
		t.Errorf("the drag highlights %+v, want %d bytes from %d", hx.HL, to-from+1, from)
	}
	if head := eval[string](p, `document.getElementById('hex-head').textContent`); !strings.Contains(head, "20 bytes") {
		t.Errorf("after the drag the head says %q", head)
	}
	shotThemes(p, t, "hex-drag")

	// ? lists every key, the hex view's and the schedule's among them.
	eval[bool](p, `document.activeElement && document.activeElement.blur(), true`)
	p.press("?")
	p.waitFor(`document.getElementById('shortcut-help') && !document.getElementById('shortcut-help').hidden`, "the shortcut help")
	keys := eval[[]string](p, `Array.from(document.querySelectorAll('#shortcut-help kbd')).map((k) => k.textContent)`)
	for _, k := range []string{"W", "A", "S", "D", "Alt+S", "Shift+click", "drag", "Ctrl+Home", "Delete", "t", "b"} {
		if !contains(keys, k) {
			t.Errorf("the help lacks %s: %q", k, keys)
		}
	}
	shotThemes(p, t, "help")
}

// hexDrag presses the mouse on byte from's cell, moves over to byte to's and lets go.
func (p *page) hexDrag(from, to int) {
	p.t.Helper()
	at := func(off int) (float64, float64) {
		p.waitFor(`document.querySelector(`+jsString(hexCell(off))+`)`, "hex byte "+strconv.Itoa(off))
		b := p.box(hexCell(off))
		return b[0] + b[2]/2, b[1] + b[3]/2
	}
	x0, y0 := at(from)
	x1, y1 := at(to)
	p.drag(x0, y0, x1-x0, y1-y0)
}
