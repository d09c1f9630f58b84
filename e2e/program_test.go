package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/neff/neffbuild"
)

// Issue 3: the model overview shows the NEFF's inputs and outputs (names, dtypes, shapes).
func TestModelShowsInputsAndOutputs(t *testing.T) {
	const path = "../../shared/testdata-real/cs149-trn1/file_pool_1_float16.neff"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("real NEFF not available (%v)", err)
	}
	p := newPage(t, siteURL)
	p.openWithPicker(path)
	p.expand(`#tree [data-path="model"]`)
	for _, c := range []struct {
		key  string
		want []string
	}{
		{"inputs", []string{"X", "W", "bias", "float16", "25690112"}},
		{"outputs", []string{"X_out", "float16", "25233408"}},
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
// screen of rows (issue 3 goal: ≤ 200 ms).
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
