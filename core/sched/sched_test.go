package sched_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/internal/realfiles"
	"github.com/neffscope/neffscope/internal/repack"
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
// are these: 10,803 waits on the seven shared NEFFs, 2,624 fed by 0xC1 and 662 by 0xD4;
// EventSemaphore's second bands add 15 waits (293, a count once given for them, is not what these files hold).
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

// mutated opens matmul_small rebuilt with neffbuild after edit changed its members' bytes
// (edit gets a copy of each member; word i of a stream is at i*64).
func mutated(t *testing.T, edit func(path string, b []byte) []byte) *inspect.File {
	t.Helper()
	return mutatedFrom(t, "nkipy/matmul_small.neff", edit)
}

// mutatedFrom is mutated on another real NEFF.
func mutatedFrom(t *testing.T, rel string, edit func(path string, b []byte) []byte) *inspect.File {
	t.Helper()
	b := repack.NEFF(realfiles.Read(t, rel), func(path string, data []byte) ([]byte, bool) {
		return edit(path, append([]byte(nil), data...)), true
	})
	return inspect.Open("mutated.neff", bytes.NewReader(b), int64(len(b)), inspect.Options{DeferSource: true})
}

// word returns word i of b for editing.
func word(b []byte, i int) []byte { return b[i*isa.WordSize : (i+1)*isa.WordSize] }

type found struct {
	code  string
	at    string
	other string
}

// lintsOf lists every lint and undecided point of a model, as code and instructions.
func lintsOf(m *sched.Model) (lints, undecided []found) {
	for _, c := range m.Cores {
		for _, w := range c.Waits {
			switch w.Code.Class() {
			case sched.ClassLint:
				lints = append(lints, found{w.Code.String(), c.Name + " " + c.Ref(w.At), c.Ref(w.Other)})
			case sched.ClassUndecided:
				undecided = append(undecided, found{w.Code.String(), c.Name + " " + c.Ref(w.At), ""})
			}
		}
		for _, u := range c.Undecided {
			undecided = append(undecided, found{u.Code.String(), c.Name + " " + c.Ref(u.At), ""})
		}
	}
	return lints, undecided
}

// matmul_small's sync (sg00 and sg01 alike): PE #4, #6, #9, #11 inc S[5]; Activation #3 waits
// S[5]>=2 and #4 S[5]>=4, each inc S[4]; PE #8 waits S[4]>=1, Pool #5 S[4]>=2; PE #2, #7, #10
// wait S[24], S[25], S[26] >= 16, which Pool's 0xD4 #2, #3, #4 add 16 to.
func TestMutatedNEFFsGiveTheirLint(t *testing.T) {
	for _, tc := range []struct {
		name      string
		member    string
		edit      func(b []byte)
		lints     []found
		undecided []string // codes
	}{
		{"raised past every update", "sg00/Activation.bin", func(b []byte) { word(b, 4)[8] = 5 },
			[]found{{"sync.unreachable", "sg00 Activation #4", "PE #11"}}, nil},
		{"a semaphore nothing updates", "sg00/PE.bin", func(b []byte) { word(b, 7)[5] = 30 },
			[]found{{"sync.no-producer", "sg00 PE #7", "none"}}, nil},
		// Activation #3 now waits for PE #9, which comes after PE #8's wait for Activation #3.
		{"a true deadlock", "sg00/Activation.bin", func(b []byte) { word(b, 3)[8] = 3 },
			[]found{{"sync.cycle", "sg00 PE #8", "Activation #3"}, {"sync.cycle", "sg00 Activation #3", "PE #9"}}, nil},
		{"a self deadlock", "sg00/PE.bin", func(b []byte) { word(b, 3)[4], word(b, 3)[5], word(b, 3)[8] = 0x05, 5, 1 },
			[]found{{"sync.cycle", "sg00 PE #3", "PE #4"}}, nil},
		{"a second producing engine", "sg00/DVE.bin", func(b []byte) { word(b, 1)[6], word(b, 1)[7] = 0x13, 5 },
			[]found{{"sync.multi-producer", "sg00 Activation #3", "DVE #1"}, {"sync.multi-producer", "sg00 Activation #4", "DVE #1"}}, nil},
		{"an unconfirmed wait mode", "sg00/Activation.bin", func(b []byte) { word(b, 3)[4] = 0x04 },
			nil, []string{"sync.unknown-mode"}},
		{"an unconfirmed update mode", "sg00/Activation.bin", func(b []byte) { word(b, 3)[6] = 0x14 },
			nil, []string{"sync.unknown-mode", "sync.unknown-mode", "sync.unknown-mode"}},
		{"a semaphore reset", "sg00/DVE.bin", func(b []byte) { word(b, 1)[0] = 0xB0 },
			nil, []string{"sync.order-unknown"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := mutated(t, func(path string, b []byte) []byte {
				if path == tc.member {
					tc.edit(b)
				}
				return b
			})
			lints, undecided := lintsOf(f.Sched())
			if !sameFound(lints, tc.lints) {
				t.Errorf("lints %v, want %v", lints, tc.lints)
			}
			var codes []string
			seen := map[string]bool{}
			for _, u := range undecided {
				if u.code == "sync.order-unknown" && seen[u.code] {
					continue // every wait of the core, and the reset itself
				}
				seen[u.code] = true
				codes = append(codes, u.code)
			}
			if fmt.Sprint(codes) != fmt.Sprint(tc.undecided) {
				t.Errorf("undecided %v, want %v", undecided, tc.undecided)
			}
		})
	}
}

func sameFound(a, b []found) bool {
	if len(a) != len(b) {
		return false
	}
	left := map[found]int{}
	for _, x := range a {
		left[x]++
	}
	for _, x := range b {
		if left[x] == 0 {
			return false
		}
		left[x]--
	}
	return true
}
