package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// lineWordsOf parses a source line node's "words" attr (member:a-b,c;member:…).
func lineWordsOf(attr string) []word {
	var ws []word
	for _, part := range strings.Split(attr, ";") {
		at := strings.LastIndex(part, ":")
		if at < 0 {
			continue
		}
		for _, r := range strings.Split(part[at+1:], ",") {
			a, b, isRange := strings.Cut(r, "-")
			lo, err := strconv.Atoi(a)
			if err != nil {
				continue
			}
			hi := lo
			if isRange {
				hi, _ = strconv.Atoi(b)
			}
			for i := lo; i <= hi; i++ {
				ws = append(ws, word{part[:at], i})
			}
		}
	}
	return ws
}

// uriPath is a node path as the page's URL hash writes it (each key encodeURIComponent'd).
func uriPath(keys []string) string {
	const keep = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()"
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('/')
		}
		for _, c := range []byte(k) {
			if strings.IndexByte(keep, c) >= 0 {
				b.WriteByte(c)
			} else {
				b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)|0x100, 16)[1:]))
			}
		}
	}
	return b.String()
}

// The page opens a NEFF without its source lines (deferSource) and maps them after.
// With the mapping held back (neffscope.holdSource), the open is complete but for them: the
// overview's kernel source answer pending, the findings saying so; an instruction selected
// then has no source column or field. When the mapping lands, the listing's rows show the
// instruction's source line, the instruction stays selected with its source field, the focus
// and the scroll stay, the overview's answer is the eager open's, and lastOpen.sourceMs is
// set. On matmul_small (in the repository) and attn_v6 (../shared).
func TestSourceMappedAfterOpen(t *testing.T) {
	for _, rel := range []string{"nkipy/matmul_small.neff", "nki-moe/attn_v6.neff"} {
		name := strings.TrimSuffix(filepath.Base(rel), ".neff")
		t.Run(name, func(t *testing.T) {
			path, ok := realfiles.Find(rel)
			if !ok {
				t.Skip(realfiles.Missing(rel))
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := inspect.Open(filepath.Base(path), bytes.NewReader(data), int64(len(data)), inspect.Options{})
			lines := f.Doc.Root.Find("model", "source", inspect.SourceLines)
			if lines == nil || len(lines.Children) == 0 {
				t.Fatalf("%s has no source lines natively", rel)
			}
			// The word with a source line that comes first in its stream (on the first screen).
			var w word
			w.index = -1
			for _, l := range lines.Children {
				for _, x := range lineWordsOf(l.Attrs[inspect.AttrWords]) {
					if w.index < 0 || x.index < w.index {
						w = x
					}
				}
			}
			wantCell := f.Program.Source.Source(w.member, w.index).Text()
			wantAnswer := "Source: " + f.Doc.Root.Find("overview", inspect.OverviewSource).Value
			if wantCell == "" {
				t.Fatalf("%s word %d has no source text natively", w.member, w.index)
			}

			p := newPage(t, siteURL)
			eval[chromedp.Void](p, `window.releaseSource = neffscope.holdSource()`)
			p.openWithPicker(path)
			p.waitFor(`!document.getElementById('overview-view').hidden && document.querySelector('#overview-view [data-section="source"]')`, "the overview")
			if !eval[bool](p, `!!document.querySelector('#overview-view [data-section="source"].pending') && !document.querySelector('#overview-view .ov-source')`) {
				t.Errorf("the overview's kernel source answer is not pending while the mapping is held: %q", eval[string](p, `document.querySelector('#overview-view [data-section="source"]').textContent`))
			}
			if !eval[bool](p, `neffscope.lastOpen.sourcePending === true && neffscope.lastOpen.sourceMs === 0 && neffscope.lastOpen.totalMs > 0`) {
				t.Errorf("lastOpen while the source is pending: %v", eval[map[string]any](p, `neffscope.lastOpen`))
			}
			if !eval[bool](p, `!!document.getElementById('findings-pending')`) {
				t.Errorf("the findings do not say that the source lines are still being mapped")
			}
			if shotsOn() {
				p.shot("/tmp/neffscope-source-pending-" + name + ".png")
			}

			// An instruction selected before the mapping lands.
			var member []string
			f.Doc.Root.Walk(func(p []string, n *doc.Node) bool {
				if n.Kind == doc.KindMember && n.Ref == doc.MemberRef(w.member) && member == nil {
					member = append([]string(nil), p...) // Walk reuses p
				}
				return member == nil
			})
			p.goPath(uriPath(member))
			p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow[data-index="0"] .col-name')`, "the listing of "+w.member)
			row := `#listing-rows .lrow[data-index="` + strconv.Itoa(w.index) + `"]`
			eval[chromedp.Void](p, `document.getElementById('listing-scroll').scrollTop = Math.max(0, `+strconv.Itoa(w.index)+` - 3) * 20`)
			p.waitFor(`document.querySelector(`+jsString(row+" .col-name")+`)`, "row "+strconv.Itoa(w.index))
			eval[chromedp.Void](p, `document.querySelector(`+jsString(row)+`).click()`)
			p.waitFor(`document.querySelector(`+jsString(row+".selected")+`) && document.querySelector('#detail .d-path') && document.querySelector('#detail .d-path').textContent.includes('#`+strconv.Itoa(w.index)+`')`, "instruction #"+strconv.Itoa(w.index)+" selected")
			if eval[bool](p, `!!document.querySelector('#listing-head .col-source') || !!document.querySelector('#detail .related-link[data-label="source"]')`) {
				t.Errorf("the listing or the detail shows source lines before they are mapped")
			}
			p.do(chromedp.Focus(chromedp.ID("listing")))
			sel := p.selPath()
			top := eval[float64](p, `document.getElementById('listing-scroll').scrollTop`)

			eval[chromedp.Void](p, `window.releaseSource()`)
			p.waitFor(`neffscope.lastOpen.sourceMs > 0`, "the source lines mapped (lastOpen.sourceMs)")
			p.waitFor(`document.querySelector('#listing-head .col-source') && document.querySelector(`+jsString(row+".selected .col-source")+`)`, "the source column on the selected row")
			if got := eval[string](p, `document.querySelector(`+jsString(row+" .col-source")+`).textContent`); got != wantCell {
				t.Errorf("the row's source cell says %q, want %q", got, wantCell)
			}
			p.waitFor(`document.querySelector('#detail .related-link[data-label="source"]')`, "the instruction's source field in the detail")
			p.waitFor(`document.getElementById('line-bar') && !document.getElementById('line-bar').hidden`, "the line bar")
			if got := p.selPath(); got != sel {
				t.Errorf("the selection moved from %q to %q", sel, got)
			}
			if got := eval[string](p, `document.activeElement ? document.activeElement.id : ''`); got != "listing" {
				t.Errorf("the focus moved to %q", got)
			}
			if got := eval[float64](p, `document.getElementById('listing-scroll').scrollTop`); got != top {
				t.Errorf("the listing scrolled from %v to %v", top, got)
			}
			if eval[bool](p, `!!document.getElementById('findings-pending')`) {
				t.Errorf("the findings still say the source lines are being mapped")
			}
			lo := eval[map[string]float64](p, `(({totalMs, sourceMs}) => ({totalMs, sourceMs}))(neffscope.lastOpen)`)
			t.Logf("%s: totalMs %.0f, sourceMs %.0f (the mapping held until the instruction was selected)", name, lo["totalMs"], lo["sourceMs"])
			if shotsOn() {
				p.shot("/tmp/neffscope-source-mapped-" + name + ".png")
			}

			// The overview's answer is the eager open's.
			p.goPath("overview")
			p.waitFor(`document.querySelector('#overview-view .ov-source')`, "the overview's source answer")
			if got := eval[string](p, `document.querySelector('#overview-view .ov-source').textContent`); got != wantAnswer {
				t.Errorf("the overview's source answer says %q, want %q", got, wantAnswer)
			}
			if eval[bool](p, `!!document.querySelector('#overview-view [data-section="source"].pending')`) {
				t.Errorf("the overview's source answer is still pending")
			}
		})
	}
}

// A link to a node under a .dbg member's decoded content, followed while the source lines are
// still being mapped (the content is bytes until then), lands on the node once they are.
func TestPathUnderDbgWaitsForTheMapping(t *testing.T) {
	data := readReal(t)
	f := inspect.Open("matmul_small.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{})
	var content []string
	f.Doc.Root.Walk(func(p []string, n *doc.Node) bool {
		if content != nil {
			return false
		}
		if n.Kind == doc.KindMember {
			for _, c := range n.Children {
				if k, _ := doc.ParseRef(c.Ref); k == doc.RefDbg {
					content = append(append([]string{}, p...), c.PathKey())
				}
			}
			return false
		}
		return true
	})
	if content == nil {
		t.Fatal("matmul_small has no .dbg content natively")
	}
	kids, _, err := f.Children(content, 0, 1)
	if err != nil || len(kids) == 0 {
		t.Fatalf("the .dbg content's first child: %v", err)
	}
	target := append(content, kids[0].PathKey())
	keys, _ := json.Marshal(target)

	p := newPage(t, siteURL)
	eval[chromedp.Void](p, `window.releaseSource = neffscope.holdSource()`)
	p.openWithPicker(realNEFF)
	p.waitFor(`neffscope.state && neffscope.state.doc.sha256`, "the fingerprint")
	eval[chromedp.Void](p, `location.hash = '#f=' + neffscope.state.doc.sha256.slice(0, 16) + '&n=' + `+string(keys)+`.map(encodeURIComponent).join('/')`)
	time.Sleep(300 * time.Millisecond)
	if got := p.selPath(); got == strings.Join(target, "/") {
		t.Fatalf("the node under the .dbg content was selected before the mapping")
	}
	eval[chromedp.Void](p, `window.releaseSource()`)
	p.waitFor(`(() => { const s = neffscope.state; const r = s.selected && s.info.get(s.selected); return r && r.path.join('/') === `+jsString(strings.Join(target, "/"))+`; })()`, "the node "+strings.Join(target, " › "))
}

// A NEFF whose debug info is small and held (matmul_small: 10 KB of .dbg) gets its source
// lines in the open itself (deferSourceOver): nothing pending, no second redraw, the
// overview's answer the eager open's at once.
func TestSmallDebugInfoMappedInTheOpen(t *testing.T) {
	data := readReal(t)
	f := inspect.Open("matmul_small.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{})
	want := "Source: " + f.Doc.Root.Find("overview", inspect.OverviewSource).Value
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.waitFor(`neffscope.lastOpen && neffscope.lastOpen.totalMs > 0 && neffscope.lastOpen.sourceMs > 0`, "the open")
	if !eval[bool](p, `neffscope.lastOpen.sourcePending === false && neffscope.lastOpen.sourceCoreMs === undefined`) {
		t.Errorf("lastOpen: %v; want the source lines with the open", eval[map[string]any](p, `neffscope.lastOpen`))
	}
	p.waitFor(`document.querySelector('#overview-view .ov-source')`, "the overview's source answer")
	if got := eval[string](p, `document.querySelector('#overview-view .ov-source').textContent`); got != want {
		t.Errorf("the overview's source answer says %q, want %q", got, want)
	}
	if eval[bool](p, `!!document.getElementById('findings-pending') || !!document.querySelector('#overview-view [data-section="source"].pending')`) {
		t.Error("the page says the source lines are still being mapped")
	}
}

// A byte picked by offset while the source lines are being mapped keeps its highlight when the
// mapping lands: the page draws the same selection again (its source fields) without undoing
// the one-byte highlight and the hex cursor the pick put there.
func TestPickedByteKeptWhenSourceLands(t *testing.T) {
	p := newPage(t, siteURL)
	eval[chromedp.Void](p, `window.releaseSource = neffscope.holdSource()`)
	p.openWithPicker(realNEFF)
	p.waitFor(`neffscope.lastOpen && neffscope.lastOpen.totalMs > 0 && neffscope.lastOpen.sourcePending === true`, "the open, its source lines held back")
	p.expand(`#tree [data-path="members/sg00/"]`)
	p.clickRow(`#tree [data-ref="member:sg00/def.json"]`)
	p.waitFor(`neffscope.hex.source === 'sg00/def.json'`, "def.json in the hex view")
	p.do(slash.action)
	p.waitFor(`document.activeElement && document.activeElement.id === 'search'`, "/ to focus the search box")
	p.do(chromedp.KeyEvent("@2000"))
	p.waitFor(`neffscope.search.q === '@2000' && document.querySelectorAll('#search-results .sr[data-kind="offset"]').length === 2`, "the offset results of @2000")
	p.press(kb.ArrowDown)
	p.press(kb.Enter)
	const picked = `neffscope.hex.hl && neffscope.hex.hl.src === 'sg00/def.json' && neffscope.hex.hl.off === 2000 && neffscope.hex.hl.len === 1 && neffscope.hex.cursor === 2000`
	p.waitFor(picked, "byte 2,000 of def.json highlighted")
	sel := p.selPath()
	eval[chromedp.Void](p, `window.releaseSource()`)
	p.waitFor(`neffscope.lastOpen.sourceMs > 0`, "the source lines mapped")
	if !eval[bool](p, picked) {
		t.Errorf("after the mapping landed the hex view highlights %s, cursor %d; want byte 2000 of sg00/def.json", eval[string](p, `JSON.stringify(neffscope.hex.hl)`), eval[int](p, `neffscope.hex.cursor`))
	}
	if got := p.selPath(); got != sel {
		t.Errorf("after the mapping landed the selection is %q, want %q", got, sel)
	}
}
