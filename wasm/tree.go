//go:build js && wasm

package main

// The lazy document (core/inspect lazy.go): nodes by path, children paged, search, locate.

import (
	"errors"
	"strings"
	"syscall/js"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
	"github.com/tinylib/msgp/msgp"
)

// maxSearchHits caps the hits of one search() call; searchVisits caps the nodes it visits
// (about 100 ms natively, see searchVisits' benchmark in the report), so one call never holds
// the worker long; the page goes on from next.
const (
	maxSearchHits = 1000
	searchVisits  = 100000
	// hitsBatch: a hits event is sent every this many hits, and at the end of the call.
	hitsBatch = 100
)

// pathArg reads an Array<string> argument (absent or null: nil).
func pathArg(r *request, name string) []string {
	if !r.has(name) {
		return nil
	}
	v := r.args.Get(name)
	p := make([]string, v.Length())
	for i := range p {
		p[i] = v.Index(i).String()
	}
	return p
}

// pathValue is a path as a JS array of strings.
func pathValue(p []string) []any {
	out := make([]any, len(p))
	for i, k := range p {
		out[i] = k
	}
	return out
}

// lazyError gives the core's lazy-document errors their code: not-found when a path names
// nothing (the core's errors wrap inspect.ErrNotFound).
func lazyError(err error) error {
	if errors.Is(err, inspect.ErrNotFound) {
		return protocol.Wrap(protocol.NotFound, err)
	}
	return protocol.Wrap(protocol.Failed, err)
}

// node → {node}: the node at path; a stub stays a stub.
func (b *bridge) node(r *request) (any, error) {
	f := r.file
	n, err := f.Node(pathArg(r, "path"))
	if err != nil {
		return nil, lazyError(err)
	}
	return encodeNode(n)
}

// children → {kids, total}: children [from, to) of the node at path (msgpack array of nodes),
// at most 10,000 a call (the table's Range).
func (b *bridge) children(r *request) (any, error) {
	kids, total, err := r.file.Children(pathArg(r, "path"), int(r.from), int(r.to))
	if err != nil {
		return nil, lazyError(err)
	}
	enc := msgp.AppendArrayHeader(nil, uint32(len(kids)))
	for _, k := range kids {
		if enc, err = k.MarshalMsg(enc); err != nil {
			return nil, err
		}
	}
	return object("kids", buffer(enc), "total", total), nil
}

// search → {next, visited}, with hits events: the nodes whose key, label, value or detail
// holds q, in document order after the node at after.
func (b *bridge) search(r *request) (any, error) {
	f := r.file
	q := strings.ToLower(r.str("q"))
	limit := int64(maxSearchHits)
	if r.has("max") {
		var err error
		if limit, err = r.int("max"); err != nil {
			return nil, err
		}
		if limit < 1 || limit > maxSearchHits {
			return nil, protocol.Errorf(protocol.BadRequest, "search: max %d; between 1 and %d", limit, maxSearchHits)
		}
	}
	if q == "" {
		return object("next", js.Null(), "visited", 0), nil
	}
	var batch []any
	flush := func() {
		if len(batch) > 0 {
			r.event("hits", batch)
			batch = nil
		}
	}
	found, visited := 0, 0
	next, err := f.Walk(pathArg(r, "after"), func(p []string, n *doc.Node) bool {
		visited++
		if inspect.Matches(n, q) {
			hit := object("path", pathValue(p), "kind", n.Kind, "label", n.Label)
			if n.Value != "" {
				hit.Set("value", n.Value)
			}
			if n.Ref != "" {
				hit.Set("ref", n.Ref)
			}
			batch = append(batch, hit)
			found++
			if len(batch) >= hitsBatch {
				flush()
			}
			if found >= int(limit) {
				return false
			}
		}
		return visited < searchVisits
	})
	if err != nil {
		return nil, lazyError(err)
	}
	flush()
	nextV := js.Null()
	if next != nil {
		nextV = js.ValueOf(pathValue(next))
	}
	return object("next", nextV, "visited", visited), nil
}

// locate → {path}: the smallest node whose span in source holds byte off.
func (b *bridge) locate(r *request) (any, error) {
	f := r.file
	off, err := r.int("off")
	if err != nil {
		return nil, err
	}
	if off < 0 {
		return nil, protocol.Errorf(protocol.BadRequest, "locate: byte %d", off)
	}
	p, err := f.Locate(r.str("source"), off)
	if err != nil {
		return nil, lazyError(err)
	}
	return object("path", pathValue(p)), nil
}
