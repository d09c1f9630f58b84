//go:build js && wasm

package main

// The open and close of a file: open (with its progress, header and overview events),
// openGroup, setFingerprint, close, and the handle table (keep; the dispatcher resolves
// handles, bridge.go resolve).

import (
	"context"
	"encoding/hex"
	"fmt"
	"runtime"
	"syscall/js"
	"time"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/wasm/protocol"
)

// progressEvery throttles progress events: each one crosses into JS and posts a message.
const progressEvery = 40 * time.Millisecond

// open → {handle, doc, ms, crossings, wasmBytes, fingerprinted}; events progress, header and
// overview (the partial overview, inspect.Options.OnPartial).
// It runs on its own goroutine: with digests, it waits where it checks the payload's
// integrity for the page's digests call (hashes.go), which the worker can only deliver then.
// openYieldEvery is how often an open lets the worker's events in (a yield costs a setTimeout,
// a few ms at most).
const openYieldEvery = 100 * time.Millisecond

func (b *bridge) open(_ context.Context, r *request) (any, error) {
	rd, name, err := fileArg(r, "file")
	if err != nil {
		return nil, err
	}
	if r.has("name") {
		name = r.str("name")
	}
	opt := inspect.Options{Fingerprint: true}
	// fingerprint: false — the page computes the file's sha-256 itself (the hash worker, in
	// parallel with this open) and hands it over with setFingerprint.
	if r.has("fingerprint") && !r.args.Get("fingerprint").Bool() {
		opt.Fingerprint = false
	}
	// The worker's budget: the page's figures, else the core's defaults for a worker, so no
	// file can grow the wasm heap until the runtime aborts.
	opt.Limits = budget.Page()
	for arg, dst := range map[string]*int64{"maxInflated": &opt.Limits.Inflate, "maxMemory": &opt.Limits.Memory,
		"maxValues": &opt.Limits.Values, "maxMembers": &opt.Limits.Members, "maxRows": &opt.Limits.Rows} {
		if r.has(arg) && r.num(arg) > 0 {
			*dst = int64(r.num(arg))
		}
	}
	// memberHashes: false — the members' sha-256 are left out; hashMembers adds them.
	if r.has("memberHashes") && !r.args.Get("memberHashes").Bool() {
		opt.DeferMemberHashes = true
	}
	// deferSource: true — the .dbg scans and source joins are left out; indexSource adds them.
	// Up to deferSourceOver bytes of .dbg (64 KiB), all held, they are mapped in the open all
	// the same: mapping matmul_small's 10 KB took ~20 ms in the page, its second redraw 80–110.
	if r.has("deferSource") && r.args.Get("deferSource").Bool() {
		opt.DeferSource, opt.DeferSourceOver = true, 64<<10
		if r.has("deferSourceOver") {
			opt.DeferSourceOver = int64(r.num("deferSourceOver"))
		}
	}
	var dw *digestWaiter
	if r.has("digests") {
		token, err := r.int("digests")
		if err != nil {
			return nil, err
		}
		var done func()
		dw, done = b.waitDigests(int(token))
		opt.PayloadDigest = dw.payload
		defer done()
	}
	if r.emit.Type() == js.TypeFunction {
		opt.Progress = throttledProgress(r, rd)
		opt.OnHeader = func(d *doc.Document) {
			if enc, err := d.MarshalMsg(nil); err == nil {
				r.event("header", buffer(enc))
			}
		}
	}
	if r.emit.Type() == js.TypeFunction && !(r.has("partial") && !r.args.Get("partial").Bool()) {
		opt.OnPartial = func(n *doc.Node) {
			if enc, err := n.MarshalMsg(nil); err == nil {
				r.event("overview", buffer(enc))
			}
		}
	}
	start := time.Now()
	// walkMs: where the archive walk ends (the first progress past the payload's).
	var walked float64
	progress := opt.Progress
	opt.Progress = func(p inspect.Progress) {
		if walked == 0 && p.Phase != "payload" && p.Phase != "header" {
			walked = ms(start)
		}
		if progress != nil {
			progress(p)
		}
	}
	// background: the worker's warm-up, which a file the user opens must not wait behind. In
	// wasm a call holds the one thread until it blocks: this open blocks at its progress points
	// and before its encoding (pause), so the page's open starts there and runs first. It is
	// not counted in opening, which those pauses wait on.
	background := r.has("background") && r.args.Get("background").Bool()
	if background {
		inner := opt.Progress
		opt.Progress = func(p inspect.Progress) {
			inner(p)
			b.yieldNow()
		}
	} else {
		b.opening.Add(1)
		defer b.opening.Add(-1)
		// The worker's events wait while the open runs, and a nested worker starts on its
		// parent's events: so while the pool's workers are starting (the pool starts with the
		// first file), the open lets the events in every openYieldEvery, at its progress
		// points. Without it the scans queued for them when the archive is walked began only
		// once the open had ended. (Once started, a worker holds the jobs sent to it.)
		inner, last := opt.Progress, time.Now()
		opt.Progress = func(p inspect.Progress) {
			inner(p)
			if time.Since(last) >= openYieldEvery && b.poolStarting() {
				time.Sleep(time.Millisecond) // a setTimeout: the worker's events run
				last = time.Now()
			}
		}
		if opt.DeferSource {
			// The pool workers scan the .dbg members while this thread resolves the model.
			if p := b.poolOn(rd); p != nil {
				opt.SourceAhead = p
			}
		}
	}
	f := inspect.Open(name, rd, rd.size, opt)
	if background {
		b.yieldNow()
	}
	// The page's sha-256 of the file, where the core would have computed one (setFingerprint).
	fingerprinted := false
	if dw != nil {
		if sum := dw.sha256(); sum != "" && (f.Archive == nil || f.Archive.Complete) {
			f.Doc.SHA256, fingerprinted = sum, true
		}
	}
	opened := ms(start)
	tEncode := time.Now()
	h, enc, err := b.keep(f, 0)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.readers[h] = rd
	if f.SourcePending() {
		b.deferred[h] = true
	}
	b.mu.Unlock()
	var waited float64
	if dw != nil {
		waited = float64(dw.waited.Microseconds()) / 1000
	}
	return object("handle", h, "doc", buffer(enc), "ms", opened, "crossings", rd.crossings, "wasmBytes", b.wasmBytes(), "fingerprinted", fingerprinted,
		"digestWaitMs", waited, "walkMs", walked, "encodeMs", ms(tEncode), "sourcePending", f.SourcePending()), nil
}

// setFingerprint → {set}: the file's sha-256, computed by the page, becomes the Document's
// fingerprint — where the core would have computed one itself: not for a NEFF whose archive
// could not be read to its end (the CLI leaves it empty there too).
func (b *bridge) setFingerprint(r *request) (any, error) {
	f := r.file
	v, err := hexArg(r, "sha256", 32)
	if err != nil || v == nil {
		return nil, protocol.Errorf(protocol.BadRequest, "setFingerprint: %q is not a sha-256 in hex", r.str("sha256"))
	}
	sum := hex.EncodeToString(v)
	if f.Archive != nil && !f.Archive.Complete {
		return object("set", false), nil
	}
	b.mu.Lock()
	f.Doc.SHA256 = sum
	b.mu.Unlock()
	return object("set", true), nil
}

// keep stores f under a new handle (or under handle h when h > 0, replacing what was there)
// and returns the handle and the msgpack Document.
func (b *bridge) keep(f *inspect.File, h int) (int, []byte, error) {
	enc, err := f.Doc.MarshalMsg(nil)
	if err != nil {
		return 0, nil, fmt.Errorf("encoding the document of %s: %v", f.Name, err)
	}
	b.mu.Lock()
	if h <= 0 {
		b.next++
		h = b.next
	}
	b.files[h] = f
	b.mu.Unlock()
	return h, enc, nil
}

// openGroup → {docs: [{handle, doc, name}], wasmBytes}: files dropped together.
// Activation-table files join into one document; any other file is its own.
func (b *bridge) openGroup(r *request) (any, error) {
	list := r.args.Get("files")
	count := list.Length()
	if count == 0 || count > 1000 {
		return nil, protocol.Errorf(protocol.Limit, "openGroup: %d files; between 1 and 1000", count)
	}
	files := make([]inspect.NamedReader, count)
	for i := range count {
		rd, name, err := fileValue(list.Index(i), fmt.Sprintf("openGroup: file %d", i))
		if err != nil {
			return nil, err
		}
		files[i] = inspect.NamedReader{Name: name, R: rd, Size: rd.size}
	}
	var docs []any
	for _, f := range inspect.OpenGroup(files, inspect.Options{Fingerprint: true}) {
		h, enc, err := b.keep(f, 0)
		if err != nil {
			return nil, err
		}
		docs = append(docs, object("handle", h, "doc", buffer(enc), "name", f.Name))
	}
	return object("docs", docs, "wasmBytes", b.wasmBytes()), nil
}

// close → {}: forget a file.
func (b *bridge) close(r *request) (any, error) {
	h, err := r.int("handle")
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	delete(b.files, int(h))
	delete(b.contexts, int(h))
	delete(b.readers, int(h))
	delete(b.deferred, int(h))
	empty := len(b.files) == 0 && len(b.contexts) == 0
	b.mu.Unlock()
	if empty {
		// Nothing open: a collection costs little now, and the next open starts from an empty
		// heap. At GOGC 400 the garbage of the file just closed (or of the worker's warm-up)
		// would otherwise add to the next open's peak, and the wasm memory never shrinks.
		runtime.GC()
	}
	return object(), nil
}

// throttledProgress sends progress events at most every progressEvery, plus every phase
// change, as {phase, done, total, inflated, read}. read is the file's bytes read so far: by
// the core's reader, or by the browser's inflate (p.Done: payload bytes it consumed).
func throttledProgress(r *request, rd *jsReaderAt) func(inspect.Progress) {
	var last time.Time
	lastPhase := ""
	return func(p inspect.Progress) {
		now := time.Now()
		if p.Phase == lastPhase && now.Sub(last) < progressEvery {
			return
		}
		last, lastPhase = now, p.Phase
		r.event("progress", object("phase", p.Phase, "done", float64(p.Done), "total", float64(p.Total),
			"inflated", float64(p.Inflated), "read", max(float64(rd.read), float64(p.Done+neff.HeaderSize))))
	}
}
