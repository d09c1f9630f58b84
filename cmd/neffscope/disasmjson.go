package main

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
)

// The `disasm --json` encoder. A NEFF of 250 MB holds 17.6 M instruction words and
// its listing is 13 GB of JSON, so the encoder appends bytes and never reflects:
//
//   - what is fixed per opcode is encoded once (opPlan): the name, the "layout" entries of the
//     header, sync band and field map, and the order of the "fields" keys (encoding/json sorts
//     a map's keys; the undocumented runs, which vary per word, are merged into that order);
//   - a word's field texts come from isa.AppendFields into buffers reused from word to word;
//   - strings from the file go through doc.AppendJSONString (JSONSafe), which writes what encoding/json
//     wrote and then what the CLI's jsonEscaper made of it, so the output is the bytes
//     json.Marshal of instJSON through jsonStdout gives, and the escaper is not run over
//     13 GB (disasm_oracle_test.go holds the two equal);
//   - writeDisasm (disasmpipe.go) cuts the words into jobs encoded on every core and reads
//     the streams that are not held back out of the archive in as few walks as it can.

// opPlan is what is fixed for every word of one opcode.
type opPlan struct {
	name   []byte    // `,"name":"Matmul","fields":{`
	layout []byte    // `},"layout":[{"field":"opcode","off":0,"len":1},...` (fixed fields, no closing bracket)
	keys   []planKey // the fixed fields in "fields" key order, one per name (the last wins, as in a map)
	spans  int       // entries in layout
}

type planKey struct {
	name       string
	key        []byte // `"name":`
	field      int    // index in isa.FixedFieldsOf
	wordLength bool   // the "word length" field, whose text a second word replaces
	// byteOnly: the text depends on the byte at off alone (isa.FixedField.ByteOnly); the
	// encoder keeps each value's `"key":"text"` once made, by textID (shared by the opcodes).
	byteOnly bool
	off      int
	textID   int
}

func newOpPlan(op uint8) *opPlan {
	p := &opPlan{}
	fixed := isa.FixedFieldsOf(op)
	p.name = append(p.name, `,"name":`...)
	p.name = doc.AppendJSONString(p.name, isa.Decode([]byte{op}, 0).Name, doc.JSONSafe)
	p.name = append(p.name, `,"fields":{`...)
	p.layout = append(p.layout, `},"layout":[`...)
	for _, f := range fixed {
		if f.Width > 0 {
			p.layout = appendLayoutEntry(p.layout, p.spans > 0, f.Name, f.Off, f.Width)
			p.spans++
		}
	}
	last := map[string]int{}
	for k, f := range fixed {
		last[f.Name] = k
	}
	for name, k := range last {
		pk := planKey{name: name, key: append(doc.AppendJSONString(nil, name, doc.JSONSafe), ':'), field: k, wordLength: name == "word length",
			byteOnly: fixed[k].ByteOnly, off: fixed[k].Off, textID: fixed[k].TextID}
		p.keys = append(p.keys, pk)
	}
	slices.SortFunc(p.keys, func(a, b planKey) int { return strings.Compare(a.name, b.name) })
	return p
}

func appendLayoutEntry(b []byte, comma bool, name string, off, width int) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(b, `{"field":`...)
	b = doc.AppendJSONString(b, name, doc.JSONSafe)
	b = append(b, `,"off":`...)
	b = strconv.AppendInt(b, int64(off), 10)
	b = append(b, `,"len":`...)
	b = strconv.AppendInt(b, int64(width), 10)
	return append(b, '}')
}

// jsonEncoder encodes instructions; its buffers are reused. One per goroutine.
type jsonEncoder struct {
	p       *inspect.Program
	plans   [256]*opPlan
	runs    []isa.Run
	tmp     []byte
	lastSrc inspect.Source
	haveSrc bool
	srcJSON []byte         // `,"source":{...}` of lastSrc
	texts   []*[256][]byte // by isa.FixedField.TextID: `"key":"text"` of each byte value
}

// appendText appends a field text as a JSON string: text appends it raw, and it is escaped
// only when it holds a byte that needs it.
func (e *jsonEncoder) appendText(b []byte, text func([]byte) []byte) []byte {
	start := len(b)
	b = text(append(b, '"'))
	for _, c := range b[start+1:] {
		if !doc.JSONSafe.Plain(c) {
			e.tmp = append(e.tmp[:0], b[start+1:]...)
			return doc.AppendJSONString(b[:start], e.tmp, doc.JSONSafe)
		}
	}
	return append(b, '"')
}

// appendInstruction appends word i of stream s (no separator before it).
func (e *jsonEncoder) appendInstruction(b []byte, s *inspect.ProgramStream, i int, word []byte) []byte {
	w := (*[isa.WordSize]byte)(word)
	op := w[0]
	plan := e.plans[op]
	if plan == nil {
		plan = newOpPlan(op)
		e.plans[op] = plan
	}
	partOf := s.ISA.PartOf(i)
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"offset":`...)
	b = strconv.AppendInt(b, int64(i)*isa.WordSize, 10)
	b = append(b, `,"opcode":`...)
	b = strconv.AppendUint(b, uint64(op), 10)
	b = append(b, plan.name...)

	// "fields": the fixed keys in order, the word's undocumented runs merged in. Their names,
	// "unknown 0xNN..0xMM", are in byte order as the runs are in offset order.
	e.runs = isa.AppendUndocumentedRuns(e.runs[:0], w)
	runs := e.runs
	first := true
	run := func(r isa.Run) {
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(doc.AppendJSONString(b, isa.RunName(r.Off, r.End), doc.JSONSafe), ':', '"')
		b = append(isa.AppendHexBytes(b, w[r.Off:r.End]), '"')
	}
	n := 0
	for ki := range plan.keys {
		k := &plan.keys[ki]
		for n < len(runs) && isa.RunName(runs[n].Off, runs[n].End) < k.name {
			run(runs[n])
			n++
		}
		if n < len(runs) && isa.RunName(runs[n].Off, runs[n].End) == k.name {
			run(runs[n]) // a run named like a fixed field comes later in the word: it wins
			n++
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		switch {
		case k.wordLength && partOf >= 0:
			// As Stream.Instruction: the +0x01 byte of a second word is no word length.
			b = e.appendText(append(b, k.key...), func(b []byte) []byte { return isa.AppendSecondWordLength(b, partOf) })
		case k.byteOnly:
			if e.texts == nil {
				e.texts = make([]*[256][]byte, isa.TextIDs())
			}
			tab := e.texts[k.textID]
			if tab == nil {
				tab = new([256][]byte)
				e.texts[k.textID] = tab
			}
			t := &tab[w[k.off]]
			if *t == nil {
				*t = e.appendText(append([]byte(nil), k.key...), func(b []byte) []byte { return isa.AppendFixedText(b, w, k.field) })
			}
			b = append(b, *t...)
		default:
			b = e.appendText(append(b, k.key...), func(b []byte) []byte { return isa.AppendFixedText(b, w, k.field) })
		}
	}
	for ; n < len(runs); n++ {
		run(runs[n])
	}

	switch isa.JoinOf(op) {
	case isa.JoinActivation:
		res := e.p.Resolve(s, i, word)
		b = append(b, `},"activation":{"set":`...)
		b = doc.AppendJSONString(b, res.Set, doc.JSONSafe)
		if res.Function != "" {
			b = append(b, `,"function":`...)
			b = doc.AppendJSONString(b, res.Function, doc.JSONSafe)
		}
		b = append(b, '}')
		b = append(b, plan.layout[1:]...)
	case isa.JoinDMA:
		res := e.p.Resolve(s, i, word)
		b = append(b, `},"dma":{"queue":`...)
		b = doc.AppendJSONString(b, res.Queue, doc.JSONSafe)
		b = append(b, `,"block":`...)
		b = doc.AppendJSONString(b, res.Block, doc.JSONSafe)
		if res.Src != "" {
			b = append(b, `,"src":`...)
			b = doc.AppendJSONString(b, res.Src, doc.JSONSafe)
		}
		if res.Dst != "" {
			b = append(b, `,"dst":`...)
			b = doc.AppendJSONString(b, res.Dst, doc.JSONSafe)
		}
		b = append(b, '}')
		b = append(b, plan.layout[1:]...)
	default:
		b = append(b, plan.layout...)
	}
	for k, r := range runs {
		b = appendLayoutEntry(b, k > 0 || plan.spans > 0, isa.RunName(r.Off, r.End), r.Off, r.End-r.Off)
	}
	b = append(b, ']')
	if partOf >= 0 {
		b = append(b, `,"part_of":`...)
		b = strconv.AppendInt(b, int64(partOf), 10)
	}
	if src, ok := e.p.Source.SourceOf(s.Member, i); ok {
		// Neighbouring words often come from one record: its JSON is encoded once. (Compared
		// by what the JSON holds: each lookup is a new value.)
		if !e.haveSrc || !sameSourceJSON(&src, &e.lastSrc) {
			e.lastSrc, e.haveSrc, e.srcJSON = src, true, appendSourceJSON(e.srcJSON[:0], &src)
		}
		b = append(b, e.srcJSON...)
	}
	return append(b, '}')
}

// sameSourceJSON says whether two sources write the same "source" object.
func sameSourceJSON(a, b *inspect.Source) bool {
	return a.BIR == b.BIR && a.File == b.File && a.Line == b.Line && a.Kernel == b.Kernel && a.Via == b.Via
}

// appendSourceJSON is sourceJSON as encoding/json wrote it.
func appendSourceJSON(b []byte, src *inspect.Source) []byte {
	b = append(b, `,"source":{"bir":`...)
	b = doc.AppendJSONString(b, src.BIR, doc.JSONSafe)
	b = append(b, `,"file":`...)
	if src.File != "" {
		b = doc.AppendJSONString(b, src.File, doc.JSONSafe)
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
		b = doc.AppendJSONString(b, src.Kernel, doc.JSONSafe)
	}
	if src.Via != "" {
		b = append(b, `,"via":`...)
		b = doc.AppendJSONString(b, src.Via, doc.JSONSafe)
	}
	return append(b, '}')
}

// writeDisasmJSON writes the disasmJSON contract. w receives bytes already escaped for a
// terminal (see doc.AppendJSONString): it is the CLI's stdout under its termWriter (rawStdout).
func writeDisasmJSON(w io.Writer, f *inspect.File, archive io.ReaderAt, picked []*inspect.ProgramStream) error {
	return writeDisasm(w, f, archive, picked, jsonFormat{})
}

// jsonFormat is `disasm --json`'s frame around the instructions.
type jsonFormat struct {
	findings []fileFinding // the open's limits (relayLimits), before the streams
}

func (f jsonFormat) begin(b []byte) []byte {
	return append(appendFindingsMember(append(b, "{\n "...), f.findings, " "), "\"streams\": ["...)
}

func (jsonFormat) streamHead(b []byte, k int, s *inspect.ProgramStream) []byte {
	if k > 0 {
		b = append(b, ',')
	}
	count := 0
	if s.ISA != nil {
		count = s.ISA.Len()
	}
	b = append(b, "\n  {\"subgraph\":"...)
	b = doc.AppendJSONString(b, s.Core.Name, doc.JSONSafe)
	b = append(b, `,"engine":`...)
	b = doc.AppendJSONString(b, s.Engine.Name, doc.JSONSafe)
	b = append(b, `,"member":`...)
	b = doc.AppendJSONString(b, s.Member, doc.JSONSafe)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(count), 10)
	return append(b, `,"instructions": [`...)
}

func (jsonFormat) streamEnd(b []byte, _ *inspect.ProgramStream) []byte { return append(b, "]}"...) }

func (jsonFormat) end(b []byte) []byte { return append(b, "\n ]\n}\n"...) }

// capped ends the JSON where the cap stopped it, still JSON: the open stream's list and the
// streams closed, then "output_cap" naming the cap.
func (f jsonFormat) capped(b []byte, began, open bool, limit int64) []byte {
	if !began {
		b = f.begin(b)
	}
	if open {
		b = append(b, "]}"...)
	}
	b = append(b, "\n ],\n \"output_cap\": {\"code\": \"output.cap\", \"max_output\": "...)
	b = strconv.AppendInt(b, limit, 10)
	return append(b, ", \"message\": \"the listing stopped before it passed --max-output bytes; --max-output 0 lifts the cap\"}\n}\n"...)
}

func (jsonFormat) encoder(p *inspect.Program) wordEncoder { return &jsonEncoder{p: p} }

func (e *jsonEncoder) appendWord(b []byte, s *inspect.ProgramStream, i int, word []byte) []byte {
	if i > 0 {
		b = append(b, ',')
	}
	return e.appendInstruction(append(b, "\n   "...), s, i, word)
}

// rawStdout is the writer under the CLI's termWriter, for JSON that is escaped as jsonEscaper
// escapes it as it is encoded (disasm --json); any other writer is returned as is.
func rawStdout(w io.Writer) io.Writer {
	if tw, ok := w.(*termWriter); ok && len(tw.tail) == 0 {
		return tw.w
	}
	return w
}
