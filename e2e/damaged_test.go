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

// A file cut short: no zero stands for what was not read (the inputs and outputs are "not
// known", the counts say they are of what was read), the hash chip says it cannot match, and
// the findings read as one problem: the root cause's finding, with the findings that follow
// from it folded under it and counted.
func TestCutFileShowsNoZeroAndOneCause(t *testing.T) {
	file := readReal(t)
	for _, cut := range []int{5000, len(file) * 2 / 3} {
		t.Run(strconv.Itoa(cut), func(t *testing.T) {
			b := file[:cut]
			f := inspect.Open("cut.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{})
			ov := f.Doc.Root.Child("overview")
			io := ov.Child(inspect.OverviewIO)
			if io == nil || io.Attrs[inspect.AttrUnknown] == "" {
				t.Fatalf("natively the inputs and outputs are %+v", io)
			}
			// The findings the root cause explains: its own code again, or their cause.
			root, follow := 0, 0
			for _, x := range f.Doc.Findings() {
				switch {
				case x.Cause == doc.CodeNeffTruncated, x.Code == doc.CodeNeffTruncated && root > 0:
					follow++
				case x.Code == doc.CodeNeffTruncated:
					root++
				}
			}
			if root == 0 || follow == 0 {
				t.Fatalf("natively %d root findings, %d following", root, follow)
			}
			p := newPageWith(t, siteURL, closedDrawers, "ready")
			p.openByDrop("cut.neff", b)
			p.waitFor(`document.body.classList.contains('dash') && document.querySelector('#overview-view [data-section="io"]')`, "the overview")
			text := eval[string](p, `document.querySelector('#overview-view [data-section="io"]').textContent`)
			if strings.Contains(text, "none") || strings.Contains(text, "0 in") || eval[string](p, `document.querySelector('#overview-view [data-section="io"]').dataset.unknown || ''`) == "" {
				t.Errorf("the inputs and outputs read %q", text)
			}
			for _, c := range []string{"engines", "dma", "memory"} {
				sel := fmt.Sprintf(`#overview-view [data-section=%q]`, c)
				if eval[bool](p, `!!document.querySelector(`+jsString(sel)+`)`) && !eval[bool](p, `!!document.querySelector(`+jsString(sel+` .ov-cut`)+`)`) {
					t.Errorf("the %s card does not say its figures are of what was read", c)
				}
			}
			if chip := eval[string](p, `document.querySelector('#summary [data-field="integrity"]').textContent`); !strings.Contains(chip, "cannot match") {
				t.Errorf("the hash chip says %q", chip)
			}
			// The findings panel: the root finding first, what follows from it folded and counted.
			p.waitFor(`document.querySelector('#findings-list .cause-group.root')`, "the root cause's group")
			if got := eval[string](p, `document.querySelector('#findings-list .cause-group.root .finding').dataset.code`); got != string(doc.CodeNeffTruncated) {
				t.Errorf("the root group starts with %q", got)
			}
			fold := eval[map[string]string](p, `(() => { const d = document.querySelector('#findings-list .cause-group.root .cause-more'); return d ? {count: d.dataset.count, open: String(d.open), items: String(d.querySelectorAll('.finding').length), caused: String(Array.from(d.querySelectorAll('.finding')).filter((x) => x.dataset.cause === '`+string(doc.CodeNeffTruncated)+`' || x.dataset.code === '`+string(doc.CodeNeffTruncated)+`').length)} : {}; })()`)
			if fold["count"] != strconv.Itoa(follow) || fold["open"] != "false" || fold["items"] != fold["count"] || fold["caused"] != fold["count"] {
				t.Errorf("the fold under the root %v, want %d findings folded, all following from it", fold, follow)
			}
			// The overview's findings card folds its root cause's group the same way: the group's
			// first finding of the root's code, the rest under it.
			g := ov.Child(inspect.OverviewFindings).Child(inspect.CauseTruncated)
			if g == nil || g.Table == nil || len(g.Table.Rows) < 2 {
				t.Fatalf("natively the root cause's group is %+v", g)
			}
			if got := eval[string](p, `(document.querySelector('#overview-view .ov-cause.root .ov-consequences details') || {dataset: {}}).dataset.count || ''`); got != strconv.Itoa(len(g.Table.Rows)-1) {
				t.Errorf("the overview's findings card folds %q findings under the root, want %d", got, len(g.Table.Rows)-1)
			}
			if open := eval[bool](p, `document.querySelector('#overview-view .ov-cause.root .ov-consequences details').open`); open {
				t.Errorf("the overview's fold is open")
			}
			shotThemes(p, t, "cut-"+strconv.Itoa(cut))
		})
	}
}
