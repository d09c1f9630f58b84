package e2e

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/repack"
)

// The overview's hottest lines show file:line (a long file name loses its middle, never its
// line number), and a jump from the overview lands on a workbench where its target reads
// without maximising a pane: the listing wide and tall, its columns as wide as what they hold,
// the source pane no wider than its line numbers while no .py is attached, the findings the
// page opened by itself folded.

// longLine is matmul_small with its kernel file renamed, the path's length kept (the debug
// info's strings are length-prefixed): the base name is long enough to be cut.
func longLine(t *testing.T) ([]byte, string) {
	t.Helper()
	const old = "/home/ubuntu/workplace/spike-async/nkipy/spike/tests/test_spike_async.py"
	name := "/h/v6b_1_coalesce_down_dma_"
	name += strings.Repeat("x", len(old)-len(name)-len(".py")) + ".py"
	src := readReal(t)
	n := 0
	b := repack.NEFF(src, func(path string, data []byte) ([]byte, bool) {
		n += bytes.Count(data, []byte(old))
		return bytes.ReplaceAll(data, []byte(old), []byte(name)), true
	})
	if n == 0 {
		t.Fatalf("matmul_small does not name %s", old)
	}
	return b, name[strings.LastIndexByte(name, '/')+1:]
}

func TestHotLinesShowTheirLineNumbers(t *testing.T) {
	b, base := longLine(t)
	f := inspect.Open("long.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{})
	hot := f.Doc.Root.Child("overview").Child(inspect.OverviewHotLines)
	if hot == nil || hot.Table == nil || len(hot.Table.Rows) == 0 || !strings.HasPrefix(hot.Table.Rows[0][0], base+":") {
		t.Fatalf("natively the hot lines are %+v", hot)
	}
	for _, size := range [][2]int64{{1440, 900}, {800, 600}} {
		p := newPageWith(t, siteURL, closedDrawers, "ready")
		p.viewport(size[0], size[1])
		p.openByDrop("long.neff", b)
		p.waitDashboard()
		// The lines rank by estimated time once the estimate is in (a file this small is
		// estimated by itself): the native lines, each showing its line number.
		p.waitFor(`(document.querySelector('#overview-view .ov-card[data-section="hot_lines"]') || {dataset: {}}).dataset.basis === 'estimated'`, "the hottest lines by estimated time")
		native := map[string]bool{}
		for _, r := range hot.Table.Rows {
			native[r[0]] = true
		}
		n := eval[int](p, `document.querySelectorAll('#overview-view .ov-hot tbody tr').length`)
		if n == 0 {
			t.Errorf("%d×%d: no hot line shown", size[0], size[1])
		}
		for i := range n {
			cell := fmt.Sprintf(`document.querySelectorAll('#overview-view .ov-hot tbody tr')[%d].querySelector('.ov-hot-line')`, i)
			name := eval[string](p, cell+`.querySelector('[data-line]').dataset.line`)
			line := name[strings.LastIndexByte(name, ':'):]
			shown := eval[string](p, cell+`.textContent`)
			// What shows is the text, whole: the cell does not cut it.
			if !native[name] || !strings.HasSuffix(shown, line) || eval[bool](p, cell+`.scrollWidth > `+cell+`.clientWidth + 1`) {
				t.Errorf("%d×%d: hot line %s shows %q (cut: %v; a native line: %v), want its %s visible", size[0], size[1], name, shown, eval[bool](p, cell+`.scrollWidth > `+cell+`.clientWidth + 1`), native[name], line)
			}
		}
		shotThemes(p, t, fmt.Sprintf("hotlines-%d", size[0]))
	}
}

// listingView is what a person sees of the listing after a jump.
type listingView struct {
	Width, Window, Rows, OperandsShown, SourceSide float64
	Cut                                            []string
}

func (p *page) listingView() listingView {
	p.t.Helper()
	return eval[listingView](p, `(() => {
		const sc = document.getElementById('listing-scroll').getBoundingClientRect();
		const side = document.getElementById('source-side');
		const op = document.querySelector('#listing-rows .lrow .col-operands:not(:empty)');
		const cut = [];
		// The narrow columns show what they hold whole.
		for (const c of document.querySelectorAll('#listing-rows .lrow :is(.col-index, .col-offset, .col-opcode, .col-name)')) if (c.scrollWidth > c.clientWidth + 1) cut.push(c.className + ' ' + c.textContent);
		return {
			Width: sc.width, Window: window.innerWidth, Rows: Math.floor(sc.height / 20),
			OperandsShown: op ? Math.min(sc.right, side && !side.hidden ? side.getBoundingClientRect().left : Infinity) - op.getBoundingClientRect().left : 0,
			SourceSide: side && !side.hidden ? side.getBoundingClientRect().width : 0,
			Cut: cut,
		};
	})()`)
}

func TestJumpLandsReadable(t *testing.T) {
	for _, c := range []struct {
		w, h            int64
		rows            float64 // at least
		width, operands float64 // the listing's share of the window; operand characters shown
	}{{1440, 900, 20, 0.5, 40}, {800, 600, 11, 0.6, 20}} {
		name := fmt.Sprintf("%d×%d", c.w, c.h)
		t.Run(name, func(t *testing.T) {
			p := newPageWith(t, siteURL, closedDrawers, "ready")
			p.viewport(c.w, c.h)
			p.openWithPicker(realNEFF)
			p.waitDashboard()
			p.click(`#overview-view .ov-eng[data-core="sg00"][data-engine="PE"]`)
			p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow[data-index="2"] .col-operands') && !document.getElementById('source-side').hidden`, "the PE listing beside its source")
			v := p.listingView()
			if v.Rows < c.rows {
				t.Errorf("%s: the listing shows %.0f rows, want at least %.0f", name, v.Rows, c.rows)
			}
			if v.Width < c.width*v.Window {
				t.Errorf("%s: the listing is %.0f px of a %.0f px window", name, v.Width, v.Window)
			}
			if chars := v.OperandsShown / 7.2; chars < c.operands {
				t.Errorf("%s: %.0f characters of the operands show beside the source pane, want %.0f", name, chars, c.operands)
			}
			if v.SourceSide > 20*7.2 {
				t.Errorf("%s: the source pane is %.0f px wide with no .py attached", name, v.SourceSide)
			}
			if len(v.Cut) > 0 {
				t.Errorf("%s: cells cut: %q", name, v.Cut)
			}
			// The columns are as wide as what they hold: no name column of 22 characters for
			// names of 17.
			if w, most := eval[float64](p, `document.querySelector('#listing-head .col-name').getBoundingClientRect().width`), eval[float64](p, `Math.max(...Array.from(document.querySelectorAll('#listing-rows .col-name')).map((c) => c.textContent.length))`); w > (most+3)*7.3 {
				t.Errorf("%s: the name column is %.0f px for names of %.0f characters", name, w, most)
			}
			shotThemes(p, t, "landing-"+name)
		})
	}
}

// A file cut short opens with its findings open (they are errors); a jump from the overview
// folds them again, so the listing has the height.
func TestJumpFoldsTheFindingsThePageOpened(t *testing.T) {
	file := readReal(t)
	p := newPageWith(t, siteURL, closedDrawers, "ready")
	p.openByDrop("cut.neff", file[:len(file)*2/3])
	p.waitDashboard()
	p.waitFor(`!document.getElementById('findings-list').hidden`, "the findings open by themselves")
	p.click(`#overview-view .ov-eng[data-core="sg00"][data-engine="PE"]`)
	p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow')`, "the PE listing")
	if !eval[bool](p, `document.getElementById('findings-list').hidden`) {
		t.Errorf("after the jump the findings the page opened stay open")
	}
	if rows := p.listingView().Rows; rows < 20 {
		t.Errorf("the listing shows %.0f rows", rows)
	}
	// Opened by the user, they stay open.
	p.click(`#findings-toggle`)
	p.click(`#summary [data-field="file-verdict"]`) // back to the overview
	p.waitDashboard()
	p.click(`#overview-view .ov-eng[data-core="sg00"][data-engine="PE"]`)
	p.waitFor(`!document.getElementById('listing').hidden`, "the PE listing again")
	if eval[bool](p, `document.getElementById('findings-list').hidden`) {
		t.Errorf("the findings the user opened were folded")
	}
}
