package doc

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// JSON returns the Document as encoding/json.MarshalIndent(d, "", " ") writes it, byte for
// byte (json_test.go holds it to that): the CLI's `neffscope inspect --json` and the page's
// export. It is written by hand so the WebAssembly build need not carry encoding/json. As
// with encoding/json, a NaN or infinite series value is an error.
func (d *Document) JSON() ([]byte, error) {
	w := &jsonWriter{indent: 1}
	w.begin('{')
	w.key("model")
	w.b = strconv.AppendInt(w.b, int64(d.Model), 10)
	w.key("file")
	w.str(d.File)
	w.key("size")
	w.b = strconv.AppendInt(w.b, d.Size, 10)
	w.key("kind")
	w.str(d.Kind)
	if d.SHA256 != "" {
		w.key("sha256")
		w.str(d.SHA256)
	}
	w.key("root")
	w.node(d.Root)
	w.end('}')
	if w.err != nil {
		return nil, w.err
	}
	return w.b, nil
}

// NodeJSON returns n as encoding/json.MarshalIndent(n, "", strings.Repeat(" ", indent))
// writes it, byte for byte: `neffscope diff --json` (indent 2) and the page's diff export.
func NodeJSON(n *Node, indent int) ([]byte, error) {
	w := &jsonWriter{indent: max(indent, 0)}
	w.node(n)
	if w.err != nil {
		return nil, w.err
	}
	return w.b, nil
}

// jsonWriter writes indented JSON as encoding/json's Indent lays it out: one member or
// element per line, indent spaces per level, `"key": value`, and {} or [] when empty.
type jsonWriter struct {
	b      []byte
	indent int
	depth  int
	empty  bool // nothing written yet in the innermost object or array
	err    error
}

//go:noinline
func (w *jsonWriter) newline() {
	w.b = append(w.b, '\n')
	for range w.depth * w.indent {
		w.b = append(w.b, ' ')
	}
}

//go:noinline
func (w *jsonWriter) begin(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.empty = true
}

//go:noinline
func (w *jsonWriter) end(c byte) {
	w.depth--
	if !w.empty {
		w.newline()
	}
	w.b = append(w.b, c)
	w.empty = false
}

// elem starts the next member or element.
//
//go:noinline
func (w *jsonWriter) elem() {
	if !w.empty {
		w.b = append(w.b, ',')
	}
	w.empty = false
	w.newline()
}

// key starts a member; keys are plain ASCII and need no escaping.
//
//go:noinline
func (w *jsonWriter) key(k string) {
	w.elem()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':', ' ')
}

//go:noinline
func (w *jsonWriter) null() { w.b = append(w.b, "null"...) }

func (w *jsonWriter) node(n *Node) {
	if n == nil {
		w.null()
		return
	}
	w.begin('{')
	w.key("kind")
	w.str(n.Kind)
	w.optStr("key", n.Key)
	w.key("label")
	w.str(n.Label)
	w.optStr("value", n.Value)
	w.optStr("detail", n.Detail)
	if n.Span != nil {
		w.key("span")
		w.span(n.Span)
	}
	if len(n.Children) > 0 {
		w.key("children")
		w.begin('[')
		for _, c := range n.Children {
			w.elem()
			w.node(c)
		}
		w.end(']')
	}
	if n.Table != nil {
		w.key("table")
		w.table(n.Table)
	}
	if len(n.Series) > 0 {
		w.key("series")
		w.begin('[')
		for i := range n.Series {
			w.elem()
			w.series(&n.Series[i])
		}
		w.end(']')
	}
	if len(n.Findings) > 0 {
		w.key("findings")
		w.begin('[')
		for i := range n.Findings {
			w.elem()
			w.finding(&n.Findings[i])
		}
		w.end(']')
	}
	w.optStr("ref", n.Ref)
	w.end('}')
}

//go:noinline
func (w *jsonWriter) optStr(key, s string) {
	if s != "" {
		w.key(key)
		w.str(s)
	}
}

func (w *jsonWriter) span(s *Span) {
	w.begin('{')
	w.optStr("source", s.Source)
	w.key("offset")
	w.b = strconv.AppendInt(w.b, s.Offset, 10)
	w.key("length")
	w.b = strconv.AppendInt(w.b, s.Length, 10)
	w.end('}')
}

func (w *jsonWriter) finding(f *Finding) {
	w.begin('{')
	w.key("severity")
	w.str(f.Severity)
	w.key("message")
	w.str(f.Message)
	if f.Span != nil {
		w.key("span")
		w.span(f.Span)
	}
	w.end('}')
}

func (w *jsonWriter) table(t *Table) {
	w.begin('{')
	w.key("columns")
	w.strs(t.Columns)
	w.key("rows")
	if t.Rows == nil {
		w.null()
	} else {
		w.begin('[')
		for _, row := range t.Rows {
			w.elem()
			w.strs(row)
		}
		w.end(']')
	}
	if len(t.RowSpans) > 0 {
		w.key("row_spans")
		w.begin('[')
		for i := range t.RowSpans {
			w.elem()
			w.span(&t.RowSpans[i])
		}
		w.end(']')
	}
	w.end('}')
}

func (w *jsonWriter) series(s *Series) {
	w.begin('{')
	w.key("name")
	w.str(s.Name)
	w.key("x")
	w.floats(s.X)
	w.key("y")
	w.floats(s.Y)
	w.end('}')
}

func (w *jsonWriter) strs(ss []string) {
	if ss == nil {
		w.null()
		return
	}
	w.begin('[')
	for _, s := range ss {
		w.elem()
		w.str(s)
	}
	w.end(']')
}

func (w *jsonWriter) floats(fs []float64) {
	if fs == nil {
		w.null()
		return
	}
	w.begin('[')
	for _, f := range fs {
		w.elem()
		w.float(f)
	}
	w.end(']')
}

// jsonError is encoding/json's UnsupportedValueError message.
type jsonError string

func (e jsonError) Error() string { return "json: unsupported value: " + string(e) }

// float writes f as encoding/json does: like ES6 number to string, shortest round trip,
// exponent form below 1e-6 and from 1e21, exponents without zero padding.
func (w *jsonWriter) float(f float64) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		if w.err == nil {
			w.err = jsonError(strconv.FormatFloat(f, 'g', -1, 64))
		}
		return
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	w.b = strconv.AppendFloat(w.b, f, format, -1, 64)
	if format == 'e' { // e-09 → e-9
		if n := len(w.b); n >= 4 && w.b[n-4] == 'e' && w.b[n-3] == '-' && w.b[n-2] == '0' {
			w.b[n-2] = w.b[n-1]
			w.b = w.b[:n-1]
		}
	}
}

// str writes a JSON string as encoding/json does with HTML escaping on: <, > and & as
// \u003c..., control bytes as \n, \t, ... or \u00XX, invalid UTF-8 as \ufffd, and U+2028 and
// U+2029 escaped.
func (w *jsonWriter) str(s string) {
	const hex = "0123456789abcdef"
	b := append(w.b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
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
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	w.b = append(append(b, s[start:]...), '"')
}
