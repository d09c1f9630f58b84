package main

import (
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/isa"
)

// The text listing of `disasm`, one line per word:
//
//	      7  0001c0  02 Matmul                       src=... dst=...  [wait S[8]>=16]  ; set ...  ; file.py:42 inst.329
//
// written by writeDisasm's jobs like the JSON, so it runs on every core and reads streams that
// are not held in as few archive walks. It writes what the fmt-based loop it replaced wrote
// (disasm_oracle_test.go keeps that loop as the oracle); the output goes through the CLI's
// termWriter, which escapes what the file's strings hold.

func writeDisasmText(w io.Writer, f *inspect.File, archive io.ReaderAt, picked []*inspect.ProgramStream) error {
	return writeDisasm(w, f, archive, picked, textFormat{})
}

type textFormat struct{}

func (textFormat) begin(b []byte) []byte { return b }

// streamHead is "; sg00 PE  sg00/PE.bin  (24035328 bytes)".
func (textFormat) streamHead(b []byte, _ int, s *inspect.ProgramStream) []byte {
	b = append(b, "; "...)
	b = append(b, s.Core.Name...)
	b = append(b, ' ')
	b = append(b, s.Engine.Name...)
	b = append(b, "  "...)
	b = append(b, s.Member...)
	b = append(b, "  ("...)
	b = strconv.AppendInt(b, s.Size, 10)
	b = append(b, " bytes)\n"...)
	if s.ISA == nil {
		b = append(b, "; stream bytes not available\n"...)
	}
	return b
}

func (textFormat) streamEnd(b []byte, s *inspect.ProgramStream) []byte {
	if s.ISA == nil {
		return b
	}
	return append(b, '\n')
}

func (textFormat) end(b []byte) []byte { return b }

// capped is a last line naming the cap.
func (textFormat) capped(b []byte, _, _ bool, limit int64) []byte {
	b = append(b, "; the listing stopped before it passed --max-output "...)
	b = strconv.AppendInt(b, limit, 10)
	return append(b, " bytes; --max-output 0 lifts the cap [output.cap]\n"...)
}

func (textFormat) encoder(p *inspect.Program) wordEncoder { return &textEncoder{p: p} }

type textEncoder struct {
	p       *inspect.Program
	names   [256]string
	lastSrc *inspect.Source
	srcText string
}

// appendWord is, for word i, what this printed:
//
//	"%7d  %06x  %02x %-28s %s" (index, offset, opcode, name, isa.Summary), "  [%s]" with
//	isa.SyncText when there is one, "  ; %s" with Program.Resolve's text when there is one,
//	"  ; %s" with the source's Text when there is one, and a newline.
func (e *textEncoder) appendWord(b []byte, s *inspect.ProgramStream, i int, word []byte) []byte {
	const hexdigits = "0123456789abcdef"
	w := (*[isa.WordSize]byte)(word)
	op := w[0]
	var num [24]byte
	d := strconv.AppendInt(num[:0], int64(i), 10)
	for k := len(d); k < 7; k++ {
		b = append(b, ' ')
	}
	b = append(append(b, d...), ' ', ' ')
	d = strconv.AppendInt(num[:0], int64(i)*isa.WordSize, 16)
	for k := len(d); k < 6; k++ {
		b = append(b, '0')
	}
	b = append(append(b, d...), ' ', ' ', hexdigits[op>>4], hexdigits[op&15], ' ')
	name := e.names[op]
	if name == "" {
		name = isa.Decode([]byte{op}, 0).Name
		e.names[op] = name
	}
	b = append(b, name...)
	for k := utf8.RuneCountInString(name); k < 28; k++ {
		b = append(b, ' ')
	}
	b = isa.AppendSummary(append(b, ' '), w)
	mark := len(b)
	b = append(b, "  ["...)
	if n := len(b); len(isa.AppendSyncText(b, w)) == n {
		b = b[:mark]
	} else {
		b = append(isa.AppendSyncText(b[:n], w), ']')
	}
	if isa.JoinOf(op) != isa.JoinNone { // Resolve joins nothing else (TestResolveOnlyJoinedOpcodes)
		if r := e.p.Resolve(s, i, word).String(); r != "" {
			b = append(append(b, "  ; "...), r...)
		}
	}
	if src := e.p.Source.Source(s.Member, i); src != nil {
		if src != e.lastSrc {
			e.lastSrc, e.srcText = src, src.Text()
		}
		b = append(append(b, "  ; "...), e.srcText...)
	}
	return append(b, '\n')
}
