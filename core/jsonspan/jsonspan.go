// Package jsonspan parses JSON into a tree that remembers the byte range of every value and key,
// so decoders can give each field the Span of the bytes it came from. It is a utility shared by
// the artifact packages (it imports nothing of theirs).
//
// It tolerates what real tools tolerate: a UTF-8 byte-order mark (offsets still index the
// original bytes), and in Lenient mode the bare words libncfw prints ((nil), 0x1) and text cut
// short. On error it returns the partial tree it built, so a caller never loses what could be read.
package jsonspan

import (
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
)

// Kind of a JSON value.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
	// Bare is a lenient-mode token that is not JSON: (nil), 0x1, NaN ... Its text is in Str.
	Bare
)

func (k Kind) String() string {
	return [...]string{doc.KindNull, doc.KindBool, doc.KindNumber, doc.KindString, doc.KindArray, doc.KindObject, doc.KindBare}[k]
}

// Value is one parsed JSON value.
type Value struct {
	Kind       Kind
	Start, End int64 // [Start, End) in the input bytes
	// Str is the decoded string for String, the literal text for Number and Bare.
	Str  string
	Bool bool
	// Keys and KeyStart are parallel to Items for an Object; Items alone for an Array.
	Keys     []string
	KeyStart []int64
	Items    []*Value
	// Line is the 1-based line on which the value starts.
	Line int
	// Flat: an array or object nested deeper than Options.MaxDepth; its bytes were checked
	// for balance but its items not read (Items is empty, Len counts nothing).
	Flat bool
	// lazy is set for a container parsed on demand (Options.LazyOver, lazy.go): Items, Keys
	// and KeyStart are empty; All, Get, Index and Len read its items from the input.
	lazy *lazyInfo
}

// Error says where parsing stopped.
type Error struct {
	Offset int64
	Line   int
	Msg    string
	// Limit: parsing stopped because the budget refused more values, not at a syntax error.
	Limit bool
}

func (e *Error) Error() string {
	return fmt.Sprintf("JSON syntax error at byte %d (line %d): %s", e.Offset, e.Line, e.Msg)
}

// Options tune the parser.
type Options struct {
	// Lenient accepts bare words as values (Kind Bare) and a missing close at end of input.
	Lenient bool
	// MaxDepth is the nesting past which containers are kept flat (Value.Flat: their bytes
	// are scanned, their items not built), so hostile input can neither exhaust the stack nor
	// make a document that common JSON readers refuse. Default DefaultMaxDepth.
	MaxDepth int
	// Budget, if set, is charged one value and its estimated memory per value built; when it
	// refuses, parsing stops there with an Error whose Limit is set, and the partial tree is
	// returned.
	Budget *budget.Budget
	// Where names the input in the budget's refusal (a member path).
	Where string
	// MaxMemory, if set, is the most of the budget's memory this one parse may spend: past it
	// the parse stops as if the budget had refused (and the refusal is recorded), so one big
	// member cannot starve the members read after it.
	MaxMemory int64
	// LazyOver, if set, makes a container lazy when its bytes pass it and it has more than
	// 64 items: it is checked but not built, and its items are parsed again from the input
	// when asked (lazy.go). The input must then stay unchanged while the Values are used.
	LazyOver int64
	// Input, if set, holds the bytes parsed (b must be its bytes): the lazy containers read
	// them again through it, so a reloadable Input may let them go in between (input.go).
	Input *Input
}

// Eager turns laziness off: no container is lazy and a Forest holds every node. It is for
// tests that hold the lazy document to the eager one; nothing else sets it.
var Eager bool

// DefaultMaxDepth is the stated nesting limit: deeper arrays and objects are shown flat.
const DefaultMaxDepth = 100

// Parse parses b strictly.
func Parse(b []byte) (*Value, error) { return ParseWith(b, Options{}) }

// ParseWith parses b. On error the returned Value holds everything read before the error
// (nil only if nothing was).
func ParseWith(b []byte, opt Options) (*Value, error) {
	if Eager {
		opt.LazyOver = 0
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	p := &parser{b: b, opt: opt, line: 1}
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		p.pos = 3
	}
	p.space()
	v := p.value(0)
	if p.err == nil {
		p.space()
		if p.pos < len(b) {
			p.fail("unexpected %q after the top-level value", p.b[p.pos])
		}
	}
	if p.err != nil {
		return v, p.err
	}
	return v, nil
}

type parser struct {
	b    []byte
	pos  int
	line int
	opt  Options
	err  *Error
	mem  int64 // memory charged by this parse
	// taken counts the values charged to the budget (a container that turns lazy gives its
	// items' back); source is the input lazy containers re-parse from.
	taken  int64
	source *source
	// scratch is the check pass's buffers by depth (scanNested).
	scratch []scratch
	// stack holds the items of the containers being built (built, pop).
	stack []built
	// arena, if set, is where pop and value put what they build (EachTransient).
	arena *arena
	// short interns short strings (keys, enum-like values, small numbers): a def.json's
	// 100,000 variables repeat the same dozen keys and values (intern).
	short *[internSlots]string
}

// intern returns b as a string, sharing one copy of a short string seen before in this parse:
// a direct-mapped table by an FNV-1a hash of its bytes, the last string seen in each slot kept
// (a map's hash was a tenth of the open in wasm, which has no hardware hash).
func (p *parser) intern(b []byte) string {
	if len(b) > maxInterned {
		return string(b)
	}
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	if p.short == nil {
		p.short = new([internSlots]string)
	}
	slot := &p.short[h%internSlots]
	if *slot == string(b) && len(b) > 0 {
		return *slot
	}
	s := string(b)
	*slot = s
	return s
}

// maxInterned and internSlots bound the intern table.
const (
	maxInterned = 24
	internSlots = 512
)

// take charges one value to the budget; where is only worked out for a refusal (it is a
// formatted string, and a parse asks millions of times).
func (p *parser) take(b *budget.Budget) bool {
	if p.overShare(budget.ValueCost) {
		return false
	}
	if !b.Can(budget.Values, 1) {
		b.Refuse(budget.Values, p.where())
		return false
	}
	if !b.Can(budget.Memory, budget.ValueCost) {
		b.Refuse(budget.Memory, p.where())
		return false
	}
	b.Take(budget.Values, 1, "")
	b.Take(budget.Memory, budget.ValueCost, "")
	p.taken++
	return true
}

// overShare charges n to this parse's own share (MaxMemory) and says whether it is passed,
// recording the refusal on the budget.
func (p *parser) overShare(n int64) bool {
	p.mem += n
	if p.opt.MaxMemory > 0 && p.mem > p.opt.MaxMemory {
		p.opt.Budget.Refuse(budget.Memory, p.where())
		return true
	}
	return false
}

func (p *parser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = &Error{Offset: int64(p.pos), Line: p.line, Msg: fmt.Sprintf(format, args...)}
	}
}

func (p *parser) space() {
	// Locals, not p.pos and p.line: indented JSON is a third spaces, and the compiler keeps
	// locals in registers where it must store through p on every byte.
	b, i, line := p.b, p.pos, p.line
	for ; i < len(b); i++ {
		c := b[i]
		if c > ' ' {
			break
		}
		if c == '\n' {
			line++
		} else if c != ' ' && c != '\t' && c != '\r' {
			break
		}
	}
	p.pos, p.line = i, line
}

// value parses the value at p.pos (nil when none could be).
func (p *parser) value(depth int) *Value {
	v, ok := p.parse(depth)
	if !ok {
		return nil
	}
	if p.arena != nil {
		slot := &p.arena.values(1)[0]
		*slot = v
		return slot
	}
	return &v
}

// parse parses the value at p.pos. A container's items are parsed into the parser's
// stack and moved into one slab of Values when it closes (pop): a Value allocated per item was
// most of a parse's allocations, which in wasm (one thread, no hardware hash) were over half
// of opening the real-shaped 32 MB NEFF. It returns the Value, not a pointer: a pointer
// passed down a recursion escapes to the heap.
func (p *parser) parse(depth int) (v Value, ok bool) {
	if p.pos >= len(p.b) {
		p.fail("unexpected end of input, a value was expected")
		return v, false
	}
	if b := p.opt.Budget; b != nil && !p.take(b) {
		if p.err == nil {
			p.err = &Error{Offset: int64(p.pos), Line: p.line, Msg: "the budget of JSON values is spent", Limit: true}
		}
		return v, false
	}
	v = Value{Start: int64(p.pos), Line: p.line}
	if c := p.b[p.pos]; depth >= p.opt.MaxDepth && (c == '{' || c == '[') {
		v.Kind, v.Flat = Object, true
		if c == '[' {
			v.Kind = Array
		}
		p.skipNested()
		v.End = int64(p.pos)
		return v, true
	}
	if c := p.b[p.pos]; c == '{' || c == '[' {
		if k, ok := p.source.recall(p.pos); ok {
			// checked already, as part of the lazy container this parse re-reads
			v.Kind = Array
			if c == '{' {
				v.Kind = Object
			}
			v.lazy = k.info
			p.pos, p.line = k.end, k.line
			v.End = int64(p.pos)
			return v, true
		}
	}
	taken := p.taken
	base := len(p.stack)
	switch c := p.b[p.pos]; {
	case c == '{':
		p.object(&v, depth, base, taken)
	case c == '[':
		p.array(&v, depth, base, taken)
	case c == '"':
		v.Kind = String
		s, _ := p.str()
		v.Str = s
		if len(s) > 256 && (p.overShare(int64(len(s))) || !p.opt.Budget.Take(budget.Memory, int64(len(s)), p.where())) && p.err == nil {
			p.err = &Error{Offset: v.Start, Line: p.line, Msg: "the memory budget is spent", Limit: true}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		start := p.pos
		if p.number() {
			v.Kind = Number
			v.Str = p.intern(p.b[start:p.pos])
		} else if p.opt.Lenient {
			p.err = nil
			p.pos = start
			p.bare(&v)
		}
	case p.word("true"):
		v.Kind, v.Bool = Bool, true
	case p.word("false"):
		v.Kind = Bool
	case p.word("null"):
		v.Kind = Null
	default:
		if p.opt.Lenient {
			p.bare(&v)
		} else {
			p.fail("unexpected %s where a value was expected", describe(c))
			return v, false
		}
	}
	if len(p.stack) > base {
		p.pop(&v, base)
	}
	v.End = int64(p.pos)
	return v, true
}

// object parses an object's members onto the stack (from base), each key then its value; a
// container that grows past the lazy threshold is given up for a lazy one.
func (p *parser) object(v *Value, depth, base int, taken int64) {
	v.Kind = Object
	p.pos++
	p.space()
	if p.pos < len(p.b) && p.b[p.pos] == '}' {
		p.pos++
		return
	}
	for {
		p.space()
		if p.pos >= len(p.b) || p.b[p.pos] != '"' {
			if p.pos >= len(p.b) && p.opt.Lenient {
				return
			}
			p.fail("an object key (a quoted string) was expected")
			return
		}
		ks := int64(p.pos)
		key, ok := p.str()
		if !ok {
			return
		}
		p.space()
		if p.pos >= len(p.b) || p.b[p.pos] != ':' {
			p.fail("':' was expected after key %q", key)
			return
		}
		p.pos++
		p.space()
		// Parsed into a local, then pushed: the nested items grow the stack under it.
		if item, ok := p.parse(depth + 1); ok {
			p.stack = append(p.stack, built{key: key, keyStart: ks, v: item})
		}
		if p.err != nil || !p.next('}', "object") {
			return
		}
		if p.lazyNow(v, len(p.stack)-base) {
			p.drop(base)
			p.goLazy(v, depth, taken)
			return
		}
	}
}

// array parses an array's items onto the stack (from base), as object does.
func (p *parser) array(v *Value, depth, base int, taken int64) {
	v.Kind = Array
	p.pos++
	p.space()
	if p.pos < len(p.b) && p.b[p.pos] == ']' {
		p.pos++
		return
	}
	for {
		p.space()
		if p.pos >= len(p.b) && p.opt.Lenient {
			return
		}
		if item, ok := p.parse(depth + 1); ok {
			p.stack = append(p.stack, built{v: item})
		}
		if p.err != nil || !p.next(']', "array") {
			return
		}
		if p.lazyNow(v, len(p.stack)-base) {
			p.drop(base)
			p.goLazy(v, depth, taken)
			return
		}
	}
}

// built is one item of a container being parsed, on the parser's stack until the container
// closes: its Keys, KeyStart and Items are then allocated once at their final length (grown
// by appends they took ~12 allocations a small object, and up to twice the room).
type built struct {
	key      string
	keyStart int64
	v        Value
}

// pop moves the items above base on the stack into v: their Values into one slab.
func (p *parser) pop(v *Value, base int) {
	items := p.stack[base:]
	n := len(items)
	var slab []Value
	if a := p.arena; a != nil {
		slab, v.Items = a.values(n), a.pointers(n)
		if v.Kind == Object {
			v.Keys, v.KeyStart = a.strings(n), a.offsets(n)
		}
	} else {
		slab, v.Items = make([]Value, n), make([]*Value, n)
		if v.Kind == Object {
			v.Keys, v.KeyStart = make([]string, n), make([]int64, n)
		}
	}
	for i := range items {
		it := &items[i]
		slab[i] = it.v
		v.Items[i] = &slab[i]
		if v.Kind == Object {
			v.Keys[i], v.KeyStart[i] = it.key, it.keyStart
		}
	}
	p.drop(base)
}

// drop truncates the stack to base, clearing what it held so the values can be collected.
func (p *parser) drop(base int) {
	clear(p.stack[base:])
	p.stack = p.stack[:base]
}

// lazyNow says whether the container being built, n items so far, has grown past
// Options.LazyOver, or past lazyMaxItems items.
func (p *parser) lazyNow(v *Value, n int) bool {
	return p.opt.LazyOver > 0 && n > lazyMinItems && (int64(p.pos)-v.Start > p.opt.LazyOver || n > lazyMaxItems)
}

// lazyMaxItems is the most items a container of a lazy parse builds before it is made lazy
// whatever its bytes: its items wait on the parser's stack as whole Values (~150 B each), and
// a [0,0,…] array reached 64 KiB after 32,768 of them (a stack of 5 MB grown by doubling, per
// member: 50 such members took the wasm heap past 700 MiB). A container of more items than a
// member's tree holds (2,000 nodes) is a stub either way.
const lazyMaxItems = 4096

func (p *parser) where() string {
	if p.opt.Where != "" {
		return fmt.Sprintf("%s byte %d", p.opt.Where, p.pos)
	}
	return fmt.Sprintf("JSON byte %d", p.pos)
}

// skipNested passes over one array or object without building it, iteratively (no recursion
// however deep), checking that brackets balance and strings close.
func (p *parser) skipNested() {
	var stack []byte
	for p.pos < len(p.b) {
		c := p.b[p.pos]
		switch c {
		case '{', '[':
			stack = append(stack, c)
		case '}', ']':
			want := byte('{')
			if c == ']' {
				want = '['
			}
			if len(stack) == 0 || stack[len(stack)-1] != want {
				p.fail("unbalanced %q in a deeply nested value", c)
				return
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				p.pos++
				return
			}
		case '"':
			if _, ok := p.str(); !ok {
				return
			}
			continue
		case '\n':
			p.line++
		}
		p.pos++
	}
	if !p.opt.Lenient {
		p.fail("the input ends inside a value nested %d levels deep", len(stack))
	}
}

// next reads what follows an item of a container: ',' (another item follows: true) or the
// closing byte (false). Lenient mode also takes a trailing comma and a missing close at the end.
func (p *parser) next(close byte, what string) bool {
	p.space()
	if p.pos < len(p.b) && p.b[p.pos] == ',' {
		p.pos++
		p.space()
		if p.opt.Lenient && p.pos < len(p.b) && p.b[p.pos] == close { // trailing comma
			p.pos++
			return false
		}
		return true
	}
	if p.pos < len(p.b) && p.b[p.pos] == close {
		p.pos++
		return false
	}
	if p.pos >= len(p.b) && p.opt.Lenient {
		return false
	}
	p.fail("',' or '%c' was expected in the %s", close, what)
	return false
}

func describe(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", c)
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// bare reads a lenient token: everything up to a delimiter.
func (p *parser) bare(v *Value) {
	start := p.pos
	for p.pos < len(p.b) {
		switch p.b[p.pos] {
		case ',', '}', ']', ' ', '\n', '\r', '\t', ':':
			goto done
		}
		p.pos++
	}
done:
	if p.pos == start {
		p.fail("unexpected %s where a value was expected", describe(p.b[p.pos]))
		return
	}
	v.Kind = Bare
	v.Str = string(p.b[start:p.pos])
}

func (p *parser) word(w string) bool {
	if len(p.b)-p.pos >= len(w) && string(p.b[p.pos:p.pos+len(w)]) == w {
		end := p.pos + len(w)
		if end < len(p.b) && isWordByte(p.b[end]) {
			return false
		}
		p.pos = end
		return true
	}
	return false
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '(' || c == ')'
}

func (p *parser) number() bool {
	b, i := p.b, p.pos
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if digits() == 0 {
		p.fail("a digit was expected in the number")
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			p.fail("a digit was expected after the decimal point")
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.fail("a digit was expected in the exponent")
			return false
		}
	}
	if i < len(b) && isWordByte(b[i]) {
		p.pos = i
		p.fail("unexpected %s after a number", describe(b[i]))
		return false
	}
	p.pos = i
	return true
}

// str reads a quoted string at p.pos and decodes it.
func (p *parser) str() (string, bool) {
	p.pos++ // opening quote
	start := p.pos
	// Fast path: no escapes.
	i, b := p.pos, p.b
	for ; i < len(b); i++ {
		c := b[i]
		if c == '"' {
			p.pos = i + 1
			return p.intern(b[start:i]), true
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	p.pos = i
	buf := append([]byte(nil), p.b[start:p.pos]...)
	for p.pos < len(p.b) {
		c := p.b[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), true
		case c == '\n':
			p.fail("a line break inside a string (strings must be closed on the same line)")
			return string(buf), false
		case c < 0x20:
			p.fail("control byte 0x%02x inside a string", c)
			return string(buf), false
		case c == '\\':
			if p.pos+1 >= len(p.b) {
				p.pos++
				p.fail("the input ends inside a string escape")
				return string(buf), false
			}
			e := p.b[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/':
				buf = append(buf, e)
			case 'b':
				buf = append(buf, '\b')
			case 'f':
				buf = append(buf, '\f')
			case 'n':
				buf = append(buf, '\n')
			case 'r':
				buf = append(buf, '\r')
			case 't':
				buf = append(buf, '\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return string(buf), false
				}
				if utf16.IsSurrogate(r) && p.pos+1 < len(p.b) && p.b[p.pos] == '\\' && p.b[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					if r2, ok := p.hex4(); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							r = d
						} else {
							p.pos = save
						}
					} else {
						return string(buf), false
					}
				}
				buf = utf8.AppendRune(buf, r)
			default:
				p.pos--
				p.fail("unknown escape \\%c in a string", e)
				return string(buf), false
			}
		default:
			buf = append(buf, c)
			p.pos++
		}
	}
	p.fail("the input ends inside a string")
	return string(buf), false
}

func (p *parser) hex4() (rune, bool) {
	if p.pos+4 > len(p.b) {
		p.fail("the input ends inside a \\u escape")
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.b[p.pos:p.pos+4]), 16, 16)
	if err != nil {
		p.fail("bad \\u escape %q", p.b[p.pos:p.pos+4])
		return 0, false
	}
	p.pos += 4
	return rune(n), true
}

// Get returns the value of key in an object (the last one if the key repeats, as most JSON
// readers do), or nil.
func (v *Value) Get(key string) *Value {
	if v == nil || v.Kind != Object {
		return nil
	}
	if v.lazy != nil {
		var last *Value
		v.Each(0, func(it Item) bool {
			if it.Key == key {
				last = it.V
			}
			return true
		})
		return last
	}
	for i := len(v.Keys) - 1; i >= 0; i-- {
		if v.Keys[i] == key {
			return v.Items[i]
		}
	}
	return nil
}

// Index returns an array item or nil.
func (v *Value) Index(i int) *Value {
	if v == nil || v.Kind != Array || i < 0 || i >= v.Len() {
		return nil
	}
	if v.lazy != nil {
		var w *Value
		v.Each(i, func(it Item) bool {
			w = it.V
			return false
		})
		return w
	}
	return v.Items[i]
}

// Len is the number of items (array) or members (object).
func (v *Value) Len() int {
	if v == nil {
		return 0
	}
	if v.lazy != nil {
		return v.lazy.n
	}
	return len(v.Items)
}

// Text returns a string value; ok is false for other kinds.
func (v *Value) Text() (string, bool) {
	if v == nil || v.Kind != String {
		return "", false
	}
	return v.Str, true
}

// Int returns an integral number (also accepted: a string holding one, as TVM attrs do).
func (v *Value) Int() (int64, bool) {
	if v == nil || (v.Kind != Number && v.Kind != String) {
		return 0, false
	}
	if n, err := strconv.ParseInt(v.Str, 10, 64); err == nil {
		return n, true
	}
	if v.Kind == Number {
		if f, err := strconv.ParseFloat(v.Str, 64); err == nil && f == float64(int64(f)) {
			return int64(f), true
		}
	}
	return 0, false
}

// Float returns a number.
func (v *Value) Float() (float64, bool) {
	if v == nil || v.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	return f, err == nil
}

// Len64 is End-Start.
func (v *Value) Len64() int64 { return v.End - v.Start }

// arena is memory a transient parse (EachTransient) builds its values in, reset for every
// item: it grows to what the largest item needs and is then reused. A slice it hands out
// stays valid until the reset (a new chunk is taken when one is full; the old one lives on
// for whatever still refers to it).
type arena struct {
	vals      []Value
	ptrs      []*Value
	strs      []string
	offsets64 []int64
}

// reset makes the arena's memory free for the next item.
func (a *arena) reset() {
	a.vals, a.ptrs, a.strs, a.offsets64 = a.vals[:0], a.ptrs[:0], a.strs[:0], a.offsets64[:0]
}

func (a *arena) values(n int) []Value    { return take(&a.vals, n) }
func (a *arena) pointers(n int) []*Value { return take(&a.ptrs, n) }
func (a *arena) strings(n int) []string  { return take(&a.strs, n) }
func (a *arena) offsets(n int) []int64   { return take(&a.offsets64, n) }

// take hands out the next n elements of *buf, taking a new chunk when it is full.
func take[T any](buf *[]T, n int) []T {
	b := *buf
	if len(b)+n > cap(b) {
		b = make([]T, 0, max(2*cap(b), n, 64))
	}
	s := b[len(b) : len(b)+n : len(b)+n]
	*buf = b[:len(b)+n]
	return s
}
