package inspect

import (
	"errors"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// jsonNode parses JSON bytes into a tree whose spans index source ("" for a loose file).
// Broken JSON keeps the part read before the error, with a finding at the error.
func jsonNode(b []byte, label, source string, bud *budget.Budget) *doc.Node {
	v, err := jsonspan.ParseWith(b, jsonspan.Options{Budget: bud, Where: source})
	var n *doc.Node
	if v != nil {
		n = jsonspan.Tree(v, label, source, 0)
	} else {
		n = &doc.Node{Kind: doc.KindBytes, Label: label, Span: doc.In(source, 0, int64(len(b)))}
	}
	var se *jsonspan.Error
	if errors.As(err, &se) && se.Limit {
		n.Infof(doc.In(source, se.Offset, int64(len(b))-se.Offset), "decoded up to byte %d only (the %s limit is reached, see the file's finding); the rest is in the hex view", se.Offset, bud.First().Kind)
	} else if errors.As(err, &se) {
		what := "the file"
		if source != "" {
			what = "member " + source
		}
		n.Errorf(doc.In(source, se.Offset, 1), "%s is not valid JSON: %s, at byte %d (line %d). Everything before that point is shown; a runtime's JSON parser would refuse it.", what, se.Msg, se.Offset, se.Line)
	}
	return n
}
