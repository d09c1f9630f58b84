package ncfw

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// This file holds checks of the text rules of spec §3 written independently of the emitter's
// tables, so the goldens are not merely self-confirming: bracket balance, indentation = 2 ×
// nesting, the comma model M1, the value syntaxes, and JSON validity once the %p tokens are
// quoted (spec §9 test 5).

var (
	reScalar  = regexp.MustCompile(`^"[a-z_0-9]+": (-?[0-9]+|\(nil\)|0x[0-9a-f]+|"0x[0-9A-F]{16}")(,?)$`)
	reOpen    = regexp.MustCompile(`^(?:"([a-z_0-9]+)": )?([{\[])$`)
	reClose   = regexp.MustCompile(`^([}\]])(,?)$`)
	reHexItem = regexp.MustCompile(`^"0x[0-9A-F]{16}"(,?)$`)
	rePToken  = regexp.MustCompile(`(?m)": (\(nil\)|0x[0-9a-f]+)(,?)$`)
)

type opener struct {
	char   byte
	indent int
	key    string
}

// checkTextRules returns every violation of the §3 text rules in text (at most 20). cut says
// the text may stop anywhere (rc 28). The one allowed trailing comma is the U-9 site: the
// basic-block table closing "]," as the last member of basic_block.
func checkTextRules(text []byte, cut bool) []string {
	var bad []string
	fail := func(line int, format string, args ...any) {
		if len(bad) < 20 {
			bad = append(bad, fmt.Sprintf("line %d: %s", line+1, fmt.Sprintf(format, args...)))
		}
	}
	lines := strings.Split(string(text), "\n")
	if !cut {
		if lines[len(lines)-1] != "" {
			fail(len(lines)-1, "the text does not end with a newline")
		}
		lines = lines[:len(lines)-1]
	} else if len(lines) > 0 {
		lines = lines[:len(lines)-1] // the cut line is not judged
	}
	if len(lines) < 2 || lines[0] != "{" || !strings.HasPrefix(lines[1], `  "model_name": "`) || !strings.HasSuffix(lines[1], `",`) {
		return append(bad, "the framing lines are wrong")
	}
	stack := []opener{{'{', 0, ""}}
	isCloser := func(i int) bool {
		if i >= len(lines) {
			return true
		}
		b := strings.TrimLeft(lines[i], " ")
		return strings.HasPrefix(b, "}") || strings.HasPrefix(b, "]")
	}
	u9 := 0
	for i := 2; i < len(lines); i++ {
		l := lines[i]
		body := strings.TrimLeft(l, " ")
		ind := len(l) - len(body)
		if m := reClose.FindStringSubmatch(body); m != nil {
			if len(stack) == 0 {
				fail(i, "a close with nothing open")
				continue
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if (o.char == '{') != (m[1] == "}") {
				fail(i, "%q closes a %q", m[1], o.char)
			}
			if ind != o.indent {
				fail(i, "close at indent %d, its open at %d", ind, o.indent)
			}
			comma := m[2] == ","
			if comma && isCloser(i+1) && !(cut && i+1 >= len(lines)) {
				parent := ""
				if len(stack) > 0 {
					parent = stack[len(stack)-1].key
				}
				if o.key == "table" && parent == "basic_block" && m[1] == "]" {
					u9++
				} else {
					fail(i, "a comma before a close (%s in %s)", o.key, parent)
				}
			}
			if !comma && !isCloser(i+1) {
				fail(i, "no comma but a sibling follows")
			}
			continue
		}
		if len(stack) == 0 {
			fail(i, "text after the root closed")
			continue
		}
		if want := 2 * len(stack); ind != want {
			fail(i, "indent %d, nesting says %d", ind, want)
		}
		inArray := stack[len(stack)-1].char == '['
		if m := reOpen.FindStringSubmatch(body); m != nil {
			if inArray != (m[1] == "") {
				fail(i, "keyed=%v open inside array=%v", m[1] != "", inArray)
			}
			stack = append(stack, opener{m[2][0], ind, m[1]})
			continue
		}
		var m []string
		if inArray {
			m = reHexItem.FindStringSubmatch(body)
		} else {
			m = reScalar.FindStringSubmatch(body)
		}
		if m == nil {
			fail(i, "not a member line: %q", body)
			continue
		}
		comma := m[len(m)-1] == ","
		if comma == isCloser(i+1) && !(cut && i+1 >= len(lines)) {
			fail(i, "comma=%v but next line closer=%v", comma, isCloser(i+1))
		}
	}
	if !cut {
		if len(stack) != 0 {
			fail(len(lines), "%d containers left open", len(stack))
		}
		if u9 != 1 {
			fail(len(lines), "%d U-9 sites (basic_block/table closing \"],\"), want exactly 1", u9)
		}
	}
	return bad
}

// asJSON quotes the %p tokens and drops the U-9 trailing comma, giving strict JSON.
func asJSON(text []byte) []byte {
	s := rePToken.ReplaceAllString(string(text), `": "$1"$2`)
	s = regexp.MustCompile(`\],\n(\s*)\}`).ReplaceAllString(s, "]\n$1}")
	return []byte(s)
}

func validJSON(text []byte) error {
	j := asJSON(text)
	if json.Valid(j) {
		return nil
	}
	var v any
	err := json.Unmarshal(j, &v)
	if se, ok := err.(*json.SyntaxError); ok {
		return fmt.Errorf("%v at line %d", err, bytes.Count(j[:se.Offset], []byte{'\n'})+1)
	}
	return err
}
