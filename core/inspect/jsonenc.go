package inspect

// An append encoder for doc.Node with one-space indent: byte for byte what encoding/json's
// MarshalIndent prints (field order and omitempty rules of doc.Node's tags, HTML-safe string
// escaping, sorted attribute keys), without reflection or the intermediate compact copy that
// MarshalIndent re-indents, so WriteJSON allocates next to nothing for most nodes. A node's
// table, curves and findings (rarer, and more code to encode by hand than the wasm's size
// budget likes) still go through encoding/json. TestNodeEncoderEqualsMarshalIndent holds it
// to encoding/json on every node of the real NEFFs and on strings of every escape class.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
)

// appendNodeHead appends n's opening brace and its fields before "children" (kind, key, label,
// value, detail, attrs, span) at indent ind (the node's prefix plus one space); attrs stands
// for n.Attrs.
func appendNodeHead(b []byte, n *doc.Node, attrs map[string]string, ind string) []byte {
	b = append(b, '{')
	b = appendKey(b, ind, "kind", true)
	b = doc.AppendJSONString(b, n.Kind, doc.JSONStd)
	if n.Key != "" {
		b = appendKey(b, ind, "key", false)
		b = doc.AppendJSONString(b, n.Key, doc.JSONStd)
	}
	b = appendKey(b, ind, "label", false)
	b = doc.AppendJSONString(b, n.Label, doc.JSONStd)
	if n.Value != "" {
		b = appendKey(b, ind, "value", false)
		b = doc.AppendJSONString(b, n.Value, doc.JSONStd)
	}
	if n.Detail != "" {
		b = appendKey(b, ind, "detail", false)
		b = doc.AppendJSONString(b, n.Detail, doc.JSONStd)
	}
	if len(attrs) > 0 {
		b = appendKey(b, ind, "attrs", false)
		b = appendAttrs(b, attrs, ind)
	}
	if n.Span != nil {
		b = appendKey(b, ind, "span", false)
		b = appendSpan(b, n.Span, ind)
	}
	return b
}

// nodeTail is the fields of a node after its children that are rare and structured (a
// table, curves, findings), encoded by encoding/json with doc.Node's tags.
type nodeTail struct {
	Table    *doc.Table    `json:"table,omitempty"`
	Series   []doc.Series  `json:"series,omitempty"`
	Findings []doc.Finding `json:"findings,omitempty"`
}

// appendNodeTail appends n's fields after "children" (table, series, findings, ref, link; ref
// stands for n.Ref) and its closing brace at prefix.
func appendNodeTail(b []byte, n *doc.Node, ref, prefix, ind string) ([]byte, error) {
	return appendNodeTailFlushing(b, n, ref, prefix, ind, nil)
}

// tableFlushAt is how many bytes of a table's rows appendNodeTailFlushing appends before it
// hands them to flush.
var tableFlushAt = 64 << 10 // a var so tests can flush after every row

// appendNodeTailFlushing is appendNodeTail encoding a table's rows one at a time, handing what
// it has appended to flush (when not nil) every tableFlushAt bytes and going on in the
// buffer flush gives back: a member table of 130,000 rows was encoded whole, its compact
// and indented copies and their growth over 100 MB at once.
func appendNodeTailFlushing(b []byte, n *doc.Node, ref, prefix, ind string, flush func([]byte) ([]byte, error)) ([]byte, error) {
	if n.Table != nil || len(n.Series) > 0 || len(n.Findings) > 0 {
		table, rows := n.Table, [][]string(nil)
		if table != nil && len(table.Rows) > 0 {
			c := *table
			rows, c.Rows = c.Rows, [][]string{}
			table = &c
		}
		t, err := json.MarshalIndent(&nodeTail{table, n.Series, n.Findings}, prefix, " ")
		if err != nil {
			return b, err
		}
		// "{\n<ind>field...\n<prefix>}": its fields, as they stand in the node
		t = t[1 : len(t)-len(prefix)-2]
		b = append(b, ',')
		if rows == nil {
			b = append(b, t...)
		} else {
			// The rows go where the table's "rows": [] stands (a raw newline and this
			// indent are in no string), at the indent MarshalIndent gives them.
			marker := "\n" + prefix + "  \"rows\": []"
			at := bytes.Index(t, []byte(marker))
			if at < 0 {
				return b, fmt.Errorf("table of node %q: no rows key in its encoding", n.PathKey())
			}
			cut := at + len(marker) - 1 // the "]"
			b = append(b, t[:cut]...)
			rowPrefix := prefix + "   "
			for i, r := range rows {
				e, err := json.MarshalIndent(r, rowPrefix, " ")
				if err != nil {
					return b, err
				}
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, '\n')
				b = append(b, rowPrefix...)
				b = append(b, e...)
				if flush != nil && len(b) >= tableFlushAt {
					if b, err = flush(b); err != nil {
						return b, err
					}
				}
			}
			b = append(b, '\n')
			b = append(b, prefix...)
			b = append(b, "  "...)
			b = append(b, t[cut:]...)
		}
	}
	if ref != "" {
		b = appendKey(b, ind, "ref", false)
		b = doc.AppendJSONString(b, ref, doc.JSONStd)
	}
	if n.Link != "" {
		b = appendKey(b, ind, "link", false)
		b = doc.AppendJSONString(b, n.Link, doc.JSONStd)
	}
	b = append(b, '\n')
	b = append(b, prefix...)
	return append(b, '}'), nil
}

// appendKey appends `,\n<ind>"key": ` (no comma before the first).
func appendKey(b []byte, ind, key string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '\n')
	b = append(b, ind...)
	b = append(b, '"')
	b = append(b, key...)
	return append(b, '"', ':', ' ')
}

func appendAttrs(b []byte, attrs map[string]string, ind string) []byte {
	keys := make([]string, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	in := ind + " "
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = append(b, in...)
		b = doc.AppendJSONString(b, k, doc.JSONStd)
		b = append(b, ':', ' ')
		b = doc.AppendJSONString(b, attrs[k], doc.JSONStd)
	}
	b = append(b, '\n')
	b = append(b, ind...)
	return append(b, '}')
}

func appendSpan(b []byte, s *doc.Span, ind string) []byte {
	in := ind + " "
	b = append(b, '{')
	first := true
	if s.Source != "" {
		b = appendKey(b, in, "source", true)
		b = doc.AppendJSONString(b, s.Source, doc.JSONStd)
		first = false
	}
	b = appendKey(b, in, "offset", first)
	b = strconv.AppendInt(b, s.Offset, 10)
	b = appendKey(b, in, "length", false)
	b = strconv.AppendInt(b, s.Length, 10)
	b = append(b, '\n')
	b = append(b, ind...)
	return append(b, '}')
}
