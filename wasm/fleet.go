//go:build js && wasm

package main

// The analyses across files (core/fleet): diff, compare and scan; two HLO modules compared
// (hloDiff) and a scan's graphs (scanGraphs).

import (
	"encoding/json"
	"fmt"
	"path"
	"syscall/js"
	"time"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/hlo"
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
	if r.has("hlo") {
		addGraph(r, rec, p)
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

// addGraph reads the entry's HLO module (the scan call's hlo) into its record, as the CLI's
// scan does (cmd/neffscope scansource.go addGraph): its graph digest and what it says; a
// module that cannot be read is the record's problem, never the call's failure.
func addGraph(r *request, rec *fleet.ScanRecord, neffPath string) {
	rd, name, err := fileArg(r, "hlo")
	hp := r.str("hloPath")
	if hp == "" {
		hp = path.Join(path.Dir(neffPath), name)
	}
	if err != nil {
		rec.Report(doc.CodeScanUnreadable, doc.Warning, fmt.Sprintf("cannot read the entry's HLO module %s: %v", hp, err))
		return
	}
	defer func() {
		if e := recover(); e != nil {
			rec.Report(doc.CodeScanUnreadable, doc.Error, fmt.Sprintf("neffscope failed reading %s: %v (a bug: please report it with the file)", hp, e))
		}
	}()
	bud := budget.New(budget.Page())
	defer bud.Done()
	m, _ := hlo.Open(path.Base(hp), rd, rd.size, hlo.Options{Budget: bud})
	rec.AddHLO(m, hp)
}

// hloDiff → {json, exit, ms}: `neffscope diff --json` of two open HLO modules, or of two cache
// entries (entries: their NEFFs, neffA and neffB, are opened once and forgotten), byte for byte
// (fleet.DiffHLOEntries, the CLI's comparison).
func (b *bridge) hloDiff(r *request) (any, error) {
	start := time.Now()
	sides := [2]fleet.HLOEntry{}
	for i, s := range []string{"A", "B"} {
		f := r.files[i]
		if f.HLO == nil {
			return nil, protocol.Errorf(protocol.BadRequest, "hloDiff: %s (%s) is not an HLO module (a *.hlo_module.pb)", map[int]string{0: "a", 1: "b"}[i], f.Name)
		}
		e := fleet.HLOEntry{Module: f.HLO, Name: f.Name, Entry: r.has("entries") && r.args.Get("entries").Bool()}
		if n := r.str("name" + s); n != "" {
			e.Name = n
		}
		if r.has("neff" + s) {
			rd, name, err := fileArg(r, "neff"+s)
			if err != nil {
				return nil, err
			}
			e.NEFFName = path.Join(path.Dir(e.Name), name)
			e.NEFF = inspect.Open(e.NEFFName, rd, rd.size, inspect.Options{Limits: budget.Page()})
			defer e.NEFF.Budget.Done()
		}
		sides[i] = e
	}
	d := fleet.DiffHLOEntries(sides[0], sides[1])
	out, err := d.JSON()
	if err != nil {
		return nil, fmt.Errorf("encoding the comparison as JSON: %v", err)
	}
	return object("json", buffer(out), "exit", fleet.HLODiffExit(d), "ms", ms(start)), nil
}

// scanGraphs → {lines, groups}: a scan's records grouped by graph digest, as `neffscope scan`
// says of them on stderr (fleet.GraphGroups).
func (b *bridge) scanGraphs(r *request) (any, error) {
	var recs []fleet.ScanRecord
	text := js.Global().Get("JSON").Call("stringify", r.args.Get("records")).String()
	if err := json.Unmarshal([]byte(text), &recs); err != nil {
		return nil, protocol.Errorf(protocol.BadRequest, "scanGraphs: records: %v", err)
	}
	var g fleet.GraphGroups
	for i := range recs {
		g.Add(&recs[i])
	}
	lines, err := json.Marshal(map[string]any{"lines": nonNil(g.Lines()), "groups": g.Groups()})
	if err != nil {
		return nil, err
	}
	return js.Global().Get("JSON").Call("parse", string(lines)), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
