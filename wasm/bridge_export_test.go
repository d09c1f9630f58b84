//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// The page's JSON export is the CLI's `inspect --json` output: the same Document, marshalled
// the same way.
func TestJSONMatchesInspectJSON(t *testing.T) {
	file, _ := generated()
	c := core(t)
	res := c.openBytes("gen.neff", file)
	got := jsBytes(c.must("json", map[string]any{"handle": res.Get("handle")}).Get("json"))

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
	if err := json.Unmarshal(got, &back); err != nil || back.File != "gen.neff" || back.Kind != "neff" {
		t.Errorf("the JSON does not read back as the document of gen.neff: %+v %v", back, err)
	}
	c.fails("json", map[string]any{"handle": 9999}, protocol.NotFound, "no open file")
}
