package main

import (
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
)

// The `disasm --json` encoder (issue 13). A NEFF of 250 MB holds 17.6 M instruction words and
// its listing is 13 GB of JSON, so the encoder appends bytes and never reflects:
//
//   - what is fixed per opcode is encoded once (opPlan): the name, the "layout" entries of the
//     header, sync band and field map, and the order of the "fields" keys (encoding/json sorts
//     a map's keys; the undocumented runs, which vary per word, are merged into that order);
//   - a word's field texts come from isa.AppendFields into buffers reused from word to word;
//   - strings from the file go through appendJSONString, which writes what encoding/json
//     wrote and then what the CLI's termWriter made of it, so the output is the bytes the old
//     writer (json.Marshal of instJSON, through termWriter) produced, and termWriter is not
//     run over 13 GB (disasm_oracle_test.go holds the two equal);
//   - the words are read by wordFeed: a stream that is not held is read out of the archive by a
//     goroutine of its own, and the next stream's read starts while this one is encoded (its
//     inflate up to the member runs on the other core), with at most feedChunks chunks in
//     flight per stream.

// opPlan is what is fixed for every word of one opcode.
type opPlan struct {
	name   []byte    // `,"name":"Matmul","fields":{`
	layout []byte    // `},"layout":[{"field":"opcode","off":0,"len":1},...` (fixed fields, no closing bracket)
	keys   []planKey // the fixed fields in "fields" key order, one per name (the last wins, as in a map)
	fixed  int       // isa.FixedFields
	spans  int       // entries in layout
}

type planKey struct {
	name  string
	key   []byte // `"name":`
	field int    // index in the word's fields
}

func newOpPlan(op uint8, fs []isa.WordField) *opPlan {
	p := &opPlan{fixed: isa.FixedFields(op)}
	fixed := fs[:p.fixed]
	p.name = append(p.name, `,"name":`...)
	p.name = appendJSONString(p.name, isa.Decode([]byte{op}, 0).Name)
	p.name = append(p.name, `,"fields":{`...)
	p.layout = append(p.layout, `},"layout":[`...)
	for _, f := range fixed {
		if f.Width > 0 {
			p.layout = appendLayoutEntry(p.layout, p.spans > 0, f)
			p.spans++
		}
	}
	last := map[string]int{}
	for k, f := range fixed {
		last[f.Name] = k
	}
	for name, k := range last {
		p.keys = append(p.keys, planKey{name: name, key: append(appendJSONString(nil, name), ':'), field: k})
	}
	sortKeys(p.keys)
	return p
}

func sortKeys(keys []planKey) {
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j].name < keys[j-1].name; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}

func appendLayoutEntry(b []byte, comma bool, f isa.WordField) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(b, `{"field":`...)
	b = appendJSONString(b, f.Name)
	b = append(b, `,"off":`...)
	b = strconv.AppendInt(b, int64(f.Off), 10)
	b = append(b, `,"len":`...)
	b = strconv.AppendInt(b, int64(f.Width), 10)
	return append(b, '}')
}

// jsonEncoder encodes the instructions of one stream after another; its buffers are reused.
type jsonEncoder struct {
	p       *inspect.Program
	plans   [256]*opPlan
	fs      []isa.WordField
	text    []byte
	lastSrc *inspect.Source
	srcJSON []byte // `,"source":{...}` of lastSrc
}

// appendInstruction appends word i of stream s (no separator before it).
func (e *jsonEncoder) appendInstruction(b []byte, s *inspect.ProgramStream, i int, word []byte) []byte {
	w := (*[isa.WordSize]byte)(word)
	op := w[0]
	e.fs, e.text = isa.AppendFields(e.fs[:0], e.text[:0], w)
	plan := e.plans[op]
	if plan == nil {
		plan = newOpPlan(op, e.fs)
		e.plans[op] = plan
	}
	partOf := s.ISA.PartOf(i)
	if partOf >= 0 {
		// As Stream.Instruction: the +0x01 byte of a second word is no word length.
		for k := range e.fs {
			if e.fs[k].Name == "word length" {
				start := len(e.text)
				e.text = isa.AppendSecondWordLength(e.text, partOf)
				e.fs[k].Start, e.fs[k].End = start, len(e.text)
			}
		}
	}
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(i)*isa.WordSize, 10)
	b = append(b, `,"opcode":`...)
	b = strconv.AppendUint(b, uint64(op), 10)
	b = append(b, plan.name...)

	// "fields": the fixed keys in order, the word's undocumented runs merged in. Their names,
	// "unknown 0xNN..0xMM", are in byte order as the runs are in offset order.
	runs := e.fs[plan.fixed:]
	first := true
	field := func(key []byte, name string, f isa.WordField) {
		if !first {
			b = append(b, ',')
		}
		first = false
		if key != nil {
			b = append(b, key...)
		} else {
			b = append(appendJSONString(b, name), ':')
		}
		b = appendJSONString(b, e.text[f.Start:f.End])
	}
	r := 0
	for _, k := range plan.keys {
		for r < len(runs) && runs[r].Name <= k.name {
			if runs[r].Name < k.name {
				field(nil, runs[r].Name, runs[r])
			}
			r++
		}
		if r > 0 && runs[r-1].Name == k.name {
			field(nil, k.name, runs[r-1]) // a run named like a fixed field comes later: it wins
			continue
		}
		field(k.key, "", e.fs[k.field])
	}
	for ; r < len(runs); r++ {
		field(nil, runs[r].Name, runs[r])
	}

	switch op {
	case 0x21, 0x23:
		res := e.p.Resolve(s, i, word)
		b = append(b, `},"activation":{"set":`...)
		b = appendJSONString(b, res.Set)
		if res.Function != "" {
			b = append(b, `,"function":`...)
			b = appendJSONString(b, res.Function)
		}
		b = append(b, '}')
		b = append(b, plan.layout[1:]...)
	case 0xC1, 0xD4:
		res := e.p.Resolve(s, i, word)
		b = append(b, `},"dma":{"queue":`...)
		b = appendJSONString(b, res.Queue)
		b = append(b, `,"block":`...)
		if op == 0xC1 {
			b = appendJSONString(b, res.Block)
		} else {
			b = append(b, `""`...)
			if res.Src != "" {
				b = append(b, `,"src":`...)
				b = appendJSONString(b, res.Src)
			}
			if res.Dst != "" {
				b = append(b, `,"dst":`...)
				b = appendJSONString(b, res.Dst)
			}
		}
		b = append(b, '}')
		b = append(b, plan.layout[1:]...)
	default:
		b = append(b, plan.layout...)
	}
	for k, f := range runs {
		if f.Width > 0 {
			b = appendLayoutEntry(b, k > 0 || plan.spans > 0, f)
		}
	}
	b = append(b, ']')
	if partOf >= 0 {
		b = append(b, `,"part_of":`...)
		b = strconv.AppendInt(b, int64(partOf), 10)
	}
	if src := e.p.Source.Source(s.Member, i); src != nil {
		if src != e.lastSrc {
			e.lastSrc, e.srcJSON = src, appendSourceJSON(e.srcJSON[:0], src)
		}
		b = append(b, e.srcJSON...)
	}
	return append(b, '}')
}

// appendSourceJSON is sourceJSON as encoding/json wrote it.
func appendSourceJSON(b []byte, src *inspect.Source) []byte {
	b = append(b, `,"source":{"bir":`...)
	b = appendJSONString(b, src.BIR)
	b = append(b, `,"file":`...)
	if src.File != "" {
		b = appendJSONString(b, src.File)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"line":`...)
	if src.Line > 0 {
		b = strconv.AppendInt(b, int64(src.Line), 10)
	} else {
		b = append(b, "null"...)
	}
	if src.Kernel != "" {
		b = append(b, `,"kernel":`...)
		b = appendJSONString(b, src.Kernel)
	}
	if src.Via != "" {
		b = append(b, `,"via":`...)
		b = appendJSONString(b, src.Via)
	}
	return append(b, '}')
}

// plainJSON marks the bytes a string carries as they are: printable ASCII but for the ones
// encoding/json escapes (", \, and <, > and & as it escapes HTML). DEL is printable to
// encoding/json but not to termWriter.
var plainJSON = func() (t [256]bool) {
	for c := 0x20; c < 0x7F; c++ {
		t[c] = true
	}
	for _, c := range `"\<>&` {
		t[c] = false
	}
	return t
}()

// appendJSONString appends s quoted as encoding/json quotes a string (HTML-safe, invalid UTF-8
// as \ufffd, U+2028 and U+2029 escaped), then escaped as termWriter escapes text output:
// DEL as \x7f, and C1 controls and format characters (bidi overrides) as strconv quotes them.
func appendJSONString[S string | []byte](b []byte, s S) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plainJSON[c] {
			i++
			continue
		}
		b = append(b, s[start:i]...)
		if c < utf8.RuneSelf {
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case 0x7F:
				b = append(b, '\\', 'x', '7', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(string(s[i:min(len(s), i+utf8.UTFMax)]))
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		case termEscapes(r):
			q := strconv.QuoteRuneToASCII(r)
			b = append(b, q[1:len(q)-1]...)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// termEscapes is termWriter's test for a rune it escapes (safe.go).
func termEscapes(r rune) bool {
	return unicode.Is(unicode.Cc, r) || unicode.Is(unicode.Cf, r) && r != 0xFEFF && r != 0x200D
}

// writeDisasmJSON writes the disasmJSON contract incrementally. w receives bytes already
// escaped for a terminal (see appendJSONString): it is the CLI's stdout under its termWriter.
func writeDisasmJSON(w io.Writer, f *inspect.File, picked []*inspect.ProgramStream) error {
	bw := &errWriter{w: w}
	e := &jsonEncoder{p: f.Program}
	b := make([]byte, 0, jsonFlush+64<<10)
	b = append(b, "{\n \"streams\": ["...)
	feeds := startFeeds(picked)
	for k, s := range picked {
		if k > 0 {
			b = append(b, ',')
		}
		count := 0
		if s.ISA != nil {
			count = s.ISA.Len()
		}
		b = append(b, "\n  {\"subgraph\":"...)
		b = appendJSONString(b, s.Core.Name)
		b = append(b, `,"engine":`...)
		b = appendJSONString(b, s.Engine.Name)
		b = append(b, `,"member":`...)
		b = appendJSONString(b, s.Member)
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(count), 10)
		b = append(b, `,"instructions": [`...)
		feeds.each(k, func(i int, word []byte) bool {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, "\n   "...)
			b = e.appendInstruction(b, s, i, word)
			if len(b) >= jsonFlush {
				bw.write(b)
				b = b[:0]
			}
			return bw.err == nil
		})
		b = append(b, "]}"...)
	}
	feeds.stop()
	b = append(b, "\n ]\n}\n"...)
	bw.write(b)
	return bw.err
}

// jsonFlush is how much encoded JSON is gathered before a write.
const jsonFlush = 1 << 20

// rawStdout is the writer under the CLI's termWriter, for output that is escaped as it is
// encoded (disasm --json); any other writer is returned as is.
func rawStdout(w io.Writer) io.Writer {
	if tw, ok := w.(*termWriter); ok && len(tw.tail) == 0 {
		return tw.w
	}
	return w
}

// wordFeeds hands writeDisasmJSON the words of the picked streams in order. A held stream is
// walked in place; a stream that is not held is read by a goroutine (one pass out of the
// archive, isa.Stream.Words) into feedChunks chunks of feedWords words that go round between
// it and the encoder, and the reader of the next such stream starts when a stream starts, so
// its inflate up to its member overlaps the encoding.
type wordFeeds struct {
	picked  []*inspect.ProgramStream
	readers map[int]*feedReader
}

const (
	feedWords  = 4096 // 256 KiB a chunk
	feedChunks = 4
)

type feedChunk struct {
	first, n int
	words    []byte
}

type feedReader struct {
	out, free chan *feedChunk
	done      chan struct{}
}

func startFeeds(picked []*inspect.ProgramStream) *wordFeeds {
	return &wordFeeds{picked: picked, readers: map[int]*feedReader{}}
}

func (f *wordFeeds) reader(k int) *feedReader {
	if rd := f.readers[k]; rd != nil {
		return rd
	}
	rd := &feedReader{out: make(chan *feedChunk, feedChunks), free: make(chan *feedChunk, feedChunks), done: make(chan struct{})}
	for range feedChunks {
		rd.free <- &feedChunk{words: make([]byte, feedWords*isa.WordSize)}
	}
	f.readers[k] = rd
	st := f.picked[k].ISA
	go func() {
		defer close(rd.out)
		var ch *feedChunk
		for i, w := range st.Words() {
			if ch == nil {
				select {
				case ch = <-rd.free:
				case <-rd.done:
					return
				}
				ch.first, ch.n = i, 0
			}
			copy(ch.words[ch.n*isa.WordSize:], w)
			if ch.n++; ch.n == feedWords {
				select {
				case rd.out <- ch:
				case <-rd.done:
					return
				}
				ch = nil
			}
		}
		if ch != nil {
			select {
			case rd.out <- ch:
			case <-rd.done:
			}
		}
	}()
	return rd
}

func streamed(s *inspect.ProgramStream) bool { return s.ISA != nil && !s.ISA.Held() }

// each calls fn for every word of stream k in order until fn returns false.
func (f *wordFeeds) each(k int, fn func(i int, word []byte) bool) {
	s := f.picked[k]
	for next := k + 1; next < len(f.picked); next++ {
		if streamed(f.picked[next]) {
			f.reader(next)
			break
		}
	}
	if s.ISA == nil {
		return
	}
	if !streamed(s) {
		for i, w := range s.ISA.Words() {
			if !fn(i, w) {
				return
			}
		}
		return
	}
	rd := f.reader(k)
	defer func() {
		close(rd.done)
		delete(f.readers, k)
	}()
	for ch := range rd.out {
		for j := range ch.n {
			if !fn(ch.first+j, ch.words[j*isa.WordSize:(j+1)*isa.WordSize:(j+1)*isa.WordSize]) {
				return
			}
		}
		rd.free <- ch
	}
}

// stop ends the readers still running (after a write error).
func (f *wordFeeds) stop() {
	for k, rd := range f.readers {
		close(rd.done)
		delete(f.readers, k)
	}
}
