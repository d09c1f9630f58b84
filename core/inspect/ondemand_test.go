package inspect

import (
	"reflect"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestStreamsServedOnDemand opens every real NEFF twice: holding its engine streams, and with
// the hold limit at 0, so every stream is indexed as it streams past and its words are read
// back from the archive when asked for (what a NEFF of hundreds of MB of streams gets). The
// instruction counts, listings, instruction trees and the profile must be the same; the open
// that does not hold them says so once per stream, and holds none of their bytes.
func TestStreamsServedOnDemand(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	for _, p := range paths {
		held := openPath(t, p)
		saved := streamHoldMax
		streamHoldMax = 0
		lazy := openPath(t, p)
		streamHoldMax = saved
		if held.Program == nil || lazy.Program == nil || len(held.Program.Streams) != len(lazy.Program.Streams) {
			t.Fatalf("%s: programs differ", p)
		}
		for k, hs := range held.Program.Streams {
			ls := lazy.Program.Streams[k]
			if hs.ISA == nil {
				continue
			}
			if ls.ISA == nil || ls.ISA.Held() || !hs.ISA.Held() {
				t.Fatalf("%s %s: the lazy open holds the stream (or has none)", p, hs.Member)
			}
			if m := lazy.Archive.Member(hs.Member); m.Data != nil {
				t.Fatalf("%s %s: %d bytes held", p, hs.Member, len(m.Data))
			}
			if !reflect.DeepEqual(hs.ISA.Counts(), ls.ISA.Counts()) {
				t.Fatalf("%s %s: opcode counts differ", p, hs.Member)
			}
			n := hs.ISA.Len()
			ref := doc.StreamRef(hs.Member)
			for _, r := range [][2]int{{0, 100}, {n - 10, n}} {
				ht, _, err1 := held.Rows(ref, r[0], r[1])
				lt, _, err2 := lazy.Rows(ref, r[0], r[1])
				if err1 != nil || err2 != nil || !reflect.DeepEqual(ht, lt) {
					t.Fatalf("%s %s rows %v differ (errors %v, %v)", p, hs.Member, r, err1, err2)
				}
			}
			hn, err1 := held.Instruction(ref, n-1)
			ln, err2 := lazy.Instruction(ref, n-1)
			if err1 != nil || err2 != nil || !reflect.DeepEqual(hn, ln) {
				t.Fatalf("%s %s: the last instruction differs (errors %v, %v)", p, hs.Member, err1, err2)
			}
			said := 0
			lazy.Doc.Root.Walk(func(_ []string, c *doc.Node) bool {
				for _, f := range c.Findings {
					if f.Span != nil && f.Span.Source == hs.Member && f.Severity == doc.Info && strings.Contains(f.Message, "read from the file on demand") {
						said++
					}
				}
				return true
			})
			if said != 1 {
				t.Fatalf("%s %s: %d findings say the stream is read on demand, want 1", p, hs.Member, said)
			}
		}
		if !reflect.DeepEqual(Profile(held), Profile(lazy)) {
			t.Fatalf("%s: the profiles differ", p)
		}
		if e := lazy.Budget.First(); e != nil {
			t.Fatalf("%s: the lazy open reports a limit: %v", p, e)
		}
	}
}
