package timeline

import (
	"testing"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/sched"
)

// FuzzEstimate runs the estimate on crafted streams: the fuzzer's bytes are cut into the five
// engines' words (the first byte of each 64 says which engine takes it), rebuilt as a profile's
// images would be (InputFromImages: 0xB8 back to 0xD4, inserted words folded into 0xC1s, the
// block semaphores inferred), and estimated under a small budget. No panic, every row inside
// the span, nothing charged past the budget.
func FuzzEstimate(f *testing.F) {
	f.Add(stream(op(0xB1), matmul(128, 5), w{op: 0x46, waitSem: 5, waitVal: 1, inc: 6}), uint8(0), uint8(0))
	f.Add(stream(op(0xB1), direct2d(24, 128, 256), direct2d(25, 65535, 65535), w{op: 0x46, waitSem: 25, waitVal: 16, inc: -1}), uint8(1), uint8(2))
	f.Add(stream(w{op: 0xA4, waitSem: 6, waitVal: 1, inc: 5}, w{op: 0xA4, waitSem: 5, waitVal: 1, inc: 6}), uint8(3), uint8(1))
	f.Add(stream(op(0xA5), op(0xA5), w{op: 0xA0, waitSem: 40, waitVal: 4000000000, inc: -1}), uint8(2), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, pre, ins uint8) {
		var words [5][]byte
		for i := 0; i+64 <= len(data) && i < 64*4096; i += 64 {
			k := int(data[i+2]) % 5
			words[k] = append(words[k], data[i:i+64]...)
		}
		var images []Image
		for k, ws := range words {
			n := len(ws) / 64
			im := Image{Engine: imageEngines[k], Words: ws, Preamble: min(int(pre)%4, n)}
			if n > im.Preamble+1 {
				im.Inserted = []int{im.Preamble + int(ins)%(n-im.Preamble-1)}
				im.Removed = []int{im.Preamble}
			}
			images = append(images, im)
		}
		in, _ := InputFromImages("sg00", images, []ImageQueue{{Name: "qDVESpillReload0", Blocks: 4}, {Name: "qPoolDynamic"}, {Name: "qSPIO0", Blocks: 2}})
		b := budget.New(budget.Limits{Memory: 8 << 20})
		model := sched.Build([]sched.CoreInput{in}, b)
		s := Estimate(Input{Model: model, Cores: []sched.CoreInput{in}, Target: "cayman"}, b)
		if b.Used(budget.Memory) > b.Limit(budget.Memory) {
			t.Fatalf("charged %d past the limit %d", b.Used(budget.Memory), b.Limit(budget.Memory))
		}
		for _, cs := range s.Cores {
			first := int64(-1)
			for k := range cs.Engines {
				for _, st := range cs.Engines[k].Start {
					if st >= 0 && (first < 0 || st < first) {
						first = st
					}
				}
			}
			for k := range cs.Engines {
				es := &cs.Engines[k]
				for i, st := range es.Start {
					if st >= 0 && (st < first || es.End(i)-first > cs.SpanPS) {
						t.Fatalf("%s #%d [%d, %d] outside the span %d from %d", es.Name, i, st, es.End(i), cs.SpanPS, first)
					}
				}
			}
		}
		if e := s.Estimated(); len(e.Cores) != len(s.Cores) {
			t.Fatal("cores lost")
		}
	})
}
