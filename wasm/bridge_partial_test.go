//go:build js && wasm

package main

import (
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/internal/realfiles"
)

// TestOpenSendsPartialOverviews: open sends 'overview' events (msgpack partial overviews) after
// the header and before it settles, the first one the header's; partial: false sends none.
func TestOpenSendsPartialOverviews(t *testing.T) {
	c := core(t)
	data := realfiles.Read(t, "nkipy/matmul_small.neff")
	var events []string
	var partials []*doc.Node
	_, err := c.invoke("open", map[string]any{"file": u8(data), "name": "matmul_small.neff"}, func(name string, v js.Value) {
		events = append(events, name)
		if name == "overview" {
			partials = append(partials, decodeNode(t, v))
		}
	})
	if err != nil {
		t.Fatalf("open: %s %s", err.Code, err.Message)
	}
	header := -1
	for i, e := range events {
		if e == "header" && header < 0 {
			header = i
		}
		if e == "overview" && header < 0 {
			t.Fatalf("an overview event came before the header: %v", events)
		}
	}
	if len(partials) < 2 {
		t.Fatalf("%d overview events (%v), want one after the header and one at the walk's end", len(partials), events)
	}
	if partials[0].Attrs[inspect.AttrPartial] != "true" || partials[0].Child(inspect.OverviewReading).Attrs[inspect.AttrMembers] != "0" {
		t.Errorf("the first overview event is not the header's partial overview: %+v", partials[0].Attrs)
	}
	last := partials[len(partials)-1]
	if got := last.Find(inspect.OverviewModel, "target"); got == nil || got.Value != "AWS Trainium2 (NeuronCore-v3)" {
		t.Errorf("the last partial overview's target: %+v", got)
	}
	n := 0
	_, err = c.invoke("open", map[string]any{"file": u8(data), "name": "matmul_small.neff", "partial": false}, func(name string, _ js.Value) {
		if name == "overview" {
			n++
		}
	})
	if err != nil || n != 0 {
		t.Errorf("open with partial: false sent %d overview events (err %v)", n, err)
	}
}
