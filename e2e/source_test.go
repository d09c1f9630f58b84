package e2e

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// selPath is the path of the page's selected node (the instruction adopted under its stream
// included), keys joined by '/'.
func (p *page) selPath() string {
	return eval[string](p, `(() => { const s = neffscope.state; const r = s && s.selected && s.info.get(s.selected); return r ? r.path.join('/') : ''; })()`)
}

type word struct {
	member string
	index  int
}

// nativeLineWords opens matmul_small natively and returns its one kernel line's key and words
// in stream order (the line node's "words" attr).
func nativeLineWords(t *testing.T) (string, []word) {
	t.Helper()
	file := readReal(t)
	f := inspect.Open("matmul_small.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{})
	lines := f.Doc.Root.Find("model", "source", inspect.SourceLines)
	if lines == nil || len(lines.Children) != 1 {
		t.Fatalf("matmul_small should have one kernel line, has %v", lines)
	}
	l := lines.Children[0]
	var ws []word
	for _, part := range strings.Split(l.Attrs[inspect.AttrWords], ";") {
		m, ranges, _ := strings.Cut(part, ":")
		for _, r := range strings.Split(ranges, ",") {
			a, b, isRange := strings.Cut(r, "-")
			lo, _ := strconv.Atoi(a)
			hi := lo
			if isRange {
				hi, _ = strconv.Atoi(b)
			}
			for i := lo; i <= hi; i++ {
				ws = append(ws, word{m, i})
			}
		}
	}
	return l.Key, ws
}

// The source view: open → the overview's "Source:" answer → the source view → a
// line → its first instruction selected in the listing, the line bar stepping to the next one
// → back to the line, its row marked.
func TestSourceViewJourney(t *testing.T) {
	key, words := nativeLineWords(t)
	if len(words) != 20 {
		t.Fatalf("matmul_small's kernel line has %d words natively, want 20", len(words))
	}
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`document.querySelector('#overview-view .ov-source')`, "the overview's source answer")
	if got := eval[string](p, `document.querySelector('#overview-view .ov-source').textContent`); got != "Source: 1 kernel line in 1 file" {
		t.Errorf("the source answer says %q", got)
	}
	eval[chromedp.Void](p, `document.querySelector('#overview-view .ov-source').click()`)
	p.waitFor(`document.getElementById('source-view') && !document.getElementById('source-view').hidden`, "the source view")
	if got := p.selPath(); got != "model/source" {
		t.Errorf("the source answer selected %q", got)
	}
	if !eval[bool](p, `document.getElementById('overview-view').hidden`) {
		t.Errorf("the overview stays on show over the source view")
	}
	row := `#source-view .src-row[data-key=` + jsString(key) + `]`
	cells := eval[[]string](p, `Array.from(document.querySelectorAll(`+jsString(row+" td")+`)).map(td => td.textContent)`)
	// line, kernel, PE, Activation, Pool, DVE, SP, all
	if len(cells) != 8 || cells[0] != "58" || cells[2] != "10" || cells[3] != "2" || cells[4] != "8" || cells[7] != "20" {
		t.Errorf("the line's row reads %q, want line 58 with PE 10, Activation 2, Pool 8, 20 in all", cells)
	}
	if !strings.Contains(eval[string](p, `document.getElementById('source-view').textContent`), "not the source text") {
		t.Errorf("the view does not say that the NEFF carries line numbers, not the text")
	}
	shotThemes(p, t, "source")

	// The line → its first instruction in the listing.
	eval[chromedp.Void](p, `document.querySelector(`+jsString(row+" .src-line")+`).click()`)
	first := words[0]
	p.waitFor(`!document.getElementById('listing').hidden && document.getElementById('content-title').textContent === `+jsString(first.member)+` && document.querySelector('#listing-rows .lrow.selected[data-index="`+strconv.Itoa(first.index)+`"]')`, "the line's first instruction selected in the listing")
	p.waitFor(`document.getElementById('line-bar') && !document.getElementById('line-bar').hidden && document.getElementById('line-bar').textContent.includes('1 of 20')`, "the line bar at 1 of 20")
	if n := eval[int](p, `document.querySelectorAll('#listing-rows .lrow.in-line').length`); n < 2 {
		t.Errorf("%d rows of the listing are marked as the line's", n)
	}
	// The instruction's detail leads back to its line.
	p.waitFor(`document.querySelector('#detail .related-link[data-label="source"]')`, "the instruction's source link")
	shotThemes(p, t, "source-listing")

	// n steps to the line's next instruction.
	p.do(chromedp.Focus(chromedp.ID("listing")))
	p.press("n")
	next := words[1]
	p.waitFor(`document.getElementById('content-title').textContent === `+jsString(next.member)+` && document.querySelector('#listing-rows .lrow.selected[data-index="`+strconv.Itoa(next.index)+`"]') && document.getElementById('line-bar').textContent.includes('2 of 20')`, "the line's second instruction")
	// Back walks to the line (each instruction picked is a place of its own): the
	// first instruction, then the source view again, its row marked.
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`document.getElementById('content-title').textContent === `+jsString(first.member)+` && document.querySelector('#listing-rows .lrow.selected[data-index="`+strconv.Itoa(first.index)+`"]')`, "Back to the line's first instruction")
	eval[chromedp.Void](p, `history.back()`)
	p.waitFor(`!document.getElementById('source-view').hidden && document.querySelector(`+jsString(row+".current")+`)`, "back to the source view with the line marked")
	if got := p.selPath(); got != "model/source/lines/"+key {
		t.Errorf("back selected %q, want the line", got)
	}
	if !eval[bool](p, `document.getElementById('listing').hidden`) {
		t.Errorf("the listing stays on show over the source view")
	}
	// The line's detail lists its 20 instructions, each a link.
	if n := eval[int](p, `document.querySelectorAll('#detail .ins-link').length`); n != 20 {
		t.Errorf("the line's detail lists %d instructions, want 20", n)
	}

	// From the detail's button, then step by step to the last one, across streams.
	eval[chromedp.Void](p, `document.querySelector('#detail .line-go').click()`)
	p.waitFor(`document.getElementById('line-bar') && !document.getElementById('line-bar').hidden && document.getElementById('line-bar').textContent.includes('1 of 20')`, "the line bar at 1 of 20 again")
	for k := 2; k <= len(words); k++ {
		eval[chromedp.Void](p, `document.querySelector('#line-bar .line-step[data-dir="1"]').click()`)
		p.waitFor(`document.getElementById('line-bar').textContent.includes('`+strconv.Itoa(k)+` of 20')`, "step "+strconv.Itoa(k))
	}
	last := words[len(words)-1]
	p.waitFor(`document.getElementById('content-title').textContent === `+jsString(last.member)+` && document.querySelector('#listing-rows .lrow.selected[data-index="`+strconv.Itoa(last.index)+`"]')`, "the line's last instruction, "+last.member)
	if !eval[bool](p, `document.querySelector('#line-bar .line-step[data-dir="1"]').disabled`) {
		t.Errorf("next is not disabled on the line's last instruction")
	}
}

// Alt+S opens the source view with the focus on a line; a NEFF with no debug info says so
// once.
func TestSourceViewByKeyboardAndWithoutDebugInfo(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`!document.getElementById('overview-view').hidden`, "the overview")
	p.press("s", chromedp.ModifierAlt)
	p.waitFor(`document.activeElement && document.activeElement.classList.contains('src-line')`, "the focus on a source line after Alt+S")
	p.press("\r")
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow.selected')`, "Enter on the line opens its instruction")

	b := neffbuild.Bytes(neffbuild.Sample(), neffbuild.Options{Name: "nodebug.neff"})
	q := newPage(t, siteURL)
	q.openByDrop("nodebug.neff", b)
	q.waitFor(`!document.getElementById('overview-view').hidden`, "the overview of the sample")
	if got := eval[string](q, `(document.querySelector('#overview-view .ov-source') || {}).textContent || ''`); got != "Source: no debug info" {
		t.Errorf("the sample's source answer says %q", got)
	}
	q.press("s", chromedp.ModifierAlt)
	q.waitFor(`document.getElementById('source-view') && !document.getElementById('source-view').hidden`, "the source view of the sample")
	text := eval[string](q, `document.getElementById('source-view').textContent`)
	if n := strings.Count(text, "no debug info"); n != 1 {
		t.Errorf("the source view says %d times that there is no debug info: %q", n, text)
	}
}

// shotThemes saves the page in the light and the dark theme for a person to look at
// (NEFFSCOPE_SHOTS=1).
func shotThemes(p *page, t *testing.T, name string) {
	if !shotsOn() {
		return
	}
	for _, theme := range []string{"light", "dark"} {
		eval[chromedp.Void](p, `document.documentElement.dataset.theme = '`+theme+`'`)
		p.shot("/tmp/neffscope-" + name + "-" + theme + ".png")
	}
	eval[chromedp.Void](p, `delete document.documentElement.dataset.theme`)
}

func shotsOn() bool { return os.Getenv("NEFFSCOPE_SHOTS") != "" }
