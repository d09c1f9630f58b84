//go:build stats

package isa

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestRealByteStatistics is the analysis tool behind the layouts' REAL rows: it prints, per
// opcode and byte offset, the values every real word carries and how often
// (go test -tags stats -v -run TestRealByteStatistics ./core/isa/; the build tag keeps this
// analysis tool out of make test). TestRealEvidence
// checks the facts drawn from it.
func TestRealByteStatistics(t *testing.T) {
	type stat struct {
		words   int
		engines map[string]int
		vals    [WordSize]map[byte]int
	}
	stats := map[uint8]*stat{}
	for _, path := range realfiles.NEFFs(t) {
		members := readNEFF(t, path)
		for member, eng := range engineStreams(t, members) {
			s := NewStream(member, members[member])
			for i := range s.Len() {
				w := s.Word(i)
				st := stats[w[0]]
				if st == nil {
					st = &stat{engines: map[string]int{}}
					for k := range st.vals {
						st.vals[k] = map[byte]int{}
					}
					stats[w[0]] = st
				}
				st.words++
				st.engines[eng]++
				for k, c := range w {
					st.vals[k][c]++
				}
			}
		}
	}
	ops := make([]int, 0, len(stats))
	for op := range stats {
		ops = append(ops, int(op))
	}
	sort.Ints(ops)
	for _, op := range ops {
		st := stats[uint8(op)]
		fmt.Printf("== %s %s words=%d engines=%v\n", hex2(uint8(op)), OpcodeName(uint8(op)), st.words, st.engines)
		for k := range WordSize {
			m := st.vals[k]
			if len(m) == 1 && m[0] > 0 {
				continue
			}
			type kv struct {
				v byte
				n int
			}
			var kvs []kv
			for v, n := range m {
				kvs = append(kvs, kv{v, n})
			}
			sort.Slice(kvs, func(a, b int) bool { return kvs[a].n > kvs[b].n || kvs[a].n == kvs[b].n && kvs[a].v < kvs[b].v })
			var parts []string
			for j, e := range kvs {
				if j == 12 {
					parts = append(parts, fmt.Sprintf("…(%d distinct)", len(kvs)))
					break
				}
				parts = append(parts, fmt.Sprintf("%02x:%d", e.v, e.n))
			}
			fmt.Printf("  +%02x %s\n", k, strings.Join(parts, " "))
		}
	}
}

// TestRealEvidence checks, on every real word, the facts the layout rows and the settled
// unknowns rows cite, so a new real file that contradicts one fails here.
func TestRealEvidence(t *testing.T) {
	words := 0
	for _, path := range realfiles.NEFFs(t) {
		members := readNEFF(t, path)
		for member := range engineStreams(t, members) {
			s := NewStream(member, members[member])
			for i := range s.Len() {
				w := s.Word(i)
				words++
				at := fmt.Sprintf("%s %s #%d", path, member, i)
				// isa.wait-mode-encoding, isa.update-mode-encoding: only these modes occur.
				if w[4] != 0 && w[4] != 0x05 || w[6] != 0 && w[6] != 0x13 || w[6] == 0 && w[7] != 0 {
					t.Errorf("%s: sync modes % x", at, w[4:8])
				}
				// isa.sync-value-owner: a value only with wait mode 0x05.
				if w[4] != 0x05 && (w[8]|w[9]|w[10]|w[11]) != 0 {
					t.Errorf("%s: sync value without wait mode 0x05", at)
				}
				if w[0] == 0x01 || w[0] == 0x02 { // isa.pe-control-band
					if (w[0x21] != 0) != (w[0x20] == 10) {
						t.Errorf("%s: PE fp32 mode %#x with dtype %#x", at, w[0x21], w[0x20])
					}
					if w[0x2C] != 0x0F || w[0x2D] != 0x0F {
						t.Errorf("%s: PE row/column group %#x/%#x, not all quadrants", at, w[0x2C], w[0x2D])
					}
					if w[0] == 0x02 && w[0x2E] != 0 && w[0x2E] != 0x10 || w[0x2B] > 3 {
						t.Errorf("%s: Matmul trn1 mode %#x, accumulate %#x", at, w[0x2E], w[0x2B])
					}
				}
				switch w[0] {
				case 0x41: // isa.familyB-dtype-nibbles: both nibbles equal in every real word
					if w[0x0C]>>4 != w[0x0C]&0x0F {
						t.Logf("%s: TensorTensor dtype nibbles %#x differ", at, w[0x0C])
					}
				case 0x01: // isa.ldweights-slots
					for _, c := range w[0x30:] {
						if c != 0 {
							t.Errorf("%s: Ldweights +0x30.. not zero", at)
							break
						}
					}
				case 0x49: // isa.memset-out-rank: +0x1C = out count[0] (+0x38)
					if w[0x1C] != w[0x38] || w[0x1D] != w[0x39] || w[0x1E]|w[0x1F] != 0 {
						t.Errorf("%s: Memset count % x vs out count[0] % x", at, w[0x1C:0x20], w[0x38:0x3A])
					}
				case 0x47: // isa.familyC-control-band: a Cast changes the dtype
					if w[0x20] == w[0x21] {
						t.Errorf("%s: Cast with in dtype = out dtype", at)
					}
				case 0x46:
					if w[0x20] != w[0x21] {
						t.Errorf("%s: Copy with in dtype != out dtype", at)
					}
				case 0x42: // isa.reduce-op
					if w[0x24] != 8 {
						t.Errorf("%s: reduce op %#x", at, w[0x24])
					}
				case 0xD4: // isa.direct2d-addresses: tags 0x10 / 0x20
					for _, tag := range []byte{w[0x17], w[0x2F]} {
						if tag != DmaTagVar && tag != DmaTagDGE && tag != DmaTagDGEReg {
							t.Errorf("%s: Direct2d tag %#x", at, tag)
						}
					}
				case 0xA0: // isa.event-semaphore-second-band
					if w[0x20] != 0 && (w[0x20] != 0x05 || w[0x22]|w[0x23] != 0) {
						t.Errorf("%s: second band % x", at, w[0x20:0x28])
					}
				case 0x21: // isa.activate-scale: every real scale reads as a float, scale source 0
					if w[0x0D] != 0 {
						t.Errorf("%s: scale source %#x", at, w[0x0D])
					}
					if !ScaleIsFloat(uint32(w[0x24]) | uint32(w[0x25])<<8 | uint32(w[0x26])<<16 | uint32(w[0x27])<<24) {
						t.Logf("%s: address-shaped scale % x", at, w[0x24:0x28])
					}
				}
			}
		}
	}
	if words == 0 {
		t.Fatal("no real words")
	}
}
