package inspect

import (
	"errors"
	"fmt"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/jsonspan"
)

// jsonLazyOver is the container size past which JSON that is not a manifest is parsed on
// demand (as manifests are: manifest.lazyOver), and jsonTreeBudget the nodes its tree holds.
const (
	jsonLazyOver   = 64 << 10
	jsonTreeBudget = 2000
	// jsonPageBudget is the nodes one page of a stub's children may hold below them.
	jsonPageBudget = 20000
)

// jsonNode parses JSON bytes into a tree whose spans index source ("" for a loose file); big
// containers are stubs built on demand (the forest is kept in f.forests). Broken JSON keeps
// the part read before the error, with a finding at the error.
func (f *File) jsonNode(b []byte, in *jsonspan.Input, label, source string) *doc.Node {
	bud := f.Budget
	if in == nil {
		in = jsonspan.NewInput(b)
	}
	v, err := jsonspan.ParseWith(b, jsonspan.Options{Budget: bud, Where: source, LazyOver: jsonLazyOver, Input: in})
	var n *doc.Node
	if v != nil {
		fo := jsonspan.NewForestOver(source, in, jsonLazyOver)
		if f.forests == nil {
			f.forests = map[string]*jsonspan.Forest{}
		}
		f.forests[source] = fo
		n = fo.Tree(v, label, jsonTreeBudget)
		held := 0
		n.Walk(func([]string, *doc.Node) bool { held++; return true })
		bud.Take(budget.Memory, int64(held)*budget.NodeCost, source)
	} else {
		n = &doc.Node{Kind: doc.KindBytes, Label: label, Span: doc.In(source, 0, int64(len(b)))}
	}
	var se *jsonspan.Error
	if errors.As(err, &se) && se.Limit {
		n.Infof(doc.CodeBudgetSkipped, doc.In(source, se.Offset, int64(len(b))-se.Offset), "decoded up to byte %d only (the %s limit is reached, see the file's finding); the rest is in the hex view", se.Offset, bud.First().Kind)
	} else if errors.As(err, &se) {
		what := "the file"
		if source != "" {
			what = "member " + source
		}
		n.Errorf(doc.CodeJSONSyntax, doc.In(source, se.Offset, 1), "%s is not valid JSON: %s, at byte %d (line %d). Everything before that point is shown; a runtime's JSON parser would refuse it.", what, se.Msg, se.Offset, se.Line)
	}
	return n
}

func init() {
	expanders[doc.RefJSON] = expandJSON
	expanders[doc.RefKlir] = func(f *File, stub *doc.Node, from, to int) ([]*doc.Node, int, error) {
		if f.Program == nil || f.Program.Model == nil {
			return nil, 0, fmt.Errorf("%w: the file has no klir debug info", ErrNotFound)
		}
		kids, total, err := f.Program.Model.KlirChildren(stub.Ref, from, to)
		if err != nil {
			return nil, 0, fmt.Errorf("%w: %v", ErrNotFound, err)
		}
		return kids, total, nil
	}
}

// expandJSON builds the children of a JSON stub from the forest that made it.
func expandJSON(f *File, stub *doc.Node, from, to int) ([]*doc.Node, int, error) {
	source, off, ok := jsonspan.ParseRef(stub.Ref)
	if !ok {
		return nil, 0, fmt.Errorf("%w: %q is not a JSON ref", ErrNotFound, stub.Ref)
	}
	fo := f.forests[source]
	if fo == nil && f.Program != nil && f.Program.Model != nil {
		fo = f.Program.Model.Forests[source]
	}
	if fo == nil {
		return nil, 0, fmt.Errorf("%w: no JSON of %q is held", ErrNotFound, source)
	}
	kids, total, err := fo.Children(off, from, to, jsonPageBudget)
	if err != nil {
		return nil, 0, fmt.Errorf("%w: %v", ErrNotFound, err)
	}
	return kids, total, nil
}
