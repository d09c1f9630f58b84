package sched_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/core/neff/neffbuild"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/internal/realfiles"
)

func openPath(t *testing.T, p string) *inspect.File {
	t.Helper()
	fh, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, _ := fh.Stat()
	return inspect.Open(filepath.Base(p), fh, st.Size(), inspect.Options{DeferSource: true})
}

// On every real NEFF (they ran on devices) every wait has its producer, no lint and nothing
// undecided, and every instruction gets a step (the graphs are acyclic). The first bands' counts
// are issue 28's: 10,803 waits on the seven shared NEFFs, 2,624 fed by 0xC1 and 662 by 0xD4;
// EventSemaphore's second bands add 15 waits (the issue's 293 is not what these files hold).
func TestRealNEFFsResolve(t *testing.T) {
	paths := realfiles.Glob("*/*.neff")
	if len(paths) == 0 {
		t.Skip(realfiles.Missing("*/*.neff"))
	}
	var waits, viaC1, viaD4, cores, second int
	for _, p := range paths {
		rel := filepath.Base(filepath.Dir(p)) + "/" + filepath.Base(p)
		f := openPath(t, p)
		m := f.Sched()
		if m == nil {
			t.Fatalf("%s: no model", rel)
		}
		for _, c := range m.Cores {
			cores++
			for _, u := range c.Undecided {
				t.Errorf("%s %s: undecided %s: %s", rel, c.Name, u.Code, c.IssueMessage(u))
			}
			for _, w := range c.Waits {
				if w.Code != sched.OK || !w.Producer.Valid() {
					t.Errorf("%s %s: %s: %s", rel, c.Name, w.Code, c.Message(w))
					continue
				}
				if w.Second {
					second++
				} else {
					waits++
					switch viaOp(c, w) {
					case 0xC1:
						viaC1++
					case 0xD4:
						viaD4++
					}
				}
				if w.Queue >= 0 != (viaOp(c, w) != 0) {
					t.Errorf("%s %s: %s: queue %d with producer opcode 0x%02x", rel, c.Name, c.Ref(w.At), w.Queue, viaOp(c, w))
				}
			}
			for k, e := range c.Engines {
				if !e.Read {
					t.Errorf("%s %s: %s not read", rel, c.Name, e.Name)
				}
				for i := 0; i < e.Len; i++ {
					if e.Step(i) < 0 {
						t.Errorf("%s %s: %s #%d never runs", rel, c.Name, c.Engines[k].Name, i)
						break
					}
				}
			}
		}
	}
	t.Logf("%d files, %d cores: %d first-band waits resolved (%d via 0xC1, %d via 0xD4), %d second-band waits resolved", len(paths), cores, waits, viaC1, viaD4, second)
	if len(paths) == 7 && (waits != 10803 || viaC1 != 2624 || viaD4 != 662 || second != 15) {
		t.Errorf("first-band waits %d (0xC1 %d, 0xD4 %d), second-band %d; want 10,803 (2,624, 662) and 15", waits, viaC1, viaD4, second)
	}
}

func viaOp(c *sched.Core, w sched.Wait) uint8 {
	op := c.Engines[w.Producer.Engine].Opcode(int(w.Producer.Index))
	if op == 0xC1 || op == 0xD4 {
		return op
	}
	return 0
}

var _ = bytes.NewReader
var _ = neff.Open
var _ = neffbuild.Bytes
var _ = isa.WordSize
