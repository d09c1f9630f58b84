package fleet

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
)

// firstSection is a diff's first section after the recompile explanation.
func firstSection(d *doc.Node) *doc.Node {
	for _, c := range d.Children {
		if c.Key != "recompile" {
			return c
		}
	}
	return nil
}

// A real NEFF against itself has no source-line rows and no differing words.
func TestDiffSourceWithItself(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		d := Diff(openBytes(name, b), openBytes(name, b))
		lines, words := d.Child(DiffSourceLines), d.Child(DiffSourceWords)
		if lines == nil || words == nil || firstSection(d) != lines {
			t.Fatalf("%s: source sections missing or not first: %v", name, labels(d.Children))
		}
		if len(lines.Children) != 0 || len(lines.Table.Rows) != 0 || len(words.Children) != 0 {
			t.Errorf("%s: with itself: %d source rows, %d words", name, len(lines.Table.Rows), len(words.Children))
		}
		if !DiffIdentical(d) {
			t.Errorf("%s differs from itself: %s", name, d.Value)
		}
	}
}

// Two NEFFs that differ in the words of one kernel line compare to that line first: a real
// NEFF repacked with one byte changed, outside the sync band, in one word of one line (and
// then the opcode of that word). The summary says how many kernel lines differ.
func TestDiffSourceOneLineChange(t *testing.T) {
	rel := "cs149-trn1/file_pool_1_float16.neff"
	if !realfiles.Has(rel) {
		rel = "nkipy/matmul_small.neff" // one kernel line only, in the repository
	}
	src := realfiles.Read(t, rel)
	a := openBytes("a.neff", src)
	lw, ok := repack.QuietLine(a)
	if !ok {
		t.Fatalf("%s maps no instruction to a source line", rel)
	}
	pick, member, word := lw.Line, lw.Member, lw.Index
	want := pick.Key
	for _, tc := range []struct {
		name   string
		offset int
		why    string
	}{
		{"operand", 63, lineChangeOperands},
		{"sync band only", 9, ""}, // the semaphore value: not a change of the line
		{"opcode", 0, lineChangeOpcodes},
	} {
		changed := repack.EditWord(src, member, word, func(w []byte) {
			if tc.offset == 0 {
				op := w[0]
				w[0] = 0xA0 // EventSemaphore (a one-word opcode, sync band only)
				if op == 0xA0 {
					w[0] = 0x00
				}
			} else {
				w[tc.offset] ^= 0x01
			}
		})
		d := Diff(a, openBytes("b.neff", changed))
		lines := d.Child(DiffSourceLines)
		if tc.why == "" {
			if len(lines.Children) != 0 {
				t.Errorf("%s: a sync-band change is a source change: %v", tc.name, lines.Table.Rows)
			}
			continue
		}
		if len(lines.Children) != 1 || firstSection(d) != lines {
			t.Fatalf("%s: %d source rows (want 1), sections %v", tc.name, len(lines.Children), labels(d.Children))
		}
		c := lines.Children[0]
		if c.Key != want || c.Attrs[inspect.AttrSourceFile] != pick.File || c.Attrs[inspect.AttrSourceLine] != strconv.Itoa(pick.Line) || c.Attrs[AttrWhy] != tc.why || c.Attrs[AttrDelta] != "+0" {
			t.Errorf("%s: first row %s %v, want %s (%s)", tc.name, c.Key, c.Attrs, want, tc.why)
		}
		if !strings.HasPrefix(d.Value, "source: 1 kernel line differs (first "+want+")") {
			t.Errorf("%s: summary %q", tc.name, d.Value)
		}
		words := d.Child(DiffSourceWords)
		if len(words.Children) != 1 {
			t.Fatalf("%s: %d differing words, want 1", tc.name, len(words.Children))
		}
		wa, wb := words.Children[0].Child("a"), words.Children[0].Child("b")
		at := member + " #" + strconv.Itoa(word)
		if wa == nil || wb == nil || wa.Detail != at || wb.Detail != at {
			t.Errorf("%s: differing word %+v, want %s on both sides", tc.name, words.Children[0], at)
		}
	}
}

// Lines of a kernel that moved are matched by their offset from its first line; lines of a
// kernel that did not move, by number.
func TestDiffSourceShiftedKernel(t *testing.T) {
	sig := func(file, kernel string, line int) *lineSig {
		return &lineSig{id: inspect.LineID{File: file, Kernel: kernel, Line: line}}
	}
	set := func(ls ...*lineSig) map[inspect.LineID]*lineSig {
		m := map[inspect.LineID]*lineSig{}
		for _, l := range ls {
			m[l.id] = l
		}
		return m
	}
	a := set(sig("/a/k.py", "f", 10), sig("/a/k.py", "f", 12), sig("/a/k.py", "f", 13), sig("/a/k.py", "g", 40))
	b := set(sig("/b/k.py", "f", 15), sig("/b/k.py", "f", 17), sig("/b/k.py", "f", 18), sig("/b/k.py", "g", 40))
	ka, kb, shifted := keyLines(a, b)
	if sh, ok := shifted[[2]string{"k.py", "f"}]; !ok || sh != [2]int{10, 15} || len(shifted) != 1 {
		t.Fatalf("shifted %v", shifted)
	}
	for k, s := range ka {
		if o := kb[k]; o == nil || o.id.Line-s.id.Line != map[string]int{"f": 5, "g": 0}[k.kernel] {
			t.Errorf("a line %d of %s matched %+v", s.id.Line, k.kernel, o)
		}
	}
}
