package timeline

import (
	"bytes"
	"slices"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/ntff"
)

// imageCursor reads a loaded image's words a window at a time.
type imageCursor struct {
	p        *ntff.Profile
	im       *ntff.Image
	from, to int
	buf      []byte
	err      error
}

const cursorWords = 1024

// word is image word i (nil past the image or on a read error).
func (c *imageCursor) word(i int) []byte {
	if i < 0 || i >= c.im.Words {
		return nil
	}
	if i < c.from || i >= c.to {
		b, err := c.p.ReadWords(c.im, i, i+cursorWords)
		if err != nil {
			c.err = err
			return nil
		}
		c.buf, c.from, c.to = b, i, i+len(b)/ntff.WordSize
	}
	k := (i - c.from) * ntff.WordSize
	return c.buf[k : k+ntff.WordSize]
}

// join maps each NEFF instruction of ps to the words of its loaded image (spec ntff.md §4.1,
// §4.2): the preamble's length from the edit list, then a walk of the NEFF stream by the
// lowering rules, each word checked against the image (a word without a rule byte for byte,
// a lowered one by its opcodes); the walk must end where the postamble starts and agree with
// the edit list (§5 check 4). A mismatch stops the join of that stream at that word.
func (j *joiner) join(ps *inspect.ProgramStream, e *ntff.EngineTimes) *StreamTimes {
	im := e.Image
	st := &StreamTimes{Core: ps.Core.Name, Engine: ps.Engine.Name, Member: ps.Member, image: im, times: e, joinedTo: -1}
	n := int(ps.Count)
	if ps.ISA != nil {
		n = ps.ISA.Len()
	}
	j.m.Checks.Image.Streams++
	cost := int64(n)*24 + int64(im.Words)*4
	if !j.b.Take(budget.Memory, cost, "the join of "+ps.Member) {
		j.flag(doc.CodeNTFFLimit, doc.Error, im.Span, "the join of %s needs %d bytes, more than the memory budget leaves: it is not joined. Raise the limit: neffscope %s N.", ps.Member, cost, budget.Memory.Flag())
		return st
	}
	st.Start, st.End, st.first, st.ops = make([]uint64, n), make([]uint64, n), make([]int32, n), make([]uint8, n)
	st.owner = make([]int32, im.Words)
	for i := range st.first {
		st.first[i] = -1
	}
	for i := range st.owner {
		st.owner[i] = -1
	}
	if ps.ISA == nil {
		j.flag(doc.CodeNTFFCoreMismatch, doc.Warning, nil, "%s is not read, so its instructions are not joined to the %s image.", ps.Member, ps.Engine.Name)
		return st
	}
	l := im.Layout()
	if l.Problem != "" {
		j.flag(doc.CodeNTFFEditList, doc.Warning, im.Span, "the %s %s image's edit list cannot be read: %s. Its words are not joined to %s.", ps.Core.Name, ps.Engine.Name, l.Problem, ps.Member)
		return st
	}
	w := &walker{st: st, cur: &imageCursor{p: j.r.Profile, im: im}, pos: l.Preamble, end: im.Words - l.Postamble}
	for i, word := range ps.ISA.Words() {
		if !w.step(ps, i, word) {
			break
		}
	}
	if err := ps.ISA.Err(); err != nil && w.bad == "" {
		w.bad = "the stream could not be read to its end (" + err.Error() + ")"
	}
	if w.cur.err != nil && w.bad == "" {
		w.bad = "the image could not be read (" + w.cur.err.Error() + ")"
	}
	j.m.Checks.Image.Words += w.compared
	switch {
	case w.bad != "":
		j.m.Checks.Image.Mismatched++
		j.flag(doc.CodeNTFFImageMismatch, doc.Error, im.Span, "%s #%d against the %s %s image at position %d: %s. The instructions from there on are not joined (spec ntff.md §4.2 lowering rules).", ps.Member, w.badAt, ps.Core.Name, ps.Engine.Name, w.pos, w.bad)
	case w.pos != w.end:
		j.m.Checks.Image.Mismatched++
		j.flag(doc.CodeNTFFEditList, doc.Warning, im.Span, "the walk of %s by the lowering rules ends at image position %d, but the %s %s image's edit list puts the postamble at %d: the join may be off.", ps.Member, w.pos, ps.Core.Name, ps.Engine.Name, w.end)
	default:
		j.m.Checks.Image.Joined++
		if !slices.Equal(w.removed, l.Removed) || !slices.Equal(w.inserted, l.Inserted) {
			j.flag(doc.CodeNTFFEditList, doc.Warning, im.Span, "the %s %s image's edit list names removed words at %v and inserted ones at %v; the walk of %s finds %v and %v. The walk is followed.", ps.Core.Name, ps.Engine.Name, l.Removed, l.Inserted, ps.Member, w.removed, w.inserted)
		}
	}
	st.joinedTo = w.joinedTo
	j.times(st)
	return st
}

// walker walks one NEFF stream against its loaded image.
type walker struct {
	st                *StreamTimes
	cur               *imageCursor
	pos, end          int
	removed, inserted []int
	skipNext          bool
	compared          int
	joinedTo          int
	bad               string
	badAt             int
}

// step maps NEFF word i (word); false stops the walk at a mismatch.
func (w *walker) step(ps *inspect.ProgramStream, i int, word []byte) bool {
	w.joinedTo = i - 1
	w.st.ops[i] = word[0]
	if w.skipNext { // the 0xDA of a 0xD4 pair: the pair's words are the 0xD4's row
		w.skipNext = false
		w.joinedTo = i
		return true
	}
	op := word[0]
	ext := op == 0xD4 && ps.ISA.PartOf(i+1) == i
	rule := lowerOf(op, ext)
	if rule == nil {
		iw := w.cur.word(w.pos)
		if w.pos >= w.end || iw == nil || !bytes.Equal(iw, word) {
			w.bad, w.badAt = "the image word differs from the NEFF word", i
			if w.pos >= w.end {
				w.bad = "the NEFF stream runs past the image's program part"
			}
			return false
		}
		w.compared++
		w.own(i, 0)
		w.joinedTo = i
		return true
	}
	if rule.Removed {
		w.removed = append(w.removed, w.pos)
	}
	if rule.Inserted {
		w.inserted = append(w.inserted, w.pos)
	}
	for k, want := range rule.Runs {
		iw := w.cur.word(w.pos)
		if w.pos >= w.end || iw == nil || iw[0] != want {
			w.bad, w.badAt = "the NEFF's "+opName(op)+" should run as 0x"+hex2(want)+" here", i
			return false
		}
		w.compared++
		w.own(i, k)
	}
	w.skipNext = ext
	w.joinedTo = i
	return true
}

// own gives the current position to instruction i (its k-th word) and moves on.
func (w *walker) own(i, k int) {
	w.st.owner[w.pos] = int32(i)
	if k == 0 {
		w.st.first[i] = int32(w.pos)
	}
	w.pos++
}

// times sets each instruction's start (its words' earliest start) and end (their latest end).
func (j *joiner) times(st *StreamTimes) {
	for pos, i := range st.owner {
		if i < 0 {
			continue
		}
		s, e, ok := st.times.Span(pos)
		if !ok {
			continue
		}
		if st.End[i] == 0 {
			st.Start[i], st.End[i] = s, e
			continue
		}
		st.Start[i], st.End[i] = min(st.Start[i], s), max(st.End[i], e)
	}
}

// joinedEngine is the contract's engine of a joined stream: a row per timed instruction, busy
// as the union of the intervals of the words that come from NEFF instructions.
func (j *joiner) joinedEngine(st *StreamTimes, ps *inspect.ProgramStream) MeasuredEngine {
	me := MeasuredEngine{Engine: ps.Engine.Name, Instructions: len(st.End), Rows: []MeasuredRow{}}
	if st.owner == nil {
		return me
	}
	if j.rows(int64(len(st.End))) {
		for i := range st.End {
			if st.Timed(i) {
				me.Rows = append(me.Rows, MeasuredRow{Index: int32(i), StartPS: st.Start[i], EndPS: st.End[i]})
			} else if len(me.Untimed) < untimedListed {
				me.Untimed = append(me.Untimed, Untimed{Index: int32(i), Reason: st.why(i)})
			}
		}
	}
	me.Timed = len(me.Rows)
	u := st.times.Busy(func(pos int) bool { return st.owner[pos] >= 0 }, j.b)
	me.BusyPS = u.Length()
	me.SpanPS, me.IdlePS, me.Gaps = spanAndGaps(u.Segments())
	u.Release()
	l := st.image.Layout()
	me.Runtime = j.runtime(st.times, l, func(pos int) bool { return pos >= l.Preamble && pos < st.image.Words-l.Postamble })
	return me
}

// why says why instruction i has no row.
func (st *StreamTimes) why(i int) string {
	switch {
	case i > st.joinedTo:
		return UntimedUnjoined
	case st.first[i] < 0:
		return UntimedDropped
	}
	return UntimedNoRecord
}

func hex2(b uint8) string {
	const d = "0123456789ABCDEF"
	return string([]byte{d[b>>4], d[b&15]})
}

func opName(op uint8) string { return "0x" + hex2(op) }
