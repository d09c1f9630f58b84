package ntff

import "github.com/neffscope/neffscope/core/budget"

// Interval is [Start, End] in picoseconds.
type Interval struct{ Start, End uint64 }

// Union keeps the union of intervals added in any order, holding only the disjoint segments
// (a queue busy in bursts holds one segment per burst, not one per packet). Intervals arrive
// nearly sorted (each DMA engine's records, each engine's words in program order): a run of
// sorted intervals is merged in place; a run that ends (a start earlier than the last
// segment's) is set aside on a stack of sorted lists merged like a binary counter, so any
// order costs O(n log n) and what is held is the segments, charged to the budget (16 B each).
type Union struct {
	cur     []Interval
	stack   [][]Interval
	held    int64 // segments held (cur + stack)
	charged int64
	b       *budget.Budget
	where   string
	// Cut is set when the budget refused more segments: the union is then a lower bound.
	Cut bool
}

// NewUnion returns an empty union charging b (nil: not charged) for what it holds.
func NewUnion(b *budget.Budget, where string) *Union { return &Union{b: b, where: where} }

const segmentBytes = 16

func (u *Union) grow() bool {
	if u.Cut {
		return false
	}
	u.held++
	if u.held > u.charged {
		step := max(1024, u.charged/4)
		if !u.b.Take(budget.Memory, step*segmentBytes, u.where) {
			u.held--
			u.Cut = true
			return false
		}
		u.charged += step
	}
	return true
}

// Add adds [s, e] (an interval with e < s is ignored).
func (u *Union) Add(s, e uint64) {
	if e < s {
		return
	}
	if n := len(u.cur); n > 0 {
		last := &u.cur[n-1]
		if s >= last.Start {
			if s <= last.End {
				last.End = max(last.End, e)
				return
			}
			if u.grow() {
				u.cur = append(u.cur, Interval{s, e})
			}
			return
		}
		// The run is set aside as a copy of its length; its room is kept for the next run
		// (a run broken at every burst grew from nothing each time).
		u.push(append([]Interval(nil), u.cur...))
		u.cur = u.cur[:0]
	}
	if u.grow() {
		u.cur = append(u.cur, Interval{s, e})
	}
}

// push sets a sorted run aside, merging with the stack's top while the top is no bigger.
func (u *Union) push(l []Interval) {
	for len(u.stack) > 0 && len(u.stack[len(u.stack)-1]) <= 2*len(l) {
		top := u.stack[len(u.stack)-1]
		u.stack = u.stack[:len(u.stack)-1]
		m := merge(top, l)
		u.held -= int64(len(top) + len(l) - len(m))
		l = m
	}
	u.stack = append(u.stack, l)
}

// merge unions two sorted lists of disjoint segments.
func merge(a, b []Interval) []Interval {
	out := make([]Interval, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var x Interval
		if j == len(b) || i < len(a) && a[i].Start <= b[j].Start {
			x, i = a[i], i+1
		} else {
			x, j = b[j], j+1
		}
		if n := len(out); n > 0 && x.Start <= out[n-1].End {
			out[n-1].End = max(out[n-1].End, x.End)
			continue
		}
		out = append(out, x)
	}
	return out
}

// Segments is the union as sorted disjoint segments (the union is unchanged).
func (u *Union) Segments() []Interval {
	if len(u.cur) > 0 {
		u.push(u.cur)
		u.cur = nil
	}
	for len(u.stack) > 1 {
		a, b := u.stack[len(u.stack)-2], u.stack[len(u.stack)-1]
		u.stack = u.stack[:len(u.stack)-2]
		m := merge(a, b)
		u.held -= int64(len(a) + len(b) - len(m))
		u.stack = append(u.stack, m)
	}
	if len(u.stack) == 0 {
		return nil
	}
	return u.stack[0]
}

// Length is the union's total length.
func (u *Union) Length() uint64 {
	var t uint64
	for _, s := range u.Segments() {
		t += s.End - s.Start
	}
	return t
}

// Release gives back what the union charged.
func (u *Union) Release() {
	u.b.Release(budget.Memory, u.charged*segmentBytes)
	u.charged, u.held, u.cur, u.stack = 0, 0, nil, nil
}
