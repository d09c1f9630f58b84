package e2e

import (
	"bytes"
	"encoding/binary"
	"path"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
)

// Where a memory peak is shown (the overview's sync card, the memory view) the page says
// what the peak leaves out: the operands the model could not place and the accesses a limit
// left out; how a peak is counted; the buffers live at it by the kernel line that wrote them;
// and the writes into the runtime's reserved SBUF bytes, flagged.

// openMemory opens file and the memory view from the overview's sync card, and waits for its
// first core's status and side panel.
func (p *page) openMemory() {
	p.t.Helper()
	p.waitDashboard()
	// A small file's peaks come by themselves; a bigger one's when asked.
	p.waitFor(`document.querySelector('#overview-view .ov-peaks-ask, #ov-peaks-left')`, "the sync card's peaks, or the button asking for them")
	eval[chromedp.Void](p, `(document.querySelector('#overview-view .ov-peaks-ask') || {click() {}}).click()`)
	p.waitFor(`document.getElementById('ov-peaks-left')`, "the sync card's peaks and what they leave out")
	p.click(`#overview-view .ov-sync-links button:nth-child(2)`)
	p.waitFor(`neffscope.memory.open && document.getElementById('mem-status') && document.getElementById('mem-status').dataset.unplaced !== undefined && document.querySelector('#mem-side .mem-peak-head')`, "the memory view")
}

// lineName names an instruction's kernel line as the page does ("conv2d.py:127").
func lineName(f *inspect.File, c *sched.Core, at sched.At) string {
	src := f.Program.Source.Source(c.Engines[at.Engine].Member, int(at.Index))
	if src == nil || src.Line == 0 {
		return ""
	}
	return path.Base(src.File) + ":" + strconv.Itoa(src.Line)
}

func TestMemoryPeaksSayWhatTheyLeaveOut(t *testing.T) {
	f := nativeMatmul(t)
	m := f.Memmap()
	c := m.Cores[0]
	p := newPageWith(t, siteURL, closedDrawers, "ready")
	p.openWithPicker(realNEFF)
	p.openMemory()
	// The sync card: nothing left out of matmul_small's peaks, and how a peak is counted.
	unplaced := 0
	for _, c := range m.Cores {
		unplaced += c.Unplaced()
	}
	if got := eval[string](p, `document.getElementById('ov-peaks-left').dataset.unplaced`); got != strconv.Itoa(unplaced) {
		t.Errorf("the sync card says %s operands not placed, native %d", got, unplaced)
	}
	card := eval[string](p, `document.querySelector('#overview-view [data-section="sync"]').textContent`)
	if !strings.Contains(card, sched.PeakConvention) {
		t.Errorf("the sync card does not say how a peak is counted: %q", card)
	}
	// The memory view: the first core's figures, and the buffers live at each peak by the line
	// that wrote them.
	st := eval[map[string]string](p, `Object.assign({}, document.getElementById('mem-status').dataset)`)
	if st["unplaced"] != strconv.Itoa(c.Unplaced()) || st["unswept"] != strconv.Itoa(c.SBUF.Unswept+c.PSUM.Unswept) || st["reserved"] != "0" {
		t.Errorf("the memory view's status %v, native unplaced %d unswept %d", st, c.Unplaced(), c.SBUF.Unswept+c.PSUM.Unswept)
	}
	side := eval[string](p, `document.getElementById('mem-side').textContent`)
	if !strings.Contains(side, sched.PeakConvention) {
		t.Errorf("the memory view does not say how a peak is counted: %q", side)
	}
	lines := 0
	for _, sp := range []struct {
		name string
		u    sched.Usage
	}{{"SBUF", c.SBUF}, {"PSUM", c.PSUM}} {
		got := eval[string](p, `(document.querySelector('#mem-side .mem-lines[data-space="`+sp.name+`"]') || {}).textContent || ''`)
		for _, l := range sp.u.Live {
			want := lineName(f, c, c.Accesses[l.Write].At)
			if want == "" {
				want = "(no line)"
			} else {
				lines++
			}
			if !strings.Contains(got, want) {
				t.Errorf("%s live at the peak %q lacks %s (the line of %s)", sp.name, got, want, c.Ref(c.Accesses[l.Write].At))
			}
		}
		if n := eval[int](p, `document.querySelectorAll('#mem-side .mem-live .mem-acc').length`); len(sp.u.Live) > 0 && n == 0 {
			t.Errorf("no live buffer leads to its instructions")
		}
	}
	if lines == 0 {
		t.Errorf("natively no buffer live at a peak has a kernel line: the test checks nothing")
	}
	shotThemes(p, t, "memory-left")
}

// attn_v6's sg00 has operands the model cannot place: the sync card and the memory view count
// them where they show its peaks.
func TestMemoryPeaksCountUnplacedOperands(t *testing.T) {
	rel := "nki-moe/attn_v6.neff"
	file, ok := realfiles.Find(rel)
	if !ok {
		t.Skip(realfiles.Missing(rel))
	}
	b := realfiles.Read(t, rel)
	f := inspect.Open("attn_v6.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{})
	m := f.Memmap()
	total := 0
	for _, c := range m.Cores {
		total += c.Unplaced()
	}
	if total == 0 {
		t.Fatalf("natively attn_v6 has no unplaced operand")
	}
	p := newPageWith(t, siteURL, closedDrawers, "ready")
	p.openWithPicker(file)
	p.openMemory()
	if got := eval[string](p, `document.getElementById('ov-peaks-left').dataset.unplaced`); got != strconv.Itoa(total) {
		t.Errorf("the sync card counts %s unplaced operands, native %d", got, total)
	}
	if got := eval[string](p, `document.getElementById('mem-status').dataset.unplaced`); got != strconv.Itoa(m.Cores[0].Unplaced()) {
		t.Errorf("the memory view counts %s for %s, native %d", got, m.Cores[0].Name, m.Cores[0].Unplaced())
	}
	if !eval[bool](p, `!!document.getElementById('mem-unplaced')`) {
		t.Errorf("the memory view's side does not list what it could not place")
	}
	shotThemes(p, t, "memory-unplaced")
}

// Activation #4's Copy rewritten to write the 8 bytes matmul_small's def.json reserves for the
// runtime (229,368.. of every partition): the memory view flags the write and the verdict's
// memory check fails with mem.reserved.
func TestMemoryFlagsReservedWrites(t *testing.T) {
	src := readReal(t)
	b := repack.NEFF(src, func(path string, data []byte) ([]byte, bool) {
		if path == "sg00/Activation.bin" {
			out := data[4*64+0x2C:]
			binary.LittleEndian.PutUint32(out, 229368)
			binary.LittleEndian.PutUint16(out[12:], 2)
		}
		return data, true
	})
	f := inspect.Open("reserved.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{})
	reserved := 0
	for _, l := range f.Memmap().Cores[0].MemLints {
		if l.Code == sched.MemReserved {
			reserved++
		}
	}
	if reserved == 0 {
		t.Fatalf("natively no mem.reserved lint")
	}
	p := newPageWith(t, siteURL, closedDrawers, "ready")
	p.openByDrop("reserved.neff", b)
	p.openMemory()
	if got := eval[string](p, `document.getElementById('mem-status').dataset.reserved`); got != strconv.Itoa(reserved) {
		t.Errorf("the memory view flags %s reserved writes, native %d", got, reserved)
	}
	if !eval[bool](p, `!!document.getElementById('mem-reserved') && document.querySelectorAll('#mem-side .mem-flag ~ .mem-accs .mem-acc').length > 0`) {
		t.Errorf("the reserved writes are not listed with their instructions")
	}
	if got := p.verdict(); got.States[inspect.CheckMemory] != inspect.VerdictFail || !strings.Contains(got.Codes[inspect.CheckMemory], "mem.reserved") {
		t.Errorf("the verdict's memory check is %q %q", got.States[inspect.CheckMemory], got.Codes[inspect.CheckMemory])
	}
	shotThemes(p, t, "memory-reserved")
}
