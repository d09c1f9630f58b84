//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
)

// The page's JSON export is the CLI's `inspect --json` output: the same Document, marshalled
// the same way.
func TestJSONMatchesInspectJSON(t *testing.T) {
	file, _ := generated()
	c := core(t)
	var calls int
	res := c.Call("open", sliceReader(t, file, &calls), len(file), "gen.neff", js.Undefined())
	checkNoError(t, res)
	out := c.Call("json", res.Get("handle"))
	checkNoError(t, out)
	got := jsBytes(out)

	f := inspect.Open("gen.neff", bytes.NewReader(file), int64(len(file)), inspect.Options{Fingerprint: true})
	want, err := json.MarshalIndent(f.Doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	want = append(want, '\n')
	if !bytes.Equal(got, want) {
		t.Fatalf("json(handle): %d bytes, differing from inspect --json's %d bytes", len(got), len(want))
	}
	var back struct {
		File string `json:"file"`
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(got, &back); err != nil || back.File != "gen.neff" || back.Kind != doc.KindNEFF {
		t.Errorf("the JSON does not read back as the document of gen.neff: %+v %v", back, err)
	}
	if e := c.Call("json", 9999); e.Get("error").Type() != js.TypeString {
		t.Errorf("json of an unknown handle did not report an error")
	}
}
