//go:build js && wasm

package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
)

const entry = "cache/neuronxcc-2.21.18209.0+043b1bf7/MODULE_1234abcd+d41d8cd9/"

// scanJSON calls scan and returns the record as JSON.stringify writes it (key order kept).
func scanJSON(t *testing.T, c *testCore, args map[string]any, events *[]string) string {
	t.Helper()
	v, err := c.invoke("scan", js.ValueOf(args), func(name string, data js.Value) {
		if events != nil {
			*events = append(*events, name+":"+data.Get("phase").String())
		}
	})
	if err != nil {
		t.Fatalf("scan %v: %s %s", args["path"], err.Code, err.Message)
	}
	if v.Get("ms").Type() != js.TypeNumber {
		t.Errorf("scan: no ms in the result")
	}
	return js.Global().Get("JSON").Call("stringify", v.Get("record")).String()
}

// nativeJSON is the record `neffscope scan --jsonl` builds for the same bytes (without its
// newline).
func nativeJSON(t *testing.T, p string, data []byte, siblings []string) string {
	t.Helper()
	f := inspect.Open(p, bytes.NewReader(data), int64(len(data)), inspect.Options{Fingerprint: true})
	b, err := json.Marshal(fleet.NewScanRecord(f, p, siblings))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// scan(file, path, siblings) is the CLI's record, field for field, for a finished cache entry,
// an unfinished one, a file that is not a NEFF and a half-written NEFF; with no file it is the
// record of an entry without a NEFF.
func TestScanRecordsMatchNative(t *testing.T) {
	real := readFile(t, "nkipy/matmul_small.neff")
	c := core(t)
	cases := []struct {
		name     string
		path     string
		data     []byte
		siblings []string
		state    string
		failed   bool // an error finding
	}{
		{"done", entry + "model.neff", real, []string{"model.done", "model.neff"}, fleet.CacheDone, false},
		{"incomplete", entry + "model.neff", real, []string{"model.neff"}, fleet.CacheIncomplete, false},
		{"not a NEFF", "loose/notes.neff", []byte("{\"not\": \"a neff\"}\n"), nil, "", true},
		{"half-written", entry + "model.neff", real[:len(real)/2], []string{"model.done", "model.neff"}, fleet.CacheFailed, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sib := make([]any, len(tc.siblings))
			for i, s := range tc.siblings {
				sib[i] = s
			}
			var events []string
			got := scanJSON(t, c, map[string]any{"file": u8(tc.data), "path": tc.path, "siblings": sib}, &events)
			if want := nativeJSON(t, tc.path, tc.data, tc.siblings); got != want {
				t.Errorf("scan record differs from the native one:\n got %s\nwant %s", got, want)
			}
			var rec fleet.ScanRecord
			if err := json.Unmarshal([]byte(got), &rec); err != nil {
				t.Fatal(err)
			}
			if rec.HasError() != tc.failed || len(rec.Problems) == 0 && tc.failed {
				t.Errorf("%d errors (%+v), want an error: %v", rec.Findings[doc.Error], rec.Problems, tc.failed)
			}
			if (rec.Cache == nil) != (tc.state == "") || rec.Cache != nil && rec.Cache.State != tc.state {
				t.Errorf("cache %+v, want state %q", rec.Cache, tc.state)
			}
			if rec.DuplicateOf != nil {
				t.Errorf("duplicate_of %q: the page decides duplicates", *rec.DuplicateOf)
			}
			if len(tc.data) > 1024 && (len(events) == 0 || !strings.HasPrefix(events[0], "progress:")) {
				t.Errorf("no progress event: %v", events)
			}
		})
	}
	t.Run("real record", func(t *testing.T) {
		var rec fleet.ScanRecord
		json.Unmarshal([]byte(scanJSON(t, c, map[string]any{"file": u8(real), "path": entry + "model.neff"}, nil)), &rec)
		if rec.Compiler == "" || rec.Target == "" || rec.SHA256 == "" || len(rec.Instructions) == 0 || len(rec.Inputs) == 0 {
			t.Errorf("matmul_small's record lacks compiler, target, sha256, instructions or inputs: %+v", rec)
		}
		if rec.Cache == nil || rec.Cache.Module != "MODULE_1234abcd" || rec.Cache.FlagsHash != "d41d8cd9" || rec.Cache.Flags != "no flags" {
			t.Errorf("cache %+v", rec.Cache)
		}
	})
	t.Run("no NEFF", func(t *testing.T) {
		got := scanJSON(t, c, map[string]any{"path": entry + "model.neff", "siblings": []any{"model.log"}}, nil)
		want, _ := json.Marshal(fleet.MissingNEFFRecord(entry+"model.neff", []string{"model.log"}))
		if got != string(want) {
			t.Errorf("missing-NEFF record:\n got %s\nwant %s", got, want)
		}
		// model.log without model.done: the compile failed.
		if !strings.Contains(got, `"state":"failed"`) || !strings.Contains(got, "has no model.neff") {
			t.Errorf("missing-NEFF record: %s", got)
		}
	})
	// The bridge keeps nothing: a scan leaves no handle behind.
	if n := len(c.b.files); n != 0 {
		t.Errorf("%d files held after scans", n)
	}
}

func TestScanBadRequests(t *testing.T) {
	c := core(t)
	c.fails("scan", map[string]any{"file": u8([]byte("x"))}, protocol.BadRequest, "argument path")
	c.fails("scan", map[string]any{"path": "a/b.neff"}, protocol.BadRequest, "not a cache entry")
	c.fails("scan", map[string]any{"path": "x.neff", "file": "nope"}, protocol.BadRequest, "argument file")
	c.fails("scan", map[string]any{"path": "x.neff", "file": u8(nil), "siblings": []any{1}}, protocol.BadRequest, "argument siblings")
}

// compare(handles) is fleet.Compare of the open files: three NEFFs, the repacked one the odd
// one out.
func TestCompareMatchesNative(t *testing.T) {
	a := readFile(t, "nkipy/matmul_small.neff")
	b := repacked(t, a)
	c := core(t)
	names := []string{"rank0.neff", "rank1.neff", "rank2.neff"}
	data := [][]byte{a, a, b}
	var handles []any
	var files []*inspect.File
	for i := range names {
		handles = append(handles, openIn(t, c, names[i], data[i]))
		files = append(files, inspect.Open(names[i], bytes.NewReader(data[i]), int64(len(data[i])), inspect.Options{Fingerprint: true}))
	}
	got := decodeNode(t, c.must("compare", map[string]any{"handles": handles}).Get("node"))
	gotMsg, _ := got.MarshalMsg(nil)
	wantMsg, _ := fleet.Compare(files).MarshalMsg(nil)
	if !bytes.Equal(gotMsg, wantMsg) {
		t.Errorf("the bridge's compare node (%d bytes) differs from the native one (%d bytes)", len(gotMsg), len(wantMsg))
	}
	if got.Kind != doc.KindCompare || !strings.Contains(got.Value, "C (rank2.neff)") {
		t.Errorf("compare: %s %q, want rank2 singled out", got.Kind, got.Value)
	}
	c.fails("compare", map[string]any{"handles": handles[:1]}, protocol.Limit, "between 2 and")
	c.fails("compare", map[string]any{"handles": []any{handles[0], 9999}}, protocol.NotFound, "argument handles[1]: no open file with handle 9999")
	c.fails("compare", map[string]any{"handles": []any{handles[0], "x"}}, protocol.BadRequest, "argument handles")
}
