//go:build !js

package inspect

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestCoverageStreamsWordByWord: counting a stream one word at a time (coverWords) gives what
// one sweep over all its spans at once gives (countMember), on the real NEFFs.
func TestCoverageStreamsWordByWord(t *testing.T) {
	for _, p := range realfiles.NEFFs(t) {
		f := openPath(t, p)
		got := kindOf(f.Coverage(), "sgNN/<Engine>.bin")
		want := &CoverageKind{}
		for _, ps := range f.Program.Streams {
			var ss []covSpan
			order := 0
			var add func(n *doc.Node, depth int)
			add = func(n *doc.Node, depth int) {
				if n.Span != nil && n.Span.Length > 0 && (n.Span.Source == ps.Member || depth >= 1000) {
					order++
					ss = append(ss, covSpan{n.Span.Offset, n.Span.Offset + n.Span.Length, depth, order, classify(n)})
				}
				for _, ch := range n.Children {
					add(ch, depth+1)
				}
			}
			add(f.Doc.Root, 0)
			for i := range ps.ISA.Len() {
				add(ps.ISA.Node(i), 1000)
			}
			f.countMember(want, ps.Member, ps.Size, false, ss)
		}
		if got == nil || got.Significant != want.Significant || got.Named != want.Named || got.JSON != want.JSON || got.Unknown != want.Unknown || got.Hex != want.Hex {
			t.Errorf("%s: word by word %+v, all at once %+v", p, got, want)
		}
	}
}

// TestCoverageOfHostileStreams: a stream of one word repeated and a .dbg member of millions of
// fields are counted whole (every word, every significant byte).
func TestCoverageOfHostileStreams(t *testing.T) {
	for _, name := range []string{"table-loads", "dbg-wiretype"} {
		var h neffbuild.Hostile
		for _, c := range neffbuild.HostileClasses() {
			if c.Name == name {
				h = c
			}
		}
		raw := h.Build(0.05)
		f := Open(name+".neff", bytes.NewReader(raw), int64(len(raw)), Options{})
		c := f.Coverage()
		for _, k := range c.Kinds {
			if k.Named+k.JSON+k.Unknown+k.Hex != k.Significant {
				t.Errorf("%s %s: %+v does not add up", name, k.Kind, k)
			}
		}
		if name == "table-loads" {
			if k := kindOf(c, "sgNN/<Engine>.bin"); k == nil || k.Words != 1+3+1+2+52428 { // DVE, PE, Pool, SP and the 0x23 words
				t.Errorf("%s: %+v", name, k)
			}
		}
		if k := kindOf(c, "sgNN/debug_info_asm_<Engine>.dbg"); name == "dbg-wiretype" && (k == nil || k.Significant != 200_000 || k.JSON != k.Significant) {
			t.Errorf("%s: %+v", name, k)
		}
	}
}

// TestSweepLetsGoOfEndedSiblings: a sweep over sibling spans (a .dbg member of millions of
// fields) holds only the spans open where it has reached, not every sibling that ended under
// a later one, and counts their bytes as the owners say.
func TestSweepLetsGoOfEndedSiblings(t *testing.T) {
	k := &CoverageKind{}
	w := &sweep{k: k, sig: func(a, b int64) int64 { return b - a }}
	w.push(covSpan{0, 20000, 0, 1, covHex})
	for i := range int64(10000) {
		w.push(covSpan{2 * i, 2*i + 2, 1, int(i) + 2, covNamed})
		if len(w.h) > 2 {
			t.Fatalf("after %d siblings the sweep holds %d spans", i+1, len(w.h))
		}
	}
	w.to(20000)
	if k.Named != 20000 || k.Hex != 0 || k.Significant != 20000 {
		t.Fatalf("counted %+v, want every byte named", k)
	}
}
