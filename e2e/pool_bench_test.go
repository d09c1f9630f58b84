package e2e

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// clickJS defines window.clickRow(i): a click on the listing's instruction row i, and the
// milliseconds until the detail shows that instruction (-1: not within 30 s), with whether the
// deferred work (the source lines, the members' sha-256) was still running at the click.
const clickJS = `window.clickRow = (i) => new Promise((resolve) => {
	const o = neffscope.lastOpen;
	const deferred = !(o.sourceMs > 0 || !o.sourcePending) || !(o.memberHashMs > 0 || !neffscope.state.memberHashes);
	const row = document.querySelector('#listing-rows .lrow[data-index="' + i + '"]');
	if (!row) { resolve({ms: -1, deferred}); return; }
	const t0 = performance.now();
	row.click();
	const check = () => {
		const d = document.querySelector('#detail .d-path');
		if (d && d.textContent.includes('#' + i)) resolve({ms: performance.now() - t0, deferred});
		else if (performance.now() - t0 > 30000) resolve({ms: -1, deferred});
		else requestAnimationFrame(check);
	};
	check();
})`

type clickAnswer struct {
	MS       float64 `json:"ms"`
	Deferred bool    `json:"deferred"`
}

// BenchmarkPageAnswersDuringDeferred opens the 32 MiB real-shaped NEFF in the page and, once
// it is open and while the work it defers runs (the source lines mapped, the members hashed:
// in the pool workers where there are any), clicks instruction rows of a listing every 100 ms:
// the time from each click to the instruction's detail on screen (its median and its worst
// over the clicks made during that work; the goal is 100 ms), with the time to the overview
// and to the end of the deferred work.
//
//	make dist && go test -run '^$' -bench PageAnswersDuringDeferred -benchtime 1x ./e2e/
func BenchmarkPageAnswersDuringDeferred(b *testing.B) {
	path := bigRealNEFF(b, 32)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	// An instruction stream of the file with source lines (its first instructions are on the
	// first screen of its listing).
	f := inspect.Open("big.neff", bytes.NewReader(data), int64(len(data)), inspect.Options{})
	lines := f.Doc.Root.Find("model", "source", inspect.SourceLines)
	if lines == nil || len(lines.Children) == 0 {
		b.Fatal("the real-shaped NEFF has no source lines natively")
	}
	ws := lineWordsOf(lines.Children[0].Attrs[inspect.AttrWords])
	if len(ws) == 0 {
		b.Fatal("its first source line names no instruction")
	}
	var member []string
	f.Doc.Root.Walk(func(p []string, n *doc.Node) bool {
		if n.Kind == doc.KindMember && n.Ref == doc.MemberRef(ws[0].member) && member == nil {
			member = append([]string(nil), p...)
		}
		return member == nil
	})
	data, f = nil, nil
	p := newSlowPage(b, siteURL, 30*time.Minute)
	var clicks []float64
	var overview, deferred, during float64
	b.ResetTimer()
	for range b.N {
		eval[chromedp.Void](p, watchOpenJS)
		eval[chromedp.Void](p, clickJS)
		p.do(chromedp.SetUploadFiles(chromedp.ID("file-input"), []string{path}))
		p.waitLong(`document.body.dataset.state === 'open' && neffscope.lastOpen.totalMs > 0`, "the file to open", 25*time.Minute)
		overview += eval[float64](p, `window.bigOpen.overviewMs`)
		p.goPath(uriPath(member))
		p.waitFor(`!document.getElementById('listing').hidden && document.querySelector('#listing-rows .lrow[data-index="0"] .col-name')`, "the listing of "+ws[0].member)
		for k := 0; k < 400; k++ {
			a := eval[clickAnswer](p, `clickRow(`+strconv.Itoa(k%20)+`)`)
			if !a.Deferred {
				break
			}
			if a.MS < 0 {
				b.Fatalf("click %d: the detail did not show instruction #%d", k, k%20)
			}
			clicks = append(clicks, a.MS)
			during++
			time.Sleep(100 * time.Millisecond)
		}
		p.waitLong(`neffscope.lastOpen.sourceMs > 0 && neffscope.lastOpen.memberHashMs > 0`, "the deferred work", 25*time.Minute)
		deferred += eval[float64](p, `Math.max(neffscope.lastOpen.sourceMs, neffscope.lastOpen.memberHashMs)`)
	}
	b.StopTimer()
	n := float64(b.N)
	slices.Sort(clicks)
	b.ReportMetric(overview/n, "ms-to-overview")
	b.ReportMetric(deferred/n, "ms-deferred-done")
	b.ReportMetric(during/n, "clicks-during")
	if len(clicks) > 0 {
		b.ReportMetric(clicks[len(clicks)/2], "ms-click-median")
		b.ReportMetric(clicks[len(clicks)-1], "ms-click-worst")
	}
	pool := eval[map[string]any](p, `neffscope.core.pool || {}`)
	b.Logf("the pool: %v", pool)
}
