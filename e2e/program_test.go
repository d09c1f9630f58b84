package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ncfw"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// The model overview shows the NEFF's inputs and outputs (names, dtypes, shapes).
func TestModelShowsInputsAndOutputs(t *testing.T) {
	// matmul_small is (128x256)x(256x128) in float16 (its PROVENANCE.md): inputs x and y of
	// 128·256·2 bytes, an output of 128·128·2 bytes per core.
	readReal(t)
	p := newPage(t, siteURL)
	p.openWithPicker(realNEFF)
	p.expand(`#tree [data-path="model"]`)
	for _, c := range []struct {
		key  string
		want []string
	}{
		{"inputs", []string{"x", "y", "float16", "[128, 256]", "[256, 128]", "65536"}},
		{"outputs", []string{"output0", "float16", "[128, 128]", "32768"}},
	} {
		p.clickRow(`#tree [data-path="model/` + c.key + `"]`)
		p.waitFor(`document.querySelector('#detail table')`, "the "+c.key+" table")
		text := eval[string](p, `document.getElementById('detail').textContent`)
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("the %s table lacks %q: %s", c.key, w, text)
			}
		}
	}
}

// millionInstructionNEFF writes a NEFF whose Activation stream holds 1,000,000 words.
func millionInstructionNEFF(tb testing.TB) string {
	tb.Helper()
	ms := neffbuild.Sample()
	for i := range ms {
		if ms[i].Path == "sg00/Activation.bin" {
			words := make([]byte, 64*1_000_000)
			for w := 0; w < len(words); w += 64 {
				words[w], words[w+1] = 0xcc, 0x10 // PseudoBranchLabel, 16 dwords
			}
			ms[i].Data = words
		}
	}
	path := filepath.Join(tb.TempDir(), "million.neff")
	if err := os.WriteFile(path, neffbuild.Bytes(ms, neffbuild.Options{}), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkListingFirstScreen: time from selecting a 1,000,000-instruction stream to its first
// screen of rows (the goal: ≤ 200 ms).
func BenchmarkListingFirstScreen(b *testing.B) {
	path := millionInstructionNEFF(b)
	p := newPage(b, siteURL)
	p.openWithPicker(path)
	p.expand(`#tree [data-path="members/sg00/"]`)
	var total float64
	for i := 0; i < b.N; i++ {
		// Select another node first so each round renders the listing anew.
		p.clickRow(`#tree [data-path="header"]`)
		total += eval[float64](p, `(async () => {
			const row = document.querySelector('#tree [data-ref="member:sg00/Activation.bin"]');
			const t0 = performance.now();
			row.firstChild.click();
			while (!document.querySelector('#listing-rows .lrow[data-index="0"] .col-name')) {
				await new Promise(r => setTimeout(r, 1));
			}
			return performance.now() - t0;
		})()`)
	}
	b.ReportMetric(total/float64(b.N), "ms-first-screen")
	if n := eval[int](p, `document.querySelectorAll('#listing-rows .lrow').length`); n > 300 {
		b.Errorf("%d rows in the DOM for a million-row listing", n)
	}
}

// A model name with characters outside ASCII: the field map counts UTF-8 bytes, the page's text
// is UTF-16, and a clicked value must still be the value the emulator printed for that field.
func TestContextTextOffsetsWithUnicodeModelName(t *testing.T) {
	const model = "modèle-😀"
	ctxBytes := ncfw.SampleContext(12, "patterned")
	f := inspect.OpenContext("ctx.bin", bytes.NewReader(ctxBytes), int64(len(ctxBytes)), 12, model)
	text := f.Doc.Root.Child("text")
	cols := map[string]int{}
	for i, c := range text.Table.Columns {
		cols[c] = i
	}

	p := newPage(t, siteURL)
	p.openByDrop("ctx.bin", ctxBytes)
	p.waitFor(`document.querySelectorAll('#ctx-arch-offer option').length === 4`, "the arch chooser")
	eval[chromedp.Void](p, `document.getElementById('ctx-arch-offer').value = '12'; document.getElementById('ctx-open').click()`)
	p.waitFor(`document.getElementById('ctx-view').dataset.arch === '12' && !document.getElementById('ctx-view').hidden`, "the context view")
	eval[chromedp.Void](p, fmt.Sprintf(`(() => { const m = document.getElementById('ctx-model'); m.value = %q; m.dispatchEvent(new Event('change')); })()`, model))
	p.waitFor(fmt.Sprintf(`neffscope.ctx.text.includes(%q)`, model), "the text re-emitted with the model name")
	for _, nth := range []int{0, 2, 5} {
		k := eval[int](p, fmt.Sprintf(`(() => { const all = Array.from(document.querySelectorAll("#ctx-lines .tv")); const v = all[%d %% all.length]; v.click(); return Number(v.dataset.row); })()`, nth))
		got := eval[string](p, `(() => { const c = neffscope.ctx; return c.text.slice(c.row.ts, c.row.te); })()`)
		r := text.Table.Rows[k]
		ts, _ := strconv.Atoi(r[cols["text_start"]])
		te, _ := strconv.Atoi(r[cols["text_end"]])
		if want := text.Value[ts:te]; got != want {
			t.Errorf("value %d (field %s): the page takes %q, the emulator printed %q", k, r[cols["path"]], got, want)
		}
	}
}
