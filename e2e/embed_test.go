package e2e

import (
	"strings"
	"testing"
	"time"
)

// An embedded viewer talks back — refusals are logged with their fix, and
// the host is told whether the file it posted loaded.

// consoleHas waits for a console line of the viewer frame containing every one of parts.
func (h *hostPage) consoleHas(what string, parts ...string) string {
	h.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		h.mu.Lock()
		lines := append([]string(nil), h.console...)
		h.mu.Unlock()
		for _, l := range lines {
			ok := true
			for _, p := range parts {
				ok = ok && strings.Contains(l, p)
			}
			if ok {
				return l
			}
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the viewer's console never said %s; it said %q", what, lines)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestEmbedWithoutAllowLogsTheRefusal(t *testing.T) {
	file := readReal(t)
	var hostURL string
	h := newHostPageQuery(t, file, func(u string) string { hostURL = u; return "mode=embedded" })
	h.waitViewer(`neffscope.embedding.messages.ignored >= 3`, "the host's pings to reach the viewer")
	line := h.consoleHas("why the host's messages are ignored", "warning:", "ignored a message from "+hostURL, "no allow=", "allow="+hostURL)
	t.Logf("console: %s", line)
	// Once per origin, however many pings come.
	time.Sleep(500 * time.Millisecond)
	h.mu.Lock()
	n := 0
	for _, l := range h.console {
		if strings.Contains(l, "ignored a message from "+hostURL) {
			n++
		}
	}
	h.mu.Unlock()
	if n != 1 {
		t.Errorf("the refusal was logged %d times, want once", n)
	}
	if pongs := eval[int](h.page, `window.pongs + window.replies.length`); pongs != 0 {
		t.Errorf("a viewer without allow= answered a foreign host %d times", pongs)
	}
}

func TestEmbedWithAllowPostsLoadedAndError(t *testing.T) {
	file := readReal(t)
	h := newHostPage(t, file, true)
	h.waitFor(`window.pongs > 0`, "the viewer to answer PING with PONG")
	eval[bool](h.page, `sendFile()`)
	h.waitFor(`window.replies.length > 0`, "the viewer's reply to the file")
	if got := eval[string](h.page, `JSON.stringify(window.replies[0])`); got != `{"type":"loaded","name":"matmul_small.neff","kind":"neff"}` {
		t.Errorf("the viewer replied %s; want {type: 'loaded', name: 'matmul_small.neff', kind: 'neff'}", got)
	}
	// A message that is not a file gets an error reply saying what was expected.
	eval[bool](h.page, `(document.getElementById('viewer').contentWindow.postMessage({name: 'x.neff'}, VIEWER_ORIGIN), true)`)
	h.waitFor(`window.replies.length > 1`, "the viewer's reply to a message with no buffer")
	if got := eval[string](h.page, `window.replies[1].type + ': ' + window.replies[1].message`); !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "buffer") {
		t.Errorf("the reply to a message with no buffer is %q; want an error naming the buffer", got)
	}
	// A damaged file still opens (its findings say what is wrong): the host is told it loaded.
	eval[bool](h.page, `(() => { const b = new Uint8Array(100).buffer; document.getElementById('viewer').contentWindow.postMessage({buffer: b, name: 'tiny.neff'}, VIEWER_ORIGIN, [b]); return true; })()`)
	h.waitFor(`window.replies.length > 2`, "the viewer's reply to a 100-byte file")
	if got := eval[string](h.page, `JSON.stringify(window.replies[2])`); got != `{"type":"loaded","name":"tiny.neff","kind":"neff"}` {
		t.Errorf("the reply to a 100-byte file is %s; want loaded, kind neff (with findings)", got)
	}
	if n, _ := viewerEval[int](h, `neffscope.state.findings.length`); n == 0 {
		t.Errorf("the 100-byte file opened without findings")
	}
	if n, _ := viewerEval[int](h, `neffscope.embedding.messages.posted`); n != 3 {
		t.Errorf("the viewer counts %d replies posted, want 3", n)
	}
}
