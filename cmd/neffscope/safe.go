package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
)

// Strings that come from a file (member names, JSON strings, model names) go to a terminal
// only through safe or safeMsg, so a forged name cannot retitle, clear or overwrite it; and
// every text command writes through a termWriter, which escapes what a printer missed. JSON
// never goes through the termWriter: it is written by a JSON encoder, then through a
// jsonEscaper (jsonStdout), which writes the same runes as \u escapes, so it parses to the
// same values and stays valid JSON.

// safe returns s as is when it is plain printable text, else quoted as strconv.Quote does
// (with every rune doc.Escapes names escaped).
func safe(s string) string {
	if plain(s) {
		return s
	}
	return quoteText(s)
}

// safeMsg escapes the runes of escapedRunes inside s (no quotes added): for finding messages,
// which quote file strings inside a sentence.
func safeMsg(s string) string {
	if plain(s) {
		return s
	}
	q := quoteText(s)
	return strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`)
}

// quoteText is strconv.Quote with every rune of escapedRunes escaped too (strconv keeps the
// printable ones, such as ZWJ, as they are).
func quoteText(s string) string {
	b := make([]byte, 0, len(s)+8)
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = appendTextByte(b, s[i])
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case doc.Escapes(r):
			b = appendTextRune(b, r)
		default:
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(append(b, '"'))
}

// plain: valid UTF-8 with no rune of escapedRunes.
func plain(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || doc.Escapes(r) {
			return false
		}
		i += n
	}
	return true
}

// appendTextRune appends r as text output shows an escaped rune: as Go writes it in a string
// literal (\x1b, \n, \x7f, \u202e, \U000e0001).
func appendTextRune(b []byte, r rune) []byte {
	q := strconv.QuoteRuneToASCII(r)
	return append(b, q[1:len(q)-1]...)
}

// appendTextByte appends a byte that is not UTF-8 as \xNN.
func appendTextByte(b []byte, c byte) []byte {
	const hex = "0123456789abcdef"
	return append(b, '\\', 'x', hex[c>>4], hex[c&15])
}

// termWriter escapes, in text output, every rune of escapedRunes but newline and tab (the
// printers' layout) and invalid UTF-8, keeping an incomplete UTF-8 sequence at the end of a
// write for the next.
type termWriter struct {
	w    io.Writer
	tail []byte
	json *jsonEscaper // the same stdout for JSON (jsonStdout), flushed with this one
}

func (t *termWriter) Write(p []byte) (int, error) {
	n := len(p)
	if len(t.tail) > 0 {
		p = append(t.tail, p...)
		t.tail = nil
	}
	out := make([]byte, 0, len(p)+16)
	for i := 0; i < len(p); {
		c := p[i]
		if c < utf8.RuneSelf {
			if doc.Escapes(rune(c)) && c != '\n' && c != '\t' {
				out = appendTextRune(out, rune(c))
			} else {
				out = append(out, c)
			}
			i++
			continue
		}
		if !utf8.FullRune(p[i:]) && len(p)-i < utf8.UTFMax {
			t.tail = append([]byte(nil), p[i:]...)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = appendTextByte(out, c)
		case doc.Escapes(r):
			out = appendTextRune(out, r)
		default:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes a dangling incomplete sequence, escaped.
func (t *termWriter) Flush() {
	if t.json != nil {
		t.json.Flush()
	}
	if len(t.tail) > 0 {
		var b []byte
		for _, c := range t.tail {
			b = appendTextByte(b, c)
		}
		t.tail = nil
		t.w.Write(b)
	}
}

// jsonEscaper passes JSON through with the runes of escapedRunes written as \u escapes
// (DEL as \u007f, U+E0001 as \udb40\udc01) and invalid UTF-8 as \ufffd, as encoding/json
// writes it. Such runes can only stand inside strings in JSON, so the output parses to the
// same values; tab, newline and CR pass as they are (they may be JSON's whitespace). An
// incomplete UTF-8 sequence at the end of a write is kept for the next.
type jsonEscaper struct {
	w    io.Writer
	tail []byte
}

// jsonPlain marks the bytes jsonEscaper passes as they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7F; c++ {
		t[c] = true
	}
	t['\t'], t['\n'], t['\r'] = true, true, true
	return t
}()

func (j *jsonEscaper) Write(p []byte) (int, error) {
	n := len(p)
	if len(j.tail) > 0 {
		p = append(j.tail, p...)
		j.tail = nil
	}
	i := 0
	for i < len(p) && jsonPlain[p[i]] {
		i++
	}
	if i == len(p) { // the common case: nothing to escape
		if _, err := j.w.Write(p); err != nil {
			return 0, err
		}
		return n, nil
	}
	out := make([]byte, 0, len(p)+16)
	out = append(out, p[:i]...)
	for i < len(p) {
		c := p[i]
		if jsonPlain[c] {
			out = append(out, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			out = doc.AppendJSONRune(out, rune(c))
			i++
			continue
		}
		if !utf8.FullRune(p[i:]) && len(p)-i < utf8.UTFMax {
			j.tail = append([]byte(nil), p[i:]...)
			break
		}
		r, size := utf8.DecodeRune(p[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = doc.AppendJSONRune(out, utf8.RuneError)
		case doc.Escapes(r):
			out = doc.AppendJSONRune(out, r)
		default:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if _, err := j.w.Write(out); err != nil {
		return 0, err
	}
	return n, nil
}

// Flush writes a dangling incomplete sequence as \ufffd, one per byte.
func (j *jsonEscaper) Flush() {
	if len(j.tail) > 0 {
		var b []byte
		for range j.tail {
			b = doc.AppendJSONRune(b, utf8.RuneError)
		}
		j.tail = nil
		j.w.Write(b)
	}
}

// jsonStdout is the writer for a command's JSON: w's own writer, past the termWriter that
// escapes text, through a jsonEscaper. Output already escaped as it is encoded (disasm
// --json) takes rawStdout instead.
func jsonStdout(w io.Writer) io.Writer {
	if tw, ok := w.(*termWriter); ok {
		if tw.json == nil {
			tw.json = &jsonEscaper{w: tw.w}
		}
		return tw.json
	}
	if j, ok := w.(*jsonEscaper); ok {
		return j
	}
	return &jsonEscaper{w: w}
}

// rawOutput names the commands whose stdout is bytes (a member, a NEFF), never escaped.
var rawOutput = map[string]bool{"extract": true, "extract-neff": true}

// cliLimits are the budget flags of the last command parsed (commonFlags registers them);
// openFile applies them when the caller set no limits of its own.
var cliLimits budget.Limits

func budgetFlags(fs *flag.FlagSet) {
	def := budget.Native()
	fs.Int64Var(&cliLimits.Memory, "max-memory", def.Memory, "bytes an open may hold: kept members plus decoded structure (estimated); past it, the rest is shown as bytes")
	fs.Int64Var(&cliLimits.Values, "max-values", def.Values, "JSON values indexed over the whole file; past it, JSON is shown as bytes")
	fs.Int64Var(&cliLimits.Members, "max-members", def.Members, "archive members listed; past it, listing stops")
	fs.Int64Var(&cliLimits.Rows, "max-rows", def.Rows, "instruction rows one request may materialise")
}

// notReadable ends a command whose FILE holds nothing it reads (not a NEFF, no program): it
// relays the open's limits, says why in what (on stderr), and prints the file's own error
// findings, which are the cause when there are any. It returns the exit code: 1 when an error
// was printed (a NEFF too damaged to read, or cut by a limit), else 2 (a file of a kind the
// command does not read is trouble, as an unreadable one is).
func notReadable(stderr io.Writer, f *inspect.File, what string) int {
	_, rc := relayLimits(stderr, f, false)
	fmt.Fprintf(stderr, "neffscope: %s\n", what)
	for _, fd := range unrelayed(errorFindings(f)) {
		fmt.Fprintf(stderr, "neffscope: %s: error: %s\n", safe(f.Name), safeMsg(fd.Message))
		rc = 1
	}
	if rc == 0 {
		return 2
	}
	return rc
}

// exitFor is 1 when an error finding was printed for f, else 0.
func exitFor(f *inspect.File) int {
	if f != nil && f.Doc != nil && doc.Worst(f.Doc.Findings()) == doc.Error {
		return 1
	}
	return 0
}
