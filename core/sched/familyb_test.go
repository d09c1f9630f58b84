package sched_test

import (
	"testing"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/sched"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// Family B's output is its last slot (isa.familyB-output, sched.familyB-slots): in every real
// TensorTensorArithOp (0x41), no access other than a TensorTensor's writes the bytes of +0x30
// at an earlier step, while such accesses write the bytes of +0x10 or +0x20 before some; the
// bytes of +0x30 are read at a later step after every one. The listing (core/isa) and the
// memory model name the slots alike.
func TestFamilyBOutputIsTheLastSlot(t *testing.T) {
	names := map[int]string{}
	for _, f := range isa.FixedFieldsOf(0x41) {
		if f.Width == 16 {
			names[f.Off] = f.Name
		}
	}
	if names[0x10] != "in0" || names[0x20] != "in1" || names[0x30] != "dst" {
		t.Fatalf("isa names 0x41's slots %v", names)
	}
	paths := realfiles.Glob("*/*.neff")
	if realfiles.SharedDir() == "" {
		t.Skip("needs NEFFs with TensorTensorArithOp words, which the repository's matmul_small.neff lacks: ../shared/testdata-real/ is not beside the clone")
	}
	overlap := func(c *sched.Core, a, b *sched.Access) bool {
		if a.Space != b.Space {
			return false
		}
		for _, x := range c.Boxes[a.BoxFrom:a.BoxTo] {
			for _, y := range c.Boxes[b.BoxFrom:b.BoxTo] {
				for i := uint32(0); i < max(x.Count, 1); i++ {
					for j := uint32(0); j < max(y.Count, 1); j++ {
						xo, yo := x.Offset+i*x.Stride, y.Offset+j*y.Stride
						if x.Partition < y.Partition+y.Parts && y.Partition < x.Partition+x.Parts && xo < yo+y.Bytes && yo < xo+x.Bytes {
							return true
						}
					}
				}
			}
		}
		return false
	}
	var words, inputsWritten, outputsWritten, outputsRead int
	for _, p := range paths {
		m := openPath(t, p).Memmap()
		for _, c := range m.Cores {
			step := func(a *sched.Access) int32 { return c.Engines[a.At.Engine].Step(int(a.At.Index)) }
			isTT := func(a *sched.Access) bool { return !a.DMA && c.Engines[a.At.Engine].Opcode(int(a.At.Index)) == 0x41 }
			for i := 0; i < len(c.Accesses); i++ {
				a := &c.Accesses[i]
				if !isTT(a) {
					continue
				}
				slots := c.Accesses[i : i+3]
				i += 2
				if slots[2].At != a.At || slots[0].Write || slots[1].Write || !slots[2].Write {
					t.Fatalf("%s %s: TensorTensor accesses %+v", p, c.Ref(a.At), slots)
				}
				words++
				s := step(a)
				var inWritten, outWritten, outRead bool
				for k := range c.Accesses {
					o := &c.Accesses[k]
					if o.At == a.At && !o.DMA {
						continue
					}
					switch so := step(o); {
					case so < s && o.Write && !isTT(o):
						inWritten = inWritten || overlap(c, o, &slots[0]) || overlap(c, o, &slots[1])
						outWritten = outWritten || overlap(c, o, &slots[2])
					case so > s && !o.Write:
						outRead = outRead || overlap(c, o, &slots[2])
					}
				}
				if outWritten {
					t.Errorf("%s %s: a non-TensorTensor wrote +0x30's bytes before it", p, c.Ref(a.At))
					outputsWritten++
				}
				if inWritten {
					inputsWritten++
				}
				if !outRead {
					t.Errorf("%s %s: nothing reads +0x30's bytes after it", p, c.Ref(a.At))
				} else {
					outputsRead++
				}
			}
		}
	}
	t.Logf("%d TensorTensor words: +0x10/+0x20 written before by another engine or DMA in %d, +0x30 in %d; +0x30 read after in %d", words, inputsWritten, outputsWritten, outputsRead)
	if words == 0 && realfiles.SharedDir() == "" {
		// A clone alone has matmul_small, which has no TensorTensor.
		t.Skip("no TensorTensor word: " + realfiles.Missing("cs149-trn1/stream_256k_fd1k.neff"))
	}
	if words == 0 || inputsWritten == 0 {
		t.Fatal("nothing checked")
	}
}
