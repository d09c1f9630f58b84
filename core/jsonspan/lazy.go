package jsonspan

// Lazy containers. A JSON member of tens of MB holds millions of values; as a tree
// of Values (and then of document nodes) it needs ~100× its bytes. With Options.LazyOver set,
// a container whose bytes pass it and whose items pass lazyMinItems is not built: the parse
// checks it (syntax, depth, repeated keys) in one pass that allocates nothing per value, and
// keeps only its span and item count. Its items are parsed again from the input when asked
// (All, Get, Index), each under the same rule, so what is live at once stays bounded by the
// container's page, not by the member. Small containers are built as before, so a small
// manifest parses exactly as it always did.

import (
	"bytes"
	"sort"
	"sync"

	"github.com/neffscope/neffscope/core/budget"
)

// lazyMinItems is the item count a container must pass to be lazy: a big container of few
// items (a def.json's top level) is built, its big items lazy in turn, so lookups by key
// on it stay cheap.
const lazyMinItems = 64

// source is the input a lazy container's items are parsed from again.
type source struct {
	in  *Input
	opt Options // without a budget: a re-parse builds one item at a time, bounded by LazyOver

	// checked holds, by start offset, the containers nested in a lazy one that are lazy in
	// turn, as its check pass found them: a re-parse that reaches one makes it lazy from this
	// without checking its bytes again, so a member nested N lazy levels deep is read once,
	// not N times (a klir tree, a def.json's variables).
	mu      sync.Mutex
	checked map[int]checked
}

// checked is a nested lazy container as a check pass left it: what it keeps, and where it
// ends.
type checked struct {
	info      *lazyInfo
	end, line int
}

// maxChecked bounds the nested lazy containers a source remembers (past it they are checked
// again when reached, as before).
const maxChecked = 1 << 16

// remember keeps a nested lazy container found by a check pass.
func (s *source) remember(start int, c checked) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.checked == nil {
		s.checked = map[int]checked{}
	}
	if len(s.checked) < maxChecked {
		s.checked[start] = c
	}
}

// recall is the nested lazy container that starts at start, if a check pass found it.
func (s *source) recall(start int) (checked, bool) {
	if s == nil {
		return checked{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.checked[start]
	return c, ok
}

// lazyInfo is what a lazy container keeps instead of its items.
type lazyInfo struct {
	src   *source
	n     int     // items
	depth int     // its nesting depth (for MaxDepth below it)
	rep   []int32 // indexes of object items whose key repeats later (sorted)
	// marks[k] is where item k*markEvery starts, so a page deep in the container is parsed
	// from the mark before it, not from the container's start.
	marks []mark
	dups  []Dup // the first maxDups repeats, for findings
	ndup  int   // all repeats
}

// markEvery is the item interval of a lazy container's marks.
const markEvery = 256

type mark struct {
	pos  int
	line int
}

// Dup is one repeated key of an object: the item whose key repeats (ignored by JSON readers)
// and the start of the key's last occurrence, which wins.
type Dup struct {
	KeyStart, LastKeyStart int64
	Key                    string
}

// maxDups bounds the repeats a lazy container lists (the count covers all).
const maxDups = 20

// Item is one item of a container as All hands it over.
type Item struct {
	Index    int
	Key      string // object member key ("" in an array)
	KeyStart int64  // where the key starts (-1 in an array)
	V        *Value
	// Repeated: a later item of the object has the same key (JSON readers keep the last).
	Repeated bool
}

// IsLazy reports whether v's items are parsed on demand (Items, Keys and KeyStart are empty).
func (v *Value) IsLazy() bool { return v != nil && v.lazy != nil }

// Dups lists the first repeated keys of a lazy object and how many there are in all.
func (v *Value) Dups() ([]Dup, int) {
	if !v.IsLazy() {
		return nil, 0
	}
	return v.lazy.dups, v.lazy.ndup
}

// Each calls fn with v's items from index from on, in order, until fn returns false; built
// or lazy alike. A lazy container's items are parsed again on every call (each under the
// lazy rule), so a caller keeps only what it needs; from is found from the nearest mark.
func (v *Value) Each(from int, fn func(Item) bool) { v.each(from, fn, false) }

// EachTransient is Each for a caller that keeps no Value it is handed (nor any reached from
// it) past its call of fn (Clone what must stay): a lazy container's items are parsed into
// memory reused from one item to the next instead of allocated value by value. A def.json's
// 100,000 variables went through Each at ~14 allocations each, most of their resolve in wasm.
func (v *Value) EachTransient(from int, fn func(Item) bool) { v.each(from, fn, true) }

func (v *Value) each(from int, fn func(Item) bool, transient bool) {
	if v == nil || (v.Kind != Object && v.Kind != Array) {
		return
	}
	if v.lazy != nil {
		v.lazyItems(from, fn, transient)
		return
	}
	v.builtItems(from, fn)
}

// Clone is a copy of v that outlives an EachTransient call: the Value itself (a scalar's
// whole value; a container's items are shared, not copied).
func (v *Value) Clone() *Value {
	if v == nil {
		return nil
	}
	c := *v
	return &c
}

// builtItems is Each over a built container.
func (v *Value) builtItems(from int, fn func(Item) bool) {
	var last func(string, int) int
	if v.Kind == Object && len(v.Keys) > 1 {
		last = lastIndex(v)
	}
	for i := max(from, 0); i < len(v.Items); i++ {
		item := Item{Index: i, KeyStart: -1, V: v.Items[i]}
		if v.Kind == Object {
			item.Key, item.KeyStart = v.Keys[i], v.KeyStart[i]
			item.Repeated = last != nil && last(item.Key, i) != i
		}
		if !fn(item) {
			return
		}
	}
}

// Members returns v's items with their keys; a lazy container's are all built (Each keeps
// only one at a time).
func (v *Value) Members() []Item {
	var out []Item
	v.Each(0, func(it Item) bool {
		out = append(out, it)
		return true
	})
	return out
}

// List returns v's items (Items, or a lazy container's all built).
func (v *Value) List() []*Value {
	if v == nil || v.lazy == nil {
		if v == nil {
			return nil
		}
		return v.Items
	}
	out := make([]*Value, 0, v.lazy.n)
	v.Each(0, func(it Item) bool {
		out = append(out, it.V)
		return true
	})
	return out
}

// lazyItems re-parses a lazy container's items, yielding those from index from on; transient:
// into an arena reset for every item (EachTransient).
func (v *Value) lazyItems(from int, yield func(Item) bool, transient bool) {
	l := v.lazy
	opt := l.src.opt
	opt.Budget, opt.MaxMemory = nil, 0
	b, err := l.src.in.Bytes()
	if err != nil || int64(len(b)) < v.End {
		return // let go and not read again (Forest.Children says why)
	}
	p := &parser{b: b, pos: int(v.Start) + 1, line: v.Line, opt: opt, source: l.src}
	if transient {
		p.arena = &arena{}
	}
	closing := byte(']')
	if v.Kind == Object {
		closing = '}'
	}
	start := 0
	if k := from / markEvery; k > 0 && k < len(l.marks) {
		start = k * markEvery
		p.pos, p.line = l.marks[k].pos, l.marks[k].line
	}
	for i := start; i < l.n; i++ {
		p.space()
		if i == 0 && p.pos < len(p.b) && p.b[p.pos] == closing {
			return
		}
		item := Item{Index: i, KeyStart: -1}
		skip := i < from
		if v.Kind == Object {
			if p.pos >= len(p.b) || p.b[p.pos] != '"' {
				return
			}
			item.KeyStart = int64(p.pos)
			if skip {
				if !p.skipStr() {
					return
				}
			} else {
				k, ok := p.str()
				if !ok {
					return
				}
				item.Key = k
			}
			p.space()
			if p.pos >= len(p.b) || p.b[p.pos] != ':' {
				return
			}
			p.pos++
			p.space()
			k := sort.Search(len(l.rep), func(k int) bool { return l.rep[k] >= int32(i) })
			item.Repeated = k < len(l.rep) && l.rep[k] == int32(i)
		}
		if skip {
			if p.scanValue(l.depth+1) < 0 {
				return
			}
		} else {
			if p.arena != nil {
				p.arena.reset()
			}
			item.V = p.value(l.depth + 1)
			if item.V == nil || p.err != nil {
				return
			}
			if !yield(item) {
				return
			}
		}
		if !p.next(closing, "container") {
			return
		}
	}
}

// goLazy turns the container v being parsed (its items so far built) into a lazy one: the
// values built for it are given back to the budget, and the container is checked again from
// its start without building anything.
func (p *parser) goLazy(v *Value, depth int, takenBefore int64) {
	if b := p.opt.Budget; b != nil {
		n := p.taken - takenBefore
		b.Release(budget.Values, n)
		b.Release(budget.Memory, n*budget.ValueCost)
		p.mem -= n * budget.ValueCost
		p.taken = takenBefore
	}
	v.Keys, v.KeyStart, v.Items = nil, nil, nil
	p.pos, p.line = int(v.Start), v.Line
	l := &lazyInfo{src: p.src(), depth: depth}
	v.lazy = l
	var keys []keyAt
	if v.Kind == Object {
		keys = make([]keyAt, 0, 1024)
	}
	l.n = p.scanItems(v.Kind, depth, &keys, &l.marks, nil)
	if len(keys) > 1 {
		l.rep, l.dups, l.ndup = repeats(p.b, keys)
	}
}

// src is the parse's input for lazy re-parses (one per parse).
func (p *parser) src() *source {
	if p.source == nil {
		in := p.opt.Input
		if in == nil {
			in = NewInput(p.b)
		}
		p.source = &source{in: in, opt: p.opt}
	}
	return p.source
}

// keyAt is one object key seen by a check pass: its hash and where it starts.
type keyAt struct {
	h     uint64
	start int64
}

// keyHash is FNV-1a of a key's raw bytes: repeats confirms equal hashes byte for byte, so a
// collision costs a comparison, never a wrong answer (hash/maphash was a tenth of the check
// pass in wasm, which has no hardware hash).
func keyHash(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// scanItems checks the container at p.pos (its opening byte) to its close, building nothing,
// and returns its item count; keys, when not nil, collects each object key's hash, and marks
// the start of every markEvery-th item. lazy, when not nil, is set if a parse building the
// container would have turned it lazy (lazyNow, at the same points).
func (p *parser) scanItems(kind Kind, depth int, keys *[]keyAt, marks *[]mark, lazy *bool) int {
	closing := byte(']')
	if kind == Object {
		closing = '}'
	}
	start := p.pos
	p.pos++
	p.space()
	if p.pos < len(p.b) && p.b[p.pos] == closing {
		p.pos++
		return 0
	}
	n := 0
	for {
		p.space()
		if p.pos >= len(p.b) && p.opt.Lenient {
			return n
		}
		if marks != nil && n%markEvery == 0 {
			*marks = append(*marks, mark{p.pos, p.line})
		}
		if kind == Object {
			if p.pos >= len(p.b) || p.b[p.pos] != '"' {
				p.fail("an object key (a quoted string) was expected")
				return n
			}
			ks := p.pos
			if !p.skipStr() {
				return n
			}
			if keys != nil {
				*keys = append(*keys, keyAt{keyHash(p.b[ks+1 : p.pos-1]), int64(ks)})
			}
			p.space()
			if p.pos >= len(p.b) || p.b[p.pos] != ':' {
				p.fail("':' was expected after an object key")
				return n
			}
			p.pos++
			p.space()
		}
		if p.scanValue(depth+1) < 0 {
			return n
		}
		n++
		if p.err != nil || !p.next(closing, kind.String()) {
			return n
		}
		if lazy != nil && !*lazy && n > lazyMinItems && p.pos-start > int(p.opt.LazyOver) {
			*lazy = true
		}
	}
}

// scanNested checks a container nested in one being checked (scanValue). When it would be
// lazy in a parse that reached it, what a lazy container keeps is worked out in the same pass
// and remembered by the source (the keys and marks are gathered in buffers kept per depth).
func (p *parser) scanNested(kind Kind, depth int) {
	if p.opt.LazyOver <= 0 {
		p.scanItems(kind, depth, nil, nil, nil)
		return
	}
	for len(p.scratch) <= depth {
		p.scratch = append(p.scratch, scratch{})
	}
	// The buffers stay in their slot while they are used: the containers nested in this one
	// are deeper, so no other scan uses the slot meanwhile. They are stored back only when an
	// append moved them. A store of the pair is a copy of four pointers, which the collector's
	// write barrier makes costly while it marks: done for every nested container, it was ~0.55
	// s of the 32 MB real-shaped NEFF's 5 s open in wasm.
	sc := p.scratch[depth]
	keys, marks := sc.keys[:0], sc.marks[:0]
	start := p.pos
	var lazy bool
	var kp *[]keyAt
	if kind == Object {
		kp = &keys
	}
	n := p.scanItems(kind, depth, kp, &marks, &lazy)
	if lazy && p.err == nil {
		l := &lazyInfo{src: p.src(), n: n, depth: depth, marks: append([]mark(nil), marks...)}
		if len(keys) > 1 {
			l.rep, l.dups, l.ndup = repeats(p.b, keys)
		}
		p.src().remember(start, checked{info: l, end: p.pos, line: p.line})
	}
	if cap(keys) != cap(sc.keys) || cap(marks) != cap(sc.marks) {
		p.scratch[depth] = scratch{keys: keys, marks: marks}
	}
}

// scratch is the key and mark buffers of a check pass at one depth.
type scratch struct {
	keys  []keyAt
	marks []mark
}

// scanValue checks one value at p.pos without building it; it returns -1 on an error (p.err
// says where), else 0.
func (p *parser) scanValue(depth int) int {
	if p.pos >= len(p.b) {
		p.fail("unexpected end of input, a value was expected")
		return -1
	}
	switch c := p.b[p.pos]; {
	case c == '{' || c == '[':
		if depth >= p.opt.MaxDepth {
			p.skipNested()
		} else {
			kind := Array
			if c == '{' {
				kind = Object
			}
			p.scanNested(kind, depth)
		}
	case c == '"':
		p.skipStr()
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.pos
		if !p.number() && p.opt.Lenient {
			p.err = nil
			p.pos = start
			var v Value
			p.bare(&v)
		}
	case p.word("true"), p.word("false"), p.word("null"):
	default:
		if p.opt.Lenient {
			var v Value
			p.bare(&v)
		} else {
			p.fail("unexpected %s where a value was expected", describe(c))
		}
	}
	if p.err != nil {
		return -1
	}
	return 0
}

// skipStr passes over a quoted string at p.pos, checking it as str does, decoding nothing.
func (p *parser) skipStr() bool {
	open := p.pos
	for i, b := open+1, p.b; i < len(b); i++ {
		c := b[i]
		if c == '"' {
			p.pos = i + 1
			return true
		}
		if c == '\\' || c < 0x20 {
			// Escapes are rare; str checks them (and reports a bad byte) exactly.
			_, ok := p.str()
			return ok
		}
	}
	p.pos = len(p.b)
	p.fail("the input ends inside a string")
	return false
}

// repeats finds the object items whose key comes again later (by hash, then confirmed on the
// bytes), sorted, with the first maxDups as Dups and the count of all.
func repeats(b []byte, keys []keyAt) (rep []int32, dups []Dup, ndup int) {
	hs := make([]uint64, len(keys))
	for i, k := range keys {
		hs[i] = k.h
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i] < hs[j] })
	var twice map[uint64]bool
	for i := 1; i < len(hs); i++ {
		if hs[i] == hs[i-1] {
			if twice == nil {
				twice = map[uint64]bool{}
			}
			twice[hs[i]] = true
		}
	}
	if twice == nil {
		return nil, nil, 0
	}
	// Walk backwards: the first time a key is seen it is the last occurrence (it wins).
	last := map[string]int64{}
	for i := len(keys) - 1; i >= 0; i-- {
		if !twice[keys[i].h] {
			continue
		}
		k := rawString(b, keys[i].start)
		if _, seen := last[k]; seen {
			rep = append(rep, int32(i))
		} else {
			last[k] = keys[i].start
		}
	}
	sort.Slice(rep, func(i, j int) bool { return rep[i] < rep[j] })
	for _, i := range rep[:min(len(rep), maxDups)] {
		ks := keys[i].start
		dups = append(dups, Dup{KeyStart: ks, LastKeyStart: last[rawString(b, ks)], Key: decodeKey(b, ks)})
	}
	ndup = len(rep)
	return rep, dups, ndup
}

// rawString is the bytes of the quoted string at start, quotes excluded, undecoded.
func rawString(b []byte, start int64) string {
	p := &parser{b: b, pos: int(start), line: 1}
	p.skipStr()
	return string(b[start+1 : max(int64(p.pos)-1, start+1)])
}

func decodeKey(b []byte, start int64) string {
	p := &parser{b: b, pos: int(start), line: 1}
	s, _ := p.str()
	return s
}

// countLines counts b's newlines (bytes.Count: vectorised, a stub's line from the start of a
// 30 MB member is found in milliseconds).
func countLines(b []byte) int { return bytes.Count(b, []byte{'\n'}) }
