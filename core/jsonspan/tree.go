package jsonspan

import (
	"fmt"
	"strconv"

	"github.com/neffscope/neffscope/core/doc"
)

// MaxStringShown bounds how much of one string a tree node carries; the bytes stay reachable
// through the node's span.
const MaxStringShown = 4096

// Tree renders v as a document tree whose spans index source (a member path, or "" for the
// opened file). budget bounds the number of nodes made (a JSON file with millions of values
// must not become millions of DOM rows at once); past it, containers are summarised and a
// finding says so. A budget <= 0 means 200,000.
func Tree(v *Value, label, source string, budget int) *doc.Node {
	if budget <= 0 {
		budget = 200000
	}
	t := &treeMaker{source: source, left: budget}
	n := t.node(v, label, "", -1)
	if t.cut > 0 && n != nil {
		n.Warnf(doc.In(source, v.Start, v.Len64()), "%d JSON values beyond the first %d are not shown as tree rows; their bytes are still in the hex view and in 'neffscope extract'", t.cut, budget)
	}
	return n
}

type treeMaker struct {
	source string
	left   int
	cut    int
}

func (t *treeMaker) node(v *Value, label, key string, keyStart int64) *doc.Node {
	if v == nil {
		return nil
	}
	t.left--
	start := v.Start
	if keyStart >= 0 {
		start = keyStart // a member's bytes run from its key to the end of its value
	}
	n := &doc.Node{Kind: v.Kind.String(), Label: label, Span: doc.In(t.source, start, v.End-start)}
	if key != label {
		n.Key = key
	}
	switch v.Kind {
	case Object:
		n.Value = fmt.Sprintf("{%d}", len(v.Items))
		for i, it := range v.Items {
			if t.left <= 0 {
				t.cut += len(v.Items) - i
				break
			}
			// Repeated keys get a suffix so each path stays unique.
			k := v.Keys[i]
			if i > 0 && v.Get(k) != it {
				k = k + "#" + strconv.Itoa(i)
			}
			n.Children = append(n.Children, t.node(it, v.Keys[i], k, v.KeyStart[i]))
		}
	case Array:
		n.Value = fmt.Sprintf("[%d]", len(v.Items))
		for i, it := range v.Items {
			if t.left <= 0 {
				t.cut += len(v.Items) - i
				break
			}
			s := strconv.Itoa(i)
			n.Children = append(n.Children, t.node(it, s, s, -1))
		}
	case String:
		n.Value = doc.Quote(v.Str, MaxStringShown)
	case Bool:
		n.Value = strconv.FormatBool(v.Bool)
	case Null:
		n.Value = "null"
	default:
		n.Value = v.Str
	}
	return n
}
