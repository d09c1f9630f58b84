//go:build js && wasm

package main

// The analyses across files (core/fleet): diff, compare and scan.

import (
	"encoding/json"
	"fmt"
	"syscall/js"
	"time"

	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// diff → {node} or, with format "json", {json} as `neffscope diff --json A B` prints it
// (two-space indent, a final newline), byte for byte. Files that are not NEFFs give a diff
// node whose error finding says so.
func (b *bridge) diff(r *request) (any, error) {
	fa, fb := r.files[0], r.files[1]
	for _, f := range r.files {
		if err := b.ensureMemberHashes(f); err != nil {
			return nil, err
		}
		if err := b.ensureSource(f); err != nil {
			return nil, err
		}
	}
	switch format := r.str("format"); format {
	case "":
		enc, err := fleet.Diff(fa, fb).MarshalMsg(nil)
		if err != nil {
			return nil, err
		}
		return object("node", buffer(enc)), nil
	case "json":
		out, err := doc.NodeJSON(fleet.Diff(fa, fb), 2)
		if err != nil {
			return nil, fmt.Errorf("encoding the diff as JSON: %v", err)
		}
		return object("json", buffer(append(out, '\n'))), nil
	default:
		return nil, protocol.Errorf(protocol.BadRequest, "diff: format %q; '' (msgpack) or 'json'", format)
	}
}

// maxCompare caps the files of one compare: its table has a column per file.
const maxCompare = 64

// compare → {node} (kind compare): fleet.Compare of the open files, one table of facts.
func (b *bridge) compare(r *request) (any, error) {
	files := r.files
	if n := len(files); n < 2 || n > maxCompare {
		return nil, protocol.Errorf(protocol.Limit, "compare: %d files; between 2 and %d", n, maxCompare)
	}
	for _, f := range files {
		if err := b.ensureMemberHashes(f); err != nil {
			return nil, err
		}
		if err := b.ensureSource(f); err != nil {
			return nil, err
		}
	}
	return encodeNode(fleet.Compare(files))
}

// scan → {record, ms}: the scan record of one file (as `neffscope scan --jsonl` prints it,
// duplicate_of left null), made from a one-off open the bridge does not keep, so a scan of
// a cache holds one file at a time. With no file, the record of an entry without a NEFF.
func (b *bridge) scan(r *request) (any, error) {
	start := time.Now()
	p := r.str("path")
	var siblings []string
	if r.has("siblings") {
		l := r.args.Get("siblings")
		for i := range l.Length() {
			siblings = append(siblings, l.Index(i).String())
		}
	}
	var rec *fleet.ScanRecord
	if !r.has("file") {
		if _, ok := fleet.ParseCachePath(p); !ok {
			return nil, protocol.Errorf(protocol.BadRequest, "scan: no file, and %s is not a cache entry's model.neff (…/MODULE_<hash>+<8 hex>/model.neff)", p)
		}
		rec = fleet.MissingNEFFRecord(p, siblings)
	} else {
		rd, _, err := fileArg(r, "file")
		if err != nil {
			return nil, err
		}
		opt := inspect.Options{Fingerprint: true, MaxInflated: int64(r.num("maxInflated"))}
		if r.emit.Type() == js.TypeFunction {
			opt.Progress = throttledProgress(r, rd)
		}
		rec = scanRecord(p, rd, siblings, opt)
	}
	enc, err := json.Marshal(rec)
	if err != nil {
		return nil, fmt.Errorf("encoding the record of %s: %v", p, err)
	}
	return object("record", js.Global().Get("JSON").Call("parse", string(enc)), "ms", ms(start)), nil
}

// scanRecord opens one file for its record; a decoder panic becomes the record's error, as in
// the CLI's scan, so one hostile file does not end a scan of thousands.
func scanRecord(p string, rd *jsReaderAt, siblings []string, opt inspect.Options) (rec *fleet.ScanRecord) {
	defer func() {
		if e := recover(); e != nil {
			rec = fleet.UnreadableRecord(p, rd.size, siblings, doc.CodeScanUnreadable, fmt.Sprintf("neffscope failed reading %s: %v (a bug: please report it with the file)", p, e))
		}
	}()
	return fleet.NewScanRecord(inspect.Open(p, rd, rd.size, opt), p, siblings)
}
