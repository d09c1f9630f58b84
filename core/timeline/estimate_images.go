package timeline

import (
	"sort"
	"strings"

	"github.com/neffscope/neffscope/core/isa"
	"github.com/neffscope/neffscope/core/manifest"
	"github.com/neffscope/neffscope/core/ntff"
	"github.com/neffscope/neffscope/core/sched"
)

// The estimate from a device profile's loaded images, without the NEFF (spec ntff.md §4.5):
// each engine's image is the runtime's program (preamble, the NEFF stream with its
// pseudo-instructions lowered, postamble), and its edit list says where the runtime inserted
// and removed words. From them the compiler's stream is rebuilt word for word, except what
// the lowering threw away:
//
//   - a PseudoDMATrigger (0xC1) runs as two 0xA5 words that carry neither its queue nor its
//     block id, and the block's semaphore lives in the engine JSON, which a profile does not
//     hold. The queue is the profile's static queue named after the engine [GUESS]; the
//     semaphore is inferred (inferBlockSemaphores) and the block's size is not known (costed
//     as one small element: Unmodelled.DMAUnsized);
//   - a PseudoDmaDirect2d (0xD4) runs as a 0xB8 with the same layout but relocated addresses
//     [MEAS: attn_v6, 344/344 words]: the opcode is put back;
//   - a PseudoBranchLabel (0xCC) is dropped (edit kind 2): an empty one is put back.

// Image is one engine's loaded image as a profile holds it.
type Image struct {
	Engine string // PE, Activation, Pool, DVE, SP
	Words  []byte // the image, 64-byte words
	// Preamble and Postamble are the runtime's words before the NEFF's first and after its
	// last; Inserted the positions of runtime words inserted in the program (the first word
	// of a lowered 0xC1); Removed the positions at which a compiler word was dropped.
	Preamble, Postamble int
	Inserted, Removed   []int
}

// ImageQueue is one DMA queue a profile's header lists for the core (one entry per queue,
// whatever its number of rings): Blocks is its count of static DMA blocks (0 for a dynamic
// queue).
type ImageQueue struct {
	Name   string
	Blocks int
}

// ImageNotes says what rebuilding the compiler's streams from images had to guess.
type ImageNotes struct {
	// Triggers is the 0xC1 count; Inferred how many got a semaphore from
	// inferBlockSemaphores; Unresolved the semaphores waited on that nothing was found to
	// update.
	Triggers, Inferred int
	Unresolved         []int32
}

var engineTokens = map[string]string{"PE": "pe", "Activation": "act", "Pool": "pool", "DVE": "dve", "SP": "sp"}

// queueOwnerNames are the names a queue's name carries for its owner engine [GUESS: the
// shared profiles' qDVESpillReload0, qPoolIO0, qPoolDynamic, qSPIO0, qSPDynamicHW, qActTable,
// qDveTable].
var queueOwnerNames = map[string][]string{"PE": {"PE"}, "Activation": {"Act"}, "Pool": {"Pool"}, "DVE": {"DVE", "Dve"}, "SP": {"SP"}}

// InputFromImages rebuilds one core's compiler streams and the manifests the sync model
// needs from a profile's images and queues.
func InputFromImages(core string, images []Image, queues []ImageQueue) (sched.CoreInput, ImageNotes) {
	mc := &manifest.Core{Name: core, Dir: core}
	in := sched.CoreInput{Core: mc}
	var notes ImageNotes
	words := make([][]byte, len(images))
	for k, im := range images {
		words[k] = compilerWords(im, staticQueueOf(im.Engine, queues))
		e := &manifest.Engine{Token: engineTokens[im.Engine], Name: im.Engine, StreamPath: core + "/" + im.Engine + ".bin"}
		mc.Engines = append(mc.Engines, e)
	}
	notes.Triggers = 0
	for k := range images {
		for i := 0; i+isa.WordSize <= len(words[k]); i += isa.WordSize {
			if words[k][i] == 0xC1 {
				notes.Triggers++
			}
		}
	}
	// Dynamic queues: a 0xD4's +0x0D names one of its engine's dynamic queue semaphores.
	for k, im := range images {
		sems := direct2dSemaphores(words[k])
		if len(sems) == 0 {
			continue
		}
		for _, q := range queues {
			if q.Blocks == 0 && ownedBy(q.Name, im.Engine) {
				mc.Queues = append(mc.Queues, &manifest.Queue{Name: q.Name, Type: "dynamic", Owner: engineTokens[im.Engine], Semaphores: sems, Dynamic: true})
				break
			}
		}
	}
	sems, unresolved := inferBlockSemaphores(images, words)
	notes.Unresolved = unresolved
	for k, im := range images {
		q := staticQueueOf(im.Engine, queues)
		for j, s := range sems[k] {
			mc.Engines[k].DMABlocks = append(mc.Engines[k].DMABlocks, &manifest.DMABlock{Index: j, ID: int64(j), Queue: q, Semaphore: int64(s)})
			if s >= 0 {
				notes.Inferred++
			}
		}
		in.Streams = append(in.Streams, sched.StreamInput{Engine: mc.Engines[k], Member: mc.Engines[k].StreamPath, ISA: isa.NewStream(mc.Engines[k].StreamPath, words[k])})
	}
	return in, notes
}

func ownedBy(queue, engine string) bool {
	for _, n := range queueOwnerNames[engine] {
		if strings.Contains(queue, n) {
			return true
		}
	}
	return false
}

// staticQueueOf is the static queue (one with blocks) named after the engine ("" if none or
// several).
func staticQueueOf(engine string, queues []ImageQueue) string {
	found := ""
	for _, q := range queues {
		if q.Blocks > 0 && ownedBy(q.Name, engine) {
			if found != "" && found != q.Name {
				return ""
			}
			found = q.Name
		}
	}
	return found
}

// compilerWords rebuilds an engine's compiler stream from its image: the program part, with
// the removed labels put back, each inserted word folded with the one after it into a 0xC1
// (block id = its ordinal, queue = queue), and every 0xB8 back to 0xD4.
func compilerWords(im Image, queue string) []byte {
	n := len(im.Words) / isa.WordSize
	from, to := im.Preamble, n-im.Postamble
	if from < 0 || to > n || from > to {
		return nil
	}
	inserted := map[int]bool{}
	for _, p := range im.Inserted {
		inserted[p] = true
	}
	removed := append([]int(nil), im.Removed...)
	sort.Ints(removed)
	out := make([]byte, 0, (to-from+len(removed))*isa.WordSize)
	var label [isa.WordSize]byte
	label[0], label[1] = 0xCC, 0x10
	blocks := 0
	r := 0
	for p := from; p < to; p++ {
		for r < len(removed) && removed[r] <= p {
			out = append(out, label[:]...)
			r++
		}
		w := im.Words[p*isa.WordSize : (p+1)*isa.WordSize]
		if inserted[p] && p+1 < to {
			out = append(out, trigger(w, queue, blocks)...)
			blocks++
			p++ // the second word of the pair is the same instruction
			continue
		}
		k := len(out)
		out = append(out, w...)
		if w[0] == 0xB8 {
			out[k] = 0xD4
		}
	}
	return out
}

// trigger is the 0xC1 a lowered pair came from: the first word's sync band (it carries the
// wait: ntff.md §4.2), the queue name at +0x0C and the block id at +0x30 (neff.md §4.5).
func trigger(first []byte, queue string, block int) []byte {
	w := make([]byte, isa.WordSize)
	w[0], w[1] = 0xC1, 0x10
	copy(w[4:12], first[4:12])
	copy(w[0x0C:0x2C], queue)
	w[0x30], w[0x31] = byte(block), byte(block>>8)
	return w
}

func direct2dSemaphores(words []byte) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for i := 0; i+isa.WordSize <= len(words); i += isa.WordSize {
		if words[i] == 0xD4 {
			s := int64(words[i+0x0D])
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a] < out[b] })
	return out
}

// blockIncrement is what a completed 0xC1 block adds to its semaphore (neff.md §8.3).
const blockIncrement = 16

// inferBlockSemaphores gives each engine's 0xC1 triggers, in program order, a semaphore
// [GUESS, checked on attn_v6 against the engine JSON: 20/20]: the semaphores that are waited
// on but that no word updates (only DMA blocks can) fall into runs of consecutive numbers; a
// run needs, per semaphore, its largest wait value / 16 blocks; a run goes to the trigger
// engine whose trigger count equals what it needs (else the one with the fewest spare
// triggers), and within it trigger j updates the run's semaphore j mod len (the compiler
// deals a queue's semaphores round robin: attn_v6 DVE.json blocks 0–19 use 24, 25, …, 39,
// 24, …). Unresolved are the runs no engine could take.
func inferBlockSemaphores(images []Image, words [][]byte) (sems [][]int32, unresolved []int32) {
	updated := map[int32]bool{}
	need := map[int32]uint32{}
	triggers := make([]int, len(images))
	for k := range images {
		w := words[k]
		for i := 0; i+isa.WordSize <= len(w); i += isa.WordSize {
			word := w[i : i+isa.WordSize]
			bands := [][]byte{word[4:12]}
			if word[0] == 0xA0 {
				bands = append(bands, word[0x20:0x28])
			}
			for _, b := range bands {
				if b[0] == 0x05 {
					v := uint32(b[4]) | uint32(b[5])<<8 | uint32(b[6])<<16 | uint32(b[7])<<24
					need[int32(b[1])] = max(need[int32(b[1])], v)
				}
				if b[2] == 0x13 {
					updated[int32(b[3])] = true
				}
			}
			switch word[0] {
			case 0xD4:
				updated[int32(word[0x0D])] = true
			case 0xC1:
				triggers[k]++
			}
		}
	}
	var free []int32
	for s := range need {
		if !updated[s] {
			free = append(free, s)
		}
	}
	sort.Slice(free, func(a, b int) bool { return free[a] < free[b] })
	var runs [][]int32
	for i, s := range free {
		if i == 0 || s != free[i-1]+1 {
			runs = append(runs, nil)
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], s)
	}
	sems = make([][]int32, len(images))
	for k := range sems {
		sems[k] = make([]int32, triggers[k])
		for j := range sems[k] {
			sems[k][j] = -1
		}
	}
	taken := make([]bool, len(images))
	for _, run := range runs {
		blocks := 0
		for _, s := range run {
			blocks += int((need[s] + blockIncrement - 1) / blockIncrement)
		}
		best := -1
		for k, n := range triggers {
			if taken[k] || n < blocks {
				continue
			}
			if best < 0 || n == blocks || (triggers[best] != blocks && n < triggers[best]) {
				if best >= 0 && triggers[best] == blocks {
					continue
				}
				best = k
			}
		}
		if best < 0 {
			unresolved = append(unresolved, run...)
			continue
		}
		taken[best] = true
		for j := range sems[best] {
			sems[best][j] = run[j%len(run)]
		}
	}
	return sems, unresolved
}

// imageEngines are the engine names of a profile's image entries, by header engine index
// (spec ntff.md §2.3).
var imageEngines = [...]string{"PE", "Activation", "Pool", "DVE", "SP"}

// ProfileInput rebuilds core k of a profile read alone into what the estimate runs on
// (InputFromImages), and lays its measured times out by compiler instruction: each
// instruction's first word's start and last word's end (a lowered 0xC1's inserted word is
// its first), and each engine's busy time over the program's words. A core whose images do
// not lay out (no edit list) is left out (ok false).
func ProfileInput(p *ntff.Profile, t *ntff.Measurement, k int) (in sched.CoreInput, notes ImageNotes, m *MeasuredCore, ok bool) {
	if p == nil || t == nil || k >= len(p.Cores) || k >= len(t.Cores) {
		return in, notes, nil, false
	}
	c, ct := p.Cores[k], t.Cores[k]
	m = &MeasuredCore{Core: c.Name}
	var images []Image
	for j, im := range c.Images {
		if im.Engine < 0 || im.Engine >= len(imageEngines) {
			continue
		}
		l := im.Layout()
		if l.Problem != "" {
			return in, notes, nil, false
		}
		words, err := p.ReadWords(im, 0, im.Words)
		if err != nil {
			return in, notes, nil, false
		}
		name := imageEngines[im.Engine]
		images = append(images, Image{Engine: name, Words: words, Preamble: l.Preamble, Postamble: l.Postamble, Inserted: l.Inserted, Removed: l.Removed})
		var et *ntff.EngineTimes
		if j < len(ct.Engines) {
			et = ct.Engines[j]
		}
		m.Engines = append(m.Engines, measuredByCompiler(name, im.Words, l, et))
	}
	var queues []ImageQueue
	seen := map[string]bool{}
	for _, r := range c.Rings {
		if !seen[r.Name] {
			seen[r.Name] = true
			queues = append(queues, ImageQueue{Name: r.Name, Blocks: r.Blocks})
		}
	}
	in, notes = InputFromImages(c.Name, images, queues)
	return in, notes, m, true
}

// measuredByCompiler is one engine's traced words laid out by compiler instruction index.
func measuredByCompiler(name string, words int, l ntff.Layout, et *ntff.EngineTimes) MeasuredEngine {
	me := MeasuredEngine{Engine: name, Instructions: l.Compiler, Rows: []MeasuredRow{}}
	if et == nil {
		return me
	}
	inserted := map[int]bool{}
	for _, p := range l.Inserted {
		inserted[p] = true
	}
	removed := append([]int(nil), l.Removed...)
	sort.Ints(removed)
	from, to := l.Preamble, words-l.Postamble
	idx, r := 0, 0
	var row MeasuredRow
	open := false
	for pos := from; pos < to; pos++ {
		for r < len(removed) && removed[r] <= pos {
			idx++
			r++
		}
		s, e, traced := et.Span(pos)
		if traced {
			if !open {
				row, open = MeasuredRow{Index: int32(idx), StartPS: s, EndPS: e}, true
			} else {
				row.StartPS, row.EndPS = min(row.StartPS, s), max(row.EndPS, e)
			}
		}
		if inserted[pos] {
			continue // the first word of a lowered 0xC1: the instruction goes on
		}
		if open {
			me.Rows = append(me.Rows, row)
			open = false
		}
		idx++
	}
	me.Timed = len(me.Rows)
	u := et.Busy(func(pos int) bool { return pos >= from && pos < to }, nil)
	me.BusyPS = u.Length()
	u.Release()
	return me
}
