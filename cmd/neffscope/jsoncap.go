package main

import (
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
)

// errOutputCapped ends a JSON writer at the output cap (jsonCapWriter).
var errOutputCapped = errors.New("output cap reached")

// jsonCapWriter passes JSON through until limit bytes, then closes what is open so the
// output still parses, adds "output_cap" (code output.cap) to the outermost object, and fails
// every later write with errOutputCapped so the writer stops. It follows the JSON's nesting
// byte by byte (jsonState), for writers whose structure it does not know (inspect --json).
type jsonCapWriter struct {
	w       io.Writer
	limit   int64
	written int64
	capped  bool
	st      jsonState
}

func (c *jsonCapWriter) Write(p []byte) (int, error) {
	if c.capped {
		return 0, errOutputCapped
	}
	room := c.limit - c.written
	if int64(len(p)) <= room {
		c.st.feed(p)
		n, err := c.w.Write(p)
		c.written += int64(n)
		return n, err
	}
	part := p[:room]
	// Not in the middle of a character: the output stays valid UTF-8.
	for k := len(part) - 1; k >= 0 && k >= len(part)-utf8.UTFMax; k-- {
		if utf8.RuneStart(part[k]) {
			if !utf8.FullRune(part[k:]) {
				part = part[:k]
			}
			break
		}
	}
	c.st.feed(part)
	c.capped = true
	if _, err := c.w.Write(append(part[:len(part):len(part)], c.st.close(c.limit)...)); err != nil {
		return 0, err
	}
	return len(part), errOutputCapped
}

// jsonState is where a JSON text stands after the bytes fed: the open containers, and
// whether it is inside a string (an escape) or a literal.
type jsonState struct {
	stack  []jsonLevel
	inStr  bool
	strKey bool // the string is an object's key
	esc    int  // 1: after '\'; 2..5: in \u after esc-2 hex digits
	lit    []byte
}

type jsonLevel struct {
	open   byte // '{' or '['
	expect byte // 'k' a key, ':' the colon, 'v' a value, ',' a comma or the end
	empty  bool
}

func (s *jsonState) top() *jsonLevel {
	if len(s.stack) == 0 {
		return nil
	}
	return &s.stack[len(s.stack)-1]
}

// valueDone: a value ended; its container now wants a comma or its end.
func (s *jsonState) valueDone() {
	if t := s.top(); t != nil {
		t.expect = ','
	}
}

func (s *jsonState) startValue() {
	if t := s.top(); t != nil {
		t.empty = false
	}
}

func (s *jsonState) feed(p []byte) {
	for _, c := range p {
		if s.inStr {
			switch {
			case s.esc == 1:
				s.esc = 0
				if c == 'u' {
					s.esc = 2
				}
			case s.esc >= 2:
				if s.esc++; s.esc == 6 {
					s.esc = 0
				}
			case c == '\\':
				s.esc = 1
			case c == '"':
				s.inStr = false
				if s.strKey {
					s.top().expect = ':'
				} else {
					s.valueDone()
				}
			}
			continue
		}
		if s.lit != nil {
			if c == '-' || c == '+' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				if len(s.lit) < 8 {
					s.lit = append(s.lit, c)
				}
				continue
			}
			s.lit = nil
			s.valueDone()
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case '{', '[':
			s.startValue()
			exp := byte('v')
			if c == '{' {
				exp = 'k'
			}
			s.stack = append(s.stack, jsonLevel{open: c, expect: exp, empty: true})
		case '}', ']':
			if len(s.stack) > 0 {
				s.stack = s.stack[:len(s.stack)-1]
			}
			s.valueDone()
		case '"':
			t := s.top()
			s.inStr, s.strKey = true, t != nil && t.open == '{' && t.expect == 'k'
			s.startValue()
		case ':':
			if t := s.top(); t != nil {
				t.expect = 'v'
			}
		case ',':
			if t := s.top(); t != nil {
				t.expect = 'v'
				if t.open == '{' {
					t.expect = 'k'
				}
			}
		default:
			s.startValue()
			s.lit = append(make([]byte, 0, 8), c)
		}
	}
}

// close returns the bytes that end the text fed so far as valid JSON, with the cap named.
func (s *jsonState) close(limit int64) []byte {
	var b []byte
	if s.inStr {
		switch {
		case s.esc == 1:
			b = append(b, '\\')
		case s.esc >= 2:
			for range 6 - s.esc {
				b = append(b, '0')
			}
		}
		b = append(b, '"')
		s.inStr = false
		if s.strKey {
			s.top().expect = ':'
		} else {
			s.valueDone()
		}
	}
	if s.lit != nil {
		switch word := string(s.lit); {
		case word[0] == 't', word[0] == 'f', word[0] == 'n':
			full := map[byte]string{'t': "true", 'f': "false", 'n': "null"}[word[0]]
			if len(word) < len(full) {
				b = append(b, full[len(word):]...)
			}
		case word[len(word)-1] < '0' || word[len(word)-1] > '9':
			b = append(b, '0')
		}
		s.lit = nil
		s.valueDone()
	}
	capObj := `{"code": "output.cap", "max_output": ` + strconv.FormatInt(limit, 10) + `, "message": "the output stopped before it passed --max-output bytes; --max-output 0 lifts the cap"}`
	if len(s.stack) == 0 {
		return append(append(b, "\n{\"output_cap\": "...), capObj+"}\n"...)
	}
	for len(s.stack) > 0 {
		t := s.stack[len(s.stack)-1]
		outer := len(s.stack) == 1
		afterComma := !t.empty && (t.expect == 'k' || t.open == '[' && t.expect == 'v')
		switch t.expect {
		case ':':
			b = append(b, ":null"...)
		case 'v':
			if t.open == '{' || afterComma && !outer {
				b = append(b, "null"...)
			}
		case 'k':
			if afterComma && !outer {
				b = append(b, `"":null`...)
			}
		}
		if outer {
			if t.expect == ':' || t.expect == 'v' && t.open == '{' || t.expect == ',' {
				b = append(b, ',')
			}
			if t.open == '{' {
				b = append(b, "\"output_cap\": "...)
			} else {
				b = append(b, "{\"output_cap\": "...)
			}
			b = append(b, capObj...)
			if t.open == '[' {
				b = append(b, '}')
			}
		}
		b = append(b, map[byte]byte{'{': '}', '[': ']'}[t.open])
		s.stack = s.stack[:len(s.stack)-1]
		s.valueDone()
	}
	return append(b, '\n')
}
