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
	if n == nil {
		return nil
	}
	if t.cut > 0 {
		n.Warnf(doc.In(source, v.Start, v.Len64()), "%d JSON values beyond the first %d are not shown as tree rows; their bytes are still in the hex view and in 'neffscope extract'", t.cut, budget)
	}
	if t.flat > 0 {
		n.Warnf(doc.In(source, t.firstFlat.Start, t.firstFlat.Len64()), "%d arrays or objects are nested deeper than %d levels (the first at byte %d); they are shown flat, as one row with their bytes, so the document stays readable by common JSON readers", t.flat, DefaultMaxDepth, t.firstFlat.Start)
	}
	if t.dups > maxDupFindings {
		n.Warnf(doc.In(source, v.Start, v.Len64()), "%d object keys repeat in all; the first %d are marked. JSON readers keep the last value of a repeated key", t.dups, maxDupFindings)
	}
	return n
}

// maxDupFindings bounds the findings on repeated keys (one per repeat up to it, then a count).
const maxDupFindings = 20

type treeMaker struct {
	source    string
	left      int
	cut       int
	flat      int
	firstFlat *Value
	dups      int
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
	if v.Flat {
		if t.flat == 0 {
			t.firstFlat = v
		}
		t.flat++
		n.Value = "{…}"
		if v.Kind == Array {
			n.Value = "[…]"
		}
		n.Detail = fmt.Sprintf("nested deeper than %d levels: shown flat (its bytes are in the hex view)", DefaultMaxDepth)
		return n
	}
	switch v.Kind {
	case Object:
		n.Value = fmt.Sprintf("{%d}", len(v.Items))
		last := lastIndex(v)
		for i, it := range v.Items {
			if t.left <= 0 {
				t.cut += len(v.Items) - i
				break
			}
			// Repeated keys get a suffix so each path stays unique, and a finding: the
			// earlier value is silently dropped by JSON readers (libnrt's too).
			k := v.Keys[i]
			var dupOf int64 = -1
			if j := last(k, i); j != i {
				k = k + "#" + strconv.Itoa(i)
				dupOf = v.KeyStart[j]
			}
			c := t.node(it, v.Keys[i], k, v.KeyStart[i])
			if dupOf >= 0 {
				if t.dups < maxDupFindings {
					c.Warnf(c.Span, "key %s repeats in this object (again at byte %d); JSON readers keep the last value, so this one is ignored", doc.Quote(v.Keys[i], 80), dupOf)
				}
				t.dups++
			}
			n.Children = append(n.Children, c)
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

// lastIndex returns a function giving the index of the last item with key k (i when the
// item at i is that last one); objects with many keys get a map, so wide objects stay linear.
func lastIndex(v *Value) func(k string, i int) int {
	if len(v.Keys) <= 16 {
		return func(k string, i int) int {
			for j := len(v.Keys) - 1; j > i; j-- {
				if v.Keys[j] == k {
					return j
				}
			}
			return i
		}
	}
	m := make(map[string]int, len(v.Keys))
	for j, k := range v.Keys {
		m[k] = j
	}
	return func(k string, i int) int { return m[k] }
}
