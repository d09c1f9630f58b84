package e2e

import (
	"strings"
	"testing"
)

// ?url= whose file name holds malformed percent-encoding ("%ZZ") is a coded finding
// (page.url-malformed) naming the bad part, and nothing is fetched (decoding it threw outside
// the page's handling, and the page showed nothing).
func TestURLParameterMalformedEncodingIsSaid(t *testing.T) {
	readReal(t)
	p := newPage(t, siteURL+"?url=files/a%25ZZ.neff")
	p.waitFor(`!document.getElementById('toast').hidden && document.getElementById('toast').dataset.code === 'page.url-malformed'`, "the page.url-malformed finding")
	if got := eval[map[string]any](p, `neffscope.embedding.url || {}`); got["code"] != "page.url-malformed" || got["at"] != "%ZZ" {
		t.Errorf("the page's finding on ?url= is %v, want page.url-malformed at %%ZZ", got)
	}
	p.shot("/tmp/neffscope-url-malformed.png")
	shotAt(p, 800, 600, "/tmp/neffscope-url-malformed-800.png")
	for _, path := range served.take() {
		if strings.Contains(path, "/files/") {
			t.Errorf("the page fetched %s", path)
		}
	}
	if s := eval[string](p, `document.body.dataset.state`); s != "empty" {
		t.Errorf("the page is %q, want empty", s)
	}
}
