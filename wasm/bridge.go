//go:build js && wasm

package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/neffscope/neffscope/core/budget"
	"github.com/neffscope/neffscope/core/doc"
	"github.com/neffscope/neffscope/core/fleet"
	"github.com/neffscope/neffscope/core/inspect"
	"github.com/neffscope/neffscope/core/neff"
	"github.com/neffscope/neffscope/wasm/protocol"
	"github.com/tinylib/msgp/msgp"
)

// GlobalName is the global object the bridge registers: {call, methods, version, model}.
// worker.js forwards every request to call(method, args, emit), which returns a Promise.
const GlobalName = "neffscopeCore"

// maxBytesRange caps one bytes() call, so a hostile or buggy request cannot ask the wasm
// heap for gigabytes; the hex view asks for pages of a few KiB.
const maxBytesRange = 16 << 20

// progressEvery throttles progress events: each one crosses into JS and posts a message.
const progressEvery = 40 * time.Millisecond

// asyncTimeout bounds a call that waits on JS events (the IndexedDB library).
const asyncTimeout = 20 * time.Second

// bridge holds the files opened in this wasm instance, by handle.
type bridge struct {
	mu    sync.Mutex
	next  int
	files map[int]*inspect.File
	// contexts keeps the bytes of each raw libncfw context by handle, so an arch switch
	// (recontext) re-emits from memory without reading the file again.
	contexts map[int]*contextBytes
	handlers map[string]handler
	funcs    []js.Func
	global   js.Value
	// readers keeps the File reader of each open by handle (hashMembers clones it);
	// digests, the channels opens wait on for the page's digests, by token (hashes.go).
	readers map[int]*jsReaderAt
	digests map[int]chan pageDigests
	// deferred marks the opens whose source lines were left out (deferSource): indexSource
	// answers them with what the mapping changed, whoever mapped it (source.go).
	deferred map[int]bool
	// opening counts the opens running, busy the sync calls (a background hashMembers waits
	// while either runs).
	opening, busy atomic.Int32
	// the IndexedDB library (library.go), opened on first use
	libOnce sync.Once
	library *library
}

// handler answers one method of the protocol table. A sync handler runs inside call (it may
// read the file through FileReaderSync); an async one runs on its own goroutine, for calls
// that wait on JS events, which are delivered only while call has returned.
type handler struct {
	run   func(ctx context.Context, r *request) (any, error)
	async bool
	// long: async without asyncTimeout (an open, which may wait for the page's digests).
	long bool
}

func (b *bridge) sync(run func(r *request) (any, error)) handler {
	return handler{run: func(_ context.Context, r *request) (any, error) { return run(r) }}
}

func (b *bridge) async(run func(ctx context.Context, r *request) (any, error)) handler {
	return handler{run: run, async: true}
}

func (b *bridge) long(run func(ctx context.Context, r *request) (any, error)) handler {
	return handler{run: run, async: true, long: true}
}

// register installs globalThis.neffscopeCore and returns the bridge (tests release it).
func register() *bridge {
	b := &bridge{files: map[int]*inspect.File{}, contexts: map[int]*contextBytes{}, readers: map[int]*jsReaderAt{}, digests: map[int]chan pageDigests{}, deferred: map[int]bool{}}
	b.handlers = map[string]handler{
		"open":           b.long(b.open),
		"digests":        b.sync(b.digestsCall),
		"hashMembers":    b.long(b.hashMembers),
		"indexSource":    b.long(b.indexSource),
		"setFingerprint": b.sync(b.setFingerprint),
		"bytes":          b.sync(b.bytes),
		"rows":           b.sync(b.rows),
		"instruction":    b.sync(b.instruction),
		"node":           b.sync(b.node),
		"children":       b.sync(b.children),
		"search":         b.sync(b.search),
		"locate":         b.sync(b.locate),
		"evaluate":       b.sync(b.evaluate),
		"plot":           b.sync(b.plot),
		"schedule":       b.sync(b.schedule), // sched.go
		"memory":         b.sync(b.memory),
		"openGroup":      b.sync(b.openGroup),
		"openContext":    b.sync(b.openContext),
		"recontext":      b.sync(b.recontext),
		"contextArches":  b.sync(b.contextArches),
		"json":           b.sync(b.docJSON),
		"diff":           b.sync(b.diff),
		"compare":        b.sync(b.compare),
		"scan":           b.sync(b.scan),
		"close":          b.sync(b.close),
		"libStatus":      b.async(b.libStatus),
		"libPut":         b.async(b.libPut),
		"libList":        b.async(b.libList),
		"libGet":         b.async(b.libGet),
		"libRemove":      b.async(b.libRemove),
		"libClear":       b.async(b.libClear),
	}
	obj := js.Global().Get("Object").New()
	call := js.FuncOf(b.call)
	b.funcs = append(b.funcs, call)
	obj.Set("call", call)
	names := protocol.Names()
	list := make([]any, len(names))
	for i, n := range names {
		list[i] = n
	}
	obj.Set("methods", list)
	obj.Set("model", doc.ModelVersion)
	obj.Set("version", runtime.Version())
	js.Global().Set(GlobalName, obj)
	b.global = obj
	return b
}

// release undoes register.
func (b *bridge) release() {
	js.Global().Delete(GlobalName)
	for _, f := range b.funcs {
		f.Release()
	}
}

// call(method, args, emit) → Promise: resolves with the method's result, rejects with
// {code, message}. Arguments are checked against the protocol table first.
func (b *bridge) call(_ js.Value, argv []js.Value) any {
	method, args, emit := "", js.Undefined(), js.Undefined()
	if len(argv) > 0 && argv[0].Type() == js.TypeString {
		method = argv[0].String()
	}
	if len(argv) > 1 {
		args = argv[1]
	}
	if len(argv) > 2 && argv[2].Type() == js.TypeFunction {
		emit = argv[2]
	}
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, pv []js.Value) any {
		resolve, reject := pv[0], pv[1]
		h, r, err := b.prepare(method, args, emit)
		if err != nil {
			executor.Release()
			reject.Invoke(errorValue(err))
			return nil
		}
		settle := func(ctx context.Context) {
			defer executor.Release()
			v, err := runSafely(ctx, h, r)
			if err != nil {
				reject.Invoke(errorValue(err))
				return
			}
			resolve.Invoke(v)
		}
		if h.async {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), asyncTimeout)
				if h.long {
					ctx, cancel = context.WithCancel(context.Background())
				}
				defer cancel()
				settle(ctx)
			}()
		} else {
			b.busy.Add(1)
			settle(context.Background())
			b.busy.Add(-1)
		}
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

// runSafely runs a handler, turning a Go panic into an internal error instead of killing
// the worker's Go runtime (every later call would fail otherwise).
func runSafely(ctx context.Context, h handler, r *request) (v any, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, protocol.Errorf(protocol.Internal, "internal error in neffscope core (%s): %v\n%s", r.method.Name, p, debug.Stack())
		}
	}()
	return h.run(ctx, r)
}

// prepare finds the method's handler and checks args against the table: every required
// argument present, every argument of its declared JS type, no argument the table lacks.
func (b *bridge) prepare(method string, args, emit js.Value) (handler, *request, error) {
	m, ok := protocol.Lookup(method)
	h, bound := b.handlers[method]
	if !ok || !bound {
		return handler{}, nil, protocol.Errorf(protocol.BadRequest, "unknown method %q; the core answers %s", method, strings.Join(protocol.Names(), ", "))
	}
	if args.IsUndefined() || args.IsNull() {
		args = js.Global().Get("Object").New()
	}
	if args.Type() != js.TypeObject {
		return handler{}, nil, protocol.Errorf(protocol.BadRequest, "%s: args must be one object of named arguments, not a %s", method, args.Type())
	}
	declared := map[string]bool{}
	for _, a := range m.Args {
		declared[a.Name] = true
		v := args.Get(a.Name)
		if v.IsUndefined() || v.IsNull() {
			if !a.Optional {
				return handler{}, nil, protocol.Errorf(protocol.BadRequest, "%s: argument %s (%s) is missing", method, a.Name, a.Type)
			}
			continue
		}
		if !typeOK(v, a.Type) {
			return handler{}, nil, protocol.Errorf(protocol.BadRequest, "%s: argument %s must be %s, not a %s", method, a.Name, a.Type, v.Type())
		}
	}
	keys := js.Global().Get("Object").Call("keys", args)
	for i := range keys.Length() {
		if k := keys.Index(i).String(); !declared[k] {
			return handler{}, nil, protocol.Errorf(protocol.BadRequest, "%s takes no argument %q", method, k)
		}
	}
	return h, &request{method: m, args: args, emit: emit}, nil
}

// typeOK checks a value against a JSDoc type of the table: a union of number, string,
// boolean, null, ArrayBuffer, Uint8Array, Blob, Array<T>, or a typedef (any object).
func typeOK(v js.Value, ty string) bool {
	for _, t := range protocol.SplitUnion(ty) {
		if inner, ok := strings.CutPrefix(t, "Array<"); ok && strings.HasSuffix(inner, ">") {
			if arrayOK(v, strings.TrimSuffix(inner, ">")) {
				return true
			}
			continue
		}
		switch t {
		case "number":
			if v.Type() == js.TypeNumber {
				return true
			}
		case "string":
			if v.Type() == js.TypeString {
				return true
			}
		case "boolean":
			if v.Type() == js.TypeBoolean {
				return true
			}
		case "null":
			if v.IsNull() {
				return true
			}
		case "ArrayBuffer", "Uint8Array", "Blob":
			if c := js.Global().Get(t); c.Truthy() && v.Type() == js.TypeObject && v.InstanceOf(c) {
				return true
			}
		default: // a typedef: an object
			if v.Type() == js.TypeObject {
				return true
			}
		}
	}
	return false
}

// arrayOK: v is a JS array whose every element is of type inner.
func arrayOK(v js.Value, inner string) bool {
	if !js.Global().Get("Array").Call("isArray", v).Bool() {
		return false
	}
	for i := range v.Length() {
		if !typeOK(v.Index(i), inner) {
			return false
		}
	}
	return true
}

// request is one call's arguments, already checked against the table.
type request struct {
	method protocol.Method
	args   js.Value
	emit   js.Value
}

func (r *request) has(name string) bool {
	v := r.args.Get(name)
	return !v.IsUndefined() && !v.IsNull()
}

func (r *request) str(name string) string {
	if !r.has(name) {
		return ""
	}
	return r.args.Get(name).String()
}

func (r *request) num(name string) float64 {
	if !r.has(name) {
		return 0
	}
	return r.args.Get(name).Float()
}

// int reads a whole-number argument; a fraction, NaN or a number past ±2^53 is bad.
func (r *request) int(name string) (int64, error) {
	f := r.num(name)
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, protocol.Errorf(protocol.BadRequest, "%s: argument %s is %v, not a whole number", r.method.Name, name, f)
	}
	return int64(f), nil
}

// event sends an event to the page, when the caller passed emit.
func (r *request) event(name string, data any) {
	if r.emit.Type() == js.TypeFunction {
		r.emit.Invoke(name, data)
	}
}

func errorValue(err error) js.Value {
	o := js.Global().Get("Object").New()
	o.Set("code", protocol.CodeOf(err))
	o.Set("message", err.Error())
	return o
}

// object makes a JS object of name, value pairs.
func object(kv ...any) js.Value {
	o := js.Global().Get("Object").New()
	for i := 0; i+1 < len(kv); i += 2 {
		o.Set(kv[i].(string), kv[i+1])
	}
	return o
}

// buffer copies b into a new ArrayBuffer (transferred to the page by the worker).
func buffer(b []byte) js.Value { return toUint8Array(b).Get("buffer") }

func toUint8Array(b []byte) js.Value {
	a := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(a, b)
	return a
}

// wasmBytes is the size of the wasm linear memory (it never shrinks), when the worker told
// the core where it is (neffscopeCore.memory), else 0.
func (b *bridge) wasmBytes() float64 {
	if m := b.global.Get("memory"); m.Type() == js.TypeObject {
		return m.Get("buffer").Get("byteLength").Float()
	}
	return 0
}

func ms(since time.Time) float64 { return float64(time.Since(since).Microseconds()) / 1000 }

// file returns the open file named by the handle argument.
func (b *bridge) file(r *request, name string) (*inspect.File, error) {
	h, err := r.int(name)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.files[int(h)]
	if f == nil {
		return nil, protocol.Errorf(protocol.NotFound, "no open file with handle %d (it was closed, or the worker restarted)", h)
	}
	return f, nil
}

// open → {handle, doc, ms, crossings, wasmBytes, fingerprinted}; events progress, header and
// overview (the partial overview, inspect.Options.OnPartial).
// It runs on its own goroutine: with digests, it waits where it checks the payload's
// integrity for the page's digests call (hashes.go), which the worker can only deliver then.
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
			b.pause()
		}
	} else {
		b.opening.Add(1)
		defer b.opening.Add(-1)
	}
	f := inspect.Open(name, rd, rd.size, opt)
	if background {
		b.pause()
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
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
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

// bytes → {bytes}: n bytes at off of the file ("") or a member.
func (b *bridge) bytes(r *request) (any, error) {
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	off, err := r.int("off")
	if err != nil {
		return nil, err
	}
	n, err := r.int("n")
	if err != nil {
		return nil, err
	}
	if off < 0 || n < 0 {
		return nil, protocol.Errorf(protocol.BadRequest, "bytes: bad range %d+%d", off, n)
	}
	n = min(n, maxBytesRange)
	data, err := f.Bytes(r.str("source"), off, n)
	if err != nil && len(data) == 0 {
		return nil, protocol.Wrap(protocol.NotFound, err)
	}
	return object("bytes", buffer(data)), nil
}

// json → {json}: the Document as the CLI's `neffscope inspect --json` prints it (one-space
// indent, a final newline), byte for byte, for the page's export.
func (b *bridge) docJSON(r *request) (any, error) {
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	if err := b.ensureMemberHashes(f); err != nil {
		return nil, err
	}
	if err := b.ensureSource(f); err != nil {
		return nil, err
	}
	// Written as the CLI writes it: stubs' children built as the writer reaches them.
	var out bytes.Buffer
	if _, err := f.WriteJSON(&out); err != nil {
		return nil, fmt.Errorf("encoding the document of %s as JSON: %v", f.Name, err)
	}
	return object("json", buffer(out.Bytes())), nil
}

// diff → {node} or, with format "json", {json} as `neffscope diff --json A B` prints it
// (two-space indent, a final newline), byte for byte. Files that are not NEFFs give a diff
// node whose error finding says so.
func (b *bridge) diff(r *request) (any, error) {
	fa, err := b.file(r, "a")
	if err != nil {
		return nil, fmt.Errorf("diff, file a: %w", err)
	}
	fb, err := b.file(r, "b")
	if err != nil {
		return nil, fmt.Errorf("diff, file b: %w", err)
	}
	for _, f := range []*inspect.File{fa, fb} {
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

// maxRows caps one rows() call: the listing asks for a screenful at a time.
const maxRows = 10000

// rows → {table, total}: rows [from, to) of an instruction listing (ref "stream:<member>",
// from a node's Ref), and how many there are.
func (b *bridge) rows(r *request) (any, error) {
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	from, err := r.int("from")
	if err != nil {
		return nil, err
	}
	to, err := r.int("to")
	if err != nil {
		return nil, err
	}
	if from < 0 || to < from || from > math.MaxInt32 {
		return nil, protocol.Errorf(protocol.BadRequest, "rows: bad range %d..%d", from, to)
	}
	to = min(to, from+maxRows)
	t, total, err := f.Rows(r.str("ref"), int(from), int(to))
	if err != nil {
		return nil, refError(r.str("ref"), err)
	}
	enc, err := t.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	return object("table", buffer(enc), "total", total), nil
}

// refError gives a failed lookup by ref its code: not-found when the ref names nothing here.
func refError(ref string, err error) error {
	if errors.Is(err, budget.ErrLimit) {
		return protocol.Wrap(protocol.Limit, err)
	}
	if k, _ := doc.ParseRef(ref); k == doc.RefNone {
		return protocol.Wrap(protocol.BadRequest, err)
	}
	return protocol.Wrap(protocol.NotFound, err)
}

// instruction → {node}: every field of instruction index.
func (b *bridge) instruction(r *request) (any, error) {
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	i, err := r.int("index")
	if err != nil {
		return nil, err
	}
	if i < 0 || i > math.MaxInt32 {
		return nil, protocol.Errorf(protocol.NotFound, "instruction %d: no such row", i)
	}
	n, err := f.Instruction(r.str("ref"), int(i))
	if err != nil {
		return nil, refError(r.str("ref"), err)
	}
	return encodeNode(n)
}

// ---- the lazy document (core/inspect lazy.go): nodes by path, children paged, search, locate ----

// maxChildren caps one children() call, as maxRows caps rows().
const maxChildren = 10000

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
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	n, err := f.Node(pathArg(r, "path"))
	if err != nil {
		return nil, lazyError(err)
	}
	return encodeNode(n)
}

// children → {kids, total}: children [from, to) of the node at path (msgpack array of nodes).
func (b *bridge) children(r *request) (any, error) {
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	from, err := r.int("from")
	if err != nil {
		return nil, err
	}
	to, err := r.int("to")
	if err != nil {
		return nil, err
	}
	if from < 0 || to < from || from > math.MaxInt32 {
		return nil, protocol.Errorf(protocol.BadRequest, "children: bad range %d..%d", from, to)
	}
	to = min(to, from+maxChildren)
	kids, total, err := f.Children(pathArg(r, "path"), int(from), int(to))
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
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(r.str("q"))
	limit := int64(maxSearchHits)
	if r.has("max") {
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
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
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

// maxPlotPoints caps one plot() call: the page asks for 4,096 points per redraw.
const maxPlotPoints = 1 << 16

// evaluate → {node} (kind pwp-eval): the activation function ref evaluated at x, in mode.
func (b *bridge) evaluate(r *request) (any, error) {
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	x, err := parseX(r.args.Get("x"))
	if err != nil {
		return nil, protocol.Wrap(protocol.BadRequest, err)
	}
	n, err := f.Evaluate(r.str("ref"), x, r.str("mode"))
	if err != nil {
		return nil, refError(r.str("ref"), err)
	}
	return encodeNode(n)
}

// parseX reads an evaluator input: a JS number, or a string "0x3f000000" (bits) or "0.5".
func parseX(v js.Value) (float32, error) {
	if v.Type() == js.TypeNumber {
		return float32(v.Float()), nil
	}
	s := strings.TrimSpace(v.String())
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		bits, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return 0, fmt.Errorf("x %q: a 0x bit pattern has at most 8 hex digits", s)
		}
		return math.Float32frombits(uint32(bits)), nil
	}
	x, err := strconv.ParseFloat(s, 32)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("x %q is neither a decimal number nor a 0x bit pattern", s)
	}
	return float32(x), nil
}

// plot → {node, ms} (kind pwp-plot): n samples of the function over [lo, hi] (emulated, true,
// error series; boundaries and saturation intervals in its Table).
func (b *bridge) plot(r *request) (any, error) {
	start := time.Now()
	f, err := b.file(r, "handle")
	if err != nil {
		return nil, err
	}
	n, err := r.int("n")
	if err != nil {
		return nil, err
	}
	if n < 2 || n > maxPlotPoints {
		return nil, protocol.Errorf(protocol.Limit, "plot: %d points; between 2 and %d", n, maxPlotPoints)
	}
	node, err := f.Plot(r.str("ref"), r.num("lo"), r.num("hi"), int(n), r.str("mode"))
	if err != nil {
		return nil, refError(r.str("ref"), err)
	}
	enc, err := node.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	return object("node", buffer(enc), "ms", ms(start)), nil
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

// contextBytes is a raw libncfw context held in memory for re-emitting.
type contextBytes struct {
	name string
	data []byte
}

// maxContext bounds a raw context read into memory (core/inspect reads at most 64 MiB too).
const maxContext = 64 << 20

// openContext → {handle, doc, ms}: the file as a raw libncfw collective context emulated for
// arch (0: the best guess from its size). The bytes stay in the worker, so recontext can
// switch arch without reading the file again.
func (b *bridge) openContext(r *request) (any, error) {
	rd, name, err := fileArg(r, "file")
	if err != nil {
		return nil, err
	}
	if r.has("name") {
		name = r.str("name")
	}
	if rd.size > maxContext {
		return nil, protocol.Errorf(protocol.Limit, "openContext: %s is %d bytes; a context is read whole, at most %d bytes", name, rd.size, maxContext)
	}
	data := make([]byte, rd.size)
	n, err := rd.ReadAt(data, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	c := &contextBytes{name: name, data: data[:n]}
	return b.emitContext(c, 0, archArg(r), r.str("model"))
}

// recontext → {handle, doc, ms}: the context of handle emulated again for another arch (or
// model name), under the same handle.
func (b *bridge) recontext(r *request) (any, error) {
	h, err := r.int("handle")
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	c := b.contexts[int(h)]
	b.mu.Unlock()
	if c == nil {
		return nil, protocol.Errorf(protocol.NotFound, "handle %d is not an open libncfw context", h)
	}
	return b.emitContext(c, int(h), archArg(r), r.str("model"))
}

// archArg reads the optional arch; anything but a whole number in uint32 range is 0 (guess).
func archArg(r *request) uint32 {
	a := r.num("arch")
	if a < 0 || a > math.MaxUint32 || a != math.Trunc(a) {
		return 0
	}
	return uint32(a)
}

func (b *bridge) emitContext(c *contextBytes, h int, arch uint32, model string) (any, error) {
	start := time.Now()
	f := inspect.OpenContext(c.name, bytes.NewReader(c.data), int64(len(c.data)), arch, model)
	h, enc, err := b.keep(f, h)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.contexts[h] = c
	b.mu.Unlock()
	return object("handle", h, "doc", buffer(enc), "ms", ms(start)), nil
}

// contextArches → {node} (kind ncfw-arches): the arches a raw context of size bytes could
// be, with which fit and the best guess.
func (b *bridge) contextArches(r *request) (any, error) {
	size, err := r.int("size")
	if err != nil {
		return nil, err
	}
	return encodeNode(inspect.ContextArches(size))
}

func encodeNode(n *doc.Node) (any, error) {
	enc, err := n.MarshalMsg(nil)
	if err != nil {
		return nil, err
	}
	return object("node", buffer(enc)), nil
}

// maxCompare caps the files of one compare: its table has a column per file.
const maxCompare = 64

// compare → {node} (kind compare): fleet.Compare of the open files, one table of facts.
func (b *bridge) compare(r *request) (any, error) {
	list := r.args.Get("handles")
	if n := list.Length(); n < 2 || n > maxCompare {
		return nil, protocol.Errorf(protocol.Limit, "compare: %d files; between 2 and %d", n, maxCompare)
	}
	files := make([]*inspect.File, list.Length())
	for i := range files {
		f, err := b.file(&request{method: r.method, args: object("handle", list.Index(i))}, "handle")
		if err != nil {
			return nil, fmt.Errorf("compare, file %d: %w", i+1, err)
		}
		if err := b.ensureMemberHashes(f); err != nil {
			return nil, err
		}
		if err := b.ensureSource(f); err != nil {
			return nil, err
		}
		files[i] = f
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

// ---- reading the File through JS ----

// fileArg reads the file argument name of r (protocol.File): see fileValue.
func fileArg(r *request, name string) (*jsReaderAt, string, error) {
	return fileValue(r.args.Get(name), r.method.Name+": argument "+name)
}

// fileValue makes a reader over a file value: a Blob read in slices through FileReaderSync
// (only a worker has it), or a Uint8Array or ArrayBuffer (the page fallback reads the Blob
// whole first). The name is the Blob's, or a byte array's name property, else "file".
func fileValue(v js.Value, what string) (*jsReaderAt, string, error) {
	name := "file"
	if n := v.Get("name"); n.Type() == js.TypeString && n.String() != "" {
		name = n.String()
	}
	if blob := js.Global().Get("Blob"); blob.Truthy() && v.InstanceOf(blob) {
		frsClass := js.Global().Get("FileReaderSync")
		if !frsClass.Truthy() {
			return nil, "", protocol.Errorf(protocol.BadRequest, "%s: a Blob cannot be read synchronously here (no FileReaderSync outside a worker); pass its bytes", what)
		}
		frs := frsClass.New()
		u8 := js.Global().Get("Uint8Array")
		read := func(off, n int64) js.Value {
			return u8.New(frs.Call("readAsArrayBuffer", v.Call("slice", off, off+n)))
		}
		return newJSReaderAt(read, int64(v.Get("size").Float()), 0), name, nil
	}
	if v.InstanceOf(js.Global().Get("ArrayBuffer")) {
		v = js.Global().Get("Uint8Array").New(v)
	}
	if !v.InstanceOf(js.Global().Get("Uint8Array")) {
		return nil, "", protocol.Errorf(protocol.BadRequest, "%s must be a Blob, Uint8Array or ArrayBuffer", what)
	}
	read := func(off, n int64) js.Value { return v.Call("subarray", off, off+n) }
	return newJSReaderAt(read, int64(v.Length()), 0), name, nil
}

// defaultReadAhead is how much one crossing into JS fetches. In Chromium each crossing is a
// FileReaderSync read (a new ArrayBuffer, a trip to the blob store): a 200 MiB open took
// 5.6 s of core time with 512 KiB reads, 4.6 s with 4 MiB and 4.0 s with 16 MiB, whose
// buffers double the wasm heap. 4 MiB is the knee.
const defaultReadAhead = 4 << 20

// jsReaderAt is an io.ReaderAt over read(off, n) → Uint8Array of JS bytes, with a read-ahead
// buffer so small sequential reads cost one JS call per chunk. The File is never copied
// whole into wasm memory.
type jsReaderAt struct {
	readJS    func(off, n int64) js.Value
	size      int64
	chunk     int
	buf       []byte
	bufOff    int64
	crossings int   // JS calls made, for tests and the benchmark figures
	read      int64 // bytes fetched from JS
}

func newJSReaderAt(read func(off, n int64) js.Value, size int64, chunk int) *jsReaderAt {
	if chunk <= 0 {
		chunk = defaultReadAhead
	}
	return &jsReaderAt{readJS: read, size: size, chunk: chunk}
}

func (r *jsReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read at negative offset %d", off)
	}
	n := 0
	for n < len(p) && off < r.size {
		if off >= r.bufOff && off < r.bufOff+int64(len(r.buf)) {
			c := copy(p[n:], r.buf[off-r.bufOff:])
			n += c
			off += int64(c)
			continue
		}
		want := min(int64(len(p)-n), r.size-off)
		if want >= int64(r.chunk) {
			// A big read goes straight into p: no point in buffering it.
			c, err := r.fetch(p[n:n+int(want)], off)
			n += c
			off += int64(c)
			if err != nil {
				return n, err
			}
			continue
		}
		fill := min(int64(r.chunk), r.size-off)
		if cap(r.buf) < int(fill) {
			r.buf = make([]byte, r.chunk)
		}
		r.buf = r.buf[:fill]
		c, err := r.fetch(r.buf, off)
		r.buf, r.bufOff = r.buf[:c], off
		if err != nil {
			r.buf = r.buf[:0]
			return n, err
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// fetch fills dst from JS at off; a JS exception (the file changed or vanished on disk)
// becomes an error.
func (r *jsReaderAt) fetch(dst []byte, off int64) (n int, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("reading %d bytes at offset %d of the file failed: %v (was the file changed or removed while open?)", len(dst), off, p)
		}
	}()
	r.crossings++
	v := r.readJS(off, int64(len(dst)))
	if v.Type() != js.TypeObject {
		return 0, fmt.Errorf("reading %d bytes at offset %d gave %s, not bytes", len(dst), off, v.Type())
	}
	n = js.CopyBytesToGo(dst, v)
	r.read += int64(n)
	if n == 0 {
		return 0, fmt.Errorf("reading at offset %d of the file gave no bytes (was it truncated while open?)", off)
	}
	return n, nil
}
