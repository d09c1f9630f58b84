package timeline

import (
	"bytes"
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/ntff/ntffbuild"
)

// recordsSpec is a profile whose Pool image runs two triggers (0xB8 at positions 2 and 3, the
// compiler's label between them removed): a kind-2 record for each, and two transfers on qPoolDynamic over two
// DMA engines, each a data packet and then its 4-byte semaphore write (the second transfer's
// on engine 1 folded into a 12-byte packet).
func recordsSpec() ntffbuild.Spec {
	s := ntffbuild.Sample()
	ring := uint64(0x8005C0420000)
	base := uint32(ring>>6) & (1<<20 - 1)
	dge := func(pos int, t uint64) ntffbuild.Record {
		return ntffbuild.Record{A: 1<<31 | 3<<26 | 2<<24 | 1<<20 | (base+uint32(pos))&(1<<20-1), T: t}
	}
	s.Cores[0].Images = append(s.Cores[0].Images, ntffbuild.Image{Engine: 2, Ring: ring, Preamble: 2, Postamble: 1, Removed: []int{3},
		Words: [][]byte{ntffbuild.Word(0xA6, 0), ntffbuild.Word(0xB1, 1), ntffbuild.Word(0xB8, 2), ntffbuild.Word(0xB8, 3), ntffbuild.Word(0xA9, 4)}})
	s.Sections[0].Records = append(s.Sections[0].Records, dge(2, 1_000_001_000), dge(3, 1_000_002_000), dge(9, 1_000_003_000))
	pkt := func(eng, bytes uint32, start, end uint64) []ntffbuild.Record {
		return []ntffbuild.Record{{A: 1<<31 | eng<<24, B: 1<<4 | 1, T: start}, {A: 1<<31 | eng<<24 | bytes, B: 1<<4 | 5, T: start + 1}, {A: 1<<31 | eng<<24, B: 1<<4 | 6, T: end}}
	}
	var dma []ntffbuild.Record
	for _, p := range [][]ntffbuild.Record{
		pkt(0, 2048, 100, 400), pkt(0, 4, 150, 500), pkt(0, 2048, 600, 900), pkt(0, 4, 650, 1000),
		pkt(1, 2048, 120, 420), pkt(1, 4, 170, 550), pkt(1, 12, 580, 1100),
	} {
		dma = append(dma, p...)
	}
	s.Sections[2].Records = dma
	return s
}

// ReadRecords ties each kind-2 record to the compiler instruction at its position (the edit
// list's removed label counted back in; a position outside the program is dropped) and forms
// each queue's transfers from its rings, a transfer ending with its semaphore write.
func TestReadRecords(t *testing.T) {
	b := ntffbuild.Bytes(recordsSpec())
	bud := budget.New(budget.Limits{Memory: 1 << 20})
	p := ntff.Read("records.ntff", bytes.NewReader(b), int64(len(b)), bud)
	r := ReadRecords(p, 0, bud)
	if r == nil {
		t.Fatal("no records")
	}
	// Positions 2 and 3 run compiler instructions 0 and 2 (the label, #1, was removed); 9 is past the image.
	if h := r.HandOver["Pool"]; len(h) != 2 || h[0] != 1_000_001_000 || h[2] != 1_000_002_000 {
		t.Errorf("Pool hand-overs %v, want #0 at 1,000,001,000 and #2 at 1,000,002,000", h)
	}
	want := []TransferTimes{{100, 550}, {580, 1100}}
	if got := r.Transfers["qPoolDynamic"]; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("qPoolDynamic transfers %v, want %v", got, want)
	}
}

// FuzzReadRecords reads the records of any bytes a profile reader accepts: no panic, nothing
// charged past the budget.
func FuzzReadRecords(f *testing.F) {
	f.Add(ntffbuild.Bytes(recordsSpec()))
	f.Add(ntffbuild.Bytes(ntffbuild.Sample()))
	f.Fuzz(func(t *testing.T, b []byte) {
		bud := budget.New(budget.Limits{Memory: 1 << 20})
		p := ntff.Read("fuzz.ntff", bytes.NewReader(b), int64(len(b)), bud)
		for k := range p.Cores {
			ReadRecords(p, k, bud)
		}
		if bud.Used(budget.Memory) > bud.Limit(budget.Memory) {
			t.Fatalf("charged %d past the limit %d", bud.Used(budget.Memory), bud.Limit(budget.Memory))
		}
	})
}
